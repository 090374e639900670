"""The name a paper's title gives its contribution: "GraphDE: A Generative Framework for ..." proposes GraphDE.

A title of the form ``NAME: description`` names the paper's own method (or, when the description calls it a
dataset or benchmark, its dataset); so does ``Capitalised Name for what it does`` ("Subsidiary Prototype
Alignment for Universal Domain Adaptation"), a name of two to four words. Where the abstract writes that name, each occurrence becomes a proposed
candidate. The name is taken when it is one word with a letter ("GraphDE", "Okapi", "DPM-Solver"), or up to four
capitalised words that the abstract writes with the same capitals mid-sentence ("Natural Color Fool"); umbrella
and background words ("Knowledge Distillation", "Gradient Descent") are never names.

``kg.nlp.extract`` reads the title as the doc's first sentence (in lower case) and puts it, as written, in
``doc.user_data[TITLE]``; a one-word name is proposed in the title too. A doc without a title is left alone.
"""
from __future__ import annotations

import re

from spacy.language import Language
from spacy.tokens import Doc, Span

from kg.nlp import lexicon
from kg.nlp.candidates import Candidate, abbreviations, candidates, doc_text
from kg.nlp.components.gazetteer import load_gazetteer
from kg.nlp.components.specificity import load_specificity
from kg.nlp.labels import label_from_words, names_a_task

TITLE = "kg_title"  # doc.user_data key: the paper's title as written, when the input gave one
_PREFIX = re.compile(r"^\s*([^:]{1,60}?)\s*:\s+(\S.*)$")
_FOR = re.compile(r"^\s*((?:[A-Z][\w-]*\s+){1,3}[A-Z][\w-]*)\s+for\s+(\S.*)$")  # "Name Of Two To Four Words for ..."
# A dataset word as the description's head ("A Benchmark for ...", "a Large-Scale Dataset"), not as a modifier
# ("Towards Dataset Copyright Protection").
_DATASET_WORDS = re.compile(r"\b(benchmarks?|datasets?|data sets?|corpus|corpora|suite|testbed)\b"
                            r"(?=\s*$|\s*[,.;:(]|\s+(?:for|of|on|in|to|with|and|from|that|towards?)\b)", re.I)
_WORD = re.compile(r"[A-Za-z]")
_NOT_LAST = lexicon.words("title_name_not_last")
_NOT_FIRST = lexicon.words("title_name_not_first")
_PROPOSAL = lexicon.words("proposing_verbs") | lexicon.words("own_words") | {"proposed"}


def title_name(title: str) -> tuple[str, str, bool] | None:
    """``(name, label, multiword)`` of a ``NAME: description`` title, or None when the prefix is not a name."""
    m = _PREFIX.match(title) or _FOR.match(title)
    if not m or "$" in m.group(1) or "\\" in m.group(1):
        return None
    name, description = m.group(1), m.group(2)
    words = name.split()
    if not _WORD.search(name) or len(words) > 4:
        return None
    spec = load_specificity()
    if m.re is _FOR and (len(words) < 2 or words[0].lower() in _NOT_FIRST or words[-1].lower() in _NOT_LAST):
        return None  # "A Unified Framework for ...", "Sublinear Algorithms for ...": a description, not a name
    if len(words) > 1 and not all(w[:1].isupper() or not w[:1].isalpha() for w in words):
        return None
    low = [w.lower() for w in re.findall(r"[^\W_]+", name)]
    if spec.reason(name, "METHOD") is not None or all(w in spec.generic_words or w in spec.class_heads for w in low):
        return None
    label = "DATASET" if _DATASET_WORDS.search(" ".join(description.split()[:6])) else "METHOD"
    return name, label, len(words) > 1


def _occurrences(text: str, name: str, multiword: bool) -> list[tuple[int, int]]:
    """Character ranges where ``text`` writes ``name`` as whole words (a multi-word name with its capitals; one
    word in any case)."""
    flags = 0 if multiword else re.I
    pattern = re.compile(rf"(?<![\w-]){re.escape(name)}(?![\w-])", flags)
    return [(m.start(), m.end()) for m in pattern.finditer(text)]


def _written_lower(doc: Doc, text: str, name: str, label: str) -> list[tuple[int, int, Span]]:
    """Where the abstract writes a multi-word title name in lower case ("Untargeted Backdoor Watermark: ..." and
    "we design the untargeted backdoor watermark"): taken only when one such use follows a proposal ("we design
    the", "the proposed", "our"), the name is no known concept and its head word makes it a method or dataset
    ("Fair Ranking: ..." names a task)."""
    if name.lower() in load_gazetteer().lookup() or label_from_words(name) not in ("METHOD", "DATASET") \
            or names_a_task(name):
        return []  # a known concept, or a task's head ("Fair Ranking", "Robust Estimation")
    found_at = _spans(doc, _occurrences(text, name.lower(), False))
    if not any(any(t.lower_ in _PROPOSAL for t in doc[max(0, s.start - 3):s.start]) for _, _, s in found_at):
        return []
    return found_at


def _spelled_pair(doc: Doc, name: str):
    """The first abbreviation pair of the abstract whose short form the initials of ``name`` spell ("SPA" for
    "Subsidiary Prototype Alignment"), or None."""
    initials = "".join(w[0] for w in re.findall(r"[A-Za-z][\w]*", name)).upper()
    for pair in abbreviations(doc):
        short = pair.short(doc).text
        if len(initials) >= 2 and short.upper() == initials and short.isupper():
            return pair
    return None


def _spans(doc: Doc, ranges: list[tuple[int, int]]) -> list[tuple[int, int, Span]]:
    """Each character range with the tokens that are it (not part of a longer token: a URL's "/NodeFormer")."""
    return [(a, b, s) for a, b in ranges if (s := doc.char_span(a, b)) is not None]


@Language.factory("kg_title_name", default_config={})
def make_title_name(nlp: Language, name: str):
    """Pipeline component (before ``kg_mentions``): the title's ``NAME:`` as proposed candidates in the text."""

    def title_name_candidates(doc: Doc) -> Doc:
        title = doc.user_data.get(TITLE)
        found = title_name(title) if title else None
        if found is None:
            return doc
        proposed, label, multiword = found
        out = candidates(doc)
        text = doc_text(doc)
        found_at = _spans(doc, _occurrences(text, proposed, multiword))
        # a multi-word name at a sentence start has its capitals from the sentence
        found_at = [(a, b, s) for a, b, s in found_at if not (multiword and s[0].is_sent_start)]
        lowered = multiword and not found_at
        if lowered:
            found_at = _written_lower(doc, text, proposed, label)
        if multiword and not found_at:
            # "Subsidiary Prototype Alignment for ..." and "subsidiary prototype-space alignment (SPA)" in the text
            pair = None if proposed.lower() in load_gazetteer().lookup() else _spelled_pair(doc, proposed)
            if pair is not None:  # (a known name, "Active Learning (AL)", is no new one)
                out.append(pair.proposed(doc, label))
            return doc
        pairs = {(a.long_start, a.long_end): a for a in abbreviations(doc)}
        for start, end, span in found_at:
            written = title[start:end] if end <= len(title) and title[start:end].lower() == text[start:end].lower() \
                else text[start:end]  # in the title (read in lower case), the name as the title writes it
            written = proposed if lowered else written
            pair = pairs.get((span.start, span.end))
            if pair is not None:  # "Multi-modal Grouping Network, namely MGN": one concept, named by its short form
                out.append(pair.proposed(doc, label))
                continue
            out.append(Candidate(span.start, span.end, label, "proposed", canonical=written, proposed=True))
        return doc

    return title_name_candidates
