"""The name a paper's title gives its contribution: "GraphDE: A Generative Framework for ..." proposes GraphDE.

A title of the form ``NAME: description`` names the paper's own method (or, when the description calls it a
dataset or benchmark, its dataset). Where the abstract writes that name, each occurrence becomes a proposed
candidate. The name is taken when it is one word with a letter ("GraphDE", "Okapi", "DPM-Solver"), or up to four
capitalised words that the abstract writes with the same capitals mid-sentence ("Natural Color Fool"); umbrella
and background words ("Knowledge Distillation", "Gradient Descent") are never names.

``kg.nlp.extract`` reads the title as the doc's first sentence (in lower case) and puts it, as written, in
``doc.user_data[TITLE]``; a one-word name is proposed in the title too. A doc without a title is left alone.
"""
from __future__ import annotations

import re

from spacy.language import Language
from spacy.tokens import Doc

from kg.nlp.candidates import Candidate, candidates, doc_text
from kg.nlp.components.specificity import load_specificity

TITLE = "kg_title"  # doc.user_data key: the paper's title as written, when the input gave one
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
        title = doc.user_data.get(TITLE)
        found = title_name(title) if title else None
        if found is None:
            return doc
        proposed, label, multiword = found
        out = candidates(doc)
        text = doc_text(doc)
        for start, end in _occurrences(text, proposed, multiword):
            span = doc.char_span(start, end, alignment_mode="expand")
            if span is None or (multiword and doc[span.start].is_sent_start):
                continue  # a multi-word name at a sentence start has its capitals from the sentence
            written = title[start:end] if end <= len(title) and title[start:end].lower() == text[start:end].lower() \
                else text[start:end]  # in the title (read in lower case), the name as the title writes it
            out.append(Candidate(span.start, span.end, label, "proposed", canonical=written, proposed=True))
        return doc

    return title_name_candidates
