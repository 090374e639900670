"""``kg train``: build the shipped models (the default mode's tagger, the accurate mode's NER), or cross-validate
their recipes (``--n-folds``)."""
from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from kg.cli.common import EXIT_BAD_INPUT, EXIT_OK, add_command, non_negative_int, positive_int
from kg.cli.output import error


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    """Add ``kg train``."""
    p = add_command(
        subparsers, "train", help="retrain the shipped models on gold data (see kg train --help)",
        description="Train kg's two models for METHOD, TASK, DATASET, METRIC on the gold data in --data DIR, "
                    "choosing epochs on SciERC dev, and install them: the default mode's linear tagger "
                    "(kg/nlp/trained_tagger, ~3 min) and the accurate mode's NER (spacy train with "
                    "kg/train/config.cfg, kg/nlp/trained, ~17 min).",
        epilog="DIR holds the gold JSONL files (one document a line: text, spans, entities; kg ships none):\n"
               "scierc-train, scierc-dev, tdmsci-train, scirex-abstracts-train, and optionally seeds-icml2025.\n"
               "KG_TRAIN_DATA=DIR stands for --data DIR.\n\n"
               "examples:\n  kg train --data DIR                      train both with seed 0 and install them\n"
               "  kg train --data DIR --only tagger        the default mode's tagger only\n"
               "  kg train --data DIR --n-folds 5          5-fold cross-validation on TDMSci and SciREX "
               "(scores as JSON)\n"
               "  kg train --data DIR --evaluate --record  re-score the shipped models after pipeline changes\n"
               "  kg train --data DIR --out /tmp/t --no-install --seed 1\n"
               "  kg train --data DIR --only ner --config my.cfg --out /tmp/t --no-install   try another NER recipe",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", default="out/train", metavar="DIR",
                   help="working directory: .spacy files, checkpoints, crossval.json (default: out/train)")
    p.add_argument("--seed", type=int, default=0, help="random seed (default: 0)")
    p.add_argument("--only", choices=("tagger", "ner"), default=None,
                   help="train (or cross-validate, or evaluate) one model: the default mode's tagger or the NER")
    p.add_argument("--n-folds", type=non_negative_int, default=0, metavar="K",
                   help="cross-validate with K folds instead of training the shipped model")
    p.add_argument("--config", default=None, metavar="FILE",
                   help="the NER's spaCy training config (default: kg/train/config.cfg); recorded with its sha256 "
                        "in meta.json; for a cross-validation, part of each fold's signature")
    p.add_argument("--max-epochs", type=positive_int, default=None,
                   help="override the number of epochs (NER: training.max_epochs; tagger: default 15)")
    p.add_argument("--evaluate", nargs="?", const="", default=None, metavar="MODEL",
                   help="only score trained models (default: the shipped ones; a directory needs --only) with "
                        "kg's scorer (kg eval) and print JSON (a NER is scored in the accurate pipeline, with the "
                        "shipped tagger)")
    p.add_argument("--record", action="store_true",
                   help="with --evaluate: also store the scores in the model's meta.json (after pipeline changes)")
    p.add_argument("--no-install", action="store_true",
                   help="do not copy the best model to kg/nlp/trained (with --n-folds: do not record the scores in "
                        "the shipped model's meta.json, which only the shipped recipe's folds are)")
    p.add_argument("--data", default=None, metavar="DIR",
                   help="gold data directory (default: $KG_TRAIN_DATA; needed, kg ships no gold data)")
    p.add_argument("--threads", type=positive_int, default=None,
                   help="BLAS threads (default: 1, unless OMP/OPENBLAS/MKL_NUM_THREADS say otherwise)")
    p.set_defaults(run=run)


def _fail(message: str) -> int:
    error(message, prefix="kg train")
    return EXIT_BAD_INPUT


def run(args: argparse.Namespace) -> int:
    """Check the data and the options, then train, cross-validate or evaluate."""
    from kg.errors import EncoderMissing, InputError

    try:
        return _run(args)
    except (EncoderMissing, InputError) as exc:
        return _fail(str(exc))


def _run(args: argparse.Namespace) -> int:
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):  # before numpy loads
        if args.threads is not None:
            os.environ[var] = str(args.threads)
        else:
            os.environ.setdefault(var, "1")
    from kg.train.data import CORPORA, DATA_ENV, DEV_CORPUS, TRAIN_CORPORA

    given = args.data or os.environ.get(DATA_ENV)
    if not given:
        return _fail(f"needs the gold data directory: --data DIR (or {DATA_ENV}=DIR); see kg train --help")
    data_dir = Path(given)
    if not data_dir.is_dir():
        return _fail(f"no gold data directory {data_dir}")
    needed = (DEV_CORPUS,) if args.evaluate is not None else (*TRAIN_CORPORA, DEV_CORPUS)
    missing = [CORPORA[n].file for n in needed if not (data_dir / CORPORA[n].file).is_file()]
    if missing:
        return _fail(f"{data_dir} lacks {', '.join(missing)}")
    if args.n_folds == 1:
        return _fail("--n-folds needs at least 2 folds")
    if args.config is not None and (args.only == "tagger" or args.evaluate is not None):
        return _fail("--config is the NER's training config: it needs training the NER (not --only tagger, "
                     "not --evaluate)")
    if args.config is not None and not Path(args.config).is_file():
        return _fail(f"no training config {args.config}")
    if args.evaluate and not args.only:
        return _fail("--evaluate DIR needs --only tagger or --only ner")
    for kind in ("tagger", "ner"):
        if args.only in (None, kind):
            code = (_tagger if kind == "tagger" else _ner)(args, data_dir)
            if code:
                return code
    return EXIT_OK


def _evaluate(args: argparse.Namespace, path: Path, marker: str, what: str, evaluate) -> int:
    """``--evaluate``: score the model in ``path`` (``marker``: the file a trained one has), print the scores and,
    with ``--record``, store them in its meta.json."""
    from kg.train.run import update_meta

    if not (path / marker).exists():
        return _fail(f"no {what} in {path}")
    scores = evaluate(path)
    print(json.dumps(scores, indent=1))
    if args.record:
        update_meta(path, ("kg_scores", "shared_scorer"), scores)
    return EXIT_OK


def _tagger(args: argparse.Namespace, data_dir: Path) -> int:
    import kg.nlp.components.tagger as shipped
    import kg.train.tagger as tagger
    from kg.train.run import install, update_meta

    log = lambda msg: print(f"tagger: {msg}", file=sys.stderr)  # noqa: E731
    epochs = args.max_epochs or tagger.EPOCHS
    if args.evaluate is not None:
        return _evaluate(args, Path(args.evaluate) if args.evaluate else shipped.DEFAULT_DIR, "weights.npz",
                         "trained tagger", lambda path: tagger.evaluate(path, data_dir))
    out = Path(args.out)
    if args.n_folds:
        result = tagger.crossval(args.n_folds, seed=args.seed, work_dir=out / "crossval-tagger", data_dir=data_dir,
                                 epochs=epochs, log=log)
        print(json.dumps(result, indent=1))
        if not args.no_install and epochs == tagger.EPOCHS and (shipped.DEFAULT_DIR / "meta.json").exists():
            update_meta(shipped.DEFAULT_DIR, ("kg_crossval",), result)  # the shipped recipe's folds only
        return EXIT_OK
    built = tagger.build(out / "tagger", seed=args.seed, epochs=epochs, data_dir=data_dir, log=log)
    update_meta(built, ("kg_scores", "shared_scorer"), tagger.evaluate(built, data_dir))
    log(f"trained: {built}")
    if not args.no_install:
        log(f"installed: {install(built, shipped.DEFAULT_DIR)}")
    return EXIT_OK


def _ner(args: argparse.Namespace, data_dir: Path) -> int:
    import kg.train.run as run_

    if args.evaluate is not None:
        return _evaluate(args, Path(args.evaluate) if args.evaluate else run_.SHIPPED, "meta.json", "trained model",
                         lambda path: run_.evaluate(path, data_dir))
    overrides = {"training.max_epochs": args.max_epochs} if args.max_epochs else {}
    config = Path(args.config) if args.config else run_.CONFIG
    out = Path(args.out)
    if args.n_folds:
        result = run_.crossval(args.n_folds, seed=args.seed, work_dir=out / "crossval", data_dir=data_dir,
                               overrides=overrides, config=config)
        print(json.dumps(result, indent=1))
        shipped_recipe = run_.is_shipped_config(config) and not overrides  # another recipe's folds say nothing of it
        if not args.no_install and shipped_recipe and (run_.SHIPPED / "meta.json").exists():
            run_.update_meta(run_.SHIPPED, ("kg_crossval",), result)
        return EXIT_OK
    # Scored with the tagger trained in the same run, if there was one (the accurate pipeline reads it too).
    tagger_dir = out / "tagger" if args.only is None else None
    best = run_.train(out, args.seed, data_dir=data_dir, config=config, overrides=overrides, tagger_dir=tagger_dir)
    print(f"best model: {best}", file=sys.stderr)
    if not args.no_install:
        print(f"installed: {run_.install(best, run_.SHIPPED)}", file=sys.stderr)
    return EXIT_OK
