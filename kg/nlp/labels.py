"""Labels for unknown names from their head word (``... Dataset`` -> DATASET, ``... Classification`` -> TASK)."""
from __future__ import annotations
from kg.nlp.lexicon import words

DATASET_WORDS = words("label_dataset_words")
METRIC_WORDS = words("label_metric_words")
TASK_WORDS = words("label_task_words")


def label_from_words(text: str) -> str:
    """A label for an unknown name from its last word: ``... Dataset`` -> DATASET, ``... Classification`` -> TASK."""
    last = text.lower().split()[-1] if text.split() else ""
    last = last.split("-")[-1] if last not in TASK_WORDS else last
    if last in DATASET_WORDS:
        return "DATASET"
    if last in TASK_WORDS or last.rstrip("s") in TASK_WORDS:
        return "TASK"
    if last in METRIC_WORDS:
        return "METRIC"
    return "METHOD"
