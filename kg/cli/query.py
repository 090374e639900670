"""``kg query``: a saved query from cypher/ (or any Cypher) on the embedded store or on Neo4j."""
from __future__ import annotations

import argparse
import difflib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from kg.cli.common import EXIT_BAD_INPUT, EXIT_OK, add_command, add_neo4j_options, neo4j_config, report_ambiguous
from kg.cli.output import error, safe, safe_json


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    """Add ``kg query``."""
    p = add_command(subparsers, "query",
                    help="run a saved query from cypher/ (or --cypher) on the embedded store or Neo4j",
                    description="Example: kg query papers_on_dataset --param dataset=CUHK-SYSU. Queries only read "
                                "the graph. Exit code 2: a query or parameter that is refused (syntax, a value the "
                                "engine cannot compute with, a write, a parameter the query does not read, a name "
                                "no paper or concept answers to, or several do); 3: the store cannot answer (no "
                                "build, a damaged store, Neo4j down).")
    p.add_argument("name", nargs="?", help="saved query name (kg query --list shows them)")
    p.add_argument("--cypher", help="run this Cypher instead of a saved query")
    p.add_argument("--param", action="append", default=[], metavar="KEY=VALUE", help="query parameter (repeatable)")
    p.add_argument("--graph", default="out", help="directory written by kg build, for the embedded store (default out)")
    p.add_argument("--neo4j", nargs="?", const="env", metavar="URI",
                   help="run on Neo4j: the server at URI (bolt://..., neo4j://...), else at $NEO4J_URI (a value "
                        "without :// is the query's name: kg query --neo4j top_datasets)")
    add_neo4j_options(p)
    p.add_argument("--format", choices=["table", "json", "csv"], default="table")
    p.add_argument("--list", action="store_true", help="list the saved queries")
    p.add_argument("--cypher-dir", help="directory of saved queries (default: the project's cypher/)")
    p.set_defaults(run=run, uri=None)


def printable(text: str, fmt: str) -> str:
    """Rows formatted as ``fmt``, safe for a terminal: control characters escaped, JSON still JSON."""
    if fmt == "json":
        return safe_json(text)
    if fmt == "csv":  # the writer's line ends stay; a newline inside a quoted value too
        return "\r\n".join(safe(line, multiline=True) for line in text.split("\r\n"))
    return safe(text, multiline=True)


def run(args: argparse.Namespace) -> int:
    """List the saved queries, or run one and print its rows."""
    from kg.store.queries import (NAMES, VENUE, YEAR, format_listing, format_rows, load_queries, missing_params,
                                  parse_params, query_params)

    try:
        queries = load_queries(Path(args.cypher_dir)) if args.cypher_dir else load_queries()
    except ValueError as exc:
        error(exc)
        return EXIT_BAD_INPUT
    _name_given_to_neo4j(args)
    if conflict := _conflict(args):
        error(conflict)
        return EXIT_BAD_INPUT
    if args.list or (not args.name and args.cypher is None):
        print(safe(format_listing(queries), multiline=True))
        return EXIT_OK
    saved = None if args.cypher else queries.get(args.name)
    if saved is None and not args.cypher:
        close = difflib.get_close_matches(args.name, list(queries), n=3)
        error(f"no saved query '{args.name}'" + (f"; did you mean {', '.join(close)}?" if close else
                                                  "; `kg query --list` shows them"))
        return EXIT_BAD_INPUT
    cypher = saved.for_engine("neo4j" if args.neo4j else "lbug") if saved else args.cypher
    kinds = saved.kinds if saved else {}
    try:
        params = parse_params(args.param, kinds)
    except ValueError as exc:
        error(exc)
        return EXIT_BAD_INPUT
    if unknown := sorted(set(params) - query_params(cypher)):
        what = f"{saved.name} has" if saved else "the query reads"
        read = ", ".join(sorted(query_params(cypher))) or "none"
        error(f"--param {', '.join(unknown)}: {what} no such parameter (its parameters: {read})")
        return EXIT_BAD_INPUT
    params = {**(saved.defaults if saved else {}), **params}  # what --param leaves out, from the query's header
    if missing := missing_params(cypher, params):
        example = f" (e.g. {saved.example})" if saved and saved.example else ""
        error(f"the query needs --param {' --param '.join(m + '=...' for m in missing)}{example}")
        return EXIT_BAD_INPUT
    with _engine(args) as run_cypher:
        for key, kind in kinds.items():
            if kind in NAMES and key in params and (code := _resolve(run_cypher, params, key, kind)) != EXIT_OK:
                return code
            if kind in (YEAR, VENUE) and key in params:
                _warn_if_no_paper_of(run_cypher, key, params[key], kind)
        _warn_if_one_paper(params, kinds)
        columns, rows = run_cypher(cypher, params)
    print(printable(format_rows(columns, rows, args.format), args.format))
    return EXIT_OK


def _conflict(args: argparse.Namespace) -> str | None:
    """What is wrong with the options that choose the query (a saved query's name, ``--cypher``, ``--list``), or
    None: one of them at most, and a ``--cypher`` with a query in it."""
    if args.cypher is not None and not args.cypher.strip():
        return "--cypher needs a query (kg query --list shows the saved ones)"
    given = [what for what, there in ((f"the saved query '{args.name}'", args.name),
                                      ("--cypher", args.cypher is not None), ("--list", args.list)) if there]
    return f"give one of a saved query's name, --cypher and --list, not {' and '.join(given)}" \
        if len(given) > 1 else None


def _name_given_to_neo4j(args: argparse.Namespace) -> None:
    """``kg query --neo4j NAME``: a value of ``--neo4j`` that is not a URI (it has no "://") is the saved query's
    name when no other is given, and the server is $NEO4J_URI's."""
    if args.neo4j not in (None, "env") and "://" not in args.neo4j and args.name is None:
        args.name, args.neo4j = args.neo4j, "env"


def _warn_if_no_paper_of(run_cypher: Callable, key: str, value: object, kind: str) -> None:
    """A warning on standard error when no paper of the graph has the year or the venue (in any case) ``--param
    key`` gives (the answer would hold nothing of it: new_datasets against a year the corpus lacks lists every
    dataset as new, proposed_methods of "NIPS" nothing), naming those it has (venues: the 20 with most papers)."""
    from kg.store.queries import YEAR

    if kind == YEAR:
        found = "MATCH (p:Paper) WHERE p.year = $value RETURN count(p)"
        have = "MATCH (p:Paper) WHERE p.year IS NOT NULL RETURN DISTINCT p.year AS y ORDER BY y LIMIT 20"
    else:
        found = "MATCH (p:Paper) WHERE toLower(p.venue) = toLower($value) RETURN count(p)"
        have = ("MATCH (p:Paper) WHERE p.venue IS NOT NULL WITH p.venue AS v, count(*) AS n "
                "RETURN v ORDER BY n DESC, v LIMIT 20")
    _, rows = run_cypher(found, {"value": value})
    if rows and rows[0][0] == 0:
        _, values = run_cypher(have, {})
        listed = ", ".join(str(r[0]) for r in values) or "none"
        error(f"warning: --param {key}={value}: no paper of the graph is of that {kind} (its {kind}s: {listed})")


def _warn_if_one_paper(params: dict, kinds: dict[str, str]) -> None:
    """A warning on standard error when two paper parameters name the same paper (``path_between_papers`` of a paper
    and itself answers no rows)."""
    from kg.store.queries import PAPER

    keys: dict[object, list[str]] = {}
    for key, kind in kinds.items():
        if kind == PAPER and key in params:
            keys.setdefault(params[key], []).append(key)
    for paper, same in keys.items():
        if len(same) > 1:
            given = " and ".join(f"--param {k}" for k in same)
            error(f"warning: {given} name the same paper ({paper}); the query compares two papers")


def _resolve(run_cypher: Callable, params: dict, key: str, kind: str) -> int:
    """Put the id of the paper or concept that ``params[key]`` names in its place (kg.paper_names,
    kg.concept_names); an unknown or ambiguous name is said on standard error, exit code 2."""
    from kg.paper_names import AmbiguousName

    try:
        params[key] = _lookup(lambda cypher, values: run_cypher(cypher, values)[1], kind, str(params[key]))
    except AmbiguousName as exc:
        return report_ambiguous(exc)
    except ValueError as exc:
        error(f"--param {key}: {exc}")
        return EXIT_BAD_INPUT
    return EXIT_OK


def _lookup(rows: Callable[[str, dict], list[list]], kind: str, name: str) -> str:
    """The id of the paper or the concept of ``kind`` that ``name`` names in the store ``rows`` runs Cypher on.
    ValueError naming close names when none does; AmbiguousName listing them when several do."""
    from kg.concept_names import resolve_in_store
    from kg.paper_names import StorePapers, not_found, resolve
    from kg.store.queries import PAPER

    if kind != PAPER:
        return resolve_in_store(rows, kind, name)
    papers = StorePapers(rows)
    found = resolve(papers, name)
    if found is None:
        raise ValueError(not_found(papers, name))
    return found


@contextmanager
def _engine(args: argparse.Namespace) -> Iterator[Callable[[str, dict], tuple[list[str], list[list]]]]:
    """A function running Cypher on the engine the options chose (Neo4j or the embedded store), open meanwhile."""
    from kg.store import queries

    if not args.neo4j:
        from kg.store.embedded import connect

        conn = connect(Path(args.graph) / "graph.lbug")
        yield lambda cypher, params: queries.run_embedded(conn, cypher, params)
        return
    from kg.store.neo4j_store import connect

    args.uri = args.neo4j if args.neo4j != "env" else None
    cfg = neo4j_config(args)
    driver = connect(cfg)
    try:
        yield lambda cypher, params: queries.run_neo4j(driver, cypher, params, cfg.database)
    finally:
        driver.close()
