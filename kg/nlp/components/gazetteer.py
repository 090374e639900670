"""Curated vocabularies of datasets, metrics, tasks and methods, matched as token sequences (as spaCy's
PhraseMatcher matches them, by :class:`kg.nlp._doc.PhraseIndex`).

The data lives in versioned JSONL files (``kg/nlp/data/gazetteer``), one entry per line:
``{"name": "CIFAR-10", "aliases": ["CIFAR10"], "label": "DATASET", "benchmark": false, "case_sensitive": false}``.
``generic.jsonl`` lists words that pattern rules must never take as a name ("dataset", "our method").
"""
from __future__ import annotations

import hashlib
import json
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from spacy.attrs import IDX, LOWER, ORTH
from spacy.language import Language
from spacy.strings import get_string_id
from spacy.tokens import Doc

from kg.nlp import _doc, lexicon
from kg.nlp.candidates import (Candidate, abbreviations, candidates, column, doc_text, has_number, ids,
                               sentence_bounds, span_text, token_ends)
from kg.nlp.labels import FAMILY_SUFFIXES, is_language, language_pair
from kg.schema import spaced

DEFAULT_DIR = lexicon.GAZETTEER
CONCEPT_FILES = lexicon.CONCEPT_FILES


@dataclass(frozen=True, slots=True)
class Entry:
    name: str
    label: str
    aliases: tuple[str, ...] = ()
    benchmark: bool = False
    case_sensitive: bool = False
    needs_number: bool = False  # ambiguous measures ("speedup", "KL divergence"): a metric only next to a number


@dataclass
class Gazetteer:
    entries: list[Entry]
    generic: frozenset[str] = field(default_factory=frozenset)
    version: str = "unversioned"
    _lookup: dict[str, Entry] | None = field(default=None, repr=False, compare=False)

    def lookup(self) -> dict[str, Entry]:
        """Lower-cased surface form -> entry, for every name and alias (made once; do not change it)."""
        if self._lookup is None:
            out: dict[str, Entry] = {}
            for e in self.entries:
                for form in (e.name, *e.aliases):
                    out.setdefault(form.lower(), e)
            self._lookup = out
        return self._lookup

    def head_words(self, label: str, min_names: int = 2) -> frozenset[str]:
        """The last words (lower case, with their plurals) of the names of two words or more that at least
        ``min_names`` entries of ``label`` end in: what the vocabulary's names of that kind are ("regression",
        "kernel", "attention" for methods)."""
        counts: dict[str, int] = {}
        for e in self.entries:
            if e.label == label:
                for head in {form.rsplit(" ", 1)[1].lower() for form in (e.name, *e.aliases) if " " in form}:
                    counts[head] = counts.get(head, 0) + 1
        return frozenset(f for head, n in counts.items() if n >= min_names for f in (head, plural(head)) if f)


def _read_jsonl(path: Path) -> list[dict]:
    rows = []
    with path.open(encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            if line.strip():
                try:
                    rows.append(json.loads(line))
                except json.JSONDecodeError as exc:
                    raise ValueError(f"{path}:{n}: invalid JSON in gazetteer: {exc.msg}") from None
    return rows


@lru_cache(maxsize=4)
def load_gazetteer(directory: str = "") -> Gazetteer:
    """Read the gazetteer files in ``directory`` (the packaged data when empty)."""
    root = Path(directory) if directory else DEFAULT_DIR
    entries = []
    for name in CONCEPT_FILES:
        path = root / name
        if not path.exists():
            continue
        for row in _read_jsonl(path):
            entries.append(Entry(
                name=row["name"], label=row["label"], aliases=tuple(row.get("aliases", ())),
                benchmark=bool(row.get("benchmark", False)), case_sensitive=bool(row.get("case_sensitive", False)),
                needs_number=bool(row.get("needs_number", False)),
            ))
    generic_path = root / "generic.jsonl"
    generic = frozenset(r["name"].lower() for r in _read_jsonl(generic_path)) if generic_path.exists() else frozenset()
    manifest = root / "manifest.json"
    version = json.loads(manifest.read_text())["version"] if manifest.exists() else "unversioned"
    return Gazetteer(entries, generic, version)


_ES_ENDINGS = lexicon.ordered("plural_es_endings")  # (in lower case) a noun that takes "es" in the plural


def plural(form: str) -> str:
    """The plural of a name whose last word is a noun ("word error rate" -> "word error rates", "GAN" -> "GANs",
    "accuracy" -> "accuracies", "test loss" -> "test losses", "beam search" -> "beam searches"); empty when it ends
    in one "s" (a plural already: "LoRAs") or not in a letter."""
    if not form or not form[-1].isalpha():
        return ""
    if form.endswith(_ES_ENDINGS):
        return form + "es"
    if form[-1] in "sS":
        return ""
    if form[-1] == "y" and len(form) > 1 and form[-2] not in "aeiou":
        return form[:-1] + "ies"
    return form + "s"


_OR_WORDS = "|".join(sorted(lexicon.words("american_or_words")))
# American spellings and their British forms: "-ize" words (which Oxford spelling keeps: the last rule), "-yze",
# a single "l" doubled before an ending ("modeling", "labeled"), and "-or" words ("color", "tumor")
_BRITISH = [(re.compile(r"(?<=[^aeiou][ae])l(ed|ing|er|ers)\b", re.I), r"ll\1"),
            (re.compile(r"\b(%s)(?=s?\b|al|ally|ed|ing|hood|iz|is|ful)" % _OR_WORDS, re.I),
             lambda m: m.group(1)[:-2] + "our"),
            (re.compile(r"(?<=[a-z])yz(e|es|ed|er|ers|ing)\b", re.I), r"ys\1"),
            (re.compile(r"(?<=[a-z]{3})iz(ation|ations|e|es|ed|er|ers|ing)\b", re.I), r"is\1")]


def british(form: str) -> list[str]:
    """A name as British English spells it, with "-ize" and without ("image colorization" -> "image
    colourisation", "image colourization"; "language modeling" -> "language modelling"); none when it reads the
    same."""
    out = []
    spelled = form
    for pattern, repl in _BRITISH:
        if pattern is _BRITISH[-1][0] and spelled != form:
            out.append(spelled)  # Oxford spelling: "colour", "modelling", but "-ize"
        spelled = pattern.sub(repl, spelled)
    if spelled != form and spelled not in out:
        out.append(spelled)
    return out


_SIZE = re.compile(r"-(\d+(?:\.\d+)?[BMK]|[BSLHT]|[BSLH]\d{1,2}|base|large|small|tiny|huge|giant|XL|XXL)(?![\w/-])")
# a size or variant after a model's name: "T5-3B", "Swin-B", "ViT-B32", "OPT-1.3B", "BERT-base"
_FAMILY_SUFFIX = re.compile("(?:%s)(?![\\w-])" % "|".join(map(re.escape, FAMILY_SUFFIXES)), re.IGNORECASE)
# a family suffix ending its word: "-based", "-like", "-style", ...
_RELEASE = r"(?:(?:19[89]|20[0-3])\d|v\d+(?:\.\d+)?)"  # a year or a version: "2015", "v2", "v1.1"
VERSION = re.compile(f"^{_RELEASE}$")
_RELEASE_SUFFIX = re.compile(f"[ \\-_]?{_RELEASE}$")  # the same at the end of a name: "CoNLL-2005" -> "CoNLL"


_SPELLED_OUT_ANY_CASE = ("METRIC", "METHOD")  # (a dataset's spelled-out name lower-cased may be its task's)


def _spelled_out(form: str) -> bool:
    """Whether a form spells a name out in words ("Feature Pyramid Network", "Gaussian processes"), not a short
    form: two or more words, two of them of four letters or more, and no capital inside a word ("GPs", "ResNet")."""
    words = form.split()
    return len(words) >= 2 and all(w[1:] == w[1:].lower() for w in words) and sum(len(w) >= 4 for w in words) >= 2


_COMPARISON = lexicon.words("comparison_words")


def _idioms() -> dict[int, frozenset[int]]:
    """A known one-word name -> the words before it that make it a word of an idiom (lower-case string ids)."""
    out: dict[int, set[int]] = {}
    for pair in lexicon.words("idioms"):
        before, word = pair.split(" ")
        out.setdefault(get_string_id(word), set()).add(get_string_id(before))
    return {word: frozenset(before) for word, before in out.items()}


_IDIOMS = _idioms()
_LANGUAGE_CODES = dict(pair.split(":") for pair in lexicon.ordered("language_code_names"))
_UNIT_AT_END = re.compile(r"(?<=[A-Za-z\-]\d)(?=[KMBkm]$)|(?<=[A-Za-z\-]\d\d)(?=[KMBkm]$)"
                          r"|(?<=[A-Za-z\-]\d{3})(?=[KMBkm]$)")  # (a lookbehind has one width: one per digit count)


_HYPHENATED_LABELS = frozenset({"METHOD", "TASK"})  # (a metric so written is a modifier: "sample-complexity bounds")
_WORD = re.compile(r"[A-Za-z]+")
# words after which a noun phrase has ended ("gradient-descent and ...", "the DDRO problem in ...")
PHRASE_BREAKS = lexicon.words("function_words") | lexicon.words("prepositions") | lexicon.words("clause_words")


def _hyphenations(form: str) -> list[str]:
    """A name of two to four plain words as papers also write it, with hyphens that make words one token: all of
    them for two or three words ("gradient-descent", "branch-and-bound"), one pair for three or four ("Monte-Carlo
    tree search", "tree-search"); none for other names."""
    words = form.split()
    if not 2 <= len(words) <= 4 or not all(_WORD.fullmatch(w) for w in words):
        return []
    out = ["-".join(words)] if len(words) <= 3 else []
    if len(words) >= 3:
        out += [" ".join([*words[:i], f"{words[i]}-{words[i + 1]}", *words[i + 2:]]) for i in range(len(words) - 1)]
    return out


def _unit_apart(form: str) -> str:
    """A name ending in a number and its unit, written with the unit apart, as tokenised text writes it ("JFT-300M"
    as "JFT-300 M", "ImageNet-1K" as "ImageNet-1 K"); "" for other names."""
    return _UNIT_AT_END.sub(" ", form, count=1) if _UNIT_AT_END.search(form) else ""


_OPEN, _CLOSE = get_string_id("("), get_string_id(")")


# "semantic and instance segmentation": a word, "and" or "or", then two or three words the last of which the first
# word may share (:meth:`GazetteerMatcher._shared_heads`; the coordinator is found first, then the words around it)
_SHARED_AFTER = re.compile(r" (?:and|or) ([A-Za-z][\w-]* [a-z][\w-]*(?: [a-z][\w-]*)?)(?![\w-])")
_SHARED_BEFORE = re.compile(r"[A-Za-z][\w-]*")
_SHARED_HEAD_LABELS = frozenset({"TASK", "METHOD", "METRIC"})


def _coordinators(text: str) -> Iterator[int]:
    """Where " and " and " or " stand in ``text`` (str.find: a regular expression visits every character)."""
    for word in (" and ", " or "):
        at = text.find(word)
        while at >= 0:
            yield at
            at = text.find(word, at + 1)


_PROPER_PART = re.compile(r"[A-Z][a-z]+|\d+")  # a part of a proper name: "Megatron", "Turing", the "1" of "Jurassic-1"
_SHORT_FORM = re.compile(r"[A-Z][A-Z0-9]+s?")  # "NLG", "RL", "POMDPs"


def _ends_proper_name(doc: Doc, start: int, common: frozenset[str], known: dict[str, Entry]) -> bool:
    """Whether the words right before token ``start`` make a proper name of two parts or more, joined by hyphens or
    spaces: capitalised words no abstract writes in lower case, and numbers ("Megatron-Turing", "Jurassic-1"), none
    of them a language, and no known name ending them ("Monte Carlo RL" is Monte Carlo and RL). A short form after
    such a name is its last word ("Megatron-Turing NLG" is a model, not natural language generation); a capitalised
    common word names a kind ("Multi-Agent RL"), languages a pair ("Kazakh-English NMT")."""
    parts: list[str] = []
    k = start - 1
    while k >= 0:
        word = doc[k].text
        split = word.split("-")
        if not word[:1].isupper() or not all(_PROPER_PART.fullmatch(p) for p in split) \
                or any(p.lower() in common or is_language(p.lower()) for p in split):
            break
        parts[:0] = split
        if any(" ".join(parts[j:]).lower() in known for j in range(len(parts))):
            return False  # a known name ends right before the short form: "Monte Carlo RL", "Monte-Carlo RL"
        if doc[k].is_sent_start:
            break
        k -= 1
    return len(parts) >= 2


def _compared(doc: Doc, start: int) -> bool:
    """Whether a comparison word stands right before the name ("a significantly smaller model size")."""
    return start > 0 and doc[start - 1].lower_ in _COMPARISON


class GazetteerMatcher:
    """Pipeline component: every gazetteer name or alias in the text becomes a candidate mention."""

    def __init__(self, nlp: Language, name: str, directory: str = "") -> None:
        self.name = name
        self.gazetteer = load_gazetteer(directory)
        self.known = self.gazetteer.lookup()
        self._common = lexicon.common_words()
        # the last words of the names of two words or more, in either number ("divergence", "learning", "gans")
        self._last_word_ids = ids(frozenset(w for form in self.known if " " in form  # (as LOWER ids)
                                            for w in (form.rsplit(" ", 1)[1], plural(form.rsplit(" ", 1)[1])) if w))
        # the same of the tasks', methods' and metrics' names, as text: the words two coordinated names may share
        self._shared_last = frozenset(form.rsplit(" ", 1)[1] for form, e in self.known.items()
                                      if " " in form and e.label in _SHARED_HEAD_LABELS)
        self._entries: dict[int, Entry] = {}
        self._hyphenated: set[int] = set()  # the keys of names written with hyphens (:func:`_hyphenations`)
        # Names by their tokens' lower-case forms, case-sensitive ones by their exact forms; the matches of one
        # span come in the order the entries are listed.
        self.lower, self.exact = _doc.PhraseIndex(LOWER), _doc.PhraseIndex(ORTH)
        for e in self.gazetteer.entries:
            key = nlp.vocab.strings.add(f"{e.label}|{e.name}")
            self._entries[key] = e
            forms = list(dict.fromkeys(f for form in (e.name, *e.aliases) for spelled in (form, *british(form))
                                       for f in (spelled, plural(spelled), _unit_apart(spelled)) if f))
            if e.label in _HYPHENATED_LABELS:  # (in any case: the words of a case-sensitive name spelled out)
                words = [f for f in forms if not e.case_sensitive or _spelled_out(f)]
                joined = [f for f in dict.fromkeys(h for form in words for h in _hyphenations(form))
                          if f.lower() not in self.known]
                if joined:  # (its own key: a match of these forms is checked for a noun after it)
                    hyphenated = nlp.vocab.strings.add(f"{e.label}|{e.name}|hyphenated")
                    self._entries[hyphenated] = e
                    self._hyphenated.add(hyphenated)
                    for form in joined:
                        self.lower.add(hyphenated, [t.lower for t in nlp.make_doc(form)])
            matcher = self.exact if e.case_sensitive else self.lower
            for form in forms:
                matcher.add(key, [t.orth if e.case_sensitive else t.lower for t in nlp.make_doc(form)])
                if e.case_sensitive and e.label in _SPELLED_OUT_ANY_CASE and _spelled_out(form):
                    # "Inception Score" of IS, "Gaussian processes" of GP: the spelled-out name in any case ("an
                    # Inception score of 9.68", "Gaussian Process surrogate"); the short forms keep their case
                    self.lower.add(key, [t.lower for t in nlp.make_doc(form)])
            if e.label in _HYPHENATED_LABELS:
                # the names written with spaces for their hyphens ("meta reinforcement learning"), in the case
                # their hyphenated forms match in, unless another entry has that spelling
                for form in dict.fromkeys(map(spaced, forms)):
                    if form and form.lower() not in self.known:
                        matcher.add(key, [t.orth if e.case_sensitive else t.lower for t in nlp.make_doc(form)])

    def __call__(self, doc: Doc) -> Doc:
        out = candidates(doc)
        out += self._sizes(doc)
        out += self._families(doc)
        if " (" in doc_text(doc):
            out += self._asides(doc)
        out += self._shared_heads(doc)
        lower = column(doc, LOWER)
        for matcher in (self.lower, self.exact):
            for key, start, end in matcher(doc):
                if end - start == 1 and start and lower[start - 1] in _IDIOMS.get(lower[start], ()):
                    continue  # a word of an idiom names nothing: "has gained momentum in the community"
                e = self._entries[key]
                if e.label == "TASK" and end - start == 1 and _SHORT_FORM.fullmatch(doc[start].text) \
                        and _ends_proper_name(doc, start, self._common, self.known):
                    continue  # a task's short form ending a proper name is the name's: "Megatron-Turing NLG (530B)"
                if key in self._hyphenated and end < len(doc) and doc[end].text[:1].isalpha() \
                        and doc[end].lower_ not in PHRASE_BREAKS:
                    continue  # a hyphenated name before a word modifies it: "a privacy-preserving way", "Monte-Carlo
                    # estimates", "privacy-preserving SplitNN" (alone it is the name: "trained with gradient-descent")
                if e.needs_number and not has_number(doc, *sentence_bounds(doc, start)) and not _compared(doc, start):
                    continue
                found = Candidate(start, end, e.label, "gazetteer", canonical=e.name, benchmark=e.benchmark)
                out.append(found)
                if e.label == "DATASET":
                    releases = self._releases(doc, start, end, e)
                    out += releases
                    out += self._siblings(doc, end, e)
                    out += [p for c in (found, *releases) if (p := self._language_pair(doc, c)) is not None]
        return doc

    def _asides(self, doc: Doc) -> list[Candidate]:
        """A known name with its short form in brackets inside it: "out-of-distribution (OOD) generalization",
        "Kullback-Leibler (KL) divergence", "temporal difference (TD) learning". The words around the aside, up
        to four before and two after it, name the entry; the candidate spans them and the aside. Only a short form
        the abbreviations component paired with the words before it counts ("text-to-image (DALL-E) generation"
        holds an example, not an aside)."""
        out = []
        n = len(doc)
        text = doc_text(doc)
        orth, lower, idx, ends = column(doc, ORTH), column(doc, LOWER), column(doc, IDX), token_ends(doc)
        for a in abbreviations(doc):  # (kg_abbreviations ran first) the short form of the words before it
            k = a.short_start - 1
            if a.long_end != k or a.short_end != k + 2 or k + 3 >= n or orth[k] != _OPEN or orth[k + 2] != _CLOSE \
                    or lower[k + 3] not in self._last_word_ids and lower[min(k + 4, n - 1)] not in self._last_word_ids:
                continue  # (no known name of two words or more ends in the word or two after the aside)
            best = None
            before_end, after_start = ends[k - 1], idx[k + 3]
            for i in range(max(0, k - 4), k):
                for j in range(k + 4, min(n, k + 5) + 1):
                    form = f"{text[idx[i]:before_end]} {text[after_start:ends[j - 1]]}"
                    e = self._entry(form) or self._entry(form[:-1] if form.endswith("s") else "")
                    if e is not None and (best is None or j - i > best[1] - best[0]):
                        best = (i, j, e)
            if best is not None:
                i, j, e = best  # (ranked as the abbreviation pair it holds, which it outranks by its length)
                # a measure only next to a number, as the name alone; without one, a mention and no concept
                generic = e.needs_number and not has_number(doc, *sentence_bounds(doc, i)) and not _compared(doc, i)
                out.append(Candidate(i, j, e.label, "abbreviation", canonical=e.name, benchmark=e.benchmark,
                                     generic=generic))
        return out

    def _shared_heads(self, doc: Doc) -> list[Candidate]:
        """The first of two names that share their last word: "semantic and instance segmentation" names semantic
        segmentation, "image and video classification" image classification, "top-1 and top-5 accuracy" top-1
        accuracy. Both names are known tasks, methods or metrics of one label ("keeping data decentralized and
        pushing the learning" holds none); the candidate spans the first word and is named by its entry (the
        second name is matched as written)."""
        out = []
        text = doc_text(doc)
        shared_last = self._shared_last
        for at in sorted(_coordinators(text)):
            after = _SHARED_AFTER.match(text, at)
            if after is None:
                continue
            words = after.group(1).split()
            for w in words[1:]:
                if w.lower() in shared_last:
                    break
            else:
                continue  # no name of two words or more ends in a word after the coordinator
            start = max(text.rfind(" ", 0, at), text.rfind("(", max(0, at - 40), at)) + 1  # the word before it
            before = _SHARED_BEFORE.fullmatch(text, start, at)
            if before is None:
                continue
            first = before.group(0)
            e = None
            for k in range(1, len(words)):
                second = self._entry(" ".join(words[:k + 1]))
                if second is not None and second.label in _SHARED_HEAD_LABELS:  # (the second name is one too)
                    e = self._entry(f"{first} {words[k]}")
                    e = e if e is not None and e.label == second.label else None
                    break
            span = doc.char_span(before.start(), before.end()) if e is not None else None
            if span is None or e.needs_number and not has_number(doc, *sentence_bounds(doc, span.start)):
                continue
            out.append(Candidate(span.start, span.end, e.label, "gazetteer", canonical=e.name))
        return out

    def _entry(self, form: str) -> Entry | None:
        """The entry ``form`` names as the matcher would (case-sensitive entries by an exact or spelled-out form)."""
        e = self.known.get(form.lower()) if " " in form else None
        if e is None or not e.case_sensitive:
            return e
        forms = (e.name, *e.aliases)
        return e if form in forms or any(f.lower() == form.lower() and _spelled_out(f) for f in forms) else None

    def _releases(self, doc: Doc, start: int, end: int, e: Entry) -> list[Candidate]:
        """Dated or versioned releases of a dataset, each a dataset of its own (BraTS 2015 is not BraTS 2018):
        "BRATS 2015", "SFEW v2", and the coordinated years of "PASCAL VOC 2007 and 2012" (the mention of the
        second is its year alone). The longer candidate wins the overlap with the bare name."""
        out = []
        base = e.name
        last = end
        if end < len(doc) and VERSION.match(doc[end].text) and not doc[end].is_sent_start:
            out.append(self._release(start, end + 1, base, doc[end].text, e))
            last = end + 1
        elif VERSION.match(doc[end - 1].text) and base.endswith(doc[end - 1].text[-2:]):
            # "PASCAL VOC 2007": its base is "PASCAL VOC"; "CoNLL-2005": "CoNLL"
            base = _RELEASE_SUFFIX.sub("", base) or base
        else:
            return out
        i = last
        while i + 1 < len(doc) and doc[i].text in {",", "and", "or"}:
            j = i + 1 + (doc[i].text == "," and doc[i + 1].lower_ in {"and", "or"})
            if j >= len(doc) or not VERSION.match(doc[j].text):
                break
            out.append(self._release(j, j + 1, base, doc[j].text, e))
            i = j + 1
        return out

    def _language_pair(self, doc: Doc, c: Candidate) -> Candidate | None:
        """A dataset named with the language pair right after it, as one dataset: "WMT2014 English-French",
        "WMT'16 English-Czech" (named as the vocabulary names the pair's dataset where it knows it, "WMT14 En-Fr")."""
        pair = language_pair(doc, c.end)
        if pair is None:
            return None
        end, languages = pair
        codes = [_LANGUAGE_CODES.get(p.lower(), p.lower()) for p in languages]
        base = c.canonical or span_text(doc, c.start, c.end)
        known = next((k for k in (self.known.get(f"{base} {'-'.join(languages)}".lower()),
                                  self.known.get(f"{base} {'-'.join(codes)}".lower()),
                                  self.known.get(span_text(doc, c.start, end).lower()))
                      if k is not None and k.label == "DATASET"), None)
        # a pair the vocabulary does not list is named by its codes, however written: "WMT17 English-German" and
        # "WMT17 en-de" are WMT17 En-De, as the vocabulary names pairs
        name = known.name if known is not None else f"{base} {'-'.join(c.capitalize() for c in codes)}"
        return Candidate(c.start, end, "DATASET", "gazetteer", canonical=name, benchmark=c.benchmark)

    def _sizes(self, doc: Doc) -> list[Candidate]:
        """A known model with a size or variant the vocabulary does not list ("T5-3B", "Swin-B", "ViT-B32"): a
        method of its own, named as written (the vocabulary's own sizes, "T5-Large", match as entries)."""
        out = []
        for m in _SIZE.finditer(doc_text(doc)):
            span = doc.char_span(m.start(), m.end(), alignment_mode="expand")
            if span is None or len(span) != 1 or not span.text.endswith(m.group(0)):
                continue
            base = span.text[:-len(m.group(0))]
            e = self.known.get(base.lower())
            if e is None or e.label != "METHOD" or len(base) < 2 or not base[0].isalpha() \
                    or span.text.lower() in self.known:
                continue
            slashed = self.known.get(f"{base}-{m.group(1)[0]}/{m.group(1)[1:]}".lower())  # "ViT-B32": "ViT-B/32"
            name = slashed.name if slashed is not None and slashed.label == "METHOD" else span.text
            out.append(Candidate(span.start, span.end, "METHOD", "gazetteer", canonical=name))
        return out

    def _families(self, doc: Doc) -> list[Candidate]:
        """A known method in a family word: "an AlphaZero-style agent", "GAN-like models", "ReLU-based policies"
        name AlphaZero, the GAN and ReLU (the word is one token, so the matcher cannot see the name in it). The
        candidate spans the family word (the specificity filter narrows its mention to the name); a longer phrase
        around it, when one is found, names the same method (:func:`kg.nlp.combine.built_on`)."""
        out = []
        defined = None
        text = doc_text(doc)
        for start, end, name in _family_words(text):
            e = self.known.get(name.lower())
            if e is None or e.label != "METHOD" or e.case_sensitive and name not in (e.name, *e.aliases):
                continue
            span = doc.char_span(start, end)
            if span is None or len(span) != 1:
                continue
            if defined is None:  # the abstract's own short forms: its definition, not the vocabulary's, names them
                defined = {a.short_text(doc) for a in abbreviations(doc)}
            before = [t.lower_ for t in doc[max(0, span.start - 3):span.start]]
            if name in defined or any(f"{' '.join(before[i:])} {name.lower()}" in self.known
                                      for i in range(len(before))):
                continue  # a longer name ends in the word: "variational autoencoder-based" (the family rule of
                # kg.nlp.combine.built_on names it when the tagger finds the phrase)
            out.append(Candidate(span.start, span.end, "METHOD", "gazetteer", canonical=e.name))
        return out

    def _siblings(self, doc: Doc, end: int, e: Entry) -> list[Candidate]:
        """The datasets a slash or "&" adds to a numbered name: "CIFAR-10/100" names CIFAR-10 and CIFAR-100,
        "ETTh1/2" ETTh1 and ETTh2 (the tokenizer splits the slash), "YouTube-VIS 2019 & 2021" both releases; each
        number after one is a mention of the known dataset it completes."""
        stem = e.name.rstrip("0123456789")
        out = []
        i = end
        while stem != e.name and i + 1 < len(doc) and doc[i].text in ("/", "&") and doc[i + 1].text.isdigit():
            known = self.known.get(f"{stem}{doc[i + 1].text}".lower())
            if known is None or known.label != "DATASET":
                break
            out.append(Candidate(i + 1, i + 2, "DATASET", "gazetteer", canonical=known.name, benchmark=known.benchmark))
            i += 2
        return out

    def _release(self, start: int, end: int, base: str, version: str, e: Entry) -> Candidate:
        name = f"{base} {version}"
        known = self.known.get(name.lower())
        return Candidate(start, end, e.label, "gazetteer", canonical=known.name if known and known.label == e.label else name,
                         benchmark=e.benchmark)


def _family_words(text: str) -> Iterator[tuple[int, int, str]]:
    """The family words of one name in ``text`` ("AlphaZero-style", "GAN-like", "CNN-Based"): their character
    offsets and the name. (Each suffix is found first, in any case; a regular expression trying every word costs
    more.)"""
    for m in _FAMILY_SUFFIX.finditer(text):
        at, end = m.start(), m.end()
        start = at
        while start > 0 and (text[start - 1].isalnum() or text[start - 1] in "_."):
            start -= 1
        if start < at and text[start].isalpha() and (start == 0 or text[start - 1] not in "-_"):
            yield start, end, text[start:at]


def write_manifest(directory: Path = DEFAULT_DIR, version: str | None = None) -> dict:
    """Recount and rehash the gazetteer files into ``manifest.json`` (run after editing them:
    ``python -m kg.nlp.components.gazetteer [NEW_VERSION]``)."""
    path = directory / "manifest.json"
    manifest = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {"sources": ""}
    if version:
        manifest["version"] = version
    files = {}
    for name in (*CONCEPT_FILES, "generic.jsonl"):
        data = (directory / name).read_bytes()
        files[name] = {"entries": sum(1 for line in data.splitlines() if line.strip()),
                       "sha256": hashlib.sha256(data).hexdigest()}
    manifest["files"] = files
    path.write_text(json.dumps(manifest, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return manifest


@Language.factory("kg_gazetteer", default_config={"directory": ""})
def make_gazetteer(nlp: Language, name: str, directory: str) -> GazetteerMatcher:
    return GazetteerMatcher(nlp, name, directory)


if __name__ == "__main__":
    print(json.dumps(write_manifest(version=sys.argv[1] if len(sys.argv) > 1 else None)["files"], indent=1))
