"""Score the existing 5-fold tagger models again with the current pipeline code, without retraining them.

`kg train --only tagger --n-folds 5` retrains every fold when any file under kg/nlp changes, even code that runs
after the tagger (the combination with the rules, mention selection) and cannot change its weights. For such a
change this takes ~1 min instead of ~6:

    .venv/bin/python tools/dev/tagger_cv_predict.py OUT [--folds-dir out/train/crossval-tagger]

Prints the strict mention F1 of TDMSci and SciREX and SciREX's document recall of DATASET; the scores and the
predictions are written to OUT.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from kg.train.data import CORPORA, read_gold, shared_data_dir
from kg.train.evaluate import predict, tagger_pipeline
from kg.train.run import HELD_OUT, folds, score_folds


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path, help="where the scores and predictions go")
    ap.add_argument("--folds-dir", type=Path, default=Path("out/train/crossval-tagger"))
    args = ap.parse_args()
    data = shared_data_dir()
    gold = {name: read_gold(data / CORPORA[name].file) for name in HELD_OUT}
    preds: dict[str, dict[str, list[dict]]] = {"full": {name: [] for name in HELD_OUT}}
    for i, fold in enumerate(folds(5, 0, data)):
        nlp = tagger_pipeline(args.folds_dir / f"fold{i}")
        for name in HELD_OUT:
            preds["full"][name] += predict([r for r in gold[name] if str(r["id"]) in fold[name]], nlp)
    args.out.mkdir(parents=True, exist_ok=True)
    result = score_folds({"folds": 5}, gold, preds, args.out)
    for name in HELD_OUT:
        full = result[name]["full"]
        print(name, f"{full['mention_ALL']['strict']['f1']:.4f}", "DATASET doc recall",
              f"{full['document_DATASET']['r']:.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
