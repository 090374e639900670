"""Which mentions name a specific concept: umbrella terms, tools and theory quantities become generic mentions.

A concept node is something a researcher would link papers by. Words that would link almost every ML paper to
every other ("inference", "deep neural networks", "machine learning models"), hardware and software ("GPUs",
"NVIDIA V100", "PyTorch") and quantities that are settings or theory results rather than measures ("learning
rate", "sample complexity" as a metric) are kept as ``generic`` mentions: reported with their evidence, never a
concept. These tests decide, each from data under ``kg/nlp/data/specificity`` with its source recorded:

- the name is an umbrella term (``umbrella.json``), or, for a metric or method, a hyperparameter or theory
  quantity (``umbrella.json``, ``not_metrics``); a method named by umbrella short forms and a class noun ("AI
  models", "ML systems") is one too;
- every word of the name is a background word (``generic_words.json``: words in at least 15% of a background
  corpus of abstracts, such as "deep", "neural", "model", "training", "method") or a stop word;
- every word of the name is hardware or software (``non_concepts.json``) or a model number ("V100", "A6000"), or
  the name is a venue, with or without a year ("NeurIPS'21", "COLT21");
- a task named by a phenomenon alone ("distribution shift", "spurious correlations": ``umbrella.json``,
  ``phenomena``), not what a paper does about one ("detecting covariate shift", "detection of distribution shift");
- a method phrase that only the trained tagger proposes, with no capital or digit, ends in a class noun
  ("unified probabilistic model", "coupled training", "adversarial framework": ``umbrella.json``, ``class_heads``),
  or in a word that neither the vocabulary's method names end in nor names a process ("random graphs", "discrete
  time", "stochastic game": :meth:`Specificity.method_head`).

A paper's own proposed name is never made generic; "an" umbrella term before a class noun is no such name ("ML" of
"we formulate the certified fairness of an ML model") unless the abstract defines it or the title names it ("PAC:
..."), and is then a generic mention like any other.

Local definitions win over the vocabulary: where the abstract defines a short form that contains a known
abbreviation as a word ("Level k Gradient Play (Lv.k GP)"), or defines that abbreviation itself with another long
form, the vocabulary's expansion of it ("GP": Gaussian processes) is not what the abstract means, and that mention
makes no concept.
"""
from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from spacy.language import Language
from spacy.tokens import Doc

from kg.nlp.candidates import MENTIONS, TITLE, abbreviations, doc_text
from kg.nlp.components.gazetteer import load_gazetteer
from kg.nlp import lexicon
from kg.schema import concept_key
from kg.nlp.labels import DATA_KINDS, LANGUAGES, family_base, family_suffix, may_hold_family_word
from kg.nlp.tokenizer import SYMBOLS

DATA = lexicon.SPECIFICITY
_WORDS = re.compile(r"[^\W_]+(?:'[^\W_]+)?")
_GENERIC_HEADS = lexicon.words("generic_heads")
_BACKGROUND = "only background words"  # the reason a name made of background words alone is no concept
_IMPLEMENTATIONS = frozenset({"implementation", "implementations"})
_MATH_OBJECTS = lexicon.words("math_object_heads")
_MODEL_NUMBER = re.compile(r"^[A-Za-z]{0,3}\d{2,5}[A-Za-z]{0,3}$")  # V100, A6000, RTX3090, 2080Ti


@dataclass(frozen=True)
class Specificity:
    """The word lists behind :func:`is_specific`, lower-cased."""

    umbrella: frozenset[str]
    not_metrics: frozenset[str]  # neither metrics nor methods: settings and theory quantities
    generic_words: frozenset[str]
    tools: frozenset[str]
    tool_names: frozenset[str] = frozenset()  # devices, number formats and APIs as written: a name's last word
    class_heads: frozenset[str] = frozenset()
    task_heads: frozenset[str] = frozenset()
    adjective_endings: tuple[str, ...] = ()
    adjective_nouns: frozenset[str] = frozenset()
    adjective_words: frozenset[str] = frozenset()  # adjectives without such an ending: "free", "optimal", "type"
    compound_starts: frozenset[str] = frozenset()  # first parts of hyphenated adjectives: "few-shot", "large-scale"
    techniques: frozenset[str] = frozenset()  # not metrics, but methods: "weight decay", "momentum"
    common_words: frozenset[str] = frozenset()  # words abstracts write in lower case ("rendering", "direct")
    phenomena: frozenset[str] = frozenset()  # heads of a data or model property, no task: "distribution shift"
    judging: frozenset[str] = frozenset()  # words of judgement, scale or quality: "high-quality", "theoretical"
    not_method_heads: frozenset[str] = frozenset()  # a method's property, part or phase: "capabilities", "stage"
    venues: frozenset[str] = frozenset()  # conferences and journals, lower-cased: "neurips", "colt"
    # the words the vocabulary's method names end in (kg.nlp.components.gazetteer.Gazetteer.head_words); None: not
    # known, and any head may end a method's name
    method_heads: frozenset[str] | None = None
    step_heads: frozenset[str] = frozenset()  # a step's word, no method's head: "training iterations"
    model_properties: frozenset[str] = frozenset()  # a task only where the title names it: "interpretability"
    property_stems: tuple[str, ...] = ()  # the title's words for them: "interpret", "explain"
    # reason() by (name, label): the names of a corpus repeat, and each test of one costs ~5 µs in Python
    _reasons: dict[tuple[str, str], str | None] = field(default_factory=dict, init=False, repr=False, compare=False)

    def plain_word(self, name: str) -> bool:
        """Whether ``name`` is one common English word, at most capitalised ("Rendering"): no name of its own."""
        return name.isalpha() and name[1:].islower() and name.lower() in self.common_words

    def reason(self, name: str, label: str) -> str | None:
        """Why ``name`` (a mention's canonical name) under ``label`` is not a concept, or None when it is one."""
        key = (name, label)
        found = self._reasons.get(key, _UNKNOWN)
        if found is _UNKNOWN:
            if len(self._reasons) >= _MAX_REASONS:
                self._reasons.clear()
            found = self._reasons[key] = self._reason(name, label)
        return found

    def _reason(self, name: str, label: str) -> str | None:
        low = " ".join(name.lower().split())
        if low in self.umbrella:
            return "umbrella term"
        if label in ("METRIC", "METHOD") and low in self.not_metrics or label == "METRIC" and low in self.techniques:
            return "setting or theory quantity"
        words = _word_list(low)
        if not words:
            return None
        if _all_in(words, self.generic_words) and not (len(name) > 1 and name.isupper()):
            return _BACKGROUND  # (a short form in capitals is a name: IS, the Inception Score)
        raw = _word_list(name)
        if label == "METHOD" and len(raw) > 1 and _short_forms_of(raw, self.umbrella) \
                and (words[-1] in self.umbrella or words[-1] in _GENERIC_HEADS or words[-1] in self.class_heads):
            return "umbrella term"  # "AI models", "ML systems", "DNN classifier" (not "Memory Networks")
        if low in self.venues or low[-1:].isdigit() and _YEAR.sub("", low) in self.venues:
            return "a venue"  # "NeurIPS", "NeurIPS'21", "COLT21": where a cited paper appeared
        if low in self.tools or _tools_and_numbers(raw, self.tools):
            return "hardware or software"
        if len(name.split()) > 1 and name.split()[-1] in self.tool_names:
            return "hardware or software"  # "Apple M1 Pro CPU", "Google Cloud Vision API": a device or an API
        if len(raw) > 1 and words[-1] in _IMPLEMENTATIONS and _all_lower_in(raw[:-1], self.tools):
            return "hardware or software"  # "PyTorch implementation", "JAX implementation"
        if _data_kinds(words):
            return "kind of data"  # "EEG", "MRI", "3D": what data is, not a method or a dataset
        if label == "METHOD" and words[-1] in _MATH_OBJECTS and words[-2:-1] != ["state"]:
            return "a mathematical object"  # "reproducing kernel Hilbert space", "Riemannian manifolds" (a "state
            # space" names a model: "diagonal state space (DSS)")
        if label == "TASK" and words[-1] in self.phenomena and not any(
                w.endswith("ing") or w in _PHENOMENON_LINKS or w in self.task_heads for w in words[:-1]):
            return "a phenomenon"  # "distribution shift", "spurious correlations": what a paper copes with
        return None

    def judged_umbrella(self, name: str) -> bool:
        """Whether a phrase is words of judgement, scale or quality before an umbrella term ("high-quality
        generation", "theoretical understanding"); a vocabulary's name keeps its reading (this is asked of phrases
        only the tagger or a context rule proposes)."""
        words = name.lower().split()
        k = 0
        while k < len(words) - 1 and words[k] in self.judging:
            k += 1
        return k > 0 and " ".join(words[k:]) in self.umbrella

    def known_core(self, name: str, known: dict[str, str]) -> str | None:
        """The known method a tagger's extension of it still names when its extra words only describe ("Transformer
        networks", "1 layer recurrent neural network", "pretrained CLIP model": a class noun, a size, a count, a
        state), or None."""
        found = self.core_span(name, known)
        return found[0] if found else None

    def core_span(self, name: str, known: dict[str, str]) -> tuple[str, int, int] | None:
        """:meth:`known_core`, with where in ``name`` its known words stand (character offsets)."""
        words = name.split(" ")
        for size in range(len(words) - 1, 0, -1):
            for at in range(len(words) - size + 1):
                core = known.get(" ".join(words[at:at + size]).lower())
                if core is None:
                    continue
                extra = [w.lower() for w in words[:at] + words[at + size:]]
                if all(w in self.class_heads or w in _SIZE_WORDS or w in _DESCRIBING or _SIZE.fullmatch(w) for w in extra):
                    start = sum(len(w) + 1 for w in words[:at])
                    return core, start, start + len(" ".join(words[at:at + size]))
        return None

    def judged_core(self, name: str, tasks: dict[str, str]) -> tuple[str, int] | None:
        """The known task a tagger's extension of it still names when the words before it only judge or scale it
        ("real-world anomaly detection", "downstream speech recognition", "large-scale Bayesian inference"): its
        name and where its words start in ``name`` (a character offset), or None."""
        words = name.split(" ")
        k = 0
        while k < len(words) - 1 and words[k].lower() in self.judging:
            k += 1
        core = None
        if k:  # the task, else the task before a generic head ("downstream speech recognition tasks")
            core = tasks.get(" ".join(words[k:]).lower()) or (
                tasks.get(" ".join(words[k:-1]).lower()) if len(words) - k > 1 and words[-1].lower() in _GENERIC_HEADS
                else None)
        return (core, sum(len(w) + 1 for w in words[:k])) if core is not None else None

    def adjective(self, word: str) -> bool:
        """Whether a lower-case word reads as an adjective or a participle ("convex", "object-level", "based"), by
        its ending or as a listed word, unless it is a listed noun ("retrieval", "kernel")."""
        return lexicon.is_adjective(word, self.adjective_endings, self.adjective_nouns, self.adjective_words)

    def compound_adjective(self, word: str) -> bool:
        """Whether a hyphenated word reads as an adjective by its first part ("few-shot", "multi-agent",
        "large-scale"), unless it ends in a gerund ("decision-making")."""
        parts = word.lower().split("-")
        return len(parts) > 1 and parts[0] in self.compound_starts and not parts[-1].endswith("ing")

    def adverb(self, word: str) -> bool:
        """Whether a word in -ly is an adverb of a common adjective ("linearly", "sparsely", "theoretically"), not
        a noun or an adjective of its own ("family", "early", "anomaly")."""
        if not word.endswith("ly") or word in _LY_WORDS:
            return False
        stem = word[:-2]
        return stem in self.common_words or stem + "l" in self.common_words or (
            word.endswith("ily") and stem[:-1] + "y" in self.common_words)  # "fully" of "full", "easily" of "easy"

    def ends_as_adjective(self, name: str) -> bool:
        """Whether a phrase ends in an adjective or a participle: its last word (:meth:`adjective`) or its last
        hyphenated word (:meth:`compound_adjective`): "object-level visual", "identically distributed",
        "cooperative multi-agent"."""
        words = _word_list(name.lower())
        return bool(words) and (self.adjective(words[-1]) or self.compound_adjective(name.rsplit(" ", 1)[-1]))

    def weak_description(self, name: str, label: str, extractor: str) -> bool:
        """Whether a phrase that only the trained tagger or a context rule proposes is a description rather than a
        name: a method phrase with a class-noun head and no name-like word ("unified probabilistic model",
        "coupled training"); a task phrase of the tagger's alone without a task head and a modifier ("data
        collection", "training procedure"); any such phrase that ends in an adjective ("object-level visual"). A
        task of the tagger's alone is never two joined by "and", "or" or a slash ("optimization and generalization",
        "regression/classification"), nor one short form ("NN", "MDPs"): a task written as a short form is defined in
        the abstract, and the abbreviation rule finds it there. A metric of theirs that ends in an adjective is cut
        before its noun ("task-agnostic statistical")."""
        if extractor == "model" and label == "TASK" and (_JOINED.search(name) or len(name.split()) == 1
                                                         and name_like(name)):
            return True
        if extractor == "model" and label == "METHOD" and _JOINED_WORDS.search(name):
            return True  # "multi-head attention or convolution", "self-attention into convolution": two methods
        if extractor == "abbreviation" and label in ("METHOD", "TASK"):
            return self.ends_as_adjective(name)  # a short form of a property, however capitalised: "identically
            # distributed (IID)", "Fully-Connected (FC)", "Low-Rank (LR)"
        if extractor in ("model", "model_extension", "context") and label in ("METHOD", "TASK") \
                and _ADVERB_AND_WORD.fullmatch(name) and self.adverb(name.split()[0]):
            return True  # an adverb and the word it modifies: a property ("linearly convergent", "fully Bayesian")
        if extractor not in ("model", "model_extension", "context") or label not in ("METHOD", "TASK"):
            return label == "METRIC" and extractor in _TAGGER_OR_CONTEXT and self.ends_as_adjective(name)  # a
            # measure's words cut before its noun: "a task-agnostic statistical measure" read as "task-agnostic
            # statistical"
        written = name
        if label == "METHOD":  # a method's dimension is its data's, not a name: "3D networks", "2D prediction pipeline"
            # (a task's says which task: "3D reconstruction"; a name that starts with no digit has no dimension first)
            name = _DIMENSION.sub("", name) if name[:1].isdecimal() else name
        if name_like(name) and name_like(self._without_dimensions(name)):  # (a dimension makes no name of "3D indoor
            return False  # scenes"; nor does "ML" of "statistical ML models")
        words = _word_list(name.lower())
        if not words:
            return False
        if label == "TASK" and self.judged_umbrella(name):
            return True  # "high-quality generation", "theoretical understanding", "fast adaptation"
        if extractor == "model" and label == "METHOD" and len(words) == 1 and name == written:
            return True  # one plain word the tagger alone calls a method ("regularized", "nonlinear")
        last = words[-1]
        if label == "METHOD" and last in self.not_method_heads:
            return True  # "generalization capabilities", "regularization parameter", "fine-tuning stage"
        if self.ends_as_adjective(name):
            return True
        if extractor != "model":
            return False
        if label == "METHOD" and last in _LOSSES:
            # a loss function is a method ("ranking loss", "logistic loss", "auxiliary losses"), unless only words
            # every abstract uses say which ("the total loss", "a novel loss")
            return all(w in self.generic_words or w in self.judging or w in _LOSS_MODIFIERS for w in words[:-1])
        if label == "METHOD":
            return last in self.class_heads or name.islower() and not self.method_head(last)  # ("B-splines": a name)
        if last in self.task_heads:
            return len(words) < 2
        # a dimension says which task a process noun names: "3D volume rendering" (not an umbrella noun: "3D vision")
        return not (_ONE_DIMENSION.search(written) and last.endswith(_PROCESS_ENDINGS) and last not in self.umbrella)

    def _without_dimensions(self, name: str) -> str:
        """A phrase's words without its dimensions ("3D", "2.5D") and umbrella terms' short forms ("AI", "ML"), which
        make no phrase a name ("3D indoor scenes", "ML applications", "statistical ML models")."""
        return " ".join(w for w in name.split() if not _ONE_DIMENSION.fullmatch(w)
                        and not (w.isupper() and w.lower() in self.umbrella))

    def method_head(self, word: str) -> bool:
        """Whether a lower-case word may end a method's name: a word the vocabulary's method names end in
        ("regression", "kernels", "attention"), or a noun of a process ("routing", "fusion", "intervention").
        Plain-word phrases with other heads, which only the tagger reads as methods, name objects, settings and
        results ("random graphs", "discrete time", "stochastic game", "recursive formula")."""
        return self.method_heads is None or word in self.method_heads or word.endswith(_PROCESS_ENDINGS)


_UNKNOWN = object()
_MAX_REASONS = 1 << 16  # names whose reason is kept (then the cache starts again)
_YEAR = re.compile(r"\s*['’]?\s*(?:19|20)?\d\d$")  # a venue's year: "NeurIPS'21", "COLT21", "ICML 2020"
_PROCESS_ENDINGS = lexicon.ordered("process_noun_endings")  # "routing", "fusion", "intervention", "alignment"
_SIZE = re.compile(r"\d+(?:-\w+)?|[a-z]+-layers?|[a-z]+-layered")  # "1", "2-layer", "one-layer", "multi-layered"
_SIZE_WORDS = lexicon.words("size_words")
_PHENOMENON_LINKS = frozenset({"of", "under", "to", "against"})  # "detection of distribution shift": a task
_DESCRIBING = lexicon.words("describing_words") | lexicon.words("judging_words")  # "pretrained CLIP model" is CLIP
_JOINED = re.compile(r"\s(?:and|or)\s|\w/\w")  # two things joined: "X and Y", "X or Y", "X/Y"
_JOINED_WORDS = re.compile(r"\s(?:and|or|into|versus|vs\.?)\s")  # (a slash joins a method's own name: "Q/K/V")
_ONE_DIMENSION = re.compile(r"\d(?:\.\d)?D")  # "3D", "2.5D": how many dimensions the data has
_DIMENSION = re.compile(rf"^(?:{_ONE_DIMENSION.pattern}\s+)+")  # dimensions first


def name_like(name: str) -> bool:
    """Whether a phrase looks like a name: a digit, or a capital other than a sentence's first letter ("SQIL",
    "TreeShap", "Concept Embedding Models"; not "Communication-based framework"). An ASCII digit, or an ASCII capital
    after a character other than a line break (as ``[0-9]|(?<=.)[A-Z]`` finds them, in a loop over characters)."""
    prev = "\n"  # (the first character has none before it)
    for ch in name:
        if "0" <= ch <= "9" or "A" <= ch <= "Z" and prev != "\n":
            return True
        prev = ch
    return False


def _word_list(text: str) -> list[str]:
    """``_WORDS.findall(text)``: the runs of letters and digits (``str.isalnum``), each with an apostrophe and the run
    after it ("don't"), by one pass over the characters (the expression tests each character's category anew)."""
    out = []
    start = -1  # where the word being read starts; -1 between words
    quote = -1  # where its apostrophe is while no letter or digit has followed it, else -1
    joined = False  # whether the word has taken its apostrophe
    i = 0
    for ch in text:
        if ("a" <= ch <= "z" or "A" <= ch <= "Z" or "0" <= ch <= "9") if ch < "\x80" else ch.isalnum():
            if start < 0:
                start, joined = i, False
            quote = -1
        elif start >= 0:
            if ch == "'" and not joined:
                quote, joined = i, True
            else:
                out.append(text[start:quote if quote >= 0 else i])
                start, quote = -1, -1
        i += 1
    if start >= 0:
        out.append(text[start:quote if quote >= 0 else i])
    return out


def _all_in(words: list[str], group: frozenset[str]) -> bool:
    """Whether every word is in ``group``."""
    for w in words:
        if w not in group:
            return False
    return True


def _all_lower_in(words: list[str], group: frozenset[str]) -> bool:
    """Whether every word, in lower case, is in ``group``."""
    for w in words:
        if w.lower() not in group:
            return False
    return True


def _short_forms_of(raw: list[str], umbrella: frozenset[str]) -> bool:
    """Whether every word of a name but its last is an umbrella term's short form in capitals ("AI models")."""
    for w in raw[:-1]:
        if not (w.isupper() and w.lower() in umbrella):
            return False
    return True


def _tools_and_numbers(raw: list[str], tools: frozenset[str]) -> bool:
    """Whether a name's words are tools and model numbers ("NVIDIA V100"), one of them a tool at least."""
    tool = False
    for w in raw:
        if w.lower() in tools:
            tool = True
        elif w.isalpha() or not _MODEL_NUMBER.match(w):  # (no digit: no model number)
            return False
    return tool


def _data_kinds(words: list[str]) -> bool:
    """Whether every word (a run of letters and digits, lower case) is a kind of data or a language
    (:func:`kg.nlp.labels.is_language` of a word without "-", "/" or an arrow)."""
    for w in words:
        if w not in DATA_KINDS and w not in LANGUAGES:
            return False
    return True


def _tool_words(groups) -> set[str]:
    """The words that name hardware or software alone: one-word names, and multi-word names whole ("megatron-lm"),
    so that "LM" or "learn" alone is no tool because "Megatron-LM" or "scikit-learn" is one."""
    out = set()
    for names in groups:
        for name in names:
            words = _word_list(name.lower())
            out.add(words[0] if len(words) == 1 else name.lower())
    return out


def _words_start(text: str, stems: tuple[str, ...]) -> bool:
    """Whether a word of ``text`` (lower case) starts with one of ``stems``."""
    return any(text.startswith(stem) or f" {stem}" in text or f"-{stem}" in text for stem in stems)


def _claimed_properties(spec: Specificity, title: str, mentions: Sequence) -> None:
    """Make generic the TASK mentions of a model's property ("interpretability") in a paper whose title (lower case)
    is not about it: a property the abstract claims or lists ("appealing interpretability and transferability"), not
    the problem the paper addresses."""
    found = [m for m in mentions if m.label == "TASK" and not m.generic and not m.proposed
             and m.canonical.lower() in spec.model_properties]
    if found and not _words_start(title, spec.property_stems):  # (the title read only where a property is named)
        for m in found:
            m.generic = True


@lru_cache(maxsize=4)
def load_specificity(directory: str = "") -> Specificity:
    """The word lists in ``directory`` (the packaged ``kg/nlp/data/specificity`` when empty)."""
    root = Path(directory) if directory else DATA
    umbrella = json.loads((root / "umbrella.json").read_text(encoding="utf-8"))
    generic = json.loads((root / "generic_words.json").read_text(encoding="utf-8"))
    tools = json.loads((root / "non_concepts.json").read_text(encoding="utf-8"))
    common = json.loads((root / "common_words.json").read_text(encoding="utf-8"))
    return Specificity(
        umbrella=lexicon.terms([t for terms in umbrella["labels"].values() for t in terms]),
        not_metrics=lexicon.terms(umbrella["not_metrics"]["terms"]),
        techniques=lexicon.terms(umbrella["not_metrics"]["techniques"]["terms"]),
        generic_words=frozenset(generic["words"]),
        common_words=frozenset(common["words"]),
        phenomena=lexicon.terms(umbrella["phenomena"]["terms"]),
        tools=frozenset(_tool_words(names for group, names in tools["words"].items() if group != "venues")),
        venues=frozenset(v.lower() for v in tools["words"]["venues"]),
        tool_names=frozenset(w for group in ("hardware", "number formats") for w in tools["words"][group]) | {"API", "APIs"},
        class_heads=lexicon.terms(umbrella["class_heads"]["terms"]),
        task_heads=lexicon.terms(umbrella["task_heads"]["terms"]),
        adjective_endings=tuple(umbrella["adjective_endings"]["endings"]),
        adjective_nouns=lexicon.terms(umbrella["adjective_endings"]["nouns"]),
        adjective_words=lexicon.terms(umbrella["adjective_endings"]["words"]),
        compound_starts=lexicon.terms(umbrella["adjective_endings"]["compound_starts"]),
        judging=lexicon.terms(umbrella["judged_umbrella"]["modifiers"]) | lexicon.words("judging_words"),
        not_method_heads=lexicon.terms(umbrella["not_method_heads"]["terms"]),
        step_heads=lexicon.terms(umbrella["step_heads"]["terms"]),
        model_properties=lexicon.terms(umbrella["model_properties"]["terms"]),
        property_stems=tuple(umbrella["model_properties"]["title_stems"]),
    )


def family_core(name: str, lookup: dict) -> tuple[object | None, int, int, str] | None:
    """:func:`kg.nlp.labels.family_base` of a mention's text: the entry the words before its family suffix name
    (or None), where in ``name`` those words stand (character offsets), and those words as written; None for no
    family word."""
    words = name.split(" ")
    found = family_base([w.lower() for w in words], lookup)
    if found is None:
        return None
    s, k, suffix, entry = found
    start = sum(len(w) + 1 for w in words[:s])
    end = sum(len(w) + 1 for w in words[:k]) + len(words[k]) - len(suffix)
    if len(words[k]) == len(suffix):  # "based" written apart: the words before it
        end -= 1
    return entry, start, end, name[start:end]


_ADVERB_AND_WORD = re.compile(r"[a-z]+ly \S+")
_LY_WORDS = lexicon.words("ly_words")  # words in -ly that are no adverbs ("anomaly", "homophily")
_LOSSES = frozenset({"loss", "losses"})
_LOSS_MODIFIERS = lexicon.words("loss_modifiers")  # "the total loss", "a weighted loss": which loss, not what kind
_GERUND = re.compile(r"[a-z]+ing")
_OBJECT = re.compile(r"\s+(?:the|a|an|its|their|our|his|her|this|these|those|both|it|them)\b")
_THEORY_WORDS = lexicon.words("theory_object_words")
_THEORY_RESULTS = lexicon.words("theory_heads") - {"bound", "bounds", "inequality", "inequalities"}  # (methods, tasks:
# "upper confidence bound", "variational inequalities")
_TAGGER_OR_CONTEXT = frozenset({"model", "model_extension", "model_phrase", "context"})
_AGENTS = tuple(tuple(pair.split(":")) for pair in lexicon.ordered("agent_suffixes"))
_NAMED_BY_RULES_OR_TAGGER = _TAGGER_OR_CONTEXT | {"abbreviation"}
_EQUATION_SHORT = re.compile(r"[OPS]DEs?")


_UP_TO_TWO_WORDS = re.compile(r"(?:\s+[\w-]+){0,2}\s+")
_CLAUSE_START = re.compile(r"(?:^|[:;,]|\b(?:and|for|towards|toward|by|via|when)\s*)\s*$", re.IGNORECASE)
SMALL_WORDS = lexicon.words("function_words") | lexicon.words("prepositions") | lexicon.words("edge_words")
# (function words, prepositions and the words an entity neither starts nor ends with: a title's small words)


def _task_object(text: str, m, mentions) -> bool:
    """Whether mention ``m`` opens a clause ("Boosting ...", "...: Boosting ...", "for Boosting ...") and a task's
    mention follows it after at most two words, none a small word, in one phrase ("Boosting Out-of-distribution
    Detection", "Boosting Mobile Monocular 3D Object Detection"): ``m`` is a verb and the task its object, not a
    method ("Pruning Neural Networks via Coresets" prunes no task; "Pretraining for Text-to-Video Generation",
    "GNN Pretraining Help ..." are no verbs)."""
    if not _CLAUSE_START.search(text, max(0, m.start - 12), m.start):
        return False
    for o in mentions:
        if o.label == "TASK" and o.start > m.end and _UP_TO_TWO_WORDS.fullmatch(text, m.end, o.start) \
                and not SMALL_WORDS.intersection(text[m.end:o.start].lower().split()):
            return True
    return False


def _equations(name: str) -> bool:
    """Whether a name is a kind of equation ("stochastic differential equations", "PDEs", "equation of motion"),
    not a neural method built on one ("neural ODE") nor one named by it ("Equation Learner")."""
    words = name.lower().split()
    return bool(words) and "neural" not in words and (
        _EQUATION_SHORT.fullmatch(name) is not None or words[-1] in ("equation", "equations")
        or words[0] in ("equation", "equations") and words[1:2] == ["of"])


def agent_of_task(name: str, tasks: frozenset[str]) -> bool:
    """Whether ``name`` is what does a known task of two words or more, at most after words that describe it:
    "image classifier" (image classification), "3D object detectors", "deep image classifiers"; not a task of one
    word ("linear classifier"), nor a named one ("YOLOv3 object detector", "Faster R-CNN object detector")."""
    written = name.split()
    words = [w.lower() for w in written]
    if len(words) < 2:
        return False
    last = words[-1][:-1] if words[-1].endswith("s") else words[-1]
    task = None
    for a, t in _AGENTS:
        if last.endswith(a):
            task = last[:-len(a)] + t
            break
    if task is None:
        return False
    for at in range(len(words) - 1):
        if " ".join([*words[at:-1], task]) in tasks:
            for w in written[:at]:
                if name_like(w):
                    return False
            return True
    return False


def _next_word(text: str, at: int) -> str | None:
    """The ASCII letters after the whitespace at ``at`` in ``text`` (what ``\\s+([A-Za-z]+)`` matched there reads as
    its group), or None."""
    n = len(text)
    start = at
    while start < n and text[start].isspace():
        start += 1
    if start == at:
        return None
    end = start
    while end < n and ("a" <= text[end] <= "z" or "A" <= text[end] <= "Z"):
        end += 1
    return text[start:end] if end > start else None


def _before_theory_word(text: str, m) -> bool:
    """Whether the word after a mention in ``text`` (the doc's) makes it part of a theory object ("VC" of "VC
    dimension")."""
    nxt = _next_word(text, m.end)
    return nxt is not None and nxt.lower() in _THEORY_WORDS


_METRIC_HEADS = lexicon.words("metric_heads")
_RATES = frozenset({"rate", "rates", "ratio", "ratios"})
_WORD_SENSE_METRICS = lexicon.words("word_sense_metrics")
_DIGIT = re.compile(r"\d")
_PHASE = re.compile(r"\b(?:at|during)\s+$", re.IGNORECASE)  # before a time: a phase of the work, not a measure


def _metric_context(doc: Doc, m, counts: Callable[[object], bool] = lambda o: True) -> bool:
    """Whether a metric mention's sentence gives a number outside the mention's own name ("the L2 error" gives
    none) or names another metric that ``counts`` (it reports a measure)."""
    text = doc_text(doc)
    if _DIGIT.search(text, m.sent_start, m.start) or _DIGIT.search(text, m.end, m.sent_end):
        return True
    return any(o is not m and o.label == "METRIC" and m.sent_start <= o.start < m.sent_end
               and o.canonical.lower() != m.canonical.lower() and counts(o) for o in doc.user_data.get(MENTIONS) or ())


_MEASURE_NOUNS = lexicon.words("measure_nouns")
_ERRORS = frozenset({"error", "errors"})
_COSTS = lexicon.words("cost_heads")
_EVAL_CUES = lexicon.words("eval_cues")  # "our experiments show that ADGP reduces the communication overhead"
_COMPARED_IN = re.compile(r"\bin terms of\s+(?:the\s+)?$", re.IGNORECASE)  # "in terms of mean-square error"


def _kind(m, measures: set[str], plain: frozenset[str] = frozenset()) -> str | None:
    """"error" for an error only the tagger or a context rule calls a metric, "cost" for a cost (by the last word of
    its name or its text: "the runtime" is the vocabulary's running time) or for a vocabulary measure named in
    background words alone (``plain``: "training time", which papers also write for a phase or a setting), else
    None."""
    last = m.canonical.lower().rsplit(" ", 1)[-1]
    if last in _ERRORS and m.extractor in _TAGGER_OR_CONTEXT and m.canonical.lower() not in measures:
        return "error"
    if m.canonical in plain:
        return "cost"
    return "cost" if last in _COSTS or m.text.lower().rsplit(" ", 1)[-1] in _COSTS else None


def _unreported(doc: Doc, text: str, m, measures: set[str], plain: frozenset[str] = frozenset()) -> bool:
    """Whether an error or a cost (:func:`_kind`) is only analysed or discussed: no number in its sentence outside
    its own name ("a bound on the L2 error"), no other metric there that is not such a quantity itself ("we bound
    the Bellman error and the discretization error"), no "in terms of" before it, and, for a cost, no evaluation
    word ("experiments", "outperform") in its sentence."""
    kind = _kind(m, measures, plain)
    if kind is None or _COMPARED_IN.search(text, max(0, m.start - 20), m.start):
        return False
    if _metric_context(doc, m, lambda o: not o.generic and _kind(o, measures, plain) is None):
        return False
    return kind == "error" or _EVAL_CUES.isdisjoint(_word_list(
        (text[m.sent_start:m.start] + " " + text[m.end:m.sent_end]).lower()))


_COMPANIONS = lexicon.words("metric_companions")
_NOT_MODIFIED = lexicon.words("function_words") | lexicon.words("after_a_name") | lexicon.words("clause_words") \
    | lexicon.words("prepositions") | lexicon.words("clause_links")


def _modifies_next(text: str, m) -> bool:
    """Whether a metric's word is followed by a noun it modifies ("the precision matrix", "recall performance"),
    not by a word of the metric's own ("precision scores", "recall at 10"), a function word or punctuation."""
    nxt = _next_word(text, m.end)
    return nxt is not None and nxt.islower() and nxt not in _COMPANIONS and nxt not in _NOT_MODIFIED \
        and not nxt.endswith(("ly", "ed"))


_BEFORE_A_VERB = re.compile(r"\b(?:to|can|could|cannot|may|might|must|should|will|would)\s+$", re.IGNORECASE)


_NUMBER_FORMATS = lexicon.words("number_format_words")


def _number_format(text: str, m) -> bool:
    """Whether a "precision" is a number format's: a word of number formats in its sentence ("quantization
    precision", "reduce the precision for weight and activations to INT8", "the necessary precisions of
    gradients ... 8-bit")."""
    return m.canonical.lower() == "precision" and not _NUMBER_FORMATS.isdisjoint(
        _word_list(text[m.sent_start:m.sent_end].lower()))


def _verb(text: str, m) -> bool:
    """Whether a metric's word is a verb by the word before it ("help the student recall", "can recall")."""
    return _BEFORE_A_VERB.search(text, max(0, m.start - 12), m.start) is not None


_AFTER_A_SYMBOL = re.compile(rf"{SYMBOLS}\)?-$")


def _tolerance(text: str, m) -> bool:
    """Whether a metric's word follows a mathematical symbol and a hyphen: a tolerance or a notion of a bound
    ("converges to $\\epsilon$-accuracy", "an $\\alpha$-regret bound"), not a measure reported."""
    return _AFTER_A_SYMBOL.search(text, max(0, m.start - 3), m.start) is not None


def _names_no_measure(doc: Doc, text: str, m, measures: set[str], plain: frozenset[str] = frozenset()) -> bool:
    """Whether a metric mention names no measure the paper reports: a word with another sense ("the precision
    matrix", "can recall": :func:`_modifies_next`, :func:`_verb`), a time that says when ("at inference time"), a
    rate or ratio of a setting ("masking ratio"), a kind of measure ("a similarity measure"), a tolerance
    (:func:`_tolerance`), a measure in background words before a noun it modifies ("training time processes"), an
    error or cost only analysed or discussed (:func:`_unreported`). The rates and kinds
    count only where the tagger or a context rule alone reads a metric, not for the vocabulary's names ("error
    rate", "compression ratio")."""
    low = m.canonical.lower()
    last = low.rsplit(" ", 1)[-1]
    tagger_only = m.extractor in _TAGGER_OR_CONTEXT and low not in measures
    return (low in _WORD_SENSE_METRICS and (not _metric_context(doc, m) or _modifies_next(text, m) or _verb(text, m)
                                            or _number_format(text, m))
            or low.endswith("time") and _PHASE.search(text, max(0, m.start - 10), m.start) is not None
            or tagger_only and last in _RATES
            or tagger_only and last in _MEASURE_NOUNS and not any(c.isupper() or c.isdigit() for c in m.canonical)
            or m.canonical in plain and _modifies_next(text, m)
            or _tolerance(text, m) or _unreported(doc, text, m, measures, plain))


_NOT_MODIFIERS = lexicon.words("not_modifiers")
_OBJECT_VERBS = lexicon.words("object_verbs")


def _tails(name: str) -> list[str]:
    """The name's last word, last two words and so on ("exponential complexity": "complexity", the whole)."""
    words = name.split()
    return [" ".join(words[k:]) for k in range(len(words))]


@lru_cache(maxsize=1)
def _doings() -> tuple[frozenset[str], frozenset[str]]:
    """The vocabulary's task and method names of two words or more in lower case, and the words in -ing their names
    end in ("forecasting", "tracking", "fine-tuning") that are no verbs taking an object (the lexicon's
    ``object_verbs``: "improving", "maintaining")."""
    gazetteer = load_gazetteer()
    heads = gazetteer.head_words("TASK") | gazetteer.head_words("METHOD")
    names = frozenset(form for form, e in gazetteer.lookup().items() if e.label in ("TASK", "METHOD") and " " in form)
    return names, frozenset(w for w in heads if w.endswith("ing")) - _OBJECT_VERBS


_LAST_WORD = re.compile(r"(?<![A-Za-z-])([a-z][a-z-]{2,})$")
_WORDS_BEFORE = re.compile(r"(?<![\w-])(?:[a-z][a-z-]* ){1,3}$")  # up to three words in lower case
_GERUND_CUES = lexicon.words("gerund_cues")  # after these a word in -ing is a verb


def fuller_metric_name(text: str, start: int, name: str) -> int:
    """Where a metric's concept name starts: at the word before the metric's mention that says which accuracy or
    error it is ("test accuracy", "classification accuracy", "worst-group accuracy"; a word in -ing that ends the
    vocabulary's task or method names: "forecasting accuracy"), taken with the words before it that make it such a
    name ("time series forecasting accuracy", "linear evaluation accuracy"); not at a judgement ("high accuracy")
    or a verb ("reports accuracy", "improving accuracy"); ``start`` when there is none. The mention keeps its own
    words."""
    if name.lower() not in _METRIC_HEADS or start < 2 or text[start - 1] != " " or text[start - 2] == " ":
        return start  # not one space before the name
    window = max(0, start - 41)
    word = _LAST_WORD.search(text, window, start - 1)
    names, doings = _doings()
    if word is None or word.group(1) in _NOT_MODIFIERS or word.group(1).endswith(("ly", "s", "ed", "ing")) \
            and word.group(1) not in doings:
        return start
    at = word.start(1)
    before = _WORDS_BEFORE.search(text, max(0, at - 60), at)  # up to three words in lower case
    words = before.group(0).split() if before else []
    for k in range(len(words)):  # the longest name first
        if " ".join([*words[k:], word.group(1)]) in names:
            return at - len(" ".join(words[k:])) - 1
    if word.group(1).endswith("ing") and words and words[-1] in _GERUND_CUES:
        return start  # a verb: "while matching accuracy", "allows trading accuracy for speed"
    return at


def _reason(spec: Specificity, name: str, label: str, local: dict[str, str]) -> str | None:
    """:meth:`Specificity.reason`, except that a short form the abstract defines is no umbrella term when its long
    form names a concept ("dictionary learning (DL)", "nearest neighbor (NN) search")."""
    reason = spec.reason(name, label)
    if reason == "umbrella term" and local.get(name) and spec.reason(local[name], label) is None:
        return None
    return reason


def _defined_apart(spec: Specificity, short: str, long: str, lookup: dict) -> bool:
    """Whether a vocabulary's short name is defined by the abstract as a property, one adjective no entry names:
    "E2E" as "end-to-end" (not the E2E dataset); "GNNs" as "graph neural networks" is the vocabulary's GNN, and
    "NLVR2" as "Natural Language and Visual Reasoning for Real" the dataset."""
    entry = lookup.get(short.lower())
    return entry is not None and " " not in long.strip() and spec.ends_as_adjective(long) \
        and concept_key(long) not in {concept_key(f) for f in (entry.name, *entry.aliases)}


_SHORT_FORM_PARTS = re.compile(r"[\s.]+")


def _a_kind(spec: Specificity, text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` says which kind of a class noun after it "a" or "an" before it speaks of ("an ML
    model", "a DNN classifier"): no name of its own ("We propose PAC framework" names one)."""
    found = _WORDS.match(text, end + 1) if text[end:end + 1] == " " else None
    head = found.group().lower() if found is not None else ""
    return (head in spec.class_heads or head in _GENERIC_HEADS) and _INDEFINITE.search(text, max(start - 4, 0), start) \
        is not None


_INDEFINITE = re.compile(r"(?:^|\W)an? $", re.IGNORECASE)


def _local_short_forms(doc: Doc) -> dict[str, str]:
    """Abbreviations the abstract defines, and the words inside its multi-word short forms ("GP" in "Lv.k GP"),
    each with the long form it stands for (lower case); a word inside a longer short form maps to ""."""
    out: dict[str, str] = {}
    for pair in abbreviations(doc):
        short, long = pair.short_text(doc), pair.long_text(doc).lower()
        out.setdefault(short, long)
        parts = _SHORT_FORM_PARTS.split(short)
        if len(parts) > 1:
            for part in parts:
                if part and part != short:
                    out.setdefault(part, "")
    return out


@Language.factory("kg_specificity", default_config={"directory": "", "stoplist": "", "types": "", "digest": ""})
def make_specificity(nlp: Language, name: str, directory: str, stoplist: str, types: str, digest: str):
    """Pipeline component (after ``kg_mentions``): mentions that name no specific concept become generic; a
    user's stoplist and type overrides (``kg.nlp.user_lists``; ``digest`` only marks their contents) apply last."""
    from kg.nlp.user_lists import load_stoplist, load_types

    gazetteer = load_gazetteer()
    spec = load_specificity(directory)
    spec = dataclasses.replace(spec, method_heads=gazetteer.head_words("METHOD") - spec.step_heads)
    lookup = gazetteer.lookup()
    known = {form: e.name for form, e in lookup.items() if e.label == "METHOD"}
    known_tasks = {form: e.name for form, e in lookup.items() if e.label == "TASK"}
    tasks = frozenset(known_tasks)
    does_a_task = lru_cache(maxsize=1 << 16)(lambda name: agent_of_task(name, tasks))
    measures = {form.lower() for form, e in lookup.items() if e.label == "METRIC"}
    # measures the vocabulary names in background words alone ("training time"): concepts where a paper reports them
    plain = frozenset(e.name for e in lookup.values() if e.label == "METRIC"
                      and spec.reason(e.name, "METRIC") == _BACKGROUND)
    stop = load_stoplist(stoplist) if stoplist else frozenset()
    retype = load_types(types) if types else {}
    cache: dict[tuple, tuple[bool, bool]] = {}  # a mention's names (judge's arguments) -> judge's verdict

    def judge(canonical: str, text: str, label: str, extractor: str, local: dict[str, str],
              family: bool) -> tuple[bool, bool]:
        """Whether a mention is generic by its names alone, and whether it names a tool (hardware or software)."""
        if label == "METHOD" and extractor in _TAGGER_OR_CONTEXT and does_a_task(canonical):
            return True, False  # "image classifier", "3D object detectors": what does a known task, not a method
        if label == "TASK" and extractor in _TAGGER_OR_CONTEXT \
                and spec.not_metrics.intersection(_tails(canonical.lower())):
            return True, False  # "the exponential complexity problem", "sample complexity": a quantity, no task
        if label in ("METHOD", "TASK") and (extractor in _TAGGER_OR_CONTEXT or extractor == "abbreviation") \
                and canonical.lower().rsplit(" ", 1)[-1] in _THEORY_RESULTS:
            return True, False  # "a generalized fingerprinting lemma", "a functional central limit theorem (FCLT)": a
            # result the paper proves, not a method
        if label == "METHOD" and extractor in _NAMED_BY_RULES_OR_TAGGER and _equations(canonical):
            return True, False  # "ordinary differential equations (ODEs)", "SDEs": a mathematical object, not a
            # method ("neural ODEs" are one)
        if label == "TASK" and " " not in canonical \
                and text.lower() in (canonical.lower() + "s", canonical.lower() + "es"):
            return True, False  # a one-word task in the plural names its outputs: "follow the recommendations"
        # (the surface's reason counts, but not a first word that shares the name's last: "image" of "image and
        # video classification", kg.nlp.components.gazetteer)
        surface = _reason(spec, text, label, local) if text != canonical \
            and not canonical.lower().startswith(text.lower() + " ") else None
        reason = _reason(spec, canonical, label, local)
        return (reason is not None and not (reason == _BACKGROUND and canonical in plain) or (
            surface is not None and surface != _BACKGROUND) or not family
            and spec.weak_description(canonical, label, extractor), surface == "hardware or software")

    def specificity(doc: Doc) -> Doc:
        text = doc_text(doc)  # the doc's text as extraction keeps it (Doc.text joins every token anew)
        title_end = len(doc.user_data.get(TITLE) or "")  # (the title comes first in the text)
        local = _local_short_forms(doc)
        mentions = doc.user_data.get(MENTIONS) or ()
        titled = {m.canonical for m in mentions if m.start < title_end}
        for m in mentions:
            if m.proposed and m.canonical.lower() in spec.umbrella and m.canonical not in local \
                    and m.canonical not in titled and _a_kind(spec, text, m.start, m.end):
                # "an" umbrella term before a class noun is no paper's own name ("ML" of "we formulate ... of an ML
                # model"), unless the paper defines the letters or its title names them ("PAC: Assisted ...")
                m.proposed = False
        own = {(m.canonical, m.label) for m in mentions if m.proposed}
        own_other = {(name, label) for name, _ in own for label in ("METHOD", "DATASET", "TASK", "METRIC")} - own
        tools: set[tuple[str, str]] = set()  # (label, name) of concepts one of whose mentions names a tool
        for m in mentions:
            if stop or retype:
                key = concept_key(m.canonical)
                label = "NONE" if key in stop else retype.get(key)
                if label == "NONE":
                    m.generic = True
                    continue
                if label is not None:
                    m.label = label
            if m.generic or m.proposed:
                continue
            # (the mention's fields as locals, read once: each read of an attribute is a lookup; where the tests below
            # change the mention, they change the locals too)
            label, extractor, mtext, canonical = m.label, m.extractor, m.text, m.canonical
            if len(mtext) <= 3 and mtext.isupper() and text.startswith("(", m.end) \
                    and not text.startswith("(s)", m.end):
                m.generic = True  # a group's or a function's notation: "SE(3)-equivariant", "O(n)", "GL(n)"
                continue
            if ")" in mtext and mtext.count(")") > mtext.count("(") \
                    or "]" in mtext and mtext.count("]") > mtext.count("["):
                m.generic = True  # begun inside brackets: "1+ε)-approximation algorithm" of "(1+ε)-approximation"
                continue
            if label == "METHOD" and extractor == "model_extension":
                # (a name known whole is itself: "multi-layer perceptron" is MLP, not a perceptron of some size)
                found = None if canonical.lower() in known else spec.core_span(canonical, known)
                words = None
                if m.end - m.start == len(mtext):  # (a text as written: its offsets hold it)
                    words = found if mtext == canonical else spec.core_span(mtext, known)
                canonical = m.canonical = found[0] if found else canonical
                if words and words[0] == canonical:
                    # the mention is the known words: "recurrent neural network" of "1 layer recurrent neural network",
                    # "GNN" of "a GNN model"
                    m.text, m.end, m.start = mtext[words[1]:words[2]], m.start + words[2], m.start + words[1]
                    mtext = m.text
            if label == "TASK" and extractor == "model_extension" and m.end - m.start == len(mtext) \
                    and (judged := spec.judged_core(mtext, known_tasks)) is not None:
                # "real-world anomaly detection" is anomaly detection: the words of judgement go
                m.canonical, m.text, m.start = judged[0], mtext[judged[1]:], m.start + judged[1]
                canonical, mtext = m.canonical, m.text
            # A family phrase names the method it is built on (kg.nlp.combine.built_on), no weak description:
            # "recurrent neural network-like learning approaches" names RNN by its first words, the mention's words.
            family = False
            if label == "METHOD" and extractor == "model" and canonical != mtext \
                    and may_hold_family_word(mtext) and (found := family_core(mtext, lookup)) is not None:
                entry, a, b, words = found
                if entry is not None and entry.label == "METHOD" and entry.name == canonical:
                    family = True
                    m.text, m.end, m.start = words, m.start + b, m.start + a
                    mtext = words
                else:  # a coined name: "MoCo-based models"
                    family = mtext[:b].lower().endswith(canonical.lower())
            elif label == "METHOD" and extractor == "gazetteer" and mtext.lower() != canonical.lower() \
                    and (suffix := family_suffix(mtext.lower())) is not None:  # "AlphaZero-style" names AlphaZero
                m.text, m.end = mtext[:-len(suffix)], m.end - len(suffix)
                mtext = m.text
            if label == "METRIC" and mtext.lower() == canonical.lower():
                at = fuller_metric_name(text, m.start, canonical)
                if at != m.start:  # the concept is the fuller name; the mention stays the metric's own words
                    canonical = m.canonical = text[at:m.end].lower()
            if local and extractor == "gazetteer" and mtext in local and local[mtext] != canonical.lower():
                m.generic = True  # the abstract's own definition of the letters, not the vocabulary's
                continue
            if local.get(canonical) and _defined_apart(spec, canonical, local[canonical], lookup):
                m.generic = True  # "end-to-end (E2E)": the abstract's letters, not the vocabulary's dataset E2E
                continue
            if extractor == "gazetteer" and (canonical, label) in own_other:
                m.generic = True  # "FIRE", the paper's own method, is not the vocabulary's dataset FIRE
                continue
            if label == "METRIC" and _names_no_measure(doc, text, m, measures, plain):
                m.generic = True  # "the precision matrix", "at inference time", "masking ratio", "the Bellman error"
                continue
            if label == "METHOD" and extractor in ("model", "model_extension") and _before_theory_word(text, m):
                m.generic = True  # "VC dimension", "Johnson-Lindenstrauss lemma": part of a theory object
                continue
            if label == "METHOD" and mtext.endswith("ing") and _GERUND.fullmatch(mtext) and _OBJECT.match(text, m.end):
                m.generic = True  # a verb with its object: "thereby boosting the effectiveness", "pruning the weights"
                continue
            if label == "METHOD" and m.start < title_end and _GERUND.fullmatch(mtext.lower()) \
                    and _task_object(text, m, mentions):
                m.generic = True  # a title's verb before the task it helps: "Boosting Out-of-distribution Detection"
                continue
            # the tests of the names alone, once per name (they only make a mention generic, as those above do)
            key = (canonical, mtext, label, extractor, local.get(canonical), local.get(mtext), family)
            found = cache.get(key)
            if found is None:
                found = cache[key] = judge(canonical, mtext, label, extractor, local, family)
            if found[0]:
                m.generic = True
            if found[1]:
                tools.add((label, canonical))
        if spec.model_properties:
            _claimed_properties(spec, text[:title_end].lower(), mentions)
        if tools:  # "graphics processing units (GPUs)": the spelled-out name of a tool is no concept either
            for m in doc.user_data.get(MENTIONS) or ():
                if (m.label, m.canonical) in tools and not m.proposed:
                    m.generic = True
        return doc

    return specificity


@lru_cache(maxsize=4)
def standard_pairs(directory: str = "") -> dict[str, frozenset[str]]:
    """Abbreviations the field defines alike in many background abstracts (``standard_pairs.json``, written by
    ``tools/vocab/standard_pairs.py``): per short form's concept key, the keys of its long forms. "Markov decision
    process (MDP)" is used, not coined, by a paper that defines it."""
    root = Path(directory) if directory else DATA
    longs: dict[str, set[str]] = {}
    for long, short in json.loads((root / "standard_pairs.json").read_text(encoding="utf-8"))["pairs"]:
        longs.setdefault(short, set()).add(long)
    return {short: frozenset(keys) for short, keys in longs.items()}
