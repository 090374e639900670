"""Candidate mentions that rule components put on a Doc, before the final selection.

Each component appends ``Candidate`` records to ``doc._.kg_candidates``; ``kg_mentions`` then
resolves overlaps by priority. Keeping candidates (rather than writing ``doc.ents`` directly) lets
each component stay ignorant of the others.
"""
from __future__ import annotations

from dataclasses import dataclass

from spacy.tokens import Doc, Span, Token

# Higher wins when candidates overlap.
PRIORITY = {"proposed": 100, "abbreviation": 70, "gazetteer": 60, "context": 40, "model": 30, "name": 10}


@dataclass
class Candidate:
    start: int  # token index
    end: int  # token index, exclusive
    label: str
    extractor: str
    canonical: str | None = None  # None: the span's own text
    proposed: bool = False
    benchmark: bool = False
    confidence: float = 1.0

    @property
    def priority(self) -> int:
        return PRIORITY.get(self.extractor, 0)


@dataclass(frozen=True)
class Abbreviation:
    """``long (short)`` or ``short (long)`` defined in the text, as token ranges."""

    long_start: int
    long_end: int
    short_start: int
    short_end: int

    def long(self, doc: Doc) -> Span:
        return doc[self.long_start : self.long_end]

    def short(self, doc: Doc) -> Span:
        return doc[self.short_start : self.short_end]


for _name in ("kg_candidates", "kg_abbreviations", "kg_mentions", "kg_results"):
    if not Doc.has_extension(_name):
        Doc.set_extension(_name, default=None)


def candidates(doc: Doc) -> list[Candidate]:
    """The doc's candidate list, created on first use."""
    if doc._.kg_candidates is None:
        doc._.kg_candidates = []
    return doc._.kg_candidates


def abbreviations(doc: Doc) -> list[Abbreviation]:
    """Abbreviations found by ``kg_abbreviations`` (empty if that component did not run)."""
    return doc._.kg_abbreviations or []


_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-+._'^")


def is_namelike(tok: Token) -> bool:
    """True for tokens shaped like a proper name in ML text: ``TabPFNv2``, ``COBRA``, ``Office31``, ``Walrus``."""
    t = tok.text
    if len(t) < 2 or not t[0].isalnum() or not any(c.isalpha() for c in t) or not _NAME_CHARS.issuperset(t) or tok.like_url:
        return False
    if any(c.isupper() for c in t[1:]):
        return True
    if t[0].isalpha() and any(c.isdigit() for c in t):
        return True
    return t[0].isupper() and not tok.is_sent_start
