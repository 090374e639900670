"""One way to name a paper (kg.paper_names) in kg related, kg query and kg viz --focus, and the saved queries
that include a concept's subtasks and dataset variants, on a small graph built by hand."""
from __future__ import annotations

import json
from pathlib import Path

import networkx as nx
import pytest

from kg import schema
from kg.paper_names import AmbiguousPaper, GraphPapers, StorePapers, find_paper, resolve
from kg.store.embedded import connect, write_ladybug
from kg.store.queries import load_queries, run_embedded
from tests.helpers import run, write_build

EVIDENCE = dict(start_char=0, end_char=1, extractor="gazetteer", confidence=1.0, count=1, evidence=[])

# id -> (name, title, proposed methods): two papers propose "Duo"; the first is known by its title alone
PAPERS = {
    "paper:p1": ("SCALE", "Scalable Person Search", ["SCALE"]),
    "paper:p2": ("Duo", "Two Heads Are Better", ["Duo"]),
    "paper:p3": ("We study twin networks ...", "Duo Again", ["Duo"]),
    "paper:p4": ("RoCo", "Robust Detection under Corruptions", ["RoCo"]),
    "paper:p5": ("Adapt", "Adapting Detectors", ["Adapt"]),
}
# (paper, relation, concept): p4 works on a variant (COCO-C) and a subtask of a subtask (single-source DG)
LINKS = [
    ("paper:p1", "EVALUATES_ON", "dataset:cuhksysu"), ("paper:p1", "ADDRESSES", "task:personsearch"),
    ("paper:p2", "EVALUATES_ON", "dataset:cuhksysu"), ("paper:p3", "EVALUATES_ON", "dataset:prw"),
    ("paper:p4", "EVALUATES_ON", "dataset:cococ"), ("paper:p4", "ADDRESSES", "task:singlesourcedg"),
    ("paper:p4", "USES", "method:resnet"),
    ("paper:p5", "EVALUATES_ON", "dataset:coco"), ("paper:p5", "ADDRESSES", "task:domainadaptation"),
    ("paper:p2", "ADDRESSES", "task:modelcompression"), ("paper:p2", "USES", "method:resnet"),
    ("paper:p2", "EVALUATES_ON", "dataset:coco"),
]
CONCEPTS = {
    "dataset:cuhksysu": "CUHK-SYSU", "dataset:prw": "PRW", "dataset:coco": "COCO", "dataset:cococ": "COCO-C",
    "task:personsearch": "person search", "task:domainadaptation": "domain adaptation",
    "task:domaingeneralization": "domain generalization", "task:singlesourcedg": "single-source domain generalization",
    "task:modelcompression": "model compression", "method:resnet": "ResNet",
}
HIERARCHY = [("task:domaingeneralization", "SUBTASK_OF", "task:domainadaptation"),
             ("task:singlesourcedg", "SUBTASK_OF", "task:domaingeneralization"),
             ("dataset:cococ", "VARIANT_OF", "dataset:coco")]


def named_graph() -> nx.MultiDiGraph:
    """Five papers with titles and proposed methods, a two-level task hierarchy and a dataset variant."""
    g = nx.MultiDiGraph()
    for pid, (name, title, _) in PAPERS.items():
        g.add_node(pid, type="Paper", name=name, title=title, year=2025, venue="ICML", authors=[], source=[],
                   abstract=f"{title}. We evaluate {name} on person search benchmarks.")
    for node, name in CONCEPTS.items():
        kind = {"dataset": "Dataset", "task": "Task", "method": "Method"}[node.split(":")[0]]
        g.add_node(node, type=kind, name=name, aliases=[], papers=1, idf=schema.idf(5, 1), benchmark=False)
    for pid, (_, _, methods) in PAPERS.items():
        for m in methods:
            node = f"method:{pid}-{m.lower()}"
            g.add_node(node, type="Method", name=m, aliases=[f"{m}-Net"], papers=1, idf=schema.idf(5, 1),
                       benchmark=False)
            g.add_edge(pid, node, key="PROPOSES", type="PROPOSES", sentence=f"We propose {m}.", **EVIDENCE)
    for u, rel, v in LINKS:
        g.add_edge(u, v, key=rel, type=rel, sentence=f"{PAPERS[u][0]} {rel.lower()} {CONCEPTS[v]}.", **EVIDENCE)
    for u, rel, v in HIERARCHY:
        g.add_edge(u, v, key=rel, type=rel)
    g.add_node("result:r1", type="Result", name="RoCo on COCO-C", value="41.0", method="RoCo", dataset="COCO-C",
               metric="mAP", sentence="RoCo reaches 41.0 mAP on COCO-C.", start_char=0, end_char=1)
    g.add_edge("paper:p4", "result:r1", key="HAS_RESULT", type="HAS_RESULT")
    g.add_edge("result:r1", "dataset:cococ", key="ON_DATASET", type="ON_DATASET")
    return g


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """The graph as kg build leaves it: graph.json and graph.lbug in one directory."""
    return write_build(named_graph(), tmp_path_factory.mktemp("named"))


# the resolver, on a graph and on the store

@pytest.mark.parametrize("name", ["paper:p1", "p1", "SCALE", "scalable  person SEARCH", "SCALE-Net"])
def test_a_paper_is_named_by_id_title_or_proposed_method(name):
    assert find_paper(named_graph(), name) == "paper:p1"


def test_a_title_alone_names_its_paper_and_an_unknown_name_none():
    g = named_graph()
    assert find_paper(g, "Duo Again") == "paper:p3"
    assert find_paper(g, "Triplet") is None and find_paper(g, "") is None


def test_a_name_of_several_papers_lists_them_all():
    with pytest.raises(AmbiguousPaper) as caught:
        find_paper(named_graph(), "duo")
    assert caught.value.lines() == ["paper:p2  Two Heads Are Better", "paper:p3  Duo Again"]


def test_the_store_resolves_names_as_the_graph_does(built):
    conn = connect(built / "graph.lbug")
    store, graph = StorePapers(lambda c, p: run_embedded(conn, c, p)[1]), GraphPapers(named_graph())
    for name in ["p1", "paper:p4", "SCALE", "robust detection under corruptions", "RoCo-Net", "Duo Again", "none"]:
        assert resolve(store, name) == resolve(graph, name), name
    with pytest.raises(AmbiguousPaper) as caught:
        resolve(store, "Duo")
    assert [c.id for c in caught.value.candidates] == ["paper:p2", "paper:p3"]


def test_a_name_of_several_papers_spelled_as_one_of_them_names_that_one(tmp_path):
    g = nx.MultiDiGraph()
    for pid, name, title in [("paper:a", "SnAKe", "SnAKe: Bayesian Optimization with Pathwise Exploration"),
                             ("paper:b", "SNAKE", "SNAKE: Shape-aware Neural 3D Keypoint Field")]:
        g.add_node(pid, type="Paper", name=name, title=title, year=2022, venue="NeurIPS", authors=[], source=[],
                   abstract=title)
    conn = connect(write_build(g, tmp_path) / "graph.lbug")
    for papers in (GraphPapers(g), StorePapers(lambda c, p: run_embedded(conn, c, p)[1])):
        assert resolve(papers, "SnAKe") == "paper:a" and resolve(papers, " SNAKE ") == "paper:b"
        with pytest.raises(AmbiguousPaper):
            resolve(papers, "snake")  # spelled as neither


def test_concepts_apart_by_case_are_found_by_spelling_in_the_store_as_in_the_graph(tmp_path):
    from kg.concept_names import AmbiguousConcept, match_concept, resolve_in_store

    g = nx.MultiDiGraph()
    for node, name in [("method:snake", "SNAKE"), ("method:snake-SnAKe", "SnAKe"), ("method:resnet", "ResNet")]:
        g.add_node(node, type="Method", name=name, aliases=[], papers=1, idf=schema.idf(3, 1), benchmark=False)
    conn = connect(write_build(g, tmp_path) / "graph.lbug")
    run_store = lambda c, p: run_embedded(conn, c, p)[1]  # noqa: E731
    concepts = [(n, n, d["name"], d["aliases"]) for n, d in g.nodes(data=True)]
    for name, node in [("SnAKe", "method:snake-SnAKe"), ("SNAKE", "method:snake"), ("resnet", "method:resnet")]:
        assert match_concept(concepts, "Method", name) == resolve_in_store(run_store, "method", name) == node
    for find in (lambda n: match_concept(concepts, "Method", n), lambda n: resolve_in_store(run_store, "method", n)):
        with pytest.raises(AmbiguousConcept) as caught:
            find("Snake")
        assert sorted(c.id for c in caught.value.candidates) == ["method:snake", "method:snake-SnAKe"]


# the three commands

def assert_lists_the_duo_papers(code: int, out: str, err: str) -> None:
    assert code == 2 and not out
    lines = err.splitlines()
    assert lines[0] == "kg: 'Duo' names 2 papers; give one of these ids instead:"
    assert lines[1:] == ["  paper:p2  Two Heads Are Better", "  paper:p3  Duo Again"]


@pytest.mark.parametrize("name", ["p1", "paper:p1", "Scalable Person Search", "SCALE"])
def test_kg_related_takes_any_name_of_a_paper(built, capsys, name):
    code, out, err = run(capsys, "related", name, "--graph", str(built), "--format", "json")
    assert code == 0, err
    assert json.loads(out)["paper"] == "paper:p1"


def test_kg_related_lists_the_papers_an_ambiguous_name_could_mean(built, capsys):
    assert_lists_the_duo_papers(*run(capsys, "related", "Duo", "--graph", str(built)))


def test_kg_related_says_when_no_paper_has_an_id(built, capsys):
    code, _, err = run(capsys, "related", "paper:p9", "--graph", str(built))
    assert code == 2 and "no paper named 'paper:p9'" in err


@pytest.mark.parametrize("name", ["p1", "paper:p1", "Scalable Person Search", "SCALE", "scale-net"])
def test_kg_query_takes_any_name_of_a_paper(built, capsys, name):
    code, out, err = run(capsys, "query", "paper_concepts", "--param", f"paper={name}", "--graph", str(built),
                         "--format", "json")
    assert code == 0, err
    assert {(r["relation"], r["concept"]) for r in json.loads(out)} == {
        ("PROPOSES", "SCALE"), ("EVALUATES_ON", "CUHK-SYSU"), ("ADDRESSES", "person search")}


def test_kg_query_resolves_both_papers_of_a_path(built, capsys):
    code, out, err = run(capsys, "query", "path_between_papers", "--param", "a=p1", "--param", "b=Two Heads Are Better",
                         "--graph", str(built), "--format", "json")
    assert code == 0, err
    assert json.loads(out)[0]["chain"] == ["SCALE", "CUHK-SYSU", "Duo"]


def test_kg_query_warns_when_both_papers_of_a_path_are_one(built, capsys):
    code, out, err = run(capsys, "query", "path_between_papers", "--param", "a=p1", "--param", "b=SCALE",
                         "--graph", str(built), "--format", "json")
    assert code == 0 and json.loads(out) == []
    assert "warning: --param a and --param b name the same paper (paper:p1)" in err


def test_kg_query_lists_the_papers_an_ambiguous_name_could_mean(built, capsys):
    assert_lists_the_duo_papers(*run(capsys, "query", "paper_concepts", "--param", "paper=Duo", "--graph", str(built)))


def test_kg_query_names_an_unknown_paper_with_close_names(built, capsys):
    code, out, err = run(capsys, "query", "paper_concepts", "--param", "paper=SCALF", "--graph", str(built))
    assert code == 2 and not out and err.startswith("kg: --param paper: no paper named 'SCALF'; did you mean SCALE")


def test_kg_query_leaves_the_parameters_of_ad_hoc_cypher_alone(built, capsys):
    code, out, _ = run(capsys, "query", "--cypher", "MATCH (p:Paper) WHERE p.name = $paper RETURN p.id AS id",
                       "--param", "paper=Duo", "--graph", str(built), "--format", "json")
    assert code == 0 and [r["id"] for r in json.loads(out)] == ["paper:p2"]


@pytest.mark.parametrize("name", ["p1", "paper:p1", "Scalable Person Search", "SCALE"])
def test_kg_viz_focuses_on_any_name_of_a_paper(built, capsys, tmp_path, name):
    code, out, err = run(capsys, "viz", str(built), "--kind", "paper", "--focus", name, "--out", str(tmp_path / "v.html"))
    assert code == 0, err
    assert "<title>Paper: Scalable Person Search" in (tmp_path / "v.html").read_text(encoding="utf-8")


def test_kg_viz_lists_the_papers_an_ambiguous_name_could_mean(built, capsys, tmp_path):
    assert_lists_the_duo_papers(*run(capsys, "viz", str(built), "--kind", "paper", "--focus", "Duo",
                                     "--out", str(tmp_path / "v.html")))
    assert not (tmp_path / "v.html").exists()


# the saved queries include subtasks and dataset variants, and say which

def rows(built: Path, name: str, **params) -> list[dict]:
    cols, found = run_embedded(connect(built / "graph.lbug"), load_queries()[name].for_engine("lbug"), params)
    return [dict(zip(cols, r)) for r in found]


def test_papers_on_a_dataset_include_its_variants(built):
    got = [(r["name"], r["dataset"], r["via"]) for r in rows(built, "papers_on_dataset", dataset="coco")]
    assert sorted(got) == [("Adapt", "COCO", []), ("Duo", "COCO", []), ("RoCo", "COCO", ["COCO-C"])]
    assert [r["name"] for r in rows(built, "papers_on_dataset", dataset="COCO-C")] == ["RoCo"]


def test_a_paper_on_a_dataset_and_its_variants_is_one_row_with_the_datasets_own_evidence(tmp_path):
    g = named_graph()
    g.add_edge("paper:p5", "dataset:cococ", key="EVALUATES_ON", type="EVALUATES_ON", sentence="Adapt on COCO-C.",
               **EVIDENCE)
    got = rows(write_build(g, tmp_path), "papers_on_dataset", dataset="coco")
    assert [(r["name"], r["via"], r["evidence"]) for r in got if r["name"] == "Adapt"] == [
        ("Adapt", ["COCO-C"], "Adapt evaluates_on COCO.")]


def test_results_on_a_dataset_include_its_variants(built):
    assert [(r["value"], r["via"]) for r in rows(built, "results_on_dataset", dataset="COCO")] == [("41.0", "COCO-C")]


def test_related_by_task_reaches_subtasks_at_any_depth(built):
    got = rows(built, "related_by", paper="paper:p5", by="task")
    assert [(r["name"], r["shared"], r["via"]) for r in got] == [
        ("RoCo", ["domain adaptation"], ["single-source domain generalization"])]
    assert not rows(built, "related_by", paper="paper:p4", by="task")  # a subtask does not reach up to its parent


def test_link_evidence_includes_the_concepts_subtasks(built):
    got = rows(built, "link_evidence", paper="paper:p4", concept="domain adaptation")
    assert [(r["concept"], r["via"], r["relation"]) for r in got] == [
        ("domain adaptation", "single-source domain generalization", "ADDRESSES")]


def test_bridging_concepts_count_the_papers_of_subtasks(built):
    got = rows(built, "bridging_concepts", task_a="domain adaptation", task_b="model compression")
    assert [(r["concept"], r["type"], r["papers_a"], r["papers_b"], r["via_a"], r["via_b"]) for r in got] == [
        ("COCO", "dataset", 1, 1, [], []),  # Adapt (domain adaptation) and Duo (model compression)
        ("ResNet", "method", 1, 1, ["single-source domain generalization"], [])]  # RoCo and Duo


def test_tasks_sharing_datasets_roll_subtasks_and_variants_up(built):
    got = {(r["task_a"], r["task_b"]): r for r in rows(built, "tasks_sharing_datasets", limit=50)}
    # Adapt and Duo evaluate on COCO itself; RoCo, on COCO-C for a subtask of a subtask of domain adaptation
    pair = got[("domain adaptation", "model compression")]
    assert pair["datasets"] == ["COCO"] and pair["via"] == ["COCO-C", "single-source domain generalization"]
    rolled = got[("domain generalization", "model compression")]  # through RoCo alone
    assert rolled["datasets"] == ["COCO"] and rolled["via"] == ["COCO-C", "single-source domain generalization"]
    assert got[("model compression", "single-source domain generalization")]["via"] == ["COCO-C"]
    # a task never pairs with its own subtasks or parents, though Adapt and RoCo bring domain adaptation and
    # domain generalization to COCO on different papers
    assert not {("domain generalization", "single-source domain generalization"),
                ("domain adaptation", "domain generalization"),
                ("domain adaptation", "single-source domain generalization")} & set(got)


def test_tasks_sharing_a_variant_meet_on_its_dataset(tmp_path):
    g = named_graph()
    g.add_edge("paper:p2", "dataset:cococ", key="EVALUATES_ON", type="EVALUATES_ON", sentence="", **EVIDENCE)
    write_ladybug(g, tmp_path / "graph.lbug")
    got = {(r["task_a"], r["task_b"]): r for r in rows(tmp_path, "tasks_sharing_datasets", limit=50)}
    # Duo evaluates on COCO-C as RoCo does: one family, COCO, not COCO and COCO-C
    pair = got[("domain adaptation", "model compression")]
    assert pair["datasets"] == ["COCO"] and pair["shared"] == 1 and "COCO-C" in pair["via"]


# a paper named by its DOI (any case) or arXiv id, one by its title as the input wrote it, and concept names
# ("SSL": a method's name and a task's alias; "snns": a plural acronym in lower case), in every command

BERT, LATEX, FORUM = "paper:10.18653/v1/n19-1423", "paper:latex", "paper:neurips2022:VOyYhoN_yg"
IDENTIFIED = {BERT: dict(name="BERT", title="BERT: Pre-training of Deep Bidirectional Transformers",
                         doi="10.18653/v1/n19-1423", arxiv_id="1810.04805"),
              LATEX: dict(name="Multi-Class H-Consistency Bounds", title="Multi-Class H-Consistency Bounds"),
              FORUM: dict(name="Statistically Meaningful Approximation",
                          title="Statistically Meaningful Approximation")}
NAMED_CONCEPTS = {"method:ssl": ("Method", "SSL", []),
                  "task:selfsupervisedlearning": ("Task", "self-supervised learning", ["SSL"]),
                  "method:spikingneuralnetwork": ("Method", "spiking neural networks", ["SNN"])}


def identified_graph() -> nx.MultiDiGraph:
    """The named graph with a paper kept by its DOI (and an arXiv id), one whose title had LaTeX, and concepts that
    a name matches in two ways."""
    g = named_graph()
    for pid, d in IDENTIFIED.items():
        g.add_node(pid, type="Paper", year=2019, venue="NAACL", authors=[], source=[],
                   abstract=f"{d['title']}. We study bounds.", **d)
    for node, (kind, name, aliases) in NAMED_CONCEPTS.items():
        g.add_node(node, type=kind, name=name, aliases=aliases, papers=1, idf=schema.idf(7, 1), benchmark=False)
        rel = schema.REL_FOR_LABEL[kind.upper()].name
        g.add_edge(BERT, node, key=rel, type=rel, sentence=f"BERT {rel.lower()} {name}.", **EVIDENCE)
    return g


@pytest.fixture(scope="module")
def identified(tmp_path_factory) -> dict[str, Path]:
    """The identified graph as kg build leaves it, with its related/ index ("index") and without ("graph")."""
    from kg.related.index import DIRECTORY
    from kg.sinks.base import feed
    from kg.sinks.related_index import RelatedIndexSink

    g = identified_graph()
    dirs = {}
    for kind in ("graph", "index"):
        out = dirs[kind] = tmp_path_factory.mktemp(kind)
        (out / "graph.json").write_text(json.dumps(nx.node_link_data(g, edges="links")), encoding="utf-8")
        write_ladybug(g, out / "graph.lbug")
    feed(g, RelatedIndexSink(dirs["index"] / DIRECTORY))
    return dirs


PAPER_NAMES = [("10.18653/V1/N19-1423", BERT), ("https://doi.org/10.18653/V1/N19-1423", BERT), ("1810.04805", BERT),
               ("arXiv:1810.04805v2", BERT), ("Multi-Class $H$-Consistency Bounds", LATEX),
               # the input's own id after its source, as OpenReview gives it or in its address
               ("VOyYhoN_yg", FORUM), ("https://openreview.net/forum?id=VOyYhoN_yg", FORUM),
               ("https://openreview.net/forum?id=VOyYhoN_yg&noteId=abc", FORUM)]


@pytest.mark.parametrize("source", ["graph", "index"])
@pytest.mark.parametrize("name, paper", PAPER_NAMES)
def test_kg_related_names_a_paper_by_doi_arxiv_id_or_title_as_written(identified, capsys, source, name, paper):
    code, out, err = run(capsys, "related", name, "--graph", str(identified[source]), "--format", "json")
    assert code == 0, err
    assert json.loads(out)["paper"] == paper


@pytest.mark.parametrize("name, paper", PAPER_NAMES)
def test_kg_query_and_kg_viz_name_a_paper_by_doi_arxiv_id_or_title_as_written(identified, capsys, tmp_path, name,
                                                                                 paper):
    code, out, err = run(capsys, "query", "paper_concepts", "--param", f"paper={name}",
                         "--graph", str(identified["graph"]), "--format", "json")
    assert code == 0 and len(json.loads(out)) == (3 if paper == BERT else 0), err
    code, _, err = run(capsys, "viz", str(identified["graph"]), "--kind", "paper", "--focus", name,
                       "--out", str(tmp_path / "v.html"))
    assert code == 0, err
    title = IDENTIFIED[paper]["title"]
    assert f"<title>Paper: {title}" in (tmp_path / "v.html").read_text(encoding="utf-8")


@pytest.mark.parametrize("source", ["graph", "index", "store"])
def test_an_id_end_two_sources_share_lists_both_papers(tmp_path, capsys, source):
    from kg.related.index import DIRECTORY
    from kg.sinks.base import feed
    from kg.sinks.related_index import RelatedIndexSink

    g = nx.MultiDiGraph()
    for pid in ("paper:neurips2022:Ab1", "paper:iclr2023:Ab1", "paper:iclr2023:Ab12"):
        g.add_node(pid, type="Paper", name=pid, title=f"Title of {pid}", year=2022, venue="NeurIPS", authors=[],
                   source=[], abstract="Text.")
    (tmp_path / "graph.json").write_text(json.dumps(nx.node_link_data(g, edges="links")), encoding="utf-8")
    if source == "index":
        feed(g, RelatedIndexSink(tmp_path / DIRECTORY))
    if source == "store":
        write_ladybug(g, tmp_path / "graph.lbug")
        code, _, err = run(capsys, "query", "paper_concepts", "--param", "paper=Ab1", "--graph", str(tmp_path))
    else:
        code, _, err = run(capsys, "related", "Ab1", "--graph", str(tmp_path))
    assert code == 2 and "paper:neurips2022:Ab1" in err and "paper:iclr2023:Ab1" in err and "Ab12" not in err


@pytest.mark.parametrize("source", ["graph", "index"])
@pytest.mark.parametrize("name", ["2999.99999", "1901.00001v2", "10.1234/nothing", "paper:p9",
                                  "https://openreview.net/forum?id=nothing", "https://example.org/x?id=VOyYhoN_yg"])
def test_kg_related_refuses_an_id_no_paper_has_rather_than_searching_its_words(identified, capsys, source, name):
    code, out, err = run(capsys, "related", name, "--graph", str(identified[source]))
    assert code == 2 and not out and f"no paper named '{name}'" in err


@pytest.mark.parametrize("source", ["graph", "index", "store"])
def test_a_name_of_another_type_of_concept_says_which(identified, capsys, source):
    """--dataset SSL in a graph whose SSL is a method and a task's alias: not found, and what SSL names instead."""
    if source == "store":
        code, out, err = run(capsys, "query", "papers_on_dataset", "--param", "dataset=SSL",
                             "--graph", str(identified["graph"]))
    else:
        code, out, err = run(capsys, "related", "--dataset", "SSL", "--graph", str(identified[source]))
    assert code == 2 and not out
    assert "no Dataset named 'SSL'" in err and "('SSL' names a method or task: SSL, self-supervised learning)" in err


def test_a_name_that_one_concept_has_and_others_have_as_an_alias_lists_them(identified, capsys):
    code, out, err = run(capsys, "query", "link_evidence", "--param", "paper=BERT", "--param", "concept=SSL",
                         "--graph", str(identified["graph"]))
    assert code == 2 and not out
    assert err.splitlines() == ["kg: 'SSL' names 2 concepts; give one of these ids instead:",
                                "  method:ssl  SSL", "  task:selfsupervisedlearning  self-supervised learning"]
    code, out, err = run(capsys, "query", "link_evidence", "--param", "paper=BERT",
                         "--param", "concept=task:selfsupervisedlearning", "--graph", str(identified["graph"]),
                         "--format", "json")
    assert code == 0 and [r["concept"] for r in json.loads(out)] == ["self-supervised learning"], err


@pytest.mark.parametrize("source", ["graph", "index"])
@pytest.mark.parametrize("name", ["snns", "SNNs", "snn"])
def test_a_plural_acronym_in_lower_case_names_its_concept(identified, capsys, source, name):
    code, out, err = run(capsys, "related", "--method", name, "--graph", str(identified[source]), "--format", "json")
    assert code == 0 and json.loads(out)["concept"] == "method:spikingneuralnetwork", err
    code, out, err = run(capsys, "query", "link_evidence", "--param", "paper=BERT", "--param", f"concept={name}",
                         "--graph", str(identified[source]), "--format", "json")
    assert code == 0 and [r["concept"] for r in json.loads(out)] == ["spiking neural networks"], err
