"""Score the existing 5-fold tagger models again with the current pipeline code, without retraining them.

`kg train --only tagger --n-folds 5` retrains every fold when any file under kg/nlp changes, even code that runs
after the tagger (the combination with the rules, mention selection) and cannot change its weights. For such a
change this takes ~10 s instead of ~6 min (scores and predictions are rewritten in the folds' directory):

    .venv/bin/python tools/dev/tagger_cv_predict.py [--folds-dir out/train/crossval-tagger]

Prints the strict mention F1 of TDMSci and SciREX and SciREX's document recall of DATASET.
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from kg.train.folds import HELD_OUT
from kg.train.tagger import crossval

os.environ.setdefault("KG_TRAIN_DATA", str(Path(__file__).resolve().parents[3] / "shared" / "data"))  # ../shared/data


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--folds-dir", type=Path, default=Path("out/train/crossval-tagger"))
    args = ap.parse_args()
    result = crossval(work_dir=args.folds_dir, reuse=True)
    for name in HELD_OUT:
        full = result[name]["full"]
        print(name, f"{full['mention_ALL']['strict']['f1']:.4f}", "DATASET doc recall",
              f"{full['document_DATASET']['r']:.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
