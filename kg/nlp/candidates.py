"""Candidate mentions that rule components put on a Doc, before the final selection.

Each component appends ``Candidate`` records to ``doc._.kg_candidates``; ``kg_mentions`` then
resolves overlaps by priority. Keeping candidates (rather than writing ``doc.ents`` directly) lets
each component stay ignorant of the others.
"""
from __future__ import annotations

from bisect import bisect_left, bisect_right
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from spacy.attrs import LIKE_NUM, LIKE_URL, LOWER, ORTH, SENT_START, SHAPE
from spacy.strings import get_string_id
from spacy.tokens import Doc, Span, Token

from kg.nlp import _doc  # compiled, or its Python twin (kg/compiled.py)

# Higher wins when candidates overlap.
# "model_extension": a model entity that strictly contains same-label gazetteer/context matches (kg/nlp/combine.py);
# "model_phrase": a model entity around a whole abbreviation pair or around names with a head word ("EM algorithm").
PRIORITY = {"proposed": 100, "model_phrase": 75, "abbreviation": 70, "title_means": 68, "title_topic": 66,
            "model_extension": 65, "gazetteer": 60, "context": 40, "model": 30, "name": 10}


# Candidate and Abbreviation are extension types where this module is compiled (candidates.pxd declares their
# fields): the compiled rules that cimport them read their fields as C struct members. (Cython's dataclasses take
# no ``slots``, which an extension type has no use for.)
@dataclass
class Candidate:
    start: int  # token index
    end: int  # token index, exclusive
    label: str
    extractor: str
    canonical: str | None = None  # None: the span's own text
    proposed: bool = False
    benchmark: bool = False
    confidence: float = 1.0
    generic: bool = False  # names a class of things ("linear models"): a mention, not a concept

    @property
    def priority(self) -> int:
        return PRIORITY.get(self.extractor, 0)


@dataclass(frozen=True)
class Abbreviation:
    """``long (short)`` or ``short (long)`` defined in the text, as token ranges."""

    long_start: int
    long_end: int
    short_start: int
    short_end: int

    def long(self, doc: Doc) -> Span:
        return doc[self.long_start : self.long_end]

    def short(self, doc: Doc) -> Span:
        return doc[self.short_start : self.short_end]

    def long_text(self, doc: Doc) -> str:
        """``self.long(doc).text`` without making the Span (:func:`span_text`)."""
        return span_text(doc, self.long_start, self.long_end)

    def short_text(self, doc: Doc) -> str:
        """``self.short(doc).text`` without making the Span."""
        return span_text(doc, self.short_start, self.short_end)

    def people_by(self, doc: Doc) -> bool:
        """Whether the long form is people after "by": two capitalised names joined by "and" ("a value proposed
        by Hamiache and Navarro (HN)"), which name no concept and no method of the paper's ("achieved by Global and
        Local Alignment (GLA)" is a method's name)."""
        if self.long_end - self.long_start != 3 or self.long_start == 0 or doc[self.long_start - 1].lower_ != "by":
            return False
        words = [t.text for t in self.long(doc)]
        return words[1] == "and" and all(w.isalpha() and w.istitle() for w in (words[0], words[2]))

    def proposed(self, doc: Doc, label: str) -> Candidate:
        """The pair as one proposed candidate named by its short form (a task is named, not proposed)."""
        return Candidate(min(self.long_start, self.short_start), max(self.long_end, self.short_end), label, "proposed",
                         canonical=self.short_text(doc), proposed=label in ("METHOD", "DATASET"))


for _name in ("kg_candidates", "kg_abbreviations", "kg_mentions", "kg_results", "kg_model_ents"):
    if not Doc.has_extension(_name):
        Doc.set_extension(_name, default=None)


def _extension_key(name: str) -> tuple:
    """Where spaCy keeps ``doc._.<name>`` in ``doc.user_data``. The rules read and write their own extensions
    there: each ``doc._`` makes an ``Underscore`` object (about 2% of the default pipeline's time went to that)."""
    return ("._.", name, None, None)


_CANDIDATES = _extension_key("kg_candidates")
# doc.user_data keys of the other extensions (``doc._.kg_mentions`` is ``doc.user_data[MENTIONS]``)
ABBREVIATIONS, MODEL_ENTS, MENTIONS, RESULTS = map(
    _extension_key, ("kg_abbreviations", "kg_model_ents", "kg_mentions", "kg_results"))


def candidates(doc: Doc) -> list[Candidate]:
    """The doc's candidate list (``doc._.kg_candidates``), created on first use."""
    cands = doc.user_data.get(_CANDIDATES)
    if cands is None:
        cands = doc.user_data[_CANDIDATES] = []
    return cands


def model_entities(doc: Doc) -> list[tuple[int, int, str]] | None:
    """The trained model's entities as token ranges (``doc._.kg_model_ents``), or None when no model ran (``--fast``:
    the rules alone; the default pipeline's tagger and the accurate mode's NER both set them)."""
    return doc.user_data.get(MODEL_ENTS)


def abbreviations(doc: Doc) -> list[Abbreviation]:
    """Abbreviations found by ``kg_abbreviations`` (``doc._.kg_abbreviations``; empty if it did not run)."""
    return doc.user_data.get(ABBREVIATIONS) or []


# Name characters, superscripts among them ("M³ViT"; cleaning reads "ExpTS$^+$" as "ExpTS⁺")
_SUPERSCRIPT_CHARS = frozenset("⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻ⁱⁿ")
_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-+._'^") | _SUPERSCRIPT_CHARS


# Citation keys left in text: "merity2017regularizing" (BibTeX), "Krizhevsky_NIPS2012", "Jarrett_2009".
_CITATION_KEY = re.compile(r"[a-z]+(?:19|20)\d\d[a-z]+|[A-Za-z]+_[A-Za-z]*(?:19|20)\d\d[a-z]*")


def is_namelike(tok: Token) -> bool:
    """True for tokens shaped like a proper name in ML text: ``TabPFNv2``, ``COBRA``, ``Office31``, ``Walrus``
    (not a citation key such as ``merity2017regularizing``)."""
    orth = tok.orth
    shape = _NAME_SHAPES.get(orth)
    if shape is None:  # (by the word's id: reading a token's text decodes and hashes a new str on every call)
        if len(_NAME_SHAPES) >= _MAX_NAME_SHAPES:
            _NAME_SHAPES.clear()
        shape = _NAME_SHAPES[orth] = _name_shape(tok.text, tok.like_url)
    return shape == 1 or (shape == 2 and not tok.is_sent_start)


_NAME_SHAPES: dict[int, int] = {}  # ORTH id -> _name_shape of the word (its text and its LIKE_URL flag)
_MAX_NAME_SHAPES = 65536


def _name_shape(t: str, like_url: bool) -> int:
    """:func:`is_namelike` from the text alone: 0 no, 1 yes, 2 yes unless the word starts a sentence (capitalised)."""
    if len(t) < 2 or not t[0].isalnum() or not any(c.isalpha() for c in t) or not _NAME_CHARS.issuperset(t) or like_url:
        return 0
    if "_" in t or (t[0].islower() and any(c.isdigit() for c in t)):
        if _CITATION_KEY.fullmatch(t) or ("_" in t and not _SUPERSCRIPT_CHARS.isdisjoint(t)):
            return 0  # a citation key, or math written out of a formula ("Vert²_P_X")
    if any(c.isupper() for c in t[1:]):
        return 1
    if t[0].isalpha() and any(c.isdigit() for c in t):
        return 1
    return 2 if t[0].isupper() else 0


def substrings(chars: str) -> frozenset[str]:
    """Every non-empty substring of ``chars``: the texts ``text in chars`` accepts, for comparing ids with
    :func:`ids` instead ("(" and "([" are in "([")."""
    return frozenset(chars[i:j] for i in range(len(chars)) for j in range(i + 1, len(chars) + 1))


@lru_cache(maxsize=1024)
def ids(words: frozenset[str]) -> frozenset[int]:
    """The string ids of a fixed set of words, to test a token's ORTH or LOWER column against without making a Token
    or looking its text up."""
    # The vocab's ids, not raw hashes: spaCy gives some strings ("POS", "ORTH") small symbol ids. Both are the
    # same in every vocab, so they are cached by the words alone.
    return frozenset(get_string_id(w) for w in words)


_COLUMNS = "kg_columns"  # doc.user_data key: attribute id -> its column (the rules ask ~1,500 times per abstract)
_TOKEN_END = -1  # the column of token ends (kg.nlp._doc.Column)


def column(doc: Doc, attr: int) -> Sequence[int]:
    """One attribute of every token (a read-only list that reads the token array when indexed), made once per doc
    and shared by all rules."""
    cols = doc.user_data.get(_COLUMNS)
    if cols is None:
        cols = doc.user_data[_COLUMNS] = {}
    col = cols.get(attr)
    if col is None:
        col = cols[attr] = _doc.Column(doc, attr)
    return col


def positions(doc: Doc, words: frozenset[str], attr: int = LOWER) -> list[int]:
    """Indices of the tokens whose lower-case form (or ``attr``, e.g. ORTH) is in ``words``, found by a typed scan
    of the doc's token array, so rules visit only these tokens instead of iterating the whole doc as Tokens.
    ``words`` should be a fixed set (its ids are cached); for words of one doc use :func:`positions_of`."""
    return _doc.where(doc, attr, _id_set(words)) if words else []


def positions_of(doc: Doc, words: Iterable[str], attr: int = ORTH) -> list[int]:
    """Like :func:`positions`, for words that change from doc to doc (kept out of the cache of fixed sets)."""
    return _doc.where(doc, attr, _doc.IdSet([get_string_id(w) for w in words]))


@lru_cache(maxsize=1024)
def _id_set(words: frozenset[str]) -> _doc.IdSet:
    return _doc.IdSet(ids(words))


@lru_cache(maxsize=4096)
def _model_shape(shape: str) -> bool:
    """Shapes of model-like names: mixed case inside a word (``XxxXxx``) or capitals with digits (``Xxxxd``)."""
    mixed = any(any(c == "X" for c in part[1:]) and "x" in part for part in shape.split("-"))
    return mixed or ("d" in shape and "X" in shape)


class ShapeClass:
    """The word shapes (``Xxxxd``, ``dd.d``) that pass a test of the shape's text, learnt as docs bring new shapes:
    each distinct shape is judged once per process (shapes are few: tens of thousands at most)."""

    def __init__(self, test) -> None:
        self.test = test
        self.judged, self.passed = _doc.IdSet(), _doc.IdSet()

    def tokens(self, doc: Doc) -> list[int]:
        """Indices of the doc's tokens whose shape passes."""
        strings = doc.vocab.strings
        for h in _doc.distinct_missing(doc, SHAPE, self.judged):
            self.judged.add(h)
            if self.test(strings[h]):
                self.passed.add(h)
        return _doc.where(doc, SHAPE, self.passed)


_MODEL_SHAPED = ShapeClass(_model_shape)


def model_shaped(doc: Doc) -> list[int]:
    """Indices of tokens whose shape looks like a model name."""
    return _MODEL_SHAPED.tokens(doc)


# Shapes with a "d" ("d.dd", "Xxxd", "²"); spaCy gives every token of 100 characters or more the shape "LONG" (a
# URL, say), whose text must be read.
_DIGIT_SHAPED = ShapeClass(lambda shape: "d" in shape)
_LONG = _doc.IdSet([get_string_id("LONG")])


def has_number(doc: Doc, start: int, end: int) -> bool:
    """Whether tokens ``[start, end)`` hold a number ("3.5", "ten") or a token with a digit ("GPT-4"), from columns."""
    like_num = column(doc, LIKE_NUM)
    return any(like_num[start:end]) or bool(digit_tokens(doc, start, end))


def digit_tokens(doc: Doc, start: int, end: int) -> list[int]:
    """Indices of the tokens in ``[start, end)`` with a digit in them ("3.5", "82%", "GPT-4", "²")."""
    found = doc.user_data.get(_DIGITS)
    if found is None:  # the whole doc's, once
        found = _DIGIT_SHAPED.tokens(doc)
        long = [k for k in _doc.where(doc, SHAPE, _LONG) if any(c.isdigit() for c in doc[k].text)]
        found = doc.user_data[_DIGITS] = sorted(found + long) if long else found
    return found[bisect_left(found, start):bisect_left(found, end)]


_DIGITS = "kg_digit_tokens"  # doc.user_data key: indices of the tokens with a digit
_YEAR = re.compile(r"(?:19|20)\d\d[a-z]?")  # a cited work's year: "2010", "2019b"
_REFERENCE = re.compile(r"[1-9]\d{0,2}(?:[,\u2013-][1-9]\d{0,2})*|[,\u2013-]")  # "12", "3", ",", "5-7", "1,2"
_CLOSE = {"[": "]", "(": ")"}


def cites_at(doc: Doc, i: int) -> bool:
    """Whether token ``i`` opens a citation: a bracket around authors and a year, opening with a capitalised name and
    closing on the year or "et al." ("[Kapralov and Panigrahy, 2010]", "(Shapley et al.)"), or a square bracket
    around reference numbers ("[12]", "[3, 4]", "[5-7]"; not an interval, "[0, 1]"). A name right before one is
    someone else's; "(covering 1990 to 2020)" or "(2024)" is none."""
    if i >= len(doc) or doc[i].text not in _CLOSE:
        return False
    close = _CLOSE[doc[i].text]
    inside = []
    for k in range(i + 1, min(len(doc), i + 14)):
        if doc[k].text == close:
            break
        inside.append(doc[k].text)
    else:
        return False
    if not inside:
        return False
    if doc[i].text == "[" and all(_REFERENCE.fullmatch(w) for w in inside):
        return True
    first, last = inside[0], inside[-1].lower().rstrip(".")
    return first[:1].isupper() and first.isalpha() and (bool(_YEAR.fullmatch(last)) or last == "al")


def year_cited_at(doc: Doc, i: int) -> bool:
    """Whether tokens from ``i`` are a bracketed year alone, as after an author's name in a narrative citation
    ("Belanger & McCallum (2016) have shown ...", "Smith [2020]"): the name before it is a person's."""
    return i + 2 < len(doc) and doc[i].text in _CLOSE and doc[i + 2].text == _CLOSE[doc[i].text] \
        and bool(_YEAR.fullmatch(doc[i + 1].text))


QUOTES = frozenset("'\"`\u2018\u2019\u201c\u201d")  # quote marks a name may stand in: "a model ('GlassSemNet')"


_POSSESSIVE = re.compile(r"\s?['’]s$")


def strip_possessive(name: str) -> str:
    """A name without a trailing possessive: "Sinkhorn's" (of "Sinkhorn's algorithm") is Sinkhorn."""
    if "'" not in name and "’" not in name:  # most names: no regular expression to run
        return name
    return _POSSESSIVE.sub("", name) or name


TEXT = "kg_text"  # doc.user_data key: the doc's text (kg.nlp.extract puts the text it tokenised there)
FORMULAS = "kg_formulas"  # doc.user_data key: the text's formulas in math letters (kg.corpus.clean.CleanText.formulas)
TITLE = "kg_title"  # doc.user_data key: the paper's title as written, when the input gave one


def doc_text(doc: Doc) -> str:
    """The doc's text, kept in ``doc.user_data`` (``Doc.text`` joins every token of the doc on each call)."""
    text = doc.user_data.get(TEXT)
    if text is None:
        text = doc.user_data[TEXT] = doc.text
    return text


def token_ends(doc: Doc) -> Sequence[int]:
    """The character offset after each token (its IDX plus its length), as a :func:`column`."""
    return column(doc, _TOKEN_END)


def span_text(doc: Doc, start: int, end: int) -> str:
    """The text of tokens ``[start, end)``, as ``doc[start:end].text`` gives it (``Span.text`` makes a Token per
    word), cut from the doc's text at its first token's IDX and its last token's end."""
    text = doc.user_data.get(TEXT)  # (doc_text, inline: ~50 calls per abstract)
    return _doc.span_text(doc, text if text is not None else doc_text(doc), start, end)


SENTENCE_STARTS = "kg_sentence_starts"  # doc.user_data key: token indices that start a sentence (kg_sentencizer sets it)
SENTENCE_SPANS = "kg_sentence_spans"  # doc.user_data key: the sentence Spans made so far, by sentence number


def sentence_starts(doc: Doc) -> list[int]:
    """Token indices that start a sentence, 0 first (``kg_sentencizer`` keeps them; otherwise read once from the
    SENT_START column)."""
    starts = doc.user_data.get(SENTENCE_STARTS)
    if starts is None:
        starts = [k for k, v in enumerate(column(doc, SENT_START)) if v == 1 or k == 0]
        doc.user_data[SENTENCE_STARTS] = starts
    return starts


def sentence_bounds(doc: Doc, i: int) -> tuple[int, int]:
    """The token range ``[start, end)`` of the sentence of token ``i`` (:func:`sentence` without making a Span)."""
    starts = doc.user_data.get(SENTENCE_STARTS) or sentence_starts(doc)  # (inline when kept: ~40 calls per abstract)
    k = bisect_right(starts, i) - 1
    return starts[k], starts[k + 1] if k + 1 < len(starts) else len(doc)


def sentence(doc: Doc, i: int) -> Span:
    """The sentence of token ``i``. ``Token.sent`` walks the tokens on every call; this bisects boundaries read once."""
    starts = doc.user_data.get(SENTENCE_STARTS) or sentence_starts(doc)  # (inline when kept, as sentence_bounds)
    k = bisect_right(starts, i) - 1
    spans = doc.user_data.get(SENTENCE_SPANS)
    if spans is None:  # (not setdefault, which makes an empty dict on every call)
        spans = doc.user_data[SENTENCE_SPANS] = {}
    span = spans.get(k)
    if span is None:
        end = starts[k + 1] if k + 1 < len(starts) else len(doc)
        span = spans[k] = doc[starts[k] : end]
    return span


def namelike_at(doc: Doc, i: int) -> bool:
    """:func:`is_namelike` of token ``i``, read from the doc's columns (no Token made)."""
    orth = column(doc, ORTH)[i]
    shape = _NAME_SHAPES.get(orth)
    if shape is None:
        if len(_NAME_SHAPES) >= _MAX_NAME_SHAPES:
            _NAME_SHAPES.clear()
        shape = _NAME_SHAPES[orth] = _name_shape(doc.vocab.strings[orth], bool(column(doc, LIKE_URL)[i]))
    return shape == 1 or (shape == 2 and column(doc, SENT_START)[i] != 1)
