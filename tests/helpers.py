"""Helpers the tests of the command line share."""
from __future__ import annotations

import json
from pathlib import Path

import networkx as nx

from kg.cli import main
from kg.store.embedded import write_ladybug


def write_build(g: nx.MultiDiGraph, out: Path) -> Path:
    """``g`` as kg build leaves it in ``out``: graph.json (for kg related and kg viz) and graph.lbug (kg query)."""
    (out / "graph.json").write_text(json.dumps(nx.node_link_data(g, edges="links")), encoding="utf-8")
    write_ladybug(g, out / "graph.lbug")
    return out


def run(capsys, *argv: str) -> tuple[int, str, str]:
    """``kg ARGV`` in this process: its exit code, stdout and stderr."""
    capsys.readouterr()
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err
