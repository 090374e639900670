"""The paper's own proposed method(s).

Patterns, all within one sentence whose subject is the authors ("we", "this paper", "our work"):
- ``we propose/introduce/present/develop/design X`` where X is a name, a defined abbreviation, or a list
  after a colon (``two algorithms: LinearTCA and LinearTCA+``);
- ``... method, called/named/dubbed/termed X``, ``which we call X``, ``denoted it as X``, ``we propose a ...
  attacker, namely X``;
- ``our (proposed) method/framework, X, ...``;
- an appositive after a generic head: ``we propose a novel method, OTP, which ...``.
A name must head its noun phrase: ``a Jacobian-free NTK approximation`` names no new method.
Things introduced as problems or settings (``a novel problem termed SSNA``) are tasks, not methods.
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from difflib import SequenceMatcher

from spacy.attrs import LOWER, ORTH
from spacy.language import Language
from spacy.strings import get_string_id
from spacy.tokens import Doc, Span, Token

from kg.nlp.candidates import (QUOTES, Abbreviation, Candidate, abbreviations, candidates, cites_at, column, ids,
                               is_namelike, positions, positions_of, sentence, sentence_bounds, span_text)
from kg.nlp.components.gazetteer import PHRASE_BREAKS, load_gazetteer
from kg.nlp.components.specificity import SMALL_WORDS, load_specificity, standard_pairs
from kg.nlp.labels import TASK_WORDS, description_label, description_words, label_from_words
from kg.nlp import lexicon
from kg.schema import concept_key

_COLLECTING = lexicon.words("collecting_verbs")  # "we collect Wild6D, a new ... dataset": the name as the object
VERBS = lexicon.words("proposing_verbs") | _COLLECTING
PAST_VERBS = lexicon.words("proposing_verbs_past")  # "we proposed X": a proposal only right after "we"
SUBJECTS = lexicon.words("proposing_subjects")
NAMING = lexicon.words("naming_words")
HEADS = lexicon.words("proposed_heads")
_NAMING_IDS, _HEAD_IDS = ids(NAMING), ids(HEADS)
PROBLEM_HEADS = lexicon.words("problem_heads")
DATASET_HEADS = lexicon.words("dataset_heads")
_MEASURES = lexicon.words("measure_nouns")
ENVIRONMENT_HEADS = lexicon.words("environment_heads")
STOPS = lexicon.words("proposed_stops")
THEORY_HEADS = lexicon.words("theory_heads")
PREPOSITIONS = lexicon.words("prepositions")
_PREPOSITION_IDS = ids(PREPOSITIONS)
_SPLITS = lexicon.words("split_words")
MODIFIER_SUFFIXES = lexicon.ordered("modifier_suffixes")
_SUBJECT_IDS, _STOP_IDS = ids(frozenset(SUBJECTS)), ids(frozenset(STOPS))  # tested against the LOWER column
_PAPER_IDS, _POINTER_IDS = ids(lexicon.words("paper_nouns")), ids(lexicon.words("paper_pointers"))
_OTHERS_WORK_IDS = ids(lexicon.words("others_work"))  # (kg.nlp.components.proposed._others_name)
_KIND_WORDS = lexicon.words("generic_heads") | lexicon.words("method_name_heads")  # what kind of thing a name is
_COMMA, _COLON, _OF = get_string_id(","), get_string_id(":"), get_string_id("of")
_VARIANT_IDS, _ARTICLE_IDS = ids(lexicon.words("variant_words")), ids(lexicon.words("articles"))
_OWN_IDS = ids(lexicon.words("own_words"))
_OURS = lexicon.words("ours")  # "ours", "it": what the paper calls its own method
_LIST_OPENERS = frozenset({_COLON, get_string_id("\u2014"), get_string_id("--")})  # ":", an em dash, "--"
_LIST_ITEM_ENDS = lexicon.words("list_item_ends")
_JOINERS = lexicon.words("plain_name_stops")
_SHORT_NAME = re.compile(r"[A-Z][A-Z0-9-]{1,7}")  # MCC, LAR, FCOS-3D
_COINED = re.compile(r"(?<=.)[A-Z0-9]")  # a capital or a digit inside a word: "ModaMixer", "iSIDG", not "Newton"
# endings of the nouns for what does a task ("Planner", "Detector", "Transformer"): a name ending in one names a method
_AGENT_ENDINGS = tuple(pair.split(":")[0] for pair in lexicon.ordered("agent_suffixes"))
OWN = lexicon.words("own_words")
_TRIGGERS = frozenset(VERBS | PAST_VERBS | NAMING | OWN)
_NOVEL = frozenset({"novel", "new"})
_NOVEL_IDS = ids(_NOVEL)
# "such as", "including", "namely", "compared with", "than": what follows is others' or a list
_COMPARED = lexicon.words("compared_method_cues") | {"compare", "compared"}
_NOT_OWN_LIST = lexicon.words("example_cues") | _COMPARED
_OTHERS_OR_COMPARED = lexicon.words("others_work") | _COMPARED  # "unlike other existing ...", "we compare with"
_OUR_NEW = frozenset({"proposed", "novel", "new"})  # "our proposed X": the authors' own name
_PROPOSED = frozenset({"proposed"})  # "the proposed X" too
_OUR_NEW_OWN = _OUR_NEW | OWN  # "our", "novel", "new", "proposed": the authors' own thing
# dashes around a name in apposition (the cleaner writes "---" as an em dash)
_DASHES = frozenset({"\u2014", "\u2013", "--", "---"})
_DASH_STOPS = lexicon.words("function_words") | lexicon.words("list_openers") | lexicon.words("example_cues") \
    | lexicon.words("clause_words") | PREPOSITIONS
_PROPOSED_IDS, _THE = ids(_PROPOSED), get_string_id("the")
_OUR, _OPEN, _CLOSE = get_string_id("our"), get_string_id("("), get_string_id(")")
_IS_ARE_IDS = ids(frozenset({"is", "are"}))
_CONTRIBUTION = frozenset({"contribution", "contributions"})  # "our main contribution is X": a proposal
_PAIR_VERBS = lexicon.words("pair_verbs")  # propose only new pairs
_FUNCTION = lexicon.words("function_words") | PREPOSITIONS  # whose first letters make a short form's lower case
_MIXED_SHORT = re.compile(r"[A-Z]+[a-z][A-Za-z]*[A-Z][A-Za-z]*")  # a short form in mixed case: "CdVAE", "GeoDiff"
# names of results ("a concentration inequality which we term R2WDC"); a bound may be a method ("an optimistic upper
# confidence bound, which we call KL-UCB++")
_RESULTS = THEORY_HEADS - {"bound", "bounds"}
_RELATIVE = frozenset({"which", "that", "we", ","})  # between a named phrase's head and its naming word
_LISTING = lexicon.words("restating_words")  # names what was said before, not always a new thing
_NAME_LEADS = tuple(tuple(lead.split()) for lead in lexicon.ordered("name_leads"))
_MAX_LEAD = max(map(len, _NAME_LEADS))  # words of the longest lead
_COUNTS = lexicon.words("count_words")
_IN_USE = lexicon.words("usage_adverbs")
_APPOSITION = frozenset({",", ":", "–", "—"})  # what follows a name and describes it
_ARTICLES = lexicon.words("articles")
_PHRASE_GOES_ON = frozenset(HEADS | STOPS | PREPOSITIONS | lexicon.words("function_words") | _JOINERS)
_OPENERS = _ARTICLES | _NOVEL
_OPENER_IDS = ids(_OPENERS)


def _label_for_head(doc: Doc, end: int) -> str:
    """Label of a name from the generic head noun that follows it ("X benchmark", "X test set") or that heads the
    description after it ("FooBench, a new benchmark for ...", "The Neural Testbed: an open source benchmark")."""
    nxt = doc[end].lower_ if end < len(doc) else ""
    if nxt in DATASET_HEADS or _split_head(doc, end) or nxt in _APPOSITION and _describes_data(doc, end + 1):
        return "DATASET"
    after = end + (nxt == ")")  # (a pair's closing bracket)
    if after < len(doc) and doc[after].text in _APPOSITION and _describes_measure(doc, after + 1):
        return "METRIC"  # "we propose second-split forgetting time (SSFT), a complementary metric that ..."
    return "METHOD"


def _called_new(doc: Doc, end: int) -> str | None:
    """The label of a name (ending before token ``end``, or its closing bracket) that a proposal verb introduces with
    a description of what it is, when that introduces the authors' own thing: one that calls it new (", a new
    benchmark", ", a novel framework", ", the first ..."), or one that runs to the sentence's end ("we introduce
    DrawBench, a comprehensive and challenging benchmark for text-to-image models."); not an aside about a known
    thing the sentence goes on to use ("we present ImageNet, a large-scale image dataset, as the testbed"). The
    label is the description's last head word's before a preposition ("a scalable RGBD dataset construction
    pipeline" is a method). Else None."""
    if end < len(doc) and doc[end].text == ")":
        end += 1
    if end + 2 >= len(doc) or doc[end].text != ",":
        return None
    article, sent_end = doc[end + 1].lower_, sentence_bounds(doc, end)[1]
    if article == "the":
        return "METHOD" if doc[end + 2].lower_ == "first" else None
    if article not in ("a", "an"):
        return None
    words = description_words([t.text for t in doc[end + 2:min(end + 8, sent_end)]])
    label = description_label(words)
    if label is None:
        return None
    aside = any(t.text == "," for t in doc[end + 2:sent_end])  # the description closes and the sentence goes on
    return label if not aside or _NOVEL.intersection(words) else None


def _opens_object(doc: Doc, start: int, at: int) -> bool:
    """Whether the name at token ``at`` is the object of the proposal verb whose object starts at ``start`` (only
    articles between), not a word inside it ("we propose the use of ImageNet, ...")."""
    return all(doc[k].lower_ in _ARTICLES for k in range(start, at))


def _description_at(doc: Doc, i: int) -> list[str] | None:
    """The words of the description an article at token ``i`` opens (:func:`kg.nlp.labels.description_words`, within
    six words of it and its sentence), or None where no article stands there."""
    if i >= len(doc) or doc[i].lower_ not in _ARTICLES:
        return None
    return description_words([t.text for t in doc[i + 1:min(i + 7, sentence_bounds(doc, i)[1])]])


def _describes_data(doc: Doc, i: int) -> bool:
    """Whether an article at token ``i`` opens a description whose last head, within six words and before any
    preposition or punctuation, is a dataset's or an environment's ("a new benchmark", "an e-commerce website
    environment"; not "a method for learning from datasets", "a dataset construction pipeline")."""
    words = _description_at(doc, i)
    return words is not None and description_label(words) == "DATASET"


def _describes_measure(doc: Doc, i: int) -> bool:
    """Whether an article at token ``i`` opens a description whose first head word is a measure's noun ending its
    noun phrase ("a complementary metric that tracks ...", "a new measure."; not "a metric learning approach")."""
    words = _description_at(doc, i)
    if not words:
        return False
    k = next((k for k, w in enumerate(words) if w in _MEASURES or w in HEADS or w in DATASET_HEADS), None)
    return k is not None and words[k] in _MEASURES and (k + 1 == len(words) or words[k + 1] in _RELATIVE)


def _named_end(doc: Doc, sent: Span, naming: int) -> int:
    """Where the phrase that ``called``/``named`` names ends: before the naming word and its comma, and before a
    prepositional phrase that closes it ("an LP-style algorithm for this problem, called UCB-LP" names the
    algorithm, not the problem)."""
    k = naming - 1
    while k > sent.start and doc[k].is_punct:
        k -= 1
    for p in range(k, max(sent.start, k - 3) - 1, -1):
        if doc[p].lower_ in PREPOSITIONS:
            return p
    return k + 1


def _split_head(doc: Doc, end: int) -> bool:
    """Whether a data split follows token ``end``: "test set", "evaluation suite", "training sets"."""
    return end + 1 < len(doc) and doc[end].lower_ in _SPLITS and doc[end + 1].lower_ in ("set", "sets", "suite")


def _is_authors_sentence(sent: Span, verb_i: int) -> bool:
    """Whether the authors are the subject before the verb at ``verb_i``: "we", or a noun for a paper that a word
    points at as theirs ("this paper", "our work", "this short paper"; "prior work has proposed" is others')."""
    lower = column(sent.doc, LOWER)
    for k in range(sent.start, min(verb_i, sent.end)):  # (a loop: a generator costs more than the few words)
        if lower[k] in _SUBJECT_IDS or lower[k] in _PAPER_IDS and _pointed_at(sent.doc, lower, k, sent.start):
            return True
    return False


_POINTER_GAP = 2  # words between a pointer and its paper noun: "this short paper", "our present empirical study"


def _pointed_at(doc: Doc, lower: Sequence[int], k: int, start: int) -> bool:
    """Whether a word of ``paper_pointers`` points at the paper noun at token ``k`` as the authors' own: right before
    it, or before up to two words in lower case ("this short paper")."""
    for j in range(k - 1, max(start, k - 1 - _POINTER_GAP) - 1, -1):
        if lower[j] in _POINTER_IDS:
            return True
        if not doc[j].is_lower:
            return False
    return False


def _others_paper(lower: Sequence[int], k: int, start: int) -> bool:
    """Whether the paper noun at token ``k`` is others' paper: an article or a word of others' work right before it,
    or an article two words before ("a recent study", "prior work"; not the verbs "to study", "make it work")."""
    return k > start and (lower[k - 1] in _ARTICLE_IDS or lower[k - 1] in _OTHERS_WORK_IDS
                          or k - 1 > start and lower[k - 2] in _ARTICLE_IDS)


def _new_thing_named(doc: Doc, sent: Span, naming: int) -> bool:
    """Whether the naming word at ``naming`` names a new thing the authors propose: a proposal verb of theirs before
    it, then "new" or "novel" and no preposition ("We propose a new detector, called DETR")."""
    verbs = [t.i for t in doc[sent.start:naming] if _proposing(t)]
    if not verbs or not _is_authors_sentence(sent, verbs[0]):
        return False
    novel = [t.i for t in doc[verbs[0] + 1:naming] if t.lower_ in _NOVEL]
    # the naming word names the new thing itself, not what a preposition adds: "a novel analysis of the popular
    # optimizer called Adam", "a new attack on a popular defense, called Adversarial Training"; but "namely" names
    # the new thing after all its words ("a new learning paradigm for self-supervised graph representation learning,
    # namely, Group Discrimination (GD)")
    return bool(novel) and (doc[naming].lower_ in _LISTING
                            or not any(t.lower_ in PREPOSITIONS for t in doc[novel[-1] + 1:naming]))


def _others_name(sent: Span, naming: int) -> bool:
    """Whether the name after the naming word at ``naming`` is others': the authors are not the sentence's subject,
    no "our" or "the proposed" marks their own thing, and a word of others' work, or a paper no word points at as
    theirs, comes before it ("many UDA works attempt to ..., dubbed domain bridging (DB)", "prior work has proposed
    ..., dubbed GCSL"; not "an empirical study confirms that the proposed training strategy, termed as DynamicD")."""
    lower = column(sent.doc, LOWER)
    if _is_authors_sentence(sent, naming):
        return False
    for k in range(sent.start, naming):
        if lower[k] in _OWN_IDS or lower[k] in _PROPOSED_IDS and k > sent.start and lower[k - 1] == _THE:
            return False
    return any(lower[k] in _OTHERS_WORK_IDS or lower[k] in _PAPER_IDS and _others_paper(lower, k, sent.start)
               for k in range(sent.start, naming))


def _proposing(tok: Token) -> bool:
    """Whether ``tok`` is a proposal verb: "propose", "introduces" ..., or a past form right after "we" ("we
    proposed Redundancy-Free Graph Neural Network (RFGNN)"; "the proposed method" is no verb)."""
    low = tok.lower_
    return low in VERBS or low in PAST_VERBS and tok.i > 0 and tok.doc[tok.i - 1].lower_ == "we"


def _defined_before(doc: Doc, run: tuple[int, int], before: int) -> bool:
    """Whether the name at token range ``run`` is the short form of an abbreviation defined before token
    ``before`` (an earlier sentence's "active learning (AL)")."""
    name = span_text(doc, *run).lower().rstrip("s")
    return any(a.short_start < before and a.short_text(doc).lower().rstrip("s") == name for a in abbreviations(doc))


def _name_at(doc: Doc, i: int, limit: int) -> tuple[int, int] | None:
    """The name-like tokens (plus '+'-suffixed ones, and '&' between two: "Branch & Learn") starting at token i,
    known or not."""
    end = i
    while end < limit and end - i < 6 and (is_namelike(doc[end]) or (end > i and doc[end].text in {"-", "+"})
                                           or end > i and doc[end].text == "&" and end + 1 < limit
                                           and _plain_capitalised(doc[end - 1]) and _plain_capitalised(doc[end + 1])):
        end += 1
    if end == i + 1 and len(doc[i]) <= 3 and not doc[i].whitespace_ and end < len(doc) and doc[end].text == "(":
        return None  # a group's or a function's notation: "an SE(3)-equivariant network", "O(n)"
    return (i, end) if end > i else None


_NAMING_VERBS = lexicon.words("naming_verbs")  # "we call X NAME"
_OBJECT_PRONOUNS = lexicon.words("named_object_pronouns")
_OBJECT_OPENERS = lexicon.words("named_object_openers")


def _we_name(doc: Doc, sent: Span, i: int) -> bool:
    """Whether the authors give the name at the naming word ``i``: "we" right before it ("we call our approach X"),
    or "and" after their own clause ("We instantiate our method ... and name it PA-former")."""
    if i == sent.start:
        return False
    before = doc[i - 1].lower_
    return before == "we" or before == "and" and _is_authors_sentence(sent, i - 1)


def _after_object(doc: Doc, j: int, limit: int) -> tuple[int, str | None] | None:
    """Where the name starts after "we call" and the object it names: a pronoun ("we call it GraphDE", "we call
    this NeRF-RL"), or up to five plain words ending in a head word ("we call our approach Simmer", "we call the
    resulting models InstructGPT"); with that head word (None after a pronoun). None when no name follows."""
    if j + 1 >= limit:
        return None
    if doc[j].lower_ in _OBJECT_PRONOUNS and _name_at(doc, j + 1, limit) is not None:
        return j + 1, None
    if doc[j].lower_ not in _OBJECT_OPENERS:
        return None
    k = j + 1
    while k < min(limit, j + 6) and doc[k].text.isalpha() and doc[k].text.islower():
        k += 1
    head = doc[k - 1].lower_
    name = _name_at(doc, k, limit) if k > j + 1 and k < limit else None
    if name is None or not (head in HEADS or head in DATASET_HEADS or head.rstrip("s") in PROBLEM_HEADS
                            or doc[j + 1].lower_ == "resulting" and _COINED.search(doc[k].text)):
        return None  # (after "the resulting", any noun: "we call the resulting tests MMDAggInc, ...")
    return k, head


def _plain_capitalised(tok: Token) -> bool:
    """Whether a word is a plain capitalised word ("Branch", "Learn"), the kind two of which "&" joins into one name;
    not a coined name ("FooNet & BarNet" are two)."""
    return tok.text.isalpha() and tok.text.istitle()


def _measure_named(doc: Doc, sent: Span, naming: int) -> bool:
    """Whether the naming word at ``naming`` follows a measure's noun, a comma aside ("a novel metric named OpenAUC",
    "a new metric, called Rashomon Capacity"): a new metric, not a method ("maps from the input measures, which we
    call Meta OT" is not one)."""
    k = naming - 1
    while k > sent.start and doc[k].text == ",":
        k -= 1
    return k >= sent.start and doc[k].lower_ in _MEASURES


def _variant_word(tok: Token) -> bool:
    """Whether a token is a lower-case hyphenated modifier that makes a variant of the name after it
    ("source-aware" of "source-aware IF")."""
    return "-" in tok.text and tok.text.replace("-", "").isalpha() and tok.text.islower()


def _modifier_before_head(doc: Doc, run: tuple[int, int]) -> bool:
    """Whether a one-word run is a capitalised modifier of the method's head word after it ("a new Bayesian
    approach"), not a name (which a digit makes: "our proposed S3-Router framework")."""
    nxt = doc[run[1]] if run[1] < len(doc) else None
    word = doc[run[0]].text
    return nxt is not None and nxt.lower_ in HEADS and run[1] - run[0] == 1 and word.istitle() \
        and not any(c.isdigit() for c in word)


def _title_cased(span: Span) -> bool:
    """Whether a long form is written as a name: two tokens or more, each word of four letters or more
    capitalised ("Fixed-Distance HMC", "Sparse Interaction Additive Networks"; not "graph neural network")."""
    words = [t for t in span if t.text[:1].isalpha() and len(t) > 3]
    return len(span) >= 2 and bool(words) and all(t.text[0].isupper() for t in words)


def _mixed_case_short(short: Span, long: Span) -> bool:
    """Whether a short form is coined in mixed case ("CdVAE", "AFuB") for a long form that names a concept, not
    lower case for the initials of function words ("quality of service (QoS)", "system-on-chip (SoC)")."""
    initials = {w[0] for t in long for w in t.lower_.split("-") if w in _FUNCTION}
    return bool(_MIXED_SHORT.fullmatch(short.text)) and not all(c in initials for c in short.text if c.islower()) \
        and load_specificity().reason(long.text, "METHOD") is None


def _variant_of(lower, start: int, limit: int) -> int:
    """Where the "of" is when a proposal's object opens "a/an, two words at most, variant/version/extension... of"
    (the paper's method is a variant of another, which the words after "of" name); else -1."""
    k = start + 1 if start < limit and lower[start] in _ARTICLE_IDS else start
    return next((j + 1 for j in range(k, min(k + 3, limit - 2)) if lower[j] in _VARIANT_IDS and lower[j + 1] == _OF),
                -1)


def _run(doc: Doc, i: int, limit: int, known: dict) -> tuple[int, int] | None:
    """A new name starting at token i: :func:`_name_at`, unless the gazetteer knows it."""
    run = _name_at(doc, i, limit)
    return None if run is None or doc[run[0]:run[1]].text.lower() in known else run


def _listed(doc: Doc, first: tuple[int, int], limit: int, known: dict) -> list[tuple[int, int]]:
    """``first`` and the new names "and", "or" or commas join to it ("called DQN Pro and Rainbow Pro", "MASHA1 and
    MASHA2"), as token ranges; none when the list goes on with a name the gazetteer knows: it lists existing
    resources ("a testbed of six data sources: YFCC, LAION, Conceptual Captions, ...")."""
    out = [first]
    while True:
        k = out[-1][1]
        while k < limit and doc[k].lower_ in (",", "and", "or"):
            k += 1
        name = _name_at(doc, k, limit) if out[-1][1] < k < limit else None
        if name is None:
            return out
        if doc[name[0]:name[1]].text.lower() in known:
            item = name[1] >= limit or doc[name[1]].lower_ in _LIST_ITEM_ENDS  # ("..., and BERT serves as ...": a
            return [] if item else out  # new clause, the list ended before it)
        out.append(name)


def _phrase_start(doc: Doc, run: tuple[int, int], limit: int) -> bool:
    """Whether a one-word run is a plain word capitalised only because it starts a phrase ("algorithm: Active
    exploration for ..."), not a name: a lower-case word follows that carries the phrase on (not "and", "or", a
    preposition: "algorithms: Hydra and Medusa")."""
    a, b = run
    return b - a == 1 and doc[a].text.istitle() and doc[a].text.isalpha() and b < limit and doc[b].text.islower() \
        and doc[b].text.isalpha() and doc[b].lower_ not in _PHRASE_GOES_ON


def _listed_from(doc: Doc, i: int, limit: int, known: dict) -> list[tuple[int, int]]:
    """The new names listed from token ``i`` ("algorithms: Hydra and Medusa"), as token ranges: none when the first
    is a plain word that only starts a phrase ("algorithm: Active exploration for ...")."""
    run = _run(doc, i, limit, known)
    return [] if run is None or _phrase_start(doc, run, limit) else _listed(doc, run, limit, known)


def _through_of(doc: Doc, run: tuple[int, int], limit: int, known: dict) -> tuple[int, int] | None:
    """A title-cased name carried on over "of" into more title-cased words ("Self-supervised Aggregation of
    Diverse Experts"); None when the whole is a name the vocabulary knows ("Edge of Stability": no new one)."""
    while run[1] + 1 < limit and doc[run[1]].lower_ == "of" and doc[run[1] + 1].text[:1].isupper() \
            and all(t.text[:1].isupper() for t in doc[run[0]:run[1]]):
        more = _name_at(doc, run[1] + 1, limit)
        if more is None:
            break
        run = (run[0], more[1])
    return None if span_text(doc, *run).lower() in known else run


class ProposedFinder:
    """Pipeline component: marks the paper's own proposed methods as candidates with ``proposed=True``."""

    def __init__(self, directory: str = "") -> None:
        gaz = load_gazetteer(directory)
        self.known = gaz.lookup()
        self.generic = gaz.generic
        self.plain_word = load_specificity().plain_word

    def _abbrev_in(self, doc: Doc, lo: int, hi: int) -> list[Abbreviation]:
        return [a for a in abbreviations(doc) if lo <= min(a.long_start, a.short_start) < hi]

    def _objects(self, doc: Doc, sent: Span, start: int, pairs_only: bool = False) -> list[Candidate]:
        """Named objects of a proposal verb whose object starts at token ``start``; ``pairs_only``: only a new
        abbreviation pair (after "construct" or "instantiate", whose objects are often others' things: "we
        construct Markov Decision Processes where Q-learning fails")."""
        limit = sent.end
        lower, orth = column(doc, LOWER), column(doc, ORTH)
        of = _variant_of(lower, start, limit)
        if of >= 0 and lower[of + 1] not in _OWN_IDS \
                and not any(min(a.long_start, a.short_start) < of for a in self._abbrev_in(doc, start, limit)[:1]):
            return []  # "we propose a variation of the Hamiltonian Monte Carlo sampling (HMC)", "develop a variant
            # of the MASTER algorithm [Wei and Luo]": the method it varies is others' (not "two variants of our
            # future-self-training (FST) framework", nor a pair naming the variant: "an accelerated version of
            # SBiO-BreD method (ASBiO-BreD)")
        if start < limit and orth[start] == _COMMA:  # "We propose, OPEN, an algorithm that ..."
            run = _run(doc, start + 1, limit, self.known)
            if run and run[1] < limit and orth[run[1]] == _COMMA:
                return [Candidate(run[0], run[1], "METHOD", "proposed", proposed=True)]
            return []
        stop = start
        while stop < limit and lower[stop] not in _STOP_IDS and orth[stop] != _COMMA:
            stop += 1
        # A colon or a dash introduces a list of names ("two algorithms: A and B"), unless a new name or a defined
        # pair comes before it ("we introduce the kNNxKDE algorithm: a hybrid method ...", "Partial G-CNNs: G-CNNs
        # able to ...").
        colon = next((k for k in range(start, stop) if orth[k] in _LIST_OPENERS), None)
        if colon is not None and (self._new_name_first(doc, start, colon) or self._abbrev_in(doc, start, colon)):
            stop, colon = colon, None  # (a pair defined before the colon names it: "a X algorithm (RECOO) and ...:")
        if colon is not None:
            abbrs = [a for a in self._abbrev_in(doc, colon + 1, colon + 2) if a.long_start < a.short_start]
            if abbrs and self._new_pair(doc, abbrs[0]):  # "a novel IRL algorithm: Active exploration for ... (AceIRL)"
                return [abbrs[0].proposed(doc, "METHOD")]
            return [Candidate(a, b, "METHOD", "proposed", proposed=True)
                    for a, b in _listed_from(doc, colon + 1, limit, self.known)]
        abbrs = self._abbrev_in(doc, start, max(stop, start + 1) + 1)
        if not abbrs and (titled := self._titled_pair(doc, start, limit) or self._headed_name(doc, start, limit)):
            return [titled]
        if abbrs:
            a = abbrs[0]
            end = max(a.long_end, a.short_end)
            head = doc[end].lower_ if end < len(doc) else ""
            lead = min(a.long_start, a.short_start)
            of_problem = lead >= 2 and doc[lead - 1].lower_ == "of" and doc[lead - 2].lower_ in PROBLEM_HEADS
            label = "TASK" if head in PROBLEM_HEADS or of_problem else _label_for_head(doc, end)
            long, entry = a.long_text(doc).lower(), self.known.get(a.short_text(doc).lower())
            if long.split()[-1] in THEORY_HEADS:
                return []  # "we establish a functional central limit theorem (FCLT)": a result, not a method
            if long in self.known or (entry is not None and long in {f.lower() for f in (entry.name, *entry.aliases)}):
                called = _called_new(doc, end) if _opens_object(doc, start, lead) else None
                if called is None:
                    return []  # a known method; a known short form defined with another long form is a new one
                return [a.proposed(doc, called)]  # ("NCF"); a vocabulary may know the paper's own name from the
                # paper: "we present Science Question Answering (ScienceQA), a new benchmark"
            return [a.proposed(doc, label)]
        if pairs_only:
            return []
        plain = self._plain_object(doc, start, stop, limit)
        if plain:
            return [Candidate(plain[0], plain[1], "METHOD", "proposed", proposed=True)]
        # Named object heading its phrase: "we propose COBRA, a ..." / "design a new Hybrid Attention Adapter to ...".
        strings = doc.vocab.strings
        names_end = stop + 1 if stop < limit and orth[stop] == _COMMA else stop
        i = start
        while i < stop:
            if lower[i] in _NAMING_IDS:
                break
            run = _name_at(doc, i, names_end)
            if run and (entry := self.known.get(span_text(doc, *run).lower())) is not None:
                called = _called_new(doc, run[1]) if _opens_object(doc, start, i) else None
                if called is not None:  # what the sentence introduces so is the paper's own, known or not
                    return [Candidate(run[0], run[1], called, "proposed", proposed=True,
                                      benchmark=entry.benchmark and called == "DATASET")]
                i = run[1]  # a known name ("we introduce Random Erasing"): not a new one, nor is its tail
                continue
            if run and strings[lower[run[1] - 1]].endswith(MODIFIER_SUFFIXES):
                return []  # "a Meta-Command Communication-based framework": what it is based on, not its name
            if run and _defined_before(doc, run, sent.start):
                break  # "active learning (AL) ... we focus on designing an AL algorithm": not a new name (an
                # appositive may give one: "we develop a novel MCSA scheme, parallel MCSA (pMCSA), that ...")
            if run and i > start and _variant_word(doc[i - 1]) and _defined_before(doc, run, run[0]):
                return [Candidate(i - 1, run[1], "METHOD", "proposed", proposed=True)]  # "we build on Influence
                # Function (IF) and propose source-aware IF": a variant of what this sentence defined is new (one of
                # a name from an earlier sentence is mostly a description: "margin-based FSCIL")
            if run:
                nxt = doc[run[1]] if run[1] < len(doc) else None
                if _modifier_before_head(doc, run):
                    return []  # "a new Bayesian approach": a modifier before the head, not a name
                if nxt is None or nxt.lower_ in STOPS or nxt.text in _APPOSITION | {"("} or nxt.lower_ in HEADS \
                        or _split_head(doc, run[1]):
                    label = "TASK" if nxt is not None and nxt.lower_ in PROBLEM_HEADS else _label_for_head(doc, run[1])
                    return [Candidate(run[0], run[1], label, "proposed", proposed=label in ("METHOD", "DATASET"))]
                if nxt.lower_ in ("and", "or") and len(listed := _listed(doc, run, limit, self.known)) > 1 \
                        and (listed[-1][1] >= limit or doc[listed[-1][1]].lower_ in STOPS
                             or doc[listed[-1][1]].text in _APPOSITION):
                    return [Candidate(a, b, "METHOD", "proposed", proposed=True) for a, b in listed]  # "we design
                    # S-IBP and S-CROWN that tackle ...": new names joined, then the clause about them
                return []
            i += 1
        # Appositive: "a novel method, OTP, which ...", "a novel framework, FEDerated ... (FED-PUB)"; without a
        # method's head word, a coined name alone: "a new family of topologies, EquiTopo, which ..."
        if stop < limit and orth[stop] == _COMMA:
            headed = any(lower[k] in _HEAD_IDS for k in range(start, stop))
            novel = not headed and any(lower[k] in _NOVEL_IDS for k in range(start, stop)) \
                and not any([doc[k].lower_.rstrip("s") in PROBLEM_HEADS for k in range(start, stop)])
            # ("a novel ... estimation, X (Y)": not "a new problem, X (Y)", a task)
            abbrs = [a for a in self._abbrev_in(doc, stop + 1, stop + 2) if a.long_start < a.short_start] \
                if headed or novel else []
            if abbrs and self._new_pair(doc, abbrs[0]):
                return [abbrs[0].proposed(doc, "METHOD")]
            # a known name too after a new thing's description ("we propose a new simple network architecture, the
            # Transformer, based solely on attention"): the paper that made it known
            fresh = headed and any(lower[k] in _NOVEL_IDS for k in range(start, stop))
            at = stop + 1 + (fresh and stop + 1 < limit and doc[stop + 1].lower_ == "the")
            run = _run(doc, at, limit, self.known) or (_name_at(doc, at, limit) if fresh else None)
            if run and (run[1] >= limit or doc[run[1]].text in {",", ".", "("} or doc[run[1]].lower_ in STOPS) \
                    and (headed or run[1] - run[0] == 1 and _COINED.search(doc[run[0]].text)):
                return [Candidate(run[0], run[1], "METHOD", "proposed", proposed=True)]
        # A new pair after a colon that ends the object's description: "a new technique for ... that combines ...
        # with machine learning: discretely-trained PINNs (DT-PINNs)"
        late = next((k for k in range(stop, limit) if orth[k] in _LIST_OPENERS), None)
        if late is not None and not self._abbrev_in(doc, start, late):
            abbrs = [a for a in self._abbrev_in(doc, late + 1, late + 2) if a.long_start < a.short_start]
            if abbrs and self._new_pair(doc, abbrs[0]):
                return [abbrs[0].proposed(doc, "METHOD")]
        return []

    def _titled_pair(self, doc: Doc, start: int, limit: int, capitals: int = 3, plain: int = 0) -> Candidate | None:
        """A proposal's object written as a title, ``capitals`` capitalised words or more with only function words
        (and up to ``plain`` other lower-case words) between them, then a coined name in brackets that the
        vocabulary does not know: "we propose the Transformer with a Finite Admixture of Shared Heads
        (FiSHformers), a ...", "named Mining unseen Classes via Regional Objectness (MicroSeg)" (where the
        abbreviation rules found no pair, as the title does not spell the name out). The bracketed name is the
        proposal."""
        strings, orth, lower = doc.vocab.strings, column(doc, ORTH), column(doc, LOWER)
        i = start
        while i < limit and lower[i] in _OPENER_IDS:
            i += 1
        k = i
        while k < limit and orth[k] != _OPEN:
            text = strings[orth[k]]
            if text[:1].isupper() and len(text) > 1:
                capitals -= 1
            elif strings[lower[k]] not in SMALL_WORDS:  # (a name written as a title: "Mining unseen Classes via ...")
                if plain <= 0 or not text.isalpha() or not text.islower():
                    return None
                plain -= 1
            k += 1
        if capitals > 0 or k + 2 >= limit or orth[k + 2] != _CLOSE or not strings[orth[k - 1]][:1].isupper():
            return None
        short = strings[orth[k + 1]]
        first = next(j for j in range(i, k) if strings[orth[j]][:1].isupper())  # (the name, after "by a", "as the")
        if not _COINED.search(short) or not short[:1].isupper() or self._known_pair(short, span_text(doc, first, k)):
            return None
        if any(c.extractor == "gazetteer" and first <= c.start and c.end <= k
               and 3 * (c.end - c.start) >= 2 * (k - first) for c in candidates(doc)):
            return None  # a known name is most of it: "the Deep Residual Learning Framework (ResNet)"
        return Candidate(k + 1, k + 2, "METHOD", "proposed", proposed=True)

    def _known_pair(self, short: str, long: str) -> bool:
        """Whether the vocabulary knows ``short`` by the long form ``long`` the text gives it (or knows ``long``): a
        known short form defined by another long form is the paper's own name ("the Dynamics-Aware Hybrid
        Offline-and-Online Reinforcement Learning (H2O) framework", not the dataset H2O); one written nearly as the
        vocabulary does, or sharing a word of substance with its long form, is its concept (a typo: "a Multi-Layer
        Perception (MLP)"; "the Deep Residual Learning Framework (ResNet)")."""
        entry, long = self.known.get(short.lower()), long.lower()
        if long in self.known:
            return True
        if entry is None:
            return False
        names = [n.lower() for n in (entry.name, *entry.aliases)]
        # a long form sharing a word of substance with the vocabulary's: "the Deep Residual Learning Framework
        # (ResNet)" and "deep residual networks"
        words = {w for n in names for w in n.split() if len(w) >= 5 and w not in _KIND_WORDS}
        return any(SequenceMatcher(None, long, n).ratio() >= 0.9 for n in names) or not words.isdisjoint(long.split())

    def _headed_name(self, doc: Doc, start: int, limit: int) -> Candidate | None:
        """A coined name in brackets right after a proposal's object that ends in a method's head word, which the
        abbreviation rules did not pair with the words before it: "we propose a method (BeamCLIP)", "a stochastic
        bilevel optimization method (SBiO-BreD)", "a model ('GlassSemNet')". The bracketed name is the proposal: a
        capital or a digit inside it ("Delphi" may be a plain word), and the vocabulary does not know it."""
        strings, orth, lower = doc.vocab.strings, column(doc, ORTH), column(doc, LOWER)
        k = start
        while k < limit and orth[k] != _OPEN:
            if not strings[orth[k]].replace("-", "").isalpha() or strings[lower[k]] in STOPS or k - start >= 8:
                return None  # (a clause, a number or a long description before the bracket)
            k += 1
        if k == start or k >= limit or strings[lower[k - 1]] not in HEADS:
            return None
        at = k + 1 + (k + 1 < limit and strings[orth[k + 1]] in QUOTES)
        close = at + 1 + (at + 1 < limit and strings[orth[at + 1]] in QUOTES)
        if close >= limit or orth[close] != _CLOSE:
            return None
        name = strings[orth[at]]
        if not _COINED.search(name) or not name[:1].isalpha() or name.lower() in self.known:
            return None
        return Candidate(at, at + 1, _label_for_head(doc, k - 1), "proposed", proposed=True)

    def _new_name_first(self, doc: Doc, start: int, stop: int) -> bool:
        """Whether the phrase from ``start`` to the colon at ``stop`` opens (after "a", "the", "novel", "new") with a
        coined name (a capital or a digit inside a word: "kNNxKDE", "Partial G-CNNs"), or new names joined by "and"
        ("SignNet and BasisNet---new neural architectures"), that the colon or a method's head word follows, that the
        vocabulary does not know and the text did not define before; not a modifier ("a Bayesian algorithm:",
        "GNN-based methods:")."""
        i = start
        while i < stop and doc[i].lower_ in _OPENERS:
            i += 1
        run = _name_at(doc, i, stop)
        if run is None:
            return False
        end = max([run[1]] + [b for _, b in _listed(doc, run, stop, self.known)])  # (the last of joined names)
        if not (end == stop or doc[end].lower_ in HEADS and end + 1 == stop):
            return False
        text = span_text(doc, *run)
        return any(_COINED.search(part) for part in text.split("-")) and not text.endswith(MODIFIER_SUFFIXES) \
            and text.lower() not in self.known and not _defined_before(doc, run, start)

    def _new_pair(self, doc: Doc, a: Abbreviation) -> bool:
        """Whether an abbreviation pair names something the vocabulary does not know, by either form."""
        return a.short_text(doc).lower() not in self.known and a.long_text(doc).lower() not in self.known

    def _plain_object(self, doc: Doc, start: int, stop: int, limit: int) -> tuple[int, int] | None:
        """A proposal's object in two to four plain lower-case words that an appositive says is a method
        ("we propose differentiable logic gate networks, an architecture that ..."): the words up to the comma,
        none a determiner, preposition or joining word, the whole not a known name, then "a"/"an" and a method's
        head word within four words."""
        if not (2 <= stop - start <= 4) or stop >= limit or doc[stop].text != ",":
            return None
        for t in doc[start:stop]:
            if not (t.text.replace("-", "").isalpha() and t.text.islower()) or t.lower_ in PREPOSITIONS \
                    or t.lower_ in _JOINERS or t.lower_ in STOPS or t.lower_ in ("this", "these", "our", "two"):
                return None
        if doc[start:stop].text.lower() in self.known or stop + 2 >= limit or doc[stop + 1].lower_ not in ("a", "an"):
            return None
        if not any(t.lower_ in HEADS for t in doc[stop + 2:min(limit, stop + 6)]):
            return None
        return start, stop

    def _novel_names(self, doc: Doc, sent: Span, i: int) -> list[Candidate]:
        """"a novel Pathway Attention mechanism": a new name of two words or more (or one coined word, "ModaMixer")
        that "novel" or "new" introduces, before a method's head word, in the authors' sentence."""
        run = _name_at(doc, i + 1, sent.end)
        if run is None or run[1] >= sent.end or doc[run[1]].lower_ not in HEADS:
            return []
        text = doc[run[0]:run[1]].text
        coined = run[1] - run[0] >= 2 or any(_COINED.search(part) for part in text.split("-"))
        if not coined or text.lower() in self.known or doc[run[1] - 1].lower_.endswith(MODIFIER_SUFFIXES):
            return []  # "a novel quasi-Newton method", "a new MixUp-based method": no name of its own
        if not _is_authors_sentence(sent, i) or _defined_before(doc, run, sent.start):
            return []
        return [Candidate(run[0], run[1], _label_for_head(doc, run[1]), "proposed", proposed=True)]

    def _named(self, doc: Doc, sent: Span, triggers: list[Token]) -> list[Candidate]:
        """``..., called X`` / ``a novel problem termed X (ABBR)``."""
        out = []
        if NAMING.isdisjoint([tok.lower_ for tok in triggers]):
            return out  # (most proposal sentences have a verb and no naming word)
        if _LISTING.issuperset([tok.lower_ for tok in triggers if tok.lower_ in NAMING]) \
                and not any([_proposing(tok) for tok in triggers]):
            return out  # "namely" and "i.e." restate the name of a proposal only
        known_at = {i for c in candidates(doc) if c.extractor == "gazetteer" for i in range(c.start, c.end)}
        for tok in triggers:
            if tok.lower_ not in NAMING or tok.i + 1 >= sent.end or tok.i in known_at:
                continue  # (not the start of a known name: "named entity recognition")
            we_name = _we_name(doc, sent, tok.i)
            if (tok.lower_ in _NAMING_VERBS or tok.lower_ == "refer") and not we_name:
                continue  # "which we call X", "an estimator we name FLO", "an object we term the PBRF", "which we
                # refer to as X", "we build ... and name it PA-former"; not "a call to", "the name of", "in the long
                # term", "refer to the appendix"
            if tok.i > sent.start and doc[tok.i - 1].lower_ in _IN_USE:
                continue  # "also called Task-Free Continual Learning (TFCL)": a name in use, not a new one
            if tok.lower_ in _LISTING and not self._names_the_proposal(doc, sent, tok.i):
                continue  # "three augmentation methods, namely GAUG, ...": a list, or others' methods
            j, object_head = tok.i + 1, None
            after = _after_object(doc, j, sent.end) if tok.lower_ in _NAMING_VERBS and we_name else None
            if after is not None:
                j, object_head = after  # "we call our approach Simmer", "we call it GraphDE"
            else:
                j += tok.lower_ in _LISTING and doc[j].text == ","  # "namely, TraCQ"
                strings, lower = doc.vocab.strings, column(doc, LOWER)
                words = [strings[lower[k]] for k in range(j, min(j + _MAX_LEAD, len(doc)))]
                for lead in _NAME_LEADS:  # "called a Knowledge Transfer Network (KTN)", "denoted it as ASH"
                    if tuple(words[:len(lead)]) == lead and j + len(lead) < sent.end:
                        j += len(lead)
                        break
                if j > tok.i + 1 + (doc[tok.i + 1].lower_ == "as") and not _is_authors_sentence(sent, tok.i):
                    continue  # "it is called an Online Contention Resolution Scheme": a known name, told
            end = _named_end(doc, sent, tok.i)
            before = [t.lower_ for t in doc[max(sent.start, end - 4) : end]]
            head = max(end - 1, sent.start)
            while head > sent.start and doc[head].lower_ in _RELATIVE:
                head -= 1
            if doc[head].lower_ in _RESULTS:
                continue  # "a matrix concentration inequality which we term R2WDC": a result, no method
            # the head word nearest the naming word says what is named ("tasks, our method referred to as X": a
            # method; "problems called ...": a task)
            near = next((w for w in reversed(before) if w in HEADS or w in DATASET_HEADS or w in ENVIRONMENT_HEADS
                         or w in PROBLEM_HEADS or w.rstrip("s") in PROBLEM_HEADS), None)
            problem = near is not None and (near in PROBLEM_HEADS or near.rstrip("s") in PROBLEM_HEADS)
            data = near in DATASET_HEADS or near in ENVIRONMENT_HEADS  # ("a new simulation environment called X")
            if object_head is not None:  # the object says what is named: "we call the resulting dataset X"
                problem, data = object_head.rstrip("s") in PROBLEM_HEADS, object_head in DATASET_HEADS
                if problem and (name := _name_at(doc, j, sent.end)) is not None \
                        and doc[name[1] - 1].is_title and doc[name[1] - 1].lower_.endswith(_AGENT_ENDINGS):
                    problem = False  # unless the name says what does it: "name the resulting paradigm Symmetric
                    # Planner (SymPlan)"
            label = "TASK" if problem else ("DATASET" if data else
                                            "METRIC" if _measure_named(doc, sent, tok.i) else "METHOD")
            abbrs = self._abbrev_in(doc, j, j + 1)
            titled = self._titled_pair(doc, j, sent.end, 2, 1) if label == "METHOD" and not abbrs else None
            if titled is not None and _label_for_head(doc, titled.end + 1) == "METHOD" \
                    and not any(t.lower_.rstrip("s") in PROBLEM_HEADS for t in doc[sent.start:titled.end + 2]):
                out.append(titled)  # "named Mining unseen Classes via Regional Objectness (MicroSeg)"
                continue
            fresh = _new_thing_named(doc, sent, tok.i)  # "we propose a new detector, called DETR": the paper's,
            # whatever the vocabulary knows (the paper that made a name known is in the corpus too)
            if abbrs and not we_name and not self._new_pair(doc, abbrs[0]) and not fresh:
                continue  # a known pair others named: "a method referred to as Model-Agnostic Meta-Learning (MAML)"
            if abbrs:
                if abbrs[0].long(doc)[-1].lower_.rstrip("s") in PROBLEM_HEADS:
                    label = "TASK"  # "called the multi-robot reward collection problem (MRRC)"
                pair = abbrs[0].proposed(doc, label)
                if cites_at(doc, pair.end) or pair.end < len(doc) and doc[pair.end].text == ")" \
                        and cites_at(doc, pair.end + 1) or _others_name(sent, tok.i):
                    pair.proposed = False  # "named as Discounted Normal Predictor (DNP) [Kapralov and Panigrahy]"
                out.append(pair)
                continue
            if after is not None:  # the name after "we call" and its object is the paper's, known or not: "we call
                named = _name_at(doc, j, sent.end)  # the resulting models InstructGPT"
            else:
                named = _run(doc, j, sent.end, self.known)
                named = _through_of(doc, named, sent.end, self.known) if named else None
                named = named or (_name_at(doc, j, sent.end) if fresh else None)
            if named and doc[j - 1].lower_ in _ARTICLES and named[1] < sent.end and doc[named[1]].text.isalpha() \
                    and doc[named[1]].text.islower() and doc[named[1]].lower_ not in _PHRASE_GOES_ON:
                named = None  # "which we call the QoS regret": after an article, a name modifying a noun names none
            if named is None and tok.lower_ in _LISTING and not is_namelike(doc[j]):
                continue  # "solver-free, i.e., does not call the ILP solver": a restatement names by a name
            run = named or self._local_name(doc, sent, tok.i, j, label) or self._plain_name(doc, sent, tok.i, j, label, end)
            told = run is not None and run[1] - run[0] == 1 and doc[run[0]].is_title \
                and not _COINED.search(doc[run[0]].text) and _told(doc, sent, tok.i, fresh)  # a plain word: "(called
            # Hamiltonian)", "Boob et al recently gave a fast iterative algorithm called Greedy++"
            listed = _listed(doc, run, sent.end, self.known) if named else [run] if run else []
            after = doc[listed[-1][1]] if listed and listed[-1][1] < sent.end else None
            if len(listed) > 1 and after is not None and after.text == "(":
                listed = [(listed[0][0], listed[-1][1])]  # one name with "and" in it, then its short form (F3M)
            elif len(listed) > 1 and after is not None and not after.is_punct:
                listed = listed[:1]  # the list goes on into the clause: "we call GraphDE, and Theorem 1 shows"
            own = label in ("METHOD", "DATASET") and not (listed and cites_at(doc, listed[-1][1])) \
                and not _others_name(sent, tok.i) and not told  # not others': "a strategy named as Discounted-Normal-Predictor
            # [Kapralov and Panigrahy, 2010]"
            out += [Candidate(a, b, label, "proposed", proposed=own) for a, b in listed]
        return out

    @staticmethod
    def _names_the_proposal(doc: Doc, sent: Span, naming: int) -> bool:
        """Whether "namely" at ``naming`` names what the authors' proposal verb before it introduces ("we propose a
        ... attacker, namely DADA"), not items of a counted list ("two new loss terms, namely ...")."""
        verbs = [t.i for t in doc[sent.start:naming] if _proposing(t)]
        if not verbs or not _is_authors_sentence(sent, verbs[-1]):
            return False
        return not any(t.lower_ in _COUNTS or t.like_num for t in doc[verbs[-1] + 1:naming])

    def _plain_name(self, doc: Doc, sent: Span, naming: int, j: int, label: str,
                    kind: int) -> tuple[int, int] | None:
        """A name in plain lower-case words that the authors give their own method ("we introduce a novel
        attention procedure called staircase attention", after a method's head word): two to four words, or one
        hyphenated word, up to punctuation, a preposition or a relative word; never a known name or a single plain
        word ("called clients"). ``kind``: where the phrase saying what is named ends (:func:`_named_end`)."""
        if label != "METHOD" or not any(_proposing(t) for t in doc[sent.start:naming]) \
                or not _is_authors_sentence(sent, naming):
            return None
        if not any(t.lower_ in HEADS for t in doc[max(sent.start, kind - 4):kind]):
            return None  # what is named is no method ("a concept called markdown dimension", "an assumption named")
        end = j
        while end < sent.end and end - j < 4:
            t = doc[end]
            if not (t.text.replace("-", "").isalpha() and t.text.islower()) or t.lower_ in PREPOSITIONS \
                    or t.lower_ in STOPS or t.lower_ in _JOINERS:
                break
            end += 1
        if end == j or (end - j == 1 and "-" not in doc[j].text) or doc[j:end].text.lower() in self.known:
            return None
        if any(min(a.long_start, a.short_start) < end and j < max(a.long_end, a.short_end) for a in abbreviations(doc)):
            return None  # a defined short form: the abbreviation rules name it
        return j, end

    def _local_name(self, doc: Doc, sent: Span, naming: int, j: int, label: str) -> tuple[int, int] | None:
        """A known short name of another kind that the authors give their own method ("we design a ...
        framework, dubbed MCC"): the abstract's definition wins over the gazetteer's (MCC, the Matthews correlation
        coefficient, a metric), unless the sentence writes the known meaning out. Only a one-token name in
        capitals after a proposal verb; a known method's name stays that method."""
        if j >= sent.end or not _SHORT_NAME.fullmatch(doc[j].text):
            return None
        if not any(_proposing(t) for t in doc[sent.start:naming]) or not _is_authors_sentence(sent, naming):
            return None
        entry = self.known.get(doc[j].lower_)
        said = sent.text.lower()
        if entry is None or entry.label == label or any(f.lower() in said for f in (entry.name, *entry.aliases) if f.lower() != doc[j].lower_):
            return None
        return j, j + 1

    def _dashed(self, doc: Doc, sent: Span, verbs: list[int], dashes: list[int]) -> list[Candidate]:
        """A name between dashes right after the head word of the authors' proposal ("we introduce a new
        method---sparse Hamiltonian flows---that ...", "our proposed method---multi-domain temperature scaling---uses
        ..."): up to five words, none a function word or a list's opener ("a set of techniques---including a tool
        that ...---"), not a name the vocabulary knows."""
        out: list[Candidate] = []
        for k in dashes:
            if not sent.start < k < sent.end - 2 or doc[k - 1].lower_ not in HEADS:
                continue
            own = any(doc[j].lower_ in OWN for j in range(max(sent.start, k - 4), k - 1))
            if not own and not (verbs and verbs[0] < k and _is_authors_sentence(sent, verbs[0])):
                continue
            end = next((j for j in range(k + 2, min(k + 7, sent.end)) if doc[j].text in _DASHES), None)
            words = doc[k + 1:end] if end is not None else []
            if not words or any(t.lower_ in _DASH_STOPS or not t.text[:1].isalpha() for t in words) \
                    or words.text.lower() in self.known:
                continue
            out.append(Candidate(k + 1, end, _label_for_head(doc, k - 1), "proposed", proposed=True))
        return out

    def _our_method(self, doc: Doc, sent: Span, triggers: list[Token]) -> list[Candidate]:
        """``Our proposed method, X (ABBR), is ...``; ``our approximate gradient-based update rule, ModProp,``;
        ``with our modality mixer (ModaMixer)``: a pair the authors' own phrase defines, unknown by both forms, or a
        coined name in brackets after its head word (``our approach (RegMixup)``). Each
        "our" names one at most ("Our fastest model, EfficientFormer-L1, ..., and our largest model,
        EfficientFormer-L7, ...")."""
        found: list[Candidate] = []
        for tok in triggers:
            if tok.lower_ in OWN and not any(c.start <= tok.i < c.end for c in found):
                found += self._our_phrase(doc, sent, tok.i)
        return found

    def _our_phrase(self, doc: Doc, sent: Span, i: int) -> list[Candidate]:
        """The name the authors' phrase opened by "our" at token ``i`` defines, if any (see ``_our_method``)."""
        if i + 2 < sent.end and doc[i + 1].lower_ in _OUR_NEW:
            named = self._our_name(doc, sent, i + 2)
            if named:
                return named
        pairs = [a for a in self._abbrev_in(doc, i + 1, i + 3) if a.long_start < a.short_start
                 and a.short_end <= sent.end and self._new_pair(doc, a)]
        if pairs:
            short, long = pairs[0].short_text(doc), pairs[0].long(doc)
            coined = _SHORT_NAME.fullmatch(short) is None and not short.isupper()  # "ModaMixer"
            titled = _title_cased(long) and load_specificity().reason(long.text, "METHOD") is None
            if coined or titled:  # "our Fixed-Distance HMC (FDHMC)"; not "our graph neural network (GNN)"
                return [pairs[0].proposed(doc, "METHOD")]
        orth, lower = column(doc, ORTH), column(doc, LOWER)
        bracket = next((k for k in range(i + 1, min(i + 8, sent.end)) if orth[k] == _OPEN), None)
        if not pairs and bracket is not None and not any(lower[k] in _PREPOSITION_IDS or lower[k] in _ARTICLE_IDS
                                                         for k in range(i + 1, bracket)) \
                and (headed := self._headed_name(doc, i + 1, sent.end)) is not None:
            return [headed]  # "the efficacy of our approach (RegMixup)", "our policy gradient method (TDPO)": a
            # coined name in brackets after the phrase "our" opens (not "our method with the strong baseline
            # network (HRFormerX)", "Our model outperforms the strongest existing method (DualNetX)")
        k = i + 1
        while k < sent.end and k - i <= 5 and doc[k].lower_ not in HEADS:
            k += 1
        if k < sent.end - 2 and doc[k].lower_ in HEADS and doc[k + 1].text == ",":
            abbrs = self._abbrev_in(doc, k + 2, k + 3)
            if abbrs:
                return [abbrs[0].proposed(doc, "METHOD")]
            run = _run(doc, k + 2, sent.end, self.known)
            if run:
                return [Candidate(run[0], run[1], "METHOD", "proposed", proposed=True)]
        return []

    def _our_name(self, doc: Doc, sent: Span, j: int) -> list[Candidate]:
        """The name after "our proposed/novel/new" ("our proposed Brain Network Transformer", "Our proposed Sparse
        Interaction Additive Networks (SIAN)"), unless the vocabulary knows it ("our proposed MCMC algorithm")."""
        pairs = [a for a in self._abbrev_in(doc, j, j + 1) if a.long_start == j < a.short_start
                 and a.short_end <= sent.end and self._new_pair(doc, a)]
        if pairs and doc[j].text[:1].isupper():
            return [pairs[0].proposed(doc, "METHOD")]
        run = _run(doc, j, sent.end, self.known)
        if run is None or _phrase_start(doc, run, sent.end) or run[1] < sent.end and not doc[run[1] - 1].whitespace_ \
                and doc[run[1]].text[:1].isalnum():
            return []  # (nor a name cut inside a word: "S2" of "S2M")
        if doc[run[1] - 1].lower_.endswith(MODIFIER_SUFFIXES) or _modifier_before_head(doc, run):
            return []  # "our proposed Transformer-based model", "our new Bayesian approach"
        text = doc[run[0]:run[1]].text
        if any(a.short_text(doc) == text and a.long_text(doc).lower() in self.known for a in abbreviations(doc)):
            return []  # the abstract's short form of a known name: "multiple instance learning (MIL)"
        return [Candidate(run[0], run[1], _label_for_head(doc, run[1]), "proposed", proposed=True)]

    def _the_proposed(self, doc: Doc, sent: Span, i: int) -> list[Candidate]:
        """The coined name after "the proposed" at token ``i`` ("The proposed Neural SPDE model provides ...", "the
        proposed IB-GP model", "the proposed SASE is tested ..."): in an abstract, the paper's own. A coined word or
        two title-cased words, unknown to the vocabulary, and not the short form of a phrase the abstract defines in
        lower case ("conditional independence (CI)": "the proposed CI test" is a test of it)."""
        found = [c for c in self._our_name(doc, sent, i + 1) if c.label == "METHOD"]
        if not found:
            return []
        name = doc[found[0].start:found[0].end]
        before = [k for k in positions_of(doc, [name[0].text]) if k < name.start]
        if before and not any(_is_authors_sentence(sentence(doc, k), k) for k in before):
            return []  # others' name the abstract wrote before: "Li et al. introduced TreeNet ... the proposed TreeNet"
        coined = any(_COINED.search(part) for part in name.text.split("-")) or _title_cased(name)
        described = any(a.short_text(doc) == name.text and not _title_cased(a.long(doc)) for a in abbreviations(doc))
        return found if coined and not described else []

    def _listed_after_colon(self, doc: Doc, sent: Span, verb: int) -> list[Candidate]:
        """New names listed after a colon that ends the authors' proposal ("we present the first distributed methods
        for ...: MASHA1 and MASHA2.")."""
        orth = column(doc, ORTH)
        colon = next((k for k in range(verb + 1, sent.end) if orth[k] == _COLON), None)
        listed = _listed_from(doc, colon + 1, sent.end, self.known) if colon is not None else []
        if not listed or not all(t.is_punct for t in doc[listed[-1][1]:sent.end]):
            return []  # the list ends the sentence: names, not the start of a clause
        return [Candidate(a, b, "METHOD", "proposed", proposed=True) for a, b in listed]

    def _components(self, doc: Doc, after: int, taken: list[Candidate]) -> list[Candidate]:
        """Coined abbreviations defined after the proposal, title-cased or with a short form in mixed case, are parts
        of the proposed method ("MoEQuant includes two novel techniques: 1) Expert-Balanced Self-Sampling (EBSS) ...",
        "a dual architecture of an image-conditioned discrete variational autoencoder (CdVAE) branch")."""
        out = []
        for a in abbreviations(doc):
            lo = min(a.long_start, a.short_start)
            if lo < after or any(c.start <= lo < c.end for c in taken):
                continue
            nxt = max(a.long_end, a.short_end)
            nxt += nxt < len(doc) and doc[nxt].text == ")"  # the word after the pair and its bracket
            if nxt < len(doc) and doc[nxt].lower_ in TASK_WORDS:
                continue  # what a task is of: "Mechanism-Of-Action (MoA) classification"
            if a.people_by(doc):
                continue  # "a value from game theory proposed by Hamiache and Navarro (HN)"
            long, short = a.long(doc), a.short(doc)
            words = [t for t in long if t.text[:1].isalpha() and len(t) > 3]
            coined = len(words) >= 2 and all(t.text[0].isupper() for t in words) or _mixed_case_short(short, long) \
                or lo > 0 and doc[lo - 1].lower_ in _NOVEL and a.long_start < a.short_start  # "a novel sparse instance
            # recognition (SIR) module" of the method the paper proposed before
            if coined and long.text.lower() not in self.known and short.text.lower() not in self.known \
                    and (label_from_words(long.text) == "METHOD" or nxt < len(doc) and doc[nxt].lower_ in HEADS) \
                    and _OTHERS_OR_COMPARED.isdisjoint([t.lower_ for t in doc[sentence(doc, lo).start:lo]]):
                out.append(a.proposed(doc, "METHOD"))  # (not others' work: "unlike other existing uncertainty
                # measures such as BALD, Entropy, or Mean Standard Deviation (MeanSD)", "we also compare with
                # Curriculum by Smoothing (CBS)")
        return out

    def _coordinated(self, doc: Doc, first: int, taken: list[Candidate]) -> list[Candidate]:
        """New abbreviation pairs a sentence lists after its first own name (at ``first``), each after a comma or
        "and", are the paper's too ("we propose task-aware dynamic masking (TDM) to learn ..., dynamic data removal
        (DDR) to remove ..., and dynamic gradient masking (DGM) to ..."): no known name, a method's words, no
        example, comparison or clause about other work before it ("models such as Linear Quadratic Gaussian (LQG)",
        "compare ... with", "UPL, which generalizes CPN, PEL and AFT") and no task after it."""
        out = []
        sent = sentence(doc, first)
        start, end = sent.start, sent.end
        for a in abbreviations(doc):
            lo = min(a.long_start, a.short_start)
            if not first < lo < end or any(c.start <= lo < c.end for c in taken):
                continue
            k = lo - 1
            while k > first and doc[k].lower_ in _ARTICLES:
                k -= 1
            if doc[k].text != "," and doc[k].lower_ != "and":
                continue
            nxt = max(a.long_end, a.short_end)
            nxt += nxt < len(doc) and doc[nxt].text == ")"
            if nxt < len(doc) and doc[nxt].lower_ in TASK_WORDS or _NOT_OWN_LIST.intersection(
                    t.lower_ for t in doc[start:lo]):
                continue  # what a task is of ("Vision-Language (VL) understanding tasks"), examples of others',
                # what the own name is compared with ("We compare our proposed SignRP with ..., KLSH (kernel LSH)")
            long, short = a.long(doc), a.short(doc)
            if long.text.lower() in self.known or short.text.lower() in self.known \
                    or label_from_words(long.text) != "METHOD":
                continue
            out.append(a.proposed(doc, "METHOD"))
        return out

    def __call__(self, doc: Doc) -> Doc:
        out = candidates(doc)
        found: list[Candidate] = []
        sentences: dict[int, tuple[Span, list[Token]]] = {}
        novel = positions(doc, _NOVEL)  # "a novel Pathway Attention mechanism"
        dashes = positions(doc, _DASHES, ORTH)  # "a new method---sparse Hamiltonian flows---that ..."
        for i in positions(doc, _TRIGGERS):  # only sentences with a proposal verb, a naming word or "our"
            sent = sentence(doc, i)
            sentences.setdefault(sent.start, (sent, []))[1].append(doc[i])
        for sent, triggers in sentences.values():  # the rules visit only the trigger words, in text order
            named = self._named(doc, sent, triggers)
            for tok in triggers:
                if _proposing(tok) and _is_authors_sentence(sent, tok.i) and not named:
                    objects = self._objects(doc, sent, tok.i + 1, pairs_only=tok.lower_ in _PAIR_VERBS)
                    found += [c for c in objects if tok.lower_ not in _COLLECTING or c.start == tok.i + 1]
            found += named + self._our_method(doc, sent, triggers)
            verbs = [t.i for t in triggers if _proposing(t)]
            if verbs and not named and _is_authors_sentence(sent, verbs[0]):
                found += self._listed_after_colon(doc, sent, verbs[0])
            if dashes:
                found += [c for c in self._dashed(doc, sent, verbs, dashes)
                          if not any(f.start <= c.start < f.end for f in found)]
            for k in novel:
                if sent.start <= k < sent.end - 2 and verbs and verbs[0] < k:
                    found += [c for c in self._novel_names(doc, sent, k)
                              if not any(f.start <= c.start < f.end for f in found)]
        lower = column(doc, LOWER)
        for i in positions(doc, _CONTRIBUTION):  # "Our main contribution is Matryoshka Representation Learning (MRL)"
            sent = sentence(doc, i)
            if i + 2 < sent.end and lower[i + 1] in _IS_ARE_IDS \
                    and any(lower[k] == _OUR for k in range(max(sent.start, i - 3), i)) \
                    and not any(c.start >= i + 2 and c.end <= sent.end for c in found):
                found += self._objects(doc, sent, i + 2)
        for i in positions(doc, _PROPOSED):
            if i > 0 and lower[i - 1] == _THE and not any(c.start <= i + 1 < c.end for c in found):
                found += self._the_proposed(doc, sentence(doc, i), i)
        # One common word is never a name of its own ("Active exploration for ...", "Rendering"), nor a word for the
        # paper's own method ("termed as \\OURS": a LaTeX macro the paper's preamble defines as its name).
        spec = load_specificity()
        found = [c for c in found if not (c.end - c.start == 1 and (self.plain_word(span_text(doc, c.start, c.end))
                                                                   or doc[c.start].lower_ in _OURS))
                 and spec.reason(span_text(doc, c.start, c.end), c.label) != "hardware or software"
                 and not before_condition(doc, c.end)]
        # (nor is hardware or software: "an algorithm achieving TPU (Google Tensor Processing Unit) peak performance";
        # nor a condition: "we establish the first optimal rate when ... satisfy the Polyak-Lojasiewicz (PL) condition")
        first = min((c.start for c in found if c.proposed or c.label == "METRIC"), default=None)  # (a new metric
        # is the authors' too: the coined names defined after it are their methods)
        firsts: dict[int, int] = {}  # per sentence with an own name: where the first one starts
        for c in found:
            if c.proposed:
                sent_start = sentence(doc, c.start).start
                firsts[sent_start] = min(firsts.get(sent_start, c.start), c.start)
        for start in sorted(firsts.values()):
            found += self._coordinated(doc, start, found)
        if first is not None:
            found += self._components(doc, sentence(doc, first).end, found)
        if found:  # nor the field's abbreviations: "a novel analogy between a Markov Decision Process (MDP) and ..."
            found = _without_standard_pairs(doc, found)
        out += found
        return doc


def _without_standard_pairs(doc: Doc, found: list[Candidate]) -> list[Candidate]:
    """``found`` without the candidates that overlap an abbreviation of the field's (:func:`_standard_pair`)."""
    for a in abbreviations(doc):
        lo, hi = min(a.long_start, a.short_start), max(a.long_end, a.short_end)
        for c in found:
            if c.start < hi and lo < c.end:
                if _standard_pair(doc, a):
                    found = [c for c in found if not (c.start < hi and lo < c.end)]
                break
    return found


def _told(doc: Doc, sent: Span, naming: int, fresh: bool) -> bool:
    """Whether the name the naming word at ``naming`` gives is told of others' work: neither the authors' sentence
    nor a new thing's description (``fresh``), and no "our", "novel", "new" or "proposed" before it ("Boob et al.
    recently gave a fast iterative algorithm called Greedy++"; not "Our encoder is a novel ... architecture called
    Topoformer")."""
    return not fresh and not _is_authors_sentence(sent, naming) \
        and _OUR_NEW_OWN.isdisjoint([t.lower_ for t in doc[sent.start:naming]])


def _standard_pair(doc: Doc, a: Abbreviation) -> bool:
    """Whether an abbreviation the doc defines is one the field defines alike in many papers
    (:func:`kg.nlp.components.specificity.standard_pairs`): "ordinary differential equation (ODE)", not "Group
    Discrimination (GD)"."""
    longs = standard_pairs().get(concept_key(a.short_text(doc)))
    return longs is not None and concept_key(a.long_text(doc)) in longs


_CONDITION_HEAD_IDS = ids(lexicon.words("condition_heads"))
_CLOSING_IDS = ids(frozenset(")]\"'\u201d\u2019"))


def before_condition(doc: Doc, end: int) -> bool:
    """Whether the word after token ``end`` (past closing brackets and quotes) names a condition, property or
    assumption and ends the phrase there: "the Polyak-Lojasiewicz (PL) condition", "a \u201cWhat You See Is What You
    Get\u201d (WYSIWYG) property" (not "the DKTS hypothesis test", "the condition number")."""
    orth, lower, n = column(doc, ORTH), column(doc, LOWER), len(doc)
    while end < n and orth[end] in _CLOSING_IDS:
        end += 1
    if end >= n or lower[end] not in _CONDITION_HEAD_IDS:
        return False
    nxt = doc.vocab.strings[lower[end + 1]] if end + 1 < n else ""
    return not nxt.isalpha() or nxt in PHRASE_BREAKS or nxt.endswith(("ed", "ing"))


@Language.factory("kg_proposed", default_config={"directory": ""})
def make_proposed(nlp: Language, name: str, directory: str) -> ProposedFinder:
    return ProposedFinder(directory)
