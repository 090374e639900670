"""Context rules for names the gazetteer does not know.

- datasets named by their context: ``the X dataset``, ``X and Y benchmarks``, ``datasets including X, Y, and Z``,
  ``achieves 95.6% accuracy on X``, ``the X environment``;
- tasks named by their context: ``image-to-image translation tasks``, and with their head: ``model stealing
  attacks`` (lower-case kinds only; "weak attacks", "novel attacks" name no kind);
- model-like names (``TabPFNv2``, ``CatBoost``, ``DeepSeekMoE-16B``) as methods of low confidence.
Names that the generic list forbids ("real-world datasets", "our method") are never taken.
"""
from __future__ import annotations

import re
from functools import lru_cache

from spacy.attrs import IDX, IS_ALPHA, IS_LOWER, IS_STOP, IS_TITLE, LIKE_NUM, LOWER, ORTH, SENT_START
from spacy.language import Language
from spacy.strings import get_string_id
from spacy.tokens import Doc

from kg.nlp.candidates import (Candidate, abbreviations, candidates, column, ids, model_shaped, namelike_at,
                               positions, sentence_bounds, span_text, token_ends)
from kg.nlp.components.gazetteer import load_gazetteer
from kg.nlp.components.specificity import load_specificity
from kg.nlp.labels import TASK_HEAD_NOUNS, TASK_NOUN, TASK_WORDS, names_a_task, only_data_kinds
from kg.nlp import lexicon
from kg.schema import initials

DATASET_HEADS = lexicon.words("dataset_heads")
ENVIRONMENT_HEADS = lexicon.words("environment_heads")
GAME_HEADS = lexicon.words("game_heads")
# A named challenge ("the BraTS 2018 challenge", "MICCAI iSEG-2017 Challenge") is a benchmark with a leaderboard.
BENCHMARK_HEADS = lexicon.words("benchmark_heads")
HEAD_MODIFIED = lexicon.words("head_modified")
_HEAD_MODIFIED_IDS = ids(HEAD_MODIFIED)
LIST_OPENERS = lexicon.words("list_openers")
SEPARATORS = lexicon.words("separators")
EVAL_CUES = lexicon.words("eval_cues")
TASK_HEADS = lexicon.words("task_heads")
MODIFIER_SUFFIXES = lexicon.ordered("modifier_suffixes")
# Verbs before a task's name ("solving black-box optimization"), not part of it.
LEADING_VERBS = lexicon.words("leading_verbs")
# Verbs before a task's name ("tackles sequential decision making problems", "help NLP tasks"), and words that say
# how hard, how many or which a task is ("numerous vision tasks", "the corresponding regression task").
TASK_SKIP = LEADING_VERBS | lexicon.words("task_skip")
# Words in -ly that are not adverbs ("anomaly detection", "homophily").
LY_WORDS = lexicon.words("ly_words")
TASK_NAMED_HEADS = lexicon.words("task_named_heads")
NOT_KINDS = lexicon.words("not_kinds") | lexicon.words("judging_words")
OBJECT_VERBS = lexicon.words("object_verbs")
METHOD_NAME_HEADS = lexicon.words("method_name_heads")
EPONYM_HEADS = lexicon.words("eponym_heads")
_POSSESSIVES = frozenset({"'s", "’s", "'", "’"})
MAX_EPONYM_MODIFIERS = 3  # "Nesterov's accelerated gradient descent"
MAX_NAME_TOKENS = 4
_DIMENSIONS = re.compile(r"\d+(?:\.\d+)?-?[dD]")  # "3-D", "2.5D"
_BOARD_SIZE = re.compile(r"\d+[x\u00d7]\d+")  # "9x9", "19×19"
_HAS_DIGIT = re.compile(r"\d")
_DATASET_TRIGGERS = frozenset(DATASET_HEADS | ENVIRONMENT_HEADS | GAME_HEADS | {"on", "across"})
# Capitalised at the start of a sentence or a title line, never a name ("... Expansion Network The challenges of"),
# nor a part of the paper ("the MMI Dataset (Section 4)").
FUNCTION_WORDS = lexicon.words("function_words")
_FUNCTION_IDS = ids(FUNCTION_WORDS)


def _runs_on(doc: Doc, i: int, generic: frozenset[str]) -> bool:
    """Whether token ``i`` carries a run of names on: name-like, and neither generic nor a function word."""
    if not namelike_at(doc, i):
        return False
    low = doc.vocab.strings[column(doc, LOWER)[i]]
    return low not in generic and low not in FUNCTION_WORDS


def _name_run_left(doc: Doc, end: int, generic: frozenset[str], through_of: bool = False) -> tuple[int, int] | None:
    """The run of name-like tokens ending just before token ``end``; with ``through_of``, carried on over "of"
    between two capitalised words ("the Attributes of People and Taskonomy datasets")."""
    start = end
    while start > 0 and end - start < MAX_NAME_TOKENS and _runs_on(doc, start - 1, generic):
        start -= 1
        if through_of and start > 1 and end - start + 1 < MAX_NAME_TOKENS and column(doc, LOWER)[start - 1] == _OF \
                and _titled(doc, start) and _titled(doc, start - 2) and _runs_on(doc, start - 2, generic):
            start -= 1
    return (start, end) if start < end else None


def _name_run_right(doc: Doc, start: int, limit: int, generic: frozenset[str],
                    through_of: bool = False) -> tuple[int, int] | None:
    """The run of name-like tokens from token ``start``; with ``through_of``, carried on over "of" between two
    capitalised words ("Honor of Kings")."""
    end = start
    while end < limit and end - start < MAX_NAME_TOKENS and _runs_on(doc, end, generic):
        end += 1
        if through_of and end + 1 < limit and end + 1 - start < MAX_NAME_TOKENS and column(doc, LOWER)[end] == _OF \
                and _titled(doc, end - 1) and _titled(doc, end + 1) and _runs_on(doc, end + 1, generic):
            end += 1
    orth = column(doc, ORTH)
    if end < limit and orth[end] == _OPEN and end + 2 < limit and orth[end + 2] == _CLOSE and namelike_at(doc, end + 1):
        end += 3  # "ScanObjectNN (PB-T50-RS)": a named split stays with its dataset
    return (start, end) if end > start else None


def _titled(doc: Doc, i: int) -> bool:
    """``doc[i].is_title``, from the doc's columns."""
    return bool(column(doc, IS_TITLE)[i])


_OF, _THE, _OPEN, _CLOSE = get_string_id("of"), get_string_id("the"), get_string_id("("), get_string_id(")")
_ET = get_string_id("et")


def _dataset(doc: Doc, span: tuple[int, int], benchmark: bool, confidence: float) -> Candidate | None:
    if only_data_kinds(doc[span[0]:span[1]]):
        return None  # "English and Chinese datasets", "EEG datasets", "(Tabular, Image, NLP)"
    pair = next((a for a in abbreviations(doc)
                 if span[0] <= min(a.long_start, a.short_start) and max(a.long_end, a.short_end) <= span[1]), None)
    known = load_gazetteer().lookup().get(pair.long_text(doc).lower()) if pair is not None else None
    if known is not None and known.label != "DATASET":
        return None  # a pair whose long form is the vocabulary's task or method: "most existing results on
        # Federated Learning (FL)" (not "the RAFT benchmark", a known method's name that a head word makes a dataset)
    strings, orth, lower, n = doc.vocab.strings, column(doc, ORTH), column(doc, LOWER), len(doc)
    first, end = span
    if strings[orth[first]].endswith("ing") and _titled(doc, first):  # "Using Parallel", "Building": a title's verb
        return None
    text = span_text(doc, first, end)
    if _short_for_a_description(doc, span, text) or _task_initials(doc, span, text):
        return None  # "three ObjectNav datasets" after "object-goal navigation (ObjectNav)", "12 IE benchmarks" in a
        # paper on information extraction: of a task
    if end - first == 1 and _titled(doc, first) and strings[lower[first]] in _eponyms():
        return None  # "Markov datasets", "Gaussian data": a kind of data, as in "hidden Markov model"
    if strings[lower[end - 1]].endswith(MODIFIER_SUFFIXES) or strings[lower[first]].startswith("non-") \
            or _DIMENSIONS.fullmatch(text):
        return None  # "GPU-like devices", "CPU-only environments", "non-RL datasets", "3-D environments": a kind
    if end + 1 < n and lower[end] == _ET and strings[lower[end + 1]].startswith("al"):
        return None  # "the WILDS 2.0 datasets Sagawa et al.": a citation
    if strings[orth[end - 1]].endswith("-"):  # "CIFAR- 10" (a line break in the source): the name goes on after
        # the space
        if end >= n or not strings[orth[end]][:1].isdigit() or "/" in strings[orth[end]]:
            return None  # ("CIFAR- 10/100": two names, which this rule does not split)
        k = end
        idx, ends = column(doc, IDX), token_ends(doc)
        while k + 1 < n and idx[k + 1] == ends[k] and strings[orth[k + 1]].isalnum():
            k += 1  # "ImageNet- 1K", tokenised "1" "K" (no space after token k)
        return Candidate(span[0], k + 1, "DATASET", "context", canonical=text + span_text(doc, end, k + 1),
                         benchmark=benchmark, confidence=confidence)
    return Candidate(span[0], span[1], "DATASET", "context", benchmark=benchmark, confidence=confidence)


def _datasets(doc: Doc, runs: list[tuple[int, int]], benchmark: bool, confidence: float) -> list[Candidate]:
    out = []
    for r in runs:
        if (c := _dataset(doc, r, benchmark, confidence)) is not None:
            out.append(c)
    return out


def _short_for_a_description(doc: Doc, run: tuple[int, int], text: str) -> bool:
    """Whether ``run`` is a short form the abstract defined before for a phrase in lower case, a task or a kind of
    data ("object-goal navigation (ObjectNav)", "heterogeneous graphs (HG)"): "three ObjectNav datasets" are
    datasets of that task, no dataset of that name (a dataset's long form is a name: "Stanford Sentiment Treebank
    (SST)"). ``text``: the run's text."""
    return any(a.short_end <= run[0] and a.short_text(doc) == text and a.long_text(doc).islower()
               for a in abbreviations(doc))


_ACRONYM = re.compile(r"[A-Z]{2,}s?")  # "IE", "NERs"


def _task_initials(doc: Doc, run: tuple[int, int], text: str) -> bool:
    """Whether ``run`` is a task's short form the vocabulary does not know: capitals that spell the initials of a
    task the vocabulary finds in the paper ("12 IE benchmarks" in a paper on information extraction are benchmarks
    of that task, no dataset). (A short form it knows, "VQA datasets", is its name there.) ``text``: the run's
    text."""
    if not _ACRONYM.fullmatch(text):
        return False
    letters, rules = text.rstrip("s"), candidates(doc)
    return not any(c.extractor == "gazetteer" and c.start < run[1] and run[0] < c.end for c in rules) and any(
        c.label == "TASK" and c.extractor == "gazetteer" and c.canonical and " " in c.canonical
        and initials(c.canonical) == letters for c in rules)


@lru_cache(maxsize=1)
def _eponyms() -> frozenset[str]:
    """Capitalised words the vocabulary writes as the one capitalised word of a method's or task's name, before or
    after lower-case words ("Markov games", "hidden Markov model", "Gaussian processes", "Thompson sampling"): a
    person's or a language's name that says what kind of thing it is (lower case)."""
    out = set()
    for e in load_gazetteer().entries:
        words = e.name.split()
        if e.label not in ("METHOD", "TASK") or len(words) < 2:
            continue
        for k, word in enumerate(words):
            rest = [w for w in words[:k] + words[k + 1:] if w[:1].isalpha()]
            if word.isalpha() and word.istitle() and rest and all(w.islower() for w in rest):
                out.add(word.lower())
    return frozenset(out)


_MAX_TASK_WORDS = 4  # words of a task's name between a list of datasets and its head word


def _task_before(doc: Doc, i: int) -> int:
    """Where a task's name in lower case starts that ends before token ``i`` and follows a name ("ScanRefer 3D object
    grounding datasets": "3D object grounding"); ``i`` when there is none."""
    k = i
    strings, orth, lower = doc.vocab.strings, column(doc, ORTH), column(doc, LOWER)
    while k > 0 and i - k < _MAX_TASK_WORDS and (strings[orth[k - 1]].islower() and lower[k - 1] not in _FUNCTION_IDS
                                                  or _DIMENSIONS.fullmatch(strings[orth[k - 1]])):
        k -= 1
    if k == i or k == 0 or not namelike_at(doc, k - 1) or not names_a_task(span_text(doc, k, i)):
        return i
    return k


def _names_before_head(doc: Doc, head: int, generic: frozenset[str]) -> list[tuple[int, int]]:
    """``X, Y and Z datasets`` -> the runs X, Y, Z; also with a task's name before the head word after two names or
    more ("the Nr3D, Sr3D and ScanRefer 3D object grounding datasets"; one name there may say which data the task
    reads: "NIR-VIS face recognition datasets")."""
    runs = []
    lower = column(doc, LOWER)
    i = task = _task_before(doc, head)
    while True:
        run = _name_run_left(doc, i, generic, through_of=True)
        if not run:
            break
        runs.append(run)
        i = run[0]
        if i > 0 and lower[i - 1] in _SEPARATOR_IDS:
            i -= 1
            if i > 0 and lower[i - 1] in _SEPARATOR_IDS:  # ", and"
                i -= 1
            continue
        break
    if task == head:
        return runs
    if len(runs) < 2 or _known_otherwise(doc, runs):
        return []  # (settings before a task's name: "UniDA and Open-Set DA object recognition benchmarks")
    return runs


def _known_otherwise(doc: Doc, runs: list[tuple[int, int]]) -> bool:
    """Whether a run is a short form the text defines, or holds a name the vocabulary knows, of something other
    than a dataset."""
    shorts = {span_text(doc, a.short_start, a.short_end) for a in abbreviations(doc)}
    return any(span_text(doc, *r) in shorts for r in runs) or any(
        c.label != "DATASET" and c.extractor == "gazetteer" and s <= c.start < e
        for c in candidates(doc) for s, e in runs)


def _names_after(doc: Doc, i: int, generic: frozenset[str], through_of: bool = False) -> list[tuple[int, int]]:
    """``X, Y, and Z`` starting at token ``i`` (stops at the end of the sentence)."""
    runs = []
    limit = sentence_bounds(doc, i)[1] if i < len(doc) else len(doc)
    lower = column(doc, LOWER)
    while i < limit:
        run = _name_run_right(doc, i, limit, generic, through_of)
        if not run:
            break
        runs.append(run)
        i = run[1]
        if i < limit and lower[i] in _SEPARATOR_IDS:
            i += 1
            if i < limit and lower[i] in _SEPARATOR_IDS:
                i += 1
            continue
        break
    return runs


# Words after a name that leave it a name of its own ("on ImageNet with ...", "on COCO, ...").
_AFTER_A_NAME = FUNCTION_WORDS | SEPARATORS | DATASET_HEADS | HEAD_MODIFIED | lexicon.words("after_a_name")


def _modifies_a_noun(doc: Doc, start: int, end: int) -> bool:
    """Whether the name run ``[start, end)`` is one capitalised plain word (or an acronym of three letters at most)
    followed by a lower-case word that it modifies: "on the Euclidean distance" names a distance, not a dataset
    called Euclidean. (A name with digits, inner capitals or hyphens stays: SciREX calls "English-to-French" in "on
    the English-to-French translation task" a dataset.)"""
    word = doc[start].text if end - start == 1 else ""
    if end >= len(doc) or not word.isalpha() or not (doc[start].is_title or word.isupper() and len(word) <= 3):
        return False  # (a short acronym modifies too: "on the US census data", "on AC power networks")
    nxt = doc[end]
    return nxt.is_alpha and nxt.is_lower and nxt.lower_ not in _AFTER_A_NAME


def _names_a_method(doc: Doc, end: int) -> bool:
    """Whether a method's head word follows a name: "building on the QuadNTK approach" builds on no dataset."""
    return end < len(doc) and doc[end].lower_ in METHOD_NAME_HEADS


_APPOSITIVE_END_IDS = ids(lexicon.words("appositive_ends"))
_ARTICLE_IDS = ids(frozenset({"a", "an"}))
_COMMA = get_string_id(",")


def _appositive_name(doc: Doc, head: int, generic: frozenset[str]) -> list[tuple[int, int]]:
    """``NAME, a challenging game`` / ``DrawBench, a comprehensive benchmark``: the name a head noun's appositive
    describes, as one run. None when the head modifies what follows ("KIP, a dataset distillation method"), the name
    ends a clause before the sentence's subject ("Using FooCLIP, a dataset of 400 million pairs is filtered"), the
    words between the article and the head are not lower-case modifiers, or the name is one common word that starts
    its sentence ("Second, a new dataset")."""
    strings, orth, lower, is_lower = doc.vocab.strings, column(doc, ORTH), column(doc, LOWER), column(doc, IS_LOWER)
    if head + 1 < len(doc) and lower[head + 1] not in _APPOSITIVE_END_IDS:
        return []
    k = head - 1
    while k > 0 and head - k <= 5 and is_lower[k] and lower[k] not in _ARTICLE_IDS:
        k -= 1
    if k < 2 or lower[k] not in _ARTICLE_IDS or orth[k - 1] != _COMMA:
        return []
    run = _name_run_left(doc, k - 1, generic)
    if run is None or run[0] > 0 and strings[lower[run[0] - 1]].endswith("ing"):
        return []  # (a clause before the sentence's subject: "Using FooCLIP, a dataset of 400 million pairs is ...")
    if run[0] > 0 and _BOARD_SIZE.fullmatch(strings[orth[run[0] - 1]]):
        run = (run[0] - 1, run[1])  # "9x9 Go"
    if run[1] - run[0] == 1 and column(doc, SENT_START)[run[0]] == 1 \
            and load_specificity().plain_word(strings[orth[run[0]]]):
        return []
    return [run]


_OPENER_OR_COMMA_IDS = ids(LIST_OPENERS | {","})
_LIST_OPENER_IDS = ids(LIST_OPENERS)


def _after_openers(doc: Doc, j: int) -> int:
    """The first token from ``j`` on that is no list opener or comma ("datasets, e.g., X": X)."""
    lower = column(doc, LOWER)
    while j < len(doc) and lower[j] in _OPENER_OR_COMMA_IDS:
        j += 1
    return j


_CITATION = re.compile(r"(?:19|20)\d\d[a-z]?|et|al\.?")  # "(Monderer and Shapley, 1996)", "(Shapley et al.)"
_MAX_NAME = 20  # characters of a name alone ("EfficientNetB0", "LiteTransformerSearch"); longer: words run together
# a lower-case word run into a capital ("UniversityofCalifornia", "CNNforOrdinalRegression"), initials ("A.Stolcke")
_RUN_TOGETHER = re.compile(r"[a-z](?:of|for|and|with|the|from|via)[A-Z]|[A-Za-z]\.[A-Za-z]")
# a citation key: authors' initials, a year and a letter ("ZCP22a"), a surname with initials and a year
# ("ZarembaSV14", "YuM17"), a surname and a four-digit year ("WanLi2013", "Pennington2014GloveGV")
_CITATION_KEY = re.compile(r"[A-Z]{2,6}\d\d[a-z]|[A-Z][a-z]+[A-Z0-9]{0,6}\d\d[a-z]?"
                           r"|[A-Z][a-z]+(?:[A-Z][a-z]+)?(?:19|20)\d\d\w*")


def _listed_games(doc: Doc, head: int, generic: frozenset[str]) -> list[tuple[int, int]]:
    """The games or environments a list opener names after a lower-case head ("games, e.g., Dota2 and Honor of
    Kings", "environments (NetHack, ALFWorld, ...)"): none in a citation ("stochastic games (Shapley, 1953)") nor a
    capitalised word that modifies the next one ("(e.g., Nash equilibria)")."""
    j = _after_openers(doc, head + 1)
    strings, orth, lower = doc.vocab.strings, column(doc, ORTH), column(doc, LOWER)
    if not any(lower[k] in _LIST_OPENER_IDS for k in range(head + 1, j)):
        return []
    runs = [r for r in _names_after(doc, j, generic, through_of=True) if not _modifies_a_noun(doc, *r)]
    if orth[head + 1] == _OPEN and runs:
        close = next((k for k in range(j, min(len(doc), j + 40)) if orth[k] == _CLOSE), len(doc))
        if any(_CITATION.fullmatch(strings[lower[k]]) for k in range(j, close)):
            return []
    return runs


def dataset_candidates(doc: Doc, generic: frozenset[str]) -> list[Candidate]:
    """Datasets named by context."""
    out: list[Candidate] = []
    strings, lower, is_lower, n = doc.vocab.strings, column(doc, LOWER), column(doc, IS_LOWER), len(doc)
    metric_ends: set[int] | None = None  # (made at the first "on" or "across")
    for i in positions(doc, _DATASET_TRIGGERS):
        low = strings[lower[i]]
        if low in ENVIRONMENT_HEADS or low in GAME_HEADS:
            if low in ENVIRONMENT_HEADS and not _modifies_next(doc, i):
                out += _datasets(doc, _names_before_head(doc, i, generic), False, 0.7)  # not "environment design"
            if is_lower[i]:  # (not "Markov Potential Games (MPGs)")
                out += _datasets(doc, _appositive_name(doc, i, generic) + _listed_games(doc, i, generic), False, 0.6)
        elif low in DATASET_HEADS:
            bench = low in BENCHMARK_HEADS
            if is_lower[i]:
                out += _datasets(doc, _appositive_name(doc, i, generic), bench, 0.6)
            if not (i + 1 < n and lower[i + 1] in _HEAD_MODIFIED_IDS):
                out += _datasets(doc, _names_before_head(doc, i, generic), bench, 0.8)
            j = _after_openers(doc, i + 1)
            if j > i + 1 or (i + 1 < n and namelike_at(doc, i + 1)):
                out += _datasets(doc, _names_after(doc, j, generic), bench, 0.7)
        elif low in {"on", "across"} and i + 1 < n:
            if metric_ends is None:
                metric_ends = _metric_ends(doc)
            if _evaluated_before(doc, i) or i in metric_ends:
                j = i + 1 + (lower[i + 1] == _THE)
                runs = _names_after(doc, j, generic) if j < n else []
                if runs:
                    if _after_a_value(doc, i):  # "6.6x on Apple M1 Pro CPU, and GauGAN by 4.2x": a new clause
                        runs = runs[:next((k for k, r in enumerate(runs) if k and _by_a_value(doc, r[1])), len(runs))]
                    runs = [r for r in runs if not _modifies_a_noun(doc, *r)
                            and not _names_a_method(doc, r[1]) and not _of_something(doc, r[1])]
                    out += _datasets(doc, runs, False, 0.5)
    return out


_EVAL_CUE_IDS = ids(EVAL_CUES)


def _evaluated_before(doc: Doc, i: int) -> bool:
    """Whether an evaluation cue or a number in digits comes up to 8 tokens before token ``i``, in its sentence (a
    number in digits: "the first attack on Go AIs" reports none)."""
    lower, like_num, orth, strings = column(doc, LOWER), column(doc, LIKE_NUM), column(doc, ORTH), doc.vocab.strings
    start = max(sentence_bounds(doc, i)[0], i - 8)
    for k in range(start, i):
        if lower[k] in _EVAL_CUE_IDS or like_num[k] and _HAS_DIGIT.search(strings[orth[k]]):
            return True
    return False


def _metric_ends(doc: Doc) -> set[int]:
    """Where the names of known metrics end: a metric right before "on" evaluates ("lower rollout MSE on
    RigidFall")."""
    return {c.end for c in candidates(doc) if c.label == "METRIC" and c.extractor == "gazetteer"}


_LAST_ITEM = frozenset({"and", "or"})


def listed_dataset_candidates(doc: Doc, generic: frozenset[str]) -> list[Candidate]:
    """The other names of a list that names two known datasets or more: "six data sources: YFCC, LAION, Conceptual
    Captions, WIT, RedCaps, Shutterstock" names WIT and RedCaps too (a list names things of one kind). Known: a
    name the vocabulary or a context rule reads as a dataset, here or elsewhere in the abstract. A name the
    vocabulary knows under another label stays what it is."""
    rules = candidates(doc)
    known = [c for c in rules if c.label == "DATASET" and c.extractor in ("gazetteer", "context")]
    if len(known) < 2:
        return []
    lookup = load_gazetteer().lookup()
    named = {span_text(doc, c.start, c.end) for c in known}  # (a dataset the abstract names elsewhere counts too)
    others: set[str] | None = None  # (named otherwise, or the paper's own short forms: made for a list of datasets)
    out: list[Candidate] = []
    done: set[int] = set()
    for c in sorted(known, key=lambda c: c.start):
        if c.start in done:
            continue
        runs = _list_names(doc, c.start, generic)
        done.update(a for a, _ in runs)
        if sum(span_text(doc, a, b) in named for a, b in runs) < 2:
            continue
        if others is None:
            others = {span_text(doc, c.start, c.end) for c in rules if c.label != "DATASET"} | {
                a.short_text(doc) for a in abbreviations(doc)}
        for a, b in runs:
            name = span_text(doc, a, b)
            entry = lookup.get(name.lower())
            if (entry is None or entry.label == "DATASET") and name not in others \
                    and not any(c.start < b and a < c.end for c in rules):  # (a rule's reading of it stands)
                out += _datasets(doc, [(a, b)], False, 0.5)
    return out


def listed_method_candidates(doc: Doc, generic: frozenset[str], common: frozenset[str]) -> list[Candidate]:
    """The other names of a list that names two methods the vocabulary knows or more: "baselines such as PPO, SAC
    and DrQ-v2" names DrQ-v2 too (a list names things of one kind). A name a rule reads otherwise stays as it is
    read."""
    rules = candidates(doc)
    lower, n = column(doc, LOWER), len(doc)
    known = [c for c in rules if c.label == "METHOD" and c.extractor == "gazetteer"]
    listed = [c for c in known if c.end < n and lower[c.end] in _SEPARATOR_IDS
              or c.start > 0 and lower[c.start - 1] in _SEPARATOR_IDS]  # (in a list: a separator beside it)
    if len(listed) < 2:
        return []
    named, lookup = {span_text(doc, c.start, c.end) for c in known}, load_gazetteer().lookup()
    others: set[str] | None = None  # (the names read otherwise: made for a list of known methods only)
    out: list[Candidate] = []
    done: set[int] = set()
    for c in sorted(listed, key=lambda c: c.start):
        if c.start in done:
            continue
        runs = _list_names(doc, c.start, generic)
        done.update(a for a, _ in runs)
        if sum(span_text(doc, a, b) in named for a, b in runs) < 2:
            continue
        if others is None:
            others = {span_text(doc, c.start, c.end) for c in rules if c.label != "METHOD"}
        for a, b in runs:
            name = span_text(doc, a, b)
            if name.lower() not in lookup and name not in others and name.lower() not in common \
                    and doc[b - 1].lower_ not in _COMPONENT_HEADS and not any(c.start < b and a < c.end for c in rules):
                out.append(Candidate(a, b, "METHOD", "context", confidence=0.5))  # (not an everyday word,
                # "Gradients" of "Gradients x Input", nor a part: "Attention layers")
    return out


def _list_names(doc: Doc, start: int, generic: frozenset[str]) -> list[tuple[int, int]]:
    """The names of the list that holds the one at token ``start``, from its first to the one after "and" or "or",
    which ends it ("... and WMT'14, FiSHformers use")."""
    runs = _names_after(doc, _list_start(doc, start, generic), generic)
    for k in range(1, len(runs)):
        if any(doc[t].lower_ in _LAST_ITEM for t in range(runs[k - 1][1], runs[k][0])):
            return runs[:k + 1]
    return runs


def _list_start(doc: Doc, start: int, generic: frozenset[str]) -> int:
    """The first name of the list of names that holds the one at token ``start``."""
    first = start
    while True:
        j = first
        while j > 0 and first - j < 2 and doc[j - 1].lower_ in SEPARATORS:
            j -= 1
        run = _name_run_left(doc, j, generic) if j < first else None
        if run is None:
            return first
        first = run[0]


_COMPONENT_HEADS = lexicon.words("component_heads")
_SEPARATOR_IDS = ids(SEPARATORS)
_VALUE_HEDGES = lexicon.words("value_hedges")


def _after_a_value(doc: Doc, at: int) -> bool:
    """Whether a value stands in the three tokens before token ``at`` ("6.6x on", "by 3.0x on")."""
    strings, orth = doc.vocab.strings, column(doc, ORTH)
    for k in range(max(0, at - 3), at):
        if strings[orth[k]][:1].isdigit():
            return True
    return False


def _by_a_value(doc: Doc, end: int) -> bool:
    """Whether "by" and a value follow a name at token ``end``: the name is what a value measures, a new clause's
    ("on Apple M1 Pro CPU, and GauGAN by 4.2x on RTX 3090" speeds up GauGAN), and the list of places ends before it."""
    if end >= len(doc) or doc[end].lower_ != "by":
        return False
    k = end + 1
    while k < len(doc) and k - end <= 3 and (doc[k].text == "$" or doc[k].lower_ in _VALUE_HEDGES):
        k += 1
    return k < len(doc) and doc[k].text[:1].isdigit()


def _of_something(doc: Doc, end: int) -> bool:
    """Whether "of" and a lower-case word follow a name at token ``end``: a part or a property of something ("an
    assumption on the Jacobian of the operator"), no dataset (a name goes on in capitals: "the Attributes of
    People dataset")."""
    return end + 1 < len(doc) and doc[end].lower_ == "of" and doc[end + 1].is_lower


def _keeps_head(doc: Doc, head: int) -> bool:
    """Whether a task's name keeps its head word: an adjective before it that makes a known task with it ("linear
    inverse problem", as the vocabulary's "inverse problems"); without it, such a name is a fragment ("constrained
    convex"), which the specificity filter drops."""
    strings, lower = doc.vocab.strings, column(doc, LOWER)
    prev = strings[lower[head - 1]]
    if not strings[lower[head]].startswith("problem") or not load_specificity().adjective(prev):
        return False
    known = load_gazetteer().lookup()
    return f"{prev} problems" in known or f"{prev} problem" in known


def _modifies_next(doc: Doc, head: int) -> bool:
    """Whether a singular head word (token ``head``) modifies the noun after it ("problem solver", "environment
    generation") rather than ends a name: that word is a lower-case word that is no function word, adverb,
    adjective, verb form or plural ("the subset selection problem tractable" ends at "problem")."""
    after = head + 1
    if after >= len(doc):
        return False
    strings, lower = doc.vocab.strings, column(doc, LOWER)
    low = strings[lower[after]]
    return not strings[lower[head]].endswith("s") and column(doc, IS_ALPHA)[after] and column(doc, IS_LOWER)[after] \
        and not column(doc, IS_STOP)[after] and low not in TASK_SKIP and not _adverb(low) \
        and not low.endswith(("s", "ed", "ing")) and not load_specificity().adjective(low)


def _adverb(low: str) -> bool:
    """An -ly adverb ("relatively", "carefully"), not a noun or adjective in -ly ("anomaly", "user-friendly")."""
    return len(low) > 4 and low.endswith("ly") and low.rsplit("-", 1)[-1] not in LY_WORDS and not low.endswith("friendly")


_GERUND_AFTER_IDS = ids(frozenset({"by", "for", "when", "while"}))  # words after which an -ing word is a verb's


def task_candidates(doc: Doc, generic: frozenset[str]) -> list[Candidate]:
    """``X Y tasks`` -> the task ``X Y`` (lower-case words only; no POS tagger in the blank pipeline)."""
    out = []
    strings, orth, lower = doc.vocab.strings, column(doc, ORTH), column(doc, LOWER)
    alpha, stop, like_num = column(doc, IS_ALPHA), column(doc, IS_STOP), column(doc, LIKE_NUM)
    for i in positions(doc, frozenset(TASK_HEADS)):
        if i == 0:
            continue
        if _modifies_next(doc, i):
            continue  # "a problem solver", "task specification"
        start = i
        sent_start = sentence_bounds(doc, i)[0]
        while start > sent_start and i - start < 4:
            p = start - 1
            low = strings[lower[p]]
            if not (alpha[p] or "-" in strings[orth[p]]) or stop[p] or like_num[p] or low in TASK_SKIP \
                    or low in generic or low in OBJECT_VERBS:
                break
            if _adverb(low):  # and the word it modifies: "largely unsolved problem", "highly ill-posed problem"
                start = min(start + 1, i)
                break
            if low.endswith("ing") and start - 2 >= sent_start and lower[start - 2] in _GERUND_AFTER_IDS:
                break  # a verb after "by" or "for": "by conditioning classification tasks on concepts"
            start -= 1
        if start < i and (strings[lower[i]].startswith("task") or i - start >= 2):
            text = span_text(doc, start, i).lower()
            if i - start == 1 and not (TASK_NOUN.search(text) or strings[orth[start]].isupper()):
                continue  # one word before "task" names a task as a noun of doing or an acronym ("RM task"), not "shared"
            if text not in generic:
                end = i + 1 if _keeps_head(doc, i) else i
                out.append(Candidate(start, end, "TASK", "context", confidence=0.5))
    return out


def named_task_candidates(doc: Doc, generic: frozenset[str]) -> list[Candidate]:
    """``X Y attacks`` -> the task ``X Y attacks``: up to three lower-case words before the head that say what kind
    ("poisoning attacks", "decision-based attacks"), without those that judge ("weak", "novel") or every abstract
    uses; a capitalised word names an attack method, which the vocabulary and the tagger read."""
    out = []
    background = load_specificity().generic_words
    for i in positions(doc, frozenset(TASK_NAMED_HEADS)):
        start, sent_start = i, sentence_bounds(doc, i)[0]
        while start > sent_start and i - start < 3:
            prev = doc[start - 1]
            low = prev.lower_
            if not (prev.is_alpha or "-" in prev.text) or prev.is_stop or prev.like_num or low in TASK_SKIP \
                    or low in generic or _adverb(low) or low in OBJECT_VERBS or low in NOT_KINDS or low in background:
                break  # (a word that judges, "weak", or that every abstract uses ends the kind)
            if start < i and low.endswith(("ing", "ed")) and "-" not in low:
                break  # a verb before the kind ("revisiting injective attacks"); "poisoning attacks" is a kind
            start -= 1
        if start < i and all(t.text.islower() for t in doc[start:i]):
            out.append(Candidate(start, i + 1, "TASK", "context", confidence=0.5))
    return out


_EXAMPLE_HEADS = frozenset({"tasks", "applications", "problems"})
_EXAMPLE_OPENERS = lexicon.words("example_openers")
MAX_EXAMPLE_WORDS = 4
_DOING = re.compile(r"(?:tion|sion|ing|ment|sis)$")


def _example_start(doc: Doc, i: int) -> int | None:
    """Where the examples after a plural head word begin: "tasks such as", "applications, e.g.,", "problems
    (including"; None when no example cue follows it."""
    j = i + 1
    while j < len(doc) and doc[j].text in (",", "("):
        j += 1
    if j + 1 < len(doc) and doc[j].lower_ == "such" and doc[j + 1].lower_ == "as":
        j += 2
    elif j < len(doc) and doc[j].lower_ in _EXAMPLE_OPENERS:
        j += 1
    else:
        return None
    return j + 1 if j < len(doc) and doc[j].text == "," else j


def _example_item(doc: Doc, start: int, end: int, generic: frozenset[str], common: frozenset[str]) -> int:
    """The end of a list item from ``start``: lower-case words (or short forms) up to a separator; ``start`` when
    the words do not read as one task's name (a function word, a verb in front, more than a few words, one word
    many abstracts use: "interpolation", "matching")."""
    k = start
    while k < end and doc[k].lower_ not in SEPARATORS and doc[k].text not in ".;:()":
        tok = doc[k]
        if not (tok.is_lower and (tok.is_alpha or "-" in tok.text) or tok.text.isupper() and tok.is_alpha) \
                or tok.is_stop or tok.lower_ in FUNCTION_WORDS or k - start >= MAX_EXAMPLE_WORDS:
            return start
        k += 1
    words = doc[start:k].text.lower()
    first = doc[start].lower_
    last = words.rsplit(" ", 1)[-1]
    if k == start or words in generic or first in TASK_SKIP or first in OBJECT_VERBS or last in TASK_HEADS \
            or k - start > 1 and first.endswith("ing") or not _task_head(last) or k - start == 1 and first in common:
        return start
    return k


def _task_head(word: str) -> bool:
    """Whether a word can end a task given as an example: a noun of doing ("pathfinding", "texture transfer"), not
    a field ("biology", "finance") or a quantity ("reward variance")."""
    return bool(_DOING.search(word.rsplit("-", 1)[-1])) or word in TASK_WORDS or word in TASK_HEAD_NOUNS


def example_task_candidates(doc: Doc, generic: frozenset[str], common: frozenset[str]) -> list[Candidate]:
    """The tasks a paper gives as examples of its tasks or applications: "tasks such as hierarchical multi-label
    classification, pathfinding and preference learning", "applications such as texture transfer and scale-space
    interpolation". Each item is a few lower-case words a task's head word ends ("behavior cloning", not "biology"
    or "parking a car"); the list ends at its last "and"/"or" item, or at any item that is no such name."""
    return _listed_examples(doc, _EXAMPLE_HEADS, "TASK", lambda j, end: _example_item(doc, j, end, generic, common))


def _listed_examples(doc: Doc, heads: frozenset[str], label: str, item) -> list[Candidate]:
    """``label`` candidates for the items listed after an example cue that follows one of ``heads`` ("tasks such
    as X, Y and Z"); ``item(start, end)``: where the item from ``start`` ends, ``start`` when none does. The list
    ends at its last "and"/"or" item, or at any item that is none; a name a rule knows inside an item stands as the
    rules and the tagger read it."""
    out, rules = [], candidates(doc)
    for i in positions(doc, heads):
        j = _example_start(doc, i)
        if j is None:
            continue
        end = sentence_bounds(doc, i)[1]
        while j < end:
            k = item(j, end)
            if k == j:
                break
            if not any(c.start < k and j < c.end for c in rules):
                out.append(Candidate(j, k, label, "context", confidence=0.5))
            last = any(doc[t].lower_ in _LAST_ITEM for t in range(max(j - 2, i), j))
            if last or k >= end or doc[k].lower_ not in SEPARATORS:
                break
            j = k + 1
            while j < end and doc[j].lower_ in SEPARATORS:
                j += 1
    return out


_METRIC_LIST_HEADS = frozenset({"metrics", "measures"})  # (not "a metric such as": a criterion the method uses)
MAX_METRIC_WORDS = 3


def _metric_item(doc: Doc, start: int, end: int, generic: frozenset[str]) -> int:
    """The end of a measure's name listed from ``start``: up to three lower-case words or a name ("wirelength",
    "CKA"), up to a separator; ``start`` when the words do not read as one name (a function word, a verb in front,
    a mathematical formula, more words)."""
    k = start
    while k < end and doc[k].lower_ not in SEPARATORS and doc[k].text not in ".;:()":
        tok = doc[k]
        if not (tok.is_lower and (tok.is_alpha or "-" in tok.text) or tok.is_alpha and tok.is_upper) \
                or tok.is_stop or tok.lower_ in FUNCTION_WORDS or k - start >= MAX_METRIC_WORDS:
            return start
        k += 1
    if k == start or doc[start:k].text.lower() in generic or doc[start].lower_ in OBJECT_VERBS:
        return start
    return k


def example_metric_candidates(doc: Doc, generic: frozenset[str]) -> list[Candidate]:
    """The measures a paper lists as its metrics: "performance metrics, including wirelength, congestion, and
    density", "distance metrics like SVCCA, PWCCA, CKA, and OPD". Each item is a name or a few lower-case words; the
    list ends at its last "and"/"or" item, or at any item that is no such name."""
    return _listed_examples(doc, _METRIC_LIST_HEADS, "METRIC", lambda j, end: _metric_item(doc, j, end, generic))


@lru_cache(maxsize=65536)
def _model_name_text(t: str) -> bool:
    """Whether a model-shaped token's text reads as a model name: mixed case inside a hyphen-part ("TabPFNv2",
    "CatBoost"; not just capitalised parts, "Vision-Language"), or capitals with digits, and no modifier suffix."""
    if len(t) < 3 or not t[0].isalpha() or t.lower().endswith(MODIFIER_SUFFIXES):
        return False
    return _mixed_case(t) or (any(c.isdigit() for c in t) and any(c.isupper() for c in t))


def stands_as_name(doc: Doc, i: int) -> bool:
    """Whether model-shaped token ``i`` reads as a model's or a dataset's name without the trained model's support:
    written in mixed case inside a word, from a capital ("TinyBERT", "CogView2", "WideResNet-28"), and none of: the
    plural of an acronym ("MDPs", "NEs"); a name with a participle after it ("AdaGrad-inspired"); a citation key
    ("ZCP22a"); a person cited ("DeVore et al.", "DeGroot 1962"); words run together, as text drawn from a PDF
    writes them ("UniversityofCalifornia", "D.YuandG.Zweig", "NeuralMessagePassingforQuantumChemistry"). Capitals
    and digits alone ("HK16", "TX2", "COLT21") need the model's support: citation keys, devices and venues are
    written so."""
    text = doc[i].text
    if not text[:1].isupper() or len(text) > _MAX_NAME or _RUN_TOGETHER.search(text) \
            or text.endswith("s") and text[:-1].replace("-", "").isupper() or _CITATION_KEY.fullmatch(text):
        return False
    last = text.rsplit("-", 1)[-1]
    if "-" in text and last.islower() and last.endswith("ed") or not _mixed_case(text):
        return False
    after = doc[i + 1].lower_ if i + 1 < len(doc) else ""
    return not (after == "et" or _CITATION.fullmatch(after))


def _mixed_case(text: str) -> bool:
    """Whether a hyphen-part of ``text`` has a capital after its first letter and a lower-case letter."""
    return any(any(c.isupper() for c in part[1:]) and any(c.islower() for c in part) for part in text.split("-"))


def model_name_candidates(doc: Doc, generic: frozenset[str]) -> list[Candidate]:
    """Model-shaped tokens (mixed case or letters with digits, not plain acronyms) as low-confidence methods."""
    out = []
    strings, orth, lower = doc.vocab.strings, column(doc, ORTH), column(doc, LOWER)
    for i in model_shaped(doc):
        if not _model_name_text(strings[orth[i]]):
            continue
        if strings[lower[i]] not in generic and namelike_at(doc, i):
            out.append(Candidate(i, i + 1, "METHOD", "name", confidence=0.3))
    return out


def eponym_candidates(doc: Doc, common: frozenset[str]) -> list[Candidate]:
    """Methods named after a person: a capitalised name that is no common word, its possessive, up to three
    lower-case words and the last head word of methods among them ("Sinkhorn's algorithm", "Oja's update rule",
    "Polyak's classical averaging scheme"; not "Today's best algorithm" nor "Hoeffding's inequality"), named
    as the vocabulary names them ("Sinkhorn's algorithm" is its Sinkhorn algorithm), else as written with a
    straight quote. A vocabulary name inside one is taken first ("Nesterov's accelerated gradient descent" gives
    gradient descent)."""
    out, lookup = [], load_gazetteer().lookup()
    for i in positions(doc, _POSSESSIVES, ORTH):
        if not 0 < i < len(doc) - 1:
            continue
        name = doc[i - 1].text
        if len(name) < 3 or not name.isalpha() or not name[0].isupper() or not name[1:].islower() \
                or name.lower() in common or name.lower() in FUNCTION_WORDS:
            continue
        if doc[i].text in ("'", "’") and (not name.endswith("s") or doc[i].whitespace_ == ""):
            continue  # a bare apostrophe is a possessive after an "s" ("Erdos' method"), else a quote
        head, k = None, i + 1
        while k < len(doc) and k - i <= MAX_EPONYM_MODIFIERS + 1 and doc[k].is_lower \
                and doc[k].lower_ not in FUNCTION_WORDS:
            if doc[k].lower_ in EPONYM_HEADS:
                head = k  # the last head word: "Oja's update rule"
            k += 1
        if head is not None:
            text = doc[i - 1:head + 1].text.replace("’", "'")
            known = lookup.get(" ".join(t.lower_ for t in doc[i - 1:head + 1] if t.text not in _POSSESSIVES))
            canonical = known.name if known is not None and known.label == "METHOD" else text  # "Sinkhorn algorithm"
            out.append(Candidate(i - 1, head + 1, "METHOD", "context", canonical=canonical, confidence=0.5))
    return out


@Language.factory("kg_context", default_config={"directory": ""})
def make_context(nlp: Language, name: str, directory: str):
    """Pipeline component adding context-rule candidates (datasets, tasks, model-like names)."""
    generic = load_gazetteer(directory).generic
    common = lexicon.common_words()

    def context(doc: Doc) -> Doc:
        out = candidates(doc)
        out += dataset_candidates(doc, generic)
        out += listed_dataset_candidates(doc, generic)
        out += listed_method_candidates(doc, generic, common)
        out += task_candidates(doc, generic)
        out += named_task_candidates(doc, generic)
        out += example_task_candidates(doc, generic, common)
        out += example_metric_candidates(doc, generic)
        out += model_name_candidates(doc, generic)
        out += eponym_candidates(doc, common)
        return doc

    return context
