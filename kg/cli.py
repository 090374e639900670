"""Command line: ``kg extract``, ``kg build``.

Exit codes: 0 success; 1 finished, but some input records were skipped (each reported as FILE:LINE);
2 bad input with nothing usable (or the first problem under ``--strict``).
"""
from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from kg.errors import InputError, Problem

EXIT_OK, EXIT_SKIPPED, EXIT_BAD_INPUT = 0, 1, 2


def _report_problem(p: Problem) -> None:
    print(str(p), file=sys.stderr)


def _finish(papers: int, problems: list[Problem]) -> int:
    if papers == 0:
        print("kg: no usable records in the input", file=sys.stderr)
        return EXIT_BAD_INPUT
    return EXIT_SKIPPED if problems else EXIT_OK


def cmd_extract(args: argparse.Namespace) -> int:
    from kg.corpus.readers import read_corpus
    from kg.export import write_predictions
    from kg.nlp.extract import extract

    corpus = read_corpus(args.inputs, strict=args.strict)
    for p in corpus.problems:
        _report_problem(p)
    if not corpus.papers:
        return _finish(0, corpus.problems)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    n = write_predictions(extract(corpus.papers), out)
    print(f"extracted {n} papers -> {out}", file=sys.stderr)
    return _finish(n, corpus.problems)


def cmd_build(args: argparse.Namespace) -> int:
    from kg.builder import build

    report = build(args.inputs, args.out, strict=args.strict, max_nodes=args.max_nodes, on_problem=_report_problem)
    if report.papers == 0:
        return _finish(0, report.problems)
    print(report.summary())
    print(f"wrote {len(report.files)} files to {args.out}/ (open {Path(args.out) / 'views' / 'index.html'})")
    return _finish(report.papers, report.problems)


def _inputs(p: argparse.ArgumentParser) -> None:
    p.add_argument("inputs", nargs="+", metavar="INPUT",
                   help="paper-list .txt, .jsonl, .csv files, directories of them, or - for standard input")
    p.add_argument("--strict", action="store_true", help="stop at the first bad input record")


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="kg", description="Knowledge graphs of ML papers: methods, tasks, datasets, metrics.")
    sub = ap.add_subparsers(dest="command", required=True)
    p = sub.add_parser("extract", help="extract concepts from abstracts into a JSONL prediction file",
                       description="One line per paper: mentions (raw-text offsets), concepts per label, proposed methods, results.")
    _inputs(p)
    p.add_argument("--out", required=True, help="output JSONL file")
    p.set_defaults(func=cmd_extract)
    p = sub.add_parser("build", help="build the graph and write graph.json, graph.graphml, mentions.jsonl, neo4j/, views/",
                       description="Example: kg build examples/icml --out out")
    _inputs(p)
    p.add_argument("--out", required=True, help="output directory")
    p.add_argument("--max-nodes", type=int, default=1500, help="node cap of the overview view (default 1500)")
    p.set_defaults(func=cmd_build)
    return ap


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        return args.func(args)
    except InputError as exc:
        print(str(exc), file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
