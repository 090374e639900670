"""``kg train``: build the shipped NER model, or cross-validate the recipe (``--n-folds``)."""
from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path


def parser(prog: str = "kg train") -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog=prog,
        description="Train kg's NER (METHOD, TASK, DATASET, METRIC) with spacy train and kg/train/config.cfg on "
                    "../shared/data, early-stopping on SciERC dev, and install it as kg/nlp/trained.",
        epilog="examples:\n  kg train                      train with seed 0 and install the model\n"
               "  kg train --n-folds 5          5-fold cross-validation on TDMSci and SciREX (scores as JSON)\n"
               "  kg train --evaluate --record  re-score the shipped model after pipeline changes\n"
               "  kg train --out /tmp/t --no-install --seed 1",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", default="out/train", metavar="DIR",
                   help="working directory: .spacy files, checkpoints, crossval.json (default: out/train)")
    p.add_argument("--seed", type=int, default=0, help="random seed (default: 0)")
    p.add_argument("--n-folds", type=int, default=0, metavar="K",
                   help="cross-validate with K folds instead of training the shipped model")
    p.add_argument("--max-epochs", type=int, default=None, help="override training.max_epochs (e.g. fewer for --n-folds)")
    p.add_argument("--evaluate", nargs="?", const="", default=None, metavar="MODEL",
                   help="only score a trained model (default: kg/nlp/trained) with the shared scorer and print JSON")
    p.add_argument("--record", action="store_true",
                   help="with --evaluate: also store the scores in the model's meta.json (after pipeline changes)")
    p.add_argument("--no-install", action="store_true", help="do not copy the best model to kg/nlp/trained")
    p.add_argument("--data", default=None, metavar="DIR", help="gold data directory (default: ../shared/data)")
    p.add_argument("--threads", type=int, default=1, help="BLAS threads (default: 1; the machine is shared)")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    from kg.errors import EncoderMissing

    try:
        return _main(argv)
    except EncoderMissing as exc:
        print(f"kg train: {exc}", file=sys.stderr)
        return 2


def _main(argv: Sequence[str] | None) -> int:
    args = parser().parse_args(argv)
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(var, str(args.threads))
    from kg.train.run import SHIPPED, crossval, evaluate, install, train, update_meta

    data_dir = Path(args.data) if args.data else None
    if data_dir is not None and not data_dir.is_dir():
        print(f"kg train: no gold data directory {data_dir}", file=sys.stderr)
        return 2
    if args.evaluate is not None:
        model = Path(args.evaluate) if args.evaluate else SHIPPED
        if not (model / "meta.json").exists():
            print(f"kg train: no trained model in {model}", file=sys.stderr)
            return 2
        scores = evaluate(model, data_dir)
        print(json.dumps(scores, indent=1))
        if args.record:
            update_meta(model, ("kg_scores", "shared_scorer"), scores)
        return 0
    overrides = {"training.max_epochs": args.max_epochs} if args.max_epochs else {}
    out = Path(args.out)
    if args.n_folds:
        if args.n_folds < 2:
            print("kg train: --n-folds needs at least 2 folds", file=sys.stderr)
            return 2
        result = crossval(args.n_folds, seed=args.seed, work_dir=out / "crossval", data_dir=data_dir, overrides=overrides)
        print(json.dumps(result, indent=1))
        if not args.no_install and (SHIPPED / "meta.json").exists():
            update_meta(SHIPPED, ("kg_crossval",), result)
        return 0
    best = train(out, args.seed, data_dir=data_dir, overrides=overrides)
    print(f"best model: {best}", file=sys.stderr)
    if not args.no_install:
        print(f"installed: {install(best, SHIPPED)}", file=sys.stderr)
    return 0
