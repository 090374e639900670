"""Final selection: candidates from every component -> one consistent list of mentions per doc.

- An abbreviation pair names one concept: its long and short forms become two mentions with one canonical
  name, and later uses of the short form (or of a proposed name) point to it too.
- Overlaps are resolved by priority (proposed > abbreviation > gazetteer > context > model > name), then length.
- The result is ``doc._.kg_mentions`` (a list of ``DocMention``) and ``doc.ents``.
"""
from __future__ import annotations

import bisect
import dataclasses
import difflib
import operator
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from spacy.attrs import IDX, LOWER, ORTH
from spacy.language import Language
from spacy.strings import StringStore
from spacy.tokens import Doc

from kg.nlp import _doc
from kg.nlp.candidates import (FORMULAS, MENTIONS, PRIORITY, TITLE, Abbreviation, Candidate, abbreviations,
                               candidates, column, ids, model_entities, positions_of, sentence_bounds,
                               doc_text, sentence_starts, span_text, strip_possessive, token_ends, year_cited_at)
from kg.nlp.combine import TYPE_HEADS, concept_name
from kg.nlp.components.context import stands_as_name
from kg.nlp.components.gazetteer import PHRASE_BREAKS, Entry, load_gazetteer
from kg.nlp.components.proposed import before_condition
from kg.nlp.components.title import title_long_form
from kg.model import LABELS
from kg.nlp.labels import DATA_KINDS, is_language, label_from_words
from kg.nlp import lexicon
from kg.schema import concept_key, initials

@dataclass(slots=True)
class DocMention:
    """A selected mention in cleaned-text character offsets."""

    start: int
    end: int
    label: str
    text: str
    canonical: str
    extractor: str
    sent_start: int
    sent_end: int
    proposed: bool = False
    benchmark: bool = False
    confidence: float = 1.0
    generic: bool = False


def model_sees(ents: list[tuple[int, int, str]] | None, start: int, end: int) -> bool:
    """Whether the trained model has an entity overlapping tokens ``[start, end)``; always true when no model
    ran (``--fast``, the rules alone), so rules that need the model's support keep their candidates there."""
    if ents is None:
        return True
    for s, e, _ in ents:  # (a loop: a generator costs more than the test of ~15 entities)
        if s < end and start < e:
            return True
    return False


def _covering(cands: list[Candidate], start: int, end: int, extractor: str | None = None) -> Candidate | None:
    best = None
    for c in cands:
        if c.start <= start and end <= c.end and (extractor is None or c.extractor == extractor):
            if best is None or c.priority > best.priority:
                best = c
    return best


def _exact(cands: list[Candidate], start: int, end: int) -> Candidate | None:
    hits = [c for c in cands if c.start == start and c.end == end and c.extractor == "gazetteer"]
    return hits[0] if hits else None


def _known_head(long: str, lookup: dict[str, Entry]) -> str | None:
    """The label of the vocabulary's name that ends a pair's long form, the longest of two words or more: "Open Set
    Domain Adaptation" is a kind of domain adaptation (a TASK), "One-way Partial AUC" a partial AUC (a METRIC)."""
    words = long.lower().split()
    for k in range(1, len(words) - 1):
        entry = lookup.get(" ".join(words[k:]))
        if entry is not None and entry.label in ("METHOD", "TASK", "METRIC"):
            return entry.label
    return None


def _pair_label(ents: list[tuple[int, int, str]] | None, a: Abbreviation, long: str, redefined: bool = False,
                lookup: dict[str, Entry] | None = None) -> str:
    """The label of an abbreviation pair no rule knows: the one its long form's head word says it is ("Knowledge
    Delivery System" is a METHOD, "... Corpus" a DATASET); else the trained model's, on the short form (else on the
    long form, and over a short form it calls a dataset), as it read the name in context; without a model, the long
    form's head word ("... Alignment" -> TASK). A short form the text ``redefined`` away from a vocabulary entry
    ("Adversarial Response Characteristics (ARC)", not the ARC dataset; "masked autoencoding (MAE)", not the metric)
    takes the model's reading of the long form only, else its words: the model saw the entry's label on the
    letters."""
    words = long.lower().split()
    for label, heads in TYPE_HEADS.items():
        if words and words[-1] in heads:
            return label
    if lookup is not None and (known := _known_head(long, lookup)) is not None:
        return known
    read = {(s, e): label for s, e, label in ents or ()}
    whole = read.get((a.long_start, a.long_end))
    short = None if redefined else read.get((a.short_start, a.short_end))
    if short == "DATASET" and whole is not None:
        return whole  # letters in brackets look like a dataset's name to the tagger: "... policy (CTS)"
    return short or whole or label_from_words(long)


_KIND_WORDS = lexicon.words("kind_words")
# words after which a noun phrase has ended, and "than" ("the SWU score than ..."); a verb's form in "-ed" or "-ing"
# ends one too ("the PVR benchmark introduced in ...", "the GSC task based on ...")
_PHRASE_BREAKS = PHRASE_BREAKS | lexicon.words("baseline_markers")
_DATASET_HEAD_IDS = ids(lexicon.words("dataset_heads"))  # (one-word heads: "data set" is two tokens)
_METHOD_HEADS = TYPE_HEADS["METHOD"] | lexicon.words("plural_heads") | {"baseline", "baselines"}


_ARTICLES = lexicon.words("articles")


def _without_articles(name: str) -> str:
    """A name's :func:`concept_key` without its articles ("area under the curve" as "area under curve")."""
    return concept_key(" ".join(w for w in name.split() if w.lower() not in _ARTICLES))


def _names_it(entry: Entry | None, long: str) -> bool:
    """Whether a gazetteer entry could be what a pair's long form names: "MAE" is mean absolute error, but
    "Masked Autoencoders (MAE)" defines another MAE. True when one of the entry's spelled-out names is nearly the
    long form (plural, hyphens, a kind word such as "algorithm", a stray word before it), or when the entry has no
    name of several words (nothing to compare)."""
    if entry is None:
        return False
    words = [w for w in long.split() if w.lower() not in _KIND_WORDS] or long.split()
    key = _without_articles(" ".join(words))
    names = [n for n in (entry.name, *entry.aliases) if len(n.split()) > 1]
    spelled = [_without_articles(n) for n in names  # "Histogram of Oriented Gradients", not "Fast R-CNN"
               if not any(sum(map(str.isupper, w)) > 1 for w in n.split())]
    if not spelled:  # only names with short forms in them ("AI2 Reasoning Challenge"): compare with those that do
        shorts = {n.lower() for n in (entry.name, *entry.aliases) if len(n.split()) == 1}  # not name the entry by
        spelled = [_without_articles(n) for n in names if not shorts & {w.lower() for w in n.split()}]  # its short form
    if not spelled:
        return True
    for name in spelled:
        short, longer = sorted((key, name), key=len)
        if len(short) >= 10 and short in longer:
            return True
        similar = difflib.SequenceMatcher(None, key, name)  # the cheap upper bounds of ratio() first
        if similar.real_quick_ratio() >= 0.85 and similar.quick_ratio() >= 0.85 and similar.ratio() >= 0.85:
            return True
    return False


def _split_pairs(doc: Doc, cands: list[Candidate], pairs: list[Abbreviation], lookup: dict[str, Entry]) -> list[Candidate]:
    """One concept per abbreviation pair, as two mentions; candidates spanning a whole pair are split. A short
    form that a gazetteer entry knows names that entry only if its long form agrees."""
    if not pairs:
        return list(cands)  # (most abstracts)
    out = [c for c in cands if c.extractor != "proposed" or not any(
        c.start <= min(a.long_start, a.short_start) and max(a.long_end, a.short_end) <= c.end for a in pairs)]
    ents = model_entities(doc)
    redefined = set()
    for a in pairs:
        known_short, known_long = _exact(out, a.short_start, a.short_end), _exact(out, a.long_start, a.long_end)
        if known_short is None:
            continue
        if known_long is not None:  # both known: keep a benchmark named after its task ("brain tumor segmentation (BraTS)")
            clash = known_long.canonical != known_short.canonical and (known_long.label, known_short.label) != ("TASK", "DATASET")
        else:
            entry = lookup.get((known_short.canonical or "").lower()) or lookup.get(
                span_text(doc, a.short_start, a.short_end).lower())
            clash = not _names_it(entry, span_text(doc, a.long_start, a.long_end))
        if clash:
            out = [c for c in out if c is not known_short]  # the text defines its own short form
            redefined.add(span_text(doc, a.short_start, a.short_end))

    renamed: dict[str, str] = {}  # adjectival long forms -> the vocabulary's name of their noun

    def silent(a: Abbreviation) -> bool:
        # A pair only the word-shape rules would label: most such pairs name other things ("levels of detail (LOD)").
        return not model_sees(ents, min(a.long_start, a.short_start), max(a.long_end, a.short_end))

    for a in pairs:
        lo, hi = min(a.long_start, a.short_start), max(a.long_end, a.short_end)
        prop = _covering(cands, lo, hi, "proposed")
        whole = _covering(cands, lo, hi, "abbreviation")
        if prop is None and whole is not None and (whole.start, whole.end) != (lo, hi):
            # the short form of a known name's first words, inside that name's mention: that name, and a mention
            # only where the name makes no concept ("rely on the Kullback-Leibler (KL) divergence to limit ...")
            for s, e in ((a.long_start, a.long_end), (a.short_start, a.short_end)):
                out.append(Candidate(s, e, whole.label, "abbreviation", canonical=whole.canonical,
                                     benchmark=whole.benchmark, generic=whole.generic))
            continue
        known = _exact(out, a.long_start, a.long_end) or _exact(out, a.short_start, a.short_end)
        short, long = span_text(doc, a.short_start, a.short_end), span_text(doc, a.long_start, a.long_end)
        phrase = _covering(cands, lo, hi, "model_phrase")
        noun = _nominalised(long, lookup)  # "differentially private (DP)": differential privacy
        generic = False
        if prop is not None:
            label, proposed, bench = prop.label, prop.proposed, prop.benchmark
            canonical = short if proposed else long
            extractor = "proposed"
        elif phrase is not None:
            # The trained model read the pair as part of one longer name; later uses of the short form follow it.
            label, canonical, proposed, bench, extractor = (noun.label if noun else phrase.label), \
                (noun.name if noun else long), False, False, "abbreviation"
            # a kind of data that the name goes on after names none of it: "whole-slide image (WSI) classification"
            generic = noun is None and doc[a.long_end - 1].lower_ in DATA_KINDS \
                and phrase.end > hi + (hi < len(doc) and doc[hi].text == ")")
        elif known is not None:
            label, canonical, proposed, bench, extractor = known.label, known.canonical or long, False, known.benchmark, "gazetteer"
            # the pair defines its short form: the tagger's reading of those words gives way ("meta-reinforcement
            # learning (meta RL)": the tagger's "meta RL", around the known RL, would outrank the pair's reading)
            out = [c for c in out if not (c.start == a.short_start and c.end == a.short_end
                                          and c.extractor.startswith("model"))]
        elif noun is not None:  # (named by the text's own pair, so its short form is no vocabulary reading of the letters)
            label, canonical, proposed, bench, extractor = noun.label, noun.name, False, noun.benchmark, "abbreviation"
        elif silent(a) or a.people_by(doc):
            continue
        else:
            # the known name the long form ends with says its label, unless a method's head word follows the pair
            # ("the Bayesian Neural Architecture Search (BNAS) method")
            after = hi + (hi < len(doc) and doc[hi].text == ")")
            head = doc[after].lower_ if after < len(doc) else ""
            if before_condition(doc, hi):  # a condition or property stated: "the Polyak-Lojasiewicz (PL) condition"
                for s, e in ((a.long_start, a.long_end), (a.short_start, a.short_end)):
                    out.append(Candidate(s, e, _pair_label(ents, a, long, short in redefined, None), "abbreviation",
                                         canonical=long, generic=True))
                continue
            named_by = None if head in _METHOD_HEADS else lookup
            label, canonical, proposed, bench, extractor = (_pair_label(ents, a, long, short in redefined, named_by),
                                                            long, False, False, "abbreviation")
            # the kind a head word that ends the phrase after the pair names: "the densest subgraph (DSG) problem" is
            # a TASK, "the safety-weighted-utility (SWU) score" a METRIC, a method's "Pointer Value Retrieval (PVR)
            # benchmark" a DATASET (a task's stays: "a motion forecasting (MPMF) dataset" holds that task's data);
            # not "score network", "problem formulation", nor a method's head ("translation (NAT) models")
            nxt = doc[after + 1].lower_ if after + 1 < len(doc) else ""
            ends = not nxt.isalpha() or nxt in _PHRASE_BREAKS or nxt.endswith(("ed", "ing"))
            kind = next((k for k, heads in TYPE_HEADS.items() if k != "METHOD" and head in heads), None) if ends else None
            if kind is not None and (kind != "DATASET" or label == "METHOD"):
                label = kind
            elif nxt in _METHOD_HEADS and head.isalpha() and head.islower() and label in ("METRIC", "DATASET"):
                label = "METHOD"  # a method's head a word later: "the Indexed Minimum Empirical Divergence (IMED)
                # bandit algorithm", not the divergence its words end in
            if label == "METHOD" and _before_data_head(doc, hi):
                label = "DATASET"  # "the EventCorefBank (ECB) corpus"
        if label == "TASK" and extractor == "abbreviation" and canonical == long \
                and not short.rstrip("s").lower().endswith(doc[a.long_end - 1].lower_[:1]):
            # a head word the letters leave out: "the densest subgraph problem (DSG)" is densest subgraph (not
            # "Traveling Salesman Problem (TSP)")
            canonical = concept_name(doc, a.long_start, a.long_end, "TASK") or long
        if canonical != long and noun is not None:
            renamed[long.lower()] = canonical
        for s, e in ((a.long_start, a.long_end), (a.short_start, a.short_end)):
            out.append(Candidate(s, e, label, extractor, canonical=canonical, proposed=proposed, benchmark=bench,
                                 generic=generic))
    for c in out if renamed else ():  # "DP algorithms", named by the long form: the noun's concept too
        if c.canonical is not None and c.canonical.lower() in renamed:
            c.canonical = renamed[c.canonical.lower()]
    return out


_NOUN_FORMS = dict(pair.split() for pair in lexicon.ordered("noun_forms"))


def _nominalised(long: str, lookup: dict[str, Entry]) -> Entry | None:
    """The vocabulary entry an adjectival long form names by its noun ("differentially private" -> "differential
    privacy"), or None."""
    words = long.lower().split()
    if not words or words[-1] not in _NOUN_FORMS:
        return None
    adjectives = [w[:-2] if w.endswith("ally") else w for w in words[:-1]]  # "differentially" -> "differential"
    return lookup.get(" ".join([*adjectives, _NOUN_FORMS[words[-1]]]))


def _words(doc: Doc, start: int, end: int) -> tuple[str, ...]:
    """The texts of tokens ``[start, end)``."""
    return tuple([span_text(doc, k, k + 1) for k in range(start, end)])


_OTHER_NUMBER = re.compile(r"^([A-Z][A-Za-z0-9-]*[A-Z0-9])(s?)$")  # a short form and its plural: "LM", "LMs"


def _in_other_number(m: re.Match) -> str:
    """A match of :data:`_OTHER_NUMBER` in the other number ("LMs" -> "LM", "GAN" -> "GANs")."""
    return m.group(1) if m.group(2) else m.group(1) + "s"


def _overlaps_beyond(cands: list[Candidate], start: int, end: int) -> bool:
    """Whether a candidate overlaps tokens ``[start, end)`` and reaches outside them."""
    for o in cands:
        if o.start < end and start < o.end and (o.start < start or o.end > end):
            return True
    return False


def _strongest_on(cands: list[Candidate], start: int, end: int) -> Candidate | None:
    """The first of the highest-priority candidates on exactly ``[start, end)``, or None."""
    best = None
    for c in cands:
        if c.start == start and c.end == end and (best is None or c.priority > best.priority):
            best = c
    return best


def _propagate(doc: Doc, cands: list[Candidate], pairs: list[Abbreviation]) -> list[Candidate]:
    """Later uses of a defined short form (in the singular or the plural) or a proposed name refer to the same
    concept."""
    names: dict[tuple[str, ...], Candidate] = {}  # a short form's or a proposed name's tokens -> its candidate
    for a in pairs:
        # the pair's own candidate (the highest priority on the short form), not a weaker one on the same span
        c = _strongest_on(cands, a.short_start, a.short_end)
        if c is not None:  # (a generic mention's short form names nothing later either: generic there too)
            names.setdefault(_words(doc, a.short_start, a.short_end), c)
    for words in [w for w in names if len(w) == 1]:  # "LM" after "language models (LMs)", "GANs" after "(GAN)"
        other = _OTHER_NUMBER.sub(_in_other_number, words[0])
        if other != words[0]:
            names.setdefault((other,), names[words])
    for c in cands:
        if c.proposed and c.end - c.start == 1:
            names.setdefault((span_text(doc, c.start, c.start + 1),), c)
    cands, extra = _proposed_long_forms(doc, cands), []
    by_first: dict[str, list[tuple[str, ...]]] = {}
    for words in names:
        by_first.setdefault(words[0], []).append(words)
    # A longer known name around a later use wins: "BraTS 2018" after "Brain Tumor Segmentation (BraTS)".
    longer = {i for c in cands if c.extractor == "gazetteer" and c.end - c.start > 1
              for i in range(c.start, c.end)} if by_first else set()
    for i in positions_of(doc, by_first) if by_first else ():
        for words in sorted(by_first[span_text(doc, i, i + 1)], key=len, reverse=True):  # "SAF R-CNN" before "SAF"
            n = len(words)
            if _words(doc, i, min(i + n, len(doc))) != words:
                continue
            c = names[words]
            if c.generic and _overlaps_beyond(cands, i, i + n):
                break  # a generic short form inside a longer name leaves that name: "KL guided sampling"
            if c.start != i and longer.isdisjoint(range(i, i + n)):
                extra.append(Candidate(i, i + n, c.label, "abbreviation", canonical=c.canonical or span_text(
                    doc, c.start, c.end), benchmark=c.benchmark, generic=c.generic))
            break
    # A name that context showed to be a dataset is a dataset wherever else it appears.
    datasets = {span_text(doc, c.start, c.end): c for c in cands if c.label == "DATASET" and c.extractor == "context"}
    firsts = {span_text(doc, c.start, c.start + 1) for c in datasets.values()}
    orth = column(doc, ORTH)
    for i in positions_of(doc, firsts) if firsts else ():
        for text, c in datasets.items():
            n = c.end - c.start
            if i != c.start and orth[i] == orth[c.start] and span_text(doc, i, min(i + n, len(doc))) == text:
                extra.append(Candidate(i, i + n, "DATASET", "context", canonical=c.canonical, benchmark=c.benchmark,
                                       confidence=c.confidence))
    return cands + extra


_LONGER = frozenset({"model_extension", "title_topic"})
_KNOWN = frozenset({"gazetteer", "abbreviation", "proposed", "model_phrase"})  # names read as a whole elsewhere
_OTHER = {label: tuple(other for other in LABELS if other != label) for label in LABELS}


def _longer_names_everywhere(doc: Doc, cands: list[Candidate]) -> list[Candidate]:
    """The candidates, with a longer name the tagger or the title found around a known name ("open-ended text
    generation" around "text generation") on every other place the doc writes its words (in any case): a paper names
    its concept alike each time, though the tagger, reading each sentence apart, extends only some ("sampling in
    open-ended text generation" is no new mention of "text generation"). Not where the words are, or are part of, a
    name found whole ("Temporal Classification" in "Connectionist Temporal Classification"), or are read as another
    kind in place (the title's topic "sparse logistic regression" stays the method the tagger reads in the
    abstract)."""
    longer: dict[tuple[int, ...], Candidate] = {}
    lower = column(doc, LOWER)
    for c in cands:
        if c.extractor in _LONGER and c.end - c.start > 1:
            words = tuple(lower[c.start:c.end])
            if words not in longer or c.start > longer[words].start:  # the abstract's, as it writes the name (the
                longer[words] = c  # title is read in the case of a sentence)
            if c.canonical and len(c.canonical) < len(span_text(doc, c.start, c.end)):  # "misspecified phase
                for k in range(c.end - 1, c.start + 1, -1):  # retrieval" of "... retrieval problem": its words too
                    if span_text(doc, c.start, k).lower() == c.canonical.lower():
                        longer.setdefault(words[:k - c.start], c)
                        break
    if longer:  # not the paper's own name, which its own rules place (the title's "NAME: ..." included)
        for c in cands:
            if c.proposed and c.end - c.start > 1:
                longer.pop(tuple(lower[c.start:c.end]), None)
    if not longer:
        return cands
    found = [(i, i + len(words), c) for i in _doc.where(doc, LOWER, _doc.IdSet({words[0] for words in longer}))
             for words, c in longer.items() if i != c.start and words[0] == lower[i]
             and tuple(lower[i:i + len(words)]) == words]
    if not found:
        return cands
    read = {(c.start, c.end, c.label) for c in cands}
    whole = [(c.start, c.end) for c in cands if c.extractor in _KNOWN]
    return cands + [Candidate(i, j, c.label, c.extractor, canonical=c.canonical or _as_written(doc, c),
                              confidence=c.confidence) for i, j, c in found
                    if read.isdisjoint([(i, j, label) for label in _OTHER[c.label]]) and not _crosses(whole, i, j)]


def _crosses(whole: list[tuple[int, int]], i: int, j: int) -> bool:
    """Whether one of the token ranges ``whole`` overlaps ``[i, j)`` other than as a shorter range inside it."""
    for a, b in whole:
        if a < j and i < b and not (i <= a and b <= j and b - a < j - i):
            return True
    return False


_SPELLING = re.compile(r"(?<![\w-])[a-z]+[A-Z]")  # a word that shows letters in capitals: "grAph", "numEricaL"


def _as_written(doc: Doc, c: Candidate) -> str | None:
    """The text of ``c`` as a name for its other places, or None (each its own) when it spells out an abbreviation's
    letters in capitals ("General grAph augMEntation (GAME)")."""
    text = span_text(doc, c.start, c.end)
    return None if _SPELLING.search(text) else text


def _proposed_long_forms(doc: Doc, cands: list[Candidate]) -> list[Candidate]:
    """The candidates, each on the words of the paper's own method's long form (named by its short form) written
    again taking that method: the title's "Cross-Domain Predictor" (read in lower case) is the CDP of "we propose a
    Cross-Domain Predictor (CDP)", one concept, not two. The title's words in any case, the abstract's as the long
    form writes them ("the attention processes in the brain" is not the proposed Attention Process), either in the
    other number; only a candidate on exactly those words (the known names inside a long form found nothing longer:
    "Spatial Mixture-of-Experts" names Mixture-of-Experts in the title), and no known name of another label (the
    title's task "Science Question Answering" stays the task beside the ScienceQA dataset)."""
    forms: dict[tuple[int, ...], Candidate] = {}
    for c in cands:
        if c.proposed and c.end - c.start > 1 and c.canonical \
                and c.canonical.lower() != span_text(doc, c.start, c.end).lower():
            forms.setdefault(tuple(column(doc, LOWER)[c.start:c.end]), c)
    if not forms:
        return cands
    lower, orth = column(doc, LOWER), column(doc, ORTH)
    strings = doc.vocab.strings
    # (the title is read as the first sentence)
    title_end = sentence_bounds(doc, 0)[1] if doc.user_data.get(TITLE) and len(doc) else 0
    out = []
    for c in cands:
        has_own_name = c.proposed and (c.canonical or "").lower() not in ("", span_text(doc, c.start, c.end).lower())
        own = None if has_own_name else _long_form_of(c, forms, lower, orth, strings, title_end)
        out.append(c if own is None else Candidate(c.start, c.end, own.label, "proposed", canonical=own.canonical,
                                                   proposed=True, benchmark=own.benchmark))
    return out


def _other_number(a: str, b: str) -> bool:
    """Whether words ``a`` and ``b`` are one word, in the same number or not ("predictor", "predictors")."""
    return a in (b, b + "s", b + "es") or b in (a + "s", a + "es")


def _long_form_of(c: Candidate, forms: dict[tuple[int, ...], Candidate], lower: Sequence[int], orth: Sequence[int],
                  strings: StringStore, title_end: int) -> Candidate | None:
    """The own name's candidate whose long form (its LOWER ids in ``forms``) ``c`` is on (:func:`_proposed_long_forms`;
    after ``title_end``, as the long form capitalises it), or None."""
    for words, own in forms.items():
        n = len(words)
        if c.end - c.start != n or tuple(lower[c.start:c.end - 1]) != words[:-1] \
                or not _other_number(strings[lower[c.end - 1]], strings[words[-1]]):
            continue
        if c.start >= title_end and (tuple(orth[c.start:c.end - 1]) != tuple(orth[own.start:own.start + n - 1])
                                     or not _other_number(strings[orth[c.end - 1]], strings[orth[own.end - 1]])):
            continue  # in the abstract, the long form's own capitals
        if c.extractor == "gazetteer" and c.label != own.label:
            continue
        return own
    return None


def _named_datasets_win(doc: Doc, cands: list[Candidate], pairs: list[Abbreviation]) -> list[Candidate]:
    """A dataset named by its context around a known task or method name is the dataset: "the VQA v2.0 dataset"
    is not the task VQA; the inner candidates go. So does a known method's reading of the very name a
    dataset's head word follows: "the Alpaca dataset" is the data, not the model Alpaca (a task's is its
    benchmarks': "KGC benchmarks"; and so is a short form the abstract defines: "test-time training (TTT) ... TTT
    benchmarks")."""
    outer = [c for c in cands if c.label == "DATASET" and c.extractor == "context"]
    if not outer:
        return cands
    lower = column(doc, LOWER)
    short = {span_text(doc, a.short_start, a.short_end) for a in pairs}
    headed = {(c.start, c.end) for c in outer if c.end < len(doc) and lower[c.end] in _DATASET_HEAD_IDS
              and span_text(doc, c.start, c.end) not in short}
    return [c for c in cands if c.label == "DATASET" or not _strictly_inside(c, outer)
            and not (c.label == "METHOD" and (c.start, c.end) in headed)]  # (a task's stays: "the DG benchmarks")


def _strictly_inside(c: Candidate, outer: list[Candidate]) -> bool:
    """Whether ``c`` lies inside one of ``outer`` and is not its whole span."""
    for o in outer:
        if o.start <= c.start and c.end <= o.end and (o.start != c.start or o.end != c.end):
            return True
    return False


_VERSION = re.compile(r"(v?\d+(\.\d+)*[a-z]?|\d+(\.\d+)?[BMK])(-[A-Za-z0-9.]+)*")  # 2, 1.5, v2, 70B, 2-Chat, 3-70B-Instruct
_VARIANTS = lexicon.words("model_variants")
_COUNTED = lexicon.words("counted")


_DATASET_VERSION = re.compile(r"v?\d+\.\d+[a-z]?|v\d+")  # 1.5, 5.1, v2: not a bare number ("Wikipedia 1" is a footnote)


def _dataset_release(doc: Doc, c: Candidate, taken: list[bool], known: dict) -> Candidate:
    """A known dataset's name with the release written after it ("FrameNet 1.5", "CTB 6.0") or the language
    written before it ("Chinese PropBank", "Japanese WordNet"): a release or a language's edition of the
    dataset, which TDMSci and SciREX annotate as one name. The concept stays the gazetteer's unless it knows the
    longer name."""
    if c.label != "DATASET" or c.extractor != "gazetteer":
        return c
    sent_start, sent_end = sentence_bounds(doc, c.start)
    start, end = c.start, c.end
    if end < sent_end and not taken[end] and _DATASET_VERSION.fullmatch(doc[end].text):
        end += 1
    if start > sent_start and not taken[start - 1] and is_language(doc[start - 1].lower_) \
            and not is_language(doc[start].lower_):
        start -= 1
    if (start, end) == (c.start, c.end):
        return c
    _take(taken, start, end)
    named = _known_name(known, span_text(doc, start, end), c.label)
    return _over(c, start, end, named or c.canonical or span_text(doc, c.start, c.end))


_SYMBOL = re.compile(r"[^\W\d_](?:[^\W\d_]|-){0,5}")  # lr, κ, ρ, F-sc, Cover: letters, no digits ("Q1") or "%"


def _metric_symbol(doc: Doc, c: Candidate, taken: list[bool]) -> Candidate:
    """A metric with the symbol or short name it is given in brackets ("recall (lr)", "kappa coefficient (κ)"), a
    pair the abbreviation rule does not pair because the letters differ: one mention, as TDMSci annotates every
    bracket-defined metric; the concept stays the metric's."""
    end = c.end
    if c.label != "METRIC":
        return c
    if end < len(doc) and doc[end].lower_ in ("reduction", "reductions") and doc[end - 1].text != ")" and not taken[end]:
        taken[end] = True  # "error rate reductions", "a 4% error reduction": the measure reported is the reduction
        return _over(c, c.start, end + 1, c.canonical or span_text(doc, c.start, end))
    if end + 3 > len(doc) or any(taken[end:end + 3]):
        return c
    if doc[end].text != "(" or doc[end + 2].text != ")" or not _SYMBOL.fullmatch(doc[end + 1].text):
        return c
    if sentence_bounds(doc, c.start)[1] < end + 3:
        return c
    _take(taken, end, end + 3)
    return _over(c, c.start, end + 3, c.canonical or span_text(doc, c.start, end))


_DATA_HEADS = lexicon.words("data_heads")


def _before_data_head(doc: Doc, end: int) -> bool:
    """Whether a dataset's head word follows token ``end`` (after a closing bracket): "... (ECB) corpus". Not
    "benchmark", as often a modifier ("LSO benchmark tasks")."""
    if end < len(doc) and doc[end].text == ")":
        end += 1
    return end < len(doc) and (doc[end].lower_ in _DATA_HEADS or span_text(doc, end, min(end + 2, len(doc))).lower()
                               in _DATA_HEADS)


def _named_data(doc: Doc, c: Candidate) -> Candidate:
    """A method's abbreviation followed by a dataset's head word names that dataset ("the AMT dataset"; TDMSci
    annotates the name and its head as the dataset; the reported span takes the head in, as every dataset's does).
    Not a task's abbreviation ("QA datasets" are tasks' data in SciREX), nor one of a phrase in lower case (of a
    task or a kind of data: "three ObjectNav datasets" after "object-goal navigation (ObjectNav)"), nor the paper's
    own method."""
    if c.label != "METHOD" or c.extractor != "abbreviation" or c.proposed or not _before_data_head(doc, c.end) \
            or (c.canonical or "").islower():
        return c
    return Candidate(c.start, c.end, "DATASET", c.extractor, canonical=c.canonical, confidence=c.confidence)


def _completed(doc: Doc, c: Candidate, taken: list[bool], known: dict) -> Candidate:
    """A chosen mention with the words around it that belong to its name (``taken``: tokens already in a mention,
    updated): a dataset's release or language, a metric's bracketed symbol, a model's version; or with the label
    the words after it give (a method's abbreviation before "dataset")."""
    if c.label == "DATASET":
        return _dataset_release(doc, c, taken, known)
    if c.label == "METRIC":
        return _metric_symbol(doc, c, taken)
    if c.extractor == "abbreviation":
        return _named_data(doc, c)
    return _with_version(doc, c, taken, known)


def _with_version(doc: Doc, c: Candidate, taken: list[bool], known: dict) -> Candidate:
    """A known model's name with the version, size or variant written after it ("Llama 2-Chat", "Gemini 1.5 Flash",
    "GPT-3 13B"): another model than the bare name, so the mention and its concept take them in."""
    if c.label != "METHOD" or c.extractor != "gazetteer":
        return c
    end, sent_end = c.end, sentence_bounds(doc, c.start)[1]
    while end < sent_end and end - c.end < 3 and not taken[end]:
        word = doc[end].text
        if _VERSION.fullmatch(word):
            if word.isdigit() and (len(word) == 4 or end + 1 < len(doc) and doc[end + 1].lower_ in _COUNTED):
                break  # a year, or a count: "BERT 3 times"
        elif word not in _VARIANTS:
            break
        end += 1
    if end == c.end:
        return c
    _take(taken, c.end, end)
    text = span_text(doc, c.start, end)
    return _over(c, c.start, end, _known_name(known, text, c.label) or text)


def _over(c: Candidate, start: int, end: int, canonical: str) -> Candidate:
    """``c`` over tokens ``[start, end)`` named ``canonical``: the words around a mention that belong to its name taken
    in (:func:`_completed`)."""
    return Candidate(start, end, c.label, c.extractor, canonical=canonical, benchmark=c.benchmark,
                     confidence=c.confidence, generic=c.generic)


def _take(taken: list[bool], start: int, end: int) -> None:
    """Mark tokens ``[start, end)`` as in a mention."""
    for i in range(start, end):
        taken[i] = True


def _known_name(known: dict, text: str, label: str) -> str | None:
    """The vocabulary's name of ``text`` when it knows it under ``label``, else None."""
    entry = known.get(text.lower())
    return entry.name if entry and entry.label == label else None


def _clean_name(text: str) -> str:
    return strip_possessive(text.strip(" ,.;:*_"))


_ASIDE = re.compile(r"\s+\(([^()]*)\)")


def _aside(m: re.Match) -> str:
    inner = m.group(1).strip()
    return m.group() if _VERSION.fullmatch(inner) or inner in _VARIANTS else ""  # "Llama 2 (70B)" is that model


def without_asides(name: str) -> str:
    """A concept's name without parenthetical asides: a short form or gloss names nothing more
    ("Fewshot-CIFAR100 (FC100)" -> "Fewshot-CIFAR100", "RGBD (depth) cameras" -> "RGBD cameras"). A size or
    version stays ("Llama 2 (70B)", as "Llama 2 70B" is a model of its own), as do parentheses inside a word
    ("SE(3)-Transformer", "LLM.int8()"); a name that is only an aside stays as it is."""
    if " (" not in name:
        return name
    out = name
    while True:  # innermost first: "X (a (b)) y"
        shorter = _ASIDE.sub(_aside, out)
        if shorter == out:
            break
        out = shorter
    return out.strip() or name


_SHAPE_OR_MODEL = frozenset({"name", "model"})  # a name only its shape or the trained model reads as one


def select_mentions(doc: Doc, generic: frozenset[str], known: dict,
                    ents: list[tuple[int, int, str]] | None = None) -> list[DocMention]:
    """Resolve all candidates of ``doc`` into non-overlapping mentions (appended to ``ents`` as token ranges and
    labels too, in token order)."""
    pairs = abbreviations(doc)
    cands = _propagate(doc, _split_pairs(doc, candidates(doc), pairs, known), pairs)
    cands = _longer_names_everywhere(doc, cands)
    cands = _named_datasets_win(doc, cands, pairs)
    # A name only its word shape marks as a method, like an abbreviation pair only word shapes would label, needs
    # the model's support (SciERC dev: such names were 0 of 4 right), unless its mixed case makes it a name alone
    # ("TinyBERT", "CogView2"; kg.nlp.components.context.stands_as_name).
    model_ents = model_entities(doc)
    cands = [c for c in cands if (c.extractor != "name" or model_sees(model_ents, c.start, c.end)
                                  or stands_as_name(doc, c.start))
             and not (c.end - c.start == 1 and c.extractor in _SHAPE_OR_MODEL and year_cited_at(doc, c.end))]
    # (an author's name before a cited year is a person: "Belanger & McCallum (2016) have shown")
    cands = _without_generic(doc, cands, generic)
    if FORMULAS in doc.user_data:
        cands = _outside_formulas(doc, cands, doc.user_data[FORMULAS])
    n = len(doc)
    taken = [False] * n
    chosen: list[Candidate] = []
    for c in _in_selection_order(cands, n):
        start, end = c.start, c.end
        if end <= start or True in taken[start:end]:
            continue
        taken[start:end] = [True] * (end - start)
        chosen.append(c)
    chosen.sort(key=_START)
    # (only these can grow or change: the others are what _completed would give back)
    chosen = [_completed(doc, c, taken, known) if c.label == "METRIC" or c.extractor == "abbreviation"
              and c.label != "DATASET" or c.extractor == "gazetteer" and c.label in ("DATASET", "METHOD") else c
              for c in chosen]
    # A metric's name before "training" names a training criterion or algorithm ("minimum error rate training",
    # "EM training"), not a measure reported.
    chosen = [c for c in chosen if not (c.label == "METRIC" and c.end < len(doc) and doc[c.end].lower_ == "training")]
    out = []
    idx, ends, starts, doc_chars = column(doc, IDX), token_ends(doc), sentence_starts(doc), doc_text(doc)
    first = len(ents) if ents is not None else 0
    for c in chosen:
        start, end, label = c.start, c.end, c.label
        if ents is not None:
            ents.append((start, end, label))
        text = _doc.span_text(doc, doc_chars, start, end)
        canonical = without_asides(c.canonical or _known_name(known, text, label) or _clean_name(text))
        k = bisect.bisect_right(starts, start) - 1  # sentence_bounds, inline
        sent_start, sent_end = starts[k], starts[k + 1] if k + 1 < len(starts) else n
        out.append(DocMention(idx[start], ends[end - 1], label, text, canonical, c.extractor,
                              idx[sent_start], ends[sent_end - 1], c.proposed, c.benchmark, c.confidence, c.generic))
    _one_label_per_own_name(out)
    _own_long_forms(doc, out, pairs)
    _spelled_out_elsewhere(doc, out, pairs)
    _one_label_per_known_concept(out, known)
    if ents is not None:  # doc.ents as the mentions end up labelled (one per mention, in the same order)
        ents[first:] = [(start, end, m.label) for (start, end, _), m in zip(ents[first:], out)]
    return out


_METHOD_OR_TASK = ("METHOD", "TASK")


def _one_label_per_known_concept(mentions: list[DocMention], known: dict) -> None:
    """A concept the paper reads both as a method and as a task takes the label the vocabulary gives it, where it
    knows the concept as one of the two ("reinforcement learning" a task, "stochastic approximation" a method): one
    concept, one label, as the graph has it."""
    first: dict[str, str] = {}  # a concept's name, lower case -> the first of the two labels it is read as
    both = []  # the names read as both, in the order their second label is first met
    for m in mentions:
        label = m.label
        if (label == "METHOD" or label == "TASK") and not m.generic:
            name = m.canonical.lower()
            if first.setdefault(name, label) != label and name not in both:
                both.append(name)
    for name in both:
        entry = known.get(name)
        if entry is None or entry.label not in _METHOD_OR_TASK:
            continue
        for m in mentions:
            if m.label in _METHOD_OR_TASK and m.canonical.lower() == name:
                m.label = entry.label


_SHORT = re.compile(r"[A-Z][A-Z0-9]{1,5}s?")  # "SSL", "GNNs", "CL"


def _spelled_out_elsewhere(doc: Doc, mentions: list[DocMention], pairs: list[Abbreviation]) -> None:
    """A short form the paper uses without defining it names the one concept of the paper whose words it is the
    initials of (the title's "Self-Supervised Learning" for "SSL approaches", "a new SSL paradigm"), over the
    vocabulary's reading of its letters and over a proposal rule's, as a pair the paper writes would: what the
    paper writes out is what it means. A short form the paper defines keeps its definition."""
    wanted: dict[str, list[DocMention]] = {}  # the letters of a short form, lower case -> its mentions
    for m in mentions:
        text = m.text
        if len(text) <= 7 and text[1:2].isupper() and m.label in ("METHOD", "TASK") and _SHORT.fullmatch(text) \
                and (" " not in m.canonical or m.extractor == "gazetteer"):
            wanted.setdefault((text[:-1] if text.endswith("s") else text).upper(), []).append(m)
    if not wanted:  # (most abstracts use no short form as a method's or task's name)
        return
    firsts = {w[0] for w in wanted}  # (upper case)
    spelled: dict[str, set[tuple[str, str]]] = {}
    for m in mentions:
        name = m.canonical
        if " " in name and name[:1].upper() in firsts and m.label in ("METHOD", "TASK") and not m.generic:
            if (letters := initials(name)) in wanted:
                spelled.setdefault(letters, set()).add((name, m.label))
    if not spelled:
        return
    defined = {a.short_text(doc).rstrip("s").upper() for a in pairs}
    known_long = {m.canonical for m in mentions if m.extractor == "gazetteer"}
    own = {name for m in mentions if m.proposed for name in (m.text, m.canonical)}
    for letters, found in spelled.items():
        if len(found) != 1 or letters in defined:
            continue
        (canonical, label), = found
        for m in wanted[letters]:
            if canonical == m.canonical or canonical not in known_long and (
                    m.extractor == "gazetteer" or m.text in own or m.canonical in own):
                continue  # (the vocabulary's reading, or the paper's own name, against a phrase no vocabulary knows;
                # against a known one, the letters are its: "a new SSL paradigm" is no new name)
            m.canonical, m.label, m.proposed = canonical, label, False


_OWN_LABEL_ORDER = ("DATASET", "METRIC", "METHOD", "TASK")  # the reading that says more of what an own name is first


def _one_label_per_own_name(mentions: list[DocMention]) -> None:
    """Give every mention of the paper's own name one label: a dataset or a metric where a proposal rule reads it so
    (a description or a head word: "We introduce HUMANISE, a large-scale dataset", "a new metric, called Rashomon
    Capacity"; the title's name alone reads as a method), else a method ("SNAKE" later read as a task)."""
    own = {m.canonical for m in mentions if m.proposed}
    if not own:
        return
    labels: dict[str, set[str]] = {}
    for m in mentions:
        if m.canonical in own and m.extractor == "proposed":  # (the vocabulary's reading is another thing: FIRE)
            labels.setdefault(m.canonical, set()).add(m.label)
    chosen = {name: next(label for label in _OWN_LABEL_ORDER if label in found) for name, found in labels.items()}
    for m in mentions:
        m.label = chosen.get(m.canonical, m.label)


def _own_long_forms(doc: Doc, mentions: list[DocMention], pairs: list[Abbreviation]) -> None:
    """A long form the paper gives its own name names it too: one the abstract defines ("hence the name Neural Motion
    Fields (NeMF)" in a paper titled "NeMF: ..."), or the words of a ``NAME: Long Form`` title that spell the name
    ("CoNT: Contrastive Neural Text Generation", and the abstract's "Contrastive Neural Text generation framework,
    CoNT"). Their mentions take the own name and its label and are proposed, as when a proposal rule reads the pair
    whole ("called Neural Matching Field (NeMF)"); otherwise the paper names its method twice, and the graph has a
    node for the long form apart from the short one's. A dataset named after its task leaves the task ("Science
    Question Answering (ScienceQA)")."""
    own = {m.text: m for m in mentions if m.proposed}
    if not own:
        return
    longs: dict[str, DocMention] = {}  # a long form, lower case -> the own name's mention
    spans: list[tuple[int, int, int, int, DocMention]] = []  # a defined pair's long and short form, in characters
    title = doc.user_data.get(TITLE)
    found = title_long_form(title) if title else None
    if found is not None and found[0] in own:
        longs[found[1].lower()] = own[found[0]]
    if pairs:
        idx, ends = column(doc, IDX), token_ends(doc)
        for a in pairs:
            name = own.get(a.short_text(doc))
            if name is not None:
                longs.setdefault(a.long_text(doc).lower(), name)
                spans.append((idx[a.long_start], ends[a.long_end - 1], idx[a.short_start], ends[a.short_end - 1],
                              name))
    if not longs:
        return
    for m in mentions:
        if m.proposed or m.generic or m.extractor == "gazetteer":
            continue  # (a name the vocabulary knows is no paper's new one: "predictive coding (PC)")
        name = next((n for start, end, short_start, short_end, n in spans if m.start <= start and end <= m.end
                     and (m.end <= short_start or m.start >= short_end)), None)  # (the pair, written whole)
        if name is None:
            name = longs.get(m.text.lower()) or longs.get(m.canonical.lower())
            if name is None or m.label != name.label and name.label == "DATASET":
                continue
        m.canonical, m.label, m.proposed = name.canonical, name.label, True


def _outside_formulas(doc: Doc, cands: list[Candidate], formulas: tuple[tuple[int, int], ...]) -> list[Candidate]:
    """The candidates but those inside a formula in math letters, whose letters are symbols ("removing $SA$ from the
    bound": states and actions; "an error of $2\\cdot\\mathrm{OPT}$": the optimum, not the OPT models). A metric's
    symbol is its name ("an $F_1$ of 0.9"), and so is the paper's own method's."""
    idx, ends = column(doc, IDX), token_ends(doc)
    return [c for c in cands if c.label == "METRIC" or c.extractor == "proposed" or c.end <= c.start
            or not any(a <= idx[c.start] and ends[c.end - 1] <= b for a, b in formulas)]


_START = operator.attrgetter("start")


def _in_selection_order(cands: list[Candidate], n: int) -> list[Candidate]:
    """``cands`` (token ranges within ``[0, n]``) in the order selection takes them: higher priority first, then
    longer, then earlier; in their given order where all three tie (a stable sort). Each key packs the three into
    one integer, which compares faster than a tuple, and is computed without a call per candidate (in C where the
    module is compiled: below :data:`_PACKED_TOKENS` tokens the keys fit in 63 bits)."""
    priorities: dict[str, int] = PRIORITY
    if n >= _PACKED_TOKENS:
        keys = [(-priorities.get(c.extractor, 0), c.start - c.end, c.start) for c in cands]
    else:
        width = 2 * n + 2  # (start - end + n lies in [0, 2n], start in [0, n])
        keys = []
        for c in cands:
            start, end, priority = c.start, c.end, priorities.get(c.extractor, 0)
            keys.append((-priority * width + start - end + n) * width + start)
    return [cands[i] for i in sorted(range(len(cands)), key=keys.__getitem__)]


_PACKED_TOKENS = 1 << 26  # docs of fewer tokens have selection keys below 2**61 (priorities are at most 100)


def _without_generic(doc: Doc, cands: list[Candidate], generic: frozenset[str]) -> list[Candidate]:
    """The candidates without those whose text is a generic word ("model", "our approach"), which names no concept.
    Where the trained model tags one as a METHOD it stays, as a generic mention: SciERC and SciREX annotate such
    mentions of methods (5-fold SciREX 0.578 -> 0.584); a generic task or dataset word goes (TDMSci leaves
    "alignment" and "problem" out), as does a rule's. Gazetteer names and the paper's own method always stay."""
    lower, starts = column(doc, LOWER), _generic_starts(generic)
    out = []
    for c in cands:
        if c.extractor in {"gazetteer", "proposed"} or lower[c.start] not in starts \
                or span_text(doc, c.start, c.end).lower() not in generic:
            out.append(c)
        elif c.extractor.startswith("model") and c.label == "METHOD":
            out.append(dataclasses.replace(c, generic=True))
    return out


@lru_cache(maxsize=8)
def _generic_starts(generic: frozenset[str]) -> frozenset[int]:
    """Ids of every prefix of the generic names: a candidate whose first word's lower case is none of them cannot
    be one, and its text need not be made."""
    return ids(frozenset(g[:i] for g in generic for i in range(1, len(g) + 1)))


def set_entities(doc: Doc, ents: list[tuple[int, int, str]], label_ids: dict[str, int]) -> None:
    """``doc.ents`` from token ranges that do not overlap, every other token outside an entity: the IOB and type
    fields written into the token array at once (``doc.ents = [Span, ...]`` checks each span). ``label_ids``: the
    labels' string ids in the doc's vocab so far (each label is added to the vocab once)."""
    for _, _, label in ents:
        if label not in label_ids:
            label_ids[label] = doc.vocab.strings.add(label)
    _doc.set_entities(doc, [(start, end, label_ids[label]) for start, end, label in ents])


@Language.factory("kg_mentions", default_config={"directory": ""})
def make_mentions(nlp: Language, name: str, directory: str):
    """Pipeline component writing ``doc._.kg_mentions`` and ``doc.ents``."""
    gaz = load_gazetteer(directory)
    generic, known = gaz.generic, gaz.lookup()
    label_ids: dict[str, int] = {}  # StringStore.add costs ~1,700 instructions a call, for ~70 entities per abstract

    def mentions(doc: Doc) -> Doc:
        ents: list[tuple[int, int, str]] = []
        doc.user_data[MENTIONS] = select_mentions(doc, generic, known, ents)
        set_entities(doc, ents, label_ids)
        return doc

    return mentions
