"""Every saved query's documented example (its ``// example:`` header, the ``e.g.`` line of ``kg query --list``)
runs as written and returns rows on the example corpus (examples/icml) in the embedded store."""
from __future__ import annotations

import json
import shlex

import pytest

from kg.cli import main
from kg.store.queries import load_queries

QUERIES = load_queries()


def run(capsys, argv: list[str]) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_the_listing_shows_a_runnable_example_for_every_saved_query(capsys):
    code, out, _ = run(capsys, ["query", "--list"])
    assert code == 0
    examples = [line.split("e.g. ", 1)[1] for line in out.splitlines() if line.lstrip().startswith("e.g. ")]
    assert examples == [q.example for q in QUERIES.values()]
    for name, q in QUERIES.items():
        assert shlex.split(q.example)[:3] == ["kg", "query", name], q.example


@pytest.mark.parametrize("name", sorted(QUERIES))
def test_the_documented_example_returns_rows_on_the_example_corpus(seed_build, capsys, name):
    argv = shlex.split(QUERIES[name].example)[1:]  # as a shell would split it, without the program name
    code, out, err = run(capsys, [*argv, "--graph", str(seed_build[1]), "--format", "json"])
    assert code == 0, err
    rows = json.loads(out)
    assert len(rows) > 0, f"{QUERIES[name].example} gives no rows on examples/icml"
