"""Plain typed records passed between the stages of kg (corpus -> nlp -> resolve -> graph -> sinks).

Nothing here imports spaCy, networkx or Neo4j: every stage may depend on this module.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
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
    has_input_id: bool = False  # ``id`` came from the input (a DOI, arXiv id or the source's id), not the text
    doi: str | None = None  # lower case, no resolver prefix; an arXiv DOI too (``arxiv_id`` names the paper)
    arxiv_id: str | None = None  # no version, no "arXiv:" prefix
    other_ids: list[str] = field(default_factory=list)  # the sources' own ids (OpenAlex, Semantic Scholar, ...)
    keywords: list[str] = field(default_factory=list)  # as the input gives them (BibTeX keywords, OpenAlex concepts)


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
    in_title: bool = False  # found in the paper's title: offsets and sentence point into ``Paper.title``


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
    # The paper's text embedding (kg.related.semantic.pack): set by the build after extraction (its own cache,
    # kg.build.cache.EmbeddingCache), not pickled between processes.
    embedding: str | None = None

    def rows(self) -> tuple[str, list[tuple], list[tuple], dict[str, list[str]], list[tuple]]:
        """The extraction as plain values: its id, a tuple per mention (:func:`mention_row`), per result
        (:func:`result_row`) and per generic mention, and its aliases. :meth:`from_rows` makes it again."""
        return (self.paper_id, [mention_row(m) for m in self.mentions], [result_row(r) for r in self.results],
                self.aliases, [mention_row(m) for m in self.generic])

    @classmethod
    def from_rows(cls, paper_id: str, mentions: Iterable[Sequence], results: Iterable[Sequence],
                  aliases: dict[str, list[str]], generic: Iterable[Sequence]) -> Extraction:
        """The extraction of :meth:`rows` (rows may be lists, as JSON gives them back)."""
        return cls(paper_id, _mentions(mentions), [Result(v, me, da, mt, Span(s, e)) for v, me, da, mt, s, e in results],
                   aliases, _mentions(generic))

    def __reduce__(self):
        # Pickled as rows: the dataclasses' own pickling (a __getstate__/__setstate__ per Mention and Span) took
        # 116-124 us per abstract to pickle in an extraction worker and 156-178 us to unpickle in the build
        # process, against 17 and 74 us this way (3,000 synthetic abstracts, batches of 256).
        return (_from_rows, self.rows())

    @property
    def proposed(self) -> list[str]:
        """Canonical names of the paper's own proposed methods, in order of first mention (one spelling per name in
        any case: the title's "Multi-Game Decision Transformers" and the abstract's lower-case one are one)."""
        seen: dict[str, str] = {}
        for m in self.mentions:
            if m.proposed:
                seen.setdefault(m.canonical.lower(), m.canonical)
        return list(seen.values())


def mention_row(m: Mention) -> tuple:
    """A mention as a tuple in field order, its sentence as two offsets."""
    return (m.start, m.end, m.label, m.text, m.canonical, m.extractor, m.sentence.start, m.sentence.end, m.proposed,
            m.benchmark, m.confidence, m.in_title)


def result_row(r: Result) -> tuple:
    """A result as a tuple in field order, its sentence as two offsets."""
    return (r.value, r.method, r.dataset, r.metric, r.sentence.start, r.sentence.end)


def _mentions(rows: Iterable[Sequence]) -> list[Mention]:
    return [Mention(a, b, label, text, canonical, extractor, Span(s, e), proposed, benchmark, confidence, in_title)
            for a, b, label, text, canonical, extractor, s, e, proposed, benchmark, confidence, in_title in rows]


def _from_rows(*rows) -> Extraction:  # what unpickling an Extraction calls
    return Extraction.from_rows(*rows)
