"""The embedded store and the saved query library, without a server."""
from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import networkx as nx
import pytest
import yaml

from kg import schema
from kg.store.embedded import connect, ddl, write_ladybug
from kg.store.queries import CYPHER_DIR, QueryError, format_rows, load_queries, parse_params, run_embedded

ROOT = Path(__file__).resolve().parents[1]

# Parameters for every saved query on the seed graph (also used by the Neo4j comparison).
SEED_PARAMS = {
    "related_by": {"paper": "SCALE", "by": "task"},
    "papers_on_dataset": {"dataset": "CUHK-SYSU"},
    "top_datasets": {"limit": 50},
    "results_on_dataset": {"dataset": "ModelNet40"},
    "tasks_sharing_datasets": {"limit": 50},
    "proposed_methods": {"venue": "ICML", "year": 2025},
    "link_evidence": {"paper": "SCALE", "concept": "CUHK-SYSU"},
    "bridging_concepts": {"task_a": "domain generalization", "task_b": "model compression"},
    "task_benchmarks": {"task": "point cloud understanding", "limit": 20},
    "new_datasets": {"new_year": 2026, "old_year": 2025},
    "paper_concepts": {"paper": "DomED"},
    "path_between_papers": {"a": "FML", "b": "ReEx"},
    "related_papers": {"paper": "SCALE", "top": 10, "w_dataset": 3.0, "w_task": 1.5, "w_method": 1.0, "w_metric": 0.25},
}

# Method and metric concepts, which no SUBTASK_OF or VARIANT_OF link reaches (also compared on Neo4j).
NON_HIERARCHY_PARAMS = [
    ("link_evidence", {"paper": "ReEx", "concept": "large language models"}),
    ("link_evidence", {"paper": "FML", "concept": "accuracy"}),
    ("related_by", {"paper": "MoEQuant", "by": "method"}),
    ("related_by", {"paper": "FML", "by": "metric"}),
]


@pytest.fixture(scope="module")
def lbug(seed_build):
    _, out = seed_build
    return connect(out / "graph.lbug")


def rows_of(conn, name, **params):
    q = load_queries()[name]
    cols, rows = run_embedded(conn, q.for_engine("lbug"), params or SEED_PARAMS[name])
    return [dict(zip(cols, r)) for r in rows]


def test_the_library_has_at_least_ten_documented_queries():
    queries = load_queries()
    assert len(queries) >= 10
    assert set(queries) == set(SEED_PARAMS)
    for path in CYPHER_DIR.glob("*.cypher"):
        if path.name == "schema.cypher":
            continue
        head = path.read_text().splitlines()[:4]
        assert [h.split(":")[0] for h in head] == ["// name", "// purpose", "// params", "// example"], path.name


def test_engine_specific_files_say_why():
    for path in CYPHER_DIR.glob("*.*.cypher"):
        assert "// engine:" in path.read_text(), f"{path.name} must say why it is engine-specific"


def test_every_saved_query_runs_on_the_embedded_store(lbug):
    for name in SEED_PARAMS:
        rows_of(lbug, name)


def test_a_big_graphs_forward_only_store_answers_every_saved_query_the_same(seed_build, lbug, tmp_path):
    from kg.store.embedded import load_ladybug, store_direction

    _, out = seed_build
    forward = load_ladybug(out / "neo4j", tmp_path / "forward.lbug", forward_only=True)
    assert (store_direction(out / "graph.lbug"), store_direction(forward)) == ("both", "fwd")
    conn = connect(forward)
    for name in SEED_PARAMS:
        if name == "path_between_papers":  # undirected: the engine needs both directions, and says what to do
            with pytest.raises(QueryError, match="stored forward only") as refused:
                rows_of(conn, name)
            assert refused.value.store  # the store cannot answer it: exit 3, not a bad query's 2
            continue
        # a collected list ("datasets", "via") is in the order its query sets, whatever the storage order
        got, want = rows_of(conn, name), rows_of(lbug, name)
        if "ORDER BY" not in load_queries()[name].for_engine("lbug").upper():
            # no order asked for (paper_concepts is a UNION ALL): the engine may return the branches in any
            # order (seen under CPU load), so compare the rows as a multiset
            got, want = sorted(got, key=repr), sorted(want, key=repr)
        assert got == want, name


def test_results_sort_by_their_score(lbug):
    _, rows = run_embedded(lbug, "MATCH (r:Result) WHERE r.score IS NOT NULL RETURN r.value AS v, r.score AS s "
                                 "ORDER BY r.score DESC", {})
    assert rows and [s for _, s in rows] == sorted((s for _, s in rows), reverse=True)
    assert all(isinstance(s, float) and v.startswith(str(s).rstrip("0").rstrip(".")) for v, s in rows)


def test_papers_on_dataset_finds_the_scale_paper(lbug):
    assert [r["name"] for r in rows_of(lbug, "papers_on_dataset")] == ["SCALE"]
    assert [r["name"] for r in rows_of(lbug, "papers_on_dataset", dataset="prw")] == ["SCALE"]


def test_scale_paper_datasets_and_evidence(lbug):
    rows = rows_of(lbug, "paper_concepts", paper="SCALE")
    assert {"CUHK-SYSU", "PRW"} <= {r["concept"] for r in rows if r["relation"] == "EVALUATES_ON"}
    ev = rows_of(lbug, "link_evidence")
    assert ev and all("CUHK-SYSU" in r["sentence"] for r in ev)


@pytest.mark.parametrize("name, params", NON_HIERARCHY_PARAMS)
def test_hierarchy_aware_queries_answer_for_methods_and_metrics_too(lbug, name, params):
    # the variable-length hierarchy step binds only tasks and datasets in the embedded engine
    assert rows_of(lbug, name, **params), (name, params)


def test_link_evidence_and_related_by_for_a_method(lbug):
    ev = rows_of(lbug, "link_evidence", paper="ReEx", concept="large language models")
    assert [(r["concept"], r["relation"], r["via"]) for r in ev] == [("large language models", "USES", None)]
    related = {r["name"]: r for r in rows_of(lbug, "related_by", paper="MoEQuant", by="method")}
    assert {"COBRA", "ReEx"} <= set(related) and related["ReEx"]["shared"] == ["large language models"]


def test_new_datasets_of_2026(lbug):
    names = {r["dataset"] for r in rows_of(lbug, "new_datasets")}
    assert {"CUHK-SYSU", "PRW", "GLUE"} <= names and "ModelNet40" not in names


def test_results_on_modelnet40(lbug):
    assert {(r["method"], r["metric"], r["value"]) for r in rows_of(lbug, "results_on_dataset")} == {
        ("Hybrid Attention Adapter", "accuracy", "95.6%")}


def test_proposed_methods_of_icml_2025(lbug):
    assert {"MoEQuant", "EBSS", "AGQ", "TabICL", "DISC"} <= {r["method"] for r in rows_of(lbug, "proposed_methods")}


def small_graph() -> nx.MultiDiGraph:
    """Three papers: A and B share a rare dataset, A and C share only a dataset every paper uses."""
    g = nx.MultiDiGraph()
    for p in "ABC":
        g.add_node(f"paper:{p}", type="Paper", name=p, year=2025, venue="X", authors=["Smith, J.", "Lee, K."], source=[])
    g.add_node("dataset:rare", type="Dataset", name="RareSet", aliases=["Rare-Set"], papers=2, idf=schema.idf(3, 2), benchmark=False)
    g.add_node("dataset:common", type="Dataset", name="Common", aliases=[], papers=3, idf=schema.idf(3, 3), benchmark=True)
    for p, d in [("A", "rare"), ("B", "rare"), ("A", "common"), ("B", "common"), ("C", "common")]:
        g.add_edge(f"paper:{p}", f"dataset:{d}", key="EVALUATES_ON", type="EVALUATES_ON", sentence=f"{p} uses {d}.",
                   start_char=0, end_char=1, extractor="gazetteer", confidence=1.0, count=1, evidence=[{"x": 1}])
    return g


def test_related_by_dataset_ranks_a_shared_rare_dataset_first(tmp_path):
    conn = connect(write_ladybug(small_graph(), tmp_path / "g.lbug"))
    rows = rows_of(conn, "related_by", paper="A", by="dataset")
    assert [r["name"] for r in rows] == ["B", "C"]
    assert rows[0]["shared"] == ["RareSet", "Common"]  # the rarer first
    assert rows_of(conn, "related_by", paper="A", by="Dataset") == rows
    assert not rows_of(conn, "related_by", paper="A", by="task")


def test_lists_with_commas_survive_the_bulk_load(tmp_path):
    conn = connect(write_ladybug(small_graph(), tmp_path / "g.lbug"))
    _, rows = run_embedded(conn, "MATCH (p:Paper {id: 'paper:A'}) RETURN p.authors", {})
    assert rows == [[["Smith, J.", "Lee, K."]]]


def test_ddl_covers_every_schema_type():
    text = "\n".join(ddl())
    for t in schema.NODE_TYPES:
        assert f"CREATE NODE TABLE {t.label}(" in text
    for r in schema.REL_TYPES:
        assert f"CREATE REL TABLE {r.name}(FROM {r.source} TO {r.target}" in text


def test_params_and_formats():
    assert parse_params(["year=2026", "venue=ICML", "x=0.5"]) == {"year": 2026, "venue": "ICML", "x": 0.5}
    with pytest.raises(ValueError):
        parse_params(["novalue"])
    assert format_rows(["a", "b"], [[1, ["x", "y"]]], "json") == '[\n {\n  "a": 1,\n  "b": [\n   "x",\n   "y"\n  ]\n }\n]'
    assert format_rows(["a"], [["v"]], "csv").splitlines() == ["a", "v"]
    assert "(1 row)" in format_rows(["a"], [["v"]])
    titles = [f"Paper title number {i}" for i in range(100)]  # a list in the last column: whole up to 400 characters
    last = format_rows(["dataset", "used_by"], [["ImageNet", titles]]).splitlines()[2]
    assert last.startswith("ImageNet  Paper title number 0, ") and last.endswith(", Paper title number 16, ... (83 more)")
    assert format_rows(["a", "path"], [[1, titles[:3]]]).splitlines()[2].endswith(", ".join(titles[:3]))


def test_a_table_shows_text_cleaned_and_ids_as_they_are():
    sentence = r"X achieves $79.2\%$ top-1 accuracy at 128$\times$128 on \textbf{ImageNet}."
    row = format_rows(["paper", "evidence"], [["paper:neurips2022:--aQNMdJc9x", sentence]]).splitlines()[2]
    assert row == "paper:neurips2022:--aQNMdJc9x  X achieves 79.2% top-1 accuracy at 128×128 on ImageNet."
    assert sentence in format_rows(["evidence"], [[sentence]], "json").replace("\\\\", "\\")  # JSON: as stored



def test_a_table_keeps_ids_inside_text_and_maps_as_they_are():
    # an id copied from the table names its paper again: "--" in it is no LaTeX dash
    label = "On \\textbf{Bias} -- a study (paper:neurips2022:--aQNMdJc9x)"
    row = format_rows(["label"], [[label]]).splitlines()[2]
    assert row == "On Bias – a study (paper:neurips2022:--aQNMdJc9x)"
    node = {"id": "paper:neurips2022:--aQNMdJc9x", "title": "A -- B", "k": "a--b"}
    shown = format_rows(["p"], [[node]]).splitlines()[2]
    assert shown == "{id: paper:neurips2022:--aQNMdJc9x, title: A – B, k: a--b}"

def test_docker_compose_agrees_with_readme_and_loader():
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    neo = compose["services"]["neo4j"]
    assert re.fullmatch(r"neo4j:5\.26[\w.-]*community", neo["image"])
    assert {"7474:7474", "7687:7687"} <= set(neo["ports"])
    assert "${NEO4J_PASSWORD" in neo["environment"]["NEO4J_AUTH"]
    assert neo["healthcheck"]["test"] and compose["volumes"]
    env_example = (ROOT / ".env.example").read_text()
    assert "NEO4J_PASSWORD=" in env_example and "NEO4J_URI=bolt://localhost:7687" in env_example
    readme = (ROOT / "README.md").read_text()
    assert "docker compose up -d" in readme and "kg load out/" in readme
    from kg.store.neo4j_store import Neo4jConfig

    assert Neo4jConfig().uri == "bolt://localhost:7687" and Neo4jConfig().user == "neo4j"


def test_quotes_commas_and_newlines_after_many_plain_rows(tmp_path):
    g = small_graph()
    for i in range(3000):  # the dialect must not be guessed from the first rows
        g.add_node(f"method:m{i}", type="Method", name=f"m{i}", aliases=[], papers=1, idf=1.0, benchmark=False)
    g.add_node("method:odd", type="Method", name='age, pose "and"\nexpression', aliases=[], papers=1, idf=1.0, benchmark=False)
    conn = connect(write_ladybug(g, tmp_path / "g.lbug"))
    _, rows = run_embedded(conn, "MATCH (m:Method {id: 'method:odd'}) RETURN m.name", {})
    assert rows == [['age, pose "and"\nexpression']]


def test_related_papers_takes_whole_number_weights_as_numbers(lbug):
    floats = rows_of(lbug, "related_papers")
    ints = rows_of(lbug, "related_papers", **{**SEED_PARAMS["related_papers"], "w_dataset": 3, "w_method": 1})
    assert [(r["paper"], round(r["score"], 6)) for r in ints] == [(r["paper"], round(r["score"], 6)) for r in floats]


def test_dataset_and_concept_aliases_match_without_case(lbug):
    assert rows_of(lbug, "papers_on_dataset", dataset="office31") == rows_of(lbug, "papers_on_dataset", dataset="Office31")
    assert [r["name"] for r in rows_of(lbug, "papers_on_dataset", dataset="office31")] == ["FML"]
    ev = rows_of(lbug, "link_evidence", paper="SCALE", concept="cuhk-sysu")
    assert ev and {r["relation"] for r in ev} == {"EVALUATES_ON"}


def test_a_method_proposed_for_one_task_and_used_for_another_bridges_them(tmp_path):
    import kg

    corpus = tmp_path / "c.jsonl"
    corpus.write_text("\n".join(json.dumps(r) for r in [
        {"id": "a1", "text": "We propose FooNet, a new network for image classification."},
        {"id": "b1", "text": "We use FooNet for object detection and report results."}]) + "\n", encoding="utf-8")
    kg.build([str(corpus)], tmp_path / "out")
    rows = rows_of(connect(tmp_path / "out" / "graph.lbug"), "bridging_concepts",
                   task_a="image classification", task_b="object detection")
    assert [(r["concept"], r["papers_a"], r["papers_b"]) for r in rows] == [("FooNet", 1, 1)]


def test_path_between_papers_finds_the_chain_of_shared_concepts(lbug):
    [row] = rows_of(lbug, "path_between_papers")
    assert row["hops"] == 4 and row["chain"][0] == "FML" and row["chain"][-1] == "ReEx"
    # two chains of 4 tie (through MoEQuant or LinearTCA): the first by its nodes' ids, on every run
    assert row["chain"] == ["FML", "accuracy", "LinearTCA", "test-time adaptation", "ReEx"]


def synthetic_params(g: nx.MultiDiGraph) -> list[tuple[str, dict]]:
    """Parameters for every saved query on a synthetic graph: its most used datasets and tasks, the datasets with the
    most variants, its first papers, every pair of years."""
    def ranked(node_type: str, key: Callable[[str], int]) -> list[str]:
        nodes = [n for n, d in g.nodes(data=True) if d["type"] == node_type]
        return [g.nodes[n]["name"] for n in sorted(nodes, key=lambda n: (key(n), n))]

    datasets = (ranked("Dataset", lambda n: -g.nodes[n]["papers"])[:2]
                + ranked("Dataset", lambda n: -len(schema.below(g, n)))[:2])
    tasks = ranked("Task", lambda n: -g.nodes[n]["papers"])[:4]
    papers = ranked("Paper", lambda n: 0)[:4]
    weights = {"w_dataset": 3.0, "w_task": 1.5, "w_method": 1.0, "w_metric": 0.25}
    years = range(2019, 2027)
    return [("tasks_sharing_datasets", {"limit": 20}), ("tasks_sharing_datasets", {"limit": 500}),
            ("top_datasets", {"limit": 30}), ("proposed_methods", {"venue": "ICML", "year": 2024}),
            *(("new_datasets", {"new_year": a, "old_year": b}) for a in years for b in years if a != b),
            *((name, {"dataset": d}) for name in ("results_on_dataset", "papers_on_dataset") for d in datasets),
            *(("related_by", {"paper": p, "by": by}) for p in papers for by in ("dataset", "task", "method", "metric")),
            *(("related_papers", {"paper": p, "top": 20, **weights}) for p in papers),
            *(("paper_concepts", {"paper": p}) for p in papers),
            *(("link_evidence", {"paper": p, "concept": d}) for p in papers for d in datasets),
            *(("task_benchmarks", {"task": t, "limit": 50}) for t in tasks),
            ("bridging_concepts", {"task_a": tasks[0], "task_b": tasks[1]}),
            ("bridging_concepts", {"task_a": tasks[2], "task_b": tasks[3]}),
            ("path_between_papers", {"a": papers[0], "b": papers[1]}),
            ("path_between_papers", {"a": papers[2], "b": papers[3]})]


# The lists of names each saved query returns in alphabetical order (Ladybug's collect keeps no order, so the query
# sorts them itself).
SORTED_LISTS = {"tasks_sharing_datasets": ("datasets", "via"), "new_datasets": ("used_by",), "related_by": ("via",),
                "bridging_concepts": ("via_a", "via_b"), "task_benchmarks": ("metrics", "via")}


def test_lists_and_ties_come_in_order_on_a_synthetic_graphs_store(synthetic_store):
    """On the seed graph lists are short and ties few; on a synthetic graph of thousands of papers Ladybug's collect
    gave `via` and `used_by` out of order, and results_on_dataset's ties came in any order (and its values as
    text: "10.17" before "2.35")."""
    from kg.build.elements import value_score

    g, path = synthetic_store
    conn = connect(path)
    queries = load_queries()
    lower = {d["name"]: d["lower_is_better"] for _, d in g.nodes(data=True) if d["type"] == "Metric"}
    assert any(lower.values()) and not all(lower.values())
    assert {name for name, _ in synthetic_params(g)} == set(queries)
    long_lists = ties = 0
    for name, params in synthetic_params(g):
        cols, rows = run_embedded(conn, queries[name].for_engine("lbug"), params)
        for col in SORTED_LISTS.get(name, ()):
            lists = [r[cols.index(col)] for r in rows]
            assert all(v == sorted(v) for v in lists), (name, params, col)
            long_lists += sum(len(v) > 2 for v in lists)
        if name == "results_on_dataset":
            # metric, value by number (best first: lowest where lower is better), method, value, via, paper's name,
            # paper; null last
            def key(r):
                method, metric, value, via, paper, name = ((v is None, v or "") for v in r[:6])
                score = value_score(r[2])[0]
                best = (score or 0.0) if lower.get(r[1]) else -(score or 0.0)
                return metric, score is None, best, method, value, via, name, paper

            keys = [key(r) for r in rows]
            assert keys == sorted(keys), params
            ties += len(keys) - len({k[:6] for k in keys})
    assert long_lists > 100 and ties > 10


def test_a_query_gives_the_same_order_every_time_it_runs(synthetic_store):
    """With several threads per query the engine now and then sorted rows out of order, about 1 run in 30
    (kg.store.embedded.connect runs one): 100 runs of a sorted query on fresh connections give one answer."""
    _, path = synthetic_store
    query = load_queries()["results_on_dataset"].for_engine("lbug")
    answers = {repr(run_embedded(connect(path), query, {"dataset": "TJU-Ped-campus"})[1]) for _ in range(100)}
    assert len(answers) == 1


def test_a_schema_property_an_older_store_lacks_is_told_apart_from_a_typo():
    from kg.store.queries import schema_property

    assert schema_property("Binder exception: Cannot find property lower_is_better for x.")
    assert not schema_property("Binder exception: Cannot find property foo for x.")


# (a Neo4j call, the Ladybug call its hint gives, on a Paper p and its relationship r to a concept)
NEO4J_CALLS = {"type": ("type(r)", "label(r)"), "elementId": ("elementId(p)", "id(p)"),
               "startNode": ("startNode(r).id", "start_node(r).id"), "endNode": ("endNode(r).id", "end_node(r).id"),
               "toString": ("toString(p.year)", "to_string(p.year)"), "toInteger": ("toInteger('3')", "to_int64('3')"),
               "toFloat": ("toFloat('1.5')", "to_double('1.5')"),
               "split": ("split(p.id, ':')", "string_split(p.id, ':')"),
               "head": ("head(['a'])", "['a'][1]"), "last": ("last(['a', 'b'])", "['a', 'b'][-1]"),
               "timestamp": ("timestamp()", "current_timestamp()"), "date": ("date()", "current_date()")}


@pytest.mark.parametrize("name", sorted(NEO4J_CALLS))
def test_a_neo4j_function_the_embedded_store_lacks_is_told_its_spelling_there(lbug, name):
    from kg.store.queries import NEO4J_SPELLINGS

    neo4j, ladybug = NEO4J_CALLS[name]
    query = "MATCH (p:Paper)-[r]->(c) RETURN {} AS v LIMIT 1"
    with pytest.raises(QueryError) as refused:
        run_embedded(lbug, query.format(neo4j), {})
    assert str(refused.value).endswith(f"spells {name}() {NEO4J_SPELLINGS[name]} (or run the query on Neo4j: --neo4j).")
    assert run_embedded(lbug, query.format(ladybug), {})[1]  # the spelling the hint gives runs


def test_exists_on_the_embedded_store_is_told_is_not_null(lbug):
    for query in ("MATCH (p:Paper) RETURN exists(p.year) AS v", "MATCH (p:Paper) WHERE exists(p.title) RETURN p.id",
                  "MATCH (p:Paper) WHERE EXISTS(p.title) RETURN p.id"):
        with pytest.raises(QueryError, match="writes exists\\(n.p\\) as n.p IS NOT NULL"):
            run_embedded(lbug, query, {})
    with pytest.raises(QueryError) as refused:
        run_embedded(lbug, "MATCH (p:Paper) RETURN nosuchfunction(p) AS v", {})
    assert str(refused.value).endswith("does not exist.")


def test_the_package_maps_cypher_to_kg_cypher_for_installs():
    """A wheel carries cypher/ as kg/cypher and every kg subpackage (tests/test_install.py builds and installs one;
    this test reads the configuration)."""
    import tomllib

    from setuptools import find_namespace_packages

    root = CYPHER_DIR.parent
    cfg = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert cfg["package-dir"]["kg.cypher"] == "cypher" and cfg["package-data"]["kg.cypher"] == ["*.cypher"]
    assert '"kg.cypher"' in (root / "setup.py").read_text()
    found = set(find_namespace_packages(str(root), include=["kg", "kg.*"]))
    code = {".".join(p.relative_to(root).parts) for p in (root / "kg").rglob("*") if p.is_dir() and any(p.glob("*.py"))}
    assert code - {c for c in code if "__pycache__" in c} <= found

@pytest.mark.parametrize("content", ['{"nodes": [', "{}", "", "[1, 2]"])
def test_a_damaged_graph_json_is_named_in_one_message(tmp_path, content):
    from kg.errors import StoreError
    from kg.store.rows import load_graph

    (tmp_path / "graph.json").write_text(content, encoding="utf-8")
    with pytest.raises(StoreError, match=r"graph\.json: not a graph kg wrote .*kg build INPUT --out"):
        load_graph(tmp_path)


@pytest.mark.parametrize("command", [["related", "SCALE", "--graph", "DIR"], ["viz", "DIR", "--out", "OUT"]])
def test_a_damaged_graph_exits_3_as_a_store_problem(tmp_path, command):
    (tmp_path / "graph.json").write_text('{"nodes": [', encoding="utf-8")
    args = [str(tmp_path) if a == "DIR" else str(tmp_path / "x.html") if a == "OUT" else a for a in command]
    proc = subprocess.run([sys.executable, "-m", "kg.cli", *args], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 3 and "not a graph kg wrote" in proc.stderr and "Traceback" not in proc.stderr
