"""Benchmarks outside the default test run: ``kg bench load`` (Neo4j and the embedded store) and
``kg bench related`` (precision of the related-work ranking against gold datasets)."""
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


def _rss_mb() -> float:
    """Peak resident memory of this process so far, in MB."""
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _current_rss_mb() -> float:
    """Resident memory now (Linux ``/proc``; the peak so far elsewhere), in MB."""
    try:
        pages = int(Path("/proc/self/statm").read_text().split()[1])
    except (OSError, IndexError, ValueError):
        return _rss_mb()
    import os

    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


def bench_pipeline(docs: int, seed: int = 0, batch_size: int = 64) -> dict:
    """Extraction throughput next to blank-tokenizer throughput (one run, one process), then graph build,
    exports and the embedded store, with peak memory."""
    import spacy

    from kg.corpus.synthetic import synthetic_corpus
    from kg.export import write_graphml, write_json, write_neo4j_csv
    from kg.graph import build_graph
    from kg.nlp.extract import extract
    from kg.nlp.pipeline import load_pipeline

    rss = {"start": _current_rss_mb()}
    papers = list(synthetic_corpus(docs, seed))
    texts = [p.text for p in papers]
    rss["papers"] = _current_rss_mb()
    nlp = load_pipeline()
    blank = spacy.blank("en")
    warm = texts[: min(50, len(texts))]
    list(blank.pipe(warm)), list(extract(papers[: len(warm)], nlp))  # first-call costs out of the timings
    t = time.perf_counter()
    for _ in blank.pipe(texts, batch_size=batch_size):
        pass
    tok_s = time.perf_counter() - t
    t = time.perf_counter()
    items = list(extract(papers, nlp, batch_size=batch_size))
    ext_s = time.perf_counter() - t
    rss["extractions"] = _current_rss_mb()
    t = time.perf_counter()
    g = build_graph(items)
    build_s = time.perf_counter() - t
    rss["graph"] = _current_rss_mb()
    timings = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name, fn in (("json", lambda: write_json(g, Path(tmp) / "g.json")),
                         ("graphml", lambda: write_graphml(g, Path(tmp) / "g.graphml")),
                         ("csv", lambda: write_neo4j_csv(g, Path(tmp) / "neo4j")),
                         ("embedded_store", lambda: write_ladybug(g, Path(tmp) / "g.lbug"))):
            t = time.perf_counter()
            fn()
            timings[f"export_{name}_s"] = round(time.perf_counter() - t, 2)
            rss[f"peak_after_{name}"] = _rss_mb()
    return {
        "docs": docs, "chars_per_doc": round(sum(map(len, texts)) / len(texts)),
        "extract_docs_per_s_per_core": round(docs / ext_s, 1), "tokenizer_docs_per_s_per_core": round(docs / tok_s, 1),
        "ratio": round(tok_s / ext_s, 4), "extract_s": round(ext_s, 2), "build_s": round(build_s, 2), **timings,
        "nodes": g.number_of_nodes(), "edges": g.number_of_edges(), "peak_rss_mb": round(_rss_mb(), 1),
        # where memory goes: resident MB after each stage (papers, extractions and graph are all held), then the
        # peak after each export
        "rss_mb": {k: round(v, 1) for k, v in rss.items()},
    }


def main(argv: list[str] | None = None) -> int:
    """``kg bench [--docs N] [--json]`` / ``kg bench load ...`` / ``kg bench related GOLD ...``."""
    import argparse
    import os

    argv = list(argv or [])
    if not argv or argv[0].startswith("-") and argv[0] not in {"-h", "--help"}:
        ap = argparse.ArgumentParser(prog="kg bench", description="Extraction throughput (vs spaCy's blank tokenizer), "
                                     "graph build, export times and peak memory on a synthetic corpus. Other benchmarks: "
                                     "kg bench load, kg bench related GOLD.")
        ap.add_argument("--docs", type=int, default=10_000)
        ap.add_argument("--seed", type=int, default=0)
        ap.add_argument("--json", action="store_true", help="one JSON object")
        args = ap.parse_args(argv)
        result = bench_pipeline(args.docs, args.seed)
        print(json.dumps(result) if args.json else "\n".join(f"{k:32} {v}" for k, v in result.items()))
        return 0
    ap = argparse.ArgumentParser(prog="kg bench", description="Benchmarks (not part of the test run).")
    sub = ap.add_subparsers(dest="what", required=True)
    p = sub.add_parser("load", help="Neo4j load throughput (batched vs per row) and embedded store build time on a "
                                    "synthetic graph; needs a Neo4j (NEO4J_URI etc.)")
    p.add_argument("--papers", type=int, default=100_000)
    p.add_argument("--batch-size", type=int, default=1000)
    p.add_argument("--per-row-rels", type=int, default=2000, help="size of the one-MERGE-per-row sample")
    p = sub.add_parser("related", help="precision@k of kg related against gold datasets (e.g. SciREX)")
    p.add_argument("gold")
    p.add_argument("--k", type=int, default=5)
    p.add_argument("--by", help="kinds of shared concept, e.g. dataset,task")
    args = ap.parse_args(argv)
    if args.what == "load":
        cfg = Neo4jConfig.from_env(dict(os.environ))
        result = bench_load(args.papers, cfg, batch_size=args.batch_size, per_row_rels=args.per_row_rels)
    else:
        result = related_precision(Path(args.gold), args.k, args.by.split(",") if args.by else None)
    print(json.dumps(result, indent=1))
    return 0


def related_precision(gold_path: Path, k: int = 5, by: list[str] | None = None) -> dict:
    """Precision@k of ``kg related`` on a gold file: a hit is relevant when its gold datasets share one with the query's.

    Papers are built into a graph with kg's own extraction; gold is used only to judge the ranking.
    """
    from kg.builder import build
    from kg.evaluate import normalise
    from kg.related import related, weights_for

    gold = {}
    for line in Path(gold_path).read_text(encoding="utf-8").splitlines():
        if line.strip():
            d = json.loads(line)
            gold[str(d["id"])] = {normalise(a) for grp in d.get("entities", {}).get("DATASET", []) for a in grp} - {""}
    g = build([str(gold_path)]).graph
    weights = weights_for(by)
    precisions, random_base = [], []
    papers = [n for n, d in g.nodes(data=True) if d["type"] == "Paper"]
    for p in papers:
        pid = p.split(":", 1)[1]
        mine = gold.get(pid, set())
        relevant = {q for q in papers if q != p and gold.get(q.split(":", 1)[1], set()) & mine}
        if not relevant:
            continue
        hits = related(g, p, top=k, weights=weights)
        precisions.append(sum(h.paper in relevant for h in hits) / k)
        random_base.append(len(relevant) / (len(papers) - 1))
    return {"gold": str(gold_path), "k": k, "queries": len(precisions),
            f"precision_at_{k}": round(sum(precisions) / max(len(precisions), 1), 4),
            "random_precision": round(sum(random_base) / max(len(random_base), 1), 4)}

