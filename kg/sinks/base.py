"""What every sink is: a :class:`GraphSink` takes a graph's elements one at a time, in any interleaving, and writes
them as they come, so no file needs the whole graph in memory. :func:`feed` sends a networkx graph through one."""
from __future__ import annotations

from pathlib import Path

import networkx as nx

from kg.model import Extraction, Paper


class GraphSink:
    """Something that takes graph elements one at a time; ``close`` finishes the files.

    A build sends every sink each paper's elements (``node``, ``edge``, then ``boundary``) and then the paper
    itself (``paper``). A sink that writes papers, not elements, sets ``elements`` False and gets only ``paper``.
    """

    elements = True  # whether the sink takes nodes and edges

    def paper(self, paper: Paper, ex: Extraction) -> None:
        """One paper and its extraction, after its elements (most sinks write only the elements)."""

    def node(self, n: str, d: dict) -> None:
        raise NotImplementedError

    def edge(self, u: str, v: str, k: str, d: dict) -> None:
        raise NotImplementedError

    def boundary(self) -> bool:
        """Between two elements (in a build, between two papers): where the sink may cut its files into slices;
        True when it did."""
        return False

    def close(self) -> list[Path]:
        raise NotImplementedError


def feed(g: nx.MultiDiGraph, sink: GraphSink) -> list[Path]:
    """Send a networkx graph's nodes, then its edges, through ``sink``; returns the files written."""
    for n, d in g.nodes(data=True):
        sink.node(n, d)
        sink.boundary()
    for u, v, k, d in g.edges(keys=True, data=True):
        sink.edge(u, v, k, d)
        sink.boundary()
    return sink.close()
