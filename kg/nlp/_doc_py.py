"""The Python twin of ``kg/nlp/_doc.pyx``: the same functions and classes, reading a ``Doc`` through spaCy's
``to_array`` and writing it through ``from_array`` instead of through its token array.

kg imports it as ``kg.nlp._doc`` when the extension is not built, is older than ``_doc.pyx``, or
``KG_PURE_PYTHON`` asks for Python (:mod:`kg.compiled`). The values are those of the compiled module, which are
``to_array``'s (unsigned 64-bit: a SENT_START of -1 is 2**64 - 1), and the writes leave a doc as ``from_array``
leaves it; tests/test_twins.py holds the two to each other.
"""
from __future__ import annotations

import operator
from collections.abc import Iterable, Iterator

import numpy
from spacy.attrs import IDX, IS_PUNCT, LENGTH, LOWER, ORTH, PREFIX, SENT_START, SHAPE, SUFFIX, ENT_IOB, ENT_TYPE
from spacy.tokenizer import Tokenizer
from spacy.tokens import Doc
from spacy.vocab import Vocab

_MAX = 2 ** 64
# Attributes whose values a doc's annotations never change: the lexemes' (flags below 64, strings) and the offsets.
_FIXED = frozenset({ORTH, LOWER, SHAPE, PREFIX, SUFFIX, LENGTH, IDX, -1})


def _id(value) -> int:
    """``value`` as a 64-bit attribute value (OverflowError outside 0 to 2**64 - 1, as a C ``attr_t``)."""
    h = operator.index(value)
    if not 0 <= h < _MAX:
        raise OverflowError(f"{h} is not a 64-bit unsigned value")
    return h


def _values(doc: Doc, attr: int) -> list[int]:
    """``to_array``'s values of ``attr`` for every token (0 for an attribute spaCy does not know)."""
    return doc.to_array([attr]).reshape(len(doc)).tolist()


def _ends(doc: Doc) -> list[int]:
    """The character offset after each token."""
    cols = doc.to_array([IDX, LENGTH]).reshape(len(doc), 2)
    return (cols[:, 0] + cols[:, 1]).tolist()


def _matrix(out) -> numpy.ndarray:
    """``out`` as a writable, C-contiguous 2-d uint64 numpy array sharing its memory (ValueError otherwise, as
    Cython's typed memoryview)."""
    view = memoryview(out)
    if view.readonly or not view.c_contiguous or view.ndim != 2 or view.itemsize != 8 or \
            view.format.lstrip("@=") not in ("L", "Q"):
        raise ValueError(f"Buffer dtype mismatch: expected a writable C-contiguous 2-d array of unsigned 64-bit "
                         f"values, got format '{view.format}', {view.ndim}-d")
    return numpy.asarray(view)


def _check_fits(out: numpy.ndarray, row: int, rows: int, at: int, n: int) -> None:
    if row < 0 or row + rows > out.shape[0] or at < 0 or at + n > out.shape[1]:
        raise IndexError(f"{rows} rows of {n} values at ({row}, {at}) do not fit an array of shape "
                         f"({out.shape[0]}, {out.shape[1]})")


class Column:
    """One attribute of every token of a doc (or, with ``attr`` -1, the character offset after each token): a
    read-only list of the values ``doc.to_array([attr])`` gives, taking negative indices and slices as a list does.
    The lexemes' attributes and the offsets are read once; annotations (SENT_START, ENT_IOB...) on every use."""

    def __init__(self, doc: Doc, attr: int) -> None:
        if not isinstance(doc, Doc):
            raise TypeError(f"Argument 'doc' has incorrect type (expected spacy.tokens.doc.Doc, got "
                            f"{type(doc).__name__})")
        self.doc, self.attr = doc, operator.index(attr)
        self._fixed: list[int] | None = None

    def _all(self) -> list[int]:
        if self.attr not in _FIXED and not 0 <= self.attr < 64:
            return _values(self.doc, self.attr)
        if self._fixed is None:
            self._fixed = _ends(self.doc) if self.attr == -1 else _values(self.doc, self.attr)
        return self._fixed

    def __len__(self) -> int:
        return len(self.doc)

    def __getitem__(self, index):
        values = self._all()
        if isinstance(index, slice):
            return values[index]
        i = operator.index(index)
        if i < 0:
            i += len(values)
        if not 0 <= i < len(values):
            raise IndexError("column index out of range")
        return values[i]

    def __iter__(self) -> Iterator[int]:
        return iter(list(self._all()))

    def __eq__(self, other) -> bool:
        return list(self) == other

    __hash__ = None


def span_text(doc: Doc, text: str, start: int, end: int) -> str:
    """``text[start token's IDX : end of token end - 1]``: the text of tokens ``[start, end)`` cut from the doc's
    text (empty when ``end <= start``)."""
    if end <= start:
        return ""
    if not 0 <= start < end <= len(doc):
        raise IndexError(f"token range [{start}, {end}) outside a doc of {len(doc)} tokens")
    last = doc[end - 1]
    return text[doc[start].idx:last.idx + len(last)]


class IdSet:
    """A set of string ids (64-bit attribute values) that a token's value is tested against."""

    def __init__(self, ids: Iterable = ()) -> None:
        self._ids: set[int] = set()
        self._array: numpy.ndarray | None = None
        for h in ids:
            self.add(h)

    def add(self, h) -> None:
        """Add the id ``h``."""
        self._ids.add(_id(h))
        self._array = None

    def _held(self) -> numpy.ndarray:
        """The ids held, as a uint64 array."""
        if self._array is None:
            self._array = numpy.fromiter(self._ids, dtype=numpy.uint64, count=len(self._ids))
        return self._array

    def __contains__(self, h) -> bool:
        return _id(h) in self._ids

    def __len__(self) -> int:
        return len(self._ids)


def _id_set(ids, name: str) -> IdSet:
    if not isinstance(ids, IdSet):
        raise TypeError(f"Argument '{name}' has incorrect type (expected IdSet, got {type(ids).__name__})")
    return ids


def sentence_starts(doc: Doc, finals: IdSet) -> list:
    """Token indices that start a sentence: the first token, and the first token that is neither in ``finals``
    (ORTH ids of sentence-final characters) nor punctuation after one in ``finals``."""
    held = _id_set(finals, "finals")._ids
    n = len(doc)
    out = [0] if n else []
    seen_final = False
    cols = doc.to_array([ORTH, IS_PUNCT]).reshape(n, 2).tolist()
    for i, (orth, punct) in enumerate(cols):
        final = orth in held
        if seen_final and not final and not punct:
            out.append(i)
            seen_final = False
        elif final:
            seen_final = True
    return out


def set_sentence_starts(doc: Doc, starts) -> None:
    """Mark the tokens at ``starts`` as sentence starts (1) and every other token as inside a sentence (-1), as
    ``doc.from_array([SENT_START], ...)`` does."""
    n = len(doc)
    values = numpy.full(n, _MAX - 1, dtype=numpy.uint64)
    try:
        for s in starts:
            i = operator.index(s)
            if not 0 <= i < n:
                raise IndexError(f"sentence start {s} outside a doc of {n} tokens")
            values[i] = 1
    finally:  # what was marked before a start outside the doc stays marked, as in the compiled module
        if n:
            doc.from_array([SENT_START], values.reshape(n, 1))


def set_entities(doc: Doc, ents) -> None:
    """``doc.ents`` from ``(start, end, label id)`` token ranges that do not overlap: B (3) on each entity's first
    token, I (1) on the rest, O (2) with no type on every other token, as ``doc.from_array([ENT_IOB, ENT_TYPE],
    ...)`` writes them."""
    n = len(doc)
    values = numpy.zeros((n, 2), dtype=numpy.uint64)
    values[:, 0] = 2
    try:
        for s, e, lab in ents:
            start, end, label = operator.index(s), operator.index(e), _id(lab)
            if not 0 <= start < end <= n:
                raise IndexError(f"entity [{start}, {end}) outside a doc of {n} tokens")
            values[start] = (3, label)
            values[start + 1:end] = (1, label)
    finally:
        if n:
            doc.from_array([ENT_IOB, ENT_TYPE], values)


def fill_rows(doc: Doc, attrs, out, at: int) -> None:
    """Write attribute ``attrs[r]`` of every token into row ``r`` of ``out``, from column ``at`` on (the tagger's
    batch columns), as ``doc.to_array(attrs).T`` gives them."""
    out = _matrix(out)
    n, attrs = len(doc), list(attrs)
    _check_fits(out, 0, len(attrs), at, n)
    if n and attrs:
        out[:len(attrs), at:at + n] = doc.to_array(attrs).reshape(n, len(attrs)).T


def where(doc: Doc, attr: int, ids: IdSet) -> list:
    """Indices of the tokens whose value of ``attr`` is in ``ids``, in order."""
    held = _id_set(ids, "ids")
    if not len(held) or not len(doc):
        return []
    values = numpy.asarray(_values(doc, attr), dtype=numpy.uint64)
    return numpy.flatnonzero(numpy.isin(values, held._held())).tolist()


def distinct_missing(doc: Doc, attr: int, known: IdSet) -> list:
    """The values of ``attr`` in ``doc`` that ``known`` does not hold, each once, in order of first use."""
    held = _id_set(known, "known")._ids
    return [h for h in dict.fromkeys(_values(doc, attr)) if h not in held]


class PhraseIndex:
    """Token sequences (of one attribute's values, e.g. LOWER ids) with their keys, found in a doc as spaCy's
    ``PhraseMatcher`` finds them: ``(key, start, end)`` for every occurrence, by start, then by length, then in
    the order the keys were added. A trie whose edges are a dict keyed by (node, token)."""

    def __init__(self, attr: int) -> None:
        self.attr = operator.index(attr)
        self._edges: dict[tuple[int, int], int] = {}
        self._keys: list[list[int]] = [[]]  # per node, the keys of the sequences ending there; node 0 the root

    def add(self, key, tokens) -> None:
        """Add the sequence of values ``tokens`` (none: ignored, as the PhraseMatcher ignores an empty pattern)
        under ``key``."""
        key = _id(key)
        if not len(tokens):
            return
        node = 0
        for value in tokens:
            edge = (node, _id(value))
            child = self._edges.get(edge)
            if child is None:
                child = self._edges[edge] = len(self._keys)
                self._keys.append([])
            node = child
        if key not in self._keys[node]:
            self._keys[node].append(key)

    def __call__(self, doc: Doc) -> list:
        """``(key, start, end)`` of every occurrence in ``doc``."""
        tokens, edges, keys = _values(doc, self.attr), self._edges, self._keys
        n, out = len(tokens), []
        for start in range(n):
            node = edges.get((0, tokens[start]), -1)
            end = start + 1
            while node >= 0:
                out.extend((key, start, end) for key in keys[node])
                if end == n:
                    break
                node = edges.get((node, tokens[end]), -1)
                end += 1
        return out

    def __len__(self) -> int:
        """The number of distinct sequences held."""
        return sum(1 for keys in self._keys if keys)


class Trimmer:
    """Trims the frayed edges of a token range (a greedy tagger's entity: "adaptive modeling of", "(mentioned"):
    leading and trailing edge words, punctuation other than brackets, leading words (``leading``) and trailing
    words (``trailing``), a dangling bracket and what follows it. The word sets hold lower-case ids (``opens``,
    ``closes``, ``brackets``: the texts of opening, closing and all brackets, by ORTH id). The rule is
    :func:`kg.nlp.combine.trim`'s, which calls this."""

    def __init__(self, edge: IdSet, leading: IdSet, trailing: IdSet, opens: IdSet, closes: IdSet,
                 brackets: IdSet) -> None:
        names = ("edge", "leading", "trailing", "opens", "closes", "brackets")
        self.edge, self.leading, self.trailing, self.opens, self.closes, self.brackets = (
            _id_set(s, name)._ids for s, name in zip((edge, leading, trailing, opens, closes, brackets), names))

    def _frayed(self, lower: list[int], orth: list[int], punct: list[int], k: int, at_end: bool, start: int,
                end: int) -> bool:
        if lower[k] in self.edge or (punct[k] and orth[k] not in self.brackets):
            return True
        if lower[k] in (self.trailing if at_end else self.leading):
            return True
        if orth[k] in self.opens:
            return at_end
        if orth[k] in self.closes:
            if not at_end:
                return True
            return not any(orth[i] in self.opens for i in range(start, end - 1))
        return False

    def trim(self, doc: Doc, start: int, end: int) -> tuple:
        """``(start, end)`` without the frayed edges."""
        n = len(doc)
        if not 0 <= start <= end <= n:
            raise IndexError(f"token range [{start}, {end}) outside a doc of {n} tokens")
        cols = doc.to_array([LOWER, ORTH, IS_PUNCT]).reshape(n, 3).T.tolist() if n else [[], [], []]
        lower, orth, punct = cols
        frayed = self._frayed
        depth, opened = 0, -1
        while start < end and frayed(lower, orth, punct, start, False, start, end):
            start += 1
        for i in range(start, end):  # an unclosed bracket and what follows it ("Stanford twitter corpus (mentioned")
            if orth[i] in self.opens:
                if depth == 0:
                    opened = i
                depth += 1
            elif orth[i] in self.closes and depth:
                depth -= 1
            elif orth[i] in self.closes:  # a bracket closed that opened before the entity: "NYT) corpus"
                start = i + 1
        while start < end and frayed(lower, orth, punct, start, False, start, end):
            start += 1
        if depth == 1 and end < n and orth[end] in self.closes:
            end += 1  # the bracket closes just after the entity: "ICDAR 2015 Incidental (Challenge 4)"
        elif depth and opened >= 0:
            end = opened
        while end > start and frayed(lower, orth, punct, end - 1, True, start, end):
            end -= 1
        return start, end


def fill_starts(doc: Doc, out, row: int, at: int) -> None:
    """``out[row, at + i]`` = 1 where token ``i`` starts a sentence (SENT_START 1) or is the doc's first, else 0."""
    out = _matrix(out)
    n = len(doc)
    _check_fits(out, row, 1, at, n)
    if n:
        starts = doc.to_array([SENT_START]).reshape(n) == 1
        starts[0] = True
        out[row, at:at + n] = starts


def tokenize(tokenizer: Tokenizer, string: str) -> Doc:
    """``tokenizer(string)`` (the compiled twin caches more of the text's chunks; the tokens are the same)."""
    return Tokenizer.__call__(tokenizer, string)


def _check_pairs(table) -> None:
    """Raise ValueError unless ``table`` is None or 128 x 129 bytes (a byte per pair of ASCII characters)."""
    if table is not None and not (type(table) is bytes and len(table) == 128 * 129):
        raise ValueError("pairs: None or 128 x 129 bytes")


class MatchNeeding:
    """A compiled expression's ``match`` for an expression every match of which holds the character ``needed``, as
    :meth:`match`: None without the expression for a string that lacks it (see the compiled twin)."""

    __slots__ = ("full", "needed", "pattern")

    def __init__(self, full, needed: str) -> None:
        if not isinstance(needed, str):
            raise TypeError("MatchNeeding: needed, a str")
        if len(needed) != 1:
            raise ValueError("needed: one character")
        self.full, self.needed = full, needed
        self.pattern = getattr(getattr(full, "__self__", None), "pattern", None)

    def match(self, string: str):
        """``full(string)``."""
        if string is not None and self.needed not in string:
            return None
        return self.full(string)


class PrefixSearch:
    """``re.compile(pattern).search`` for spaCy's prefix expression, as :meth:`search`: the same span, None without
    the expression for a string whose first character no piece can start with (see the compiled twin)."""

    __slots__ = ("full", "pattern", "_starts")

    def __init__(self, full, starts: bytes) -> None:
        if not isinstance(starts, bytes):
            raise TypeError("PrefixSearch: starts, a bytes")
        if len(starts) != 128:
            raise ValueError("starts: a byte per ASCII character")
        self.full, self.pattern, self._starts = full, full.pattern, starts

    def search(self, string: str):
        """``full.search(string)``'s span."""
        if not string or ord(string[0]) < 128 and not self._starts[ord(string[0])]:
            return None
        return self.full.search(string)


class SuffixSearch:
    """``re.compile(pattern).search`` for spaCy's suffix expression, as :meth:`search`: the same span, trying at
    each position only the pieces that can end the string from there (see the compiled twin)."""

    __slots__ = ("full", "unbounded", "pattern", "longest", "_by_length", "_pairs")

    def __init__(self, full, unbounded, by_length: list, pairs: list) -> None:
        if not isinstance(by_length, list) or not isinstance(pairs, list):
            raise TypeError("SuffixSearch: lists of expressions and of tables of pairs")
        if len(by_length) != len(pairs) or not by_length:
            raise ValueError("SuffixSearch: one expression and one table of pairs per length from 0")
        for table in pairs:
            _check_pairs(table)
        self.full, self.unbounded, self.pattern = full, unbounded, full.pattern
        self._by_length, self._pairs, self.longest = by_length, pairs, len(by_length) - 1

    def search(self, string: str):
        """``full.search(string)``'s span."""
        n = len(string)
        if string.endswith("\n"):
            return self.full.search(string)
        if self.unbounded is not None and n > self.longest:
            m = self.unbounded.search(string)
            if m is not None and m.start() < n - self.longest:
                return m
        for r in range(min(self.longest, n), -1, -1):
            expression, pairs = self._by_length[r], self._pairs[r]
            if expression is None:
                continue
            if r and pairs is not None:
                c, b = ord(string[n - r]), ord(string[n - r - 1]) if r < n else 128  # (128: nothing before)
                if c < 128 and (b < 128 or r == n) and not pairs[c * 129 + b]:
                    continue
            m = expression.match(string, n - r)
            if m is not None:
                return m
        return None


class InfixFinder:
    """``re.compile(pattern).finditer`` for spaCy's infix expression, as :meth:`finditer`: the same matches (see the
    compiled twin)."""

    __slots__ = ("full", "pattern", "_pairs")

    def __init__(self, full, pairs) -> None:
        _check_pairs(pairs)
        self.full, self.pattern, self._pairs = full, full.pattern, pairs

    def finditer(self, string: str):
        """``full.finditer(string)``."""
        if self._pairs is None:
            return self.full.finditer(string)
        before = 128  # (nothing before the first character)
        for c in map(ord, string):
            if c >= 128 or self._pairs[c * 129 + before]:
                return self.full.finditer(string)
            before = c
        return iter(())


def lexeme_getters(getters: dict) -> dict:
    """``getters`` (a vocab's ``lex_attr_getters``) as they are: the compiled twin puts compiled copies of spaCy's
    functions in their place, which return the same."""
    if not isinstance(getters, dict):
        raise TypeError("lexeme_getters: a dict of functions")
    return dict(getters)


def fast_lexemes(vocab: Vocab) -> None:
    """Makes ``vocab``'s new lexemes with a compiled copy of spaCy's method in the compiled twin; here spaCy's own
    makes them (the same lexemes)."""
    if not isinstance(vocab, Vocab):
        raise TypeError("fast_lexemes: a Vocab")


class RuleSpans:
    """A doc's rule candidates (objects with ``start``, ``end``, ``label`` and ``extractor``) by their token spans,
    read once. ``named_by``: the extractors whose spans :meth:`named` asks about."""

    __slots__ = ("rules", "named_by", "_spans")

    def __init__(self, rules: list, named_by: frozenset = frozenset()) -> None:
        if not isinstance(rules, list) or not isinstance(named_by, frozenset):
            raise TypeError("RuleSpans: a list of rules and a frozenset of extractors")
        self.rules, self.named_by = rules, named_by
        self._spans = [(operator.index(c.start), operator.index(c.end)) for c in rules]

    def overlapping(self, start: int, end: int) -> list:
        """The rules with ``c.start < end and start < c.end``, in their order."""
        return [c for c, (a, b) in zip(self.rules, self._spans) if a < end and start < b]

    def named(self, start: int, end: int, label) -> bool:
        """Whether a rule of an extractor in ``named_by`` spans exactly ``[start, end)`` with ``label``."""
        return any((a, b) == (start, end) and c.label == label and c.extractor in self.named_by
                   for c, (a, b) in zip(self.rules, self._spans))


def fill_candidates(cands: list, out, full_row: int, short_row: int, at: int, n: int, priority: dict,
                    codes) -> None:
    """The tagger's candidate columns of a doc of ``n`` tokens: per token ``i``, into ``out[full_row, at + i]`` and
    ``out[short_row, at + i]``, the two codes of the highest-priority candidate covering it (the first of equal
    ones), 0 where none does. ``priority``: extractor -> priority (0 if missing); ``codes(label, extractor,
    proposed)``: a candidate's (full, short) codes for a unit token, the first, inside and last tokens. The model's
    candidates (extractor ``model...``) are left out; tokens outside ``[0, n)`` are ignored."""
    if not isinstance(cands, list) or not isinstance(priority, dict):
        raise TypeError("fill_candidates: a list of candidates and a dict of priorities")
    out = _matrix(out)
    _check_fits(out, full_row, 1, at, n)
    _check_fits(out, short_row, 1, at, n)
    full, short, prio = [0] * n, [0] * n, [-1] * n
    for c in cands:
        extractor = c.extractor
        if extractor.startswith("model"):
            continue
        start, end = c.start, c.end
        p = priority.get(extractor, 0)
        pairs = codes(c.label, extractor, c.proposed)
        for k in range(max(start, 0), min(end, n)):
            if p > prio[k]:
                full[k], short[k] = pairs[0 if end - start == 1 else 1 if k == start else 3 if k == end - 1 else 2]
                prio[k] = p
    out[full_row, at:at + n] = numpy.array([_id(v) for v in full], dtype=numpy.uint64)
    out[short_row, at:at + n] = numpy.array([_id(v) for v in short], dtype=numpy.uint64)
