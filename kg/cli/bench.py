"""``kg bench``: extraction and build throughput, Neo4j load throughput, precision of ``kg related``."""
from __future__ import annotations

import argparse
import json
import os
from pathlib import Path

from kg.cli.common import EXIT_BAD_INPUT, EXIT_OK, add_command, confirm, positive_int
from kg.cli.output import error, safe


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    """Add ``kg bench`` and its ``load`` and ``related`` benchmarks."""
    p = add_command(subparsers, "bench", help="benchmarks: kg bench [--docs N] | kg bench load | kg bench related GOLD",
                    description="Extraction throughput (vs spaCy's blank tokenizer), graph build, export times and "
                                "peak memory on a synthetic corpus.",
                    epilog="Other benchmarks: kg bench load --help (Neo4j load), "
                           "kg bench related --help (precision of kg related).")
    p.add_argument("--docs", type=positive_int, default=10_000, help="synthetic abstracts (default 10,000)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--workers", type=positive_int, default=1,
                   help="extraction processes (per-core figures divide by it)")
    p.add_argument("--json", action="store_true", help="one JSON object")
    p.add_argument("--mode", default="default", choices=("fast", "default", "accurate"),
                   help="extraction mode to measure (default: the default pipeline)")
    p.set_defaults(run=run_pipeline)
    sub = p.add_subparsers(dest="what", metavar="{load,related}", title="other benchmarks")
    q = add_command(sub, "load", help="Neo4j load throughput (batched vs per row) and embedded store build time on "
                                      "a synthetic graph; needs a Neo4j (NEO4J_URI etc.), and deletes everything in "
                                      "its database",
                    description="Loads a synthetic graph into the Neo4j database of NEO4J_URI and NEO4J_DATABASE "
                                "several times. It deletes everything in that database (every node and "
                                "relationship), before each load and at the end: give it a server of its own. A "
                                "database that holds any node needs --yes, or a yes on the terminal (unconfirmed: "
                                "nothing done, exit 2).")
    q.add_argument("--papers", type=positive_int, default=100_000)
    q.add_argument("--batch-size", type=positive_int, default=1000)
    q.add_argument("--per-row-rels", type=positive_int, default=2000, help="size of the one-MERGE-per-row sample")
    q.add_argument("--yes", action="store_true", help="delete what the database holds without asking")
    q.set_defaults(run=run_load)
    q = add_command(sub, "related", help="precision@k of kg related against gold datasets (e.g. SciREX), or its "
                                         "latency on a synthetic graph (--papers N)")
    q.add_argument("gold", nargs="?", help="gold JSONL with document-level DATASET entities")
    q.add_argument("--papers", type=positive_int,
                   help="instead: time reading graph.json and the first and a warm query on a synthetic graph of N papers")
    q.add_argument("--k", type=positive_int, default=5)
    q.add_argument("--by", help="kinds of shared concept, e.g. dataset,task")
    q.set_defaults(run=run_related)


def run_pipeline(args: argparse.Namespace) -> int:
    """``kg bench``: build a synthetic corpus and print the figures."""
    from kg.bench.benchmarks import bench_pipeline

    try:
        result = bench_pipeline(args.docs, args.seed, workers=args.workers, mode=args.mode)
    except FileNotFoundError as exc:
        error(exc, prefix="kg bench")
        return EXIT_BAD_INPUT
    print(json.dumps(result) if args.json else "\n".join(f"{k:32} {v}" for k, v in result.items()))
    return EXIT_OK


def run_load(args: argparse.Namespace) -> int:
    """``kg bench load``: Neo4j load throughput, as JSON, once a database that holds nodes may be emptied."""
    from kg.bench.benchmarks import bench_load
    from kg.store.neo4j_store import Neo4jConfig, connect, counts

    cfg = Neo4jConfig.from_env(dict(os.environ))
    driver = connect(cfg)
    try:
        held, _ = counts(driver, cfg.database)
    finally:
        driver.close()
    where = f"database '{safe(cfg.database)}' at {cfg.shown_uri}"
    if held and not args.yes and not confirm(f"kg bench load deletes every node and relationship in {where}, "
                                             f"which holds {held} nodes. Delete them?"):
        error(f"nothing done ({where} holds {held} nodes, which kg bench load would delete; not confirmed: "
              "--yes confirms)", "kg bench load")
        return EXIT_BAD_INPUT
    result = bench_load(args.papers, cfg, batch_size=args.batch_size, per_row_rels=args.per_row_rels)
    print(json.dumps(result, indent=1))
    return EXIT_OK


def run_related(args: argparse.Namespace) -> int:
    """``kg bench related``: precision@k of the related-work ranking, as JSON."""
    from kg.bench.benchmarks import related_latency, related_precision

    if args.papers:
        print(json.dumps(related_latency(args.papers), indent=1))
        return EXIT_OK
    if not args.gold:
        error("give a gold file or --papers N", prefix="kg bench related")
        return EXIT_BAD_INPUT
    print(json.dumps(related_precision(Path(args.gold), args.k, args.by.split(",") if args.by else None), indent=1))
    return EXIT_OK
