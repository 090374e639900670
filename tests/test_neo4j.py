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

from kg import schema
from kg.store.embedded import connect as connect_lbug
from kg.store.neo4j_store import FINGERPRINT, Neo4jConfig, connect, counts, load_graph_into
from kg.store.queries import load_queries, run_embedded, run_neo4j
from tests.test_store import NON_HIERARCHY_PARAMS, SEED_PARAMS, synthetic_params

pytestmark = pytest.mark.neo4j
ROOT = Path(__file__).resolve().parents[1]


def graph_counts(g: nx.MultiDiGraph) -> tuple[int, int]:
    return g.number_of_nodes(), g.number_of_edges()


def rounded(rows: list[list]) -> list[tuple]:
    """Rows comparable across engines, in their order: floats rounded; the queries order their lists themselves."""
    def cell(v):
        if isinstance(v, list):
            return tuple(cell(x) for x in v)
        if isinstance(v, float):
            return round(v, 6)
        return v
    return [tuple(cell(v) for v in r) for r in rows]


def normalise(rows: list[list]) -> list[tuple]:
    """:func:`rounded` rows in one order, whatever order the engine gave them in."""
    return sorted(rounded(rows), key=repr)


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


def test_the_benchmark_label_follows_the_property_and_is_for_datasets_only(neo4j_driver, neo4j_config):
    db = neo4j_config.database
    g = nx.MultiDiGraph()
    g.add_node("dataset:glue", type="Dataset", name="GLUE", benchmark=True)
    g.add_node("method:srbench", type="Method", name="SRBench", benchmark=True)
    load_graph_into(neo4j_driver, g, database=db)

    def labelled() -> set[str]:
        records, _, _ = neo4j_driver.execute_query("MATCH (n:Benchmark) RETURN n.id AS id", database_=db)
        return {r["id"] for r in records}

    assert labelled() == {"dataset:glue"}
    neo4j_driver.execute_query("MATCH (m:Method) SET m:Benchmark", database_=db)  # as an earlier kg loaded it
    g.nodes["dataset:glue"]["benchmark"] = False
    load_graph_into(neo4j_driver, g, database=db)
    assert labelled() == set()
    g.nodes["dataset:glue"]["benchmark"] = True
    load_graph_into(neo4j_driver, g, database=db)
    assert labelled() == {"dataset:glue"}


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


def test_every_saved_query_gives_the_same_rows_in_the_same_order_on_a_synthetic_graph(neo4j_driver, neo4j_config,
                                                                                     synthetic_store):
    """Ties, long lists and the hierarchy of thousands of papers, which the seed graph lacks: there the engines
    agreed, here tasks_sharing_datasets' `via`, new_datasets' `used_by`, related_by's `via` and results_on_dataset's
    ties came in another order on each."""
    g, path = synthetic_store
    load_graph_into(neo4j_driver, g, database=neo4j_config.database)
    lbug = connect_lbug(path)
    queries = load_queries()
    for name, params in synthetic_params(g):
        cols_n, rows_n = run_neo4j(neo4j_driver, queries[name].for_engine("neo4j"), params, neo4j_config.database)
        cols_l, rows_l = run_embedded(lbug, queries[name].for_engine("lbug"), params)
        assert (cols_n, rounded(rows_n)) == (cols_l, rounded(rows_l)), (name, params)


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
    refused = kg_cli("load", str(out), "--wipe", "--quiet", env=env)  # no terminal to ask: the user's no
    assert refused.returncode == 2 and "not confirmed" in refused.stderr
    assert counts(neo4j_driver, neo4j_config.database) == graph_counts(seed_build[0].graph)
    wiped = kg_cli("load", str(out), "--wipe", "--yes", "--quiet", env=env)
    assert wiped.returncode == 0 and "wiped" in wiped.stderr and "0 matched" in wiped.stdout


def test_server_down_is_one_line_and_exit_3(seed_build):
    _, out = seed_build
    proc = kg_cli("load", str(out), "--uri", "bolt://127.0.0.1:1")
    assert proc.returncode == 3 and "cannot reach Neo4j at bolt://127.0.0.1:1: Connection refused" in proc.stderr
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


def test_load_prune_leaves_exactly_the_smaller_graph_and_counts_what_it_deleted(neo4j_driver, neo4j_config,
                                                                                  seed_build, tmp_path):
    import kg

    _, out = seed_build
    env = cli_env(neo4j_config)
    assert kg_cli("load", str(out), "--quiet", env=env).returncode == 0
    small = kg.build([str(ROOT / "examples" / "icml" / "002_66f4c0e3e087f8bd.txt")], tmp_path)
    assert kg_cli("load", str(tmp_path), "--quiet", env=env).returncode == 0  # both builds' nodes now
    nodes, rels = counts(neo4j_driver, neo4j_config.database)
    proc = kg_cli("load", str(tmp_path), "--prune", "--quiet", env=env)
    assert proc.returncode == 0, proc.stderr
    assert counts(neo4j_driver, neo4j_config.database) == graph_counts(small.graph)
    gone = nodes - small.graph.number_of_nodes(), rels - small.graph.number_of_edges()
    assert f"pruned {gone[0]} nodes and {gone[1]} relationships" in proc.stderr and "warning" not in proc.stderr


def test_loading_another_build_warns_of_what_the_database_holds_besides(neo4j_driver, neo4j_config, seed_build,
                                                                       tmp_path):
    import kg

    report, out = seed_build
    env = cli_env(neo4j_config)
    assert kg_cli("load", str(out), "--quiet", env=env).returncode == 0
    small = kg.build([str(ROOT / "examples" / "icml" / "002_66f4c0e3e087f8bd.txt")], tmp_path)
    other = kg_cli("load", str(tmp_path), "--quiet", env=env)
    assert other.returncode == 0, other.stderr
    papers = len({n for n, d in report.graph.nodes(data=True) if d["type"] == "Paper"} - set(small.graph))
    beyond = counts(neo4j_driver, neo4j_config.database)[0] - small.graph.number_of_nodes() - papers
    warning = [line for line in other.stderr.splitlines() if "warning" in line]
    assert len(warning) == 1 and "kg load --prune" in warning[0], other.stderr
    assert f"also holds {papers} papers and {beyond} other nodes that this build does not have" in warning[0]
    again = kg_cli("load", str(out), "--quiet", env=env)  # the whole build again: nothing besides it
    assert again.returncode == 0 and "warning" not in again.stderr


FIRST = [{"id": "rev-1", "title": "FooNet", "abstract": "We propose FooNet for image classification. FooNet achieves "
                                                         "85.1% top-1 accuracy on ImageNet, outperforming ResNet-50."},
         {"id": "rev-2", "title": "BarNet", "abstract": "We propose BarNet for semantic segmentation. BarNet achieves "
                                                         "80.3% mIoU on Cityscapes."},
         {"id": "rev-3", "title": "BazNet", "abstract": "We propose BazNet for speech recognition and evaluate it on "
                                                         "LibriSpeech."}]
REVISED = [{"id": "rev-1", "title": "FooNet", "abstract": "We propose FooNet for object detection. FooNet achieves "
                                                           "41.2% AP on COCO, outperforming ResNet-50."},
           {"id": "rev-2", "title": "BarNet", "abstract": "We propose BarNet for semantic segmentation on Cityscapes."}]


def test_a_revised_paper_keeps_only_the_links_and_results_its_new_abstract_gives(neo4j_driver, neo4j_config,
                                                                                  tmp_path):
    """An incremental build of two revised abstracts (rev-3 stays as it was): the load without --prune leaves each
    paper with exactly the build's links and results, then a load of the same build changes nothing."""
    import json

    import kg
    from kg.store.rows import load_graph

    db, env, out = neo4j_config.database, cli_env(neo4j_config), tmp_path / "out"
    for name, records in (("first", FIRST), ("revised", REVISED)):
        (tmp_path / f"{name}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    kg.build([str(tmp_path / "first.jsonl")], out, embeddings=False)
    assert kg_cli("load", str(out), "--quiet", env=env).returncode == 0
    kg.build([str(tmp_path / "revised.jsonl")], out, embeddings=False)
    g = load_graph(out)
    proc = kg_cli("load", str(out), "--quiet", env=env)
    assert proc.returncode == 0, proc.stderr
    records, _, _ = neo4j_driver.execute_query(
        "MATCH (a)-[r]->(b) RETURN a.id AS a, type(r) AS t, b.id AS b, r.sentence AS s", database_=db)
    assert sorted((r["a"], r["b"], r["t"]) for r in records) == sorted(g.edges(keys=True))
    assert "deleted 10 relationships and 1 result that revised papers no longer have" in proc.stdout
    abstract = {p["id"]: p["abstract"] for p in REVISED}["rev-1"]
    assert all(r["s"] in abstract for r in records if r["a"] == "paper:rev-1" and r["s"])
    results, _, _ = neo4j_driver.execute_query("MATCH (r:Result) RETURN r.id AS id, r.sentence AS s", database_=db)
    assert [(r["id"], r["s"]) for r in results] == [("result:rev-1#1", abstract.split(". ")[1])]
    again = kg_cli("load", str(out), "--quiet", env=env)
    assert again.returncode == 0 and "relationships: 0 created" in again.stdout and "deleted" not in again.stdout
    assert counts(neo4j_driver, db)[1] == g.number_of_edges()


def test_bench_load_empties_a_database_that_holds_nodes_only_when_told_to(neo4j_driver, neo4j_config):
    import json

    db, env = neo4j_config.database, cli_env(neo4j_config)
    bench = ("bench", "load", "--papers", "30", "--per-row-rels", "30")
    g = nx.MultiDiGraph()
    g.add_node("paper:mine", type="Paper", name="mine", authors=[], source=[])
    load_graph_into(neo4j_driver, g, database=db)
    refused = kg_cli(*bench, env=env)  # no terminal to ask: nothing done
    assert refused.returncode == 2 and "not confirmed" in refused.stderr and "--yes" in refused.stderr
    assert counts(neo4j_driver, db) == (1, 0) and not refused.stdout
    done = kg_cli(*bench, "--yes", env=env)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["papers"] == 30 and counts(neo4j_driver, db) == (0, 0)
    assert kg_cli(*bench, env=env).returncode == 0  # an empty database has nothing to lose: no question


# kg query on Neo4j: read-only, named as on the embedded store, the same output and exit codes

def test_kg_query_on_neo4j_refuses_a_write(neo4j_driver, neo4j_config, seed_build):
    report, _ = seed_build
    load_graph_into(neo4j_driver, report.graph, database=neo4j_config.database)
    before = counts(neo4j_driver, neo4j_config.database)
    for cypher in ("CREATE (n:Paper {id: 'paper:x'}) RETURN n.id AS id", "MATCH (n) DETACH DELETE n"):
        proc = kg_cli("query", "--neo4j", "--cypher", cypher, env=cli_env(neo4j_config))
        assert proc.returncode == 2 and not proc.stdout
        assert proc.stderr == ("kg: query failed: the query writes to the graph, and kg query only reads it "
                               "(kg build writes the embedded store, kg load Neo4j)\n")
    assert counts(neo4j_driver, neo4j_config.database) == before


def test_neo4j_given_a_query_name_runs_it_on_neo4j_uri(neo4j_driver, neo4j_config, seed_build):
    report, out = seed_build
    load_graph_into(neo4j_driver, report.graph, database=neo4j_config.database)
    proc = kg_cli("query", "--neo4j", "top_datasets", "--param", "limit=3", env=cli_env(neo4j_config))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == kg_cli("query", "top_datasets", "--param", "limit=3", "--graph", str(out)).stdout
    assert proc.stdout.endswith("(3 rows)\n")


@pytest.mark.parametrize("args", [["top_datasets", "--param", "limit=-1"], ["top_datasets", "--param", "limit=2.5"],
                                  ["top_datasets", "--param", "limit=abc"], ["--cypher", "RETURN 1/0 AS x"],
                                  ["--cypher", "UNWIND [1] AS x RETURN x LIMIT $n", "--param", "n=-1"],
                                  ["paper_concepts", "--param", "paper=SCALE", "--param", "foo=bar"],
                                  ["papers_on_dataset", "--param", "dataset=CUHK-SYSY"]])
def test_a_bad_query_or_parameter_exits_2_on_both_engines(neo4j_driver, neo4j_config, seed_build, args):
    report, out = seed_build
    load_graph_into(neo4j_driver, report.graph, database=neo4j_config.database)
    on_neo4j = kg_cli("query", *args, "--neo4j", env=cli_env(neo4j_config))
    embedded = kg_cli("query", *args, "--graph", str(out))
    assert (on_neo4j.returncode, embedded.returncode) == (2, 2), (on_neo4j.stderr, embedded.stderr)
    assert len(on_neo4j.stderr.splitlines()) == 1 and "Traceback" not in on_neo4j.stderr


def without_ids(value):
    """A query's JSON value without the engines' own node and relationship ids, and without what only Neo4j
    keeps (a paper's ``links_fingerprint``, kg.store.neo4j_store.FINGERPRINT)."""
    if isinstance(value, list):
        return [without_ids(v) for v in value]
    if isinstance(value, dict):
        return {k: without_ids(v) for k, v in value.items() if k not in ("_ID", "_SRC", "_DST", FINGERPRINT)}
    return value


def test_nodes_relationships_and_paths_print_as_on_the_embedded_store(neo4j_driver, neo4j_config, seed_build):
    import json

    report, out = seed_build
    load_graph_into(neo4j_driver, report.graph, database=neo4j_config.database)
    cypher = ("MATCH path = (p:Paper)-[r:EVALUATES_ON]->(d:Dataset) WHERE d.name = 'PRW' "
              "RETURN p, r, d, [d] AS listed, path")
    on_neo4j = kg_cli("query", "--neo4j", "--cypher", cypher, "--format", "json", env=cli_env(neo4j_config))
    embedded = kg_cli("query", "--graph", str(out), "--cypher", cypher, "--format", "json")
    [n], [e] = json.loads(on_neo4j.stdout), json.loads(embedded.stdout)
    assert n["d"]["_LABEL"] == "Dataset" and n["r"]["_LABEL"] == "EVALUATES_ON" and n["p"]["name"] == "SCALE"
    assert without_ids({k: n[k] for k in ("p", "r", "d", "listed")}) == without_ids(
        {k: e[k] for k in ("p", "r", "d", "listed")})
    # (the embedded store gives a path's nodes every column of every table; their labels and ids agree)
    nodes = [[(x["_LABEL"], x["id"]) for x in row["path"]["_NODES"]] for row in (n, e)]
    assert nodes[0] == nodes[1]
    assert without_ids(n["path"]["_RELS"]) == without_ids(e["path"]["_RELS"])
    for fmt, label in (("table", "_LABEL: Paper"), ("csv", '""_LABEL"": ""Dataset""')):
        shown = kg_cli("query", "--neo4j", "--cypher", cypher, "--format", fmt, env=cli_env(neo4j_config)).stdout
        assert label in shown and "<Node" not in shown and "frozenset" not in shown, shown


def test_concept_and_paper_parameters_resolve_alike_on_both_engines(neo4j_driver, neo4j_config, tmp_path):
    from kg.store.embedded import write_ladybug
    from tests.test_query import query_graph

    g = query_graph()
    write_ladybug(g, tmp_path / "graph.lbug")
    load_graph_into(neo4j_driver, g, database=neo4j_config.database)
    for args in (["papers_on_dataset", "--param", "dataset=CIFAR 10"],
                 ["papers_on_dataset", "--param", "dataset=CIFAR-11"],
                 *(["bridging_concepts", "--param", f"task_a={name}", "--param", "task_b=image classification"]
                   for name in ("reinforcement learning (RL)", "task:reinforcementlearning", "RL")),
                 ["link_evidence", "--param", "paper=LoRA", "--param", "concept=resnets"],
                 ["proposed_methods", "--param", "venue=neurips", "--param", "year=2022"],
                 ["paper_concepts", "--param", "paper=2106.09680"]):
        on_neo4j = kg_cli("query", *args, "--neo4j", "--format", "json", env=cli_env(neo4j_config))
        embedded = kg_cli("query", *args, "--graph", str(tmp_path), "--format", "json")
        assert (on_neo4j.returncode, on_neo4j.stdout, on_neo4j.stderr) == (
            embedded.returncode, embedded.stdout, embedded.stderr), args
        assert on_neo4j.returncode == 2 or on_neo4j.stdout.strip() != "[]", args


def test_paper_concepts_come_in_one_order_on_both_engines(neo4j_driver, neo4j_config, seed_build):
    report, out = seed_build
    load_graph_into(neo4j_driver, report.graph, database=neo4j_config.database)
    lbug = connect_lbug(out / "graph.lbug")
    q = load_queries()["paper_concepts"]
    papers = [n for n, d in report.graph.nodes(data=True) if d["type"] == "Paper"]
    for paper in papers:
        _, rows_n = run_neo4j(neo4j_driver, q.for_engine("neo4j"), {"paper": paper}, neo4j_config.database)
        _, rows_l = run_embedded(lbug, q.for_engine("lbug"), {"paper": paper})
        assert rows_n == rows_l, paper


def test_bridging_concepts_on_neo4j_scans_no_papers(neo4j_driver, neo4j_config, seed_build):
    """The join on the concept's id (the .lbug file) made Neo4j scan every paper for each concept of task A."""
    report, _ = seed_build
    load_graph_into(neo4j_driver, report.graph, database=neo4j_config.database)
    cypher = load_queries()["bridging_concepts"].for_engine("neo4j")
    plan = neo4j_driver.execute_query("EXPLAIN " + cypher, SEED_PARAMS["bridging_concepts"],
                                      database_=neo4j_config.database).summary.plan

    def scans(op: dict) -> list[str]:
        own = [op["args"].get("Details", "")] if "LabelScan" in op["operatorType"] else []
        return own + [s for child in op.get("children", []) for s in scans(child)]

    assert not [s for s in scans(plan) if ":Paper" in s], scans(plan)


def test_a_merged_papers_other_ids_are_kept_in_neo4j_and_name_it_there(neo4j_driver, neo4j_config, tmp_path):
    """A paper read under a preprint's DOI and the published one keeps the preprint's DOI in Neo4j (``kg load``, as
    in the embedded store), and ``kg query --neo4j`` finds it by that DOI as by its id."""
    import json

    import kg
    from tests.test_other_ids import FOO_ID, OTHER_IDS, RECORDS

    path = tmp_path / "papers.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in RECORDS), encoding="utf-8")
    out = tmp_path / "out"
    report = kg.build([str(path)], out)
    load_graph_into(neo4j_driver, report.graph, database=neo4j_config.database)
    records, _, _ = neo4j_driver.execute_query("MATCH (p:Paper) RETURN p.id AS id, p.other_ids AS other_ids",
                                               database_=neo4j_config.database)
    assert {r["id"]: r["other_ids"] for r in records} == OTHER_IDS
    answers = []
    for paper in ("10.1101/2024.01.01.000001".upper(), FOO_ID.removeprefix("paper:"), "CorpusId:42"):
        on_neo4j = kg_cli("query", "paper_concepts", "--param", f"paper={paper}", "--neo4j", "--format", "json",
                          env=cli_env(neo4j_config))
        embedded = kg_cli("query", "paper_concepts", "--param", f"paper={paper}", "--graph", str(out), "--format",
                          "json")
        assert on_neo4j.returncode == 0 and on_neo4j.stdout == embedded.stdout, on_neo4j.stderr
        answers.append(json.loads(on_neo4j.stdout))
    assert answers[0] == answers[1] != [] and answers[2] != answers[0]


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
    assert "missing list properties to the empty list" in proc.stderr
    driver = connect(neo4j_config)
    db = neo4j_config.database
    try:
        assert counts(driver, db) == graph_counts(report.graph)
        records, _, _ = driver.execute_query("MATCH (d:Dataset:Benchmark) RETURN count(d) AS n", database_=db)
        assert records[0]["n"] == sum(1 for _, d in report.graph.nodes(data=True) if d.get("benchmark"))
        records, _, _ = driver.execute_query("MATCH (p:Paper {id: 'paper:ml-1'}) RETURN p.authors AS a", database_=db)
        assert records[0]["a"] == [], "an empty list, as kg load stores it"
        for nt in schema.NODE_TYPES:
            for prop in (p for p in nt.properties if schema.PROPERTY_TYPES.get(p) == "list"):
                query = f"MATCH (n:{nt.label}) WHERE n.{prop} IS NULL RETURN count(n) AS n"
                records, _, _ = driver.execute_query(query, database_=db)
                assert records[0]["n"] == 0, (nt.label, prop)
        again = load_graph_into(driver, report.graph, database=db)
        assert (again.nodes_created, again.rels_created) == (0, 0), "kg load after a bulk import only matches"
        assert (again.stale_rels, again.stale_results) == (0, 0)
    finally:
        driver.close()



def test_the_load_progress_is_plain_lines_where_stderr_is_no_terminal(capsys):
    from kg.store.neo4j_store import progress_bar

    for done in (0, 5, 10):
        progress_bar("Paper", done, 10)
    assert capsys.readouterr().err == "loading Paper: 10/10\n"  # no "\r" frames in a log file
