"""Incremental builds, worker processes and Dask give exactly what a build from scratch gives."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

import kg
from kg.store.embedded import connect
from kg.store.queries import run_embedded

ROOT = Path(__file__).resolve().parents[1]
LIST_2026 = str(ROOT / "examples" / "icml" / "000_8cc6eddb209c11fc.txt")
LIST_2025 = str(ROOT / "examples" / "icml" / "002_66f4c0e3e087f8bd.txt")


def same_outputs(a: Path, b: Path) -> None:
    assert json.loads((a / "graph.json").read_text()) == json.loads((b / "graph.json").read_text())
    assert (a / "mentions.jsonl").read_text() == (b / "mentions.jsonl").read_text()
    for csv in sorted((b / "neo4j").glob("*.csv")):
        assert (a / "neo4j" / csv.name).read_text() == csv.read_text(), csv.name
    pages = sorted(p.relative_to(b).as_posix() for p in (b / "views").rglob("*.html"))
    assert sorted(p.relative_to(a).as_posix() for p in (a / "views").rglob("*.html")) == pages
    for page in pages:
        assert (a / page).read_bytes() == (b / page).read_bytes(), page
    q = "MATCH (p:Paper)-[e:EVALUATES_ON]->(d:Dataset) RETURN p.id, d.id, e.sentence ORDER BY p.id, d.id"
    assert run_embedded(connect(a / "graph.lbug"), q, {}) == run_embedded(connect(b / "graph.lbug"), q, {})


@pytest.fixture(scope="module")
def scratch(tmp_path_factory):
    out = tmp_path_factory.mktemp("scratch")
    kg.build([LIST_2026, LIST_2025], out)
    return out


def test_adding_a_list_equals_a_build_from_scratch(tmp_path, scratch):
    first = kg.build([LIST_2026], tmp_path)
    assert first.extracted == 19
    grown = kg.build([LIST_2025], tmp_path)
    assert grown.papers == 38 and grown.extracted == 19, "unchanged papers are not extracted again"
    same_outputs(tmp_path, scratch)


def test_rebuilding_the_same_inputs_extracts_nothing(tmp_path, scratch):
    kg.build([LIST_2026, LIST_2025], tmp_path)
    again = kg.build([LIST_2026, LIST_2025], tmp_path)
    assert again.extracted == 0
    same_outputs(tmp_path, scratch)


def test_prune_drops_papers_whose_inputs_are_gone(tmp_path, tmp_path_factory):
    only_2025 = tmp_path_factory.mktemp("only2025")
    kg.build([LIST_2025], only_2025)
    kg.build([LIST_2026, LIST_2025], tmp_path)
    pruned = kg.build([LIST_2025], tmp_path, prune=True)
    assert pruned.papers == 19 and pruned.extracted == 0
    same_outputs(tmp_path, only_2025)


def test_a_changed_pipeline_re_extracts(tmp_path, monkeypatch):
    kg.build([LIST_2025], tmp_path)
    monkeypatch.setattr("kg.build.cache.pipeline_fingerprint", lambda config="": "another-pipeline")
    assert kg.build([LIST_2025], tmp_path).extracted == 19


def test_worker_processes_give_the_same_graph(tmp_path, scratch):
    kg.build([LIST_2026, LIST_2025], tmp_path, workers=2)
    same_outputs(tmp_path, scratch)


def test_dask_local_cluster_gives_the_same_graph(tmp_path, scratch):
    pytest.importorskip("dask.distributed")
    report = kg.build([LIST_2026, LIST_2025], tmp_path, dask="local:2")
    assert report.extracted == 38
    same_outputs(tmp_path, scratch)


def test_dask_partitions_sent_a_few_at_a_time_come_back_in_input_order():
    pytest.importorskip("dask.distributed")
    from kg.corpus import read_corpus
    from kg.build.distributed import extract_on_dask
    from kg.nlp.extract import extract

    papers = read_corpus([LIST_2026, LIST_2025]).papers
    local = [(p.id, ex.mentions) for p, ex in extract(papers)]
    # 38 papers in partitions of 2: 19 partitions, more than the 3 a one-worker client keeps in flight
    remote = [(p.id, ex.mentions) for p, ex in extract_on_dask(papers, "local:1", partition=2)]
    assert remote == local


def test_accurate_mode_has_its_own_cache(tmp_path):
    from kg.build.cache import pipeline_fingerprint
    from kg.nlp.pipeline import config_path

    assert len({pipeline_fingerprint(config_path(m)) for m in ("fast", "default", "accurate")}) == 3


def _papers_jsonl(path: Path, records: list[dict]) -> str:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return str(path)


def test_a_changed_record_replaces_the_earlier_one(tmp_path, tmp_path_factory):
    old = [{"id": "p0", "title": "Old title", "text": "We propose FooNet for image classification on CIFAR-10."},
           {"id": "p1", "title": "Second", "text": "We study BERT on the GLUE benchmark and report accuracy."}]
    new = [{"id": "p0", "title": "New title", "text": "We propose BarNet for object detection on COCO."}, old[1]]
    inputs = tmp_path_factory.mktemp("inputs")
    kg.build([_papers_jsonl(inputs / "v1.jsonl", old)], tmp_path)
    again = kg.build([_papers_jsonl(inputs / "papers.jsonl", new)], tmp_path)
    assert again.papers == 2 and again.extracted == 1
    scratch = tmp_path_factory.mktemp("scratch-new")
    kg.build([str(inputs / "papers.jsonl")], scratch)
    same_outputs(tmp_path, scratch)
    nodes = json.loads((tmp_path / "graph.json").read_text())["nodes"]
    assert {n["title"] for n in nodes if n["type"] == "Paper"} == {"New title", "Second"}
    assert "FooNet" not in {n.get("name") for n in nodes}


def test_a_build_that_reads_no_paper_leaves_the_earlier_build_alone(tmp_path):
    kg.build([LIST_2025], tmp_path)
    before = (tmp_path / "graph.json").read_bytes()
    report = kg.build([str(tmp_path / "no-such-file.txt")], tmp_path, prune=True)
    assert report.papers == 0 and report.problems
    assert (tmp_path / "graph.json").read_bytes() == before
    assert kg.build([LIST_2025], tmp_path).extracted == 0  # the cache survived too


def test_a_build_stopped_while_writing_adds_none_of_its_papers_to_the_next(tmp_path, monkeypatch):
    """A build killed after extraction, while it writes its outputs, leaves the earlier build's papers in the
    cache: the next build of the first list alone has that list's papers only."""
    import kg.build.builder as builder

    kg.build([LIST_2026], tmp_path)

    def killed(*args, **kwargs):
        raise KeyboardInterrupt

    with monkeypatch.context() as m:
        m.setattr(builder, "write_outputs", killed)
        with pytest.raises(KeyboardInterrupt):
            kg.build([LIST_2026, LIST_2025], tmp_path)
    again = kg.build([LIST_2026], tmp_path)
    assert again.papers == 19 and again.extracted == 0


def test_the_summary_says_how_many_papers_of_earlier_builds_it_kept(tmp_path):
    kg.build([LIST_2026], tmp_path)
    grown = kg.build([LIST_2025], tmp_path)
    assert grown.kept == 19 and "kept        19 paper(s) of earlier builds" in grown.summary()
    assert kg.build([LIST_2025], tmp_path, prune=True).kept == 0


def test_workers_are_told_the_mode_not_a_path_of_this_machine():
    from kg.build.distributed import _local_config, portable_config
    from kg.nlp.pipeline import config_path

    for mode in ("fast", "default", "accurate"):
        assert portable_config(config_path(mode)) == f"mode:{mode}"
        assert _local_config(f"mode:{mode}") == config_path(mode)
    assert portable_config("/srv/my/config.cfg") == "/srv/my/config.cfg"  # a user's own config: that path


@pytest.mark.parametrize("address", ["local:0", "local:abc", "tcp://127.0.0.1:1"])
def test_a_bad_dask_address_is_a_clear_error(tmp_path, monkeypatch, address):
    from kg.errors import ClusterError

    pytest.importorskip("dask.distributed")
    monkeypatch.setattr("kg.build.distributed.CONNECT_TIMEOUT", "1s")
    with pytest.raises(ClusterError, match="--dask"):
        kg.build([LIST_2025], tmp_path, dask=address)


def test_an_extraction_crosses_processes_and_the_cache_as_plain_rows():
    """Workers send extractions back pickled, and the cache stores them as JSON: both keep every field, and the
    pickle holds rows, not a Mention or Span object per mention (those pickled ten times slower)."""
    import pickle

    from kg.build.cache import extraction_from_json, extraction_to_json
    from kg.build.jsontext import dumpb
    from kg.model import Extraction, Mention, Result, Span

    sent = Span(0, 40)
    ex = Extraction("p1", [Mention(4, 9, "METHOD", "LoRA", "Low-Rank Adaptation", "abbreviation", sent, True, False, 0.8),
                           Mention(20, 28, "DATASET", "ImageNet", "ImageNet", "gazetteer", sent, False, True)],
                    [Result("82.3%", "LoRA", "ImageNet", None, Span(41, 80))],
                    {"Low-Rank Adaptation": ["LoRA"]},
                    [Mention(30, 36, "METHOD", "models", "models", "model", sent, confidence=0.5)])
    blob = pickle.dumps(ex)
    assert pickle.loads(blob) == ex
    assert b"Mention" not in blob and b"Span" not in blob
    assert extraction_from_json("p1", json.loads(dumpb(extraction_to_json(ex)))) == ex
    assert Extraction.from_rows(*ex.rows()) == ex


def test_the_pipeline_fingerprint_reads_every_module_of_the_extraction():
    from pathlib import Path

    from kg.build.cache import fingerprint_files
    from kg.nlp import pipeline

    nlp_dir = Path(pipeline.__file__).parent
    files = set(fingerprint_files())
    modules = {f for f in nlp_dir.rglob("*.py") if "__pycache__" not in f.parts}
    assert nlp_dir / "components" / "specificity.py" in modules and modules <= files
    assert nlp_dir / "_tagger.c" in files and nlp_dir / "data" / "lexicon" / "cues.json" in files
    corpus = nlp_dir.parent / "corpus"  # extraction cleans the text first: a new cleaning re-extracts
    assert {corpus / "clean.py", corpus / "markup.py"} <= files
