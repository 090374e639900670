"""A tokenizer that keeps machine-learning names whole (``NTK-Selector``, ``Llama3-8B-Instruct``, ``COCO-C``).

spaCy's English infixes split on every hyphen between letters, which breaks most model and dataset names
into three tokens. We drop that rule, and add one that splits an opening parenthesis glued to a name
(``DeR-Mamba(Decoupling ...``, ``ScanObjectNN(PB-T50-RS)``).
"""
from __future__ import annotations

import re
from re import _compiler, _constants, _parser  # (the expressions' parse: what each piece of an affix rule matches)
from typing import Callable

from spacy.lang.en import English
from spacy.language import Language
from spacy.tokenizer import Tokenizer
from spacy.tokens import Doc
from spacy.util import compile_infix_regex, compile_prefix_regex, compile_suffix_regex, registry

from kg.nlp import _doc  # compiled, or its Python twin (kg/compiled.py)

# spaCy caches the tokens of up to 10,000 distinct whitespace-separated chunks; the gazetteer's own phrases fill
# half of that, and an abstract corpus has far more distinct chunks. Uncached chunks cost 5-10x (measured: 0.5 vs
# 0.1 ms per abstract on the synthetic bench corpus). 500,000 entries take about 40 MB.
CACHE_SIZE = 500_000

_GLUED_PAREN = r"(?<=[A-Za-z0-9])[\(\[](?=[A-Za-z0-9])"
_CLOSE_PAREN_INSIDE = r"(?<=[A-Za-z0-9])[\)\]](?=[A-Za-z–—])"
_NAME_FULL_STOP = r"(?<=[a-z0-9\-][A-Z])\.$"
# "CIFAR-10/100", "ETTh1/2": a slash between a name's number and another number separates two names' numbers
_SIBLING_SLASH = r"(?<=[A-Za-z]-\d)/(?=\d)|(?<=[A-Za-z]-\d\d)/(?=\d)|(?<=[A-Za-z]\d)/(?=\d)|(?<=[A-Za-z]\d\d)/(?=\d)"
# spaCy splits a unit from the number before it ("10K" -> "10" "K", "5m"); in a name, the number and its unit
# are the name's ("ADE20K", "COCO-Stuff-10K", "LAION-400M", "YOLOv5m"): no split after a letter or hyphen and up
# to five digits.
# "$\epsilon$-differential privacy", "$(\epsilon, \delta)$-differentially private", "$\ell_1$-regularized": a
# mathematical symbol glued by a hyphen to a word qualifies the word, so the word is read on its own.
SYMBOLS = "[\u0370-\u03ff\u2113]"  # Greek letters and "ℓ": the symbols a formula glues to a word
_SYMBOL_HYPHEN = rf"(?:(?<={SYMBOLS})|(?<={SYMBOLS}\)))-(?=[a-z]{{3}})"
_IN_A_NAME = "".join(rf"(?<![A-Za-z\-]\d{{{n}}})" for n in range(1, 6))


def _unit_suffix(pattern: str) -> str:
    """spaCy's number-unit suffix, kept whole inside names; other suffixes as they are."""
    head = "(?<=[0-9])"  # (tested first: the lookbehinds run only after a digit)
    return head + _IN_A_NAME + pattern[len(head):] if pattern.startswith(head + "(?:km|") else pattern


def _is_hyphen_infix(pattern: str) -> bool:
    # The letter-hyphen-letter rule, and the arithmetic rule that splits "Llama3-8B" at "3-8".
    return "(?:-|–|—" in pattern or pattern == r"(?<=[0-9])[+\-\*^](?=[0-9-])"


def _starts(items: list, state) -> frozenset[int] | None:
    """The ASCII characters (code points) a parsed expression's match can start with, the first it consumes; None
    if any character might, or if this does not know (an empty match, case folding, an unknown construct)."""
    if state.flags & re.IGNORECASE:
        return None
    for op, av in items:
        shortest, longest = _parser.SubPattern(state, [(op, av)]).getwidth()
        if longest == 0:  # a lookaround, an anchor: the match starts at the next item
            continue
        if shortest == 0:
            return None
        if op is _constants.LITERAL:
            return frozenset({av} if av < 128 else ())
        if op is _constants.IN:
            one = _compiler.compile(_parser.SubPattern(state, [(op, av)]), 0)
            return frozenset(c for c in range(128) if one.match(chr(c)))
        if op is _constants.SUBPATTERN and not (av[1] & re.IGNORECASE):
            return _starts(av[-1].data, state)
        if op is _constants.BRANCH:
            each = [_starts(branch.data, state) for branch in av[1]]
            return None if None in each else frozenset().union(*each)
        if op in (_constants.MAX_REPEAT, _constants.MIN_REPEAT, _constants.POSSESSIVE_REPEAT):
            return _starts(av[2].data, state)
        return None
    return None


def _follows(items: list, state) -> frozenset[int] | None:
    """The ASCII characters (code points) a parsed expression's match can follow, by the lookbehind it starts with
    (``(?<=...x)``: those ``x`` matches; alternatives or a group of such: all theirs); None if it starts with none
    (or this does not know: case folding, other constructs)."""
    if state.flags & re.IGNORECASE or not items:
        return None
    op, av = items[0]
    if op is _constants.SUBPATTERN:
        return None if av[1] & re.IGNORECASE else _follows(av[-1].data, state)
    if op is _constants.BRANCH:
        each = [_follows(branch.data, state) for branch in av[1]]
        return None if None in each else frozenset().union(*each)
    if op is not _constants.ASSERT or av[0] != -1 or not av[1].data:
        return None
    last = av[1].data[-1]  # (what the character just before the match must be)
    if last[0] not in (_constants.LITERAL, _constants.IN):
        return None
    one = _compiler.compile(_parser.SubPattern(state, [last]), 0)
    return frozenset(c for c in range(128) if one.match(chr(c)))


def _pairs(parsed: list) -> bytes | None:
    """Where parsed pieces can start: a byte per ASCII character ``c`` the piece starts with and ASCII character
    ``b`` before it, at ``c * 129 + b`` (``c * 129 + 128``: at the string's start, nothing before it), 1 if one of
    them can; None if any piece can start with any character after any."""
    table = bytearray(128 * 129)
    for piece in parsed:
        starts, follows = _starts(piece.data, piece.state), _follows(piece.data, piece.state)
        if starts is None and follows is None:
            return None
        befores = range(129) if follows is None else sorted(follows)
        for c in range(128) if starts is None else starts:
            for b in befores:
                table[c * 129 + b] = 1
    return bytes(table)


def prefix_search(pieces: list[str]) -> Callable:
    """``compile_prefix_regex(pieces).search``, the same spans, faster (:class:`kg.nlp._doc.PrefixSearch`); the
    expression's own search if a piece is not one that must start at the string's start or might match empty."""
    full = compile_prefix_regex(pieces)
    try:
        parsed = [_parser.parse("^" + p) for p in pieces if p.strip()]  # (as compile_prefix_regex)
    except re.error:
        return full.search
    if not parsed or any(p.data[:1] != [(_constants.AT, _constants.AT_BEGINNING)] for p in parsed):
        return full.search
    each = [_starts(p.data, p.state) for p in parsed]
    if None in each:
        return full.search
    return _doc.PrefixSearch(full, bytes(any(c in s for s in each) for c in range(128))).search


def _holds(items: list, char: int) -> bool:
    """Whether every match of a parsed expression holds the character ``char`` (a code point), by a literal of it
    the match cannot skip: in a group, in every alternative, or in a repeat of at least one. False where this does
    not know (sets, lookarounds, case folding)."""
    for op, av in items:
        if op is _constants.LITERAL and av == char:
            return True
        if op is _constants.SUBPATTERN and not (av[1] & re.IGNORECASE) and _holds(av[-1].data, char):
            return True
        if op is _constants.BRANCH and all(_holds(branch.data, char) for branch in av[1]):
            return True
        if op in (_constants.MAX_REPEAT, _constants.MIN_REPEAT, _constants.POSSESSIVE_REPEAT) and av[0] >= 1 \
                and _holds(av[2].data, char):
            return True
    return False


def url_match(match: Callable | None) -> Callable | None:
    """``match`` (a compiled expression's ``match``, spaCy's URL expression's), the same matches, faster: no call
    for a string without a character every match holds (spaCy's URL host, an IP address or a domain, has a ".":
    most words lack one) (:class:`kg.nlp._doc.MatchNeeding`); ``match`` itself if it holds none this finds."""
    expression = getattr(match, "__self__", None)
    if not isinstance(expression, re.Pattern) or match != expression.match or not isinstance(expression.pattern, str):
        return match
    parsed = _parser.parse(expression.pattern, expression.flags)
    if parsed.state.flags & re.IGNORECASE or not _holds(parsed.data, ord(".")):
        return match
    return _doc.MatchNeeding(match, ".").match


def suffix_search(pieces: list[str]) -> Callable:
    """``compile_suffix_regex(pieces).search``, the same spans, faster (:class:`kg.nlp._doc.SuffixSearch`); the
    expression's own search if a piece is not one that must end at the string's end."""
    full = compile_suffix_regex(pieces)
    pieces = [p for p in pieces if p.strip()]  # (as compile_suffix_regex)
    try:
        parsed = [_parser.parse(p + "$") for p in pieces]
    except re.error:
        return full.search
    if not parsed or any(p.data[-1:] != [(_constants.AT, _constants.AT_END)] for p in parsed):
        return full.search
    widths = [p.getwidth() for p in parsed]
    bounded = [hi for _, hi in widths if hi < _constants.MAXREPEAT]
    longest = max(bounded, default=0)
    unbounded = [p for p, (_, hi) in zip(pieces, widths) if hi >= _constants.MAXREPEAT]
    by_length, pairs = [], []
    for r in range(longest + 1):
        at = [i for i, (lo, hi) in enumerate(widths) if lo <= r <= hi]
        by_length.append(re.compile("|".join(pieces[i] + "$" for i in at)) if at else None)
        pairs.append(_pairs([parsed[i] for i in at]) if r else None)
    return _doc.SuffixSearch(full, re.compile("|".join(p + "$" for p in unbounded)) if unbounded else None,
                             by_length, pairs).search


def infix_finditer(pieces: list[str]) -> Callable:
    """``compile_infix_regex(pieces).finditer``, the same matches, faster (:class:`kg.nlp._doc.InfixFinder`)."""
    full = compile_infix_regex(pieces)
    try:
        parsed = [_parser.parse(p) for p in pieces if p.strip()]
    except re.error:
        return full.finditer
    known = parsed and None not in (_starts(p.data, p.state) for p in parsed)  # (no piece matches empty)
    return _doc.InfixFinder(full, _pairs(parsed) if known else None).finditer


class MLTokenizer(Tokenizer):
    """spaCy's tokenizer, whose cache takes in every chunk of a text that used no special case itself
    (:func:`kg.nlp._doc.tokenize`): the same tokens."""

    def __call__(self, string: str) -> Doc:
        return _doc.tokenize(self, string)


@registry.tokenizers("kg.ml_tokenizer.v1")
def create_ml_tokenizer() -> Callable[[Language], Tokenizer]:
    """Registered tokenizer factory, referenced from the pipeline's ``config.cfg``."""

    def make(nlp: Language) -> Tokenizer:
        defaults = English.Defaults
        infixes = [p for p in defaults.infixes if not _is_hyphen_infix(p)]
        infixes += [_GLUED_PAREN, _CLOSE_PAREN_INSIDE, _SYMBOL_HYPHEN, r"(?<=[A-Za-z0-9\)\]])[–—](?=[A-Za-z])", _SIBLING_SLASH]
        # "’" glued to a name ("LES’ ability") is a possessive, not part of the name; a full stop after a name that
        # ends in a capital ("GSM8K.", "ImageNet-1K.", "SimplE.", "ImageNet-C.") ends the sentence (spaCy splits it
        # only after a lower-case letter, a digit or two capitals).
        suffixes = [_unit_suffix(p) for p in defaults.suffixes] + [r"’$", r"'$", _NAME_FULL_STOP]
        # the lexemes of the strings it meets, made with compiled copies of spaCy's attribute functions, called by a
        # compiled copy of spaCy's method that makes a lexeme
        nlp.vocab.lex_attr_getters = _doc.lexeme_getters(nlp.vocab.lex_attr_getters)
        _doc.fast_lexemes(nlp.vocab)
        return MLTokenizer(
            nlp.vocab,
            rules=defaults.tokenizer_exceptions,
            prefix_search=prefix_search(defaults.prefixes),
            suffix_search=suffix_search(suffixes),
            infix_finditer=infix_finditer(infixes),
            token_match=defaults.token_match,
            url_match=url_match(defaults.url_match),
            max_cache_size=CACHE_SIZE,
        )

    return make
