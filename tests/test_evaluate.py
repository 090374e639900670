"""kg eval uses the same definitions as the project's scorer (``score.py`` of the gold data's tools), checked
against that scorer's recorded output on the documents below (``tests/fixtures/project-scorer-output.json``: its
``--json`` output for GOLD and PRED written as two JSONL files, ``--labels METHOD,TASK,DATASET,METRIC``)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from kg.cli import main
from kg.train.scorer import read_jsonl, score

RECORDED = Path(__file__).parent / "fixtures" / "project-scorer-output.json"
LABELS = ["METHOD", "TASK", "DATASET", "METRIC"]

GOLD = [
    {"id": "a", "text": "We propose FooNet and test it on CIFAR-10 datasets with accuracy.",
     "spans": [{"start": 11, "end": 17, "label": "METHOD"}, {"start": 33, "end": 41, "label": "DATASET"},
               {"start": 57, "end": 65, "label": "METRIC"}],
     "entities": {"METHOD": [["FooNet"]], "PROPOSED": [["FooNet", "Foo Network"]], "DATASET": [["CIFAR-10"]],
                  "METRIC": [["accuracy"]]}},
    {"id": "b", "text": "Image classification with ResNets.", "spans": [{"start": 0, "end": 20, "label": "TASK"}],
     "entities": {"TASK": [["image classification"]], "METHOD": [["ResNet", "residual networks"]]}},
    {"id": "c", "text": "Nothing predicted here.", "spans": [], "entities": {"TASK": [["nothing"]]}},
]
PRED = [
    {"id": "a", "mentions": [{"start": 11, "end": 17, "label": "MODEL"}, {"start": 30, "end": 41, "label": "BENCHMARK"},
                             {"start": 0, "end": 2, "label": "METRIC"}],
     "concepts": {"MODEL": ["FooNet"], "BENCHMARK": ["CIFAR10 dataset"], "METRIC": ["Accuracy", "F1"]}, "proposed": ["Foo Network"]},
    {"id": "b", "mentions": [{"start": 0, "end": 5, "label": "TASK"}],
     "concepts": {"TASK": ["image classification"], "METHOD": ["ResNets", "VGG"]}, "proposed": ["VGG"]},
]


@pytest.fixture
def files(tmp_path):
    g, p = tmp_path / "gold.jsonl", tmp_path / "pred.jsonl"
    g.write_text("".join(json.dumps(x) + "\n" for x in GOLD))
    p.write_text("".join(json.dumps(x) + "\n" for x in PRED))
    return g, p


def test_scores_agree_with_the_project_scorers_recorded_output(files):
    theirs = json.loads(RECORDED.read_text(encoding="utf-8"))
    ours = score(read_jsonl(files[0]), read_jsonl(files[1]), LABELS)
    assert ours["mention"] == theirs["mention"]
    assert ours["document"] == theirs["document"]
    assert ours["missing_predictions"] == theirs["missing_predictions"]


def test_hand_checked_numbers(files):
    ours = score(read_jsonl(files[0]), read_jsonl(files[1]), LABELS)
    assert ours["mention"]["METHOD"]["strict"]["f1"] == 1.0
    assert ours["mention"]["DATASET"]["strict"]["p"] == 0.0 and ours["mention"]["DATASET"]["partial"]["f1"] == 1.0
    assert ours["document"]["PROPOSED"] == {"p": 0.5, "r": 1.0, "f1": 0.6667, "pred": 2, "gold": 1}
    assert ours["document"]["DATASET"]["f1"] == 1.0  # "CIFAR10 dataset" matches "CIFAR-10"


def test_eval_command_runs_kg_on_a_gold_file(files, capsys):
    assert main(["eval", str(files[0]), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["docs"] == 3 and "mention" in result and "DATASET" in result["document"]


def test_eval_command_reports_a_bad_file(tmp_path, capsys):
    bad = tmp_path / "bad.jsonl"
    bad.write_text("{not json\n")
    assert main(["eval", str(bad)]) == 2
    assert f"{bad}:1:" in capsys.readouterr().err


def test_kg_eval_names_what_a_gold_file_lacks_and_shows_an_empty_label_as_n_a(tmp_path, capsys):
    from kg.cli import main

    def gold(name: str, *lines: str) -> str:
        (tmp_path / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
        return str(tmp_path / name)

    record = '{"id": "a", "text": "We use BERT.", "spans": [{"start": 7, "end": 11, "label": "METHOD"}]}'
    cases = [(gold("plain.jsonl", '{"id": "a", "text": "We use BERT."}'), "plain.jsonl: no annotations to score"),
             (gold("noid.jsonl", record, '{"text": "x"}'), 'noid.jsonl:2: a record needs an "id"'),
             (gold("bad.jsonl", record, "{bad"), "bad.jsonl:2: not JSON")]
    for path, message in cases:
        capsys.readouterr()
        assert main(["eval", path, "--fast"]) == 2
        assert message in capsys.readouterr().err
    assert main(["eval", gold("ok.jsonl", record), "--fast", "--labels", "METHOD,TASK"]) == 0
    out = capsys.readouterr().out
    assert "mention  TASK     n/a  (gold 0, pred 0)" in out and "mention  METHOD   strict P 1.000" in out


def test_mention_scores_count_only_the_documents_with_spans():
    from kg.train.scorer import score

    gold = {"a": {"id": "a", "text": "We use BERT.", "spans": [{"start": 7, "end": 11, "label": "METHOD"}]},
            "b": {"id": "b", "text": "We use GPT-2.", "entities": {"METHOD": [["GPT-2"]]}}}
    pred = {"a": {"mentions": [{"start": 7, "end": 11, "label": "METHOD"}], "concepts": {"METHOD": ["BERT"]}},
            "b": {"mentions": [{"start": 7, "end": 12, "label": "METHOD"}], "concepts": {"METHOD": ["GPT-2"]}}}
    result = score(gold, pred, ["METHOD"])
    assert result["mention"]["METHOD"]["strict"] == {"p": 1.0, "r": 1.0, "f1": 1.0, "pred": 1, "gold": 1}
    assert result["document"]["METHOD"]["gold"] == 1
