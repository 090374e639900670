"""Sentence boundaries from punctuation, as spaCy's ``sentencizer`` sets them, read from the doc's token array.

spaCy's rule-based ``Sentencizer`` makes a Python ``Token`` for every token of every doc (about 7% of the default
pipeline's time); this component applies the same rule to the token array's ORTH ids and punctuation flags in a typed
loop and writes the boundaries into it. The boundaries are the same (tested against spaCy's component); the start
indices are also kept in ``doc.user_data`` for the rules.
"""
from __future__ import annotations

from spacy.language import Language
from spacy.pipeline import Sentencizer
from spacy.strings import get_string_id
from spacy.tokens import Doc

from kg.nlp import _doc
from kg.nlp.candidates import SENTENCE_SPANS, SENTENCE_STARTS

PUNCT_CHARS = _doc.IdSet(get_string_id(c) for c in Sentencizer.default_punct_chars)


def sentence_starts(doc: Doc) -> list[int]:
    """Token indices that start a sentence: the first token, and the first non-punctuation token after a
    sentence-final character ("." "!" "?" and the other ``Sentencizer.default_punct_chars``); a typed scan of the
    doc's tokens (:func:`kg.nlp._doc.sentence_starts`)."""
    return _doc.sentence_starts(doc, PUNCT_CHARS)


def set_sentences(doc: Doc) -> Doc:
    """Mark sentence starts (1) and every other token (-1) on ``doc``."""
    if not len(doc):
        return doc
    starts = sentence_starts(doc)
    _doc.set_sentence_starts(doc, starts)
    doc.user_data[SENTENCE_STARTS] = starts  # for kg.nlp.candidates.sentence_starts, which would read them back
    doc.user_data.pop(SENTENCE_SPANS, None)  # sentences made from earlier boundaries, if any
    return doc


@Language.factory("kg_sentencizer")
def make_sentencizer(nlp: Language, name: str):
    """Pipeline component: sentence boundaries (``token.is_sent_start``, ``doc.sents``)."""
    return set_sentences
