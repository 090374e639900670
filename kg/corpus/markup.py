"""What clean() knows about markup: which LaTeX commands print a symbol, wrap prose, hide an argument or only set a
font, and how braces, dollars and markdown emphasis markers pair up (so that what is unbalanced stays text)."""
from __future__ import annotations

import re

GREEK = dict(
    alpha="α", beta="β", gamma="γ", delta="δ", epsilon="ε", varepsilon="ε", zeta="ζ", eta="η", theta="θ",
    vartheta="ϑ", iota="ι", kappa="κ", mu="μ", nu="ν", xi="ξ", pi="π", varpi="ϖ", rho="ρ", varrho="ϱ",
    sigma="σ", varsigma="ς", tau="τ", upsilon="υ", phi="ϕ", varphi="φ", chi="χ", psi="ψ", omega="ω", Gamma="Γ",
    Delta="Δ", Theta="Θ", Lambda="Λ", Xi="Ξ", Pi="Π", Sigma="Σ", Upsilon="Υ", Phi="Φ", Psi="Ψ", Omega="Ω",
) | {"lambda": "λ"}  # a keyword
# Commands that print one symbol (or a fixed word): Greek letters as Greek letters, relations as Unicode.
SYMBOLS = GREEK | dict(
    times="×", cdot="·", pm="±", mp="∓", div="÷", leq="≤", le="≤", geq="≥", ge="≥", neq="≠", ne="≠", approx="≈",
    sim="~", simeq="≃", equiv="≡", propto="∝", infty="∞", to="→", rightarrow="→", leftarrow="←", Rightarrow="⇒",
    Leftarrow="⇐", leftrightarrow="↔", mapsto="↦", gets="←", uparrow="↑", downarrow="↓", ll="≪", gg="≫",
    ell="ℓ", partial="∂", nabla="∇", sum="∑", prod="∏", int="∫", forall="∀", exists="∃", neg="¬", land="∧",
    lor="∨", cap="∩", cup="∪", subset="⊂", subseteq="⊆", supset="⊃", setminus="∖", emptyset="∅", varnothing="∅",
    notin="∉", circ="∘", star="⋆", ast="*", oplus="⊕", otimes="⊗", odot="⊙", dagger="†", ddagger="‡",
    top="⊤", bot="⊥", perp="⊥", mid="|", langle="⟨", rangle="⟩", lfloor="⌊", rfloor="⌋", lceil="⌈", rceil="⌉",
    ldots="…", dots="…", cdots="⋯", vdots="⋮", prime="′", degree="°", checkmark="✓", S="§", P="¶",
    textasciitilde="~", textbackslash="\\", textbar="|", textless="<", textgreater=">", textendash="–",
    textemdash="—", textbullet="•", textdegree="°", textregistered="®", texttrademark="™", copyright="©",
    ss="ß", o="ø", O="Ø", ae="æ", AE="Æ", oe="œ", OE="Œ", aa="å", AA="Å", l="ł", L="Ł", i="ı", j="ȷ",
    LaTeX="LaTeX", TeX="TeX", BibTeX="BibTeX",
) | {"in": "∈"}  # a keyword
# Named operators print as their name: "$\log T$" -> "log T".
OPERATORS = frozenset(
    "log ln lg exp sin cos tan sinh cosh tanh arcsin arccos arctan max min sup inf lim liminf limsup arg argmax "
    "argmin det dim ker deg gcd Pr Var Cov mod bmod pmod softmax sgn sign tr trace diag rank".split()
)
# Commands whose braced argument is the text (formatting, fonts, accents over a letter in math).
WRAPPERS = frozenset(
    "emph textbf textit texttt textsc textsf textrm textup textsl textmd textnormal text mathrm mathbf mathit "
    "mathsf mathtt mathcal mathbb mathfrak mathscr mathnormal boldsymbol bm pmb operatorname underline overline "
    "uline hat widehat tilde widetilde bar vec dot ddot check breve acute grave mbox hbox fbox ensuremath url "
    "footnote textsuperscript textsubscript underbrace overbrace ul hl".split()
)
# Commands whose (first) argument is not prose: citations, labels, spacing, the target of \href.
DROP_ARG = frozenset(
    "cite citep citet citealp citealt citeauthor citeyear parencite textcite autocite nocite ref eqref cref Cref "
    "autoref pageref label vspace hspace includegraphics href color textcolor".split()
)
PROSE_SECOND = frozenset(("href", "textcolor"))  # \href{url}{text}: the second argument is prose
FRACTIONS = frozenset(("frac", "dfrac", "tfrac"))
# Font switches and sizing that take no argument.
DECLARATIONS = frozenset(
    "em it bf rm sf tt sc sl up md normalfont itshape bfseries scshape ttfamily rmfamily sffamily upshape "
    "tiny scriptsize footnotesize small normalsize large Large LARGE huge Huge displaystyle textstyle scriptstyle "
    "left right big Big bigg Bigg bigl bigr Bigl Bigr biggl biggr middle limits nolimits quad qquad noindent "
    "centering par newline linebreak smallskip medskip bigskip xspace hfill vfill".split()
)
SPACES = frozenset(" ,;:>\t\n")  # "\," and friends are spaces; "\\" is a line break
SILENT = frozenset("!-/")  # negative space, discretionary hyphen, italic correction
ESCAPED = frozenset("%&_#${}*")  # "\*" is markdown's escaped star
ACCENTS = {"'": "\u0301", "`": "\u0300", '"': "\u0308", "^": "\u0302", "~": "\u0303", "=": "\u0304", ".": "\u0307",
            "c": "\u0327", "v": "\u030c", "u": "\u0306", "H": "\u030b", "r": "\u030a", "k": "\u0328"}
SUPERSCRIPTS = dict(zip("0123456789+-=()ni", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁿⁱ"))
# \mathbb's letters as the double-struck letters they print ("$\mathbb{R}^2$" is the plane ℝ², not the metric R²):
# seven in Unicode's letterlike block, the others in its mathematical alphanumerics.
DOUBLE_STRUCK = {c: chr(0x1D538 + k) for k, c in enumerate("ABCDEFGHIJKLMNOPQRSTUVWXYZ")} | {
    c: chr(0x1D552 + k) for k, c in enumerate("abcdefghijklmnopqrstuvwxyz")} | {
    c: chr(0x1D7D8 + k) for k, c in enumerate("0123456789")} | dict(zip("CHNPQRZ", "ℂℍℕℙℚℝℤ"))
PLAIN_LETTERS = str.maketrans({v: k for k, v in DOUBLE_STRUCK.items()})  # back, for readers that know only those

_MAX_MATH = 500  # a "$...$" longer than this is more likely two stray dollars than one formula
_MAX_EMPHASIS = 300


_BRACES = re.compile(r"\\[\s\S]?|[{}]")
_DOLLARS = re.compile(r"\\[\s\S]?|\$\$?")
_EMPHASIS = re.compile(r"[\\*_]")


def match_braces(raw: str) -> dict[int, int]:
    """Index of each unescaped ``{`` -> index of its matching ``}``; unmatched braces are left out."""
    pairs: dict[int, int] = {}
    stack: list[int] = []
    for m in _BRACES.finditer(raw):  # only backslash escapes and braces: no per-character Python loop
        ch = m.group()
        if ch == "{":
            stack.append(m.start())
        elif ch == "}" and stack:
            pairs[stack.pop()] = m.start()
    return pairs


_COMMAND = re.compile(r"\\[A-Za-z]")  # a LaTeX command in a formula's body


def pair_dollars(raw: str) -> dict[int, tuple[int, int]]:
    """Opening ``$`` (or ``$$``) of each formula -> (index of its closing delimiter, delimiter width).

    Pandoc's rule tells formulas from prices: the opening ``$`` is followed by a non-space, the closing one is
    preceded by a non-space and not followed by a digit; a body holding a LaTeX command ("$10\\times $") is a
    formula with spaces inside its delimiters too, as no price holds one, and so is a command without spaces
    before a digit ("128$\\times$128").
    """
    delims = [(m.start(), len(m.group())) for m in _DOLLARS.finditer(raw) if m.group()[0] == "$"]
    formulas: dict[int, tuple[int, int]] = {}
    k = 0
    while k + 1 < len(delims):
        (start, width), (close, close_width) = delims[k], delims[k + 1]
        body = raw[start + width : close]
        command = _COMMAND.search(body) is not None
        inline_ok = width == 2 or (
            (not body[:1].isspace() and not body[-1:].isspace() or command)
            and (command and " " not in body or not raw[close + 1 : close + 2].isdigit())
        )
        if width == close_width and body and inline_ok and len(body) <= _MAX_MATH and "\n\n" not in body:
            formulas[start] = (close, width)
            k += 2
        else:
            k += 1
    return formulas


def _is_word(ch: str) -> bool:
    return ch.isalnum() or ch == "_"


def pair_emphasis(raw: str, protected: bytearray) -> set[int]:
    """Raw indices of markdown emphasis markers (``*x*``, ``**x**``, ``_x_``, ``__x__``) to drop.

    Like CommonMark, but stricter so that ``a_i``, ``snake_case``, ``2*3*4`` and ``[1*]`` stay as they are: an
    opener is not preceded by a word character and is followed by a word or an opening bracket; a closer follows a
    non-space, and an ``_`` closer is not followed by a word character.
    """
    drop: set[int] = set()
    openers: list[tuple[int, str, int]] = []  # (index, marker, run length)
    i, n = 0, len(raw)
    while i < n:
        hit = _EMPHASIS.search(raw, i)  # jump to the next candidate instead of stepping through every character
        if hit is None:
            break
        i = hit.start()
        ch = raw[i]
        if protected[i]:
            i += 1
            continue
        if ch == "\\":
            i += 2
            continue
        j = i
        while j < n and raw[j] == ch and not protected[j]:
            j += 1
        run = j - i
        before = raw[i - 1] if i else " "
        after = raw[j] if j < n else " "
        if run <= 3:
            can_close = not before.isspace() and before not in "([{" and (ch == "*" or not _is_word(after))
            can_open = not _is_word(before) and (after.isalnum() or after in "([{$\\\"'`")
            opener = _find_opener(openers, ch, run, i) if can_close else None
            if opener is not None and "\n\n" not in raw[openers[opener][0] : i]:
                start = openers[opener][0]
                drop.update(range(start, start + run))
                drop.update(range(i, j))
                del openers[opener:]
            elif can_open:
                openers.append((i, ch, run))
        i = j
    return drop


def _find_opener(openers: list[tuple[int, str, int]], marker: str, run: int, at: int) -> int | None:
    for k in range(len(openers) - 1, -1, -1):
        start, m, r = openers[k]
        if at - start > _MAX_EMPHASIS:
            return None
        if m == marker and r == run and at > start + run:
            return k
    return None
