"""The main job: inputs -> papers -> extractions -> graph -> files and views."""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import networkx as nx

from kg import schema
from kg.corpus.clean import clean
from kg.corpus.readers import read_corpus
from kg.errors import Problem
from kg.export import write_graphml, write_json, write_neo4j_csv, write_predictions
from kg.graph import build_graph
from kg.model import Extraction, Paper
from kg.nlp.extract import extract


@dataclass
class BuildReport:
    """What a build read, made and wrote."""

    graph: nx.MultiDiGraph
    papers: int
    problems: list[Problem] = field(default_factory=list)
    files: list[Path] = field(default_factory=list)

    def counts(self) -> dict[str, int]:
        """Nodes per type and relationships per type."""
        c = Counter(d.get("type") for _, d in self.graph.nodes(data=True))
        c.update(k for _, _, k in self.graph.edges(keys=True))
        return dict(c)

    def summary(self) -> str:
        c = self.counts()
        concept_types = [t.label for t in schema.NODE_TYPES if t is not schema.PAPER]
        lines = [f"papers      {self.papers}"]
        lines += [f"{t.lower():11} {c.get(t, 0)}" for t in concept_types]
        bench = sum(1 for _, d in self.graph.nodes(data=True) if d.get("benchmark"))
        lines.append(f"benchmarks  {bench}")
        lines.append(f"edges       {self.graph.number_of_edges()}  (" + ", ".join(
            f"{r.name} {c.get(r.name, 0)}" for r in schema.REL_TYPES if c.get(r.name)) + ")")
        if self.problems:
            lines.append(f"problems    {len(self.problems)} input record(s) skipped")
        return "\n".join(lines)


def extract_papers(papers: Sequence[Paper]) -> list[tuple[Paper, Extraction]]:
    """Run extraction over papers (keeps input order)."""
    return list(extract(papers))


def build(inputs: Sequence[str], out: str | Path | None = None, *, strict: bool = False, max_nodes: int = 1500,
          on_problem: Callable[[Problem], None] | None = None) -> BuildReport:
    """Build the knowledge graph of ``inputs``; with ``out``, also write every output file there.

    >>> report = build(["examples/icml"])          # doctest: +SKIP
    >>> report.graph.number_of_nodes() > 38         # doctest: +SKIP
    True
    """
    corpus = read_corpus(inputs, strict=strict)
    for p in corpus.problems:
        if on_problem:
            on_problem(p)
    items = extract_papers(corpus.papers)
    clean_texts = {p.id: clean(p.text).text for p in corpus.papers}
    graph = build_graph(items, clean_texts)
    report = BuildReport(graph, len(corpus.papers), list(corpus.problems))
    if out is not None:
        report.files = write_outputs(graph, items, Path(out), max_nodes=max_nodes)
    return report


def write_outputs(graph: nx.MultiDiGraph, items: list[tuple[Paper, Extraction]], out: Path, *, max_nodes: int) -> list[Path]:
    """Write graph.json, graph.graphml, mentions.jsonl, neo4j/*.csv, graph.lbug and views/ into ``out``."""
    from kg.store.embedded import write_ladybug
    from kg.viz import render_site

    out.mkdir(parents=True, exist_ok=True)
    files = [out / "graph.json", out / "graph.graphml", out / "mentions.jsonl"]
    write_json(graph, files[0])
    write_graphml(graph, files[1])
    write_predictions(items, files[2])
    files += write_neo4j_csv(graph, out / "neo4j")
    files.append(write_ladybug(graph, out / "graph.lbug"))
    files += [v.path for v in render_site(graph, out / "views", max_nodes=max_nodes)]
    return files
