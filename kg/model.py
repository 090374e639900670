"""Plain typed records passed between the stages of kg (corpus -> nlp -> resolve -> graph -> sinks).

Nothing here imports spaCy, networkx or Neo4j: every stage may depend on this module.
"""
from __future__ import annotations

from dataclasses import dataclass, field

LABELS: tuple[str, ...] = ("METHOD", "TASK", "DATASET", "METRIC")


@dataclass(frozen=True, slots=True)
class Source:
    """Where a record was read: a file (or ``-`` for stdin) and a 1-based line number."""

    path: str
    line: int

    def __str__(self) -> str:
        return f"{self.path}:{self.line}"


@dataclass(slots=True)
class Paper:
    """One abstract as the input gave it. ``text`` is raw: all offsets kg reports point into it."""

    id: str
    text: str
    title: str | None = None
    venue: str | None = None
    year: int | None = None
    authors: list[str] = field(default_factory=list)
    url: str | None = None
    sources: list[Source] = field(default_factory=list)
    has_input_id: bool = False


@dataclass(frozen=True, slots=True)
class Span:
    """A half-open character range ``[start, end)`` into a paper's raw text."""

    start: int
    end: int


@dataclass(slots=True)
class Mention:
    """One occurrence of a concept in an abstract, with its evidence sentence (raw offsets)."""

    start: int
    end: int
    label: str  # one of LABELS
    text: str  # surface form after cleaning (LaTeX/markdown removed)
    canonical: str  # display name of the concept it refers to
    extractor: str  # which rule or model found it: gazetteer, abbreviation, proposed, context, ...
    sentence: Span
    proposed: bool = False
    benchmark: bool = False
    confidence: float = 1.0


@dataclass(slots=True)
class Result:
    """A reported number: (method, dataset, metric, value), any of the first three may be unknown."""

    value: str
    method: str | None
    dataset: str | None
    metric: str | None
    sentence: Span


@dataclass
class Extraction:
    """Everything the NLP stage found in one paper."""

    paper_id: str
    mentions: list[Mention] = field(default_factory=list)
    results: list[Result] = field(default_factory=list)
    aliases: dict[str, list[str]] = field(default_factory=dict)  # canonical -> other surface forms
    # Mentions of a class of things rather than one ("linear models"): reported with the mentions, but not concepts.
    generic: list[Mention] = field(default_factory=list)

    @property
    def proposed(self) -> list[str]:
        """Canonical names of the paper's own proposed methods, in order of first mention."""
        seen: dict[str, None] = {}
        for m in self.mentions:
            if m.proposed:
                seen.setdefault(m.canonical, None)
        return list(seen)

