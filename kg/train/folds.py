"""Cross-validation folds shared by the NER's and the tagger's training: the held-out corpora and their labels,
the split, each fold's signature (what its model was trained from), and the scoring of held-out predictions; and
what a trained model records about its data (:func:`data_files`, :func:`label_handling`)."""
from __future__ import annotations

import json
import random
from collections.abc import Sequence
from pathlib import Path

from kg.train.data import CORPORA, DEV_CORPUS, TRAIN_CORPORA, gold_data_dir, read_gold, sha256

HELD_OUT = ("tdmsci", "scirex")  # the corpora cross-validation splits (SciERC has its own dev set)
CV_LABELS = {"tdmsci": ("TASK", "DATASET", "METRIC"), "scirex": ("METHOD", "TASK", "DATASET", "METRIC"),
             "scierc": ("METHOD", "TASK", "METRIC")}  # scierc: only with held_out=("scierc",) (tools/dev/scierc_cv.py)


def data_files(data_dir: Path | None = None) -> list[dict]:
    """Name, role, sha256 and size of every gold file used."""
    data_dir = data_dir or gold_data_dir()
    rows = []
    for name in (*TRAIN_CORPORA, DEV_CORPUS):
        path = data_dir / CORPORA[name].file
        rows.append({"file": path.name, "role": "dev (early stopping)" if name == DEV_CORPUS else "train",
                     "sha256": sha256(path), "records": len(read_gold(path))})
    return rows


def label_handling() -> dict:
    """How each training and dev file's labels are mapped (per file name)."""
    return {CORPORA[name].file: CORPORA[name].describe() for name in (*TRAIN_CORPORA, DEV_CORPUS)}


def fold_signature(k: int, seed: int, fold: int, data_dir: Path | None = None, **recipe) -> dict:
    """What a cross-validation fold's model was trained from: the split (k, seed, fold), the gold files'
    hashes and the recipe (epochs, config hash, overrides). A fold directory keeps it in ``fold.json``."""
    data_dir = data_dir or gold_data_dir()
    names = sorted({*TRAIN_CORPORA, DEV_CORPUS, *HELD_OUT})
    return {"folds": k, "seed": seed, "fold": fold, **recipe,
            "data": {CORPORA[n].file: sha256(data_dir / CORPORA[n].file) for n in names}}


def fold_is_current(directory: Path, signature: dict) -> bool:
    """Whether the model in a fold directory was trained from ``signature`` (else it must be trained again:
    another split, seed, recipe or data would score documents the model saw)."""
    path = directory / "fold.json"
    return path.is_file() and json.loads(path.read_text()) == signature


def mark_fold(directory: Path, signature: dict) -> None:
    (directory / "fold.json").write_text(json.dumps(signature, indent=1, sort_keys=True) + "\n")


def folds(k: int, seed: int = 0, data_dir: Path | None = None,
          held_out: Sequence[str] = HELD_OUT) -> list[dict[str, set[str]]]:
    """``k`` disjoint folds of the record ids of each ``held_out`` corpus (TDMSci and SciREX unless told; shuffled
    with ``seed``)."""
    data_dir = data_dir or gold_data_dir()
    out: list[dict[str, set[str]]] = [{} for _ in range(k)]
    for name in held_out:
        ids = [str(r["id"]) for r in read_gold(data_dir / CORPORA[name].file)]
        random.Random(seed).shuffle(ids)
        for i in range(k):
            out[i][name] = set(ids[i::k])
    return out


def score_folds(result: dict, gold: dict[str, list[dict]], preds: dict[str, dict[str, list[dict]]], work: Path) -> dict:
    """Add the scores (:mod:`kg.train.scorer`) of the held-out predictions (per mode and corpus) and of the rules alone to
    ``result``; write the predictions (for error analysis) and ``crossval.json`` to ``work``."""
    from kg.train.evaluate import pipeline, predict, score, summary

    rules = pipeline(model=False)
    for name in gold:
        labels = CV_LABELS[name]
        result[name] = {"file": CORPORA[name].file, "labels": list(labels),
                        "rules_only": summary(score(gold[name], predict(gold[name], rules), labels))}
        for mode in preds:
            result[name][mode] = summary(score(gold[name], preds[mode][name], labels))
    work.mkdir(parents=True, exist_ok=True)
    for mode in preds:
        for name in gold:
            with (work / f"pred-{name}-{mode}.jsonl").open("w", encoding="utf-8") as fh:
                fh.writelines(json.dumps(r, ensure_ascii=False) + "\n" for r in preds[mode][name])
    (work / "crossval.json").write_text(json.dumps(result, indent=1))
    return result
