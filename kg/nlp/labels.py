"""Labels for unknown names from their head word (``... Dataset`` -> DATASET, ``... Classification`` -> TASK)."""
from __future__ import annotations

DATASET_WORDS = {"dataset", "datasets", "benchmark", "benchmarks", "corpus", "corpora", "suite"}
METRIC_WORDS = {"error", "accuracy", "precision", "recall", "score", "rate", "ratio", "distance", "divergence", "auc", "loss", "gap", "regret"}
TASK_WORDS = {"task", "tasks", "problem", "problems", "generalization", "generalisation", "adaptation", "classification",
              "detection", "segmentation", "recognition", "translation", "estimation", "prediction", "forecasting",
              "generation", "answering", "retrieval", "reasoning", "understanding", "synthesis", "tracking", "localization",
              "captioning", "summarization", "parsing", "identification", "matching", "completion", "search", "sequencing",
              "discovery", "alignment", "reconstruction", "editing", "planning", "control", "navigation", "coevolution",
              "re-identification", "attribution", "verification", "quantification", "analysis"}


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
