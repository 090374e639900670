"""Plain text for NLP from an abstract as the input gave it, with a map from every cleaned character back to raw.

Abstracts carry LaTeX (``\\emph{..}``, ``$\\sqrt{T}$``, ``6.6\\%``), markdown (``**T**est``, ``[text](url)``) and odd
whitespace. :func:`clean` removes the markup in one left-to-right pass over the raw text, appending each output
character with the raw range it came from, so that offsets found in the cleaned text can be reported in the raw.
A few linear pre-passes pair up braces, dollars and emphasis markers first, so unbalanced markup stays as text.
"""
from __future__ import annotations

import bisect
import re
import unicodedata
from dataclasses import dataclass

from kg.corpus.markup import (
    ACCENTS,
    DECLARATIONS,
    DOUBLE_STRUCK,
    DROP_ARG,
    ESCAPED,
    FRACTIONS,
    OPERATORS,
    PROSE_SECOND,
    SILENT,
    SPACES,
    SUPERSCRIPTS,
    SYMBOLS,
    WRAPPERS,
    match_braces,
    pair_dollars,
    pair_emphasis,
)


@dataclass(frozen=True)
class CleanText:
    """Cleaned text and its offset map into the raw text, as segments of the cleaned text.

    Segment ``k`` starts at cleaned index ``seg_at[k]``. A copied run (``seg_end[k] < 0``) maps ``text[i]`` to raw
    ``seg_raw[k] + i - seg_at[k]``; a piece made up by cleaning (such as ``×`` for ``\\times``) maps each of its
    characters to the raw range ``[seg_raw[k], seg_end[k])``. Plain text is one copied run. ``offsets`` and ``ends``
    spell the map out per character.
    """

    raw: str
    text: str
    seg_at: tuple[int, ...]
    seg_raw: tuple[int, ...]
    seg_end: tuple[int, ...]
    # Cleaned ``[start, end)`` of each "$...$" formula in math letters, whose words are symbols ("$SA$"), not of
    # those that set words in a text font ("$\\texttt{SPARKLE}$", "$\\mathrm{BLEU}$").
    formulas: tuple[tuple[int, int], ...] = ()

    def _source(self, i: int) -> tuple[int, int]:
        k = bisect.bisect_right(self.seg_at, i) - 1
        if self.seg_end[k] < 0:
            at = self.seg_raw[k] + i - self.seg_at[k]
            return at, at + 1
        return self.seg_raw[k], self.seg_end[k]

    def to_raw(self, start: int, end: int) -> tuple[int, int]:
        """Raw ``[s, e)`` covering the source of cleaned ``text[start:end]``.

        >>> c = clean(r"a \\emph{b} $\\times$ c")
        >>> c.text, c.raw[slice(*c.to_raw(2, 3))], c.raw[slice(*c.to_raw(4, 5))]
        ('a b × c', 'b', '\\\\times')
        """
        if not 0 <= start <= end <= len(self.text):
            raise IndexError(f"span [{start}, {end}) is outside the cleaned text (length {len(self.text)})")
        if start == end:
            at = self._source(start)[0] if start < len(self.text) else len(self.raw)
            return at, at
        # _source of the first and the last character, inline (~13 calls per abstract, the conversion's main cost)
        seg_at, seg_raw, seg_end = self.seg_at, self.seg_raw, self.seg_end
        k = bisect.bisect_right(seg_at, start) - 1
        raw_start = seg_raw[k] + start - seg_at[k] if seg_end[k] < 0 else seg_raw[k]
        if k + 1 < len(seg_at) and seg_at[k + 1] < end:  # the last character lies in a later segment
            k = bisect.bisect_right(seg_at, end - 1, k + 1) - 1
        return raw_start, seg_raw[k] + end - seg_at[k] if seg_end[k] < 0 else seg_end[k]

    def sentence_to_raw(self, start: int, end: int) -> tuple[int, int]:
        """:meth:`to_raw` of a sentence, with the markup the cleaning dropped right before its first character (an
        opening ``$`` or ``\\texttt{``) kept, so that the raw sentence opens what it closes.

        >>> c = clean(r"It ends. \\texttt{POR} works.")
        >>> c.raw[slice(*c.sentence_to_raw(9, 19))], c.raw[slice(*c.to_raw(9, 19))]
        ('\\\\texttt{POR} works.', 'POR} works.')
        """
        s, e = self.to_raw(start, end)
        if len(self.seg_at) == 1:  # one copied run (most abstracts): nothing was dropped
            return s, e
        before = self._source(start - 1)[1] if 0 < start <= len(self.text) else 0
        while before < s and self.raw[before].isspace():
            before += 1
        return min(s, before), e

    @property
    def shift(self) -> int | None:
        """Raw index minus cleaned index, the same for every character when the text is one copied run (most
        abstracts: a span ``[s, e)`` with ``s < e`` is raw ``[s + shift, e + shift)``); None otherwise."""
        return self.seg_raw[0] - self.seg_at[0] if len(self.seg_at) == 1 and self.seg_end[0] < 0 else None

    @property
    def offsets(self) -> tuple[int, ...]:
        """``len(text) + 1`` raw indices: where each cleaned character came from (the start of its source), then
        ``len(raw)``."""
        return (*(self._source(i)[0] for i in range(len(self.text))), len(self.raw))

    @property
    def ends(self) -> tuple[int, ...]:
        """The raw index just past the source of each cleaned character."""
        return tuple(self._source(i)[1] for i in range(len(self.text)))


def clean(raw: str) -> CleanText:
    """Remove LaTeX and markdown markup and normalise whitespace, keeping an offset map to ``raw``.

    >>> clean(r"**T**est-time **C**orrelation (**TCA**) is $15\\times$ faster").text
    'Test-time Correlation (TCA) is 15× faster'
    """
    if not _needs_cleaning(raw):  # plain text (most abstracts of most corpora): nothing to remove
        return CleanText(raw, raw, (0,), (0,), (-1,))
    return _Cleaner(raw).run()


def clean_text(raw: str) -> str:
    """Only the cleaned text of :func:`clean` (titles and names for display), without building its offset map
    for plain text.

    >>> clean_text(r"$\\alpha$-Net: \\textbf{Fast}")
    'α-Net: Fast'
    """
    return raw if not _needs_cleaning(raw) else _Cleaner(raw).run().text


# markup, and ASCII controls (incl. whitespace but " "), as bytes to delete: an ASCII text holds one of them when
# deleting them shortens it (~1 us per abstract, against ~6 us for a regular expression's search)
_MARKUP_BYTES = b"\\$*_[]{}~^`" + bytes(range(0x20)) + b"\x7f"
_URL_OR_PTB = re.compile(r"https?:|-[LR][RSC]B-")
_PTB = re.compile(r"-[LR][RSC]B-")  # a treebank bracket (_PTB_BRACKETS)


def _needs_cleaning(raw: str) -> bool:
    """Whether the cleaner could change ``raw``: markup characters, whitespace other than single spaces inside,
    URLs (kept whole), treebank brackets, and in non-ASCII text any character the cleaner does not copy as it is
    (mojibake, ligatures, odd spaces, zero-width and control characters; :func:`_copied_as_is`). Cheap tests first:
    one regex with every case as an alternative cost 40 us per abstract."""
    if "  " in raw or raw[:1] == " " or raw[-1:] == " " or "--" in raw \
            or ("http" in raw or "B-" in raw) and _URL_OR_PTB.search(raw) is not None:
        return True
    if raw.isascii():
        return len(raw.encode("ascii").translate(None, _MARKUP_BYTES)) != len(raw)
    return not _copied_as_is(raw)


def _copied_as_is(raw: str) -> bool:
    """Whether the cleaner copies a non-ASCII text as it is, in one plain run (:data:`_PLAIN`: letters, punctuation
    and symbols that start no markup, no line break or other control character; "“quoted”", "naïve", "α ≤ β").
    The caller has ruled out double, leading and trailing spaces, "--", URLs and treebank brackets."""
    # (C1 characters, U+0080 to U+009F, are control characters, which a printable text holds none of)
    return raw.isprintable() and _PLAIN[True, True].fullmatch(raw) is not None


# LaTeX typography in plain text: quotes (``...'', `...') and dashes (--- an em dash, -- an en dash, or a hyphen
# between letters: "Kullback--Leibler" is the name "Kullback-Leibler").
_TYPOGRAPHY = re.compile(r"``|`(?=[A-Za-z])|-{2,3}")
_CLOSING_QUOTES = {"``": re.compile(r"''"), "`": re.compile(r"(?<=[\w.!?)])'(?![A-Za-z])")}
_QUOTE_REACH = {"``": 400, "`": 100}  # a closing quote further away than this is not the opening's
_QUOTES = {"``": ("\u201c", "\u201d"), "`": ("\u2018", "\u2019")}


def _typography(raw: str) -> dict[int, tuple[str, int]]:
    """Raw index -> (the character written there instead, raw characters it replaces) for LaTeX quotes and
    dashes. An opening quote is paired with the nearest closing one in reach (apostrophes skipped: "`model's
    output'")."""
    swaps: dict[int, tuple[str, int]] = {}
    for m in _TYPOGRAPHY.finditer(raw):
        at, mark = m.start(), m.group()
        if at in swaps:  # already a closing quote
            continue
        if mark[0] == "`":
            opening, closing = _QUOTES[mark]
            swaps[at] = (opening, len(mark))
            stop = min(len(raw), at + _QUOTE_REACH[mark])
            end = _CLOSING_QUOTES[mark].search(raw, at + len(mark), stop)
            if end is not None and "`" not in raw[at + len(mark):end.start()]:
                swaps[end.start()] = (closing, len(end.group()))
        elif mark == "---":
            swaps[at] = ("\u2014", 3)
        else:
            between_letters = at > 0 and raw[at - 1].isalpha() and raw[at + 2:at + 3].isalpha()
            swaps[at] = ("-" if between_letters else "\u2013", 2)
    return swaps


# A formula that sets words in a text font and holds nothing else names things ("$\\texttt{SPARKLE}$",
# "$\\mathrm{BLEU}$", "$\\textbf{M}\\text{ixture }\\textbf{O}\\text{f}$"); beside other math, such words are
# the formula's operators and constants ("$2\\cdot \\mathtt{OPT}$", "$\\mathrm{poly}(d)$", "$6.7\\mathrm{mJ}$").
_TEXT_FONT = re.compile(r"\\(text[a-z]*|math(rm|sf|tt)|operatorname)\b")
_TEXT_FONT_GROUP = re.compile(r"\\(?:text[a-z]*|math(?:rm|sf|tt|bf|it)|operatorname)\s*\{[^{}]*\}")
# what may stand beside them: spaces, brackets, and a short superscript or subscript ("$\\mathrm{R}^2$-Youtube-VOS")
_WORDS_ONLY = re.compile(r"(?:\s|~|[(){}]|\\[,;:! ]|[\^_](?:\{[^{}]{0,3}\}|\w))*")


def names_words(formula: str) -> bool:
    """Whether a formula's source (without its dollars) sets words in a text font and nothing else but spacing
    and brackets: such a formula names things; any other is math, and its words are symbols."""
    if _TEXT_FONT.search(formula) is None:
        return False
    rest, n = formula, 1
    while n:  # (innermost groups first: "\\textit{\\textbf{B}i...}")
        rest, n = _TEXT_FONT_GROUP.subn("", rest)
    return _WORDS_ONLY.fullmatch(rest) is not None


_URL = re.compile(r"https?://[^\s<>()\[\]{}\"'`]+")
_LINK = re.compile(r"\[([^\[\]\n]{1,500})\]\(([^()\s]{1,2000})\)")  # text without brackets, target without spaces
_PTB_BRACKETS = {"-LRB-": "(", "-RRB-": ")", "-LSB-": "[", "-RSB-": "]", "-LCB-": "{", "-RCB-": "}"}
# Characters that start no markup, copied in bulk (the hot path on long corpora): ASCII letters, digits, whitespace
# and punctuation, and non-ASCII letters, punctuation and symbols that are neither spaces nor format or control
# characters. "h" may start a URL, so runs are cut at the next URL; "*", "_", "[", "]", "{", "}", "$", "\\", "~",
# "^" are handled one by one, as are "-" in texts with treebank brackets ("-LRB-") and "Â" to "ô" in texts with C1
# control characters (UTF-8 read as Latin-1, repaired by _Cleaner._mojibake).
_PLAIN_CHARS = ("A-Za-z0-9 \t\n\r\x0b\x0c,.;:'\"()/%+=!?<>@&|#"
                "\u00a1-\u00ac\u00ae-\u00c1\u00f5-\u024f\u0370-\u03ff\u2010-\u2027\u2030-\u205e\u2190-\u22ff")
_PLAIN = {(hyphens, leads): re.compile("[" + _PLAIN_CHARS + ("\\-" if hyphens else "") + ("\u00c2-\u00f4" if leads else "")
                                       + "]+")
          for hyphens in (False, True) for leads in (False, True)}  # by: "-" too, "Â" to "ô" too
_C1 = re.compile("[\x80-\x9f]")
_SPACE_RUN = re.compile(r" {2,}")
_MAX_DROPPED_ARG = 500  # a longer \cite{...} argument means mismatched braces: keep the text rather than lose it


class _Builder:
    """Cleaned text in pieces, with the raw source of every character as segments (see :class:`CleanText`);
    collapses whitespace as it goes. Copied runs cost one segment, not a list entry per character."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.n = 0  # cleaned characters so far
        self.at: list[int] = []
        self.src: list[int] = []
        self.src_end: list[int] = []  # -1: a copied run
        self._last = " "

    def _segment(self, start: int, end: int) -> None:
        """Map the next cleaned character to raw ``[start, end)``, extending the last segment when it fits."""
        if self.at:
            if end == start + 1 and self.src_end[-1] < 0 and self.src[-1] + self.n - self.at[-1] == start:
                return
            if self.src_end[-1] == end and self.src[-1] == start and end != start + 1:
                return
        self.at.append(self.n)
        self.src.append(start)
        self.src_end.append(-1 if end == start + 1 else end)

    def append(self, piece: str, start: int, end: int | None = None) -> None:
        """Append ``piece``, every character of it made from raw ``[start, end)`` (``end``: ``start + 1``)."""
        stop = start + 1 if end is None else end
        for ch in piece:
            if ch.isspace():
                if self._last == " ":
                    continue
                ch = " "
            self._segment(start, stop)
            self.parts.append(ch)
            self.n += 1
            self._last = ch

    def copy_plain(self, raw: str, start: int, end: int) -> None:
        """Append a run of characters that start no markup (``_PLAIN_CHARS``) in bulk, as :meth:`copy` would:
        whitespace becomes spaces, each run of spaces its first space (none after a space)."""
        seg = raw[start:end]
        if not seg.isprintable():  # a line break or tab in it (str.translate would take ~6 us per run)
            for ch in "\t\n\r\x0b\x0c":
                seg = seg.replace(ch, " ")
        at, stop = 0, end - start
        if seg[0] == " " and self._last == " ":
            while at < stop and seg[at] == " ":
                at += 1
        if "  " in seg:
            for m in _SPACE_RUN.finditer(seg, at):
                self._copy_run(seg, at, m.start() + 1, start)
                at = m.end()
        if at < stop:
            self._copy_run(seg, at, stop, start)

    def _copy_run(self, seg: str, a: int, b: int, raw_at: int) -> None:
        """Append ``seg[a:b]`` (``a < b``), each character from its own place in the raw text (``seg`` starts at
        raw index ``raw_at``)."""
        self._segment(raw_at + a, raw_at + a + 1)
        self.parts.append(seg[a:b])
        self.n += b - a
        self._last = seg[b - 1]

    def copy(self, raw: str, start: int, end: int) -> None:
        """Append ``raw[start:end]``, each character mapped to its own position."""
        for k in range(start, end):
            self.append(raw[k], k)

    def drop_space(self) -> None:
        """Take back the last character, a space that turned out to be padding."""
        last = self.parts[-1]
        if len(last) == 1:
            self.parts.pop()
        else:
            self.parts[-1] = last[:-1]
        self.n -= 1
        if self.at[-1] == self.n:
            for column in (self.at, self.src, self.src_end):
                column.pop()
        self._last = self.parts[-1][-1] if self.parts else " "

    def last(self) -> str:
        return self._last

    def result(self, raw: str, formulas: list[tuple[int, int]] | None = None) -> CleanText:
        while self.n and self._last == " ":
            self.drop_space()
        spans = tuple((a, min(b, self.n)) for a, b in formulas or () if a < min(b, self.n))
        return CleanText(raw, "".join(self.parts), tuple(self.at), tuple(self.src), tuple(self.src_end), spans)


class _Cleaner:
    def __init__(self, raw: str) -> None:
        self.raw = raw
        self.out = _Builder()
        # (each pre-pass only where its characters occur: most texts cleaned hold no LaTeX or markdown at all, only
        # line breaks, non-ASCII letters or treebank brackets)
        self.braces = match_braces(raw) if "{" in raw and "}" in raw else {}
        self.math = pair_dollars(raw) if "$" in raw else {}
        # "[" -> ("]", end of "(target)"): the text is kept, the target dropped
        self.links = {m.start(): (m.end(1), m.end()) for m in _LINK.finditer(raw)} if "](" in raw else {}
        self.urls = {m.start(): m.end() for m in _URL.finditer(raw)} if "http" in raw else {}
        # hyphens are plain unless the text holds a treebank bracket ("-LRB-" and the others)
        self.plain = _PLAIN["B-" not in raw or _PTB.search(raw) is None, raw.isascii() or _C1.search(raw) is None]
        protected = bytearray(len(raw))  # where "*" and "_" are not markdown
        for start, (close, width) in self.math.items():
            protected[start : close + width] = b"\1" * (close + width - start)
        for start, end in self.urls.items():
            protected[start:end] = b"\1" * (end - start)
        for bracket, end in self.links.values():
            protected[bracket:end] = b"\1" * (end - bracket)
        self.emphasis = pair_emphasis(raw, protected) if "*" in raw or "_" in raw else set()
        # open groups, innermost last: (raw index that closes it, text emitted there, where to continue)
        self.groups: list[tuple[int, str, int]] = []
        self.math_end = -1  # raw index of the "$" that ends the current formula; -1 outside math
        self.math_open = self.math_start = 0  # the current formula's first raw index and its start in the output
        self.formulas: list[tuple[int, int]] = []  # output ranges of the formulas in math letters
        self.url_starts = sorted(self.urls)
        self.swaps = _typography(raw) if "`" in raw or "--" in raw else {}
        self.swap_starts = sorted(self.swaps)

    def run(self) -> CleanText:
        raw, n, out, i = self.raw, len(self.raw), self.out, 0
        while i < n:
            while self.groups and self.groups[-1][0] < i:  # closer skipped (inside a URL or dropped argument)
                self.groups.pop()
            ch = raw[i]
            if self.groups and self.groups[-1][0] == i:
                _, suffix, resume = self.groups.pop()
                out.append(suffix, i)
                i = resume
            elif i in self.emphasis:
                i += 1
            elif i in self.links:
                bracket, end = self.links[i]
                self.groups.append((bracket, "", end))
                i += 1
            elif i in self.urls:
                out.copy(raw, i, self.urls[i])
                i = self.urls[i]
            elif i in self.swaps and self.math_end < 0:
                piece, width = self.swaps[i]
                out.append(piece, i, i + width)
                i += width
            elif ch == "$":
                i = self._dollar(i)
            elif ch == "\\":
                i = self._command(i)
            elif ch == "{" and i in self.braces and (self.math_end >= 0 or self._is_markup_group(i)):
                self.groups.append((self.braces[i], "", self.braces[i] + 1))
                i += 1
            elif ch == "^" and self.math_end >= 0:
                i = self._superscript(i)
            elif ch == "~":
                self._tilde(i)
                i += 1
            elif ch == "-" and raw[i : i + 5] in _PTB_BRACKETS:
                i = self._ptb_bracket(i)
            elif "\xc2" <= ch <= "\xf4" and (repaired := self._mojibake(i)):
                i = repaired
            elif "\ufb00" <= ch <= "\ufb06":  # ligatures from PDF extraction: "ﬁ" -> "fi"
                out.append(unicodedata.normalize("NFKC", ch), i)
                i += 1
            elif self.math_end < 0 and (plain := self.plain.match(raw, i, self._plain_stop(i))):
                out.copy_plain(raw, i, plain.end())
                i = plain.end()
            else:
                if ch.isspace() or unicodedata.category(ch) not in ("Cf", "Cc"):  # zero-width, BOM, controls go
                    out.append(ch, i)
                i += 1
        return out.result(raw, self.formulas)

    def _plain_stop(self, i: int) -> int:
        """Where a plain run from ``i`` must stop at the latest: the next URL, typographic swap or group closer (a
        bound for the run's regex, so that a text of many such places is not scanned to its end from each)."""
        stop = len(self.raw)
        for starts in (self.url_starts, self.swap_starts):
            if starts:
                k = bisect.bisect_right(starts, i)
                if k < len(starts):
                    stop = min(stop, starts[k])
        if self.groups:
            stop = min(stop, self.groups[-1][0])
        return stop

    def _is_markup_group(self, i: int) -> bool:
        """Whether prose braces are markup (``{\\em x}``, ``{B}ERT``, ``\\LaTeX{}``) rather than text (``{a, b}``)."""
        size = self.braces[i] - i - 1
        return size == 0 or self.raw[i + 1] == "\\" or (size <= 40 and self.raw[i + 1 : i + 1 + size].isalpha())

    def _ptb_bracket(self, i: int) -> int:
        """Treebank tokens (SciERC): "Restrictions -LRB- CCRs -RRB-" -> "Restrictions (CCRs)"."""
        bracket = _PTB_BRACKETS[self.raw[i : i + 5]]
        if bracket in ")]}" and self.out.n and self.out.last() == " ":  # (nothing to take back at the start)
            self.out.drop_space()
        self.out.append(bracket, i, i + 5)
        return i + 6 if bracket in "([{" and self.raw[i + 5 : i + 6] == " " else i + 5

    def _mojibake(self, i: int) -> int:
        """Repair UTF-8 that was read as Latin-1 (``â\\x80\\x9c`` for ``“``); 0 if ``raw[i]`` does not start such a run.

        Only runs holding a C1 control character are repaired: those never occur in real text.
        """
        lead = ord(self.raw[i])
        size = 2 if lead < 0xE0 else 3 if lead < 0xF0 else 4
        run = self.raw[i : i + size]
        if len(run) < size or not any("\x80" <= c <= "\x9f" for c in run[1:]):
            return 0
        try:
            repaired = run.encode("latin-1").decode("utf-8")
        except UnicodeError:
            return 0
        self.out.append(repaired, i, i + size)
        return i + size

    def _dollar(self, i: int) -> int:
        if i == self.math_end:
            self.math_end = -1
            width = 2 if self.raw.startswith("$$", i) else 1
            if not names_words(self.raw[self.math_open : i]):
                self.formulas.append((self.math_start, self.out.n))
            return i + width
        if self.math_end < 0 and i in self.math:
            close, width = self.math[i]
            self.math_end, self.math_open, self.math_start = close, i + width, self.out.n
            return i + width
        self.out.append("$", i)
        return i + 1

    def _tilde(self, i: int) -> None:
        # LaTeX's non-breaking space ("Fig.~3", "et~al."), but "~ 1.25%" (about) and "1.6~3.6" (range) stay
        before = self.raw[i - 1] if i else " "
        after = self.raw[i + 1] if i + 1 < len(self.raw) else " "
        nbsp = not before.isspace() and not after.isspace() and not (before.isdigit() and after.isdigit())
        self.out.append(" " if nbsp or self.math_end >= 0 else "~", i)

    def _superscript(self, i: int) -> int:
        """``^2`` and ``^{-1}`` as superscript characters, but inside a word as plain ones ("S$^3$Delta" is
        "S3Delta", as its authors write it in plain text); anything else keeps its caret."""
        raw, start = self.raw, i + 1
        end = self.braces.get(start, start)
        if end - start > 5:
            end = start
        body = raw[start + 1 : end] if end > start else raw[start : start + 1]
        if body and len(body) <= 4 and all(c in SUPERSCRIPTS for c in body):
            stop = end + 1 if end > start else start + 1
            in_word = i == self.math_open and stop == self.math_end and self.math_open >= 2 \
                and raw[self.math_open - 2].isalnum() and raw[stop + 1 : stop + 2].isalnum()
            if in_word:
                first = start + 1 if end > start else start
                for k, c in enumerate(body):
                    self.out.append(c, first + k)
            else:
                self.out.append("".join(SUPERSCRIPTS[c] for c in body), i, stop)
            return stop
        self.out.append("^", i)
        return start

    def _argument(self, j: int) -> tuple[int, int] | None:
        """The ``{...}`` after a command (spaces allowed before it) as (open, close) raw indices."""
        raw, n = self.raw, len(self.raw)
        while j < n and raw[j] in " \t":
            j += 1
        if j < n and raw[j] == "[":  # optional argument: \sqrt[3]{x}, \cite[p.~2]{key}
            close = raw.find("]", j, j + 100)
            if close > 0 and "\n" not in raw[j:close]:
                j = close + 1
        return (j, self.braces[j]) if j < n and j in self.braces else None

    def _command(self, i: int) -> int:
        raw, n, out = self.raw, len(self.raw), self.out
        if i + 1 >= n:
            out.append("\\", i)
            return i + 1
        nxt = raw[i + 1]
        if not ("a" <= nxt <= "z" or "A" <= nxt <= "Z"):
            if nxt in ESCAPED:
                out.append(nxt, i + 1)
            elif nxt in SPACES or nxt == "\\":
                out.append(" ", i)
            elif nxt in ACCENTS:
                return self._accent(i, nxt, i + 2)
            elif nxt == "|" and self.math_end >= 0:
                out.append("‖", i, i + 2)
            elif nxt not in SILENT:
                out.copy(raw, i, i + 2)
            return i + 2
        j = i + 1
        while j < n and ("a" <= raw[j] <= "z" or "A" <= raw[j] <= "Z"):
            j += 1
        name = raw[i + 1 : j]
        if name in ACCENTS:  # \c{c}, \v{s}
            return self._accent(i, name, j)
        if name == "mathbb" and (arg := self._argument(j)) is not None and arg[1] - arg[0] == 2 \
                and raw[arg[0] + 1] in DOUBLE_STRUCK:  # "$\mathbb{R}^2$": the plane ℝ², not the metric R²
            out.append(DOUBLE_STRUCK[raw[arg[0] + 1]], i, arg[1] + 1)
            return arg[1] + 1
        if name in WRAPPERS or name in FRACTIONS or name == "sqrt":
            arg = self._argument(j)
            if arg is None:
                return j
            open_, close = arg
            if name == "sqrt":
                single = close - open_ == 2
                out.append("√" if single else "√(", i, open_ + 1)
                self.groups.append((close, "" if single else ")", close + 1))
            elif name in FRACTIONS and (denominator := self._argument(close + 1)) is not None:
                self.groups.append((denominator[1], "", denominator[1] + 1))
                self.groups.append((close, "/", denominator[0] + 1))
            else:
                self.groups.append((close, "", close + 1))
            return open_ + 1
        if name in DROP_ARG:
            arg = self._argument(j)
            if arg is None or arg[1] - arg[0] > _MAX_DROPPED_ARG:
                return j
            prose = self._argument(arg[1] + 1) if name in PROSE_SECOND else None
            if prose is None:
                return arg[1] + 1
            self.groups.append((prose[1], "", prose[1] + 1))
            return prose[0] + 1
        if name in SYMBOLS and SYMBOLS[name] != name:
            out.append(SYMBOLS[name], i, j)
        elif name in OPERATORS or name in SYMBOLS:  # \log, \LaTeX: the name itself is the text
            if out.last().isalnum():  # "$x\log x$" -> "x log x"
                out.append(" ", i)
            out.copy(raw, i + 1, j)
        elif name in DECLARATIONS:
            pass
        elif self.math_end >= 0:
            out.copy(raw, i + 1, j)  # an unknown macro in a formula is most readable as its name
        elif i > 0 and (raw[i - 1].isalnum() or raw[i - 1] == "\\") or j - i < 3:
            out.copy(raw, i, j)  # "S\NP", a category in a grammar's notation: verbatim
        else:
            out.copy(raw, i + 1, j)  # an author's macro for a name ("\FedProx~algorithm"): the name
        return j

    def _accent(self, i: int, accent: str, j: int) -> int:
        """``\\'e``, ``\\"{o}``, ``\\c{c}`` -> one accented letter; anything else is kept as it was."""
        raw = self.raw
        if j in self.braces and self.braces[j] - j == 2:
            at, stop = j + 1, self.braces[j] + 1
        elif j < len(raw) and raw[j].isalpha() and not accent.isalpha():
            at, stop = j, j + 1
        else:
            self.out.copy(raw, i, j)
            return j
        accented = unicodedata.normalize("NFC", raw[at] + ACCENTS[accent])
        if len(accented) == 1:
            self.out.append(accented, i, stop)
        else:  # no such precomposed letter: the bare letter reads better than a loose combining mark
            self.out.append(raw[at], at)
        return stop
