"""The name a paper's title gives its contribution: "GraphDE: A Generative Framework for ..." proposes GraphDE.

A title of the form ``NAME: description`` names the paper's own method (or, when the description calls it a
dataset or benchmark, its dataset). Where the abstract writes that name, each occurrence becomes a proposed
candidate. The name is taken when it is one word with a letter ("GraphDE", "Okapi", "DPM-Solver"), or up to four
capitalised words that the abstract writes with the same capitals mid-sentence ("Natural Color Fool"); umbrella
and background words ("Knowledge Distillation", "Gradient Descent") are never names.

``kg.nlp.extract`` puts the title in the abstract doc's ``doc.user_data[TITLE]``, and runs the title as a doc of
its own (``IN_TITLE``), where a one-word name is proposed too; a doc with neither is left alone.
"""
from __future__ import annotations

import re

from spacy.language import Language
from spacy.tokens import Doc

from kg.nlp.candidates import Candidate, candidates
from kg.nlp.specificity import load_specificity

TITLE = "kg_title"  # doc.user_data key: the paper's title, when the input gave one (on the abstract's doc)
IN_TITLE = "kg_in_title"  # doc.user_data key: on a title's own doc, the title as written (kg.nlp.extract)
_PREFIX = re.compile(r"^\s*([^:]{1,60}?)\s*:\s+(\S.*)$")
_DATASET_WORDS = re.compile(r"\b(benchmarks?|datasets?|data sets?|corpus|corpora|suite|testbed)\b", re.I)
_WORD = re.compile(r"[A-Za-z]")


def title_name(title: str) -> tuple[str, str, bool] | None:
    """``(name, label, multiword)`` of a ``NAME: description`` title, or None when the prefix is not a name."""
    m = _PREFIX.match(title)
    if not m or "$" in m.group(1) or "\\" in m.group(1):
        return None
    name, description = m.group(1), m.group(2)
    words = name.split()
    if not _WORD.search(name) or len(words) > 4:
        return None
    if len(words) > 1 and not all(w[:1].isupper() or not w[:1].isalpha() for w in words):
        return None
    spec = load_specificity()
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


@Language.factory("kg_title_name", default_config={})
def make_title_name(nlp: Language, name: str):
    """Pipeline component (before ``kg_mentions``): the title's ``NAME:`` as proposed candidates in the text."""

    def title_name_candidates(doc: Doc) -> Doc:
        written = doc.user_data.get(IN_TITLE)  # on a title's doc: the title as written (the doc's is lower-cased)
        in_title = written is not None
        title = written if in_title else doc.user_data.get(TITLE)
        found = title_name(title) if title else None
        if found is None or (in_title and found[2]):
            return doc  # in the title itself, a multi-word prefix has its capitals from the title's case
        proposed, label, multiword = found
        out = candidates(doc)
        for start, end in _occurrences(title, proposed, multiword)[:1] if in_title else \
                _occurrences(doc.text, proposed, multiword):
            span = doc.char_span(start, end, alignment_mode="expand")
            if span is None or (multiword and doc[span.start].is_sent_start):
                continue  # a multi-word name at a sentence start has its capitals from the sentence
            out.append(Candidate(span.start, span.end, label, "proposed", canonical=(title if in_title else doc.text)[start:end],
                                 proposed=True))
        return doc

    return title_name_candidates
