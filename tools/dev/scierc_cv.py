"""Cross-validated predictions of the default pipeline on SciERC train: five fold taggers, each trained without
one fifth of SciERC train (and on everything else `kg train` uses), predict that fifth.

SciERC dev has 50 abstracts (381 mentions): one mention more or less right moves its F1 by about 0.003, so a
rule change measured on dev alone is mostly noise. SciERC train's 350 abstracts, predicted by taggers that never
saw them, give a seven times larger check of the same annotation conventions.

    python tools/dev/scierc_cv.py [--work out/train/crossval-scierc] [--reuse]

Trains the fold taggers that are missing (about 75 s each; with ``--reuse`` none is retrained, for a change to
code that runs after the tagger), writes ``pred-scierc-train.jsonl`` in the work directory and prints the shared
scorer's output over METHOD, TASK and METRIC.
"""
from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
from pathlib import Path

from kg.train.data import CORPORA, read_gold, shared_data_dir
from kg.train.evaluate import predict, tagger_pipeline
from kg.train.tagger import build

K = 5


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--work", type=Path, default=Path("out/train/crossval-scierc"))
    ap.add_argument("--reuse", action="store_true", help="keep existing fold taggers whatever the code")
    args = ap.parse_args()
    data = shared_data_dir()
    gold_path = data / CORPORA["scierc"].file
    gold = read_gold(gold_path)
    ids = [str(r["id"]) for r in gold]
    random.Random(0).shuffle(ids)
    preds = []
    for i in range(K):
        held = set(ids[i::K])
        path = args.work / f"fold{i}"
        if not (args.reuse and (path / "weights.npz").exists()):
            print(f"fold {i}: training", file=sys.stderr)
            build(path, seed=0, data_dir=data, exclude={"scierc": held}, log=lambda *a: None)
        preds += predict([r for r in gold if str(r["id"]) in held], tagger_pipeline(path))
    out = args.work / "pred-scierc-train.jsonl"
    out.write_text("".join(json.dumps(p, ensure_ascii=False) + "\n" for p in preds), encoding="utf-8")
    scorer = data.parent / "tools" / "score.py"
    return subprocess.call([sys.executable, str(scorer), str(gold_path), str(out), "--labels", "METHOD,TASK,METRIC"])


if __name__ == "__main__":
    sys.exit(main())
