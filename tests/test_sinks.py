"""The sinks' registry: a build writes through every sink of kg.sinks.SINKS, and only those."""
from __future__ import annotations

from pathlib import Path

import kg
from kg import sinks
from kg.sinks.base import GraphSink

SEEDS = Path(__file__).resolve().parents[1] / "examples" / "icml"


class Recorder(GraphSink):
    """Counts what it is sent; writes one file of those counts."""

    def __init__(self, path: Path) -> None:
        self.path, self.nodes, self.edges, self.papers = path, 0, 0, 0

    def node(self, n: str, d: dict) -> None:
        self.nodes += 1

    def edge(self, u: str, v: str, k: str, d: dict) -> None:
        self.edges += 1

    def paper(self, paper, ex) -> None:
        self.papers += 1

    def close(self) -> list[Path]:
        self.path.write_text(f"{self.nodes} {self.edges} {self.papers}\n")
        return [self.path]


def test_a_build_writes_through_every_registered_sink(tmp_path, monkeypatch):
    monkeypatch.setitem(sinks.SINKS, "recorder", lambda out, graph_attrs: Recorder(out / "recorded.txt"))
    report = kg.build([str(sorted(SEEDS.glob("*.txt"))[0])], tmp_path)
    nodes, edges, papers = map(int, (tmp_path / "recorded.txt").read_text().split())
    counts = report.counts()
    assert papers == report.papers == counts["Paper"] > 0
    assert (nodes, edges) == (report.graph.number_of_nodes(), report.graph.number_of_edges())
    assert tmp_path / "recorded.txt" in report.files
    assert {p.name for p in report.files} >= {"mentions.jsonl", "graph.json", "graph.graphml", "import.sh"}


def test_the_registry_names_each_output():
    assert list(sinks.SINKS) == ["predictions", "json", "graphml", "csv", "related"]
