"""Score pipeline variants on the cached 5-fold cross-validation models: each fold's held-out TDMSci and SciREX
documents, predicted by the default pipeline (that fold's tagger) or the accurate one (that fold's NER and tagger),
with ``kg_tagger`` / ``kg_model`` settings changed per variant; strict mention F1 per label and SciREX's DATASET
document recall, pooled over the folds as ``kg train --n-folds 5`` scores them.

    python tools/dev/cv_variants.py --mode default [--variant base={}] [--variant 'x={"extend": false}']
        [--tagger-seed 1 --taggers /tmp/taggers-s1]

The folds are split with seed 0, as ``kg train --n-folds 5`` splits them. Fold taggers come from ``--taggers``
(trained there first, with ``--tagger-seed``, unless current ones are there); the NERs from
``out/train/crossval/fold*/model/model-best`` (``kg train --only ner --n-folds 5`` makes them), or from ``--ners DIR``
(``tools/dev/cv_fold.py --out DIR/foldI --fold I`` makes them), reading the MiniLM features cached in
``out/train/crossval``. The tagger's and the NER's seed spreads in ``docs/extraction.md`` are measured with it.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from contextlib import nullcontext
from pathlib import Path

from kg.nlp import minilm
from kg.train.data import CORPORA, gold_data_dir, read_gold
from kg.train.evaluate import pipeline, predict, score, summary, tagger_pipeline
from kg.train.folds import CV_LABELS, HELD_OUT, folds
from kg.train.tagger import fold_tagger

os.environ.setdefault("KG_TRAIN_DATA", str(Path(__file__).resolve().parents[3] / "shared" / "data"))  # ../shared/data

WORK = Path("out/train/crossval")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mode", choices=("default", "accurate"), required=True)
    ap.add_argument("--variant", action="append", default=[],
                    help='NAME=JSON settings of kg_tagger (default) or kg_model (accurate); default: base={}')
    ap.add_argument("--taggers", type=Path, default=WORK / "taggers", help="fold taggers' directory")
    ap.add_argument("--ners", type=Path, default=WORK, help="fold NERs' directory (foldI/model/model-best, as "
                                                          "kg train --n-folds 5 and tools/dev/cv_fold.py write them)")
    ap.add_argument("--tagger-seed", type=int, default=0, help="training seed of fold taggers made here")
    args = ap.parse_args()
    variants = dict((name, json.loads(value)) for name, _, value in (v.partition("=") for v in args.variant)) \
        or {"base": {}}
    data = gold_data_dir()
    gold = {c: read_gold(data / CORPORA[c].file) for c in HELD_OUT}
    preds: dict[str, dict[str, list[dict]]] = {v: {c: [] for c in HELD_OUT} for v in variants}
    # the NERs read the encoder's features, loaded once for all folds; the taggers read none
    with minilm.cached_features(WORK / "minilm-features.npz") if args.mode == "accurate" else nullcontext():
        for i, fold in enumerate(folds(5, 0, data)):
            tagger = fold_tagger(args.taggers, 5, i, fold, seed=args.tagger_seed, data_dir=data, held_out=HELD_OUT,
                                 log=lambda msg: print(f"tagger: {msg}", file=sys.stderr))
            for name, settings in variants.items():
                nlp = tagger_pipeline(tagger, settings) if args.mode == "default" else pipeline(
                    args.ners / f"fold{i}" / "model" / "model-best", options={"tagger_dir": str(tagger), **settings})
                for c in HELD_OUT:
                    preds[name][c] += predict([r for r in gold[c] if str(r["id"]) in fold[c]], nlp)
            print(f"fold {i} done", file=sys.stderr, flush=True)
    for name in variants:
        parts = []
        for c in HELD_OUT:
            s = summary(score(gold[c], preds[name][c], CV_LABELS[c]))
            parts.append(f"{c} " + " ".join(f"{k[8:]} {v['strict']['f1']:.4f}" for k, v in s.items()
                                           if k.startswith("mention_")))
            if "document_DATASET" in s and c == "scirex":
                parts.append(f"scirex DATASET doc recall {s['document_DATASET']['r']:.4f}")
        print(args.mode, name, " | ".join(parts), flush=True)


if __name__ == "__main__":
    main()
