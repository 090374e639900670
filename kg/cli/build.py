"""``kg build``: the graph and every output from paper lists and abstracts."""
from __future__ import annotations

import argparse
from pathlib import Path

from kg.cli.common import (EXIT_BAD_INPUT, add_command, add_inputs, finish, mode, non_negative_int, output_path,
                           pipeline_config, positive_int, reading, report_problem)
from kg.cli.output import error, safe


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    """Add ``kg build``."""
    p = add_command(subparsers, "build",
                    help="build the graph and write graph.json, graph.graphml, mentions.jsonl, neo4j/, views/",
                    description="Example: kg build examples/icml --out out")
    add_inputs(p)
    p.add_argument("-o", "--out", required=True, type=output_path, help="output directory")
    p.add_argument("--max-nodes", type=positive_int, default=1500, help="node cap of the overview view (default 1500)")
    p.add_argument("--max-views", type=non_negative_int, default=200,
                   help="focused views of the N most used datasets and of N proposed methods (default 200; 0: all)")
    p.add_argument("--prune", action="store_true",
                   help="drop papers of earlier builds into --out that are not in these inputs (default: keep and add)")
    p.add_argument("--workers", type=positive_int, default=1,
                   help="extraction processes on this machine (default 1)")
    p.add_argument("--dask", metavar="ADDRESS",
                   help="extract on a Dask cluster: tcp://scheduler:8786, or local:N (needs kg[dask])")
    p.add_argument("--no-embeddings", dest="embeddings", action="store_false",
                   help="compare the papers' texts by their words only, not by MiniLM embeddings of their meaning "
                        "(about 70 papers/s on two cores; --fast builds have none)")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress lines on stderr")
    p.set_defaults(run=run)


def dask_missing() -> bool:
    """Whether Dask's distributed scheduler cannot be imported."""
    try:
        import dask.distributed  # noqa: F401
    except ImportError:
        return True
    return False


def run(args: argparse.Namespace) -> int:
    """Build, print the summary and where the files went."""
    if args.dask and dask_missing():
        error("--dask needs dask: pip install 'kg[dask]'")
        return EXIT_BAD_INPUT
    from kg.build.builder import build
    from kg.build.progress import StageProgress
    from kg.related import semantic

    if args.embeddings and mode(args) != "fast" and not semantic.available():
        error(f"the papers' texts are compared by their words only: the encoder of their meaning is not installed "
             f"({semantic.INSTALL_HINT})", prefix="kg: note")

    progress = None if args.quiet else StageProgress()
    with reading(args):  # (its notice of columns not used comes after the progress lines)
        try:
            report = build(args.inputs, args.out, strict=args.strict, max_nodes=args.max_nodes,
                           max_views=args.max_views, prune=args.prune, workers=args.workers, dask=args.dask,
                           mode=mode(args), on_problem=report_problem, progress=progress, config=pipeline_config(args),
                           embeddings=args.embeddings)
        finally:
            if progress is not None:
                progress.close()
    if report.papers == 0:
        return finish(0, report.problems)
    print(safe(report.summary(), multiline=True))
    index = Path(args.out) / "views" / "index.html"
    print(f"wrote {len(report.files)} files to {safe(args.out)}/ (open {safe(index)})")
    return finish(report.papers, report.problems)
