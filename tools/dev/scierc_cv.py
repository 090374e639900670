"""Cross-validated predictions of the default pipeline on SciERC train: five fold taggers, each trained without
one fifth of SciERC train (and on everything else `kg train` uses), predict that fifth.

SciERC dev has 50 abstracts (381 mentions): one mention more or less right moves its F1 by about 0.003, so a
rule change measured on dev alone is mostly noise. SciERC train's 350 abstracts, predicted by taggers that never
saw them, give a seven times larger check of the same annotation conventions.

    python tools/dev/scierc_cv.py [--work out/train/crossval-scierc] [--reuse]

Runs ``kg.train.tagger.crossval`` with SciERC train as the held-out corpus: fold taggers that are missing or out
of date are trained (about 75 s each; with ``--reuse`` none is retrained, for a change to code that runs after the
tagger). Writes ``pred-scierc-full.jsonl`` and ``crossval.json`` in the work directory and prints the strict
mention F1 over METHOD, TASK and METRIC.
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from kg.train.tagger import crossval

os.environ.setdefault("KG_TRAIN_DATA", str(Path(__file__).resolve().parents[3] / "shared" / "data"))  # ../shared/data


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--work", type=Path, default=Path("out/train/crossval-scierc"))
    ap.add_argument("--reuse", action="store_true", help="keep existing fold taggers whatever the code")
    args = ap.parse_args()
    full = crossval(work_dir=args.work, reuse=args.reuse, held_out=("scierc",), log=lambda *a: None)["scierc"]["full"]
    for label in ("METHOD", "TASK", "METRIC", "ALL"):
        strict = full[f"mention_{label}"]["strict"]
        print(f"mention {label:7} strict P {strict['p']:.3f} R {strict['r']:.3f} F1 {strict['f1']:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
