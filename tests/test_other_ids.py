"""A paper read under two ids (a preprint's DOI and the published DOI, two input ids) is one paper whose other ids
are kept: on its node in every output of a build (graph.json, GraphML, the Neo4j CSVs, the embedded store) and as
names of the paper in ``kg related`` (from the index and from graph.json), ``kg query`` and ``kg viz --focus``."""
from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import networkx as nx
import pytest

import kg
from kg.related.index import DIRECTORY
from kg.store.embedded import connect
from kg.store.queries import run_embedded

from .helpers import run

FOO = ("We propose FooNet, a convolutional network for image classification. FooNet reaches 81.2% top-1 accuracy on "
       "ImageNet with half the parameters of ResNet-50, and transfers to object detection on COCO.")
BAR = ("We introduce BarNet, a transformer for semantic segmentation. BarNet reaches 52.1 mIoU on ADE20K and 84.0 "
       "mIoU on Cityscapes with a third of the computation of SegFormer, and it trains in half the time.")
BAZ = ("We present BazRL, an offline reinforcement learning method that regularises the policy towards the data. "
       "BazRL outperforms CQL and IQL on the D4RL locomotion and AntMaze tasks with fewer gradient steps.")
QUX = "We study QuxBoost for tabular classification on the Adult dataset and report accuracy."
RECORDS = [
    {"doi": "10.1101/2024.01.01.000001", "venue": "bioRxiv", "year": 2023, "title": "FooNet: fast nets",
     "abstract": FOO},
    {"doi": "10.1038/s41586-024-00001-x", "venue": "Nature", "year": 2024, "title": "FooNet: Fast Nets",
     "abstract": FOO},
    {"id": "openreview:Bar1", "title": "BarNet", "abstract": BAR},
    {"id": "openreview:Bar2", "title": "BarNet", "abstract": BAR},
    {"doi": "10.5555/BAZ.2024", "title": "BazRL", "abstract": BAZ,
     "other_ids": ["arXiv:2401.99999v2", "CorpusId:42", "https://doi.org/10.5555/BAZ-PREPRINT"]},
    {"id": "qux", "title": "QuxBoost", "abstract": QUX},
]
FOO_ID, BAR_ID, BAZ_ID = "paper:10.1038/s41586-024-00001-x", "paper:openreview:Bar1", "paper:10.5555/baz.2024"
OTHER_IDS = {FOO_ID: ["10.1101/2024.01.01.000001"], BAR_ID: ["openreview:Bar2"],
             BAZ_ID: ["2401.99999", "CorpusId:42", "10.5555/baz-preprint"], "paper:qux": []}
TITLES = {FOO_ID: "FooNet: fast nets", BAR_ID: "BarNet", BAZ_ID: "BazRL"}
# what a user may type for a paper: a DOI in any case or with its resolver, an arXiv id in any version, an input id
NAMES = [("10.1101/2024.01.01.000001", FOO_ID), ("10.1101/2024.01.01.000001".upper(), FOO_ID),
         ("https://doi.org/10.1101/2024.01.01.000001", FOO_ID), ("openreview:Bar2", BAR_ID),
         ("paper:openreview:Bar2", BAR_ID), ("2401.99999", BAZ_ID), ("arXiv:2401.99999v3", BAZ_ID),
         ("CorpusId:42", BAZ_ID), ("10.5555/baz-PREPRINT", BAZ_ID)]


@pytest.fixture(scope="module")
def merged(tmp_path_factory) -> dict[str, Path]:
    """The records built as ``kg build`` builds them ("index"), and the same build without its related/ index,
    answered from graph.json ("graph")."""
    tmp = tmp_path_factory.mktemp("other-ids")
    path = tmp / "papers.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in RECORDS), encoding="utf-8")
    out = tmp / "out"
    kg.build([str(path)], out)
    graph = tmp / "graph"
    shutil.copytree(out, graph, ignore=shutil.ignore_patterns(DIRECTORY, "views"))
    return {"index": out, "graph": graph}


def paper_other_ids(nodes) -> dict[str, list[str]]:
    """The other ids of the paper nodes among ``nodes`` ((id, attributes) pairs)."""
    return {n: d["other_ids"] for n, d in nodes if d.get("type") == "Paper"}


def test_the_merged_papers_keep_their_other_ids_in_graph_json(merged):
    data = json.loads((merged["index"] / "graph.json").read_text(encoding="utf-8"))
    assert paper_other_ids((n["id"], n) for n in data["nodes"]) == OTHER_IDS


def test_graphml_keeps_the_other_ids_as_a_json_list_as_it_keeps_the_authors(merged):
    g = nx.read_graphml(merged["index"] / "graph.graphml")
    assert {n: json.loads(d["other_ids"]) for n, d in g.nodes(data=True) if d.get("type") == "Paper"} == OTHER_IDS


def test_the_neo4j_import_csv_keeps_the_other_ids_as_a_string_array(merged):
    with (merged["index"] / "neo4j" / "nodes_Paper.csv").open(encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    assert {r["id:ID"]: [i for i in r["other_ids:string[]"].split("|") if i] for r in rows} == OTHER_IDS


def test_the_embedded_store_keeps_the_other_ids(merged):
    conn = connect(merged["index"] / "graph.lbug")
    try:
        _, rows = run_embedded(conn, "MATCH (p:Paper) RETURN p.id, p.other_ids", {})
    finally:
        conn.close()
    assert dict(rows) == OTHER_IDS


@pytest.mark.parametrize("source", ["index", "graph"])
@pytest.mark.parametrize("name, paper", NAMES)
def test_kg_related_names_a_paper_by_any_of_its_other_ids(merged, capsys, source, name, paper):
    code, out, err = run(capsys, "related", name, "--graph", str(merged[source]), "--format", "json")
    assert code == 0, err
    assert json.loads(out)["paper"] == paper
    assert "older kg" not in err


@pytest.mark.parametrize("name, paper", NAMES)
def test_kg_query_and_kg_viz_name_a_paper_by_any_of_its_other_ids(merged, capsys, tmp_path, name, paper):
    code, out, err = run(capsys, "query", "paper_concepts", "--param", f"paper={name}",
                         "--graph", str(merged["index"]), "--format", "json")
    assert code == 0, err
    code, by_id, err = run(capsys, "query", "paper_concepts", "--param", f"paper={paper}",
                           "--graph", str(merged["index"]), "--format", "json")
    assert code == 0 and json.loads(out) == json.loads(by_id) != [], err
    code, _, err = run(capsys, "viz", str(merged["graph"]), "--kind", "paper", "--focus", name,
                       "--out", str(tmp_path / "v.html"))
    assert code == 0, err
    assert f"<title>Paper: {TITLES[paper]}" in (tmp_path / "v.html").read_text(encoding="utf-8")
