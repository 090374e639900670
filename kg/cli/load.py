"""``kg load``: a built graph into Neo4j (idempotent MERGE in UNWIND batches), or a bulk import."""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from kg.cli.common import (EXIT_BAD_INPUT, EXIT_OK, add_command, add_neo4j_options, confirm, neo4j_config,
                           positive_int)
from kg.cli.output import error, safe

if TYPE_CHECKING:
    from kg.store.neo4j_store import Neo4jConfig


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    """Add ``kg load``."""
    p = add_command(subparsers, "load", help="load a built graph into Neo4j (idempotent MERGE in UNWIND batches)",
                    description="Example: docker compose up -d && kg load out/  (settings from NEO4J_URI, NEO4J_USER, "
                                "NEO4J_PASSWORD, NEO4J_DATABASE or the options)")
    p.add_argument("dir", help="a directory written by kg build")
    p.add_argument("--uri", help="Bolt URI (default $NEO4J_URI or bolt://localhost:7687)")
    add_neo4j_options(p)
    p.add_argument("--batch-size", type=positive_int, default=1000, help="rows per UNWIND transaction (default 1000)")
    what = p.add_mutually_exclusive_group()
    what.add_argument("--wipe", action="store_true",
                      help="delete everything in the database first (asks unless --yes); with --schema-only, "
                           "then create the schema")
    p.add_argument("--yes", action="store_true",
                   help="do not ask before --wipe (unconfirmed, with no terminal to ask, it loads nothing: exit 2)")
    p.add_argument("--prune", action="store_true",
                   help="also delete what the build does not have (after kg build --prune, or another build's "
                        "papers), so Neo4j matches it exactly; without it, a database holding such nodes is named "
                        "in a warning")
    what.add_argument("--bulk", action="store_true",
                      help="first load of a big graph: neo4j-admin database import of DIR/neo4j/*.csv (server "
                           "stopped; replaces the database), then start the server and run --schema-only")
    p.add_argument("--neo4j-admin", help="path of neo4j-admin for --bulk (default $NEO4J_ADMIN or neo4j-admin on PATH)")
    p.add_argument("--schema-only", action="store_true",
                   help="only create the constraints and indexes (after --bulk, also the empty lists that "
                        "neo4j-admin leaves out)")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Bulk-import, apply the schema, or merge the graph; print what the database holds afterwards."""
    if args.bulk and args.schema_only:  # the server is stopped for a bulk import; the schema comes after it
        error("error: argument --schema-only: not allowed with argument --bulk (see kg load --help)", "kg load")
        return EXIT_BAD_INPUT
    cfg = neo4j_config(args)
    if args.bulk:
        return _bulk(args, cfg)
    from kg.store.neo4j_store import connect, counts, held_beyond, load_graph_into, progress_bar, prune

    if args.schema_only:  # (after --wipe: an empty database with the schema)
        return _schema_only(args, cfg)
    from kg.store.rows import load_graph

    graph = load_graph(Path(args.dir))
    driver = connect(cfg)
    try:
        if args.wipe and not _wiped(args, cfg, driver):
            return EXIT_BAD_INPUT
        stats = load_graph_into(driver, graph, database=cfg.database, batch_size=args.batch_size,
                                progress=None if args.quiet else progress_bar)
        if args.prune:
            n_gone, r_gone = prune(driver, graph, database=cfg.database)
            print(f"pruned {n_gone} nodes and {r_gone} relationships that the build no longer has", file=sys.stderr)
        else:
            _warn_of_other_nodes(cfg.database, *held_beyond(driver, graph, cfg.database))
        nodes, rels = counts(driver, cfg.database)
    finally:
        driver.close()
    print(stats.summary())
    print(f"database '{safe(cfg.database)}' at {cfg.shown_uri} now holds {nodes} nodes and {rels} relationships")
    return EXIT_OK


def _schema_only(args: argparse.Namespace, cfg: Neo4jConfig) -> int:
    """Apply the schema (after ``--wipe``: to an empty database) and give the nodes that a bulk import left without
    a list property the empty list."""
    from kg.store.neo4j_store import apply_schema, connect, counts, fill_empty_lists

    driver = connect(cfg)
    try:
        if args.wipe and not _wiped(args, cfg, driver):
            return EXIT_BAD_INPUT
        apply_schema(driver, cfg.database)
        filled = fill_empty_lists(driver, cfg.database)
        nodes, rels = counts(driver, cfg.database)
    finally:
        driver.close()
    if filled:
        print(f"set {filled} missing list properties to the empty list (neo4j-admin imports none)", file=sys.stderr)
    print(f"schema applied; database '{safe(cfg.database)}' at {cfg.shown_uri} holds {nodes} nodes and {rels} "
          "relationships")
    return EXIT_OK


def _warn_of_other_nodes(database: str, papers: int, others: int) -> None:
    """One warning line when the database holds papers or other nodes that the build just loaded does not."""
    if papers or others:
        error(f"warning: database '{database}' also holds {papers} papers and {others} other nodes that this "
              "build does not have; the concepts' papers, idf and aliases are this build's; kg load --prune makes "
              "the database match the build", "kg load")


def _bulk(args: argparse.Namespace, cfg) -> int:
    from kg.store.neo4j_store import bulk_import

    csv_dir = Path(args.dir) / "neo4j"
    if not csv_dir.is_dir():
        raise FileNotFoundError(f"{csv_dir}: no CSV export here; run `kg build INPUT --out {args.dir}` first")
    admin = args.neo4j_admin or os.environ.get("NEO4J_ADMIN", "neo4j-admin")
    bulk_import(csv_dir, database=cfg.database, neo4j_admin=admin)
    print(safe(f"imported {csv_dir} into database '{cfg.database}'; start the server, then run "
               f"`kg load {args.dir} --schema-only` to create the constraints and indexes and the empty lists "
               "neo4j-admin leaves out"))
    return EXIT_OK


def _wiped(args: argparse.Namespace, cfg, driver) -> bool:
    """Delete everything in the database once confirmed (``--yes`` or an answer); False, said, when not."""
    from kg.store.neo4j_store import wipe

    where = f"database '{safe(cfg.database)}' at {cfg.shown_uri}"
    if not args.yes and not confirm(f"Delete every node and relationship in {where}?"):
        error("nothing loaded (wipe not confirmed)" if not args.schema_only else "nothing done (wipe not confirmed)")
        return False
    print(f"wiped {wipe(driver, cfg.database)} nodes", file=sys.stderr)
    return True
