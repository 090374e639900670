"""Score the full kg pipeline (rules + a trained model: the NER or the tagger) with kg's scorer
(:mod:`kg.train.scorer`, ``kg eval``: the project scorer's definitions).

Predictions are made the way ``kg extract [--accurate]`` makes them: ``Paper(id, text)`` ->
:func:`kg.nlp.extract.extract` -> :func:`kg.sinks.predictions.prediction`, so the numbers are those of the shipped pipeline.
"""
from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import spacy
from spacy.language import Language

from kg.model import Paper

SCORER = "kg/train/scorer.py"  # what the scores recorded in a model's meta.json were computed with


def pipeline(model_dir: str | Path | None = None, model: bool = True, *, only_model: bool = False,
             options: dict | None = None) -> Language:
    """The packaged accurate pipeline (``config_accurate.cfg``) with ``kg_model`` pointed at ``model_dir``;
    ``model=False``: the rules alone (``config_fast.cfg``); ``only_model``: the model's
    entities alone, through ``kg_mentions``, for diagnosis. ``options``: ``kg_model`` settings to override."""
    from kg.nlp.pipeline import ACCURATE_CONFIG, FAST_CONFIG

    if not model:
        return _configured(FAST_CONFIG)
    settings = {"model_dir": str(model_dir or ""), **(options or {})}
    if only_model:  # the NER alone: the tagger reads the rules' candidates, which this mode leaves out
        settings.update(from_tagger=[], confirm=[])
    return _configured(ACCURATE_CONFIG, "kg_model", settings, only_model)


def tagger_pipeline(tagger_dir: str | Path | None = None, options: dict | None = None) -> Language:
    """The packaged default pipeline (``config.cfg``) with ``kg_tagger`` pointed at ``tagger_dir``. (No tagger-only
    mode: the tagger reads the rules' candidates as features.) ``options``: ``kg_tagger`` settings to override."""
    from kg.nlp.pipeline import DEFAULT_CONFIG

    return _configured(DEFAULT_CONFIG, "kg_tagger", {"tagger_dir": str(tagger_dir or ""), **(options or {})})


def _configured(config: Path, component: str = "", settings: dict | None = None, only_model: bool = False) -> Language:
    cfg = spacy.util.load_config(config)
    names = list(cfg["nlp"]["pipeline"])
    if component:
        cfg["components"][component].update(settings or {})
        if only_model:
            names = ["kg_sentencizer", component, *names[names.index("kg_mentions"):]]
    cfg["nlp"]["pipeline"] = names
    for name in list(cfg["components"]):
        if name not in names:
            del cfg["components"][name]
    return spacy.util.load_model_from_config(cfg, auto_fill=True, validate=True)


def predict(records: Iterable[dict], nlp: Language) -> list[dict]:
    """Prediction lines (the scorer's format) for gold records."""
    from kg.sinks.predictions import prediction
    from kg.nlp.extract import extract

    papers = [Paper(id=str(r["id"]), text=r["text"]) for r in records]
    return [prediction(p, ex) for p, ex in extract(papers, nlp)]


def score(gold: list[dict], pred: list[dict], labels: Iterable[str]) -> dict:
    """:func:`kg.train.scorer.score`'s result for gold records and predictions (by ``id``; a later record of an id
    replaces an earlier one, as when they are read from files)."""
    from kg.train.scorer import score as score_by_id

    return score_by_id({str(g["id"]): g for g in gold}, {str(p["id"]): p for p in pred}, list(labels))


def summary(result: dict) -> dict:
    """The headline numbers of a scorer result: strict/partial mention F1 per label, document P/R/F1."""
    out: dict = {}
    for lab, v in result.get("mention", {}).items():
        out[f"mention_{lab}"] = {"strict": v["strict"], "partial_f1": v["partial"]["f1"]}
    for lab, v in result.get("document", {}).items():
        out[f"document_{lab}"] = v
    return out
