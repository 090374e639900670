"""Build the spaCy pipeline from ``kg/nlp/config.cfg`` (or a user's copy of it)."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import spacy
from spacy.language import Language

# Registering the factories is a side effect of importing their modules.
from kg.nlp import abbreviations, context, gazetteer, mentions, model, proposed, results, sentences, tagger, tokenizer  # noqa: F401

DEFAULT_CONFIG = Path(__file__).parent / "config.cfg"  # rules, gazetteers and the linear tagger: fast
ACCURATE_CONFIG = Path(__file__).parent / "config_accurate.cfg"  # plus the trained NER (kg/nlp/trained): slower


def config_path(accurate: bool = False) -> str:
    """The packaged pipeline config: the default, or the accurate one with the trained model."""
    return str(ACCURATE_CONFIG if accurate else DEFAULT_CONFIG)


@lru_cache(maxsize=2)
def load_pipeline(config: str = "") -> Language:
    """The extraction pipeline, parsed once per process (``config``: path to a config.cfg; default the packaged one)."""
    cfg = spacy.util.load_config(Path(config) if config else DEFAULT_CONFIG)
    return spacy.util.load_model_from_config(cfg, auto_fill=True, validate=True)
