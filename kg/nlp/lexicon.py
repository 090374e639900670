"""The extractors' word lists, read from ``kg/nlp/data/lexicon/*.json``.

Each file groups lists by role (head nouns, function words, cues, closed classes of names, affixes); each list has a
name unique across the files, an ``about`` saying what it is for, and either ``words`` (a set) or ``ordered`` (a
sequence tested in order, such as suffixes). The code names a list by its key, so editing the words needs no code.
"""
from __future__ import annotations

import json
from collections.abc import Iterable
from functools import cache
from pathlib import Path

DATA = Path(__file__).parent / "data" / "lexicon"
SPECIFICITY = DATA.parent / "specificity"
GAZETTEER = DATA.parent / "gazetteer"  # the vocabulary's files (kg.nlp.components.gazetteer reads them)
CONCEPT_FILES = ("datasets.jsonl", "metrics.jsonl", "tasks.jsonl", "methods.jsonl")  # its concepts, by label


def _unique(pairs: list[tuple[str, object]]) -> dict:
    """A JSON object's members, refusing a key given twice (the later would silently win)."""
    out: dict = {}
    for key, value in pairs:
        if key in out:
            raise ValueError(f"key {key!r} is given twice")
        out[key] = value
    return out


@cache
def _lists() -> dict[str, dict]:
    lists: dict[str, dict] = {}
    for path in sorted(DATA.glob("*.json")):
        try:
            data = json.loads(path.read_text(encoding="utf-8"), object_pairs_hook=_unique)
        except ValueError as e:
            raise ValueError(f"{path}: {e}") from None
        for key, entry in data["lists"].items():
            if key in lists:
                raise ValueError(f"{path}: word list {key!r} is also in {lists[key]['file']}")
            lists[key] = {**entry, "file": path.name}
    return lists


def words(key: str) -> frozenset[str]:
    """The set of words of list ``key``."""
    return frozenset(_lists()[key]["words"])


def ordered(key: str) -> tuple[str, ...]:
    """The sequence of list ``key``, in its file's order."""
    return tuple(_lists()[key]["ordered"])


def keys() -> list[str]:
    """Every list's key."""
    return sorted(_lists())


@cache
def common_words() -> frozenset[str]:
    """Words abstracts write in lower case ("value", "temporal", "robust"): ``kg/nlp/data/specificity``'s list, which
    the specificity component reads too, here without loading spaCy (for the graph's display names)."""
    path = SPECIFICITY / "common_words.json"
    return frozenset(w.lower() for w in json.loads(path.read_text(encoding="utf-8"))["words"])


def terms(values: Iterable[str]) -> frozenset[str]:
    """Names as the specificity lists compare them: lower case, whitespace collapsed."""
    return frozenset(" ".join(v.lower().split()) for v in values)


def is_adjective(word: str, endings: tuple[str, ...], nouns: frozenset[str], adjectives: frozenset[str]) -> bool:
    """Whether a lower-case word reads as an adjective or a participle ("convex", "object-level", "based"): by one of
    ``endings`` unless it is one of ``nouns`` ("retrieval", "kernel"), or as one of ``adjectives`` ("free")."""
    return word.endswith(endings) and word not in nouns or word in adjectives


@cache
def _adjective_lists() -> tuple[tuple[str, ...], frozenset[str], frozenset[str]]:
    lists = json.loads((SPECIFICITY / "umbrella.json").read_text(encoding="utf-8"))["adjective_endings"]
    return tuple(lists["endings"]), terms(lists["nouns"]), terms(lists["words"])


def adjective(word: str) -> bool:
    """:func:`is_adjective` by ``kg/nlp/data/specificity``'s lists, which the specificity component reads too, here
    without loading spaCy (for the graph's display names)."""
    return is_adjective(word, *_adjective_lists())
