"""Cross-paper resolution: one canonical concept per real thing.

Mentions from all papers are grouped by (label, concept key). Abbreviation pairs defined in one paper
(``Scale-aware Domain Harmonization (SDH)``) also merge concepts that other papers name by the other form,
unless that form is ambiguous in the corpus (``SC`` defined with two different long forms stays apart). A short
form a paper defines for its own name is keyed by its long form in that paper, so two long forms of one short
form are two concepts ("Ladder Side-Tuning (LST)" and "Local Sequence Transformer (LST)"), each named by its long
form; a paper that only uses the short form joins the concept when the corpus defines it one way. A short form a
paper proposes without spelling it out is that paper's definition, so another paper's long form for its letters
leaves the two apart, and so does a paper's definition of a vocabulary short form by another long form
("information rectification module (IRM)" is not the vocabulary's Invariant Risk Minimization); and short forms
that differ only in case ("SnAKe" and "SNAKE", "STaR" and "Stars") stay one concept per spelling, all but the
spelling of most papers keyed by their spelling (:func:`kg.schema.cased_key`).
A method's or task's name with a head word that only says its kind ("EM algorithm", "CTC loss") is the concept of
the name without it, where the corpus has that.

A name has one type per graph: where papers read one name as two labels ("reinforcement learning" as the task
of 164 papers and the method of 25), a vote picks one, the vocabulary's reading first, then one that more than a
word's shape gives, then the most papers; the mentions keep the label they were read with, and their links go to
the winning concept.

One pass over the extractions, with memory that grows with the number of distinct names, not of papers: each
paper is kept only as the compact array of the names it mentions, to count papers per concept after merging.
"""
from __future__ import annotations

import difflib
import functools
import json
import os
import re
from array import array
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from kg.model import Extraction
from kg.nlp import lexicon
from kg.schema import cased_key, concept_key, initials, spelling

Key = tuple[str, str]  # (label, concept key)
_HEADS = lexicon.words("generic_heads") | lexicon.words("method_name_heads") | lexicon.words("method_type_heads") | {
    "training", "setting", "settings", "principle"}


# Head words after a method's or task's name that say only what kind of thing it is ("EM algorithm", "CTC loss")
_KIND_HEADS = lexicon.words("kind_heads")
_SENTENCE_CAPITAL = re.compile(r"[A-Z][a-z]+(?:-[a-z]+)*")


def without_sentence_capital(name: str) -> str:
    """A name written with the capital a sentence gave it ("Value iteration", "Online imitation learning",
    "Single-cell RNA sequencing", "Gradual domain adaptation") in lower case: two words or more, the first a
    common lower-case word or an adjective by its ending but "-ic", which names peoples and languages too ("Arabic
    text classification" keeps its capital) (whole or before its hyphen) with only its first letter
    capitalised, no later word title-cased ("Knowledge Transfer" stays); "Gaussian processes" and "Thompson
    sampling" keep the capitals of their names."""
    words = name.split(" ")
    first = words[0]
    low = first.split("-")[0].lower()
    if len(words) < 2 or not _SENTENCE_CAPITAL.fullmatch(first) \
            or low not in lexicon.common_words() and (low.endswith("ic") or not lexicon.adjective(low)) \
            or any(w[:1].isupper() and any(c.islower() for c in w) for w in words[1:]):
        return name
    return first[0].lower() + name[1:]


_SPELLING_WORD = re.compile(r"(?<!\w)([A-Za-z])([a-z]*[A-Z][A-Za-z]*[a-z][A-Za-z]*|[a-z]+[A-Z])(?!\w)")


def without_spelling_capitals(name: str) -> str:
    """A name whose ordinary words show an abbreviation's letters in capitals ("local impliCit functiOns",
    "itErative Active SEt", "Trigonometry-Aware Neural networKs") with those words as a sentence writes them
    ("local implicit functions", "iterative Active Set"): only words common in lower case, so names keep their
    capitals ("iFormer", "GANs", "eBay"), and so does a name of one word ("LoCaL", a paper's own)."""
    def plain(m: re.Match) -> str:
        word = m.group()
        return m.group(1) + m.group(2).lower() if word.lower() in lexicon.common_words() else word
    return _SPELLING_WORD.sub(plain, name) if " " in name and any(c.isupper() for c in name[1:]) else name


_TITLE_WORD = re.compile(r"[A-Z][a-z]+(?:-[A-Za-z][a-z]*)*")  # "Transport", "Out-Of-Distribution", "Cross-entropy"
_FUNCTION_WORDS = lexicon.words("function_words") | lexicon.words("prepositions")
_SPELLING_CAPITALS = re.compile(r"[A-Z]{2,}[a-z]|[a-z][A-Z]")  # "SHAdow", "CoordInated"


def without_title_case(name: str) -> str:
    """A name that mixes a title's capitals with a sentence's lower case ("cross-silo Federated Learning",
    "hierarchical Optimal Transport", "Reinforcement Learning formulation") in lower case: only when a word of
    content is in lower case and every title-cased word is common in lower case, so names keep their capitals
    ("Markov Chain Monte Carlo sampling", "localized Gaussian Processes", "Mixture of Experts"), and not where
    title-cased words write a name the vocabulary spells in capitals ("Mean Teacher model", "vision Transformer")."""
    words = name.split(" ")
    if len(words) < 2 or not any(w.islower() and w not in _FUNCTION_WORDS for w in words) \
            or any(_SPELLING_CAPITALS.search(w) for w in words):
        return name  # (capitals inside a word spell a paper's short form: "SHAdow Knowledge transfer")
    common = lexicon.common_words()
    titled = [i for i, w in enumerate(words) if _TITLE_WORD.fullmatch(w)]
    if not titled or not all(part.lower() in common for i in titled for part in words[i].split("-")):
        return name
    capitalised = _capitalised_names()
    for i in titled:
        run = i
        while run + 1 < len(words) and run + 1 in titled:
            run += 1
            if " ".join(words[i:run + 1]).lower() in capitalised:
                return name
        if words[i].lower() in capitalised:
            return name
    return " ".join(w.lower() if i in titled else w for i, w in enumerate(words))


@functools.cache
def _vocabulary_rows() -> tuple[dict, ...]:
    """The vocabulary's entries, every label's, read once."""
    rows = []
    for name in lexicon.CONCEPT_FILES:
        with (lexicon.GAZETTEER / name).open(encoding="utf-8") as f:
            rows += map(json.loads, f)
    return tuple(rows)


@functools.cache
def _capitalised_names() -> frozenset[str]:
    """The vocabulary's names written with a capital ("Transformer", "Mean Teacher"), in lower case."""
    return frozenset(row["name"].lower() for row in _vocabulary_rows() if row["name"] != row["name"].lower())


@functools.cache
def _vocabulary_long_forms() -> dict[Key, dict[str, str]]:
    """(label, key of a short form) -> the keys of the spelled-out names of the vocabulary's entry that has it as its
    name or an alias (each with the key without head words), as :meth:`Resolver.add` keeps a paper's definitions:
    ("METHOD", "irm") -> invariant risk minimization."""
    out: dict[Key, dict[str, str]] = defaultdict(dict)
    for row in _vocabulary_rows():
        forms = [row["name"], *row.get("aliases", ())]
        longs = {concept_key(f): concept_key(_without_heads(f)) for f in forms if _spelled_out(f)}
        for form in forms:
            if longs and short_form(form):
                out[(row["label"], concept_key(form))].update(longs)
    return dict(out)


def _follow(index: dict[Key, Key], winner: dict[Key, Key]) -> bool:
    """Each name of ``index`` to the concept its root joined (``winner``: a root -> the root it joins, in chains);
    whether any joined."""
    for own, root in index.items():
        while root in winner:
            root = winner[root]
        index[own] = root
    return bool(winner)


def _same_long_form(theirs: dict[str, str], longs: dict[str, str]) -> bool:
    """Whether one of ``longs`` (long-form keys -> their cores) spells one of ``theirs`` (:func:`_spellings`)."""
    return bool(theirs and longs) and any(set(g) & set(theirs) and set(g) & set(longs)
                                          for g in _spellings({**theirs, **longs}))


def short_form(name: str) -> bool:
    """Whether a canonical name looks like an abbreviation ("LST", "GraphDE", "Lv.k GP" is not)."""
    return " " not in name and len(name) <= 12 and any(c.isupper() for c in name)


_WORD = re.compile(r"[A-Za-z][a-z]{2,}")


def _spelled_out(form: str) -> bool:
    """Whether a surface form is written out in words, as a long form is: words apart ("Ladder Side-Tuning") or
    joined by hyphens ("Meta-Auto-Decoder"), not a short form with a word attached ("SPS-Conv"), and no bracket."""
    if "(" in form:
        return False
    return " " in form.strip() or len([p for p in form.split("-") if _WORD.fullmatch(p)]) >= 2


def defined_short_forms(ex: Extraction) -> dict[str, tuple[str, str]]:
    """The short forms ``ex`` defines for names the vocabulary does not know -> the key of their long form in this
    paper: a canonical name that looks like an abbreviation, with an alias spelled out in words (:func:`_spelled_out`)
    that starts with its first letter and has no word that is the short form ("LST" -> "laddersidetuning", "MAD" ->
    "momentumadversarialdistillation", "MRN" -> "metarewardnet"; not "CLIP" -> "CLIP model"), with the key of the
    long form without its head words, which compares spellings across papers."""
    known = {m.canonical for m in ex.mentions if m.extractor in ("gazetteer", "model_extension")}  # (a known core)
    out = {}
    for canonical, forms in ex.aliases.items():
        if canonical in known or not short_form(canonical):
            continue
        short = concept_key(canonical)
        longs = [f for f in forms if _spelled_out(f) and short not in map(concept_key, re.split(r"[\s-]+", f))
                 and concept_key(f)[:1] == short[:1]]
        if longs:
            long = max(longs, key=len)
            out[short] = (concept_key(long), concept_key(_without_heads(long)))
    # A short form the paper proposes without spelling it out ("SnAKe", "Stars" of a title) is this paper's own
    # name: it is defined here, as if by a long form no other paper writes, so that another paper's definition of
    # the same letters ("Self-Taught Reasoner (STaR)") makes the short form ambiguous instead of joining the two.
    for m in ex.mentions:
        short = concept_key(m.canonical)
        if m.proposed and short not in out and m.canonical not in known and short_form(m.canonical):
            own = _OWN_NAME + ex.paper_id
            out[short] = (own, own)
    return out


_OWN_NAME = "\x01"  # starts the long-form key of a paper's own undefined short form (then the paper's id)


def _without_heads(name: str) -> str:
    """A long form without the head words that only say what kind of thing it is ("stochastic gradient descent
    algorithm" -> "stochastic gradient descent"), so its spellings across papers agree."""
    words = name.split()
    while len(words) > 2 and words[-1].lower() in _HEADS:
        words.pop()
    return " ".join(words)


def _spellings(longs: dict[str, str]) -> list[list[str]]:
    """Long-form keys grouped by spelling, comparing them without head words (``longs``: key -> that key): keys
    this alike ("...representationsfromtransformers", "...representationfromtransformers") are one long form
    written two ways, and so are "stochastic gradient descent algorithm" and "stochastic gradient descent
    training"."""
    groups: list[list[str]] = []
    for k in sorted(longs):
        core = longs[k]
        if k.startswith(_OWN_NAME):
            groups.append([k])  # a paper's own name is no spelling of another's
            continue
        for g in groups:
            if not g[0].startswith(_OWN_NAME) and difflib.SequenceMatcher(None, longs[g[0]], core).ratio() >= 0.85:
                g.append(k)
                break
        else:
            groups.append([k])
    return groups


_WORDS = re.compile(r"[a-z0-9]+")


def _word_variants(keys: set[str], names: dict[str, str]) -> list[list[str]]:
    """``keys`` (of names in ``names``) grouped by the words their names write: the same words but for a plural
    ("Markov Decisions Processes") and the last word's ending ("estimator" and "estimation", "program" and
    "programming", "Equilibria" and "Equilibrium": a stem of five letters or more, most of the shorter word). Not
    "semi-" against "self-supervised learning", nor "offline reinforcement learning" against "reinforcement
    learning": other words."""
    groups: list[tuple[list[str], list[str]]] = []  # (the first name's words, its group's keys)
    for k in sorted(keys):
        words = _WORDS.findall(names.get(k, k).lower())
        for first, group in groups:
            if _same_words(first, words):
                group.append(k)
                break
        else:
            groups.append((words, [k]))
    return [group for _, group in groups]


def _same_words(a: list[str], b: list[str]) -> bool:
    """Whether two names' words are one name's (:func:`_word_variants`)."""
    if len(a) != len(b) or not a:
        return False
    for x, y in zip(a[:-1], b[:-1]):
        if x != y and x.removesuffix("s") != y.removesuffix("s"):
            return False
    x, y = a[-1], b[-1]
    stem = len(os.path.commonprefix((x, y)))
    return x == y or stem >= 5 and stem >= 0.7 * min(len(x), len(y))


def mention_key(label: str, canonical: str, defined: dict[str, tuple[str, str]]) -> Key:
    """The key a paper's mention is resolved by: its name's, or, for a short form the paper defines
    (:func:`defined_short_forms`), the short form's with the long form's (``lst\0laddersidetuning``), which
    :meth:`Resolver.finish` joins to the short form's unless the corpus defines it two ways."""
    key = concept_key(canonical)
    return label, f"{key}{_WITH}{defined[key][0]}" if key in defined else key


_WITH = "\0"  # joins a short form's key and its long form's in a mention key


@dataclass
class Concept:
    """A resolved concept: its label, display name, every surface form seen, and how many papers mention it."""

    label: str
    key: str
    name: str
    aliases: list[str] = field(default_factory=list)
    benchmark: bool = False
    papers: int = 0


class _UnionFind:
    def __init__(self) -> None:
        self.parent: dict[Key, Key] = {}

    def find(self, x: Key) -> Key:
        self.parent.setdefault(x, x)
        while self.parent[x] != x:
            self.parent[x] = self.parent[self.parent[x]]
            x = self.parent[x]
        return x

    def union(self, a: Key, b: Key) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[max(ra, rb)] = min(ra, rb)


@dataclass
class Resolution:
    """Concepts by id, and the map from (label, canonical name as extracted) to concept key."""

    concepts: dict[Key, Concept]
    index: dict[Key, Key]
    papers: int = 0  # papers resolved (mentioning anything or not)
    hierarchy: object | None = None  # the links among the concepts, once kg.build.hierarchy has computed them

    def concept_for(self, label: str, name: str, defined: dict[str, tuple[str, str]] | None = None) -> Concept:
        """The concept a mention of ``name`` resolves to, in a paper defining the short forms ``defined``."""
        return self.concepts[self.index[mention_key(label, name, defined or {})]]


@dataclass
class _Names:
    """What one (label, concept key) was called, over all papers."""

    names: Counter = field(default_factory=Counter)
    forms: dict[str, None] = field(default_factory=dict)
    benchmark: bool = False
    known: bool = False  # a vocabulary (gazetteer) entry of this label names it
    shaped: bool = True  # every mention a guess from the word's shape alone (extractor "name"): no say on the label


class Resolver:
    """Resolution fed one extraction at a time (``add``), so a build can resolve while it extracts."""

    def __init__(self) -> None:
        # Which long forms each short form stands for, per label, over the whole corpus; and the pairs defined.
        self.expansions: dict[Key, set[str]] = defaultdict(set)
        self.expanded_names: dict[str, str] = {}  # an expansion's key -> its name as first written
        self.pairs: dict[tuple[str, str, str], None] = {}
        self.seen: dict[Key, _Names] = {}
        self.numbers: dict[Key, int] = {}
        self.per_paper: list[array] = []
        self._known: dict[Key, bool] = {}  # roots a vocabulary entry of their label names
        self._shaped: dict[Key, bool] = {}  # roots only word shapes read under their label
        # a defined short form -> its long forms' keys -> those keys without head words
        self.long_forms: dict[Key, dict[str, str]] = defaultdict(dict)
        self.written: dict[Key, set[str]] = defaultdict(set)  # a defined short form -> how the papers write it

    def add(self, ex: Extraction) -> None:
        labels = {m.canonical: m.label for m in ex.mentions}
        for canonical, forms in ex.aliases.items():
            label = labels.get(canonical)
            if label:
                for f in forms:
                    if concept_key(f) == concept_key(canonical) and not short_form(f):
                        continue  # (a spelling of a long name is no expansion of it; a short form used alone
                        # stays one: "PC" named by one paper and spelled out by another may be two things)
                    self.expansions[(label, concept_key(f))].add(concept_key(canonical))
                    self.expanded_names.setdefault(concept_key(canonical), canonical)
                    self.pairs.setdefault((label, concept_key(canonical), concept_key(f)), None)
        defined = defined_short_forms(ex)
        for short, (long, core) in defined.items():
            for label, written in {(m.label, m.canonical) for m in ex.mentions if concept_key(m.canonical) == short}:
                self.long_forms[(label, short)][long] = core
                self.written[(label, short)].add(written)
        # each defined short form's long form as the paper writes it: a form of its concept, which may be named by it
        spelled = {concept_key(c): f for c, forms in ex.aliases.items() if concept_key(c) in defined for f in forms
                   if concept_key(f) == defined[concept_key(c)][0]}
        mine = array("I")
        seen, numbers = self.seen, self.numbers
        for m in ex.mentions:
            own = mention_key(m.label, m.canonical, defined)
            entry = seen.get(own)
            if entry is None:
                entry = seen[own] = _Names()
                numbers[own] = len(numbers)
            # Gazetteer and proposed names are deliberate spellings; prefer them for display.
            entry.names[m.canonical] += 3 if m.extractor in {"gazetteer", "proposed"} else 1
            entry.forms.setdefault(m.canonical, None)
            if any(c.isalpha() for c in m.text):  # ("100" of "CIFAR-10/100" is no name of CIFAR-100)
                entry.forms.setdefault(m.text, None)
            if (long := spelled.get(concept_key(m.canonical))) is not None:
                entry.forms.setdefault(long, None)
            entry.benchmark |= m.benchmark
            entry.known |= m.extractor == "gazetteer"
            entry.shaped &= m.extractor == "name"
            mine.append(numbers[own])
        self.per_paper.append(mine)

    def finish(self) -> Resolution:
        """Merge the names that abbreviation pairs join, give each name one label, and count each concept's
        papers."""
        uf = _UnionFind()
        ambiguous: set[str] = set()  # short forms the corpus defines with two different long forms
        apart = self._apart()
        vocabulary = _vocabulary_long_forms()
        for (label, short), longs in self.long_forms.items():
            groups = _spellings(longs)
            if len(groups) > 1:
                ambiguous.add(short)
            theirs = vocabulary.get((label, short), {})
            for group in groups:  # spellings of one long form ("...Representations..." and "...Representation...")
                joined = [(label, f"{short}{_WITH}{long}") for long in group]
                # one definition in the corpus, or the vocabulary's ("Physics-Informed Neural Network (PINN)" where
                # another paper defines "polynomial integer neural networks (PINNs)"): the short form's concept
                one = len(groups) == 1 and (label, short) not in apart \
                    or _same_long_form(theirs, {long: longs[long] for long in group})
                joined += [(label, short)] if one else [(label, long) for long in group]
                for own in joined[1:]:  # (a key no mention has only links the others through it)
                    uf.union(joined[0], own)
        # the long forms papers give one short form, by the words they write: "generalized advantage estimator (GAE)"
        # and "generalized advantage estimation (GAE)" are one long form written two ways, and one concept
        variants = {key: _word_variants(expanded, self.expanded_names) for key, expanded in self.expansions.items()}
        for (label, _), groups in variants.items():
            for group in groups:
                for other in group[1:]:
                    if (label, group[0]) not in apart and (label, other) not in apart:
                        uf.union((label, group[0]), (label, other))
        for label, canonical, form in self.pairs:
            defined = self.long_forms.get((label, form))  # (a short form a paper defines as something else)
            if canonical not in ambiguous and (label, canonical) not in apart \
                    and len(variants[(label, form)]) == 1 and (not defined or canonical in defined):
                uf.union((label, canonical), (label, form))
            elif canonical in vocabulary.get((label, form), ()) and (label, canonical) not in apart:
                # the vocabulary's long form of the short form, which other papers define otherwise
                # ("Physics-Informed Neural Network (PINN)" where one paper has "polynomial integer neural networks")
                uf.union((label, canonical), (label, form))
        index = {own: uf.find(own) for own in self.seen}
        concepts = self._concepts(index, ambiguous, apart)
        if self._vote(index, concepts):
            concepts = self._concepts(index, ambiguous, apart)
        if self._join_spelled_out(index, concepts):
            concepts = self._concepts(index, ambiguous, apart)
        if _join_same_names(index, concepts):
            concepts = self._concepts(index, ambiguous, apart)
        if self._join_kind_heads(index, concepts):
            concepts = self._concepts(index, ambiguous, apart)
        _keys_apart_by_case(concepts)
        return Resolution(concepts, index, len(self.per_paper))

    def _apart(self) -> set[Key]:
        """Short forms papers define that are another thing than the vocabulary's name of the same letters in
        other case: "Adaptation-Aware kernel Modulation (AdAM)" is not the optimizer Adam, which other papers
        name. (A paper writing the letters as the vocabulary does, "Low-Rank Adaptation (LoRA)", names its
        entry.)"""
        out = set()
        for key, written in self.written.items():
            entry = self.seen.get(key)
            if entry is not None and entry.known and written.isdisjoint(entry.forms):
                out.add(key)
        # Nor is a paper's definition of a vocabulary short form by another long form the vocabulary's thing:
        # "information rectification module (IRM)" is not Invariant Risk Minimization, which other papers name.
        vocabulary = _vocabulary_long_forms()
        for key, longs in self.long_forms.items():
            if key in self.seen and vocabulary.get(key) and not _same_long_form(vocabulary[key], longs):
                out.add(key)
        return out

    def _concepts(self, index: dict[Key, Key], ambiguous: set[str] = frozenset(),
                  apart: set[Key] = frozenset()) -> dict[Key, Concept]:
        """A concept per root of ``index``: its display name (the long form for a short form of several,
        ``ambiguous``, and for one kept ``apart`` from the vocabulary's name of its letters), every form, and its
        papers."""
        merged: dict[Key, _Names] = {}
        for own, entry in self.seen.items():  # first-seen order, as the names were met
            into = merged.setdefault(index[own], _Names())
            into.names.update(entry.names)
            for f in entry.forms:
                into.forms.setdefault(f, None)
            into.benchmark |= entry.benchmark
            into.known |= entry.known
            into.shaped &= entry.shaped
        roots = list(index.values())
        root_number = {root: i for i, root in enumerate(merged)}
        of_number = [root_number[roots[n]] for n in range(len(roots))]
        counts = [0] * len(merged)
        for mine in self.per_paper:
            for r in {of_number[n] for n in mine}:
                counts[r] += 1
        concepts = {}
        for (root, entry), n in zip(merged.items(), counts):
            ranked = sorted(entry.names.items(), key=lambda kv: (-kv[1], len(kv[0]), kv[0]))
            name = ranked[0][0]
            if concept_key(name) in ambiguous or root[1] != concept_key(name) and (root[0], concept_key(name)) in apart:
                # "LST" of two long forms, "AdAM" of Adaptation-Aware kernel Modulation: named by its own
                name = max((f for f in entry.forms if _spelled_out(f)), key=lambda f: (len(f), f != f.lower()), default=name)
            if root[0] != "DATASET" and not entry.known:  # (the vocabulary's names are as it spells them)
                name = without_title_case(without_sentence_capital(without_spelling_capitals(name)))
            aliases = sorted(f for f in entry.forms if f.lower() != name.lower())
            concepts[root] = Concept(root[0], concept_key(name), name, aliases, entry.benchmark, n)
            self._known[root] = entry.known
            self._shaped[root] = entry.shaped
        return concepts

    def _join_spelled_out(self, index: dict[Key, Key], concepts: dict[Key, Concept]) -> bool:
        """A name ending in a short form is the concept that spells it out: "multi-agent RL" and "multi-agent
        reinforcement learning", "inverse RL" and "inverse reinforcement learning" (RL is reinforcement learning's
        short form in the corpus). The concept the vocabulary knows, else the one of the most papers, keeps both.
        Whether any joined."""
        spelled = _spelled_out_names(concepts)
        by_key: dict[str, list[Key]] = defaultdict(list)
        for root, c in concepts.items():
            by_key[c.key].append(root)
        winner = {}
        for root, c in concepts.items():
            key = _expanded_key(c.name, spelled)
            others = [r for r in by_key.get(key, ()) if r != root] if key else []
            if others:
                group = [root, *others]
                best = max(group, key=lambda r: (self._known.get(r, False), concepts[r].papers, r[0]))
                winner.update({r: best for r in group if r != best})
        return _follow(index, winner)

    def _join_kind_heads(self, index: dict[Key, Key], concepts: dict[Key, Concept]) -> bool:
        """A method or task named with head words that only say what kind of thing it is is the concept named
        without them: "expectation-maximization algorithm" and "expectation-maximization", "CTC loss" and "CTC",
        "finite element method" and "finite element". The concept the vocabulary knows, else the one of the most
        papers, else the shorter name keeps both. Whether any joined."""
        by_key: dict[Key, Key] = {(c.label, c.key): root for root, c in concepts.items()}
        winner: dict[Key, Key] = {}
        for root, c in concepts.items():
            if c.label not in ("METHOD", "TASK"):
                continue
            words = c.name.split()
            while len(words) > 1 and words[-1].lower() in _KIND_HEADS:
                words.pop()
            other = by_key.get((c.label, concept_key(" ".join(words)))) if len(words) < len(c.name.split()) else None
            if other is not None and _written(concepts[other].name) != _written(" ".join(words)):
                other = None  # the same letters, another name: "LoCaL" (a paper's own) is not the "local" of
                # "local training"
            if other is not None and other != root and other not in winner:
                best = max((root, other), key=lambda r: (self._known.get(r, False), concepts[r].papers,
                                                         -len(concepts[r].name)))
                winner[root if best == other else other] = best
        return _follow(index, winner)

    def _vote(self, index: dict[Key, Key], concepts: dict[Key, Concept]) -> bool:
        """One label per concept name: concepts of several labels that share a name key, or whose spelled-out forms
        meet ("MDP" with the form "Markov decision process" as a method, "Markov decision processes" as a task),
        go to the reading the vocabulary gives (if one does), then to one that more than a word's shape gives (a
        model-shaped name is a method by default: "Sr3D" listed with datasets), then to the one with the most
        papers (then the label, for a fixed order). Short forms alone never join two labels ("MAE" the metric and
        the method), nor does a dataset's spelled-out form: a benchmark named after its task ("Science Question
        Answering (ScienceQA), a new benchmark") is not the task.
        Whether any moved."""
        by_key: dict[str, list[Key]] = defaultdict(list)
        for root, c in concepts.items():
            spelled = () if root[0] == "DATASET" else (a for a in c.aliases if " " in a.strip())
            keys = {c.key} | {concept_key(a) for a in spelled}
            for k in keys:
                by_key[k].append(root)
        uf = _UnionFind()
        for roots in by_key.values():
            for r in roots[1:]:
                uf.union(roots[0], r)
        groups: dict[Key, list[Key]] = defaultdict(list)
        for root in concepts:
            groups[uf.find(root)].append(root)
        winner = {}
        for roots in groups.values():
            if len({r[0] for r in roots}) > 1:  # (one label: the abbreviation rules decided, not the vote)
                best = max(roots, key=lambda r: (self._known.get(r, False), not self._shaped.get(r, False),
                                                 concepts[r].papers, r[0]))
                winner.update({r: best for r in roots if r != best})
        for own, root in index.items():
            if root in winner:
                index[own] = winner[root]
        return bool(winner)


def _written(name: str) -> list[str]:
    """A name's words as they are compared for :meth:`Resolver._join_kind_heads`: split at spaces and dashes, in
    lower case and without a plural "s" ("mixture of expert models" is Mixture of Experts), but a word written in
    mixed case ("LoCaL", "ResNeXt"), which is a name as spelled, and a short form's plural ("PCs", probabilistic
    circuits, is not the "PC" of "PC algorithm")."""
    out = []
    for w in _WORD_BREAK.split(name):
        if w and w[1:].lower() != w[1:] and w.upper() != w:
            out.append(w)
        elif w:
            w = w.lower()
            out.append(w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w)
    return out


_WORD_BREAK = re.compile(r"[\s\-\u2010-\u2015\u2212]+")  # spaces and dashes (hyphens, en and em dashes, minus)


def _spelled_out_names(concepts: dict[Key, Concept]) -> dict[str, str]:
    """Short form key -> the one concept name it spells out in the corpus: a concept's alias that is a short form
    of its name's initials ("RL" of reinforcement learning); short forms of two names are left out."""
    out: dict[str, set[str]] = defaultdict(set)
    for c in concepts.values():
        for a in c.aliases:
            if short_form(a) and " " in c.name and initials(c.name) == a.removesuffix("s").upper():
                out[concept_key(a)].add(c.name)
    return {k: next(iter(v)) for k, v in out.items() if len(v) == 1}


def _expanded_key(name: str, spelled: dict[str, str]) -> str | None:
    """The key of a name whose last word is a short form written out ("multi-agent RL": "multiagentreinforcement
    learning"), or None."""
    words = name.split()
    if len(words) < 2 or not short_form(words[-1]) or concept_key(words[-1]) not in spelled:
        return None
    return concept_key(" ".join([*words[:-1], spelled[concept_key(words[-1])]]))


def _join_same_names(index: dict[Key, Key], concepts: dict[Key, Concept]) -> bool:
    """Concepts of one label whose display names have one key are one concept (a node's id is its label and, but
    for names apart by case, its name's key): "IRM" defined as "invariant risk minimization" in one paper and
    "invariant risk minimization" named in another. But short forms spelled in other case ("SnAKe" and "SNAKE",
    "STaR" and "Stars": two papers' own names) stay apart, one concept per spelling (:func:`_case_form`); a name
    that is no short form ("snake") joins the spelling :func:`_keys_apart_by_case` gives the plain key. The first
    met of a spelling keeps the others' mentions. Whether any joined."""
    groups: dict[tuple[str, str], list[Key]] = {}
    for root, c in concepts.items():
        groups.setdefault((c.label, c.key), []).append(root)
    moved = {}
    for roots in groups.values():
        if len(roots) == 1:
            continue
        spellings = _spellings_of(concepts, roots)
        if len(spellings) <= 1:
            moved.update((r, roots[0]) for r in roots[1:])
            continue
        for rs in spellings.values():
            moved.update((r, rs[0]) for r in rs[1:])
        plain = _plain_spelling(concepts, spellings)
        moved.update((r, plain[0]) for r in roots if not short_form(concepts[r].name))
    for own, root in index.items():
        if root in moved:
            index[own] = moved[root]
    return bool(moved)


def _case_form(name: str) -> str:
    """A short form's letters and digits as written, a plural "s" aside ("SnAKe", "GANs" -> "GAN")."""
    letters = spelling(name)
    return letters[:-1] if letters.endswith("s") else letters


def _spellings_of(concepts: dict[Key, Concept], roots: list[Key]) -> dict[str, list[Key]]:
    """The short forms among ``roots`` by spelling (:func:`_case_form`), in the order met."""
    out: dict[str, list[Key]] = {}
    for r in roots:
        if short_form(concepts[r].name):
            out.setdefault(_case_form(concepts[r].name), []).append(r)
    return out


def _plain_spelling(concepts: dict[Key, Concept], spellings: dict[str, list[Key]]) -> list[Key]:
    """Of the spellings of one key, the one that keeps the plain key: the most papers, then the first name in
    order (the input's order does not decide)."""
    return min(spellings.values(), key=lambda rs: (-sum(concepts[r].papers for r in rs), concepts[rs[0]].name))


def _keys_apart_by_case(concepts: dict[Key, Concept]) -> None:
    """Concepts of one label and key left apart by :func:`_join_same_names` (short forms in other case): the
    spelling with the most papers keeps the key, the others take their names' :func:`cased_key`."""
    groups: dict[tuple[str, str], list[Key]] = {}
    for root, c in concepts.items():
        groups.setdefault((c.label, c.key), []).append(root)
    for roots in groups.values():
        if len(roots) > 1:
            plain = _plain_spelling(concepts, {concepts[r].name: [r] for r in roots})
            for r in roots:
                if r != plain[0]:
                    concepts[r].key = cased_key(concepts[r].name)


def resolve(extractions: Iterable[Extraction]) -> Resolution:
    """Group the mentions of all papers into concepts (one pass over ``extractions``)."""
    resolver = Resolver()
    for ex in extractions:
        resolver.add(ex)
    return resolver.finish()
