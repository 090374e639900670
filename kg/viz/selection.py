"""Which nodes a view shows: the capped overview, or a focus node and its two-hop neighbourhood."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import networkx as nx

from kg.concept_names import match_concept
from kg.paper_names import GraphPapers, not_found, resolve
from kg.schema import (
    ADDRESSES,
    DATASET,
    EVALUATES_ON,
    METHOD,
    METRIC,
    PAPER,
    PROPOSES,
    REPORTS,
    RESULT,
    TASK,
    USES,
    NodeType,
    below,
)

KIND_TYPES: dict[str, NodeType | None] = {
    "overview": None, "paper": PAPER, "dataset": DATASET, "task": TASK, "method": METHOD,
}
CONCEPT_LABELS = frozenset({METHOD.label, TASK.label, DATASET.label, METRIC.label})
# From a concept's papers, the second hop follows what characterises a paper, not every method it uses.
SECOND_HOP_RELS = frozenset({EVALUATES_ON.name, ADDRESSES.name, PROPOSES.name})
# What a paper's own concepts say about it, most telling first.
OWN_CONCEPT_ORDER = (PROPOSES.name, EVALUATES_ON.name, ADDRESSES.name, USES.name, REPORTS.name)


@dataclass
class Selection:
    """The nodes a view keeps (in priority order) and what it leaves out of the nodes it considered."""

    nodes: list[str]
    candidates: set[str]
    focus: str | None = None
    hidden: Counter[str] = field(default_factory=Counter)  # omitted node count per human-readable category


def node_type(graph: nx.MultiDiGraph, n: str) -> str:
    """The node's schema label (``Paper``, ``Dataset``...), or ``""`` when the graph does not say."""
    return str(graph.nodes[n].get("type") or "")


def paper_usage(graph: nx.MultiDiGraph, n: str) -> int:
    """How many distinct papers link to node ``n`` (counted in the graph, not trusted from attributes)."""
    return len({u for u in graph.predecessors(n) if node_type(graph, u) == PAPER.label})


def select_overview(graph: nx.MultiDiGraph, max_nodes: int) -> Selection:
    """Papers and concepts, capped: papers and shared concepts first, then one-paper concepts, spread evenly.

    At least a third of the budget is kept for concepts shared by several papers, so a corpus with more
    papers than ``max_nodes`` still shows its structure rather than a cloud of unconnected papers.
    """
    papers = sorted(n for n in graph if node_type(graph, n) == PAPER.label)
    usage = {n: paper_usage(graph, n) for n in graph if node_type(graph, n) in CONCEPT_LABELS}
    shared = sorted((c for c in usage if usage[c] >= 2), key=lambda c: (-usage[c], _name(graph, c).casefold(), c))
    shared_set = set(shared)
    paper_slots = min(len(papers), max_nodes - min(len(shared), max_nodes // 3))
    if paper_slots < len(papers):
        papers.sort(key=lambda p: -sum(1 for c in graph.successors(p) if c in shared_set))
    kept = papers[:paper_slots]
    kept_set = set(kept)
    kept += [c for c in shared if any(u in kept_set for u in graph.predecessors(c))][: max_nodes - len(kept)]
    kept += _one_paper_concepts(graph, kept[:paper_slots], usage)[: max_nodes - len(kept)]
    kept_set = set(kept)  # a paper none of whose concepts made the cut would float apart, linked to nothing shown
    kept = [n for n in kept if any(v in kept_set for v in graph.successors(n))
            or any(u in kept_set for u in graph.predecessors(n))]
    selection = Selection(kept, candidates=set(graph), focus=None)
    kept_set = set(kept)
    for n in graph:
        if n not in kept_set:
            selection.hidden[_overview_category(graph, n, usage)] += 1
    return selection


def _one_paper_concepts(graph: nx.MultiDiGraph, papers: list[str], usage: dict[str, int]) -> list[str]:
    """Concepts used by a single paper, taken in turns from each paper (its proposed methods first), so
    a tight budget still shows something of every paper rather than everything of a few."""
    rank = {rel: i for i, rel in enumerate(OWN_CONCEPT_ORDER)}
    queues = []
    for p in papers:
        own = {v: k for _, v, k in graph.out_edges(p, keys=True) if usage.get(v) == 1}
        queues.append(sorted(own, key=lambda c: (rank.get(own[c], len(rank)), _name(graph, c).casefold(), c)))
    return [q[turn] for turn in range(max(map(len, queues), default=0)) for q in queues if turn < len(q)]


def _overview_category(graph: nx.MultiDiGraph, n: str, usage: dict[str, int]) -> str:
    label = node_type(graph, n)
    if label == RESULT.label:
        return "result nodes (results are shown in focused views)"
    if label == PAPER.label:
        return "papers with the fewest shared concepts"
    if label in CONCEPT_LABELS:
        return {0: "concepts linked to no paper", 1: "concepts used by one paper"}.get(
            usage[n], "concepts used by several papers")
    return f"{label or 'untyped'} nodes"


def select_neighbourhood(graph: nx.MultiDiGraph, focus: str, max_nodes: int) -> Selection:
    """The focus, its direct neighbours (hop 1; a concept's subtasks or variants and their papers count as its
    own) and what those lead to (hop 2), capped in that order."""
    rank1: dict[str, tuple[int, int, str]]
    if node_type(graph, focus) == PAPER.label:  # its concepts, the most shared first
        hop1 = list(graph.successors(focus))
        rank1 = {n: (0, -paper_usage(graph, n), _name(graph, n).casefold()) for n in hop1}
    else:  # its subtasks or variants, then its and their papers and results: those proposing it first, then the
        # best connected
        under = below(graph, focus)
        hop1 = under + [u for c in (focus, *under) for u in graph.predecessors(c)
                        if node_type(graph, u) in (PAPER.label, RESULT.label)]
        under_set = set(under)
        rank1 = {n: (-1 if n in under_set else 0 if graph.has_edge(n, focus, PROPOSES.name) else 1, -graph.degree(n),
                     _name(graph, n).casefold()) for n in hop1}
    hop1 = sorted(set(hop1) - {focus}, key=lambda n: (rank1[n], n))
    kept = [focus] + hop1[: max_nodes - 1]
    all_hop2 = _second_hop(graph, focus, hop1)
    hop2 = _second_hop(graph, focus, kept[1:])
    kept += sorted(hop2, key=lambda n: (-hop2[n], _name(graph, n).casefold(), n))[: max_nodes - len(kept)]
    selection = Selection(kept, candidates={focus, *hop1, *all_hop2}, focus=focus)
    kept_set = set(kept)
    for n in selection.candidates - kept_set:
        selection.hidden[_plural(node_type(graph, n))] += 1
    return selection


def _second_hop(graph: nx.MultiDiGraph, focus: str, hop1: list[str]) -> Counter[str]:
    """Nodes reached from ``hop1``, counted by how many hop-1 nodes reach them."""
    seen: Counter[str] = Counter()
    from_paper = node_type(graph, focus) == PAPER.label
    for h in hop1:
        if from_paper:  # the papers that share this concept with the focus paper
            reached = {u for u in graph.predecessors(h) if node_type(graph, u) == PAPER.label}
        elif node_type(graph, h) == RESULT.label:  # a result's method, dataset and metric
            reached = set(graph.successors(h))
        else:
            reached = {v for _, v, k in graph.out_edges(h, keys=True) if k in SECOND_HOP_RELS}
        seen.update(reached - set(hop1) - {focus})
    return seen


def _plural(label: str) -> str:
    return {"": "untyped nodes", "Paper": "papers", "Result": "results"}.get(label, f"{label.lower()}s")


def resolve_focus(graph: nx.MultiDiGraph, kind: str, focus: str) -> str:
    """The node id ``focus`` names: a node id, or a name, alias or title of a node of the kind's type; a paper
    as everywhere in kg (kg.paper_names: id with or without ``paper:``, DOI, arXiv id, name, title or proposed
    method), and only so.

    Raises ``ValueError`` listing close matches when nothing (or more than one node) matches;
    ``kg.paper_names.AmbiguousPaper`` (a ValueError) lists the papers a name could mean.
    """
    node_kind = KIND_TYPES[kind]
    assert node_kind is not None, "overview has no focus"
    label = node_kind.label
    if focus in graph:
        found = node_type(graph, focus)
        if found != label:
            hint = f"; use --kind {found.lower()}" if found.lower() in KIND_TYPES else ""
            raise ValueError(f"{focus!r} is a {found or 'untyped'} node, not a {label}{hint}")
        return focus
    if label == PAPER.label:
        papers = GraphPapers(graph)
        if (paper := resolve(papers, focus)) is None:
            raise ValueError(not_found(papers, focus))
        return paper
    concepts = [(n, n, _name(graph, n), graph.nodes[n].get("aliases") or []) for n in graph
                if node_type(graph, n) == label]
    return match_concept(concepts, label, focus)  # (as kg related and kg query name a concept)


def _name(graph: nx.MultiDiGraph, n: str) -> str:
    return str(graph.nodes[n].get("name") or n)
