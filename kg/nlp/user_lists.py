"""A user's own stoplist and type overrides (``kg build --stoplist FILE --types FILE``).

- A stoplist: one concept name per line (``#`` starts a comment). Every mention of those names becomes a generic
  mention: reported, never a concept. Names match as concept names do (case, spacing, punctuation and a plural
  folded: ``LLMs`` stops ``large language models`` only if listed too, ``LLM`` stops ``LLMs``).
- Type overrides: ``NAME<TAB>LABEL`` per line (or ``NAME,LABEL``), LABEL one of METHOD, TASK, DATASET, METRIC, or
  NONE (the same as the stoplist). Every mention of NAME takes that label.

Both files are set on the pipeline's ``kg_specificity`` component (``stoplist``, ``types``, and ``digest``, their
contents' hash, so a build's cache sees when they change) by :func:`pipeline_with_lists`, in the string that names the
pipeline to every process that loads it: no config file is written.
"""
from __future__ import annotations

import hashlib
from pathlib import Path

from kg.errors import InputError
from kg.nlp.settings import with_settings
from kg.schema import concept_key

LABELS = ("METHOD", "TASK", "DATASET", "METRIC", "NONE")


def _lines(path: Path):
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"{path}: cannot read: {getattr(exc, 'strerror', None) or exc}") from None
    for n, line in enumerate(text.splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if line:
            yield n, line


def load_stoplist(path: str | Path) -> frozenset[str]:
    """The concept keys a stoplist file names."""
    return frozenset(concept_key(line) for _, line in _lines(Path(path)) if concept_key(line))


def load_types(path: str | Path) -> dict[str, str]:
    """Concept key -> label from a type-override file; InputError naming the file and line for a bad line."""
    out: dict[str, str] = {}
    for n, line in _lines(Path(path)):
        sep = "\t" if "\t" in line else ","
        name, _, label = line.rpartition(sep)
        label = label.strip().upper()
        if not name.strip() or label not in LABELS:
            raise InputError(f"{path}:{n}: expected NAME<TAB>LABEL with LABEL one of {', '.join(LABELS)}, got "
                             f"{line!r}")
        out[concept_key(name)] = label
    return out


def pipeline_with_lists(config: str, stoplist: str | None = None, types: str | None = None) -> str:
    """``config`` (a pipeline config.cfg path) with the user's lists set on ``kg_specificity``
    (:func:`kg.nlp.settings.with_settings`: no file is written); ``config`` itself when neither list is given.
    Raises InputError for an unreadable or malformed file."""
    if not stoplist and not types:
        return config
    digest = hashlib.sha256()
    for path, check in ((stoplist, load_stoplist), (types, load_types)):
        if path:
            check(path)
            digest.update(Path(path).read_bytes())
    files = {"stoplist": stoplist, "types": types}
    settings = {f"components.kg_specificity.{k}": str(Path(v).resolve()) if v else "" for k, v in files.items()}
    return with_settings(config, {**settings, "components.kg_specificity.digest": digest.hexdigest()[:16]})
