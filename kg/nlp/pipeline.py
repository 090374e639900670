"""Build the spaCy pipeline from ``kg/nlp/config.cfg`` (or a user's copy of it)."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import spacy
from spacy.language import Language

# Registering the factories is a side effect of importing their modules.
from kg.nlp import abbreviations, context, gazetteer, mentions, proposed, results, tokenizer  # noqa: F401

DEFAULT_CONFIG = Path(__file__).parent / "config.cfg"


@lru_cache(maxsize=2)
def load_pipeline(config: str = "") -> Language:
    """The extraction pipeline, parsed once per process (``config``: path to a config.cfg; default the packaged one)."""
    cfg = spacy.util.load_config(Path(config) if config else DEFAULT_CONFIG)
    return spacy.util.load_model_from_config(cfg, auto_fill=True, validate=True)
