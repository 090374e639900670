"""A user's stoplist and type overrides: kg build/extract --stoplist FILE --types FILE."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from kg.errors import InputError
from kg.nlp.user_lists import load_stoplist, load_types, pipeline_with_lists

ROOT = Path(__file__).resolve().parents[1]
KG = [sys.executable, "-m", "kg.cli"]
PAPER = {"id": "u1", "text": "We study image classification on ScanObjectNN with a PointNet backbone."}


def test_lists_are_read_with_comments_and_folded_names(tmp_path):
    stop = tmp_path / "stop.txt"
    stop.write_text("Image Classification  # umbrella in my corpus\n\n# a comment line\nLLMs\n", encoding="utf-8")
    assert load_stoplist(stop) == {"imageclassification", "llm"}
    types = tmp_path / "types.tsv"
    types.write_text("ScanObjectNN\tmethod\nsemantic segmentation,NONE\n", encoding="utf-8")
    assert load_types(types) == {"scanobjectnn": "METHOD", "semanticsegmentation": "NONE"}


def test_a_bad_line_names_the_file_and_line(tmp_path):
    types = tmp_path / "types.tsv"
    types.write_text("ok\tTASK\nfoo\tBAR\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"types.tsv:2: expected NAME<TAB>LABEL"):
        load_types(types)


def test_the_config_changes_with_the_lists_contents(tmp_path):
    from kg.nlp.pipeline import config_path

    stop = tmp_path / "stop.txt"
    stop.write_text("image classification\n", encoding="utf-8")
    first = pipeline_with_lists(config_path("fast"), str(stop))
    stop.write_text("image classification\nPointNet\n", encoding="utf-8")
    assert pipeline_with_lists(config_path("fast"), str(stop)) != first
    assert pipeline_with_lists(config_path("fast")) == config_path("fast")


def test_the_lists_leave_no_file_behind_and_the_cache_sees_them(tmp_path, monkeypatch):
    import tempfile

    from kg.build.cache import pipeline_fingerprint
    from kg.nlp.pipeline import config_path

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    stop = tmp_path / "stop.txt"
    stop.write_text("image classification\n", encoding="utf-8")
    first = pipeline_with_lists(config_path("fast"), str(stop))
    assert list((tmp_path / "tmp").iterdir()) == []
    stop.write_text("PointNet\n", encoding="utf-8")
    second = pipeline_with_lists(config_path("fast"), str(stop))
    fingerprints = {pipeline_fingerprint(c) for c in (config_path("fast"), first, second)}
    assert len(fingerprints) == 3  # a build extracts again when the lists change


@pytest.mark.parametrize("workers", ["1", "2"])
def test_extract_applies_the_stoplist_and_the_types(tmp_path, workers):
    src = tmp_path / "p.jsonl"
    src.write_text(json.dumps(PAPER) + "\n", encoding="utf-8")
    (tmp_path / "stop.txt").write_text("image classification\n", encoding="utf-8")
    (tmp_path / "types.tsv").write_text("ScanObjectNN\tMETHOD\n", encoding="utf-8")
    (tmp_path / "tmp").mkdir()
    env = {**os.environ, "TMPDIR": str(tmp_path / "tmp")}
    run = subprocess.run(KG + ["extract", str(src), "--out", str(tmp_path / "plain.jsonl")], cwd=ROOT,
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    plain = json.loads((tmp_path / "plain.jsonl").read_text())["concepts"]
    assert "image classification" in plain["TASK"] and "ScanObjectNN" in plain["DATASET"]
    run = subprocess.run(KG + ["extract", str(src), "--out", str(tmp_path / "user.jsonl"), "--stoplist",
                               str(tmp_path / "stop.txt"), "--types", str(tmp_path / "types.tsv"),
                               "--workers", workers],
                         cwd=ROOT, capture_output=True, text=True, env=env)
    assert run.returncode == 0, run.stderr
    user = json.loads((tmp_path / "user.jsonl").read_text())["concepts"]
    assert "image classification" not in user.get("TASK", []) and "ScanObjectNN" in user["METHOD"]
    assert "ScanObjectNN" not in user.get("DATASET", [])  # (in the extraction processes too)
    assert list((tmp_path / "tmp").glob("kg-pipeline-*")) == []  # no config file left in the temporary directory


def test_a_malformed_types_file_is_one_line_and_exit_2(tmp_path):
    src = tmp_path / "p.jsonl"
    src.write_text(json.dumps(PAPER) + "\n", encoding="utf-8")
    (tmp_path / "types.tsv").write_text("foo\tBAR\n", encoding="utf-8")
    run = subprocess.run(KG + ["build", str(src), "--out", str(tmp_path / "out"), "--types",
                               str(tmp_path / "types.tsv")], cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 2 and run.stderr.strip().splitlines()[-1].endswith("got 'foo\\tBAR'")
    assert "Traceback" not in run.stderr


def test_dask_workers_are_named_the_mode_with_the_lists(tmp_path):
    from kg.build.distributed import _local_config, portable_config
    from kg.nlp.pipeline import config_path
    from kg.nlp.settings import config_settings

    stop = tmp_path / "stop.txt"
    stop.write_text("image classification\n", encoding="utf-8")
    config = pipeline_with_lists(config_path("fast"), str(stop))
    spec = portable_config(config)  # a worker finds the mode's config in its own installation
    assert config_settings(spec) == ("mode:fast", config_settings(config)[1])
    assert config_settings(config)[1]["components.kg_specificity.stoplist"] == str(stop.resolve())
    assert _local_config(spec) == config
