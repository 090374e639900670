"""The command line: one parser, one module per command (``kg/cli/<command>.py``, each with ``add_parser`` and
``run``); the exit codes are :data:`EXIT_CODES`, which ``kg --help`` shows.
"""
from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Sequence

from kg.cli import bench, build, extract, load, query, related, train, viz
from kg.cli import eval as evaluate
from kg.cli.common import (EXIT_BAD_INPUT, EXIT_INTERRUPTED, EXIT_OK, EXIT_SKIPPED, EXIT_STORE, Parser, add_debug)
from kg.cli.guard import run_guarded

__all__ = ["main", "parser", "EXIT_CODES", "EXIT_OK", "EXIT_SKIPPED", "EXIT_BAD_INPUT", "EXIT_STORE",
           "EXIT_INTERRUPTED"]

COMMANDS = (extract, build, bench, train, related, evaluate, viz, load, query)  # in the order --help lists them
EXIT_CODES = """\
exit codes:
  0    success (also when a reader such as head closes the output early)
  1    finished, but the input had problems, each reported as one line FILE:LINE: what is wrong:
       records skipped, or records read all the same (FILE:LINE: warning: ..., a field left out)
  2    nothing usable in the input, the first problem under --strict (warnings too), an invalid
       option, another kg build writing into --out, a query or parameter that is refused (syntax, a
       value the engine cannot compute with, a write, a name no paper or concept answers to), a
       deletion not confirmed (kg load --wipe or kg bench load without --yes, and no terminal to ask
       or no yes), or an unexpected error (one line; --debug shows the traceback)
  3    a graph store problem: Neo4j down, wrong credentials or database, no built graph or a
       damaged one
  130  interrupted (Ctrl-C)
  143  terminated (SIGTERM; the processes the command started are ended first)"""


def parser() -> argparse.ArgumentParser:
    """The ``kg`` parser, with a subcommand per module of ``COMMANDS``."""
    ap = Parser(prog="kg", description="Knowledge graphs of ML papers: methods, tasks, datasets, metrics.",
                epilog=EXIT_CODES, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_debug(ap)
    sub = ap.add_subparsers(dest="command", required=True)
    for command in COMMANDS:
        command.add_parser(sub)
    return ap


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``kg`` with ``argv`` (default: the process's arguments) and return its exit code."""
    driver_log = logging.getLogger("neo4j")  # it logs what it then raises; kg says it once, in its own line
    if not driver_log.handlers:
        driver_log.addHandler(logging.NullHandler())
    try:
        given = sys.argv[1:] if argv is None else list(argv)
        top = parser()
        top.given = given  # (what an error about unrecognized arguments reads, kg.cli.common.Parser.error)
        args = top.parse_args(given)
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    return run_guarded(args.run, args)
