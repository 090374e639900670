# cython: language_level=3, boundscheck=False, wraparound=False
"""Typed reads and writes of a spaCy ``Doc``'s token array, for the rules' attribute columns and annotations.

``Doc.to_array`` and ``Doc.from_array`` go through numpy and through spaCy's per-value attribute getter and
setter (which acquires the GIL state on every value: ~4,000 per abstract, ~5% of the default pipeline's
instructions went to them). These functions read and write the same fields of ``doc.c`` in one typed loop each,
with the same values (tested against ``to_array``/``from_array`` and Tokens in tests/test_doc_arrays.py):
attribute columns and token ends, sentence starts and entities, the tagger's feature rows; token scans against
``IdSet`` (a C hash set of string ids); ``PhraseIndex``, the gazetteer's phrase matcher; ``Trimmer``, the
frayed-edge rule of :func:`kg.nlp.combine.trim`; :func:`tokenize`, spaCy's tokenizer loop with more of a text's
chunks cached (:class:`kg.nlp.tokenizer.MLTokenizer`); :func:`lexeme_getters`, compiled copies of the functions
that give a new lexeme its attributes, and :func:`fast_lexemes`, a compiled copy of spaCy's method that calls them.
"""
cimport cython
from cpython.mem cimport PyMem_RawMalloc
from cpython.slice cimport PySlice_GetIndicesEx
from cpython.unicode cimport (Py_UNICODE_ISSPACE, PyUnicode_4BYTE_KIND, PyUnicode_AsUTF8AndSize,
                              PyUnicode_FromKindAndData)
from cymem.cymem cimport Pool
from libc.string cimport memcpy
from libcpp.vector cimport vector
from spacy.attrs cimport (ENT_IOB, ENT_TYPE, IDX, IS_PUNCT, LENGTH, LOWER, ORTH, PREFIX, SENT_START, SHAPE, SUFFIX,
                          attr_id_t)
from spacy.lexeme cimport OOV_RANK, Lexeme
from spacy.strings cimport StringStore, hash_utf8
from spacy.structs cimport LexemeC, TokenC
from spacy.tokenizer cimport Tokenizer
from spacy.tokens.doc cimport Doc, get_token_attr
from spacy.typedefs cimport attr_t, hash_t
from spacy.vocab cimport Vocab

import unicodedata
from functools import partial

from spacy.lang import lex_attrs as _lex_attrs
from spacy.lang.en import lex_attrs as _en_lex_attrs
from spacy.symbols import IDS as _SYMBOLS
from spacy.util import _get_attr_unless_lookup


@cython.final
cdef class Column:
    """One attribute of every token of a doc (or, with ``attr`` -1, the character offset after each token), read
    from the token array when indexed: a read-only list of the values ``doc.to_array([attr])`` gives (unsigned
    64-bit: a SENT_START of -1 is 2**64 - 1), taking negative indices and slices as a list does. The rules read
    ~190 of the ~1,200 values of a doc's columns; lists of all of them took ~35-45 us per abstract to make and
    free."""
    cdef readonly Doc doc
    cdef readonly int attr

    def __cinit__(self, Doc doc, int attr):
        self.doc, self.attr = doc, attr

    cdef inline attr_t _at(self, Py_ssize_t i) noexcept:
        if self.attr < 0:
            return self.doc.c[i].idx + self.doc.c[i].lex.length
        return _value(self.doc, <int>i, <attr_id_t>self.attr)

    def __len__(self) -> int:
        return self.doc.length

    def __getitem__(self, index):
        cdef Py_ssize_t i, n = self.doc.length, start, stop, step, count, k
        if isinstance(index, slice):  # (its positions as a list takes them: no range object to make and step through)
            PySlice_GetIndicesEx(index, n, &start, &stop, &step, &count)
            return [self._at(start + k * step) for k in range(count)]
        i = index
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError("column index out of range")
        return self._at(i)

    def __iter__(self):
        cdef Py_ssize_t i
        return iter([self._at(i) for i in range(self.doc.length)])

    def __eq__(self, other) -> bool:
        return list(self) == other


def span_text(Doc doc, str text, int start, int end) -> str:
    """``text[start token's IDX : end of token end - 1]``: the text of tokens ``[start, end)`` cut from the doc's
    text (empty when ``end <= start``)."""
    if end <= start:
        return ""
    if not 0 <= start < end <= doc.length:
        raise IndexError(f"token range [{start}, {end}) outside a doc of {doc.length} tokens")
    return text[doc.c[start].idx : doc.c[end - 1].idx + doc.c[end - 1].lex.length]


def sentence_starts(Doc doc, IdSet finals) -> list:
    """Token indices that start a sentence: the first token, and the first token that is neither in ``finals``
    (ORTH ids of sentence-final characters) nor punctuation after one in ``finals``."""
    cdef int i, n = doc.length
    cdef bint seen_final = False, final
    cdef const LexemeC* lex
    out = [0] if n else []
    for i in range(n):
        lex = doc.c[i].lex
        final = finals.has(lex.orth)
        if seen_final and not final and not Lexeme.c_check_flag(lex, IS_PUNCT):
            out.append(i)
            seen_final = False
        elif final:
            seen_final = True
    return out


def set_sentence_starts(Doc doc, starts) -> None:
    """Mark the tokens at ``starts`` as sentence starts (1) and every other token as inside a sentence (-1), as
    ``doc.from_array([SENT_START], ...)`` does."""
    cdef int i, n = doc.length
    for i in range(n):
        doc.c[i].sent_start = -1
    for s in starts:
        i = s
        if not 0 <= i < n:
            raise IndexError(f"sentence start {s} outside a doc of {n} tokens")
        doc.c[i].sent_start = 1


def set_entities(Doc doc, ents) -> None:
    """``doc.ents`` from ``(start, end, label id)`` token ranges that do not overlap: B (3) on each entity's first
    token, I (1) on the rest, O (2) with no type on every other token, as ``doc.from_array([ENT_IOB, ENT_TYPE],
    ...)`` writes them."""
    cdef int i, start, end, n = doc.length
    cdef attr_t label
    for i in range(n):
        doc.c[i].ent_iob = 2
        doc.c[i].ent_type = 0
    for s, e, lab in ents:
        start, end, label = s, e, lab
        if not 0 <= start < end <= n:
            raise IndexError(f"entity [{start}, {end}) outside a doc of {n} tokens")
        doc.c[start].ent_iob = 3
        doc.c[start].ent_type = label
        for i in range(start + 1, end):
            doc.c[i].ent_iob = 1
            doc.c[i].ent_type = label


def fill_rows(Doc doc, attrs, unsigned long long[:, ::1] out, Py_ssize_t at) -> None:
    """Write attribute ``attrs[r]`` of every token into row ``r`` of ``out``, from column ``at`` on (the tagger's
    batch columns), as ``doc.to_array(attrs).T`` gives them."""
    cdef int i, n = doc.length
    cdef Py_ssize_t r = 0
    cdef attr_id_t attr
    _check_fits(out, 0, len(attrs), at, n)
    for a in attrs:
        attr = a
        for i in range(n):
            out[r, at + i] = _value(doc, i, attr)
        r += 1


cdef inline attr_t _value(Doc doc, int i, attr_id_t attr) noexcept nogil:
    """``to_array``'s value of ``attr`` for token ``i``: the lexeme's own attributes and the token fields the rules
    read straight from the structs (spaCy's ``get_token_attr`` acquires the GIL state on every call, ~130
    instructions), any other attribute through ``get_token_attr``."""
    cdef const TokenC* t = &doc.c[i]
    if attr == ORTH:  # the most read first, without get_struct_attr's tests
        return t.lex.orth
    if attr == LOWER:
        return t.lex.lower
    if attr == SHAPE:
        return t.lex.shape
    if attr < 64 or attr == PREFIX or attr == SUFFIX or attr == LENGTH:  # flags (IS_PUNCT, LIKE_NUM...), strings
        return Lexeme.get_struct_attr(t.lex, attr)
    if attr == IDX:
        return t.idx
    if attr == SENT_START:
        return <attr_t>t.sent_start
    if attr == ENT_IOB:
        return <attr_t>t.ent_iob
    if attr == ENT_TYPE:
        return t.ent_type
    return get_token_attr(t, attr)


@cython.final
cdef class IdSet:
    """A set of string ids (64-bit attribute values) that C code can test a token's value against without making
    a Python int: open addressing over a table at most half full, grown as ids are added, behind a 4,096-bit filter
    (a bit per id held) that answers for most ids not held without a probe (a token scan 2.5x as fast with it and
    with fields read straight from the lexemes)."""
    cdef vector[attr_t] table
    cdef size_t count
    cdef bint has_zero  # 0 marks an empty slot (it is the empty string's id)
    cdef unsigned long long bits[64]  # the filter: bit _bit(h) set for each id h held

    def __init__(self, ids=()):
        self.table.assign(16, 0)
        self.count = 0
        self.has_zero = False
        cdef int i
        for i in range(64):
            self.bits[i] = 0
        for h in ids:
            self.add(h)

    @staticmethod
    cdef inline unsigned int _bit(attr_t h) noexcept nogil:
        return <unsigned int>((h * 0x9E3779B97F4A7C15ULL) >> 52)

    cdef inline size_t _slot(self, attr_t h) noexcept nogil:
        cdef size_t mask = self.table.size() - 1
        cdef size_t k = <size_t>((h ^ (h >> 29)) * 0xBF58476D1CE4E5B9ULL) & mask
        while self.table[k] != 0 and self.table[k] != h:
            k = (k + 1) & mask
        return k

    cdef inline bint has(self, attr_t h) noexcept nogil:
        cdef unsigned int b = IdSet._bit(h)
        if not (self.bits[b >> 6] >> (b & 63)) & 1:
            return False
        if h == 0:
            return self.has_zero
        return self.table[self._slot(h)] == h

    def add(self, attr_t h) -> None:
        """Add the id ``h``."""
        cdef vector[attr_t] old
        cdef attr_t v
        cdef unsigned int b = IdSet._bit(h)
        self.bits[b >> 6] |= 1ULL << (b & 63)
        if h == 0:
            self.has_zero = True
            return
        cdef size_t k = self._slot(h)
        if self.table[k] == h:
            return
        self.table[k] = h
        self.count += 1
        if 2 * self.count > self.table.size():
            old.swap(self.table)
            self.table.assign(2 * old.size(), 0)
            for v in old:
                if v != 0:
                    self.table[self._slot(v)] = v

    def __contains__(self, attr_t h) -> bool:
        return self.has(h)

    def __len__(self) -> int:
        return self.count + self.has_zero


def where(Doc doc, attr_id_t attr, IdSet ids) -> list:
    """Indices of the tokens whose value of ``attr`` is in ``ids``, in order."""
    cdef int i, n = doc.length
    out = []
    # the attributes rules scan, read straight from the lexemes (through _value's tests they take half again as long)
    if attr == LOWER:
        for i in range(n):
            if ids.has(doc.c[i].lex.lower):
                out.append(i)
    elif attr == ORTH:
        for i in range(n):
            if ids.has(doc.c[i].lex.orth):
                out.append(i)
    elif attr == SHAPE:
        for i in range(n):
            if ids.has(doc.c[i].lex.shape):
                out.append(i)
    else:
        for i in range(n):
            if ids.has(_value(doc, i, attr)):
                out.append(i)
    return out


def distinct_missing(Doc doc, attr_id_t attr, IdSet known) -> list:
    """The values of ``attr`` in ``doc`` that ``known`` does not hold, each once, in order of first use."""
    cdef int i
    cdef attr_t h
    cdef IdSet seen = IdSet()
    out = []
    for i in range(doc.length):
        h = doc.c[i].lex.shape if attr == SHAPE else _value(doc, i, attr)
        if not known.has(h) and not seen.has(h):
            seen.add(h)
            out.append(h)
    return out


cdef struct _Edge:
    attr_t token  # the token's value
    int parent  # the node it leaves (-1: an empty slot)
    int child  # the node it reaches


@cython.final
cdef class PhraseIndex:
    """Token sequences (of one attribute's values, e.g. LOWER ids) with their keys, found in a doc as spaCy's
    ``PhraseMatcher`` finds them: ``(key, start, end)`` for every occurrence, by start, then by length, then in
    the order the keys were added. A trie whose edges live in one open-addressing table keyed by (node, token):
    ~4x as fast as the PhraseMatcher over a gazetteer's 9,500 names, whose ``__call__`` also decodes each
    match's key to a string to look for a callback. A filter of the first tokens' bits spares most tokens the
    table."""
    cdef vector[_Edge] edges  # at most half full
    cdef size_t count
    cdef vector[vector[attr_t]] keys  # per node, the keys of the sequences ending there
    cdef unsigned long long first[1024]  # a 65,536-bit filter of the first tokens: most tokens start none
    cdef readonly attr_id_t attr

    def __init__(self, attr_id_t attr):
        self.attr = attr
        cdef _Edge empty
        empty.token, empty.parent, empty.child = 0, -1, -1
        self.edges.assign(1024, empty)
        self.count = 0
        self.keys.resize(1)  # node 0: the root
        cdef int i
        for i in range(1024):
            self.first[i] = 0

    @staticmethod
    cdef inline unsigned int _bit(attr_t h) noexcept nogil:
        return <unsigned int>((h * 0x9E3779B97F4A7C15ULL) >> 48)

    cdef inline size_t _slot(self, int parent, attr_t token) noexcept nogil:
        cdef size_t mask = self.edges.size() - 1
        cdef size_t k = <size_t>(((token ^ (token >> 29)) + <attr_t>parent * 0x9E3779B97F4A7C15ULL)
                                 * 0xBF58476D1CE4E5B9ULL >> 17) & mask
        while self.edges[k].parent != -1 and not (self.edges[k].parent == parent and self.edges[k].token == token):
            k = (k + 1) & mask
        return k

    cdef inline int _child(self, int parent, attr_t token) noexcept nogil:
        return self.edges[self._slot(parent, token)].child

    def add(self, attr_t key, tokens) -> None:
        """Add the sequence of values ``tokens`` (none: ignored, as the PhraseMatcher ignores an empty pattern)
        under ``key``."""
        cdef int node = 0, child
        cdef size_t k
        cdef attr_t token
        cdef vector[_Edge] old
        cdef _Edge e
        if not len(tokens):
            return
        token = tokens[0]
        self.first[PhraseIndex._bit(token) >> 6] |= 1ULL << (PhraseIndex._bit(token) & 63)
        for value in tokens:
            token = value
            k = self._slot(node, token)
            if self.edges[k].parent == -1:
                child = self.keys.size()
                self.keys.resize(child + 1)
                self.edges[k].token, self.edges[k].parent, self.edges[k].child = token, node, child
                self.count += 1
                if 2 * self.count > self.edges.size():
                    old.swap(self.edges)
                    e.token, e.parent, e.child = 0, -1, -1
                    self.edges.assign(2 * old.size(), e)
                    for e in old:
                        if e.parent != -1:
                            self.edges[self._slot(e.parent, e.token)] = e
            node = self._child(node, token)
        for k in range(self.keys[node].size()):
            if self.keys[node][k] == key:
                return
        self.keys[node].push_back(key)

    cdef inline attr_t _token(self, Doc doc, int i) noexcept nogil:
        if self.attr == LOWER:
            return doc.c[i].lex.lower
        if self.attr == ORTH:
            return doc.c[i].lex.orth
        return _value(doc, i, self.attr)

    def __call__(self, Doc doc) -> list:
        """``(key, start, end)`` of every occurrence in ``doc``."""
        cdef int start, end, node, n = doc.length
        cdef size_t k
        cdef unsigned int b
        cdef attr_t token
        out = []
        for start in range(n):
            token = self._token(doc, start)
            b = PhraseIndex._bit(token)
            if not (self.first[b >> 6] >> (b & 63)) & 1:
                continue
            node = self._child(0, token)
            end = start + 1
            while node >= 0:
                for k in range(self.keys[node].size()):
                    out.append((self.keys[node][k], start, end))
                if end == n:
                    break
                node = self._child(node, self._token(doc, end))
                end += 1
        return out

    def __len__(self) -> int:
        """The number of distinct sequences held."""
        cdef size_t node, n = 0
        for node in range(self.keys.size()):
            n += self.keys[node].size() > 0
        return n


@cython.final
cdef class Trimmer:
    """Trims the frayed edges of a token range (a greedy tagger's entity: "adaptive modeling of", "(mentioned"):
    leading and trailing edge words, punctuation other than brackets, leading words (``leading``) and trailing
    words (``trailing``), a dangling bracket and what follows it. The word sets hold lower-case ids (``opens``,
    ``closes``, ``brackets``: the texts of opening, closing and all brackets, by ORTH id). The rule is
    :func:`kg.nlp.combine.trim`'s, which calls this."""
    cdef IdSet edge, leading, trailing, opens, closes, brackets

    def __init__(self, IdSet edge, IdSet leading, IdSet trailing, IdSet opens, IdSet closes, IdSet brackets):
        self.edge, self.leading, self.trailing = edge, leading, trailing
        self.opens, self.closes, self.brackets = opens, closes, brackets

    cdef bint _frayed(self, Doc doc, int k, bint at_end, int start, int end) noexcept:
        cdef const LexemeC* lex = doc.c[k].lex
        cdef int i
        if self.edge.has(lex.lower) or (Lexeme.c_check_flag(lex, IS_PUNCT) and not self.brackets.has(lex.orth)):
            return True
        if (self.trailing if at_end else self.leading).has(lex.lower):
            return True
        if self.opens.has(lex.orth):
            return at_end
        if self.closes.has(lex.orth):
            if not at_end:
                return True
            for i in range(start, end - 1):
                if self.opens.has(doc.c[i].lex.orth):
                    return False
            return True
        return False

    def trim(self, Doc doc, int start, int end) -> tuple:
        """``(start, end)`` without the frayed edges."""
        cdef int i, depth = 0, opened = -1
        cdef attr_t orth
        if not 0 <= start <= end <= doc.length:
            raise IndexError(f"token range [{start}, {end}) outside a doc of {doc.length} tokens")
        while start < end and self._frayed(doc, start, False, start, end):
            start += 1
        for i in range(start, end):  # an unclosed bracket and what follows it ("Stanford twitter corpus (mentioned")
            orth = doc.c[i].lex.orth
            if self.opens.has(orth):
                if depth == 0:
                    opened = i
                depth += 1
            elif self.closes.has(orth) and depth:
                depth -= 1
            elif self.closes.has(orth):  # a bracket closed that opened before the entity: "NYT) corpus"
                start = i + 1
        while start < end and self._frayed(doc, start, False, start, end):
            start += 1
        if depth == 1 and end < doc.length and self.closes.has(doc.c[end].lex.orth):
            end += 1  # the bracket closes just after the entity: "ICDAR 2015 Incidental (Challenge 4)"
        elif depth and opened >= 0:
            end = opened
        while end > start and self._frayed(doc, end - 1, True, start, end):
            end -= 1
        return start, end


cdef int _check_fits(unsigned long long[:, ::1] out, Py_ssize_t row, Py_ssize_t rows, Py_ssize_t at,
                     Py_ssize_t n) except -1:
    """Raise IndexError unless rows ``row`` to ``row + rows`` and columns ``at`` to ``at + n`` lie inside ``out``."""
    if row < 0 or row + rows > out.shape[0] or at < 0 or at + n > out.shape[1]:
        raise IndexError(f"{rows} rows of {n} values at ({row}, {at}) do not fit an array of shape "
                         f"({out.shape[0]}, {out.shape[1]})")
    return 0


def fill_starts(Doc doc, unsigned long long[:, ::1] out, Py_ssize_t row, Py_ssize_t at) -> None:
    """``out[row, at + i]`` = 1 where token ``i`` starts a sentence (SENT_START 1) or is the doc's first, else 0."""
    cdef int i, n = doc.length
    _check_fits(out, row, 1, at, n)
    for i in range(n):
        out[row, at + i] = 1 if i == 0 or doc.c[i].sent_start == 1 else 0


def tokenize(Tokenizer tokenizer, str string) -> Doc:
    """``tokenizer(string)``, the same tokens, with each whitespace-separated chunk cached as it is tokenized.

    spaCy's ``Tokenizer._tokenize_affixes`` keeps one "special case seen" flag for the whole text: once a chunk has
    used a special case ("e.g.,", "(i.e.,"), no later chunk of that text enters the tokenizer's cache, so each of
    them runs the prefix, suffix and infix expressions again whenever it follows one (~2.6 chunks per synthetic
    abstract, ~5% of the default extraction's instructions). This is that loop with the flag per chunk: a chunk
    that used a special case itself still stays out of the cache (spaCy's #1250), and a chunk's tokens do not
    depend on the chunks before it, so the cache holds what tokenizing it again would give."""
    cdef int length = len(string)
    cdef Doc doc = Doc(tokenizer.vocab)
    if length == 0:
        return doc
    if length // 4 > doc.max_length:  # room for the tokens at once (~5 characters each), not 20 doubled again
        doc._realloc(length // 4)  # and again (spaCy reallocates only to a larger size)
    # Each chunk's key is the hash of its UTF-8 bytes, cut from the text's encoding (made once) at the byte offset
    # kept beside the character offset: a chunk found in the cache needs no str of its own nor an encoding of it.
    cdef bytes utf8 = string.encode("utf8")
    cdef const char* data = utf8
    cdef int i = 0, start = 0, b = 0, b_start = 0, has_special
    cdef Py_UCS4 uc  # (a character, not a str of one: str.isspace's test, Py_UNICODE_ISSPACE)
    cdef bint in_ws = Py_UNICODE_ISSPACE(string[0])
    cdef hash_t key
    for uc in string:
        if Py_UNICODE_ISSPACE(uc) != in_ws:
            if start < i:
                key = hash_utf8(<char*>data + b_start, b - b_start)
                has_special = 0
                if not tokenizer._try_specials_and_cache(key, doc, &has_special, True):
                    tokenizer._tokenize(doc, string[start:i], key, &has_special, True)
            if uc == u" ":
                doc.c[doc.length - 1].spacy = True
                start, b_start = i + 1, b + 1
            else:
                start, b_start = i, b
            in_ws = not in_ws
        i += 1
        b += 1 if uc < 0x80 else 2 if uc < 0x800 else 3 if uc < 0x10000 else 4
    if start < i:
        key = hash_utf8(<char*>data + b_start, b - b_start)
        has_special = 0
        if not tokenizer._try_specials_and_cache(key, doc, &has_special, True):
            tokenizer._tokenize(doc, string[start:], key, &has_special, True)
        doc.c[doc.length - 1].spacy = string[length - 1] == u" " and not in_ws
    tokenizer._apply_special_cases(doc)
    return doc


# ---------------------------------------------------------------------------------------------- affix expressions

def _check_pairs(table) -> None:
    """Raise ValueError unless ``table`` is None or 128 x 129 bytes (a byte per pair of ASCII characters)."""
    if table is not None and not (type(table) is bytes and len(table) == 128 * 129):
        raise ValueError("pairs: None or 128 x 129 bytes")


@cython.final
cdef class MatchNeeding:
    """A compiled expression's ``match`` (``full``) for an expression every match of which holds the character
    ``needed``, as :meth:`match`: None without running the expression for a string that lacks it (spaCy's URL
    expression on a word: ~0.5-1 us a call, ~8 calls an abstract). Built by :func:`kg.nlp.tokenizer.url_match`.
    ``pattern``: the expression's, which spaCy writes when it saves the tokenizer."""
    cdef readonly object full
    cdef readonly str needed
    cdef readonly object pattern

    def __init__(self, full, str needed not None):
        if len(needed) != 1:
            raise ValueError("needed: one character")
        self.full, self.needed = full, needed
        self.pattern = getattr(getattr(full, "__self__", None), "pattern", None)

    def match(self, str string):
        """``full(string)``."""
        if string is not None and self.needed not in string:
            return None
        return self.full(string)


@cython.final
cdef class PrefixSearch:
    """``re.compile(pattern).search`` for spaCy's prefix expression (pieces each starting at the string's start,
    joined by "|"), as :meth:`search`: the same span, and None without running the expression for a string whose
    first character is ASCII and none a piece can start with (most chunks: ~3.9 us a call, ~17 calls an abstract).
    ``starts``: the characters they can start with, a byte per ASCII character. Built by
    :func:`kg.nlp.tokenizer.prefix_search`."""
    cdef readonly object full
    cdef readonly str pattern
    cdef bytes starts

    def __init__(self, full, bytes starts not None):
        if len(starts) != 128:
            raise ValueError("starts: a byte per ASCII character")
        self.full, self.pattern, self.starts = full, full.pattern, starts

    def search(self, str string):
        """``full.search(string)``'s span."""
        cdef Py_UCS4 c
        if not string:
            return None
        c = string[0]
        if c < 128 and not (<const unsigned char*>self.starts)[c]:
            return None
        return self.full.search(string)


@cython.final
cdef class SuffixSearch:
    """``re.compile(pattern).search`` for spaCy's suffix expression (pieces each ending at the string's end, joined
    by "|"), as :meth:`search`: the same span. The expression as it is tries every piece at every position of a
    chunk (~2.7 us a call, ~20 calls an abstract); a match at ``p`` ends at the end, so only the pieces that can be
    ``n - p`` characters long can match there, and only if the character at ``p`` is one they can start with and
    the one before it one they can follow (the number units: a digit). Built by
    :func:`kg.nlp.tokenizer.suffix_search`: ``by_length[r]``, the pieces that can be ``r`` long for ``r`` up to
    ``longest`` (the longest bounded piece), as one expression or None; ``pairs[r]``, where they can start, a byte
    per ASCII character ``c`` at ``p`` and ASCII character ``b`` before it at ``c * 129 + b`` (``c * 129 + 128``:
    ``p`` is 0), or None for anywhere; ``unbounded``, the pieces of no bounded length."""
    cdef readonly object full, unbounded
    cdef readonly str pattern
    cdef readonly Py_ssize_t longest
    cdef list by_length, pairs

    def __init__(self, full, unbounded, list by_length not None, list pairs not None):
        if len(by_length) != len(pairs) or not by_length:
            raise ValueError("SuffixSearch: one expression and one table of pairs per length from 0")
        for table in pairs:
            _check_pairs(table)
        self.full, self.unbounded, self.pattern = full, unbounded, full.pattern
        self.by_length, self.pairs, self.longest = by_length, pairs, len(by_length) - 1

    @cython.boundscheck(True)
    @cython.wraparound(True)
    def search(self, str string):
        """``full.search(string)``'s span."""
        cdef Py_ssize_t n = len(string), r
        cdef Py_UCS4 c, b
        if n and string[n - 1] == u"\n":  # ($ also matches before a final newline)
            return self.full.search(string)
        if self.unbounded is not None and n > self.longest:
            m = self.unbounded.search(string)
            if m is not None and m.start() < n - self.longest:  # (the bounded pieces start later)
                return m
        for r in range(min(self.longest, n), -1, -1):  # the leftmost match first
            expression = self.by_length[r]
            if expression is None:
                continue
            if r and self.pairs[r] is not None:
                c = string[n - r]
                b = 128  # (nothing before)
                if r < n:
                    b = string[n - r - 1]
                if c < 128 and (b < 128 or r == n) \
                        and not (<const unsigned char*><bytes>self.pairs[r])[<Py_ssize_t>c * 129 + <Py_ssize_t>b]:
                    continue
            m = expression.match(string, n - r)
            if m is not None:
                return m
        return None


@cython.final
cdef class InfixFinder:
    """``re.compile(pattern).finditer`` for spaCy's infix expression, as :meth:`finditer`: the same matches, and
    none without running the expression for a chunk of ASCII characters where no piece can start: at no character
    one can start with after a character it can follow (most words, hyphenated ones too: ~4.6 us a call, ~10 calls
    an abstract). ``pairs``: where they can start, as :class:`SuffixSearch`'s (None: anywhere). Built by
    :func:`kg.nlp.tokenizer.infix_finditer`."""
    cdef readonly object full
    cdef readonly str pattern
    cdef object pairs

    def __init__(self, full, pairs):
        _check_pairs(pairs)
        self.full, self.pattern, self.pairs = full, full.pattern, pairs

    def finditer(self, str string):
        """``full.finditer(string)``."""
        cdef Py_UCS4 c
        cdef Py_ssize_t before = 128  # (nothing before the first character)
        cdef const unsigned char* pairs
        if self.pairs is None:
            return self.full.finditer(string)
        pairs = <bytes>self.pairs
        for c in string:
            if c >= 128 or pairs[<Py_ssize_t>c * 129 + before]:
                return self.full.finditer(string)
            before = c
        return iter(())


# ---------------------------------------------------------------------------------------------- lexeme attributes

# spaCy makes a lexeme for each new string by calling the language's ~23 attribute functions (kg/nlp/tokenizer.py);
# as Python they took ~65,000 instructions a lexeme, ~7 new lexemes a synthetic abstract (~8% of the default
# extraction). These are the same functions compiled: each returns what its spaCy original returns for every str
# (tests/test_twins.py compares them over the vocabulary and every character), with the original's constants.
cdef unsigned char _PUNCT[128]  # per ASCII character, unicodedata's category starts with "P"
cdef unsigned char _CURRENCY[128]  # ... is "Sc"
for _c in range(128):
    _PUNCT[_c] = unicodedata.category(chr(_c)).startswith("P")
    _CURRENCY[_c] = unicodedata.category(chr(_c)) == "Sc"
_TLDS = frozenset(_lex_attrs._tlds)
_URL_MATCH = _lex_attrs.URL_MATCH
_LIKE_EMAIL = _lex_attrs._like_email
_NUM_WORDS = frozenset(_en_lex_attrs._num_words)
_ORDINAL_WORDS = frozenset(_en_lex_attrs._ordinal_words)
_BRACKETS = frozenset(("(", ")", "[", "]", "{", "}", "<", ">"))
_QUOTES = frozenset(('"', "'", "`", "«", "»", "‘", "’", "‚", "‛", "“", "”", "„", "‟", "‹", "›", "❮", "❯", "''", "``"))
_LEFT_PUNCT = frozenset(("(", "[", "{", "<", '"', "'", "«", "‘", "‚", "‛", "“", "„", "‟", "‹", "❮", "``"))
_RIGHT_PUNCT = frozenset((")", "]", "}", ">", '"', "'", "»", "’", "”", "›", "❯", "''"))


cdef object _lower(str string):
    return string.lower()


@cython.boundscheck(True)  # (these four index as Python does: from the end, and an empty string raises IndexError)
@cython.wraparound(True)
cdef object _prefix(str string):
    return string[0]


@cython.boundscheck(True)
@cython.wraparound(True)
cdef object _suffix(str string):
    return string[-3:]


cdef object _is_alpha(str string):
    return string.isalpha()


cdef object _is_digit(str string):
    return string.isdigit()


cdef object _is_lower(str string):
    return string.islower()


cdef object _is_space(str string):
    return string.isspace()


cdef object _is_title(str string):
    return string.istitle()


cdef object _is_upper(str string):
    return string.isupper()


cdef object _like_email(str text):
    return "@" in text and bool(_LIKE_EMAIL(text))  # (a match holds an "@")


cdef object _is_punct(str text):
    cdef Py_UCS4 c
    for c in text:
        if c < 128:
            if not _PUNCT[c]:
                return False
        elif not unicodedata.category(chr(c)).startswith("P"):
            return False
    return True


cdef object _is_ascii(str text):
    cdef Py_UCS4 c
    for c in text:
        if c >= 128:
            return False
    return True


cdef object _is_currency(str text):
    cdef Py_UCS4 c
    for c in text:
        if c < 128:
            if not _CURRENCY[c]:
                return False
        elif unicodedata.category(chr(c)) != "Sc":
            return False
    return True


cdef object _is_bracket(str text):
    return text in _BRACKETS


cdef object _is_quote(str text):
    return text in _QUOTES


cdef object _is_left_punct(str text):
    return text in _LEFT_PUNCT


cdef object _is_right_punct(str text):
    return text in _RIGHT_PUNCT


cdef object _word_shape(str text):
    cdef Py_UCS4 c, shape_char, last = 0
    cdef Py_UCS4 shape[100]
    cdef int seq = 0, n = 0
    if len(text) >= 100:
        return "LONG"
    for c in text:
        if c.isalpha():
            shape_char = u"X" if c.isupper() else u"x"
        elif c.isdigit():
            shape_char = u"d"
        else:
            shape_char = c
        if n and shape_char == last:  # (the first character starts a run: last is "" in spaCy's)
            seq += 1
        else:
            seq = 0
            last = shape_char
        if seq < 4:
            shape[n] = shape_char
            n += 1
    return PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, shape, n)


@cython.boundscheck(True)
@cython.wraparound(True)
cdef object _like_num(str text):
    if text.startswith(("+", "-", "±", "~")):
        text = text[1:]
    text = text.replace(",", "").replace(".", "")
    if text.isdigit():
        return True
    if text.count("/") == 1:
        num, denom = text.split("/")
        if num.isdigit() and denom.isdigit():
            return True
    text_lower = text.lower()
    if text_lower in _NUM_WORDS or text_lower in _ORDINAL_WORDS:
        return True
    if text_lower.endswith(("st", "nd", "rd", "th")):
        if text_lower[:-2].isdigit():
            return True
    return False


@cython.boundscheck(True)
@cython.wraparound(True)
cdef object _like_url(str text):
    if text.startswith("http://") or text.startswith("https://"):
        return True
    elif text.startswith("www.") and len(text) >= 5:
        return True
    if text[0] == "." or text[-1] == ".":
        return False
    if "@" in text:
        return False
    if "." not in text:
        return False
    tld = text.rsplit(".", 1)[1].split(":", 1)[0]
    if tld.endswith("/"):
        return True
    if tld.isalpha() and tld in _TLDS:
        return True
    if _URL_MATCH(text):
        return True
    return False


cdef class _Getter:
    """A compiled attribute function: spaCy calls it, :func:`_new_lexeme` asks its ``value`` by a typed call."""

    cdef object value(self, str string):
        raise NotImplementedError

    def __call__(self, str string):
        return self.value(string)


ctypedef object (*_str_function)(str)


@cython.final
cdef class _Function(_Getter):
    """One of the functions above, pickled by its name."""
    cdef _str_function function
    cdef readonly str name

    cdef object value(self, str string):
        return self.function(string)

    def __reduce__(self):
        return _compiled_function, (self.name,)


cdef _Function _function(_str_function function, str name):
    cdef _Function f = _Function.__new__(_Function)
    f.function, f.name = function, name
    return f


def _compiled_function(str name) -> _Getter:
    """The compiled copy of spaCy's attribute function ``name`` (what a pickled one is read back as)."""
    return _FUNCTIONS[name]


@cython.final
cdef class _Norm(_Getter):
    """spaCy's ``_get_attr_unless_lookup(lower, lookups, string)``."""
    cdef readonly tuple lookups

    def __init__(self, tuple lookups not None):
        self.lookups = lookups

    cdef object value(self, str string):
        for lookup in self.lookups:
            if string in lookup:
                return lookup[string]
        return string.lower()


@cython.final
cdef class _IsStop(_Getter):
    """spaCy's ``is_stop(string, stops)``."""
    cdef readonly object stops

    def __init__(self, stops):
        self.stops = stops

    cdef object value(self, str string):
        return string.lower() in self.stops


@cython.final
cdef class _Lang(_Getter):
    """spaCy's ``get_lang(text, lang)``."""
    cdef readonly str lang

    def __init__(self, str lang not None):
        self.lang = lang

    cdef object value(self, str text):
        return self.lang


_FUNCTIONS = {f.name: f for f in (
    _function(_lower, "lower"), _function(_prefix, "prefix"), _function(_suffix, "suffix"),
    _function(_is_alpha, "is_alpha"), _function(_is_digit, "is_digit"), _function(_is_lower, "is_lower"),
    _function(_is_space, "is_space"), _function(_is_title, "is_title"), _function(_is_upper, "is_upper"),
    _function(_like_email, "like_email"), _function(_is_punct, "is_punct"), _function(_is_ascii, "is_ascii"),
    _function(_word_shape, "word_shape"), _function(_is_bracket, "is_bracket"), _function(_is_quote, "is_quote"),
    _function(_is_left_punct, "is_left_punct"), _function(_is_right_punct, "is_right_punct"),
    _function(_is_currency, "is_currency"), _function(_like_url, "like_url"), _function(_like_num, "like_num"))}
_COMPILED = {func: _FUNCTIONS[func.__name__] for func in (
    _lex_attrs.lower, _lex_attrs.prefix, _lex_attrs.suffix, _lex_attrs.is_alpha, _lex_attrs.is_digit,
    _lex_attrs.is_lower, _lex_attrs.is_space, _lex_attrs.is_title, _lex_attrs.is_upper, _lex_attrs.like_email,
    _lex_attrs.is_punct, _lex_attrs.is_ascii, _lex_attrs.word_shape, _lex_attrs.is_bracket, _lex_attrs.is_quote,
    _lex_attrs.is_left_punct, _lex_attrs.is_right_punct, _lex_attrs.is_currency, _lex_attrs.like_url,
    _en_lex_attrs.like_num)}


def lexeme_getters(dict getters not None) -> dict:
    """``getters`` (a vocab's ``lex_attr_getters``: attribute -> function of a string) with each of spaCy's own
    functions replaced by its compiled copy; other functions stay."""
    out = {}
    for attr, func in getters.items():
        compiled = _COMPILED.get(func) if not isinstance(func, partial) else None
        if isinstance(func, partial) and func.func is _get_attr_unless_lookup and len(func.args) == 2 \
                and func.args[0] is _lex_attrs.lower and isinstance(func.args[1], tuple) and not func.keywords:
            compiled = _Norm(func.args[1])
        elif isinstance(func, partial) and func.func is _lex_attrs.is_stop and not func.args \
                and set(func.keywords) == {"stops"}:
            compiled = _IsStop(func.keywords["stops"])
        elif isinstance(func, partial) and func.func is _lex_attrs.get_lang and not func.args \
                and set(func.keywords) == {"lang"} and type(func.keywords["lang"]) is str:
            compiled = _Lang(func.keywords["lang"])
        out[attr] = compiled if compiled is not None else func
    return out


# spaCy's Vocab._new_lexeme calls each function of ``lex_attr_getters`` as Python and adds each string value to the
# string store by StringStore.add's Python call (~38,000 instructions a new lexeme with the compiled functions). The
# copy below runs the same loop, in the same order, with typed calls: a compiled function's ``value``, the store's
# own interning of each string. It stands in for spaCy's in the method table of a vocab it is installed in
# (:func:`fast_lexemes`): a copy of spaCy's table for Vocab, with this one method changed, which that vocab's
# ``get`` then calls as it called spaCy's.
cdef extern from *:
    """
    #define KG_VOCAB_TABLE(vocab) (((struct __pyx_obj_5spacy_5vocab_Vocab *)(vocab))->__pyx_vtab)
    #define KG_SPACY_VOCAB_TABLE ((void *)__pyx_vtabptr_5spacy_5vocab_Vocab)
    #define KG_VOCAB_TABLE_SIZE sizeof(struct __pyx_vtabstruct_5spacy_5vocab_Vocab)
    #define KG_SET_VOCAB_TABLE(vocab, table) \\
        (KG_VOCAB_TABLE(vocab) = (struct __pyx_vtabstruct_5spacy_5vocab_Vocab *)(table))
    #define KG_SET_NEW_LEXEME(table, f) (((struct __pyx_vtabstruct_5spacy_5vocab_Vocab *)(table))->_new_lexeme = \\
        (__typeof__(((struct __pyx_vtabstruct_5spacy_5vocab_Vocab *)0)->_new_lexeme))(f))
    """
    void* KG_VOCAB_TABLE(object vocab)
    void* KG_SPACY_VOCAB_TABLE
    size_t KG_VOCAB_TABLE_SIZE
    void KG_SET_VOCAB_TABLE(object vocab, void* table)
    void KG_SET_NEW_LEXEME(void* table, void* f)


cdef hash_t _add_string(StringStore strings, str string) except? 0:
    """``strings.add(string, allow_transient=True)``."""
    if not string:
        return 0
    if string in _SYMBOLS:
        return _SYMBOLS[string]
    cdef Py_ssize_t size
    cdef const char* utf8 = PyUnicode_AsUTF8AndSize(string, &size)  # (the str's own encoding: no bytes object)
    cdef hash_t key = hash_utf8(<char*>utf8, <int>size)
    strings._intern_utf8(<char*>utf8, <int>size, &key, True)
    return key


cdef const LexemeC* _new_lexeme(Vocab self, Pool mem, str string) except NULL:
    """spaCy's ``Vocab._new_lexeme``: the same lexeme, strings added in the same order."""
    cdef StringStore strings = self.strings
    cdef LexemeC* lex = <LexemeC*>self.mem.alloc(1, sizeof(LexemeC))
    lex.orth = _add_string(strings, string)
    lex.length = len(string)
    vectors = self.vectors
    if vectors is not None and hasattr(vectors, "key2row"):
        lex.id = vectors.key2row.get(lex.orth, OOV_RANK)
    else:
        lex.id = OOV_RANK
    getters = self.lex_attr_getters
    if getters is not None:
        for attr, func in getters.items():
            value = (<_Getter>func).value(string) if isinstance(func, _Getter) else func(string)
            if isinstance(value, str):  # (its id set as it is, not as a Python int)
                Lexeme.set_struct_attr(lex, attr, _add_string(strings, value))
            elif value is not None:
                Lexeme.set_struct_attr(lex, attr, value)
    self._add_lex_to_vocab(lex.orth, lex, self.mem is not self._non_temp_mem)
    return lex


cdef void* _vocab_table = NULL  # spaCy's method table of Vocab with _new_lexeme above


def fast_lexemes(Vocab vocab not None) -> None:
    """Makes ``vocab``'s new lexemes with :func:`_new_lexeme`, the same lexemes as spaCy's method (which a vocab of
    a subclass, or one changed otherwise, keeps)."""
    global _vocab_table
    cdef void* table = KG_VOCAB_TABLE(vocab)
    if type(vocab) is not Vocab or table != KG_SPACY_VOCAB_TABLE and table != _vocab_table:
        return
    if _vocab_table == NULL:
        _vocab_table = PyMem_RawMalloc(KG_VOCAB_TABLE_SIZE)
        if _vocab_table == NULL:
            raise MemoryError()
        memcpy(_vocab_table, KG_SPACY_VOCAB_TABLE, KG_VOCAB_TABLE_SIZE)
        KG_SET_NEW_LEXEME(_vocab_table, <void*>_new_lexeme)
    KG_SET_VOCAB_TABLE(vocab, _vocab_table)


@cython.final
cdef class RuleSpans:
    """A doc's rule candidates (objects with ``start``, ``end``, ``label`` and ``extractor``) by their token spans,
    read once: the rules overlapping an entity are found by a typed scan of the spans (~50 rules per abstract, ~15
    entities asked), not by Python tests of each rule's attributes or an index of the rules by token. ``named_by``:
    the extractors whose spans :meth:`named` asks about."""
    cdef readonly list rules
    cdef readonly frozenset named_by
    cdef vector[Py_ssize_t] starts, ends

    def __init__(self, list rules not None, frozenset named_by not None=frozenset()):
        self.rules, self.named_by = rules, named_by
        self.starts.clear()
        self.ends.clear()
        for c in rules:
            self.starts.push_back(c.start)
            self.ends.push_back(c.end)

    def overlapping(self, Py_ssize_t start, Py_ssize_t end) -> list:
        """The rules with ``c.start < end and start < c.end``, in their order."""
        cdef list out = []
        cdef size_t i
        for i in range(self.starts.size()):
            if self.starts[i] < end and start < self.ends[i]:
                out.append(self.rules[i])
        return out

    def named(self, Py_ssize_t start, Py_ssize_t end, label) -> bool:
        """Whether a rule of an extractor in ``named_by`` spans exactly ``[start, end)`` with ``label``."""
        cdef size_t i
        for i in range(self.starts.size()):
            if self.starts[i] == start and self.ends[i] == end:
                c = self.rules[i]
                if c.label == label and c.extractor in self.named_by:
                    return True
        return False


def fill_candidates(list cands not None, unsigned long long[:, ::1] out, Py_ssize_t full_row, Py_ssize_t short_row,
                    Py_ssize_t at, Py_ssize_t n, dict priority not None, codes) -> None:
    """The tagger's candidate columns of a doc of ``n`` tokens: per token ``i``, into ``out[full_row, at + i]`` and
    ``out[short_row, at + i]``, the two codes of the highest-priority candidate covering it (the first of equal
    ones), 0 where none does. ``priority``: extractor -> priority (0 if missing); ``codes(label, extractor,
    proposed)``: a candidate's (full, short) codes for a unit token, the first, inside and last tokens. The model's
    candidates (extractor ``model...``) are left out; tokens outside ``[0, n)`` are ignored."""
    cdef Py_ssize_t i, k, start, end, p
    cdef vector[Py_ssize_t] prio
    cdef str extractor
    cdef tuple pairs, pair
    _check_fits(out, full_row, 1, at, n)
    _check_fits(out, short_row, 1, at, n)
    prio.assign(n, -1)
    for i in range(n):
        out[full_row, at + i] = 0
        out[short_row, at + i] = 0
    for c in cands:
        extractor = c.extractor
        if extractor.startswith("model"):
            continue
        start, end = c.start, c.end
        p = priority.get(extractor, 0)
        pairs = codes(c.label, extractor, c.proposed)  # (once per candidate, not per token)
        for k in range(max(start, 0), min(end, n)):
            if p > prio[k]:
                pair = pairs[0 if end - start == 1 else 1 if k == start else 3 if k == end - 1 else 2]
                out[full_row, at + k] = pair[0]
                out[short_row, at + k] = pair[1]
                prio[k] = p
