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
