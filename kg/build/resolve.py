"""Cross-paper resolution: one canonical concept per real thing.

Mentions from all papers are grouped by (label, concept key). Abbreviation pairs defined in one paper
(``Scale-aware Domain Harmonization (SDH)``) also merge concepts that other papers name by the other form,
unless that form is ambiguous in the corpus (``SC`` defined with two different long forms stays apart).

A name has one type per graph: where papers read one name as two labels ("reinforcement learning" as the task
of 164 papers and the method of 25), a vote picks one, the vocabulary's reading first, then the most papers; the
mentions keep the label they were read with, and their links go to the winning concept.

One pass over the extractions, with memory that grows with the number of distinct names, not of papers: each
paper is kept only as the compact array of the names it mentions, to count papers per concept after merging.
"""
from __future__ import annotations

from array import array
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from kg.model import Extraction
from kg.schema import concept_key

Key = tuple[str, str]  # (label, concept key)


@dataclass
class Concept:
    """A resolved concept: its label, display name, every surface form seen, and how many papers mention it."""

    label: str
    key: str
    name: str
    aliases: list[str] = field(default_factory=list)
    benchmark: bool = False
    papers: int = 0


class _UnionFind:
    def __init__(self) -> None:
        self.parent: dict[Key, Key] = {}

    def find(self, x: Key) -> Key:
        self.parent.setdefault(x, x)
        while self.parent[x] != x:
            self.parent[x] = self.parent[self.parent[x]]
            x = self.parent[x]
        return x

    def union(self, a: Key, b: Key) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[max(ra, rb)] = min(ra, rb)


@dataclass
class Resolution:
    """Concepts by id, and the map from (label, canonical name as extracted) to concept key."""

    concepts: dict[Key, Concept]
    index: dict[Key, Key]
    papers: int = 0  # papers resolved (mentioning anything or not)
    hierarchy: object | None = None  # the links among the concepts, once kg.build.hierarchy has computed them

    def concept_for(self, label: str, name: str) -> Concept:
        return self.concepts[self.index[(label, concept_key(name))]]


@dataclass
class _Names:
    """What one (label, concept key) was called, over all papers."""

    names: Counter = field(default_factory=Counter)
    forms: dict[str, None] = field(default_factory=dict)
    benchmark: bool = False
    known: bool = False  # a vocabulary (gazetteer) entry of this label names it


class Resolver:
    """Resolution fed one extraction at a time (``add``), so a build can resolve while it extracts."""

    def __init__(self) -> None:
        # Which long forms each short form stands for, per label, over the whole corpus; and the pairs defined.
        self.expansions: dict[Key, set[str]] = defaultdict(set)
        self.pairs: dict[tuple[str, str, str], None] = {}
        self.seen: dict[Key, _Names] = {}
        self.numbers: dict[Key, int] = {}
        self.per_paper: list[array] = []
        self._known: dict[Key, bool] = {}  # roots a vocabulary entry of their label names

    def add(self, ex: Extraction) -> None:
        labels = {m.canonical: m.label for m in ex.mentions}
        for canonical, forms in ex.aliases.items():
            label = labels.get(canonical)
            if label:
                for f in forms:
                    self.expansions[(label, concept_key(f))].add(concept_key(canonical))
                    self.pairs.setdefault((label, concept_key(canonical), concept_key(f)), None)
        mine = array("I")
        seen, numbers = self.seen, self.numbers
        for m in ex.mentions:
            own = (m.label, concept_key(m.canonical))
            entry = seen.get(own)
            if entry is None:
                entry = seen[own] = _Names()
                numbers[own] = len(numbers)
            # Gazetteer and proposed names are deliberate spellings; prefer them for display.
            entry.names[m.canonical] += 3 if m.extractor in {"gazetteer", "proposed"} else 1
            entry.forms.setdefault(m.canonical, None)
            entry.forms.setdefault(m.text, None)
            entry.benchmark |= m.benchmark
            entry.known |= m.extractor == "gazetteer"
            mine.append(numbers[own])
        self.per_paper.append(mine)

    def finish(self) -> Resolution:
        """Merge the names that abbreviation pairs join, give each name one label, and count each concept's
        papers."""
        uf = _UnionFind()
        for label, canonical, form in self.pairs:
            if len(self.expansions[(label, form)]) == 1:
                uf.union((label, canonical), (label, form))
        index = {own: uf.find(own) for own in self.seen}
        concepts = self._concepts(index)
        if self._vote(index, concepts):
            concepts = self._concepts(index)
        return Resolution(concepts, index, len(self.per_paper))

    def _concepts(self, index: dict[Key, Key]) -> dict[Key, Concept]:
        """A concept per root of ``index``: its display name, every form, and its papers."""
        merged: dict[Key, _Names] = {}
        for own, entry in self.seen.items():  # first-seen order, as the names were met
            into = merged.setdefault(index[own], _Names())
            into.names.update(entry.names)
            for f in entry.forms:
                into.forms.setdefault(f, None)
            into.benchmark |= entry.benchmark
            into.known |= entry.known
        roots = list(index.values())
        root_number = {root: i for i, root in enumerate(merged)}
        of_number = [root_number[roots[n]] for n in range(len(roots))]
        counts = [0] * len(merged)
        for mine in self.per_paper:
            for r in {of_number[n] for n in mine}:
                counts[r] += 1
        concepts = {}
        for (root, entry), n in zip(merged.items(), counts):
            name = sorted(entry.names.items(), key=lambda kv: (-kv[1], len(kv[0]), kv[0]))[0][0]
            aliases = sorted(f for f in entry.forms if f.lower() != name.lower())
            concepts[root] = Concept(root[0], concept_key(name), name, aliases, entry.benchmark, n)
            self._known[root] = entry.known
        return concepts

    def _vote(self, index: dict[Key, Key], concepts: dict[Key, Concept]) -> bool:
        """One label per concept name: concepts of several labels with one name key go to the reading the
        vocabulary gives (if one does), else to the one with the most papers (then the label, for a fixed order).
        Whether any moved."""
        by_key: dict[str, list[Key]] = defaultdict(list)
        for root, c in concepts.items():
            by_key[c.key].append(root)
        winner = {}
        for roots in by_key.values():
            if len(roots) > 1:
                best = max(roots, key=lambda r: (self._known.get(r, False), concepts[r].papers, r[0]))
                winner.update({r: best for r in roots if r != best})
        for own, root in index.items():
            if root in winner:
                index[own] = winner[root]
        return bool(winner)


def resolve(extractions: Iterable[Extraction]) -> Resolution:
    """Group the mentions of all papers into concepts (one pass over ``extractions``)."""
    resolver = Resolver()
    for ex in extractions:
        resolver.add(ex)
    return resolver.finish()
