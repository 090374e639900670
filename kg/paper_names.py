"""One way to name a paper everywhere (``kg related``, ``kg query``, ``kg viz --focus``): its id, with or without
``paper:``, its DOI (any case) or arXiv id (any version) where the graph keeps them, one of its other ids (a
preprint's DOI or a second input id kept when two records of it were merged: ``other_ids``), the end of its id
after the source (an OpenReview id, or its web address), its name or title (as
the input writes it, LaTeX and all, or as kg shows it), or the name (or an alias) of a method it proposes; case and
spacing do not matter, but where several papers answer to a name and one is spelled exactly so ("SnAKe" and
"SNAKE"), that one is meant.

An id names one paper. Otherwise every paper whose name, title or proposed method matches is a candidate: one
candidate is the answer, several raise :class:`AmbiguousPaper` listing them (nothing is picked silently), none is
``None``. The papers come from a built graph (:class:`GraphPapers`) or from a store through Cypher
(:class:`StorePapers`, the same on Ladybug and Neo4j).

>>> import networkx as nx
>>> g = nx.MultiDiGraph()
>>> g.add_node("paper:1", type="Paper", name="SCALE", title="Scalable person search")
>>> g.add_node("paper:2", type="Paper", name="We study ...", title=None)
>>> g.add_node("method:scale", type="Method", name="SCALE", aliases=[])
>>> _ = g.add_edge("paper:2", "method:scale", key="PROPOSES")
>>> find_paper(g, "1"), find_paper(g, "scalable  PERSON search"), find_paper(g, "nothing")
('paper:1', 'paper:1', None)
>>> try:
...     find_paper(g, "scale")
... except AmbiguousPaper as exc:
...     print(exc.lines())
['paper:1  Scalable person search', 'paper:2  We study ...']
"""
from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from kg import schema

if TYPE_CHECKING:
    import networkx as nx

PREFIX = "paper:"


@dataclass(frozen=True)
class Candidate:
    """A paper a name may mean: its id and what a reader knows it by (its title, else its name); or a concept: its id
    and name."""

    id: str
    title: str


class AmbiguousName(ValueError):
    """A name that several nodes of one kind (``kind``: "paper", "dataset", ...) answer to; ``candidates`` lists
    them, by id."""

    def __init__(self, name: str, candidates: list[Candidate], kind: str) -> None:
        self.name, self.kind = name, kind
        self.candidates = sorted(candidates, key=lambda c: c.id)
        super().__init__(f"{name!r} names {len(self.candidates)} {kind}s: "
                         + ", ".join(c.id for c in self.candidates))

    def lines(self) -> list[str]:
        """One line per candidate: id, two spaces, title (a concept's name)."""
        return [f"{c.id}  {c.title}" for c in self.candidates]


class AmbiguousPaper(AmbiguousName):
    """A name that several papers answer to; ``candidates`` lists them, by id."""

    def __init__(self, name: str, candidates: list[Candidate]) -> None:
        super().__init__(name, candidates, "paper")


class Papers(Protocol):
    """Where the papers are looked up."""

    def by_id(self, ids: list[str]) -> list[Candidate]:
        """The papers with one of these node ids."""

    def by_name(self, wanted: str, exact: bool = False) -> list[Candidate]:
        """The papers whose name or title, or a proposed method's name or alias, lower-cased (``exact``: as
        written, spacing collapsed) is ``wanted``."""

    def by_identifier(self, doi: str, arxiv: str, other: str = "") -> list[Candidate]:
        """The papers whose DOI (lower case) is ``doi`` or whose arXiv id is ``arxiv``, or one of whose other ids
        (``other_ids``) is one of ``doi``, ``arxiv`` and ``other`` (an empty one: none)."""

    def by_id_end(self, key: str) -> list[Candidate]:
        """The papers whose node id ends in ``":" + key`` (the input's own id after its source: "VOyYhoN_yg" of
        ``paper:neurips2022:VOyYhoN_yg``)."""

    def names(self) -> list[str]:
        """Every paper name and proposed method name, for suggestions."""


def normal(text: str, exact: bool = False) -> str:
    """``text`` as names are compared: spacing collapsed, lower case (``exact``: in its own case)."""
    text = " ".join(str(text).split())
    return text if exact else text.lower()


_ARXIV_LIKE = re.compile(r"\d{4}\.\d{4,5}(v\d+)?")  # (also what arXiv never issued: still no words to search for)


def identifiers(name: str) -> tuple[str, str]:
    """The DOI (lower case, no resolver prefix) and the arXiv id (no version) that ``name`` is, "" where it is none.

    >>> identifiers("10.18653/V1/N19-1423"), identifiers("arXiv:1810.04805v2"), identifiers("BERT")
    (('10.18653/v1/n19-1423', ''), ('', '1810.04805'), ('', ''))
    """
    from kg.corpus.ids import normalise_arxiv, normalise_doi  # (kg.corpus takes a tenth of a second to import)

    bare = str(name).strip().removeprefix(PREFIX)
    if not bare or any(c.isspace() for c in bare):
        return "", ""
    return normalise_doi(bare) or "", normalise_arxiv(bare) or ""


_URL = re.compile(r"https?://", re.IGNORECASE)
# OpenReview's https://openreview.net/forum?id=... (and pdf?id=..., with &noteId=... and other parameters)
_OPENREVIEW_ID = re.compile(r"https?://(?:www\.)?openreview\.net/\S*?[?&]id=([^&#\s]+)", re.IGNORECASE)
_ID_KEY = re.compile(r"[\w.:-]+")


def id_key(name: str) -> str:
    """The input's own id of a paper that ``name`` is by itself, to find among the ends of node ids: an OpenReview
    id as written or in its URL; "" for words, and for a name with spaces or other punctuation.

    >>> id_key("https://openreview.net/forum?id=VOyYhoN_yg"), id_key("VOyYhoN_yg"), id_key("graph neural networks")
    ('VOyYhoN_yg', 'VOyYhoN_yg', '')
    """
    name = str(name).strip().removeprefix(PREFIX)
    if _URL.match(name):
        found = _OPENREVIEW_ID.match(name)
        return found.group(1) if found else ""
    return name if _ID_KEY.fullmatch(name) else ""


def looks_like_id(name: str) -> bool:
    """Whether ``name`` is written as a paper id (``paper:...``, a DOI, an arXiv id, a web address) rather than
    words."""
    name = str(name).strip()
    return name.startswith(PREFIX) or _URL.match(name) is not None or any(identifiers(name)) \
        or _ARXIV_LIKE.fullmatch(name) is not None


def _title(title: object, name: object, pid: str) -> str:
    """What a reader knows a paper by: its title, else its name, else its id, on one line."""
    return " ".join(str(title or name or pid).split())


class GraphPapers:
    """The papers of a networkx graph as ``kg build`` writes it."""

    def __init__(self, g: nx.MultiDiGraph) -> None:
        self.g = g

    def _candidate(self, n: str) -> Candidate:
        """Paper node ``n`` as a candidate."""
        d = self.g.nodes[n]
        return Candidate(n, _title(d.get("title"), d.get("name"), n))

    def _is_paper(self, n: str) -> bool:
        """Whether ``n`` is a paper node of the graph."""
        return n in self.g and self.g.nodes[n].get("type") == schema.PAPER.label

    def by_id(self, ids: list[str]) -> list[Candidate]:
        """The papers with one of these node ids."""
        return [self._candidate(n) for n in dict.fromkeys(ids) if self._is_paper(n)]

    def by_name(self, wanted: str, exact: bool = False) -> list[Candidate]:
        """The papers whose name, title or proposed method's name or alias, normalised (:func:`normal`), is
        ``wanted``."""
        found: dict[str, None] = {}  # one pass over the nodes; a method leads to the papers proposing it
        for n, d in self.g.nodes(data=True):
            kind = d.get("type")
            if kind == schema.PAPER.label:
                if any(f and normal(f, exact) == wanted for f in (d.get("name"), d.get("title"))):
                    found[n] = None
            elif kind == schema.METHOD.label and any(f and normal(f, exact) == wanted
                                                       for f in (d.get("name"), *(d.get("aliases") or []))):
                found.update((p, None) for p, _, k in self.g.in_edges(n, keys=True) if k == schema.PROPOSES.name)
        return [self._candidate(n) for n in found]

    def by_identifier(self, doi: str, arxiv: str, other: str = "") -> list[Candidate]:
        """The papers whose DOI (lower case) is ``doi`` or whose arXiv id is ``arxiv``, or one of whose other ids
        (``other_ids``) is one of ``doi``, ``arxiv`` and ``other`` (an empty one: none)."""
        keys = {k for k in (doi, arxiv, other) if k}
        return [self._candidate(n) for n, d in self.g.nodes(data=True) if d.get("type") == schema.PAPER.label
                and ((doi and str(d.get("doi") or "").lower() == doi) or (arxiv and d.get("arxiv_id") == arxiv)
                     or not keys.isdisjoint(d.get("other_ids") or ()))]

    def by_id_end(self, key: str) -> list[Candidate]:
        """The papers whose node id ends in ``":" + key``."""
        tail = ":" + key
        return [self._candidate(n) for n, d in self.g.nodes(data=True)
                if d.get("type") == schema.PAPER.label and str(n).endswith(tail)]

    def names(self) -> list[str]:
        """Every paper's name and title, and every proposed method's name."""
        out = []
        for n, d in self.g.nodes(data=True):
            if d.get("type") == schema.PAPER.label:
                out += [str(x) for x in (d.get("name"), d.get("title")) if x]
            elif d.get("type") == schema.METHOD.label and any(
                    k == schema.PROPOSES.name for _, _, k in self.g.in_edges(n, keys=True)):
                out.append(str(d.get("name")))
        return out


Run = Callable[[str, dict], list[list]]  # Cypher and parameters -> rows, on either engine

_BY_ID = "MATCH (p:Paper) WHERE p.id IN $ids RETURN p.id, p.title, p.name"
_BY_IDENTIFIER = {"doi": "MATCH (p:Paper) WHERE toLower(p.doi) = $doi RETURN p.id, p.title, p.name",
                  "arxiv": "MATCH (p:Paper) WHERE p.arxiv_id = $arxiv RETURN p.id, p.title, p.name"}
_BY_OTHER_ID = ("MATCH (p:Paper) WITH p, $keys AS keys WHERE any(o IN p.other_ids WHERE o IN keys) "
                "RETURN p.id, p.title, p.name")  # (other ids are kept normalised: kg.build.elements.other_ids)
_BY_ID_END = "MATCH (p:Paper) WHERE p.id ENDS WITH $tail RETURN p.id, p.title, p.name"
_BY_NAME = ("MATCH (p:Paper) WHERE toLower(p.name) = $wanted OR toLower(p.title) = $wanted "
            "RETURN p.id, p.title, p.name")
# (Ladybug takes no parameter inside any(...), hence the WITH)
_BY_METHOD = ("MATCH (p:Paper)-[:PROPOSES]->(m:Method) WITH p, m, $wanted AS wanted "
              "WHERE toLower(m.name) = wanted OR any(a IN m.aliases WHERE toLower(a) = wanted) "
              "RETURN DISTINCT p.id, p.title, p.name")
_BY_EXACT_NAME = "MATCH (p:Paper) WHERE p.name = $wanted OR p.title = $wanted RETURN p.id, p.title, p.name"
_BY_EXACT_METHOD = ("MATCH (p:Paper)-[:PROPOSES]->(m:Method) WITH p, m, $wanted AS wanted "
                    "WHERE m.name = wanted OR any(a IN m.aliases WHERE a = wanted) "
                    "RETURN DISTINCT p.id, p.title, p.name")
_NAMES = ("MATCH (p:Paper) RETURN p.name, p.title",
          "MATCH (:Paper)-[:PROPOSES]->(m:Method) RETURN DISTINCT m.name")


class StorePapers:
    """The papers of a store (the embedded Ladybug or Neo4j), through ``run``."""

    def __init__(self, run: Run) -> None:
        self.run = run

    @staticmethod
    def _candidates(rows: Iterable[list]) -> list[Candidate]:
        """(id, title, name) rows as candidates, one per id."""
        return list({r[0]: Candidate(r[0], _title(r[1], r[2], r[0])) for r in rows}.values())

    def by_id(self, ids: list[str]) -> list[Candidate]:
        """The papers with one of these node ids."""
        return self._candidates(self.run(_BY_ID, {"ids": list(dict.fromkeys(ids))})) if ids else []

    def by_name(self, wanted: str, exact: bool = False) -> list[Candidate]:
        """The papers whose name, title or proposed method's name or alias, lower-cased (``exact``: as written),
        is ``wanted``."""
        name, method = (_BY_EXACT_NAME, _BY_EXACT_METHOD) if exact else (_BY_NAME, _BY_METHOD)
        rows = self.run(name, {"wanted": wanted}) + self.run(method, {"wanted": wanted})
        return self._candidates(rows)

    def by_identifier(self, doi: str, arxiv: str, other: str = "") -> list[Candidate]:
        """The papers whose DOI (lower case) is ``doi`` or whose arXiv id is ``arxiv``, or one of whose other ids
        (``other_ids``) is one of ``doi``, ``arxiv`` and ``other`` (an empty one: none)."""
        given = {"doi": doi, "arxiv": arxiv}
        rows = [r for k, v in given.items() if v for r in self.run(_BY_IDENTIFIER[k], {k: v})]
        keys = list(dict.fromkeys(k for k in (doi, arxiv, other) if k))
        return self._candidates(rows + (self._by_other_id(keys) if keys else []))

    def by_id_end(self, key: str) -> list[Candidate]:
        """The papers whose node id ends in ``":" + key``."""
        return self._candidates(self.run(_BY_ID_END, {"tail": ":" + key}))

    def _by_other_id(self, keys: list[str]) -> list[list]:
        """(id, title, name) of the papers one of whose other ids is one of ``keys``; none in an embedded store an
        older kg wrote, which has no ``other_ids`` (Neo4j reads a missing property as null)."""
        try:
            return self.run(_BY_OTHER_ID, {"keys": keys})
        except Exception as exc:  # (kg.store.queries.QueryError: "Cannot find property other_ids")
            if "other_ids" not in str(exc):
                raise
            return []

    def names(self) -> list[str]:
        """Every paper's name and title, and every proposed method's name."""
        return [str(x) for q in _NAMES for r in self.run(q, {}) for x in r if x]


def resolve(papers: Papers, name: str) -> str | None:
    """The id of the paper ``name`` names, or None when no paper answers to it: by id (with or without ``paper:``),
    then by name, title or proposed method, then by DOI or arXiv id, or one of its other ids (a DOI in any case, an
    arXiv id in any version, an input's own id as written), then by the end of its id (an OpenReview id, or its
    URL: "VOyYhoN_yg" names ``paper:neurips2022:VOyYhoN_yg``), then by title with LaTeX and markdown removed as
    ``kg build`` removes them from titles.

    Raises :class:`AmbiguousPaper` when several do."""
    name = str(name).strip()
    if not name:
        return None
    bare = name.removeprefix(PREFIX)
    if found := papers.by_id([name, PREFIX + bare]):
        return found[0].id
    if found := papers.by_name(normal(bare)):
        if len(found) > 1 and len(exact := papers.by_name(normal(bare, exact=True), exact=True)) == 1:
            return exact[0].id  # "SnAKe" of two papers named "SnAKe" and "SNAKE": the one spelled so
        return _one(name, found)
    doi, arxiv = identifiers(bare)
    if found := papers.by_id([PREFIX + x for x in (doi, arxiv) if x]):
        return found[0].id
    if found := papers.by_identifier(doi, arxiv, " ".join(bare.split())):
        return _one(name, found)
    if (key := id_key(bare)) and (found := papers.by_id_end(key)):
        return _one(name, found)
    found = papers.by_name(normal(_cleaned(bare)))
    return _one(name, found) if found else None


def _cleaned(title: str) -> str:
    """``title`` as ``kg build`` keeps a title: LaTeX and markdown removed (``$H$-Consistency`` -> H-Consistency)."""
    from kg.corpus.clean import clean_text

    return clean_text(title)


def _one(name: str, found: list[Candidate]) -> str:
    """The id of the one paper of ``found``; :class:`AmbiguousPaper` when there are several."""
    if len(found) > 1:
        raise AmbiguousPaper(name, found)
    return found[0].id


def suggest(papers: Papers, name: str, n: int = 3) -> list[str]:
    """Paper and proposed method names close to ``name``."""
    names = {normal(x): x for x in papers.names()}
    return [names[c] for c in difflib.get_close_matches(normal(name), list(names), n=n, cutoff=0.6)]


def not_found(papers: Papers, name: str) -> str:
    """The message for a name no paper answers to, with close names when there are some."""
    close = suggest(papers, name)
    hint = f"; did you mean {', '.join(close)}?" if close else \
        " (give its id, DOI, arXiv id, title or proposed method's name)"
    return f"no paper named {name!r}{hint}"


def find_paper(g: nx.MultiDiGraph, name: str) -> str | None:
    """The paper node of graph ``g`` that ``name`` names (see :func:`resolve`)."""
    return resolve(GraphPapers(g), name)
