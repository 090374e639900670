"""kg build's output directory: never an input, locked while a build writes it, and every file published whole."""
from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import networkx as nx
import pytest

from kg.corpus import read_corpus


def _abstract(paper_id: str) -> str:
    return json.dumps({"id": paper_id, "text": f"We propose {paper_id}Net and evaluate it on ImageNet."}) + "\n"


def test_a_directory_a_build_wrote_into_gives_none_of_its_outputs_as_inputs(tmp_path):
    (tmp_path / "papers.jsonl").write_text(_abstract("a"))
    (tmp_path / "mentions.jsonl").write_text(_abstract("m"))  # as a build writes it
    (tmp_path / "graph.json").write_text(json.dumps([{"id": "g", "text": "We propose GNet."}]))
    assert sorted(p.id for p in read_corpus([str(tmp_path)]).papers) == ["a", "g", "m"]  # not a build's: all read
    (tmp_path / ".kg.lock").write_text("")
    assert [p.id for p in read_corpus([str(tmp_path)]).papers] == ["a"]


# --- output size -----------------------------------------------------------------------------------------------

WORDS = ("we propose a novel transformer model trained on ImageNet and CIFAR-10 with BERT for question answering and "
         "image classification achieving accuracy of 95 percent using graph neural networks and reinforcement "
         "learning").split()


def _size(path) -> int:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file())


def test_one_huge_abstract_without_sentence_punctuation_gives_bounded_output(tmp_path):
    """99,990 characters, no full stop: every mention's "sentence" is a capped window, and an edge repeats the text of
    only a few of them (about 700 MB of output before; 14 MB now, 5 MB of it the store's and the views' floor)."""
    import random

    from kg.build.builder import build
    from kg.build.elements import EVIDENCE_SENTENCES
    from kg.nlp.extract import MAX_EVIDENCE

    rng, words, length = random.Random(1), [], 0
    while length < 99_990:
        words.append(rng.choice(WORDS))
        length += len(words[-1]) + 1
    text = " ".join(words)[:99_990]
    src = tmp_path / "huge.jsonl"
    src.write_text(json.dumps({"id": "huge", "title": "A huge abstract", "text": text}) + "\n")
    out = tmp_path / "out"
    build([str(src)], out)
    assert _size(out) < 20_000_000, {f.name: _size(f) if f.is_dir() else f.stat().st_size for f in out.iterdir()}
    graph = json.loads((out / "graph.json").read_text())
    assert len(graph["links"]) > 100
    for link in graph["links"]:
        quoted = [e["sentence"] for e in link.get("evidence", []) if "sentence" in e]
        assert len(quoted) <= EVIDENCE_SENTENCES and all(len(s) <= MAX_EVIDENCE for s in quoted)
        assert len(json.dumps(link)) < 200_000


# --- one build at a time, files published whole ---------------------------------------------------------------

ROOT = Path(__file__).resolve().parents[1]
KG = Path(sys.executable).with_name("kg")


def test_a_locked_output_directory_is_refused_after_a_short_wait(tmp_path):
    from kg.build.outdir import LOCK, locked
    from kg.errors import OutputLocked

    with locked(tmp_path / "out"):
        started = time.monotonic()
        with pytest.raises(OutputLocked, match="another kg build is writing"), locked(tmp_path / "out", wait=0.3):
            pass
        assert time.monotonic() - started >= 0.3
    with locked(tmp_path / "out", wait=0):  # released
        assert (tmp_path / "out" / LOCK).exists()


def test_two_builds_into_one_directory_one_waits_or_fails_in_one_line(tmp_path):
    out = tmp_path / "out"
    procs = [subprocess.Popen([str(KG), "build", str(ROOT / "examples" / "icml"), "--out", str(out), "--quiet"],
                              cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(2)]
    results = [(p.wait(timeout=300), p.stdout.read(), p.stderr.read()) for p in procs]
    for p in procs:
        p.stdout.close()
        p.stderr.close()
    assert sorted(code for code, _, _ in results) in ([0, 0], [0, 2]), results
    for code, _, err in results:
        if code == 2:
            assert err == f"kg: another kg build is writing {out}\n"
    graph = json.loads((out / "graph.json").read_text())
    assert nx.node_link_graph(graph, edges="links").number_of_nodes() > 38
    assert not list(out.glob(".kg-new-*"))


def test_a_build_that_fails_while_writing_leaves_the_earlier_build_whole(tmp_path, monkeypatch):
    import kg.viz
    from kg.build.builder import build

    src = tmp_path / "papers.jsonl"
    src.write_text(_abstract("a") + _abstract("b"))
    out = tmp_path / "out"
    build([str(src)], out)
    before = {f.name: f.read_bytes() for f in out.iterdir() if f.is_file() and f.name != ".kg.lock"}
    views = sorted(p.name for p in (out / "views" / "datasets").iterdir())

    def broken(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(kg.viz, "render_site", broken)
    src.write_text(_abstract("a") + _abstract("b") + _abstract("c"))
    with pytest.raises(OSError):
        build([str(src)], out)
    assert {f.name: f.read_bytes() for f in out.iterdir() if f.is_file() and f.name != ".kg.lock"} == before
    assert sorted(p.name for p in (out / "views" / "datasets").iterdir()) == views
    assert not list(out.glob(".kg-new-*"))
    monkeypatch.undo()
    report = build([str(src)], out)
    assert report.papers == 3 and all(f.exists() and ".kg-new-" not in str(f) for f in report.files)
    assert len(json.loads((out / "graph.json").read_text())["nodes"]) > len(json.loads(before["graph.json"])["nodes"])


def test_building_a_directory_into_itself_twice_reads_only_its_inputs(tmp_path):
    from kg.build.builder import build

    (tmp_path / "papers.jsonl").write_text(_abstract("a") + _abstract("b"))
    assert build([str(tmp_path)], tmp_path).papers == 2
    assert (tmp_path / "mentions.jsonl").exists() and (tmp_path / "graph.json").exists()
    report = build([str(tmp_path)], tmp_path)
    assert report.papers == 2 and not report.problems


def test_kg_extract_replaces_its_out_file_only_when_whole(tmp_path, monkeypatch, capsys):
    import kg.sinks.predictions
    from kg.cli import main

    src, out = tmp_path / "papers.jsonl", tmp_path / "mentions.jsonl"
    src.write_text(_abstract("a") + _abstract("b"))
    out.write_text("earlier\n")

    def full_disk(items, path):
        path.write_text("half a line")
        raise OSError(28, "No space left on device", str(path))

    monkeypatch.setattr(kg.sinks.predictions, "write_predictions", full_disk)
    assert main(["extract", str(src), "--out", str(out)]) == 2
    assert "No space left on device" in capsys.readouterr().err
    assert out.read_text() == "earlier\n" and sorted(p.name for p in tmp_path.iterdir()) == ["mentions.jsonl",
                                                                                          "papers.jsonl"]
    monkeypatch.undo()
    assert main(["extract", str(src), "--out", str(out)]) == 0
    assert [json.loads(line)["id"] for line in out.read_text().splitlines()] == ["a", "b"]
