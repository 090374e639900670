"""Related work: the ranking (networkx and Cypher agree), its explanations, and the kg related command."""
from __future__ import annotations

import json
import re

import pytest

from kg.cli import main
from kg.related import DEFAULT_WEIGHTS, around_concept, find_paper, related, weights_for
from kg.store.embedded import connect, write_ladybug
from kg.store.queries import load_queries, run_embedded
from tests.test_store import small_graph

WEIGHT_PARAMS = {f"w_{k.lower()}": v for k, v in DEFAULT_WEIGHTS.items()}


def names(hits):
    return [h.name for h in hits]


def test_a_shared_rare_dataset_outranks_a_shared_common_one():
    g = small_graph()
    hits = related(g, "paper:A")
    assert names(hits) == ["B", "C"]
    assert hits[0].shared[0].name == "RareSet" and hits[0].shared[0].weight > hits[1].shared[0].weight


def test_papers_sharing_a_specific_task_rank_above_those_sharing_only_a_metric(seed_build):
    g = seed_build[0].graph
    hits = related(g, find_paper(g, "FML"))
    assert "federated learning" in {s.name for s in hits[0].shared}
    only_metric = [h for h in hits if {s.type for s in h.shared} == {"Metric"}]
    assert only_metric and all(h.score < hits[0].score for h in only_metric)


def test_test_time_adaptation_links_reex_and_lineartca(seed_build):
    g = seed_build[0].graph
    assert names(related(g, find_paper(g, "ReEx")))[0] == "LinearTCA"


def test_by_restricts_the_kinds_of_shared_concept(seed_build):
    g = seed_build[0].graph
    hits = related(g, find_paper(g, "FML"), weights=weights_for(["metric"]), shared_only=True)
    assert hits and all({s.type for s in h.shared} == {"Metric"} for h in hits)
    with pytest.raises(ValueError):
        weights_for(["colour"])


@pytest.mark.parametrize("paper", ["SCALE", "FML", "COBRA", "DomED", "MoEQuant", "ReEx", "TabICL", "LinearTCA"])
def test_networkx_and_cypher_rank_the_seed_papers_the_same_way(seed_build, paper):
    g, out = seed_build[0].graph, seed_build[1]
    # the saved query is the concept part of the ranking (no text similarity)
    py = [(h.paper, round(h.score, 6)) for h in related(g, find_paper(g, paper), top=10, text_weight=0)]
    q = load_queries()["related_papers"].for_engine("lbug")
    _, rows = run_embedded(connect(out / "graph.lbug"), q, {"paper": paper, "top": 10, **WEIGHT_PARAMS})
    assert [(r[0], round(r[2], 6)) for r in rows] == py


def test_cypher_ranking_on_the_small_graph(tmp_path):
    conn = connect(write_ladybug(small_graph(), tmp_path / "g.lbug"))
    _, rows = run_embedded(conn, load_queries()["related_papers"].for_engine("lbug"), {"paper": "A", "top": 5, **WEIGHT_PARAMS})
    assert [r[1] for r in rows] == ["B", "C"]


def test_concept_centred_report(seed_build):
    g = seed_build[0].graph
    report = around_concept(g, "Dataset", "cuhk sysu")
    assert [n for _, n, _ in report.papers] == ["SCALE"] and report.co_used == [("PRW", 1)]
    # cut to top, the report says how many datasets there are in all (the command prints "... and N more")
    task = around_concept(g, "Task", "test-time adaptation")
    short = around_concept(g, "Task", "test-time adaptation", top=1)
    assert len(short.co_used) == 1 and short.co_total == task.co_total == len(task.co_used) == 2
    with pytest.raises(ValueError, match="did you mean Office-31"):
        around_concept(g, "Dataset", "Ofice31")


def test_a_concepts_papers_list_the_title_then_those_naming_it_most_on_the_graph_and_the_index(tmp_path):
    """--dataset ImageNet should open with the papers about ImageNet and those evaluating on it, not with those that
    name it once in passing ("initialized with ImageNet features")."""
    import networkx as nx

    from kg import schema
    from kg.related.index import DIRECTORY, RelatedIndex
    from kg.sinks.base import feed
    from kg.sinks.related_index import RelatedIndexSink

    g = nx.MultiDiGraph()
    g.add_node("dataset:d", type="Dataset", name="D", aliases=[], papers=3, idf=schema.idf(3, 3), benchmark=False)
    for pid, name, count, field in (("paper:a", "Alpha", 1, "abstract"), ("paper:b", "Beta", 3, "abstract"),
                                    ("paper:c", "Gamma", 1, "title"), ("paper:z", "Zeta", 2, "abstract")):
        g.add_node(pid, type="Paper", name=name, title=name, year=2022, venue="NeurIPS", authors=[], source=[],
                   abstract=f"{name} uses D.")
        g.add_edge(pid, "dataset:d", key="EVALUATES_ON", type="EVALUATES_ON", sentence=f"{name} uses D.",
                   count=count, evidence=[{"field": field, "start": 0, "end": 1}] * count)
    feed(g, RelatedIndexSink(tmp_path / DIRECTORY))
    index = RelatedIndex.load(tmp_path / DIRECTORY)
    for report in (around_concept(g, "Dataset", "D"), index.around_concept("Dataset", "D")):
        assert [n for _, n, _ in report.papers] == ["Gamma", "Beta", "Zeta", "Alpha"]


def test_a_links_sentence_is_the_abstracts_where_the_title_names_the_concept_too(tmp_path):
    """A reference shows the paper's title already: its evidence line is the abstract's sentence, and the title's
    only where the abstract never names the concept."""
    import networkx as nx

    from kg import schema
    from kg.related.index import DIRECTORY, RelatedIndex
    from kg.related.ranking import link_sentence
    from kg.sinks.base import feed
    from kg.sinks.related_index import RelatedIndexSink

    both = [{"field": "title", "sentence": "D matters"}, {"sentence": "We evaluate on D."}]
    assert link_sentence({"sentence": "D matters", "evidence": both}) == "We evaluate on D."
    assert link_sentence({"sentence": "D matters", "evidence": both[:1]}) == "D matters"
    # the link's best evidence stays where it is not the title: the sentence proposing the method
    proposed = [{"sentence": "M is known."}, {"sentence": "We introduce M."}]
    assert link_sentence({"sentence": "We introduce M.", "evidence": proposed}) == "We introduce M."
    g = nx.MultiDiGraph()
    g.add_node("dataset:d", type="Dataset", name="D", aliases=[], papers=1, idf=schema.idf(1, 1), benchmark=False)
    g.add_node("paper:a", type="Paper", name="D matters", title="D matters", year=2022, venue="NeurIPS", authors=[],
               source=[], abstract="We evaluate on D.")
    g.add_edge("paper:a", "dataset:d", key="EVALUATES_ON", type="EVALUATES_ON", sentence="D matters", count=2,
               evidence=both)
    feed(g, RelatedIndexSink(tmp_path / DIRECTORY))
    index = RelatedIndex.load(tmp_path / DIRECTORY)
    for report in (around_concept(g, "Dataset", "D"), index.around_concept("Dataset", "D")):
        assert report.papers == [("paper:a", "D matters", "We evaluate on D.")]


def test_related_command_explains_and_speaks_json(seed_build, capsys):
    out = str(seed_build[1])
    assert main(["related", "ReEx", "--graph", out]) == 0
    text = capsys.readouterr().out
    assert "1." in text and "LinearTCA" in text and "shares task test-time adaptation" in text
    assert main(["related", "ReEx", "--graph", out, "--json", "--top", "1"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["hits"][0]["name"] == "LinearTCA" and data["hits"][0]["shared"][0]["type"] == "Task"


def test_related_command_accepts_abstract_words(seed_build, capsys):
    assert main(["related", "domain adaptation results on the Office-31 benchmark", "--graph", str(seed_build[1])]) == 0
    assert capsys.readouterr().out.splitlines()[1].split()[2] == "FML"


@pytest.mark.parametrize("source", ["graph", "index"])
def test_a_query_names_the_concepts_it_stands_on_and_says_when_it_has_none_of_the_kinds(
        graph_only_and_index_only, capsys, source):
    out = str(graph_only_and_index_only[source == "index"])
    assert main(["related", "person search on CUHK-SYSU", "--graph", out, "--top", "1"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert "(known concepts: dataset CUHK-SYSU, task person search)" in first
    assert main(["related", "person search on CUHK-SYSU", "--graph", out, "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["query_concepts"] == [
        {"type": "Dataset", "name": "CUHK-SYSU"}, {"type": "Task", "name": "person search"}]
    assert main(["related", "person search", "--graph", out, "--by", "dataset"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "(no known concept of those kinds)" in lines[0] and lines[1:] == ["  (it names no dataset concept)"]
    # a paper's own concepts, as the graph links them
    assert main(["related", "SCALE", "--graph", out, "--format", "json"]) == 0
    assert {"type": "Dataset", "name": "CUHK-SYSU"} in json.loads(capsys.readouterr().out)["query_concepts"]


def test_related_command_by_dataset(seed_build, capsys):
    assert main(["related", "--dataset", "PRW", "--graph", str(seed_build[1])]) == 0
    text = capsys.readouterr().out
    assert "SCALE" in text and "CUHK-SYSU (1)" in text


def test_top_limits_the_papers_around_a_concept(seed_build, capsys):
    assert main(["related", "--task", "domain adaptation", "--top", "1", "--graph", str(seed_build[1])]) == 0
    lines = capsys.readouterr().out.splitlines()
    # its subtasks' papers count too (domain generalization, gradual domain adaptation, test-time adaptation,
    # unsupervised video domain adaptation, ...), and the output says so
    assert lines[0].endswith(": 8 paper(s)") and lines[1].startswith("  including ")
    assert sum(line.startswith("  [") or "[paper:" in line for line in lines) == 1
    assert any("and 7 more" in line for line in lines)


def test_markdown_lists_titles_links_and_reasons(tmp_path, capsys):
    import json as _json

    import kg as _kg

    papers = [
        {"id": "p1", "title": "Person Search on CUHK-SYSU", "url": "https://example.org/p1", "venue": "ICML",
         "year": 2025, "text": "We study person search and evaluate on CUHK-SYSU and PRW."},
        {"id": "p2", "title": "Faster Person Search", "url": "https://example.org/p2", "venue": "ICML", "year": 2026,
         "text": "A faster person search model, evaluated on CUHK-SYSU."},
    ]
    src = tmp_path / "p.jsonl"
    src.write_text("".join(_json.dumps(p) + "\n" for p in papers), encoding="utf-8")
    _kg.build([str(src)], tmp_path / "out")
    assert main(["related", "p1", "--graph", str(tmp_path / "out"), "--markdown"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "Related to Person Search on CUHK-SYSU \\[paper:p1\\]:"
    assert lines[2].startswith("- [Faster Person Search](https://example.org/p2) (ICML, 2026): shares dataset CUHK-SYSU")
    assert "text similarity" in lines[2]


def test_format_names_every_output_and_the_short_options_stay(seed_build, capsys):
    out = str(seed_build[1])
    for short, fmt in (("--json", "json"), ("--markdown", "markdown")):
        assert main(["related", "ReEx", "--graph", out, short]) == 0
        first = capsys.readouterr().out
        assert main(["related", "ReEx", "--graph", out, "--format", fmt]) == 0
        assert capsys.readouterr().out == first
    assert main(["related", "ReEx", "--graph", out, "--format", "text"]) == 0
    assert capsys.readouterr().out.startswith("related to ReEx [paper:")


def test_markdown_around_a_concept_names_what_it_included(seed_build, capsys):
    assert main(["related", "--task", "domain adaptation", "--graph", str(seed_build[1]), "--format", "markdown",
                 "--top", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("Papers on task domain adaptation (including ") and "domain generalization" in lines[0]
    assert lines[2].startswith("- ") and lines[-1] == "- ... and 6 more"


def test_the_builds_index_ranks_every_paper_as_the_graph_does(seed_build):
    from kg.related.index import DIRECTORY, RelatedIndex

    report, out = seed_build
    g = report.graph
    index = RelatedIndex.load(out / DIRECTORY)
    papers = sorted(n for n, d in g.nodes(data=True) if d["type"] == "Paper")
    assert sorted(index.ids) == papers
    for p in papers:
        for by in (None, ["dataset", "task"]):
            want = related(g, p, top=10, weights=weights_for(by), shared_only=by is not None)
            got = index.related(p, top=10, weights=weights_for(by), shared_only=by is not None)
            assert [(h.paper, [s.name for s in h.shared]) for h in got] == \
                [(h.paper, [s.name for s in h.shared]) for h in want], p
            # (the index keeps text weights as 32-bit floats)
            assert [h.score for h in got] == pytest.approx([h.score for h in want], abs=1e-5), p
            assert [h.semantic for h in got] == [h.semantic for h in want], p


@pytest.fixture(scope="module")
def graph_only_and_index_only(seed_build, tmp_path_factory):
    """The seed build split in two: graph.json alone (kg related reads the graph) and related/ alone (the index)."""
    import shutil

    _, out = seed_build
    graph_only, index_only = tmp_path_factory.mktemp("graph-only"), tmp_path_factory.mktemp("index-only")
    shutil.copy(out / "graph.json", graph_only / "graph.json")
    shutil.copytree(out / "related", index_only / "related")
    return graph_only, index_only


@pytest.mark.parametrize("query", ["ReEx", "paper:{reex}", "{reex}", "{reex_title}",
                                   "domain adaptation results on the Office-31 benchmark"])
@pytest.mark.parametrize("fmt", ["json", "markdown", "text"])
def test_the_index_answers_ids_titles_proposed_names_and_texts_as_the_graph_does(
        seed_build, graph_only_and_index_only, query, fmt, capsys):
    report, _ = seed_build
    reex = next(n for n, d in report.graph.nodes(data=True) if d["type"] == "Paper" and d.get("name") == "ReEx")
    query = query.format(reex=reex.removeprefix("paper:"), reex_title=report.graph.nodes[reex].get("title") or "ReEx")
    answers = []
    for directory in graph_only_and_index_only:
        assert main(["related", query, "--graph", str(directory), "--top", "4", "--format", fmt]) == 0
        answers.append(capsys.readouterr().out)
    assert answers[0] == answers[1] and "LinearTCA" in answers[0] and len(answers[0].splitlines()) >= 5


@pytest.mark.parametrize("option, name", [("--task", "domain adaptation"), ("--dataset", "PRW"),
                                          ("--method", "ReEx"), ("--dataset", "Ofice31")])
@pytest.mark.parametrize("fmt", ["json", "markdown", "text"])
def test_the_index_answers_concept_queries_as_the_graph_does(graph_only_and_index_only, option, name, fmt, capsys):
    answers = []
    for directory in graph_only_and_index_only:
        code = main(["related", option, name, "--graph", str(directory), "--top", "2", "--format", fmt])
        out, err = capsys.readouterr()
        answers.append((code, out, err))
    assert answers[0] == answers[1]
    if name == "Ofice31":
        assert answers[0][0] == 2 and "did you mean Office-31" in answers[0][2]
    else:
        assert answers[0][0] == 0 and answers[0][1].strip()


def test_the_index_reports_every_concept_as_the_graph_does(seed_build):
    from kg.related.index import DIRECTORY, RelatedIndex

    report, out = seed_build
    g = report.graph
    index = RelatedIndex.load(out / DIRECTORY)
    concepts = [(d["type"], d["name"]) for _, d in g.nodes(data=True) if d["type"] in DEFAULT_WEIGHTS]
    assert len(concepts) > 50
    for kind, name in concepts:
        for hierarchy in (True, False):
            want = around_concept(g, kind, name, hierarchy=hierarchy)
            got = index.around_concept(kind, name, hierarchy=hierarchy)
            assert (got.concept, got.name, got.papers, got.co_used, got.included, got.total, got.co_total) == (
                want.concept, want.name, want.papers, want.co_used, want.included, want.total, want.co_total), name


def test_the_index_lists_the_candidates_of_an_ambiguous_name_and_names_a_missing_id(tmp_path, capsys):
    import shutil

    import kg as _kg

    papers = [{"id": f"p{i}", "title": "Person Search  Revisited" if i < 3 else f"Paper {i}",
               "text": f"We propose {'SeqNet' if i == 3 else 'a model'} for person search on CUHK-SYSU."}
              for i in range(1, 5)]
    src = tmp_path / "p.jsonl"
    src.write_text("".join(json.dumps(p) + "\n" for p in papers), encoding="utf-8")
    _kg.build([str(src)], tmp_path / "out")
    (tmp_path / "graph-only").mkdir()
    shutil.copy(tmp_path / "out" / "graph.json", tmp_path / "graph-only")
    shutil.copytree(tmp_path / "out" / "related", tmp_path / "index-only" / "related")
    for directory in ("graph-only", "index-only"):
        graph = str(tmp_path / directory)
        assert main(["related", "person search revisited", "--graph", graph]) == 2
        err = capsys.readouterr().err
        assert "names 2 papers" in err and "paper:p1  Person Search Revisited" in err and "paper:p2" in err
        assert main(["related", "seqnet", "--graph", graph, "--format", "json"]) == 0
        assert json.loads(capsys.readouterr().out)["paper"] == "paper:p3"
        assert main(["related", "paper:p9", "--graph", graph]) == 2
        assert "no paper named 'paper:p9'" in capsys.readouterr().err


def test_the_index_written_in_small_slices_equals_the_index_written_at_once(seed_build, tmp_path, monkeypatch):
    import numpy

    from kg.sinks import related_index
    from kg.sinks.base import feed

    report, _ = seed_build
    written = {}
    for slice_ in (related_index.SLICE, 7):  # 7 postings: many slices, and papers longer than one slice
        monkeypatch.setattr(related_index, "SLICE", slice_)
        out = tmp_path / str(slice_)
        feed(report.graph, related_index.RelatedIndexSink(out))
        written[slice_] = {p.name: p for p in out.iterdir()}
    whole, sliced = written.values()
    assert sorted(whole) == sorted(sliced) and not [n for n in whole if n.startswith(".")]  # no spill file left
    for name, path in whole.items():
        if name.endswith(".npy"):
            a, b = numpy.load(path), numpy.load(sliced[name])
            assert a.dtype == b.dtype and numpy.array_equal(a, b), name
        else:
            assert path.read_bytes() == sliced[name].read_bytes(), name
    assert len(numpy.load(whole["term_docs.npy"])) > 7 * 20


@pytest.mark.parametrize("older", ["no terms.txt", "format 1", "format 3"])
def test_an_index_an_older_kg_wrote_leaves_the_answer_to_the_graph(seed_build, tmp_path, capsys, older):
    import shutil

    from kg.related.index import DIRECTORY, RelatedIndex

    _, out = seed_build
    old = tmp_path / "old"
    shutil.copytree(out, old, ignore=shutil.ignore_patterns("views", "*.lbug", "neo4j"))
    assert RelatedIndex.complete(old / DIRECTORY)
    if older == "no terms.txt":
        (old / "related" / "terms.txt").unlink()  # an index without the words of its texts: written before they were
    elif older == "format 1":
        (old / "related" / "format.txt").write_text("1\n", encoding="utf-8")  # before the keywords were in it
    else:  # before the papers' other ids were in it (a merged paper's preprint DOI named no paper)
        (old / "related" / "paper_other_ids.txt").unlink(missing_ok=True)
        (old / "related" / "format.txt").write_text("3\n", encoding="utf-8")
    assert not RelatedIndex.complete(old / DIRECTORY)
    assert main(["related", "LinearTCA", "--graph", str(old), "--top", "1"]) == 0
    assert "written by an older kg" in capsys.readouterr().err
    answers = []
    for directory in (out, old):
        assert main(["related", "LinearTCA", "--graph", str(directory), "--top", "3", "--format", "json"]) == 0
        answers.append(json.loads(capsys.readouterr().out))
    assert answers[0] == answers[1] and answers[0]["hits"]


TITLED = [
    {"id": "t1", "title": "Human Pose Estimation with Vision Transformers",
     "text": "We study human pose estimation on COCO with a Vision Transformer and report AP."},
    {"id": "t2", "title": "Fast Human Pose Estimation",
     "text": "We make human pose estimation fast on COCO and MPII, and we report AP and FLOPs."},
    {"id": "t3", "title": "Object Detection at Scale",
     "text": "We train object detection models on COCO and report AP; human pose estimation is future work."},
    {"id": "t4", "title": "Semantic Segmentation with Vision Transformers",
     "text": "We study semantic segmentation on ADE20K with a Vision Transformer and report mIoU."},
]


@pytest.fixture(scope="module")
def titled_build(tmp_path_factory):
    """A build of four papers whose titles name some of their concepts: (graph, out dir)."""
    import kg

    src = tmp_path_factory.mktemp("titled-src") / "papers.jsonl"
    src.write_text("".join(json.dumps(r) + "\n" for r in TITLED), encoding="utf-8")
    out = tmp_path_factory.mktemp("titled-out")
    return kg.build([str(src)], out).graph, out


def test_a_concept_a_title_names_counts_twice_for_each_title(titled_build):
    from kg.related.ranking import TITLE_FACTOR

    g, _ = titled_build
    hits = {h.paper: h for h in related(g, find_paper(g, "t1"), top=10, text_weight=0)}
    pose = {h: next(s.weight for s in hits[h].shared if s.name == "human pose estimation") for h in hits
            if any(s.name == "human pose estimation" for s in hits[h].shared)}
    both, query_only = pose[find_paper(g, "t2")], pose[find_paper(g, "t3")]  # t3 names it in its abstract only
    assert both == pytest.approx(query_only * TITLE_FACTOR)
    titles = {h: next(s.titles for s in hits[h].shared if s.name == "human pose estimation") for h in pose}
    assert (titles[find_paper(g, "t2")], titles[find_paper(g, "t3")]) == (2, 1)  # the explanation says why
    worded = {h.paper: h.words for h in related(g, find_paper(g, "t1"), top=10)}
    assert {"pose", "human"} <= set(worded[find_paper(g, "t2")])  # and which words the texts share most
    assert names(related(g, find_paper(g, "t1"), top=1, text_weight=0)) == ["Fast Human Pose Estimation"]


def test_the_saved_query_and_the_index_rank_titled_papers_as_kg_related_does(titled_build):
    from kg.related.index import DIRECTORY, RelatedIndex

    g, out = titled_build
    conn = connect(write_ladybug(g, out / "titled.lbug"))
    q = load_queries()["related_papers"].for_engine("lbug")
    index = RelatedIndex.load(out / DIRECTORY)
    for r in TITLED:
        paper = find_paper(g, r["id"])
        py = [(h.paper, round(h.score, 5)) for h in related(g, paper, top=10, text_weight=0)]
        _, rows = run_embedded(conn, q, {"paper": paper, "top": 10, **WEIGHT_PARAMS})
        assert [(row[0], round(row[2], 5)) for row in rows] == py  # (sums in another order)
        assert [(h.paper, round(h.score, 5)) for h in index.related(paper, top=10)] == \
            [(h.paper, round(h.score, 5)) for h in related(g, paper, top=10)]


def test_the_authors_keywords_count_in_the_texts_similarity(tmp_path):
    from kg.related.index import DIRECTORY, RelatedIndex

    import kg

    papers = [{"id": "k1", "title": "Simplex Classifiers", "text": "We fix the last layer to a simplex.",
               "keywords": ["neural collapse", "imbalanced learning"]},
              {"id": "k2", "title": "Feature Geometry at the End of Training", "text": "Features of a class meet.",
               "keywords": ["neural collapse"]},
              {"id": "k3", "title": "Sparse Rewards", "text": "Agents explore with curiosity.", "keywords": []}]
    src = tmp_path / "papers.jsonl"
    src.write_text("".join(json.dumps(r) + "\n" for r in papers), encoding="utf-8")
    g = kg.build([str(src)], tmp_path / "out").graph
    hits = related(g, find_paper(g, "k1"), top=2)
    assert names(hits) == ["Feature Geometry at the End of Training"]  # only the keywords are shared
    assert hits[0].tfidf > 0 and "collapse" in hits[0].words and hits[0].keywords == ["neural collapse"]
    index = RelatedIndex.load(tmp_path / "out" / DIRECTORY)
    assert [(h.paper, h.words, h.keywords) for h in index.related(find_paper(g, "k1"), top=2)] == \
        [(hits[0].paper, hits[0].words, ["neural collapse"])]


def test_a_keyword_that_names_a_shared_concept_is_not_named_twice(tmp_path):
    import kg

    papers = [{"id": "f1", "title": "Robust Aggregation", "text": "We study federated learning with robust aggregation.",
               "keywords": ["Federated Learning", "Byzantine robustness"]},
              {"id": "f2", "title": "Client Drift", "text": "Federated learning suffers from client drift.",
               "keywords": ["federated learning", "Byzantine robustness"]}]
    src = tmp_path / "papers.jsonl"
    src.write_text("".join(json.dumps(r) + "\n" for r in papers), encoding="utf-8")
    g = kg.build([str(src)], tmp_path / "out").graph
    hit = related(g, find_paper(g, "f1"), top=1)[0]
    assert "federated learning" in {s.name for s in hit.shared} and hit.keywords == ["Byzantine robustness"]


@pytest.mark.parametrize("fmt, shown", [("text", "keywords in common: neural collapse"),
                                        ("markdown", "shares keyword neural collapse"),
                                        ("json", '"keywords": [\n    "neural collapse"\n   ]')])
def test_the_explanation_names_the_keywords_both_papers_carry(tmp_path, capsys, fmt, shown):
    papers = [{"id": "k1", "title": "Simplex Classifiers", "text": "We fix the last layer to a simplex.",
               "keywords": ["Neural Collapse", "imbalanced learning"]},
              {"id": "k2", "title": "Feature Geometry", "text": "Features of a class meet.",
               "keywords": ["neural collapse"]}]
    src = tmp_path / "papers.jsonl"
    src.write_text("".join(json.dumps(r) + "\n" for r in papers), encoding="utf-8")
    assert main(["build", str(src), "--out", str(tmp_path / "out"), "--quiet", "--fast"]) == 0
    capsys.readouterr()
    assert main(["related", "paper:k1", "--graph", str(tmp_path / "out"), "--format", fmt]) == 0
    assert shown in capsys.readouterr().out


def test_each_hit_shows_the_sentence_that_names_a_shared_concept(seed_build, capsys):
    out = str(seed_build[1])
    assert main(["related", "ReEx", "--graph", out, "--json", "--top", "1"]) == 0
    shared = json.loads(capsys.readouterr().out)["hits"][0]["shared"][0]
    assert shared["concept"] == "task:testtimeadaptation" and "Test-Time Adaptation" in shared["sentence"]
    assert main(["related", "ReEx", "--graph", out, "--top", "1"]) == 0
    assert 'test-time adaptation: "' in capsys.readouterr().out


@pytest.mark.parametrize("damaged", ["concepts.json", "hierarchy.json", "paper_rank.npy", "concept_ptr.npy"])
def test_a_damaged_index_file_is_named_in_one_line(seed_build, tmp_path, capsys, damaged):
    import shutil

    _, out = seed_build
    copy = tmp_path / "out"
    shutil.copytree(out / "related", copy / "related")
    path = copy / "related" / damaged
    path.write_bytes(path.read_bytes()[:len(path.read_bytes()) // 2])  # truncated, as by a full disk
    for query in (["LinearTCA"], ["--dataset", "PRW"]):
        assert main(["related", *query, "--graph", str(copy)]) == 2
        err = capsys.readouterr().err
        assert str(path) in err and "rebuild it" in err and len(err.strip().splitlines()) == 1


def test_json_hits_and_concept_papers_carry_title_venue_year_and_url(seed_build, capsys):
    out = str(seed_build[1])
    capsys.readouterr()
    assert main(["related", "LinearTCA", "--graph", out, "--top", "2", "--format", "json"]) == 0
    hits = json.loads(capsys.readouterr().out)["hits"]
    assert hits and all({"title", "venue", "year", "url"} <= set(h) for h in hits)
    assert hits[0]["venue"] == "ICML" and hits[0]["year"] == 2026
    # the example's papers have no titles: the name shown is the proposed method's, which is no title
    assert all(h["title"] is None and h["name"] for h in hits)
    assert main(["related", "--dataset", "PRW", "--graph", out, "--format", "json"]) == 0
    [paper] = json.loads(capsys.readouterr().out)["papers"]
    assert paper["name"] == "SCALE" and paper["venue"] == "ICML" and paper["title"] is None


@pytest.mark.parametrize("names, shows", [
    (["PRW"], "on the PRW dataset."),  # far in a long sentence: the part around it
    (["CUHK-SYSU"], "on the CUHK-SYSU dataset"),
    (["absent"], "By collaboratively alleviating"),  # not written: the sentence's start
])
def test_an_evidence_snippet_shows_the_name_it_is_evidence_for(names, shows):
    from kg.cli.related import SNIPPET, snippet

    sentence = ("By collaboratively alleviating the impact of scale misalignment and enhancing pseudo-label reliability, "
                "our approach achieves state-of-the-art performance on two benchmark person search datasets, with "
                "82.3% mAP and 84.0% top-1 on the CUHK-SYSU dataset, 41.7% mAP and 82.4% top-1 on the PRW dataset.")
    cut = snippet(sentence, names)
    assert shows in cut and len(cut) <= SNIPPET and ("..." in cut)
    assert not any(w and w not in sentence for w in cut.replace("...", " ").split())  # whole words only
    assert snippet("A short sentence.", ["short"]) == "A short sentence."


def test_the_papers_of_a_concept_list_those_whose_title_names_it_first(tmp_path):
    import kg
    from kg.related.index import DIRECTORY, RelatedIndex

    src = tmp_path / "papers.jsonl"
    src.write_text("".join(json.dumps(r) + "\n" for r in [
        *TITLED, {"id": "t5", "title": "A Benchmark of Everything",
                  "text": "We benchmark detectors and human pose estimation models on COCO and report AP."}]))
    g = kg.build([str(src)], tmp_path / "out").graph
    for report in (around_concept(g, "Task", "human pose estimation"),
                   RelatedIndex.load(tmp_path / "out" / DIRECTORY).around_concept("Task", "human pose estimation")):
        names = [name for _, name, _ in report.papers]
        assert names[:2] == ["Fast Human Pose Estimation", "Human Pose Estimation with Vision Transformers"], names
        assert set(names[2:]) == {"A Benchmark of Everything", "Object Detection at Scale"}  # then the rest by name


def test_by_keeps_only_papers_sharing_a_concept_of_those_kinds_even_all_four(seed_build, capsys):
    """``--by`` lists the papers sharing a concept of its kinds, whichever and however many; without it a paper
    sharing only words with the query is a hit too."""
    out = str(seed_build[1])
    hits = {}
    for by in ([], ["--by", "task"], ["--by", "dataset,task,method,metric"]):
        assert main(["related", "SCALE", "--graph", out, "--top", "50", "--format", "json", *by]) == 0
        hits[" ".join(by)] = json.loads(capsys.readouterr().out)["hits"]
    assert any(not h["shared"] for h in hits[""])  # (words alone)
    assert hits["--by task"] and all(h["shared"] for h in hits["--by task"])
    assert [h["paper"] for h in hits["--by dataset,task,method,metric"]] == [h["paper"] for h in hits[""]
                                                                            if h["shared"]]
    g = seed_build[0].graph
    assert [h.paper for h in related(g, find_paper(g, "SCALE"), top=50, weights=weights_for(["dataset", "task",
            "method", "metric"]), shared_only=True)] == [h["paper"] for h in hits["--by dataset,task,method,metric"]]


def test_by_says_how_it_differs_from_the_saved_query_related_by(capsys):
    with pytest.raises(SystemExit):
        main(["related", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "only papers sharing a concept of these kinds" in text and "related_by" in text


EVIL = [  # (title, url): markup, HTML and addresses that are no http(s) links
    ("<script>alert(1)</script>", "javascript:alert(1)"), ("Bold <b>claims</b> & `code", "http://x.org/a b"),
    ("Link](http://evil.example) trick", "https://x.org/\"onmouseover=\"a(1)"), ("[Re] Labels_v2 | *study*", None)]


@pytest.fixture(scope="module")
def evil_markdown(tmp_path_factory):
    """A build whose titles, urls and abstracts carry markdown and HTML, all on CIFAR-10."""
    import kg as _kg

    tmp = tmp_path_factory.mktemp("md")
    src = tmp / "p.jsonl"
    src.write_text("".join(json.dumps({"id": f"e{i}", "title": t, "url": u, "venue": "X", "year": 2022,
                                       "text": f"We evaluate on CIFAR-10 <b>bold</b> [x](javascript:y) paper {i}."})
                           + "\n" for i, (t, u) in enumerate(EVIL)), encoding="utf-8")
    _kg.build([str(src)], tmp / "out")
    return tmp / "out"


@pytest.mark.parametrize("query", [["--dataset", "CIFAR-10"], ["e0"]])
def test_markdown_shows_the_papers_text_as_text_and_links_http_only(evil_markdown, capsys, query):
    assert main(["related", *query, "--graph", str(evil_markdown), "--format", "markdown"]) == 0
    out = capsys.readouterr().out
    assert not re.search(r"(?<!\\)[<>&]", out) and not re.search(r"(?<!\\)\]\((?!https?://)", out)
    assert "\\<script\\>alert(1)\\</script\\>" in out
    assert "\\<b\\>bold\\</b\\> \\[x\\](javascript:y)" in out or query == ["e0"]  # (the sentences of a concept)
    assert "(http://x.org/a%20b)" in out and "(https://x.org/%22onmouseover=%22a%281%29)" in out
    assert "[Link\\](http://evil.example) trick](https://" in out
    assert "claims\\</b\\> \\&" in out and "\\[Re\\] Labels\\_v2 \\| study" in out


def test_markdown_text_and_links():
    from kg.cli import markdown as md

    assert md.text("a\n <i>b</i>  [c](d) *e* _f_ `g` | h ~ $i$ & j") == \
        "a \\<i\\>b\\</i\\> \\[c\\](d) \\*e\\* \\_f\\_ \\`g\\` \\| h \\~ \\$i\\$ \\& j"
    assert md.url("https://en.wikipedia.org/wiki/Foo_(bar)") == "https://en.wikipedia.org/wiki/Foo_%28bar%29"
    assert md.url("HTTP://x.org/é?q=a b#f") == "HTTP://x.org/%C3%A9?q=a%20b#f"
    assert [md.url(u) for u in ("javascript:alert(1)", "data:text/html,x", "//x.org", "x.html", "", None)] == \
        [None] * 6
    assert md.link("T [1]", "ftp://x.org/f") == "T \\[1\\]"


def test_evidence_lines_show_sentences_as_they_read():
    from kg.cli.related import snippet

    assert snippet(r"We use $\alpha$-Net on *CIFAR-10*.", ["CIFAR-10"]) == "We use α-Net on CIFAR-10."
    assert snippet("Plain text stays.", ["text"]) == "Plain text stays."


def test_the_words_of_a_formula_make_no_texts_alike(tmp_path, capsys):
    from kg.related.index import DIRECTORY, RelatedIndex

    import kg

    papers = [{"id": "f1", "title": "Phase Retrieval with Generative Priors",
               "text": r"We recover $\mathbf{x} \in \mathbb{R}^n$ from $\mathcal{O}(\frac{1}{\epsilon})$ samples."},
              {"id": "f2", "title": "Kernel Ridge Regression",
               "text": r"We bound $\|\mathbf{f}\|_{\mathcal{H}}$ over $\mathbb{R}^d$ at rate $\frac{1}{n}$."},
              {"id": "f3", "title": "Curious Agents", "text": "Agents explore with curiosity."}]
    src = tmp_path / "papers.jsonl"
    src.write_text("".join(json.dumps(r) + "\n" for r in papers), encoding="utf-8")
    g = kg.build([str(src)], tmp_path / "out").graph
    index = RelatedIndex.load(tmp_path / "out" / DIRECTORY)
    for hits in (related(g, find_paper(g, "f1"), top=3), index.related(find_paper(g, "f1"), top=3)):
        assert all(h.tfidf == 0.0 and not h.words for h in hits)
    assert main(["related", r"bounds in $\mathbb{R}^n$ with \mathcal{H}", "--graph", str(tmp_path / "out"),
                 "--format", "json"]) == 0
    assert all(h["tfidf"] == 0.0 for h in json.loads(capsys.readouterr().out)["hits"])



def test_a_text_query_of_one_short_sentence_is_read_as_a_title():
    from kg.related.ranking import text_concept_keys

    # title case: "Point Imitation Learning" is no task; the title's reading names the method and the task
    assert text_concept_keys("Proximal Point Imitation Learning.") == text_concept_keys(
        "proximal point imitation learning.") == {("Method", "proximalpointmethod"), ("Task", "imitationlearning")}


def test_a_concept_is_named_by_the_vocabularys_other_names_of_it(seed_build):
    from kg.concept_names import match_concept

    # the papers write "COCO" only: the vocabulary's "MS-COCO" and "Microsoft COCO" name it too
    datasets = [("dataset:coco", "dataset:coco", "COCO", []), ("dataset:cococ", "dataset:cococ", "COCO-C", [])]
    assert match_concept(datasets, "Dataset", "MS-COCO") == match_concept(datasets, "Dataset", "Microsoft COCO") \
        == "dataset:coco"
    with pytest.raises(ValueError, match="no Dataset named 'MS-COCO-X'"):
        match_concept(datasets, "Dataset", "MS-COCO-X")
    report = around_concept(seed_build[0].graph, "Dataset", "MS COCO")
    assert report.name == "COCO"
