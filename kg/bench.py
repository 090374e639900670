"""Benchmarks outside the default test run: ``kg bench load`` (Neo4j and the embedded store)."""
from __future__ import annotations

import json
import tempfile
import time
from pathlib import Path

import networkx as nx

from kg.store.embedded import write_ladybug
from kg.store.neo4j_store import Neo4jConfig, connect, counts, load_graph_into, wipe
from kg.synthetic import synthetic_graph


def _sample(g: nx.MultiDiGraph, rels: int) -> nx.MultiDiGraph:
    """The first papers of ``g`` with their concepts, until about ``rels`` relationships."""
    keep: set = set()
    n = 0
    for p, d in g.nodes(data=True):
        if d["type"] != "Paper":
            continue
        out = list(g.out_edges(p, keys=True))
        keep.add(p)
        keep.update(v for _, v, _ in out)
        n += len(out)
        if n >= rels:
            break
    return g.subgraph(keep).copy()


def bench_load(papers: int, cfg: Neo4jConfig, *, batch_size: int = 1000, per_row_rels: int = 2000, seed: int = 0) -> dict:
    """Load a synthetic graph batched, a sample of it one MERGE per row, and build the embedded store; one run."""
    t = time.perf_counter()
    g = synthetic_graph(papers, seed)
    gen_s = time.perf_counter() - t
    driver = connect(cfg)
    try:
        wipe(driver, cfg.database)
        t = time.perf_counter()
        load_graph_into(driver, g, database=cfg.database, batch_size=batch_size)
        batched_s = time.perf_counter() - t
        assert counts(driver, cfg.database) == (g.number_of_nodes(), g.number_of_edges())
        sample = _sample(g, per_row_rels)
        wipe(driver, cfg.database)
        t = time.perf_counter()
        load_graph_into(driver, sample, database=cfg.database, per_row=True)
        per_row_s = time.perf_counter() - t
        wipe(driver, cfg.database)
        t = time.perf_counter()
        load_graph_into(driver, sample, database=cfg.database, batch_size=batch_size)
        sample_batched_s = time.perf_counter() - t
        wipe(driver, cfg.database)
    finally:
        driver.close()
    with tempfile.TemporaryDirectory() as tmp:
        t = time.perf_counter()
        write_ladybug(g, Path(tmp) / "graph.lbug")
        lbug_s = time.perf_counter() - t
    return {
        "papers": papers, "nodes": g.number_of_nodes(), "relationships": g.number_of_edges(), "generate_s": round(gen_s, 2),
        "batch_size": batch_size, "batched_load_s": round(batched_s, 2),
        "batched_rels_per_s": round(g.number_of_edges() / batched_s), "per_row_sample_rels": sample.number_of_edges(),
        "per_row_load_s": round(per_row_s, 2), "per_row_rels_per_s": round(sample.number_of_edges() / per_row_s),
        "sample_batched_rels_per_s": round(sample.number_of_edges() / sample_batched_s),
        "embedded_store_s": round(lbug_s, 2),
    }


def main(argv: list[str] | None = None) -> int:
    import argparse
    import os

    ap = argparse.ArgumentParser(prog="kg bench load", description="Neo4j load throughput and embedded store build time "
                                 "on a synthetic graph (needs a Neo4j: NEO4J_URI etc.).")
    ap.add_argument("--papers", type=int, default=100_000)
    ap.add_argument("--batch-size", type=int, default=1000)
    ap.add_argument("--per-row-rels", type=int, default=2000, help="size of the one-MERGE-per-row sample")
    args = ap.parse_args(argv)
    cfg = Neo4jConfig.from_env(dict(os.environ))
    print(json.dumps(bench_load(args.papers, cfg, batch_size=args.batch_size, per_row_rels=args.per_row_rels), indent=1))
    return 0
