"""Try a training config on one cross-validation fold: train it (as ``kg train --n-folds`` would for that fold) and
print strict / partial mention F1 of the held-out TDMSci and SciREX documents and of SciERC dev, for the full
accurate pipeline and the model alone; ``--compare`` scores another fold model the same way.

    python tools/dev/cv_fold.py --config kg/train/config.cfg --out /tmp/try [--fold 0] [--compare out/train/crossval/fold0/model/model-best]

One fold takes 15-20 min here (the MiniLM features of the training texts are read from ``--features`` when it
holds them). Session 6 chose the shipped architecture this way (README, "Accurate mode").
"""
from __future__ import annotations

import argparse
import time
from pathlib import Path

from kg.nlp import minilm
from kg.train.data import CORPORA, read_gold, shared_data_dir
from kg.train.evaluate import pipeline, predict, score, summary
from kg.train.run import CV_LABELS, HELD_OUT, finished, folds, train


def report(name: str, model: Path, fold: dict[str, set[str]]) -> None:
    data = shared_data_dir()
    dev = read_gold(data / CORPORA["scierc-dev"].file)
    with minilm.cached_features():  # both modes read the same features
        for mode in ("full", "model_only"):
            nlp = pipeline(model, only_model=mode == "model_only")
            for corpus in HELD_OUT:
                gold = [r for r in read_gold(data / CORPORA[corpus].file) if str(r["id"]) in fold[corpus]]
                s = summary(score(gold, predict(gold, nlp), CV_LABELS[corpus]))
                print(name, mode, corpus, {k[8:]: (v["strict"]["f1"], v["partial_f1"]) for k, v in s.items()
                                           if k.startswith("mention")}, flush=True)
            s = summary(score(dev, predict(dev, nlp), ["METHOD", "TASK", "METRIC"]))
            print(name, mode, "scierc-dev", s["mention_ALL"]["strict"]["f1"], flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--config", type=Path, required=True)
    ap.add_argument("--out", type=Path, required=True, help="working directory of the fold")
    ap.add_argument("--fold", type=int, default=0, help="fold of 5 (seed 0), as kg train --n-folds 5 splits")
    ap.add_argument("--features", type=Path, default=Path("out/train/crossval/minilm-features.npz"))
    ap.add_argument("--compare", type=Path, default=None, help="another model-best directory to score alike")
    args = ap.parse_args()
    fold = folds(5, 0)[args.fold]
    model = args.out / "model" / "model-best"
    started = time.time()
    if not finished(model):
        model = train(args.out, 0, config=args.config, exclude=fold, features=args.features)
    print("trained in", round(time.time() - started), "s", flush=True)
    if args.compare:
        report("compare", args.compare, fold)
    report("new", model, fold)


if __name__ == "__main__":
    main()
