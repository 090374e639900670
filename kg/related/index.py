"""``kg related`` from the index a build writes (``related/``, :mod:`kg.sinks.related_index`): the same ranking as
:func:`kg.related.ranking.related`, read from memory-mapped arrays instead of a graph loaded from ``graph.json``.

>>> index = RelatedIndex.load(Path("out/related"))   # doctest: +SKIP
>>> index.related("paper:2106.09685", top=5)           # doctest: +SKIP
"""
from __future__ import annotations

import json
from pathlib import Path

import numpy

from kg.related.ranking import DEFAULT_WEIGHTS, TEXT_WEIGHT, Hit, Shared, best
from kg.related.textsim import QUERY_TERMS

DIRECTORY = "related"
_ARRAYS = ("paper_ptr", "paper_concepts", "concept_ptr", "concept_papers", "doc_ptr", "doc_terms", "doc_weights",
           "term_ptr", "term_docs", "term_weights")


class RelatedIndex:
    """A build's related-work index."""

    def __init__(self, papers: dict, concepts: dict, arrays: dict[str, numpy.ndarray]) -> None:
        self.ids: list[str] = papers["ids"]
        self.names: list[str] = papers["names"]
        self.venues, self.years = papers["venues"], papers["years"]
        self.number = {p: i for i, p in enumerate(self.ids)}
        self.concept_names, self.concept_types = concepts["names"], concepts["types"]
        self.idf = numpy.asarray(concepts["idf"], dtype=numpy.float64)
        self.a = arrays

    @classmethod
    def load(cls, directory: Path) -> RelatedIndex:
        """The index in ``directory`` (``OUT/related``), its arrays memory-mapped."""
        papers = json.loads((directory / "papers.json").read_text(encoding="utf-8"))
        concepts = json.loads((directory / "concepts.json").read_text(encoding="utf-8"))
        arrays = {name: numpy.load(directory / f"{name}.npy", mmap_mode="r") for name in _ARRAYS}
        return cls(papers, concepts, arrays)

    def venue_year(self, paper: str) -> tuple:
        """A paper's venue and year."""
        i = self.number[paper]
        return self.venues[i], self.years[i]

    def _row(self, name: str, other: str, i: int) -> numpy.ndarray:
        ptr = self.a[f"{name}_ptr"]
        return self.a[other][ptr[i]:ptr[i + 1]]

    def similar(self, i: int) -> numpy.ndarray:
        """Cosine similarity of paper ``i``'s text to every paper (through its heaviest words; 0 for itself)."""
        terms, weights = self._row("doc", "doc_terms", i), self._row("doc", "doc_weights", i)
        heaviest = sorted(zip(terms.tolist(), weights.tolist()), key=lambda tw: -tw[1])[:QUERY_TERMS]
        scores = numpy.zeros(len(self.ids), dtype=numpy.float64)
        for t, v in heaviest:
            u = self._row("term", "term_weights", t).astype(numpy.float64)
            numpy.add.at(scores, self._row("term", "term_docs", t), v * u)
        scores[i] = 0.0
        return scores

    def related(self, paper: str, *, top: int = 10, weights: dict[str, float] | None = None,
                text_weight: float = TEXT_WEIGHT) -> list[Hit]:
        """Papers related to the paper node ``paper``, as :func:`kg.related.ranking.related` ranks them: the scores
        of all papers at once, then the explanations of the best."""
        i = self.number[paper]
        weights = weights or DEFAULT_WEIGHTS
        n = len(self.ids)
        mine: dict[int, float] = {}
        concept_score = numpy.zeros(n, dtype=numpy.float64)
        for c in self._row("paper", "paper_concepts", i).tolist():
            w = weights.get(self.concept_types[c], 0.0) * float(self.idf[c])
            if w > 0:
                mine[c] = w
                concept_score[self._row("concept", "concept_papers", c)] += w
        concept_score[i] = 0.0
        similarity = self.similar(i) if text_weight else numpy.zeros(n)
        candidates = concept_score > 0
        if text_weight and weights == DEFAULT_WEIGHTS:
            candidates |= similarity > 0
        most = float(concept_score.max()) if n else 0.0
        scale = text_weight * (most or 1.0)  # the texts' part on the concepts' scale, as kg.related.ranking.rank
        total = concept_score + scale * similarity
        chosen = numpy.flatnonzero(candidates)
        rounded = numpy.round(total[chosen], 9)
        if len(chosen) > top:  # the best ``top`` and every paper tied with the last of them
            kth = -numpy.partition(-rounded, top - 1)[top - 1]
            chosen = chosen[rounded >= kth]
        hits = []
        for q in chosen.tolist():
            shared = [Shared(self.concept_names[c], self.concept_types[c], mine[c])
                      for c in self._row("paper", "paper_concepts", q).tolist() if c in mine]
            sim = float(similarity[q])
            hits.append(Hit(self.ids[q], self.names[q], sum(s.weight for s in shared) + scale * sim,
                            sorted(shared, key=lambda s: (-s.weight, s.name)), sim))
        return best(hits, top)
