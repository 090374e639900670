"""What a name's words say about it: a label for an unknown name from its head word (``... Dataset`` -> DATASET,
``... Classification`` -> TASK), nouns of doing, names of languages."""
from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from functools import lru_cache

from spacy.tokens import Doc, Span

from kg.nlp import lexicon

DATASET_WORDS = lexicon.words("label_dataset_words")
METRIC_WORDS = lexicon.words("label_metric_words")
TASK_WORDS = lexicon.words("label_task_words")


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


# Nouns of doing ("translation", "parsing", "retrieval", "analogy", "analysis", "assessment", "inference"): a one-word
# task name before "task" must be one (or an acronym); adjectives ("shared", "binary"), languages and event names before
# it are not tasks.
TASK_NOUN = re.compile(r"(?:tion|sion|ing|ment|sis|ance|ence|ogy|val)$")
TASK_HEAD_NOUNS = lexicon.words("task_head_nouns")


def names_a_task(name: str) -> bool:
    """Whether a phrase's head word can head a task's name: a noun of doing ("image generation", "re-ranking"), a
    task word of :data:`TASK_WORDS` ("neural architecture search") or a task head noun ("style transfer"); not a
    property, a representation or a field ("computational efficiency", "word embeddings", "3D geometry")."""
    words = name.lower().split()
    if not words:
        return False
    last = words[-1] if words[-1] in TASK_WORDS else words[-1].split("-")[-1]
    return bool(TASK_NOUN.search(last)) or last in TASK_WORDS or last.rstrip("s") in TASK_WORDS or last in TASK_HEAD_NOUNS

_PROPOSAL_HEADS = lexicon.words("proposed_heads")  # "framework", "model", "benchmark"...
_DATA_HEADS = lexicon.words("dataset_heads") | lexicon.words("environment_heads")
_DESCRIPTION_ENDS = lexicon.words("prepositions")


def description_words(words: Sequence[str], limit: int = 6) -> list[str]:
    """A description's words after its article, in lower case, up to ``limit`` and before any preposition or
    punctuation ("a new unlabeled RGBD object video dataset with ..." -> new ... dataset)."""
    out = []
    for word in words[:limit]:
        low = word.lower()
        if low in _DESCRIPTION_ENDS or not any(ch.isalnum() for ch in low):
            break
        out.append(low)
    return out


def description_label(words: Sequence[str]) -> str | None:
    """What a description (:func:`description_words`) says its subject is, by its last head word: DATASET for a
    dataset's or an environment's ("a new benchmark", "an e-commerce website environment"), METHOD for a method's
    ("a scalable RGBD dataset construction pipeline"), None without one."""
    head = next((w for w in reversed(words) if w in _PROPOSAL_HEADS or w in _DATA_HEADS), None)
    if head is None:
        return None
    return "DATASET" if head in _DATA_HEADS else "METHOD"


# A language is what data is in, not a dataset ("English and Chinese datasets").
LANGUAGES = lexicon.words("languages")
LANGUAGE_CODES = lexicon.words("language_codes")


@lru_cache(maxsize=65536)
def is_language(low: str) -> bool:
    """"english", "english-german", "zh/en"-style words naming languages."""
    parts = [part for part in re.split(r"[-/→]", low) if part]
    return low in LANGUAGES or bool(parts) and all(part in LANGUAGES for part in parts)


_PAIR_JOINS = lexicon.words("pair_joins")  # between the two languages of a pair, as their own tokens


def _language(token) -> bool:
    """A language's name, or its code written with a capital ("En", "DE")."""
    return is_language(token.lower_) or token.lower_ in LANGUAGE_CODES and token.text[:1].isupper()


def language_pair(doc: Doc, i: int) -> tuple[int, list[str]] | None:
    """The language pair written from token ``i`` ("English-French", "En-De", "English-to-German", "English to
    French", "English–German", "En/De"): where it ends and its two languages as written; or None."""
    if i >= len(doc):
        return None
    parts = [p for p in re.split(r"[-–—/→]", doc[i].text) if p]
    langs = [p for p in parts if p.lower() != "to"]
    if len(langs) == 2 and all(p.lower() in LANGUAGES or p.lower() in LANGUAGE_CODES for p in langs) \
            and len(parts) - len(langs) <= 1:
        return i + 1, langs
    if i + 2 < len(doc) and doc[i + 1].lower_ in _PAIR_JOINS and _language(doc[i]) and _language(doc[i + 2]):
        return i + 3, [doc[i].text, doc[i + 2].text]
    return None


DATA_KINDS = lexicon.words("data_kinds")


def only_data_kinds(tokens: Span) -> bool:
    """Whether the tokens name languages or kinds of data and nothing else ("English-German", "English to French",
    "EEG", "Tabular"): what a dataset holds, not its name."""
    return all(is_language(t.lower_) or t.lower_ in DATA_KINDS for t in tokens
               if t.text not in "-/→" and t.lower_ not in {"to", "and", "or"})


FAMILY_SUFFIXES = lexicon.ordered("family_suffixes")


def family_suffix(word: str) -> str | None:
    """The family suffix a lower-case word ends in ("gan-like": "-like"), or None."""
    return next((s for s in FAMILY_SUFFIXES if word.endswith(s)), None) if word.endswith(FAMILY_SUFFIXES) else None


# "based" written apart is a family suffix too ("graph attention network based models"), but not in "based on"
_BASED, _BASED_ON = "based", frozenset({"on", "upon"})


def may_hold_family_word(text: str) -> bool:
    """Whether ``text`` may hold a family word: a hyphen (every family suffix has one), or "based" written apart
    before another word (most phrases have neither)."""
    return "-" in text or " based " in f"{text} "


def family_base(words: Sequence[str], lookup: Mapping[str, object]) -> tuple[int, int, str, object | None] | None:
    """Where a family phrase's lower-case ``words`` name what it is built on ("dynamic programming-based
    algorithms", "a MixUp-based strategy"): ``(s, k, suffix, entry)`` for the first word ``k`` but the last that
    ends in a family suffix ("-based", "-like", "-style", ...), and the longest run ``words[s:k+1]`` (word ``k``
    without its suffix) that ``lookup`` holds, with its entry (``s = k`` and no entry when none); None for no
    family word. Word ``k`` may be "based" alone ("policy gradient based training"): the suffix is then the whole
    word, and the run ``words[s:k]`` (``s = k - 1`` when none is known)."""
    for k, word in enumerate(words[:-1]):
        apart = word == _BASED and k > 0 and words[k + 1] not in _BASED_ON
        suffix = word if apart else family_suffix(word)
        if suffix is None:
            continue
        for s in range(k if apart else k + 1):
            entry = lookup.get(" ".join(words[s:k] if apart else [*words[s:k], word[:-len(suffix)]]))
            if entry is not None:
                return s, k, suffix, entry
        return k - apart, k, suffix, None
    return None
