"""``kg query`` on the embedded store as a user runs it: a read-only store that many may read at once, parameters
typed by the kind each saved query declares, papers and concepts named as in ``kg related``, and the exit codes of
docs/cli.md."""
from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
from pathlib import Path

import networkx as nx
import pytest

from kg import schema
from kg.store.embedded import connect
from kg.store.queries import load_queries, parse_params, run_embedded
from tests.helpers import run, write_build

ROOT = Path(__file__).resolve().parents[1]
EVIDENCE = dict(start_char=0, end_char=1, extractor="gazetteer", confidence=1.0, count=1, evidence=[])

# (id, type, name, aliases): "RL" is an alias of two tasks; CIFAR-10 is named "CIFAR 10" in no alias
CONCEPTS = [
    ("task:reinforcementlearning", "Task", "reinforcement learning", ["RL", "reinforcement learning (RL)"]),
    ("task:offlinereinforcementlearning", "Task", "offline reinforcement learning", ["offline RL", "RL"]),
    ("task:imageclassification", "Task", "image classification", []),
    ("dataset:cifar10", "Dataset", "CIFAR-10", ["CIFAR10 benchmark"]),
    ("dataset:cifar100", "Dataset", "CIFAR-100", []),
    ("method:resnet", "Method", "ResNet", ["residual network"]),
    ("method:lora", "Method", "LoRA", []),
    ("metric:accuracy", "Metric", "accuracy", []),
]
# (paper id, name, links): the first has an arXiv id that reads as a number
PAPERS = [
    ("paper:2106.09680", "LoRA", [("PROPOSES", "method:lora"), ("ADDRESSES", "task:reinforcementlearning"),
                                  ("USES", "method:resnet"),
                                  ("EVALUATES_ON", "dataset:cifar10"), ("REPORTS", "metric:accuracy")]),
    ("paper:p2", "Classy", [("ADDRESSES", "task:imageclassification"), ("USES", "method:resnet"),
                            ("EVALUATES_ON", "dataset:cifar10"), ("EVALUATES_ON", "dataset:cifar100")]),
    ("paper:p3", "Offline", [("ADDRESSES", "task:offlinereinforcementlearning"), ("USES", "method:resnet")]),
]


def query_graph() -> nx.MultiDiGraph:
    """Three NeurIPS 2022 papers, two tasks sharing the alias "RL", two CIFAR datasets."""
    g = nx.MultiDiGraph()
    for node, kind, name, aliases in CONCEPTS:
        g.add_node(node, type=kind, name=name, aliases=aliases, papers=1, idf=schema.idf(3, 1), benchmark=False)
    for pid, name, links in PAPERS:
        g.add_node(pid, type="Paper", name=name, title=f"{name}: a paper", year=2022, venue="NeurIPS", authors=[],
                   source=[], abstract=f"{name} is a paper.")
        for rel, concept in links:
            g.add_edge(pid, concept, key=rel, type=rel, sentence=f"{name} {rel.lower()} {concept}.", **EVIDENCE)
    return g


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """The graph as kg build leaves it: graph.json (for kg related) and graph.lbug in one directory."""
    return write_build(query_graph(), tmp_path_factory.mktemp("query"))


def query_json(capsys, built: Path, *argv: str) -> list[dict]:
    code, out, err = run(capsys, "query", *argv, "--graph", str(built), "--format", "json")
    assert code == 0, err
    return json.loads(out)


def kg_process(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "kg.cli", *args], capture_output=True, text=True, cwd=ROOT,
                          timeout=300)


def one_line(err: str) -> str:
    assert "Traceback" not in err and len(err.splitlines()) == 1, err
    return err.rstrip("\n")


def md5(path: Path) -> str:
    return hashlib.md5(path.read_bytes()).hexdigest()


# the embedded store is read-only for kg query

@pytest.fixture
def copy(seed_build, tmp_path) -> Path:
    """A copy of the seed build's store, alone in its directory."""
    shutil.copy(seed_build[1] / "graph.lbug", tmp_path / "graph.lbug")
    return tmp_path


def test_concurrent_queries_all_answer_and_leave_the_store_as_it_was(copy):
    before = md5(copy / "graph.lbug")
    argv = [sys.executable, "-m", "kg.cli", "query", "top_datasets", "--param", "limit=3", "--graph", str(copy)]
    procs = [subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
             for _ in range(4)]
    results = [(p.wait(timeout=300), *p.communicate()) for p in procs]
    assert [code for code, _, _ in results] == [0] * 4, [err for _, _, err in results]
    assert all("(3 rows)" in out for _, out, _ in results)
    assert md5(copy / "graph.lbug") == before
    assert sorted(p.name for p in copy.iterdir()) == ["graph.lbug"]  # no write-ahead log or shadow file either


@pytest.mark.parametrize("cypher", ["CREATE (n:Paper {id: 'paper:x'}) RETURN n.id AS id",
                                    "MATCH (p:Paper) SET p.name = 'x' RETURN p.id AS id",
                                    "MATCH (n) DETACH DELETE n", "CHECKPOINT", "match (p:Paper) return 1; checkpoint"])
def test_a_query_that_writes_is_refused_in_one_line(copy, capsys, cypher):
    before = md5(copy / "graph.lbug")
    code, out, err = run(capsys, "query", "--cypher", cypher, "--graph", str(copy))
    assert code == 2 and not out
    assert one_line(err) == ("kg: query failed: the query writes to the graph, and kg query only reads it "
                             "(kg build writes the embedded store, kg load Neo4j)")
    assert md5(copy / "graph.lbug") == before and sorted(p.name for p in copy.iterdir()) == ["graph.lbug"]
    _, rows = run_embedded(connect(copy / "graph.lbug"), "MATCH (p:Paper) RETURN count(p)", {})
    assert rows == [[38]]


def test_a_damaged_store_is_a_store_problem(copy, capsys):
    (copy / "graph.lbug").write_bytes((copy / "graph.lbug").read_bytes()[:100_000])
    code, _, err = run(capsys, "query", "top_datasets", "--param", "limit=3", "--graph", str(copy))
    assert code == 3 and "cannot open the embedded store" in one_line(err)


# parameters keep the kind their query declares

def test_the_params_header_declares_each_parameter_with_its_kind():
    from kg.store.queries import param_kinds

    assert param_kinds('a, b: paper (ids, e.g. "FML", "ReEx"), top: integer (e.g. 10)') == {
        "a": "paper", "b": "paper", "top": "integer"}
    assert param_kinds("w_x, w_y: number (weights, e.g. 3.0, 1.5), by: text") == {"w_x": "number", "w_y": "number",
                                                                               "by": "text"}
    assert param_kinds("year (e.g. 2026), venue") == {"year": "value", "venue": "value"}  # no kind: typed from text
    assert param_kinds("") == param_kinds("-") == {}
    for bad in ("dataset: table (a table)", "limit: integer (rows", "(e.g. 3)"):
        with pytest.raises(ValueError):
            param_kinds(bad)


def test_the_params_header_gives_defaults_typed_by_kind():
    from kg.store.queries import param_defaults, param_kinds

    header = 'paper: paper (e.g. "SCALE"), w_a: number = 3, w_b: number = 0.25 (weights), top: integer = 10 (rows)'
    assert param_kinds(header) == {"paper": "paper", "w_a": "number", "w_b": "number", "top": "integer"}
    got = param_defaults(header)
    assert got == {"w_a": 3.0, "w_b": 0.25, "top": 10} and isinstance(got["w_a"], float)
    assert param_defaults("a, b: integer = 2") == {"a": 2, "b": 2}  # a default after names is theirs all
    # text with spaces, commas or brackets in double quotes (a JSON string); an unquoted one is one word
    assert param_defaults('venue: text = "NeurIPS, 2022 (main)" (a venue), q: text = ""') == {
        "venue": "NeurIPS, 2022 (main)", "q": ""}
    with pytest.raises(ValueError, match="the default of limit: needs a whole number"):
        param_defaults("limit: integer = many (rows)")
    for bad in ("q: text = f(x)", 'q: text = "open', "q: text = "):
        with pytest.raises(ValueError, match="cannot read the parameters"):
            param_defaults(bad)


def test_a_saved_query_runs_on_its_defaults_and_a_param_overrides_one(built, capsys, tmp_path):
    from kg.related.ranking import DEFAULT_WEIGHTS

    q = load_queries()["related_papers"]  # the ranking's weights are kg related's
    assert {k: v for k, v in q.defaults.items() if k.startswith("w_")} == {
        f"w_{kind.lower()}": w for kind, w in DEFAULT_WEIGHTS.items()}
    assert len(query_json(capsys, built, "top_datasets")) == 2  # limit 20: both datasets
    assert len(query_json(capsys, built, "top_datasets", "--param", "limit=1")) == 1
    assert [r["paper"] for r in query_json(capsys, built, "related_papers", "--param", "paper=Classy")] \
        == ["paper:2106.09680", "paper:p3"]
    (tmp_path / "bad.cypher").write_text("// params: limit: integer = lots\nRETURN $limit AS x\n")
    code, _, err = run(capsys, "query", "bad", "--cypher-dir", str(tmp_path), "--graph", str(built))
    assert code == 2 and "bad.cypher: // params:" in one_line(err) and "the default of limit" in err
    # the dialects of one query declare the same parameters
    (tmp_path / "bad.cypher").unlink()
    (tmp_path / "two.lbug.cypher").write_text("// params: limit: integer = 5\nRETURN $limit AS x\n")
    (tmp_path / "two.neo4j.cypher").write_text("// params: limit: integer = 6\nRETURN $limit AS x\n")
    code, _, err = run(capsys, "query", "two", "--cypher-dir", str(tmp_path), "--graph", str(built))
    assert code == 2 and "two.neo4j.cypher: // params: not those of the query's other dialect file" in one_line(err)


def test_every_saved_query_declares_the_parameters_its_files_read():
    from kg.store.queries import query_params

    for name, q in load_queries().items():
        assert "value" not in q.kinds.values(), f"{name}: give every parameter a kind in its // params: line"
        for engine, text in q.text.items():
            assert query_params(text) == set(q.kinds), (name, engine)


def test_a_value_is_typed_by_its_parameters_kind():
    kinds = {"paper": "paper", "dataset": "dataset", "limit": "integer", "w": "number", "venue": "text"}
    got = parse_params(["paper=2106.09680", "dataset=1", "limit=3", "w=3", "venue=2022"], kinds)
    assert got == {"paper": "2106.09680", "dataset": "1", "limit": 3, "w": 3.0, "venue": "2022"}
    assert isinstance(got["w"], float)
    assert parse_params(["x=2106.09680", "y=abc"]) == {"x": 2106.0968, "y": "abc"}  # no kind: as before
    for bad, message in (("limit=2.5", "needs a whole number, not '2.5'"), ("limit=abc", "needs a whole number"),
                         ("w=inf", "needs a number"), ("limit=" + "9" * 30, "64-bit")):
        with pytest.raises(ValueError, match=message):
            parse_params([bad], kinds)


def test_a_concept_type_parameter_takes_any_case_and_number_and_refuses_other_words(built, capsys):
    rows = query_json(capsys, built, "related_by", "--param", "paper=Classy", "--param", "by=dataset")
    assert rows and query_json(capsys, built, "related_by", "--param", "paper=Classy", "--param", "by=Datasets") == rows
    code, out, err = run(capsys, "query", "related_by", "--param", "paper=Classy", "--param", "by=foo",
                         "--graph", str(built))
    assert code == 2 and not out and "--param by: one of dataset, task, method, metric, not 'foo'" in one_line(err)


def test_a_paper_id_that_reads_as_a_number_names_its_paper(built, capsys):
    rows = query_json(capsys, built, "paper_concepts", "--param", "paper=2106.09680")
    assert [(r["relation"], r["concept"]) for r in rows] == [
        ("PROPOSES", "LoRA"), ("USES", "ResNet"), ("ADDRESSES", "reinforcement learning"), ("EVALUATES_ON", "CIFAR-10"),
        ("REPORTS", "accuracy")]


# concepts are named as in kg related

def related_papers_of(capsys, built: Path, option: str, name: str) -> set[str]:
    code, out, err = run(capsys, "related", option, name, "--graph", str(built), "--format", "json")
    assert code == 0, err
    return {p["paper"] for p in json.loads(out)["papers"]}


@pytest.mark.parametrize("name", ["CIFAR-10", "CIFAR 10", "cifar10", "CIFAR10 benchmark", "dataset:cifar10"])
def test_a_dataset_parameter_takes_what_kg_related_takes(built, capsys, name):
    rows = query_json(capsys, built, "papers_on_dataset", "--param", f"dataset={name}")
    assert {r["paper"] for r in rows} == {"paper:2106.09680", "paper:p2"}
    assert {r["paper"] for r in rows} == related_papers_of(capsys, built, "--dataset", name)


@pytest.mark.parametrize("name", ["reinforcement learning", "Reinforcement-Learning", "reinforcement learning (RL)",
                                  "task:reinforcementlearning"])
def test_a_task_parameter_takes_a_name_an_alias_or_an_id(built, capsys, name):
    rows = query_json(capsys, built, "bridging_concepts", "--param", f"task_a={name}",
                      "--param", "task_b=image classification")
    assert [(r["concept"], r["papers_a"], r["papers_b"]) for r in rows] == [("CIFAR-10", 1, 1), ("ResNet", 1, 1)]


def test_an_unknown_concept_names_the_closest_and_exits_2(built, capsys):
    code, out, err = run(capsys, "query", "papers_on_dataset", "--param", "dataset=CIFAR-11", "--graph", str(built))
    assert code == 2 and not out
    assert one_line(err).startswith("kg: --param dataset: no Dataset named 'CIFAR-11' in the graph; "
                                    "did you mean CIFAR-10")
    code, _, err = run(capsys, "related", "--dataset", "CIFAR-11", "--graph", str(built))
    assert code == 2 and "no Dataset named 'CIFAR-11'" in err


def test_a_name_of_several_concepts_lists_them_and_exits_2(built, capsys):
    expected = ["kg: 'RL' names 2 tasks; give one of these ids instead:",
                "  task:offlinereinforcementlearning  offline reinforcement learning",
                "  task:reinforcementlearning  reinforcement learning"]
    code, out, err = run(capsys, "query", "bridging_concepts", "--param", "task_a=RL",
                         "--param", "task_b=image classification", "--graph", str(built))
    assert (code, out, err.splitlines()) == (2, "", expected)
    code, out, err = run(capsys, "related", "--task", "RL", "--graph", str(built))  # no silent pick there either
    assert (code, out, err.splitlines()) == (2, "", expected)


@pytest.mark.parametrize("name", ["ResNet", "resnets", "Residual Network", "method:resnet"])
def test_a_concept_of_any_type(built, capsys, name):
    rows = query_json(capsys, built, "link_evidence", "--param", "paper=LoRA", "--param", f"concept={name}")
    assert [(r["concept"], r["relation"]) for r in rows] == [("ResNet", "USES")]


@pytest.mark.parametrize("venue", ["NeurIPS", "neurips", "NEURIPS"])
def test_a_venue_in_any_case(built, capsys, venue):
    rows = query_json(capsys, built, "proposed_methods", "--param", f"venue={venue}", "--param", "year=2022")
    assert [(r["method"], r["paper"]) for r in rows] == [("LoRA", "paper:2106.09680")]


def test_a_year_no_paper_has_is_a_warning_naming_the_years_the_graph_has(built, capsys):
    code, out, err = run(capsys, "query", "new_datasets", "--graph", str(built), "--format", "json", "--param",
                         "new_year=2022", "--param", "old_year=2021")
    assert code == 0 and {r["dataset"] for r in json.loads(out)} == {"CIFAR-10", "CIFAR-100"}  # all new against none
    assert err == "kg: warning: --param old_year=2021: no paper of the graph is of that year (its years: 2022)\n"
    assert run(capsys, "query", "new_datasets", "--graph", str(built), "--param", "new_year=2022", "--param",
               "old_year=2022")[2] == ""


def test_a_venue_no_paper_has_is_a_warning_naming_the_venues_the_graph_has(built, capsys):
    code, out, err = run(capsys, "query", "proposed_methods", "--graph", str(built), "--format", "json", "--param",
                         "venue=NIPS", "--param", "year=2022")
    assert code == 0 and json.loads(out) == []
    assert err == "kg: warning: --param venue=NIPS: no paper of the graph is of that venue (its venues: NeurIPS)\n"
    assert run(capsys, "query", "proposed_methods", "--graph", str(built), "--param", "venue=neurips", "--param",
               "year=2022")[2] == ""


# what the query reads, and what it does not

@pytest.mark.parametrize("cypher, value", [("RETURN 'cost $USD' AS s", "cost $USD"),
                                           ('RETURN "a \\" $b" AS s', 'a " $b'),
                                           ("RETURN 'it\\'s $x' AS s", "it's $x"),
                                           ("RETURN 1 AS s // $foo", 1),
                                           ("RETURN /* $foo */ 2 AS s", 2)])
def test_dollars_in_strings_and_comments_are_no_parameters(seed_build, capsys, cypher, value):
    code, out, err = run(capsys, "query", "--cypher", cypher, "--graph", str(seed_build[1]), "--format", "json")
    assert code == 0, err
    assert json.loads(out) == [{"s": value}]


def test_query_params_reads_code_only():
    from kg.store.queries import query_params

    assert query_params("MATCH (n) WHERE n.a = $a AND n.b = '$c' // $d\n AND n.e = $e /* $f\n */ RETURN `$g`") == {
        "a", "e"}


def test_a_parameter_the_query_does_not_read_is_refused(built, capsys):
    code, out, err = run(capsys, "query", "paper_concepts", "--param", "paper=LoRA", "--param", "foo=bar",
                         "--graph", str(built))
    assert code == 2 and not out
    assert one_line(err) == "kg: --param foo: paper_concepts has no such parameter (its parameters: paper)"
    code, _, err = run(capsys, "query", "--cypher", "RETURN $x AS x", "--param", "x=1", "--param", "y=2",
                       "--graph", str(built))
    assert code == 2 and one_line(err) == "kg: --param y: the query reads no such parameter (its parameters: x)"


# exit codes: 2 for the query's fault, 3 for the store's

@pytest.mark.parametrize("args", [["top_datasets", "--param", "limit=-1"], ["top_datasets", "--param", "limit=2.5"],
                                  ["top_datasets", "--param", "limit=abc"], ["--cypher", "RETURN 1/0 AS x"],
                                  ["--cypher", "UNWIND [1] AS x RETURN x LIMIT $n", "--param", "n=-1"],
                                  ["--cypher", "RETURN CAST('x' AS INT64) AS x"]])
def test_a_query_or_parameter_the_engine_cannot_compute_with_exits_2(seed_build, capsys, args):
    code, out, err = run(capsys, "query", *args, "--graph", str(seed_build[1]))
    assert code == 2 and not out and one_line(err).startswith("kg: ")


# a fixed order

def test_paper_concepts_come_by_relation_then_concept(seed_build, capsys):
    rows = query_json(capsys, seed_build[1], "paper_concepts", "--param", "paper=SCALE")
    order = ["PROPOSES", "USES", "ADDRESSES", "EVALUATES_ON", "REPORTS"]
    keys = [(order.index(r["relation"]), r["concept"]) for r in rows]
    assert keys == sorted(keys) and len({r["relation"] for r in rows}) >= 3
