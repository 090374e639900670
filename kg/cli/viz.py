"""``kg viz``: an interactive offline view of a built graph."""
from __future__ import annotations

import argparse
from pathlib import Path

from kg.cli.common import EXIT_BAD_INPUT, EXIT_OK, add_command, output_path, positive_int, report_ambiguous
from kg.cli.output import error, safe


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    """Add ``kg viz``."""
    p = add_command(subparsers, "viz", help="write an interactive offline view of a built graph",
                    description="Examples: kg viz out --kind overview --out overview.html; "
                                "kg viz out --kind dataset --focus CUHK-SYSU --out cuhk.html")
    p.add_argument("dir", help="a directory written by kg build")
    p.add_argument("--kind", choices=["overview", "paper", "dataset", "task", "method"], default="overview")
    p.add_argument("--focus", help="the paper, dataset, task or method to centre on (name, alias or id; a paper "
                                   "also by its title or proposed method)")
    p.add_argument("--max-nodes", type=positive_int, default=1500, help="node cap (default 1500)")
    p.add_argument("-o", "--out", required=True, type=output_path, help="output HTML file")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Write the view and say how big it is."""
    from kg.paper_names import AmbiguousPaper
    from kg.store.rows import load_graph
    from kg.viz import render_view

    g = load_graph(Path(args.dir))
    try:
        info = render_view(g, Path(args.out), kind=args.kind, focus=args.focus, max_nodes=args.max_nodes)
    except AmbiguousPaper as exc:
        return report_ambiguous(exc)
    except ValueError as exc:
        error(exc)
        return EXIT_BAD_INPUT
    omitted = f" ({info.omitted_nodes} nodes and {info.omitted_edges} edges left out" if info.omitted_nodes else ""
    if omitted:
        why = "; ".join(f"{n} {what}" for what, n in sorted(info.hidden.items(), key=lambda x: (-x[1], x[0])))
        omitted += (f": {why})" if why else ")")
    print(f"wrote {safe(info.path)}: {info.nodes} nodes, {info.edges} edges{omitted}")
    return EXIT_OK
