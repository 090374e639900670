"""Sentence boundaries from punctuation, as spaCy's ``sentencizer`` sets them, read from two attribute columns.

spaCy's rule-based ``Sentencizer`` makes a Python ``Token`` for every token of every doc (about 7% of the default
pipeline's time); this component applies the same rule to the ORTH and IS_PUNCT columns the other rules already
share (:func:`kg.nlp.candidates.column`) and writes the boundaries into the doc's token array. The boundaries are the
same (tested against spaCy's component); the start indices are also kept in ``doc.user_data`` for the rules.
"""
from __future__ import annotations

from spacy.attrs import IS_PUNCT, ORTH
from spacy.language import Language
from spacy.pipeline import Sentencizer
from spacy.strings import get_string_id
from spacy.tokens import Doc

from kg.nlp import _doc
from kg.nlp.candidates import SENTENCE_SPANS, SENTENCE_STARTS, column

PUNCT_CHARS = frozenset(get_string_id(c) for c in Sentencizer.default_punct_chars)


def sentence_starts(orth: list[int], is_punct: list[int]) -> list[int]:
    """Token indices that start a sentence: the first token, and the first non-punctuation token after a
    sentence-final character ("." "!" "?" and the other ``Sentencizer.default_punct_chars``)."""
    starts = [0] if orth else []
    seen_final = False
    for i, h in enumerate(orth):
        final = h in PUNCT_CHARS
        if seen_final and not final and not is_punct[i]:
            starts.append(i)
            seen_final = False
        elif final:
            seen_final = True
    return starts


def set_sentences(doc: Doc) -> Doc:
    """Mark sentence starts (1) and every other token (-1) on ``doc``."""
    if not len(doc):
        return doc
    starts = sentence_starts(column(doc, ORTH), column(doc, IS_PUNCT))
    _doc.set_sentence_starts(doc, starts)
    doc.user_data[SENTENCE_STARTS] = starts  # for kg.nlp.candidates.sentence_starts, which would read them back
    doc.user_data.pop(SENTENCE_SPANS, None)  # sentences made from earlier boundaries, if any
    return doc


@Language.factory("kg_sentencizer")
def make_sentencizer(nlp: Language, name: str):
    """Pipeline component: sentence boundaries (``token.is_sent_start``, ``doc.sents``)."""
    return set_sentences
