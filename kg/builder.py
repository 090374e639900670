"""The main job: inputs -> papers -> extractions -> graph -> files and views."""
from __future__ import annotations

import shutil
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import networkx as nx

from kg import schema
from kg.cache import BuildCache
from kg.corpus.readers import PaperSet, read_corpus
from kg.errors import Problem
from kg.export import write_graphml, write_json, write_neo4j_csv, write_predictions
from kg.graph import build_graph
from kg.model import Extraction, Paper
from kg.nlp.extract import extract
from kg.nlp.pipeline import config_path
from kg.viz.website import MAX_VIEWS


@dataclass
class BuildReport:
    """What a build read, made and wrote."""

    graph: nx.MultiDiGraph
    papers: int
    problems: list[Problem] = field(default_factory=list)
    extracted: int = 0  # papers extracted by this build (the others came from the cache)
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
        if self.extracted != self.papers:
            lines.append(f"extracted   {self.extracted} new or changed abstract(s); {self.papers - self.extracted} from the cache")
        if self.problems:
            lines.append(f"problems    {len(self.problems)} input record(s) skipped")
        return "\n".join(lines)


def extract_papers(papers: Sequence[Paper], *, workers: int = 1, dask: str | None = None,
                   batch_size: int = 64, config: str = "") -> list[tuple[Paper, Extraction]]:
    """Run extraction over papers, in input order: in this process, in ``workers`` processes, or on Dask."""
    if dask:
        from kg.distributed import extract_on_dask

        return extract_on_dask(papers, dask, batch_size=batch_size, config=config)
    return list(extract(papers, batch_size=batch_size, n_process=workers, config=config))


def build(inputs: Sequence[str], out: str | Path | None = None, *, strict: bool = False, max_nodes: int = 1500,
          max_views: int = MAX_VIEWS, prune: bool = False, workers: int = 1, dask: str | None = None, accurate: bool = False,
          on_problem: Callable[[Problem], None] | None = None) -> BuildReport:
    """Build the knowledge graph of ``inputs``; with ``out``, also write every output file there.

    Building into a directory that holds an earlier build adds the new papers to the earlier ones and extracts
    only abstracts it has not seen (``prune`` drops earlier papers that are not in ``inputs``). The result is
    the same as a build from scratch of all those papers.

    >>> report = build(["examples/icml"])          # doctest: +SKIP
    >>> report.graph.number_of_nodes() > 38         # doctest: +SKIP
    True
    """
    corpus = read_corpus(inputs, strict=strict)
    for p in corpus.problems:
        if on_problem:
            on_problem(p)
    config = config_path(accurate)
    cache = BuildCache(Path(out), config) if out is not None else None
    papers = PaperSet()
    if cache is not None and not prune:
        for p in cache.previous_papers():
            papers.add(p)
    for p in corpus.papers:
        papers.add(p)
    known = {p.id: ex for p in papers.papers if cache is not None and (ex := cache.get(p)) is not None}
    todo = [p for p in papers.papers if p.id not in known]
    fresh = dict((p.id, ex) for p, ex in extract_papers(todo, workers=workers, dask=dask, config=config))
    items = [(p, known.get(p.id) or fresh[p.id]) for p in papers.papers]
    graph = build_graph(items)
    report = BuildReport(graph, len(papers.papers), list(corpus.problems), extracted=len(todo))
    if out is not None:
        report.files = write_outputs(graph, items, Path(out), max_nodes=max_nodes, max_views=max_views)
        for p in todo:  # the others' extractions came from the cache
            cache.put(p, fresh[p.id])
        cache.save(papers.papers)
    return report


def write_outputs(graph: nx.MultiDiGraph, items: list[tuple[Paper, Extraction]], out: Path, *, max_nodes: int,
                  max_views: int = MAX_VIEWS) -> list[Path]:
    """Write graph.json, graph.graphml, mentions.jsonl, neo4j/*.csv, graph.lbug and views/ into ``out``."""
    from kg.store.embedded import write_ladybug
    from kg.viz import render_site

    out.mkdir(parents=True, exist_ok=True)
    files = [out / "graph.json", out / "graph.graphml", out / "mentions.jsonl"]
    write_json(graph, files[0])
    write_graphml(graph, files[1])
    write_predictions(items, files[2])
    for stale in ("views", "neo4j"):  # a smaller graph than last time must not leave old files behind
        shutil.rmtree(out / stale, ignore_errors=True)
    files += write_neo4j_csv(graph, out / "neo4j")
    files.append(write_ladybug(graph, out / "graph.lbug"))
    files += [v.path for v in render_site(graph, out / "views", max_nodes=max_nodes, max_views=max_views)]
    return files
