"""kg build's output directory: never an input, locked while a build writes it, and every file published whole."""
from __future__ import annotations

import json

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
