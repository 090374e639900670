"""The knowledge graph in memory: the elements of ``kg.build.elements`` as a networkx ``MultiDiGraph``."""
from __future__ import annotations

from collections.abc import Iterable

import networkx as nx

from kg.build.elements import Edge, Node, concept_edges, concept_node_id, concept_nodes, paper_elements, paper_node_id
from kg.model import Extraction, Paper
from kg.build.resolve import resolve

__all__ = ["add_elements", "build_graph", "concept_node_id", "new_graph", "paper_node_id"]


def new_graph() -> nx.MultiDiGraph:
    return nx.MultiDiGraph(schema_version=1)


def add_elements(g: nx.MultiDiGraph, nodes: Iterable[Node], edges: Iterable[Edge] = ()) -> None:
    """Add elements as they come (attribute dicts are taken over, not copied)."""
    for n, d in nodes:
        g.add_node(n, **d)
    for u, v, k, d in edges:
        g.add_edge(u, v, key=k, **d)


def build_graph(items: Iterable[tuple[Paper, Extraction]]) -> nx.MultiDiGraph:
    """Build the graph from extracted papers."""
    pairs = list(items)
    res = resolve(ex for _, ex in pairs)
    g = new_graph()
    add_elements(g, concept_nodes(res), concept_edges(res))
    for paper, ex in pairs:
        add_elements(g, *paper_elements(paper, ex, res))
    return g
