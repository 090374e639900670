"""Loading into and querying a real Neo4j 5.26 server (started by `make test`, see scripts/neo4j-up.sh)."""
from __future__ import annotations

import math
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import networkx as nx
import pytest

from kg.store.embedded import connect as connect_lbug
from kg.store.neo4j_store import Neo4jConfig, connect, counts, load_graph_into
from kg.store.queries import load_queries, run_embedded, run_neo4j
from tests.test_store import NON_HIERARCHY_PARAMS, SEED_PARAMS

pytestmark = pytest.mark.neo4j
ROOT = Path(__file__).resolve().parents[1]


def graph_counts(g: nx.MultiDiGraph) -> tuple[int, int]:
    return g.number_of_nodes(), g.number_of_edges()


def normalise(rows: list[list]) -> list[tuple]:
    """Rows comparable across engines: floats rounded; the queries order their lists themselves."""
    def cell(v):
        if isinstance(v, list):
            return tuple(cell(x) for x in v)
        if isinstance(v, float):
            return round(v, 6)
        return v
    return sorted((tuple(cell(v) for v in r) for r in rows), key=repr)


def kg_cli(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "kg.cli", *args], capture_output=True, text=True, timeout=600,
                          env={**os.environ, **(env or {})})


def cli_env(cfg: Neo4jConfig) -> dict:
    return {"NEO4J_URI": cfg.uri, "NEO4J_USER": cfg.user, "NEO4J_PASSWORD": cfg.password or "", "NEO4J_DATABASE": cfg.database}


def test_loading_the_seed_graph_gives_its_counts(neo4j_driver, neo4j_config, seed_build):
    report, _ = seed_build
    stats = load_graph_into(neo4j_driver, report.graph, database=neo4j_config.database, batch_size=50)
    assert counts(neo4j_driver, neo4j_config.database) == graph_counts(report.graph)
    assert (stats.nodes_created, stats.rels_created) == graph_counts(report.graph)


def test_loading_twice_changes_nothing(neo4j_driver, neo4j_config, seed_build):
    report, _ = seed_build
    load_graph_into(neo4j_driver, report.graph, database=neo4j_config.database)
    again = load_graph_into(neo4j_driver, report.graph, database=neo4j_config.database)
    assert (again.nodes_created, again.rels_created) == (0, 0)
    assert (again.nodes_matched, again.rels_matched) == graph_counts(report.graph)
    assert counts(neo4j_driver, neo4j_config.database) == graph_counts(report.graph)


def test_loading_a_grown_build_adds_only_what_is_new(neo4j_driver, neo4j_config, seed_build):
    report, _ = seed_build
    g = report.graph
    papers_2025 = {n for n, d in g.nodes(data=True) if d["type"] == "Paper" and d["year"] == 2025}
    keep = papers_2025 | {v for p in papers_2025 for v in nx.descendants(g, p)}
    small = g.subgraph(keep).copy()
    load_graph_into(neo4j_driver, small, database=neo4j_config.database)
    grown = load_graph_into(neo4j_driver, g, database=neo4j_config.database)
    assert grown.nodes_created == g.number_of_nodes() - small.number_of_nodes()
    assert grown.rels_created == g.number_of_edges() - small.number_of_edges()


def test_a_grown_load_creates_new_links_and_merges_old_ones_to_the_same_properties(neo4j_driver, neo4j_config,
                                                                                   seed_build):
    """Links of new papers are created, the others merged: no link is doubled, and every
    property equals what one load of the whole graph gives."""
    report, _ = seed_build
    g = report.graph
    half = {n for i, n in enumerate(n for n, d in g.nodes(data=True) if d["type"] == "Paper") if i % 2}
    small = g.subgraph(half | {v for p in half for v in nx.descendants(g, p)}).copy()
    query = "MATCH (a)-[r]->(b) RETURN a.id AS a, type(r) AS t, b.id AS b, properties(r) AS p"

    def links() -> list:
        records, _, _ = neo4j_driver.execute_query(query, database_=neo4j_config.database)
        return sorted((r["a"], r["t"], r["b"], sorted(r["p"].items())) for r in records)

    load_graph_into(neo4j_driver, small, database=neo4j_config.database, batch_size=7)
    load_graph_into(neo4j_driver, g, database=neo4j_config.database, batch_size=7)
    grown = links()
    assert len({x[:3] for x in grown}) == len(grown) == g.number_of_edges()
    neo4j_driver.execute_query("MATCH (n) DETACH DELETE n", database_=neo4j_config.database)
    load_graph_into(neo4j_driver, g, database=neo4j_config.database)
    assert links() == grown


def test_benchmark_datasets_carry_the_benchmark_label(neo4j_driver, neo4j_config, seed_build):
    report, _ = seed_build
    load_graph_into(neo4j_driver, report.graph, database=neo4j_config.database)
    records, _, _ = neo4j_driver.execute_query("MATCH (d:Dataset:Benchmark) RETURN d.name AS n", database_=neo4j_config.database)
    assert {"GLUE", "HumanEval"} <= {r["n"] for r in records}


def test_every_saved_query_returns_the_same_rows_on_both_engines(neo4j_driver, neo4j_config, seed_build):
    report, out = seed_build
    load_graph_into(neo4j_driver, report.graph, database=neo4j_config.database)
    lbug = connect_lbug(out / "graph.lbug")
    for name, q in load_queries().items():
        params = SEED_PARAMS[name]
        cols_n, rows_n = run_neo4j(neo4j_driver, q.for_engine("neo4j"), params, neo4j_config.database)
        cols_l, rows_l = run_embedded(lbug, q.for_engine("lbug"), params)
        assert cols_n == cols_l, name
        assert normalise(rows_n) == normalise(rows_l), name
        if name in {"papers_on_dataset", "new_datasets", "proposed_methods", "top_datasets"}:
            assert rows_n, f"{name} should return rows on the seed graph"
    for name, params in NON_HIERARCHY_PARAMS:
        q = load_queries()[name]
        cols_n, rows_n = run_neo4j(neo4j_driver, q.for_engine("neo4j"), params, neo4j_config.database)
        cols_l, rows_l = run_embedded(lbug, q.for_engine("lbug"), params)
        assert cols_n == cols_l and rows_n and normalise(rows_n) == normalise(rows_l), (name, params)


def test_values_are_parameters_not_query_text(neo4j_driver, neo4j_config):
    g = nx.MultiDiGraph()
    evil = "x'}) DETACH DELETE n //"
    g.add_node("paper:evil", type="Paper", name=evil, title='"; MATCH (n) DETACH DELETE n', authors=[evil], source=[])
    g.add_node("paper:other", type="Paper", name="other", authors=[], source=[])
    load_graph_into(neo4j_driver, g, database=neo4j_config.database)
    records, _, _ = neo4j_driver.execute_query("MATCH (p:Paper {id: 'paper:evil'}) RETURN p.name AS n, p.authors AS a",
                                               database_=neo4j_config.database)
    assert records[0]["n"] == evil and records[0]["a"] == [evil]
    assert counts(neo4j_driver, neo4j_config.database)[0] == 2


def test_an_interrupted_load_can_be_rerun_to_completion(neo4j_driver, neo4j_config, seed_build):
    report, out = seed_build
    env = cli_env(neo4j_config)
    proc = subprocess.Popen([sys.executable, "-m", "kg.cli", "load", str(out), "--batch-size", "1", "--quiet"],
                            env={**os.environ, **env}, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.time() + 120
    while time.time() < deadline and counts(neo4j_driver, neo4j_config.database)[1] < 20:
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    n, r = counts(neo4j_driver, neo4j_config.database)
    assert 0 < r < report.graph.number_of_edges(), "the load should have been killed half way"
    done = kg_cli("load", str(out), "--quiet", env=env)
    assert done.returncode == 0, done.stderr
    assert counts(neo4j_driver, neo4j_config.database) == graph_counts(report.graph)
    records, _, _ = neo4j_driver.execute_query("MATCH (n) WITH n.id AS id, count(*) AS c WHERE c > 1 RETURN count(*) AS dup",
                                               database_=neo4j_config.database)
    assert records[0]["dup"] == 0


def test_wipe_needs_confirmation(neo4j_driver, neo4j_config, seed_build):
    _, out = seed_build
    env = cli_env(neo4j_config)
    assert kg_cli("load", str(out), "--quiet", env=env).returncode == 0
    refused = kg_cli("load", str(out), "--wipe", "--quiet", env=env)
    assert refused.returncode == 3 and "not confirmed" in refused.stderr
    wiped = kg_cli("load", str(out), "--wipe", "--yes", "--quiet", env=env)
    assert wiped.returncode == 0 and "wiped" in wiped.stderr and "0 matched" in wiped.stdout


def test_server_down_is_one_line_and_exit_3(seed_build):
    _, out = seed_build
    proc = kg_cli("load", str(out), "--uri", "bolt://127.0.0.1:1")
    assert proc.returncode == 3 and "cannot reach Neo4j at bolt://127.0.0.1:1" in proc.stderr
    assert "Traceback" not in proc.stderr and len(proc.stderr.strip().splitlines()) == 1


def test_wrong_database_is_one_line_and_exit_3(neo4j_config, seed_build):
    _, out = seed_build
    proc = kg_cli("load", str(out), "--database", "nosuchdb", env=cli_env(neo4j_config))
    assert proc.returncode == 3 and "no database 'nosuchdb'" in proc.stderr and "Traceback" not in proc.stderr


def test_wrong_password_is_one_line_exit_3_and_never_printed(neo4j_config, seed_build):
    if not neo4j_config.password:
        pytest.skip("this server runs without auth; `make test` starts it with NEO4J_PASSWORD set")
    _, out = seed_build
    wrong = "definitely-wrong-pw"
    proc = kg_cli("load", str(out), env={**cli_env(neo4j_config), "NEO4J_PASSWORD": wrong})
    assert proc.returncode == 3 and "refused the credentials" in proc.stderr
    assert wrong not in proc.stderr + proc.stdout and "Traceback" not in proc.stderr


def test_query_command_runs_a_saved_query_on_neo4j(neo4j_driver, neo4j_config, seed_build):
    report, out = seed_build
    load_graph_into(neo4j_driver, report.graph, database=neo4j_config.database)
    proc = kg_cli("query", "papers_on_dataset", "--param", "dataset=PRW", "--neo4j", "--format", "json",
                  env=cli_env(neo4j_config))
    assert proc.returncode == 0, proc.stderr
    assert '"name": "SCALE"' in proc.stdout
    embedded = kg_cli("query", "papers_on_dataset", "--param", "dataset=PRW", "--graph", str(out), "--format", "json")
    assert embedded.stdout == proc.stdout
    refused = kg_cli("query", "--cypher", "MATCH (p:Paper RETURN p", "--neo4j", env=cli_env(neo4j_config))
    assert refused.returncode == 2 and refused.stderr.startswith("kg: query failed:"), refused.stderr
    assert "Traceback" not in refused.stderr


def test_idf_weights_are_finite(seed_build):
    report, _ = seed_build
    assert all(math.isfinite(d["idf"]) and d["idf"] > 0 for _, d in report.graph.nodes(data=True) if "idf" in d)


def test_load_prune_leaves_exactly_the_smaller_graph(neo4j_driver, neo4j_config, seed_build, tmp_path):
    import kg

    report, out = seed_build
    env = cli_env(neo4j_config)
    assert kg_cli("load", str(out), "--quiet", env=env).returncode == 0
    small = kg.build([str(ROOT / "examples" / "icml" / "002_66f4c0e3e087f8bd.txt")], tmp_path)
    proc = kg_cli("load", str(tmp_path), "--prune", "--quiet", env=env)
    assert proc.returncode == 0, proc.stderr
    assert counts(neo4j_driver, neo4j_config.database) == graph_counts(small.graph)


def test_bulk_import_with_neo4j_admin(neo4j_config, tmp_path):
    """Runs last: stops the test server, imports the CSV export with neo4j-admin, starts it again. The corpus is
    the seeds plus an abstract over several lines (as arXiv's are), which the CSVs quote across lines."""
    import json

    import kg

    admin = ROOT / "tools" / "neo4j" / "neo4j-admin"
    if not (ROOT / ".neo4j" / "conf" / "neo4j.conf").is_file():
        pytest.skip("the server was not started by scripts/neo4j-up.sh, so its neo4j-admin is not set up")
    extra = tmp_path / "multiline.jsonl"
    extra.write_text(json.dumps({"id": "ml-1", "title": "A title, with \"quotes\"",
                                 "abstract": "We propose FooNet for image classification.\nIt beats ResNet-50\n"
                                             "on ImageNet by 2.1% top-1 accuracy."}) + "\n", encoding="utf-8")
    out = tmp_path / "out"
    report = kg.build([str(ROOT / "examples" / "icml"), str(extra)], out)
    env = {**os.environ, **cli_env(neo4j_config)}
    subprocess.run(["bash", str(ROOT / "scripts" / "neo4j-down.sh")], check=True, capture_output=True, env=env)
    try:
        proc = kg_cli("load", str(out), "--bulk", "--neo4j-admin", str(admin), env=cli_env(neo4j_config))
        assert proc.returncode == 0, proc.stderr
    finally:
        subprocess.run(["bash", str(ROOT / "scripts" / "neo4j-up.sh")], check=True, capture_output=True, env=env)
    proc = kg_cli("load", str(out), "--schema-only", env=cli_env(neo4j_config))
    assert proc.returncode == 0, proc.stderr
    driver = connect(neo4j_config)
    try:
        assert counts(driver, neo4j_config.database) == graph_counts(report.graph)
        records, _, _ = driver.execute_query("MATCH (d:Dataset:Benchmark) RETURN count(d) AS n", database_=neo4j_config.database)
        assert records[0]["n"] == sum(1 for _, d in report.graph.nodes(data=True) if d.get("benchmark"))
        again = load_graph_into(driver, report.graph, database=neo4j_config.database)
        assert (again.nodes_created, again.rels_created) == (0, 0), "kg load after a bulk import only matches"
    finally:
        driver.close()
