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
                    description="Example: kg query papers_on_dataset --param dataset=CUHK-SYSU")
    p.add_argument("name", nargs="?", help="saved query name (kg query --list shows them)")
    p.add_argument("--cypher", help="run this Cypher instead of a saved query")
    p.add_argument("--param", action="append", default=[], metavar="KEY=VALUE", help="query parameter (repeatable)")
    p.add_argument("--graph", default="out", help="directory written by kg build, for the embedded store (default out)")
    p.add_argument("--neo4j", nargs="?", const="env", metavar="URI",
                   help="run on Neo4j (URI, or $NEO4J_URI when given without one)")
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
    from kg.store.queries import format_listing, format_rows, load_queries, missing_params, parse_params

    queries = load_queries(Path(args.cypher_dir)) if args.cypher_dir else load_queries()
    if args.list or (not args.name and not args.cypher):
        print(safe(format_listing(queries), multiline=True))
        return EXIT_OK
    engine = "neo4j" if args.neo4j else "lbug"
    if args.cypher:
        cypher = args.cypher
    elif args.name in queries:
        cypher = queries[args.name].for_engine(engine)
    else:
        close = difflib.get_close_matches(args.name, list(queries), n=3)
        error(f"no saved query '{args.name}'" + (f"; did you mean {', '.join(close)}?" if close else
                                                  "; `kg query --list` shows them"))
        return EXIT_BAD_INPUT
    try:
        params = parse_params(args.param)
    except ValueError as exc:
        error(exc)
        return EXIT_BAD_INPUT
    if missing := missing_params(cypher, params):
        example = f" (e.g. {queries[args.name].example})" if not args.cypher and queries[args.name].example else ""
        error(f"the query needs --param {' --param '.join(m + '=...' for m in missing)}{example}")
        return EXIT_BAD_INPUT
    papers = () if args.cypher else queries[args.name].papers
    with _engine(args) as run_cypher:
        for key in papers:
            if key in params and (code := _resolve_paper(run_cypher, params, key)) != EXIT_OK:
                return code
        columns, rows = run_cypher(cypher, params)
    print(printable(format_rows(columns, rows, args.format), args.format))
    return EXIT_OK


def _resolve_paper(run_cypher: Callable, params: dict, key: str) -> int:
    """Put the id of the paper ``params[key]`` names in its place (an id, a title or a proposed method's name);
    an unknown or ambiguous name is said on standard error, exit code 2."""
    from kg.paper_names import AmbiguousPaper, StorePapers, not_found, resolve

    papers = StorePapers(lambda cypher, values: run_cypher(cypher, values)[1])
    try:
        found = resolve(papers, str(params[key]))
    except AmbiguousPaper as exc:
        return report_ambiguous(exc)
    if found is None:
        error(f"--param {key}: " + not_found(papers, str(params[key])))
        return EXIT_BAD_INPUT
    params[key] = found
    return EXIT_OK


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
