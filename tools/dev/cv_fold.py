"""Try an NER training recipe on one cross-validation fold: train it (as ``kg train --n-folds 5`` would for that fold)
and score the full accurate pipeline, with that fold's own tagger, on the fold's held-out TDMSci and SciREX
documents, SciERC dev and the ICML 2025 seeds (document level); ``--compare`` scores another fold model the same way.

    python tools/dev/cv_fold.py --out /tmp/try [--fold 0] [--config kg/train/config.cfg] [--seed 0]
        [--override training.patience=2400] [--repeat tdmsci:2] [--compare out/train/crossval/fold0/model/model-best]

One fold takes 15-25 min here. The MiniLM features of the training texts are read from ``--features`` (the
cross-validation's store, when ``kg train --n-folds 5`` has run) and the fold's tagger from
``out/train/crossval/taggers`` (trained there first if missing). The recipes compared this way are in
``docs/experiments.md``.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

from kg.nlp import minilm
from kg.train.data import CORPORA, DEV_CORPUS, gold_data_dir, read_gold
from kg.train.evaluate import pipeline, predict, score, summary
from kg.train.folds import CV_LABELS, HELD_OUT, folds
from kg.train.run import evaluate, finished, train
from kg.train.tagger import fold_tagger

os.environ.setdefault("KG_TRAIN_DATA", str(Path(__file__).resolve().parents[3] / "shared" / "data"))  # ../shared/data


def report(name: str, model: Path, tagger: Path, fold: dict[str, set[str]], features: Path) -> dict:
    """Scores of ``model`` with ``tagger`` on the fold's held-out documents, and :func:`kg.train.run.evaluate`'s
    SciERC dev and seeds scores; printed."""
    data = gold_data_dir()
    nlp = pipeline(model, options={"tagger_dir": str(tagger)})
    out = {}
    with minilm.cached_features(features):
        for corpus in HELD_OUT:
            gold = [r for r in read_gold(data / CORPORA[corpus].file) if str(r["id"]) in fold[corpus]]
            out[corpus] = s = summary(score(gold, predict(gold, nlp), CV_LABELS[corpus]))
            print(name, corpus, "strict", s["mention_ALL"]["strict"]["f1"],
                  {k[8:]: v["strict"]["f1"] for k, v in s.items() if k.startswith("mention") and k != "mention_ALL"},
                  flush=True)
    out.update(evaluate(model, data, tagger))  # its own feature cache: SciERC dev and the seeds are few
    print(name, DEV_CORPUS, "strict", out[DEV_CORPUS]["full"]["mention_ALL"]["strict"]["f1"], flush=True)
    print(name, "seeds", {k[9:]: v["f1"] for k, v in out["seeds-icml2025"]["full"].items() if k.startswith("document")},
          flush=True)
    return out


def pair(text: str, sep: str) -> tuple[str, str]:
    key, found, value = text.partition(sep)
    if not found:
        raise argparse.ArgumentTypeError(f"expected KEY{sep}VALUE, not {text!r}")
    return key, value


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, required=True, help="working directory of the fold")
    ap.add_argument("--config", type=Path, default=Path("kg/train/config.cfg"))
    ap.add_argument("--fold", type=int, default=0, help="fold of 5 (split seed 0), as kg train --n-folds 5 splits")
    ap.add_argument("--seed", type=int, default=0, help="training seed")
    ap.add_argument("--override", type=lambda t: pair(t, "="), action="append", default=[],
                    help="a config setting, KEY=VALUE with VALUE in JSON (repeatable)")
    ap.add_argument("--repeat", type=lambda t: pair(t, ":"), action="append", default=[],
                    help="a training corpus's weight, CORPUS:FACTOR, e.g. tdmsci:2 (repeatable)")
    ap.add_argument("--features", type=Path, default=Path("out/train/crossval/minilm-features.npz"))
    ap.add_argument("--taggers", type=Path, default=Path("out/train/crossval/taggers"))
    ap.add_argument("--compare", type=Path, default=None, help="another model-best directory to score alike")
    args = ap.parse_args()
    data = gold_data_dir()
    fold = folds(5, 0, data)[args.fold]
    overrides = {key: json.loads(value) for key, value in args.override}
    repeat = {key: float(value) for key, value in args.repeat}
    model = args.out / "model" / "model-best"
    started = time.time()
    if not finished(model):
        model = train(args.out, args.seed, config=args.config, overrides=overrides, exclude=fold,
                      features=args.features, repeat=repeat)
    print("trained in", round(time.time() - started), "s", flush=True)
    tagger = fold_tagger(args.taggers, 5, args.fold, fold, data_dir=data, held_out=HELD_OUT,
                         log=lambda msg: print(f"tagger: {msg}", file=sys.stderr))
    scores = {"new": report("new", model, tagger, fold, args.features)}
    if args.compare:
        scores["compare"] = report("compare", args.compare, tagger, fold, args.features)
    (args.out / "fold-scores.json").write_text(json.dumps(scores, indent=1) + "\n")


if __name__ == "__main__":
    main()
