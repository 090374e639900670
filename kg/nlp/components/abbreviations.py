"""Abbreviation definitions: ``Domain-aware Ensemble Distillation (DomED)``, ``FRONT (FRequency dOmain kNowledge
Transfer)`` and ``a novel Multi-modal Grouping Network, namely MGN``.

The matching follows Schwartz & Hearst (2003): each character of the short form, right to left, must be
found in the long form, and the first one must start a word. A digit in a short form may count its letter ("A2LS":
Automated Auxiliary Loss Search), stand for "to" ("P2C": Paraphrasing-to-Captioning) or, at the end, number the
name ("FPR95"). We then widen a title-cased long form to the left ("Generative Semantic Refinement and ... (ReEx)")
because names often carry words the initials skip.
"""
from __future__ import annotations

import re
from collections.abc import Sequence

from spacy.attrs import IDX, IS_ALPHA, LOWER, ORTH, SENT_START
from spacy.language import Language
from spacy.strings import get_string_id
from spacy.tokens import Doc

from kg.nlp.candidates import (ABBREVIATIONS, FORMULAS, QUOTES, Abbreviation, column, ids, positions,
                               sentence_bounds, span_text, token_ends)
from kg.nlp import lexicon

_STOP_LEFT_IDS = ids(lexicon.words("abbreviation_stop_left"))
_TITLE_LINK_IDS = ids(lexicon.words("title_link_words"))  # words a title-cased name links with
_MAX_SHORT_CHARS = 15
_OPENERS = frozenset({"(", "["})
_CLOSERS = frozenset(get_string_id(c) for c in ")]")
_BRACKETS = _CLOSERS | frozenset(get_string_id(c) for c in "([")


_NOT_SHORT_CHARS = frozenset(",;:()[]")
_NOT_SHORT_FIRST = lexicon.words("not_short_first")


def _short_ok(text: str) -> bool:
    """Whether ``text`` can be a short form: 2 to 15 characters, a letter and a capital among them, one or two words,
    no comma, semicolon, colon or bracket ("3)/E" of "SE(3)/E(3)-equivariant"), and no word that starts no short form
    first. (The character tests are C loops: ``map`` of a str method, not a generator.)"""
    if not 2 <= len(text) <= _MAX_SHORT_CHARS or not _NOT_SHORT_CHARS.isdisjoint(text) \
            or not any(map(str.isalpha, text)) or not any(map(str.isupper, text)):
        return False
    words = text.split()
    return len(words) <= 2 and words[0].lower() not in _NOT_SHORT_FIRST


def _readings(short: str) -> list[str]:
    """The letters ``short`` may spell: itself, and where it has digits, each digit counting the letter before it
    ("A2LS": AALS, "L4A": LLLLA), a "2" read as "to" ("P2C": PTC), or trailing digits left out ("FPR95": FPR)."""
    if not any(map(str.isdigit, short)):
        return [short]
    out = [short]
    counted = re.sub(r"([A-Za-z])([2-4])(?!\d)", lambda m: m.group(1) * int(m.group(2)), short)
    out += [counted, re.sub(r"(?<=[A-Za-z])2(?=[A-Za-z])", "t", short)]
    letters = short.rstrip("0123456789")
    if letters.isalpha() and letters.isupper():  # an acronym numbered: "FPR95", "EF1", not "Text8"
        out.append(letters)
    return [r for k, r in enumerate(out) if r and r not in out[:k] and any(c.isalpha() for c in r)]


def _sh_match(short: str, long: str) -> int:
    """Start index in ``long`` where a Schwartz-Hearst match of ``short`` begins, or -1; of its readings, the one
    with the shortest long form."""
    return max(_sh_match_letters(reading, long) for reading in _readings(short))


def _sh_match_letters(short: str, long: str) -> int:
    s = [c.lower() for c in short if c.isalnum()]
    lo = long.lower()
    si, li = len(s) - 1, len(lo) - 1
    while si >= 0:
        c = s[si]
        while li >= 0 and (lo[li] != c or (si == 0 and li > 0 and lo[li - 1].isalnum())):
            li -= 1
        if li < 0:
            return -1
        si -= 1
        li -= 1
    return li + 1


def _max_words(short: str) -> int:
    """The most tokens a long form of ``short`` may have (Schwartz & Hearst's bound)."""
    return min(len(short) + 5, len(short) * 2)


def _long_candidate(doc: Doc, end: int, short: str) -> tuple[int, int] | None:
    """Token range of the long form ending at token ``end`` for ``short``, or None. (Tokens are read from the doc's
    columns: no Token or Span is made.)"""
    orth, strings = column(doc, ORTH), doc.vocab.strings
    while end > 0 and not strings[orth[end - 1]].strip("\u201d\u2019\"'"):  # "“sign random projections” (SignRP)"
        end -= 1
    if end == 0:
        return None
    max_words = _max_words(short)
    sent_start = sentence_bounds(doc, end - 1)[0]
    start = max(sent_start, end - max_words)
    for k in range(end - 1, start - 1, -1):  # not across another parenthesis: "(SNN-RBM) or a ... (SNN-DAE)"
        if orth[k] in _BRACKETS:
            start = k + 1
            break
    if start >= end:
        return None
    text = span_text(doc, start, end)
    at = _sh_match(short, text)
    if at < 0 or at >= len(text):
        return None
    first = _token_at(doc, start, end, at)
    if first == end:
        return None
    s = min(first, _initials_start(doc, start, end, short), _capitals_start(doc, start, end, short, text))
    if end - first == 1 and strings[orth[first]].lower().startswith(short.lower()):
        return None  # "Mamba (MA)"-like coincidences: one word that merely starts with the letters
    if any(orth[k] in _CLAUSE_WORD_IDS for k in range(first, end)):
        return None  # letters matched across a clause: "dynamics, we propose a theory-driven ... method (DTAL)"
    # Widen a title-cased name to the left over capitalised words.
    lower, alpha = column(doc, LOWER), column(doc, IS_ALPHA)
    if _title_cased(strings, orth, lower, alpha, first, end):
        sent = column(doc, SENT_START)
        while s > sent_start and strings[orth[s - 1]][:1].isupper() and lower[s - 1] not in _STOP_LEFT_IDS \
                and sent[s - 1] != 1 and alpha[s - 1]:
            s -= 1
    while s < first and lower[s] in _STOP_LEFT_IDS:  # not past the word the first letter is from
        s += 1
    return (s, end) if s < end else None


def _token_at(doc: Doc, start: int, end: int, at: int) -> int:
    """The first token of tokens ``[start, end)`` that character ``at`` of their text falls in, or the token after
    it when it falls in its trailing whitespace (``Span.char_span``'s "expand" alignment)."""
    idx, ends = column(doc, IDX), token_ends(doc)
    char = idx[start] + at
    k = end - 1
    while idx[k] > char:
        k -= 1
    return k + 1 if char == ends[k] else k


def _title_cased(strings, orth: Sequence[int], lower: Sequence[int], alpha: Sequence[int], start: int,
                 end: int) -> bool:
    """Whether every word of tokens ``[start, end)`` is capitalised or a word that links a name's words."""
    for k in range(start, end):
        if alpha[k] and not strings[orth[k]][:1].isupper() and lower[k] not in _TITLE_LINK_IDS:
            return False
    return True


_NAME_LINKS = lexicon.words("prepositions") | lexicon.words("articles") | {"and", "-"}


def _initials_start(doc: Doc, start: int, end: int, short: str) -> int:
    """Where a long form starts whose words' initials are exactly the capitals of ``short``, one word each (the
    capitals S, P, S, C of "SPS-Conv": "spatial pruned sparse convolution", where the plain matching reads all of
    S, P, S in "sparse"); prepositions, articles, "and" and hyphens between words spell nothing ("Optimism in the
    Face of Uncertainty (OFU)"); ``end`` when there is none in ``start`` .. ``end``."""
    capitals = [c.lower() for c in short if c.isupper()]
    k, at = len(capitals), end
    strings, lower, alpha = doc.vocab.strings, column(doc, LOWER), column(doc, IS_ALPHA)
    while k > 0 and at > start:
        at -= 1
        word = strings[lower[at]]
        if word in _NAME_LINKS and k < len(capitals):
            continue
        if not alpha[at] or word[0] != capitals[k - 1]:
            return end
        k -= 1
    return at if k == 0 and len(capitals) >= 2 else end


def _capitals_start(doc: Doc, start: int, end: int, short: str, text: str) -> int:
    """Where a long form starts whose capital letters spell ``short``'s, written in mixed case to show them
    ("General grAph augMEntation (GAME)", "FRequency dOmain kNowledge Transfer"): the word with the first capital,
    which starts it; ``end`` when no word of ``start`` .. ``end`` (``text``) has a capital inside it, or none spells
    them."""
    if not any(map(_mixed, text.split())):
        return end
    capitals = "".join(c for c in short if c.isupper())
    if len(capitals) < 2:
        return end
    spelled = ""
    strings, orth = doc.vocab.strings, column(doc, ORTH)
    for at in range(end - 1, start - 1, -1):
        word = strings[orth[at]]
        spelled = "".join(c for c in word if c.isupper()) + spelled
        if not capitals.endswith(spelled) or word.isupper() and len(word) > 1:  # (not an acronym)
            return end
        if spelled == capitals and word[:1].isupper():
            return at
    return end


def _mixed(word: str) -> bool:
    """Whether a word has a capital inside it and a lower-case letter ("grAph", "FRequency"), as ordinary words and
    acronyms do not."""
    tail = word[1:]
    return tail.lower() != tail and word.upper() != word  # (C loops, not a generator per character)


def find_abbreviations(doc: Doc) -> list[Abbreviation]:
    """All abbreviation definitions in ``doc`` (token ranges)."""
    found: list[Abbreviation] = []
    orth = column(doc, ORTH)
    formulas, idx = doc.user_data.get(FORMULAS) or (), column(doc, IDX)
    for i in positions(doc, _OPENERS):
        if i == 0 or formulas and any(a <= idx[i] < b for a, b in formulas):
            continue  # (a bracket inside a formula opens an argument: "$O(\\poly(A) + ...)$")
        close = _closing_bracket(orth, i)
        if close is None or close == i + 1:
            continue
        in_short = close - i == 4 and orth[close - 1] == _SHORT and orth[close - 2] in _FOR_IN
        short_end = i + 2 if in_short else close  # "focal modulation networks (FocalNets in short)": the name alone
        short_start = i + 1
        while short_end - short_start > 2 and doc[short_start].text in QUOTES and doc[short_end - 1].text in QUOTES:
            short_start, short_end = short_start + 1, short_end - 1  # "('GSD-S')": the name without its quotes
        inner = span_text(doc, short_start, short_end)  # the bracketed tokens short_start .. short_end - 1
        if _short_ok(inner):
            long = _long_candidate(doc, i, inner)
            if long:
                found.append(Abbreviation(long[0], long[1], short_start, short_end))
                continue
        if in_short:
            continue
        # "short (long form)": a single name token just before the parenthesis, and a long form as long as the
        # forward pairs' may be, with no bracket of its own: not "AF (an often-neglected requisite for commonly
        # used BO regret bounds)".
        prev = span_text(doc, i - 1, i)
        if _short_ok(prev) and 2 <= close - i - 1 <= _max_words(prev) and _sh_match(prev, inner) == 0 \
                and not any(orth[k] in _BRACKETS for k in range(i + 1, close)):
            found.append(Abbreviation(i + 1, close, i - 1, i))
    for i in positions(doc, _NAMING):  # "a novel Multi-modal Grouping Network, namely MGN"
        end = i - 1 if i > 1 and orth[i - 1] == _COMMA else i
        short = span_text(doc, i + 1, i + 2) if i + 1 < len(doc) else ""
        if end < 1 or not _short_ok(short) or not short.isalnum() or sum(c.isupper() for c in short) < 2:
            continue
        long = _long_candidate(doc, end, short)
        # a name whose capitals spell the short form: "Multi-modal Grouping Network"
        if long and all(_title_word(doc[k].text) for k in range(*long)) and _capitals_spell(short, span_text(doc, *long)):
            found.append(Abbreviation(long[0], long[1], i + 1, i + 2))
    return found


def _closing_bracket(orth: Sequence[int], i: int) -> int | None:
    """The first closing bracket among the 15 tokens after token ``i`` (``orth``: the doc's ORTH column), or None."""
    for k in range(i + 1, min(i + 16, len(orth))):
        if orth[k] in _CLOSERS:
            return k
    return None


def _capitals_spell(short: str, long: str) -> bool:
    """Whether the capitals of ``long`` start with the first letter of ``short`` and hold its letters in order."""
    capitals = [c for c in long if c.isupper()]
    letters = [c.upper() for c in short if c.isalpha()]
    if not capitals or capitals[0] != letters[0]:
        return False
    it = iter(capitals)
    return all(c in it for c in letters)


def _title_word(word: str) -> bool:
    return word[:1].isupper() or word in ("-", "of", "and", "for", "with", "in", "to", "on", "via")


_NAMING = lexicon.words("naming_words")
_COMMA = get_string_id(",")
_SHORT, _FOR_IN = get_string_id("short"), frozenset(map(get_string_id, ("for", "in")))  # "(FocalNets for short)"
_CLAUSE_WORD_IDS = ids(lexicon.words("clause_words"))  # "dynamics, this paper proposes a ... method (dynamicAL)"


@Language.component("kg_abbreviations")
def abbreviation_component(doc: Doc) -> Doc:
    """Store abbreviation definitions in ``doc._.kg_abbreviations``."""
    doc.user_data[ABBREVIATIONS] = find_abbreviations(doc)
    return doc
