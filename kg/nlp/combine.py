"""How a trained model's entities combine with the rules: :class:`Combiner`, shared by the default mode's linear
tagger (:mod:`kg.nlp.components.tagger`) and the accurate mode's NER (:mod:`kg.nlp.components.model`).

The model finds what rules cannot list: open-vocabulary tasks ("dense reconstruction of textured surfaces")
and methods ("probabilistic regression model"). Its entities become ``Candidate(..., extractor="model")``
with the model's dev precision for that label as confidence; ``kg_mentions`` merges them with the rule
candidates by priority, so proposed methods and abbreviation pairs keep their own spans.
``doc.ents`` is left as it was (``kg_mentions`` writes it at the end).

Entity edges are trimmed first (a greedy NER sometimes ends on "of" or an opening bracket). Then two rules
decide how the model and the rules combine (configurable in ``config.cfg`` and ``config_accurate.cfg``):

- ``extend``: a model entity that strictly contains rule candidates (gazetteer, context, name) of its own label
  is a fuller name of the same thing ("n-gram language model" around the gazetteer's "language model",
  "tagging task" around the context rule's "tagging"): it becomes a ``model_extension`` candidate, which outranks
  those rules. When the extra words are only a generic head ("task", "dataset", "score"), the mention keeps
  the rule's canonical name, so the graph still has one concept "tagging". Metrics are not extended otherwise.
- ``need_support``: labels (default DATASET, METRIC) the model may only add where a rule candidate of that label
  overlaps, or where the entity says what it is (:func:`self_supported`: a head word such as "rate" or "corpus",
  or a dataset's proper name); elsewhere its guesses are dropped. Names of datasets and metrics are what the
  gazetteer and context rules know best, and the model's other guesses were mostly generic ("computational cost").

More rules are fixed (tests/test_combine.py, tests/test_nlp.py):

- An entity on exactly the span of a gazetteer or context candidate of its label adds nothing: the rule names it
  ("BRATS 2015" is the gazetteer's release "BraTS 2015"); nor does a dataset or metric entity that is a rule's name
  plus a generic head ("ImageNet-1K dataset": the gazetteer knows ImageNet-1K is ImageNet).

- ``model_phrase``: an entity that is one name the rules would split outranks the parts: a whole abbreviation pair
  ("Additive Operator Splitting (AOS) techniques", as SciERC and TDMSci annotate it) or names under a head word
  that says what they are ("EM algorithm", "SII measure"); never over the paper's own method. A known task under a
  generic method head ("object detection methods", "a question answering system") is the task, not a phrase.
- Concept names drop a trailing kind word when a name remains (:func:`concept_name`); the mention keeps it.
- Short plural class phrases ("linear models") are ``generic`` mentions: reported, but not concepts.
- A TASK entity whose head names a method is a METHOD ("3D pre-trained models"); one whose head names data or a
  field ("gene expression data", "machine learning communities") is dropped. A preposition keeps it a task
  ("alignment of heterogeneous datasets").

``kg_mentions`` also reads the model's entities (``doc._.kg_model_ents``; in the accurate mode the NER's merged
with the tagger's, as below): an abbreviation pair only word shapes would label is dropped where the model saw
nothing.
"""
from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from spacy.attrs import LOWER, ORTH
from spacy.strings import get_string_id
from spacy.tokens import Doc
from spacy.util import minibatch

from kg.model import LABELS
from kg.nlp import _doc
from kg.nlp.candidates import (MODEL_ENTS, TITLE, Abbreviation, Candidate, abbreviations, candidates, column, doc_text,
                               ids, is_namelike, span_text, strip_possessive, substrings)
from kg.nlp.components.gazetteer import load_gazetteer
from kg.nlp.labels import (FAMILY_SUFFIXES, TASK_NOUN, TASK_WORDS, family_base, family_suffix, may_hold_family_word,
                           only_data_kinds)
from kg.nlp import lexicon

LEADING_VERBS = lexicon.words("leading_verbs")
MODIFIER_SUFFIXES = lexicon.ordered("modifier_suffixes")
TASK_HEADS = lexicon.words("task_heads")

Entity = tuple[int, int, str]  # a model entity: token start, end, label
EXTENDABLE = frozenset({"gazetteer", "context", "name"})
# Head words that make a name longer without naming a different concept ("BLEU score" is BLEU).
GENERIC_HEADS = lexicon.words("generic_heads")
# Head words that say what kind of thing a phrase names: "EM algorithm" is a METHOD, "SII measure" a METRIC (a known
# task under a generic one, "question answering system", is the task).
TYPE_HEADS = {
    "METHOD": lexicon.words("method_type_heads"),
    "TASK": frozenset(TASK_HEADS),
    "METRIC": lexicon.words("metric_type_heads"),
    "DATASET": lexicon.words("dataset_type_heads"),
}
# Head words a concept's name drops ("progressive latent fusion strategy" names "progressive latent fusion"); the
# mention keeps them. Not "model", "network" or "system": those are part of names ("language model").
NAME_HEADS = {
    "METHOD": lexicon.words("method_name_heads"),
    # "stochastic contextual bandit setting", "reinforcement learning research"
    "TASK": TYPE_HEADS["TASK"] | lexicon.words("setting_heads") | lexicon.words("field_heads"),
    "METRIC": TYPE_HEADS["METRIC"],
    "DATASET": lexicon.words("dataset_name_heads"),
}
PLURAL_HEADS = lexicon.words("plural_heads")
# Words an entity neither starts nor ends with ("adaptive modeling of", "X and"): greedy NER boundaries fray.
EDGE_WORDS = lexicon.words("edge_words")
# Verbs a greedy entity sometimes starts with ("solving black-box optimization") or ends with ("maps when").
LEADING_WORDS = LEADING_VERBS | lexicon.words("entity_leading_verbs") | lexicon.words("object_verbs") \
    | lexicon.words("judging_words")
TRAILING_WORDS = lexicon.words("trailing_words")
PREPOSITIONS = lexicon.words("prepositions")
METHOD_NOT_TASK_HEADS = lexicon.words("method_not_task_heads")
# A TASK entity whose head names something else: a method ("3D pre-trained models"), data ("gene expression
# data"), a field or place rather than a problem ("machine learning communities", "distributed environments"), or a
# difficulty ("spurious solution issue", "generalization challenge": the corpora leave 63 of 80 such phrases out).
NOT_TASK_HEADS = lexicon.words("not_task_heads")
# A model METRIC/DATASET without rule support is still taken when its head says what it is ("word error rate").
SUPPORTING_HEADS = {"METRIC": lexicon.words("metric_supporting_heads"), "DATASET": TYPE_HEADS["DATASET"]}

# The word sets above as string ids, to test tokens' LOWER columns against (kg.nlp.candidates.ids).
_PREPOSITION_IDS, _PLURAL_HEAD_IDS, _GENERIC_HEAD_IDS = ids(PREPOSITIONS), ids(PLURAL_HEADS), ids(GENERIC_HEADS)
_EDGE_IDS, _LEADING_IDS, _TRAILING_IDS = ids(EDGE_WORDS), ids(LEADING_WORDS), ids(TRAILING_WORDS)
_NOT_TASK_HEAD_IDS = ids(NOT_TASK_HEADS)
_CLAUSE_VERB_IDS = ids(lexicon.words("clause_verbs"))
_SETTING_IDS = ids(lexicon.words("setting_heads"))  # "the federated learning setting" is federated learning
_SETTING_LABELS = ("TASK", "DATASET")  # (and "the Atari domain" Atari)
# A dataset's splits by the names kg gives them ("mini-val" -> "minival"), and the words after them a name drops
_SPLIT_NAMES = {get_string_id(written): name for written, name in map(str.split, lexicon.ordered("split_names"))}
_SPLIT_HEAD_IDS = ids(lexicon.words("split_heads"))
_COMPONENT_IDS = ids(lexicon.words("component_heads"))  # "the prediction head": no task "prediction"
_COORDINATOR_IDS = ids(frozenset({"and", "or"}))
_OF_ID = get_string_id("of")
_VARIANT_IDS = ids(lexicon.words("variant_words"))
_OPEN_ID, _CLOSE_ID = get_string_id("("), get_string_id(")")
_TYPE_HEAD_IDS = {label: ids(words) for label, words in TYPE_HEADS.items()}
_NAME_HEAD_IDS = {label: ids(words) for label, words in NAME_HEADS.items()}
_SUPPORTING_HEAD_IDS = {label: ids(words) for label, words in SUPPORTING_HEADS.items()}


class Combiner:
    """Base of the pipeline components that add a trained model's entities to the rule candidates (the NER here,
    the linear tagger in :mod:`kg.nlp.components.tagger`): subclasses load the model and implement :meth:`entities`;
    this class turns each entity into a ``model`` (``model_extension``, ``model_phrase``) candidate or drops it."""

    # Whether a method phrase in lower case with "of" inside names no method (the tagger's: on the NeurIPS 2022
    # corpus such phrases were descriptions; the NER's spans of that shape match SciERC's method mentions more often)
    of_describes = False

    def __init__(self, name: str, labels: Iterable[str] = LABELS, extend: bool = True,
                 need_support: Iterable[str] = ("DATASET", "METRIC"), need_name: Iterable[str] = (),
                 max_tokens: int = 12) -> None:
        self.name = name
        self.labels = frozenset(labels)
        self.extend = extend
        self.need_support = frozenset(need_support)
        self.need_name = frozenset(need_name)
        self.max_tokens = max_tokens
        self.confidence: dict[str, float] = {}  # per label: the model's dev precision (missing labels: 0.5)

    def set_confidence(self, dev: dict | None) -> None:
        """Confidence per label from a model's dev record (``{"per_label": {label: {"p": ...}}}``)."""
        per_label = (dev or {}).get("per_label") or {}
        self.confidence = {lab: round(float(v["p"]), 3) for lab, v in per_label.items() if "p" in v}

    @property
    def loaded(self) -> bool:
        raise NotImplementedError

    def entities(self, batch: list[Doc]) -> list[list[Entity]]:
        """The model's entities per doc, as token ranges; ``doc.ents`` is left as it was."""
        raise NotImplementedError

    def unlinked_entities(self, batch: list[Doc]) -> tuple[list[list[Entity]], list[list[Entity]]]:
        """:meth:`entities` per doc, and the entities to report as mentions that make no concept (none here)."""
        return self.entities(batch), [[] for _ in batch]

    def __call__(self, doc: Doc) -> Doc:
        return next(iter(self.pipe([doc])))

    def pipe(self, stream: Iterable[Doc], batch_size: int = 64) -> Iterator[Doc]:
        if not self.loaded:
            yield from stream
            return
        for batch in minibatch(stream, batch_size):
            for doc, ents, unlinked in zip(batch, *self.unlinked_entities(batch)):
                lower = column(doc, LOWER)
                ents = doc.user_data[MODEL_ENTS] = _split_joined(doc, ents, lower)
                out = candidates(doc)
                rules = _rules(out)
                names, index = short_forms(doc, rules), rule_spans(rules)
                for e in ents:  # (loops: a generator per doc costs more than its ~15 entities' tests)
                    if (c := self._candidate(doc, index, names, *e, lower)) is not None:
                        out.append(c)
                for e in unlinked:
                    if (c := self._unlinked(doc, index, names, *e)) is not None:
                        out.append(c)
                yield doc

    def _unlinked(self, doc: Doc, rules: _doc.RuleSpans, names: ShortForms, start: int, end: int,
                  label: str) -> Candidate | None:
        """A ``generic`` candidate (a mention, no concept) for an entity apart from every rule's candidate and
        abbreviation pair, where it would be a plain ``model`` candidate: it takes no rule's place and labels no
        pair (a pair inside an entity takes the entity's label). A task whose head names a method ("sparse graph
        learning models") is a METHOD mention, as everywhere (5-fold SciREX 0.6159 with only tasks kept, 0.6164)."""
        if rules.overlapping(start, end) or any(min(a.long_start, a.short_start) < end
                                                and start < max(a.long_end, a.short_end) for a in names.pairs):
            return None
        c = self._candidate(doc, rules, names, start, end, label)
        return dataclasses.replace(c, generic=True) if c is not None and c.extractor == "model" else None

    def _candidate(self, doc: Doc, rules: _doc.RuleSpans, names: ShortForms, start: int, end: int, label: str,
                   lower: Sequence[int] | None = None) -> Candidate | None:
        """The candidate of a model entity ``doc[start:end]`` of ``label``, or None (``lower``: the doc's LOWER
        column, when the caller has it)."""
        start, end = trim(doc, start, end)
        if label not in self.labels or not 0 < end - start <= self.max_tokens:
            return None
        if rules.named(start, end, label):  # (first: the other tests up to the next Candidate say None too)
            return None  # a rule found the same name, and names it better ("BRATS 2015" is the release BraTS 2015)
        if lower is None:
            lower = column(doc, LOWER)
        first, last = lower[start], lower[end - 1]  # (the entity's first and last words, read once)
        if first == _OPEN_ID and end - start > 3:
            close = _first_at(lower, start + 2, end - 1, _CLOSE_ID)
            if close:  # an aside opens no name: "(DNN) heuristics" of "Deep Neural Networks' (DNN) heuristics"
                return self._candidate(doc, rules, names, close + 1, end, label, lower)
        if end - start > 2 and first in _VARIANT_IDS and lower[start + 1] == _OF_ID:
            # a variant's noun opens no name: "a generalization of contrastive Hebbian learning" names the method
            return self._candidate(doc, rules, names, start + 2, end, label, lower)
        if end - start == 1 and len(span_text(doc, start, end)) == 1:
            return None  # one character is no name: the "M" of "300 M images"
        if label == "DATASET" and only_data_kinds(doc[start:end]):
            return None  # what data is in or of: "English German", "translate it into French", "EEG"
        if end - start > 2 and _any_in(lower, start + 1, end - 1, _CLAUSE_VERB_IDS):
            return None  # a clause, no name: the title's "deep learning meets nonparametric regression", "models
            # trained with cross-entropy exhibit text degeneration"
        confidence = self.confidence.get(label, 0.5)
        overlapping = rules.overlapping(start, end)  # (empty for about a third of the entities: no test then)
        if overlapping and label in ("METHOD", "TASK") and (cut := _dataset_cut(overlapping, start, end)):
            # begun inside a known dataset's name: "v1.1 question answering" of "SQuAD v1.1 question answering"
            return self._candidate(doc, rules, names, cut, end, label, lower)
        if label == "METHOD" and self.of_describes and end - start > 2 \
                and _describes(doc, lower, overlapping, start, end):
            return None
        if overlapping and (_known_dataset_and_head(doc, overlapping, start, end, label)
                            or label == "DATASET" and _dataset_then_task(doc, overlapping, start, end)):
            return None
        if label in self.need_support and not _any_label(overlapping, label) \
                and not self_supported(doc, start, end, label, lower):
            return None
        if label == "TASK" and end < len(doc) and lower[end] in _COMPONENT_IDS \
                and not _has_span(overlapping, start, end, "TASK"):
            # "the identity-initialized prediction head", "a segmentation module": a part, no task (a mention still)
            return Candidate(start, end, label, "model", confidence=confidence, generic=True)
        if label == "TASK" and not overlapping and not _any_in(lower, start, end, _PREPOSITION_IDS):
            # the head of a phrase without a preposition ("alignment of datasets")
            head = doc.vocab.strings[last]
            if head in NOT_TASK_HEADS:
                return None
            if head in METHOD_NOT_TASK_HEADS:
                label, confidence = "METHOD", self.confidence.get("METHOD", 0.5)
        # (the length and head checks first, from columns: making the Span for every entity costs 0.7% of extraction)
        if label == "METHOD" and (not overlapping or _family_words_only(doc, overlapping, start, end)) \
                and (based := built_on(doc, start, end)):
            # "CNN-based models", "dynamic programming-based algorithms", "a MixUp-based strategy": the method a
            # family is built on (the gazetteer may have found it in the family word alone)
            return Candidate(start, end, label, "model", canonical=based, confidence=confidence)
        if label == "METHOD" and not overlapping and end - start <= 2 and last in _PLURAL_HEAD_IDS \
                and generic_class(doc[start:end]):
            return Candidate(start, end, label, "model", confidence=confidence, generic=True)
        if label == "TASK" and not overlapping and end - start == 2 and last in _CLASS_OF_TASKS_IDS \
                and generic_task_class(doc[start:end]):
            return Candidate(start, end, label, "model", confidence=confidence, generic=True)
        if label in self.need_name and not overlapping and not _any_namelike(doc, start, end):
            return None
        inside = _inside(overlapping, start, end) if overlapping else []
        if label in ("METHOD", "TASK") and inside and _joins_names(doc, lower, inside, start, end):
            return None  # "SARSA and Q-learning", "3D classification and segmentation": two names, which the rules
            # give apart (a dataset's may be one: "CNN and Daily Mail")
        if inside and _family_words_only(doc, inside, start, end):
            inside = []  # family words' methods name no phrase around them ("MAML-based meta-learner beats PPO-style")
        pairs = _pairs_within(names.pairs, start, end) if names.pairs else []
        # (most entities are neither around a pair nor under a head word, nor a task after a known dataset: no phrase)
        if pairs or inside and label == "TASK" or last in _TYPE_HEAD_IDS.get(label, ()):
            phrase = self._phrase(doc, lower, names, pairs, overlapping, inside, start, end, label, confidence)
            if phrase is not None:
                return phrase
        if not (self.extend and inside and _all_label(inside, label)):  # (most entities: a plain model candidate)
            canonical = concept_name(doc, start, end, label, lower, settings=False) \
                if last in _NAME_HEAD_IDS.get(label, ()) else None  # (concept_name's first test, without
            # the call: most names end in no kind word)
            return Candidate(start, end, label, "model", canonical, False, False, confidence)
        core = _core(inside)
        if label == "METHOD" and core.extractor == "gazetteer" and _side_by_side(doc, lower, core, inside, start):
            return None  # two known methods side by side compose, not one name: "AlphaGo Zero self-play games"
        if label == "TASK" and (last in _NOT_TASK_HEAD_IDS or core.start == start
                                and _any_in(lower, core.end, end, _PREPOSITION_IDS)):
            return None  # the known task stands: "node classification on graphs", "quantization process"
        canonical = None
        if core.start == start and _generic_after(lower, core.end, end, label in _SETTING_LABELS):
            canonical = core.canonical or span_text(doc, core.start, core.end)
        elif label == "DATASET" and core.start == start and (split := _split_name(lower, core.end, end)) is not None \
                and not _drops_digits(span_text(doc, core.start, core.end), core.canonical):
            # a known dataset's split: "MS COCO mini-val set" is "COCO minival", as the vocabulary names COCO's splits
            # (not a release's: "MS COCO 2017 validation set" is no "COCO val")
            canonical = f"{core.canonical or span_text(doc, core.start, core.end)} {split}"
        elif label == "METRIC":
            # A metric's name is exact: "regret" stays "regret" inside "T-type regret bound". (A dataset's is not:
            # "WMT09 English-Hungarian data set" is a more precise name than the gazetteer's "WMT09".)
            return Candidate(start, end, label, "model", confidence=confidence)
        return Candidate(start, end, label, "model_extension", canonical=canonical or concept_name(doc, start, end, label),
                         benchmark=core.benchmark, confidence=confidence)

    def _phrase(self, doc: Doc, lower: Sequence[int], names: ShortForms, pairs: list[Abbreviation],
                overlapping: list[Candidate], inside: list[Candidate], start: int, end: int, label: str,
                confidence: float) -> Candidate | None:
        """A ``model_phrase`` candidate when the entity is one name made of parts the rules would split: a whole
        abbreviation pair (``pairs``: those inside the entity; "Additive Operator Splitting (AOS) techniques") or
        names under a head word that says what they are ("EM algorithm", "question answering system"). Such a phrase
        outranks the split parts; its canonical name is the pair's long form (or the part's canonical) when the rest
        is only a generic head and words that modify the pair, unless a rule knows a longer name ending in the long
        form."""
        if not self.extend:
            return None
        if label == "TASK" and lower[end - 1] in _NOT_TASK_HEAD_IDS:
            return None  # "out-of-distribution (OOD) generalization challenge": a difficulty, not the task's name
        opening = _dataset_opening(inside, start) if label == "TASK" and inside else None
        if opening is not None:
            # a known dataset, then its task: "the WMT 2014 English-to-French translation task" names the dataset
            # and translation, "the COCO captioning task" COCO and captioning
            if _all_in(lower, opening, end, _GENERIC_HEAD_IDS):
                return None
            return Candidate(opening, end, label, "model", canonical=concept_name(doc, opening, end, label),
                             confidence=confidence)
        if not pairs and lower[end - 1] not in _TYPE_HEAD_IDS.get(label, ()):
            return None  # neither a whole pair nor under a head word (most entities): what follows cannot hold
        orth, longs = column(doc, ORTH), names.longs
        # Short forms used inside the entity (where defined or later): "ACGMRF model", "verb WSD problems".
        used = [i for i in range(start, end - 1) if orth[i] in longs] if longs else []
        headed = lower[end - 1] in _TYPE_HEAD_IDS.get(label, ()) and (
            _other_label_before(inside, label, end) or bool(used))
        if not (pairs or headed):
            return None  # (before the tests below, which only ever say None too)
        if _any_proposed(overlapping):
            return None
        if names.proposed and _any_in(orth, start, end, names.proposed):
            return None  # a later use of the paper's own method's name
        if label in ("DATASET", "METRIC") and _rule_and_head(lower, inside, start, end, label):
            return None  # a rule's dataset or metric and a generic head ("ImageNet-1K dataset"): the rule's name
            # stands (the gazetteer knows ImageNet-1K is ImageNet)
        if label == "METHOD" and _task_with_method_head(doc, names, inside, start, end):
            # "object detection methods", "SRL systems", "TTA methods": methods for a task, not a method named
            # after it; the rule's task stands, as the paper addresses it (SciERC and SciREX mark the whole span a
            # method mention)
            return None
        canonical = None
        pair = pairs[0] if len(pairs) == 1 else None
        if pair is not None and _generic_tail(lower, orth, max(pair.long_end, pair.short_end), end):
            lo = min(pair.long_start, pair.short_start)
            known = [c for c in inside if c.label == label and c.start < lo and c.end >= pair.long_end]
            if known:  # a rule knows the longer name: "offline reinforcement learning (RL)" is not RL
                canonical = known[0].canonical or span_text(doc, known[0].start, known[0].end)
            elif _modifiers_only(doc, start, lo):
                # The pair is the phrase's head ("tabular episodic Markov decision processes (MDPs)"): the short
                # form the text defines names the concept, and later uses of it (MDPs) point to the same one.
                canonical = span_text(doc, pair.long_start, pair.long_end)
        elif pair is None and used == [start] and _generic_tail(lower, orth, start + 1, end):
            canonical = longs[orth[start]]
        return Candidate(start, end, label, "model_phrase", canonical=canonical or concept_name(doc, start, end, label),
                         confidence=confidence)


def _drops_digits(text: str, canonical: str | None) -> bool:
    """Whether a name's canonical form leaves out digits its text has ("COCO 2017" named "COCO")."""
    return canonical is not None and sorted(filter(str.isdigit, text)) != sorted(filter(str.isdigit, canonical))


def _split_name(lower: Sequence[int], start: int, end: int) -> str | None:
    """The name of the split that tokens ``[start, end)`` after a dataset's name write ("mini-val set" -> "minival",
    "validation split" -> "val"), or None if they write none."""
    if not 1 <= end - start <= 2 or end - start == 2 and lower[end - 1] not in _SPLIT_HEAD_IDS:
        return None
    return _SPLIT_NAMES.get(lower[start])


def _other_label_before(inside: list[Candidate], label: str, end: int) -> bool:
    """Whether one of ``inside`` has another label than ``label`` and ends before ``end``."""
    for c in inside:
        if c.label != label and c.end < end:
            return True
    return False


def _pairs_within(pairs: tuple[Abbreviation, ...], start: int, end: int) -> list[Abbreviation]:
    """The abbreviation pairs wholly inside ``[start, end)``."""
    out = []
    for a in pairs:
        if start <= a.long_start and start <= a.short_start and a.long_end <= end and a.short_end <= end:
            out.append(a)
    return out


def _describes(doc: Doc, lower: Sequence[int], overlapping: list[Candidate], start: int, end: int) -> bool:
    """Whether a method phrase describes rather than names: "of" inside it, in lower case ("a model of speech
    processing", "fusion of embedding tables"), unless a rule's name spans the "of" ("mixture of experts") or a
    capital makes it a name ("Self-supervised Aggregation of ..."). A sentence's first word and a short form in
    brackets make no name of it ("Unsupervised learning of latent variable models (LVMs) is ...")."""
    for of in range(start + 1, end - 1):
        if lower[of] == _OF_ID:
            break
    else:
        return False
    for c in overlapping:
        if c.start < of < c.end - 1:
            return False
    depth = 0
    for t in doc[start:end]:
        text = t.text
        depth += (text == "(") - (text == ")")
        if text[:1].isupper() and not depth and not (t.is_sent_start and text[1:].islower()):
            return False
    return True


def _known_dataset_and_head(doc: Doc, overlapping: list[Candidate], start: int, end: int, label: str) -> bool:
    """Whether the entity is a known dataset's name (a gazetteer or context rule's), of another label, with only
    generic head words after it: "bAbI tasks" is the dataset bAbI."""
    for c in overlapping:
        if c.start == start and c.end < end and c.label == "DATASET" != label and c.extractor in _KNOWN_NAMES \
                and all(t.lower_ in GENERIC_HEADS for t in doc[c.end:end]):
            return True
    return False


def _dataset_then_task(doc: Doc, overlapping: list[Candidate], start: int, end: int) -> bool:
    """Whether a dataset entity is a known dataset's name, then a known task's, then only generic head words: "the
    COCO object detection dataset" is the dataset COCO and the task object detection, which the rules give."""
    for c in overlapping:
        if c.start == start and c.label == "DATASET" and c.extractor in _KNOWN_NAMES:
            for t in overlapping:
                if t.start == c.end and t.end < end and t.label == "TASK" and t.extractor == "gazetteer" \
                        and all(w.lower_ in GENERIC_HEADS for w in doc[t.end:end]) \
                        and not any(w.text[:1].isupper() for w in doc[t.start:end]):
                    return True  # (not a name in capitals: "the Waymo Domain Adaptation Dataset")
    return False


_KNOWN_NAMES = frozenset({"gazetteer", "context"})


def _any_label(cands: list[Candidate], label: str) -> bool:
    """Whether one of ``cands`` has ``label`` (a loop: a generator costs more than the few candidates it would test)."""
    for c in cands:
        if c.label == label:
            return True
    return False


def _all_label(cands: list[Candidate], label: str) -> bool:
    """Whether every one of ``cands`` has ``label``."""
    for c in cands:
        if c.label != label:
            return False
    return True


def _any_in(values: Sequence[int], start: int, end: int, ids: frozenset[int]) -> bool:
    """Whether one of ``values[start:end]`` (a column's) is in ``ids``."""
    for k in range(start, end):
        if values[k] in ids:
            return True
    return False


def _all_in(values: Sequence[int], start: int, end: int, ids: frozenset[int]) -> bool:
    """Whether every one of ``values[start:end]`` (a column's) is in ``ids``."""
    for k in range(start, end):
        if values[k] not in ids:
            return False
    return True


def _first_at(values: Sequence[int], start: int, end: int, value: int) -> int:
    """The first ``k`` in ``[start, end)`` where ``values[k] == value``; 0 if none."""
    for k in range(start, end):
        if values[k] == value:
            return k
    return 0


def _generic_after(lower: Sequence[int], start: int, end: int, settings: bool) -> bool:
    """Whether tokens ``[start, end)`` are only generic head words (or setting heads, with ``settings``)."""
    for k in range(start, end):
        if lower[k] not in _GENERIC_HEAD_IDS and not (settings and lower[k] in _SETTING_IDS):
            return False
    return True


def _generic_tail(lower: Sequence[int], orth: Sequence[int], start: int, end: int) -> bool:
    """Whether tokens ``[start, end)`` are only generic head words and closing brackets."""
    for k in range(start, end):
        if lower[k] not in _GENERIC_HEAD_IDS and orth[k] not in _CLOSES:
            return False
    return True


def _dataset_cut(overlapping: list[Candidate], start: int, end: int) -> int:
    """The furthest end of a gazetteer dataset that ``start`` falls strictly inside and that ends before ``end``; 0
    if none."""
    cut = 0
    for c in overlapping:
        if c.label == "DATASET" and c.extractor == "gazetteer" and c.start < start < c.end < end and c.end > cut:
            cut = c.end
    return cut


def _dataset_opening(inside: list[Candidate], start: int) -> int | None:
    """The furthest end of a gazetteer dataset among ``inside`` that starts at ``start``; None if none."""
    opening = None
    for c in inside:
        if c.label == "DATASET" and c.start == start and c.extractor == "gazetteer" \
                and (opening is None or c.end > opening):
            opening = c.end
    return opening


def _has_span(cands: list[Candidate], start: int, end: int, label: str) -> bool:
    """Whether one of ``cands`` has ``label`` and the span ``[start, end)``."""
    for c in cands:
        if c.label == label and c.start == start and c.end == end:
            return True
    return False


def _any_proposed(cands: list[Candidate]) -> bool:
    """Whether one of ``cands`` names the paper's own method."""
    for c in cands:
        if c.proposed or c.extractor == "proposed":
            return True
    return False


def _rule_and_head(lower: Sequence[int], inside: list[Candidate], start: int, end: int, label: str) -> bool:
    """Whether one of ``inside`` has ``label``, starts at ``start`` and is followed up to ``end`` by generic head
    words only."""
    for c in inside:
        if c.label == label and c.start == start and _all_in(lower, c.end, end, _GENERIC_HEAD_IDS):
            return True
    return False


def _core(inside: list[Candidate]) -> Candidate:
    """The longest of ``inside`` (non-empty), of the highest priority among the longest; the first of equal ones."""
    best = inside[0]
    for c in inside[1:]:
        if c.end - c.start > best.end - best.start \
                or c.end - c.start == best.end - best.start and c.priority > best.priority:
            best = c
    return best


def _any_namelike(doc: Doc, start: int, end: int) -> bool:
    """Whether one of the tokens ``[start, end)`` is name-like (:func:`kg.nlp.candidates.is_namelike`)."""
    for k in range(start, end):
        if is_namelike(doc[k]):
            return True
    return False


def _rules(cands: list[Candidate]) -> list[Candidate]:
    """The candidates of the rules: all but the model's."""
    return [c for c in cands if c.extractor != "model"]


def _inside(overlapping: list[Candidate], start: int, end: int) -> list[Candidate]:
    """The gazetteer, context and name candidates strictly inside ``[start, end)``."""
    out = []
    for c in overlapping:
        if start <= c.start and c.end <= end and c.extractor in EXTENDABLE and (c.start != start or c.end != end):
            out.append(c)
    return out


def _family_words_only(doc: Doc, cands: list[Candidate], start: int, end: int) -> bool:
    """Whether every one of ``cands`` is the vocabulary's method in a family word inside ``start:end``."""
    for c in cands:
        if not _family_word(doc, c, start, end):
            return False
    return True


def _split_joined(doc: Doc, ents: list[Entity], lower: Sequence[int]) -> list[Entity]:
    """The entities with each pair of joined names split (:func:`_joined_names`: METHOD entities of three or four
    tokens only). ``lower``: the doc's LOWER column."""
    out = []
    for e in ents:
        start, end, label = e
        if label == "METHOD" and 3 <= end - start <= 4:
            out += _joined_names(doc, start, end, label, lower)
        else:
            out.append(e)
    return out


def _joined_names(doc: Doc, start: int, end: int, label: str, lower: Sequence[int] | None = None) -> list[Entity]:
    """A METHOD entity of two names joined by "and" or "or", each one name-shaped word, perhaps under a generic head,
    as the two names ("UCB and KL-UCB algorithms", "OGDA and EG methods"); any other entity as it is. ``lower``: the
    doc's LOWER column, when the caller has it (its ids, not Tokens' texts: most such entities are no joined names)."""
    if lower is None:
        lower = column(doc, LOWER)
    headed = end - start == 4 and lower[end - 1] in _GENERIC_HEAD_IDS
    if label != "METHOD" or end - start - headed != 3 or lower[start + 1] not in _COORDINATOR_IDS \
            or not (is_namelike(doc[start]) and is_namelike(doc[start + 2])):
        return [(start, end, label)]
    return [(start, start + 1, label), (start + 2, start + 3, label)]


def _joins_names(doc: Doc, lower: Sequence[int], inside: list[Candidate], start: int, end: int) -> bool:
    """Whether "and" or "or" inside ``[start, end)`` joins rule candidates on both its sides, or joins a rule
    candidate to words in lower case ("classification and density estimation", "mixup and entropy-based
    filtering"): two names, or a name and a word the rules leave out. A name that only its shape marks is left
    joined ("Plug and Play Language Models"), and so is a coordinator inside a rule's name ("branch and bound").
    ``lower``: the doc's LOWER column."""
    for k in range(start + 1, end - 1):
        if lower[k] not in _COORDINATOR_IDS or any(c.start < k < c.end for c in inside):
            continue
        before, after = any(c.end <= k for c in inside), any(c.start > k for c in inside)
        if before and after:
            return True
        if (before or after) and all(t.is_lower or not t.is_alpha for t in doc[start:end]):
            return True
    return False


def _side_by_side(doc: Doc, lower: Sequence[int], core: Candidate, inside: list[Candidate], start: int) -> bool:
    """Whether another vocabulary method sits right before or after ``core`` inside an entity that starts at
    ``start`` ("fine-tuning language models", "AlphaGo Zero self-play games"): two methods, not one name. Not right
    after a title's colon, where a paper spells out its own name ("M³ViT: Mixture-of-Experts Vision Transformer for
    ..."), nor after an -ing word that starts the entity, a verb more often than a method ("boosting adversarial
    training")."""
    title = doc.user_data.get(TITLE)
    if title and start > 0 and doc[start - 1].text == ":" and doc[start].idx < len(title):
        return False
    word = doc.vocab.strings[lower[start]]
    verb_first = word.endswith("ing") and word.isalpha()  # (a hyphenated one is a noun: "fine-tuning language models")
    for c in inside:
        if c.extractor != "gazetteer" or c.label != core.label or not (c.end == core.start or c.start == core.end):
            continue
        first = c if c.start < core.start else core
        if not (verb_first and first.start == start and first.end - first.start == 1):
            return True
    return False


def _modifiers_only(doc: Doc, start: int, end: int) -> bool:
    """Whether ``doc[start:end]`` is only words that modify what follows ("tabular episodic finite-horizon"): no
    function word ("semantic parsing of", "retrieval and") and no punctuation. True when empty."""
    return all((t.is_alpha or ("-" in t.text and any(ch.isalpha() for ch in t.text))) and not t.is_stop
               for t in doc[start:end])


def _task_with_method_head(doc: Doc, names: ShortForms, inside: list[Candidate], start: int, end: int) -> bool:
    """Whether ``doc[start:end]`` is a known task's name (or the short form of one) and a generic method head."""
    if end - start < 2 or doc[end - 1].lower_ not in GENERIC_HEADS:
        return False
    core = [c for c in inside if c.start == start and c.end == end - 1]
    if core:
        return all(c.label == "TASK" for c in core)
    return end - start == 2 and column(doc, ORTH)[start] in names.tasks


def rule_spans(rules: list[Candidate]) -> _doc.RuleSpans:
    """A doc's rule candidates indexed by their spans (:class:`kg.nlp._doc.RuleSpans`): those overlapping an entity,
    and whether the gazetteer or a context rule names exactly its span with its label."""
    return _doc.RuleSpans(rules, _KNOWN_NAMES)


@dataclass(frozen=True, slots=True)
class ShortForms:
    """Per doc: the names of the paper's own method (single tokens and defined short forms), each defined
    one-token short form's long form, and the short forms of known tasks, all by the string id of the name (a
    token's ORTH)."""

    proposed: frozenset[int]
    longs: dict[int, str]
    tasks: frozenset[int] = frozenset()  # short forms whose long form a rule knows as a task
    pairs: tuple[Abbreviation, ...] = ()  # the doc's abbreviation pairs (kg.nlp.candidates.abbreviations)


_NO_SHORT_FORMS = ShortForms(frozenset(), {})


def short_forms(doc: Doc, rules: list[Candidate]) -> ShortForms:
    """The doc's :class:`ShortForms`, read once for all of its model entities."""
    own = []
    for c in rules:
        if c.proposed:
            own.append(c)
    pairs = abbreviations(doc)
    if not own and not pairs:
        return _NO_SHORT_FORMS  # (most abstracts)
    proposed, tasks, longs = set(), set(), {}
    for c in own:
        if c.end - c.start == 1:
            proposed.add(span_text(doc, c.start, c.start + 1))
    task_spans = set()
    for c in rules:
        if c.label == "TASK" and not c.extractor.startswith("model"):
            task_spans.add((c.start, c.end))
    for a in pairs:
        short = span_text(doc, a.short_start, a.short_end)
        if _holds_short(own, a):
            proposed.add(short)
        if a.short_end - a.short_start == 1:
            longs[short] = span_text(doc, a.long_start, a.long_end)
        if (a.long_start, a.long_end) in task_spans or (a.short_start, a.short_end) in task_spans:
            tasks.add(short)
    return ShortForms(frozenset([get_string_id(p) for p in proposed]),
                      {get_string_id(k): v for k, v in longs.items()},
                      frozenset([get_string_id(t) for t in tasks]), tuple(pairs))


def _holds_short(cands: list[Candidate], pair: Abbreviation) -> bool:
    """Whether one of ``cands`` holds the short form of ``pair``."""
    for c in cands:
        if c.start <= pair.short_start and pair.short_end <= c.end:
            return True
    return False


# "X-based models" of a plain X ("regression-based methods"): a family of methods, not one method; a named X is the
# method the family is built on (:func:`based_on`: "CNN-based models" link to CNN).


def generic_class(span) -> bool:
    """A short plural phrase naming a class of methods rather than one ("linear models", "optimization methods",
    "GAN-based approaches")."""
    if len(span) > 2 or span[-1].lower_ not in PLURAL_HEADS:
        return False
    if len(span) == 2 and span[0].lower_.endswith(FAMILY_SUFFIXES):
        return True
    return not any(is_namelike(t) or (t.text[:1].isupper() and not t.is_sent_start) for t in span)


_CLASS_OF_TASKS = frozenset({"tasks", "problems"})
_CLASS_OF_TASKS_IDS = ids(_CLASS_OF_TASKS)


def generic_task_class(span) -> bool:
    """A kind of tasks rather than a task: a plural head after one word that names no activity ("one-to-many
    tasks", "language problems"); "translation tasks" and "NLP tasks" name their task."""
    if len(span) != 2 or span[-1].lower_ not in _CLASS_OF_TASKS:
        return False
    first = span[0]
    return not (is_namelike(first) or TASK_NOUN.search(first.lower_) or first.lower_ in TASK_WORDS)


def concept_name(doc: Doc, start: int, end: int, label: str, lower: Sequence[int] | None = None,
                 settings: bool = True) -> str | None:
    """The entity's name without a trailing head word that only says what kind of thing it is
    ("column-then-row attention mechanism" -> "column-then-row attention"), when what remains still names
    something: two or more words not ending in a modifier ("-based", "-aware"...), or one name-like word ("BLEU
    score" -> "BLEU"). None: the span's own text. ``lower``: the doc's LOWER column, when the caller has it.
    ``settings``: whether a task's name drops a setting's head too ("stochastic contextual bandit setting"); not for
    a phrase the tagger alone reads, which without a task's head word is no task ("the sequential learning
    setting")."""
    heads = _NAME_HEAD_IDS.get(label, ()) if settings or label != "TASK" else _TYPE_HEAD_IDS["TASK"]
    if lower is None:
        lower = column(doc, LOWER)
    stop = end
    while stop > start and lower[stop - 1] in heads:
        stop -= 1
    if stop == end or stop == start:
        return None
    if stop - start == 1 and not is_namelike(doc[start]):
        return None
    if stop - start == 1 and (based := based_on(doc[start].text)):
        return based  # "a CNN-based model": a kind of CNN
    if doc[stop - 1].lower_.endswith(MODIFIER_SUFFIXES):
        return None  # a modifier names nothing alone: "regression-based methods" is not "regression-based"
    return strip_possessive(span_text(doc, start, stop))


def _family_word(doc: Doc, c: Candidate, start: int, end: int) -> bool:
    """Whether candidate ``c`` is the vocabulary's method in a family word inside ``start:end`` ("GAN-like"), or
    before "based" written apart there ("GAT based model"; not "based on")."""
    if c.extractor != "gazetteer" or c.label != "METHOD" or not start <= c.start < end:
        return False
    if c.end - c.start == 1 and family_suffix(doc[c.start].lower_) is not None:
        return True  # (not a name with a hyphen of its own: "Q-learning")
    return c.end < end - 1 and doc[c.end].lower_ == "based" and doc[c.end + 1].lower_ not in ("on", "upon")


def built_on(doc: Doc, start: int, end: int) -> str | None:
    """The method a method phrase is a family of: the name before its first "-based", "-like", "-style", "-driven"
    or "-type" word that is not its last ("dynamic programming-based algorithms" -> "dynamic programming",
    "recurrent neural network-like learning approaches" -> "RNN", "a MixUp-based strategy" -> "mixup"; "based"
    written apart too: "policy gradient based training"), when the vocabulary knows it as a method, or a coined name
    written alone ("MoCo-based models"; :func:`based_on`).
    Authors of such phrases name the method they build on; the phrase names no concept of its own, unless a name
    follows ("the GPU-based linear solver FALKON")."""
    text = span_text(doc, start, end - 1)  # (the family word is not the last)
    if not may_hold_family_word(text) or not _may_name_family(text.lower()):
        return None
    lower, strings = column(doc, LOWER), doc.vocab.strings
    found = family_base([strings[lower[i]] for i in range(start, end)], load_gazetteer().lookup())
    if found is None:
        return None
    _, k, suffix, entry = found
    if any(is_namelike(doc[i]) for i in range(start + k + 1, end)):
        return None  # a name after it names the phrase: "the GPU-based linear solver FALKON"
    if entry is not None:
        return entry.name if entry.label == "METHOD" else None
    if k == 1 and suffix == "based":  # a coined name, then "based" apart: "MoCo based models"
        return based_on(doc[start].text + "-based")
    return based_on(doc[start].text, suffix) if k == 0 else None


def _may_name_family(text: str) -> bool:
    """Whether lower-case ``text`` holds "based" or a family suffix: no word of it can be a family word otherwise
    (:func:`kg.nlp.labels.family_base` reads each word's lower-case form, a piece of ``text``)."""
    if "based" in text:
        return True
    for suffix in FAMILY_SUFFIXES:
        if suffix in text:
            return True
    return False


def based_on(word: str, suffix: str = "-based") -> str | None:
    """The method in "NAME-based": the vocabulary's method by that name ("ConvNet-based" -> "CNN", "OT-based" ->
    "optimal transport"), else a name written with a capital or a digit inside ("MoCo-based", "NDT-based"); None for
    a known name of another kind ("RL-based", "ImageNet-based") or a plain word ("Regression-based" at a sentence's
    start)."""
    if not word.lower().endswith(suffix) or len(word) < len(suffix) + 2:
        return None
    name = word[:-len(suffix)]
    entry = load_gazetteer().lookup().get(name.lower())
    if entry is not None:
        return entry.name if entry.label == "METHOD" else None
    coined = name.replace("-", "").isalnum() and any(c.isupper() or c.isdigit() for c in name[1:]) \
        and not name.lower().startswith("non-")  # "non-IMLE-based methods" are built on something else
    return name if coined else None


def self_supported(doc: Doc, start: int, end: int, label: str, lower: Sequence[int]) -> bool:
    """Whether the entity ``doc[start:end]`` of METRIC or DATASET says what it is without a rule: its head word ("word
    error rate"; for a dataset, a head word after a name: "the AMI meeting corpus"), or, for a dataset, a proper name
    ("CCGbank", "TiGer Treebank", "NIST05") other than a lone acronym, which names methods and tasks as often as
    datasets ("MSA", "TESLA"). ``lower``: the doc's LOWER column (a metric's test reads no Token)."""
    if label != "DATASET":
        return lower[end - 1] in _SUPPORTING_HEAD_IDS.get(label, ())
    span = doc[start:end]
    if lower[end - 1] in _SUPPORTING_HEAD_IDS["DATASET"] and any(
            not t.is_lower and not t.is_punct and not t.is_sent_start or any(c.isdigit() for c in t.text)
            for t in span[:-1]):
        return True  # a name under a head word: "the AMI meeting corpus", "WMT’14 dataset" (a description of data
        # is none: "factual text corpus", "Conversational corpora are scarce")
    lone_acronym = len(span) == 1 and span[0].text.rstrip("s").isupper() and span[0].text.isalpha()
    return not lone_acronym and any(is_namelike(t) for t in span)


_OPENS, _CLOSES, _BRACKETS = (ids(substrings(c)) for c in ("([", ")]", "()[]"))  # the texts ``text in "(["`` accepts
_QUOTE_IDS = (get_string_id("\u201c"), get_string_id("\u201d"))  # opening, closing


_TRIM = _doc.Trimmer(*map(_doc.IdSet, (_EDGE_IDS, _LEADING_IDS, _TRAILING_IDS, _OPENS, _CLOSES, _BRACKETS))).trim


_QUOTED = "kg_quotes"  # doc.user_data key: the doc's double quote tokens (_quotes)
_OPENING_QUOTES, _CLOSING_QUOTES = (_doc.IdSet([q]) for q in _QUOTE_IDS)


def _quotes(doc: Doc) -> tuple[list[int], list[int]] | tuple[()]:
    """The positions of the doc's opening and closing double quote tokens, found once per doc; empty when it has no
    closing one (its text holds no "\u201d" in most docs: a scan of the text, in most non-ASCII ones)."""
    quotes = doc.user_data.get(_QUOTED)
    if quotes is None:
        closing = _doc.where(doc, ORTH, _CLOSING_QUOTES) if "\u201d" in doc_text(doc) else []
        quotes = doc.user_data[_QUOTED] = (_doc.where(doc, ORTH, _OPENING_QUOTES), closing) if closing else ()
    return quotes


def _after_quotes(opening: list[int], closing: list[int], start: int, end: int) -> int:
    """Where a range ``[start, end)`` starts once past its closing quotes before its first opening one (``opening``,
    ``closing``: the doc's quote positions, in order)."""
    first = end
    for k in opening:
        if k >= start:
            first = min(k, end)
            break
    for k in closing:
        if k >= first:
            break
        if k >= start:
            start = k + 1
    return start


def trim(doc: Doc, start: int, end: int) -> tuple[int, int]:
    """Token range without frayed edges: leading/trailing connectives and punctuation (not brackets), leading verbs
    and trailing words that end no name, a dangling bracket ("Stanford twitter corpus (mentioned": the bracket
    and what follows go; "NYT) corpus" starts after the bracket; a bracket closing just after the range is taken
    in). A typed loop over the doc's token array (:class:`kg.nlp._doc.Trimmer`). An entity that starts inside
    quotes starts after them: "natural” layer decomposition" is "layer decomposition"."""
    quotes = doc.user_data.get(_QUOTED)  # (_quotes, inline when known: ~15 entities per doc)
    if quotes is None:
        quotes = _quotes(doc)
    if quotes and start < end:
        start = _after_quotes(quotes[0], quotes[1], start, end)
    return _TRIM(doc, start, end)  # (the bound method: no attribute lookup per entity)
