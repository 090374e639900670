"""Cross-paper resolution: one canonical concept per real thing.

Mentions from all papers are grouped by (label, concept key). Abbreviation pairs defined in one paper
(``Scale-aware Domain Harmonization (SDH)``) also merge concepts that other papers name by the other form,
unless that form is ambiguous in the corpus (``SC`` defined with two different long forms stays apart).
"""
from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from kg.model import Extraction
from kg.schema import concept_key


@dataclass
class Concept:
    """A resolved concept: its label, display name, every surface form seen, and the papers that mention it."""

    label: str
    key: str
    name: str
    aliases: list[str] = field(default_factory=list)
    benchmark: bool = False
    papers: set[str] = field(default_factory=set)


class _UnionFind:
    def __init__(self) -> None:
        self.parent: dict[tuple[str, str], tuple[str, str]] = {}

    def find(self, x: tuple[str, str]) -> tuple[str, str]:
        self.parent.setdefault(x, x)
        while self.parent[x] != x:
            self.parent[x] = self.parent[self.parent[x]]
            x = self.parent[x]
        return x

    def union(self, a: tuple[str, str], b: tuple[str, str]) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[max(ra, rb)] = min(ra, rb)


@dataclass
class Resolution:
    """Concepts by id, and the map from (label, canonical name as extracted) to concept key."""

    concepts: dict[tuple[str, str], Concept]
    index: dict[tuple[str, str], tuple[str, str]]

    def concept_for(self, label: str, name: str) -> Concept:
        return self.concepts[self.index[(label, concept_key(name))]]


def resolve(extractions: Iterable[Extraction]) -> Resolution:
    """Group the mentions of all papers into concepts."""
    exs = list(extractions)
    uf = _UnionFind()
    # Which long forms each short form stands for, per label, over the whole corpus.
    expansions: dict[tuple[str, str], set[str]] = defaultdict(set)
    for ex in exs:
        labels = {m.canonical: m.label for m in ex.mentions}
        for canonical, forms in ex.aliases.items():
            label = labels.get(canonical)
            if label:
                for f in forms:
                    expansions[(label, concept_key(f))].add(concept_key(canonical))
    for ex in exs:
        labels = {m.canonical: m.label for m in ex.mentions}
        for canonical, forms in ex.aliases.items():
            label = labels.get(canonical)
            if not label:
                continue
            for f in forms:
                if len(expansions[(label, concept_key(f))]) == 1:
                    uf.union((label, concept_key(canonical)), (label, concept_key(f)))
    names: dict[tuple[str, str], Counter] = defaultdict(Counter)
    forms: dict[tuple[str, str], dict[str, None]] = defaultdict(dict)
    bench: dict[tuple[str, str], bool] = defaultdict(bool)
    papers: dict[tuple[str, str], set[str]] = defaultdict(set)
    index: dict[tuple[str, str], tuple[str, str]] = {}
    for ex in exs:
        for m in ex.mentions:
            own = (m.label, concept_key(m.canonical))
            root = uf.find(own)
            index[own] = root
            # Gazetteer and proposed names are deliberate spellings; prefer them for display.
            names[root][m.canonical] += 3 if m.extractor in {"gazetteer", "proposed"} else 1
            forms[root].setdefault(m.canonical, None)
            forms[root].setdefault(m.text, None)
            bench[root] |= m.benchmark
            papers[root].add(ex.paper_id)
    concepts = {}
    for root, counter in names.items():
        name = sorted(counter.items(), key=lambda kv: (-kv[1], len(kv[0]), kv[0]))[0][0]
        aliases = sorted(f for f in forms[root] if f.lower() != name.lower())
        concepts[root] = Concept(root[0], concept_key(name), name, aliases, bench[root], papers[root])
    return Resolution(concepts, index)
