"""Build the spaCy pipeline from ``kg/nlp/config.cfg`` (or a user's copy of it)."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import spacy
from spacy.language import Language

# Registering the factories is a side effect of importing their modules.
from kg.nlp import tokenizer  # noqa: F401
from kg.nlp.components import (abbreviations, context, gazetteer, mentions, model, proposed, results,  # noqa: F401
                               sentences, specificity, tagger, title)
from kg.nlp.settings import config_settings

DEFAULT_CONFIG = Path(__file__).parent / "config.cfg"  # rules, gazetteers and the linear tagger
FAST_CONFIG = Path(__file__).parent / "config_fast.cfg"  # rules and gazetteers only: ~1.7x as fast
ACCURATE_CONFIG = Path(__file__).parent / "config_accurate.cfg"  # rules and the MiniLM-fed NER: ~50x slower
MODES = {"fast": FAST_CONFIG, "default": DEFAULT_CONFIG, "accurate": ACCURATE_CONFIG}


def config_path(mode: str = "default") -> str:
    """The packaged pipeline config of an extraction mode: ``fast``, ``default`` or ``accurate``."""
    if mode not in MODES:
        raise ValueError(f"unknown extraction mode {mode!r} (fast, default or accurate)")
    return str(MODES[mode])


@lru_cache(maxsize=3)
def load_pipeline(config: str = "") -> Language:
    """The extraction pipeline, parsed once per process (``config``: path to a config.cfg, default the packaged one,
    with settings over its own: :mod:`kg.nlp.settings`)."""
    path, settings = config_settings(config)
    cfg = spacy.util.load_config(Path(path) if path else DEFAULT_CONFIG, overrides=settings)
    return spacy.util.load_model_from_config(cfg, auto_fill=True, validate=True)
