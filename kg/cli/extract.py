"""``kg extract``: concepts of each abstract into a JSONL prediction file."""
from __future__ import annotations

import argparse
import itertools
import os
import sys
from pathlib import Path

from kg.cli.common import (EXIT_BAD_INPUT, add_command, add_inputs, finish, output_path, pipeline_config, positive_int,
                           reading)
from kg.cli.output import error, safe


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    """Add ``kg extract``."""
    p = add_command(subparsers, "extract", help="extract concepts from abstracts into a JSONL prediction file",
                    description="One line per paper: mentions (raw-text offsets), concepts per label, proposed "
                                "methods, results.")
    add_inputs(p)
    p.add_argument("-o", "--out", required=True, type=output_path,
                   help="output JSONL file; - writes the lines to standard output")
    p.add_argument("--workers", type=positive_int, default=1, help="extraction processes (default 1)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Extract every input paper and write one prediction line each (to standard output for ``--out -``, as they
    are made)."""
    from kg.build.outdir import PENDING
    from kg.corpus.readers import iter_papers
    from kg.errors import Problem
    from kg.sinks.predictions import write_predictions
    from kg.nlp.extract import extract

    out = None if args.out == "-" else Path(args.out)
    if out is not None and any(i != "-" and Path(i).exists() and Path(i).resolve() == out.resolve()
                               for i in args.inputs):
        error(f"--out {out} is one of the inputs: name another file")
        return EXIT_BAD_INPUT
    if out is not None and out.is_dir():
        error(f"--out {out} is a directory: name the JSON lines file to write")
        return EXIT_BAD_INPUT
    problems: list[Problem] = []

    def problem(p: Problem) -> None:
        problems.append(p)
        print(safe(str(p)), file=sys.stderr)

    # Streams: records are read, extracted and written in batches; memory does not grow with the corpus.
    with reading(args):
        papers = iter_papers(args.inputs, strict=args.strict, on_problem=problem)
        first = next(papers, None)
        if first is None:
            return finish(0, problems)
        if args.workers > 1:  # the workers' fork server, ignoring Ctrl-C (this process ends the workers)
            from kg.build.lifeline import start_forkserver

            start_forkserver(["kg.nlp.extract"])
        items = extract(itertools.chain([first], papers), n_process=args.workers, config=pipeline_config(args))
        if out is None:
            n = write_predictions(items, sys.stdout)
            sys.stdout.flush()
        else:
            out.parent.mkdir(parents=True, exist_ok=True)
            new = out.with_name(f".{out.name}.kg-new-{os.getpid()}")  # renamed once whole: never a half-written --out
            PENDING.add(new)  # (removed on SIGTERM too: kg.cli.guard)
            try:
                n = write_predictions(items, new)
                os.replace(new, out)
            finally:
                new.unlink(missing_ok=True)
                PENDING.discard(new)
    print(f"extracted {n} paper{'' if n == 1 else 's'} -> {'standard output' if out is None else safe(out)}",
          file=sys.stderr)
    return finish(n, problems)
