"""BibTeX (``.bib``) as Zotero, Mendeley, JabRef and the ACL Anthology export it, parsed by ``bibtexparser`` (v2:
it keeps each entry's line and recovers after a broken one). Field values are decoded here: case-protecting
braces dropped, TeX accents and escapes (``{\\"o}``, ``\\&``, ``{\\textbackslash}``) turned into the characters
they stand for, as kg's abstract cleaner does."""
from __future__ import annotations

import copy
import logging
import re
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from kg.corpus.clean import clean
from kg.corpus.formats.fields import first, keywords, person
from kg.corpus.ids import is_arxiv_id
from kg.corpus.lines import whole_text
from kg.corpus.markup import match_braces, pair_dollars
from kg.corpus.records import Line, paper_from_fields
from kg.errors import InputWarning, Problem
from kg.model import Paper, Source

if TYPE_CHECKING:
    from bibtexparser import Library
    from bibtexparser.middlewares.middleware import Middleware
    from bibtexparser.model import Entry

_ARXIV_NOTE = re.compile(r"\barXiv:\s*(\S+?)(?:\s|$)")
# bibtexparser logs each broken block as a warning; kg reports it as a FILE:LINE problem instead
logging.getLogger("bibtexparser").addHandler(logging.NullHandler())
logging.getLogger("bibtexparser").propagate = False


def read_bibtex(path: str, lines: Iterable[Line], max_chars: int) -> Iterator[Paper | Problem]:
    """Papers from the entries of a BibTeX file, a problem for each entry that cannot be parsed."""
    import bibtexparser  # (here: 10 ms that only a .bib input needs)
    from bibtexparser.middlewares import NormalizeFieldKeys, SeparateCoAuthors, default_parse_stack
    from bibtexparser.model import DuplicateBlockKeyBlock, DuplicateFieldKeyBlock

    texts: list[str] = []
    yield from whole_text(path, lines, texts)
    stack = [*default_parse_stack(), NormalizeFieldKeys(), SeparateCoAuthors()]
    library = bibtexparser.parse_string("\n".join(texts), parse_stack=stack)
    macros = {str(m.key).lower(): str(m.value) for m in library.strings}
    blocks: list[tuple[int, Entry | Problem]] = [((e.start_line or 0) + 1, e) for e in library.entries]
    for block in library.failed_blocks:
        line = (block.start_line or 0) + 1
        repeated = isinstance(block, (DuplicateBlockKeyBlock, DuplicateFieldKeyBlock))
        entry = _set_aside(block.ignore_error_block, stack, library) if repeated else None
        if entry is None:
            head = (block.raw or "").lstrip().split("\n", 1)[0][:60]
            blocks.append((line, Problem(Source(path, line), f"invalid BibTeX entry {head!r}: unbalanced braces or "
                                                             f"quotes, or a missing comma")))
            continue
        if isinstance(block, DuplicateFieldKeyBlock):
            fields = ", ".join(sorted(block.duplicate_keys))
            blocks.append((line, InputWarning(Source(path, line), f"BibTeX entry {entry.key!r} gives {fields} twice; "
                                                                  f"the last is read")))
        blocks.append((line, entry))  # (a key given twice: still two records; kg merges repeats itself)
    for line, entry in sorted(blocks, key=lambda b: b[0]):
        if isinstance(entry, Problem):
            yield entry
        else:
            try:
                record = to_record(entry, macros)
            except (TypeError, ValueError, AttributeError) as e:  # a field of an unexpected shape
                yield Problem(Source(path, line), f"BibTeX entry {entry.key!r} cannot be read: {e}")
                continue
            yield from paper_from_fields(record, Source(path, line), max_chars, shape=f"BibTeX entry {entry.key!r}")


def _set_aside(block: object, stack: list[Middleware], library: Library) -> Entry | None:
    """An entry bibtexparser set aside (its key repeats an earlier entry's, or it repeats a field) read as the others:
    the stack's middlewares pass set-aside blocks by, so they run on it alone, beside copies of the file's
    ``@string`` macros; ``NormalizeFieldKeys`` keeps a repeated field's last value. None for no entry, or one a
    middleware fails on."""
    from bibtexparser import Library
    from bibtexparser.model import Entry

    if not isinstance(block, Entry):
        return None
    alone = Library([*copy.deepcopy(library.strings), block], fail_on_duplicate_key=False)
    for middleware in stack:
        alone = middleware.transform(alone)
    return alone.entries[0] if alone.entries else None


def to_record(entry: Entry, macros: dict[str, str] | None = None) -> dict:
    """kg's fields of a BibTeX entry (``macros``: the file's ``@string`` definitions, for values joined with
    ``#``)."""
    f = {k.lower(): _joined(v.value, macros or {}) for k, v in entry.fields_dict.items()}
    eprint = f.get("eprint")
    prefix = str(first(f.get("archiveprefix"), f.get("eprinttype")) or "").lower()
    note = _ARXIV_NOTE.search(f.get("note") or "") if isinstance(f.get("note"), str) else None  # Zotero's
    # Google Scholar's "journal = {arXiv preprint arXiv:2005.14165}" names the preprint too
    cited = _ARXIV_NOTE.search(f.get("journal") or "") if isinstance(f.get("journal"), str) else None
    arxiv = first(f.get("arxivid"), eprint if prefix == "arxiv" or (isinstance(eprint, str)
                                                                     and is_arxiv_id(eprint.strip())) else None,
                  note.group(1) if note else None,
                  cited.group(1).rstrip(".,;") if cited and is_arxiv_id(cited.group(1).rstrip(".,;")) else None)
    venue = first(f.get("booktitle"), f.get("journal"), f.get("journaltitle"), f.get("eventtitle"),
                  "arXiv" if arxiv or str(f.get("publisher", "")).lower() == "arxiv" else None)
    authors = [a for a in (f.get("author") or []) if a.strip().lower() != "others"] if isinstance(
        f.get("author"), list) else f.get("author") or []  # ("and others": the rest unnamed)
    return {
        "text": decode(f.get("abstract")),
        "title": decode(f.get("title")),
        "doi": unescape(f.get("doi")),
        "arxiv_id": unescape(arxiv),
        "url": unescape(f.get("url")),
        "year": first(f.get("year"), f.get("date")),
        "venue": decode(venue),
        "authors": [person(decode(a) or "") for a in (authors if isinstance(authors, list) else [authors])],
        "keywords": keywords(decode(first(f.get("keywords"), f.get("mendeley-tags")))),
    }


_PART = re.compile(r'\s*(?:"([^"]*)"|\{([^{}]*)\}|([A-Za-z][\w.:-]*)|(\d+))\s*')


def _joined(value: object, macros: dict[str, str]) -> object:
    """A value BibTeX joins with ``#`` (``pre # "NAACL-HLT 2019"``, ``pre # acl # " 2022"``) as one string: quoted
    and braced parts as written, names by the file's ``@string`` macros. Other values as they are."""
    if not isinstance(value, str) or "#" not in value:
        return value
    out = []
    for piece in value.split("#"):
        m = _PART.fullmatch(piece)
        if m is None:
            return value  # a '#' inside a quoted or braced value: no joining
        quoted, braced, name, number = m.groups()
        if name is not None and name.lower() not in macros:
            return value
        out.append(quoted if quoted is not None else braced if braced is not None else
                   macros[name.lower()] if name is not None else number)
    return "".join(out) if len(out) > 1 else value


def decode(value: object) -> str | None:
    """A field's TeX as text: ``{BERT}: Pre-training`` -> ``BERT: Pre-training``, ``M{\\"u}ller`` -> ``Müller``,
    ``--`` -> ``–``. Formulas (``$\\alpha$``) stay as they are, as other sources give them: kg cleans them for
    extraction and display."""
    if not isinstance(value, str):
        return None
    value = _SPACED_ACCENT.sub(r"\\\1{\2}", _DOTLESS_ACCENT.sub(r"\1{i}", value)).replace("{-}", "-")
    text = strip_case_braces(value).replace("---", "\u2014").replace("--", "\u2013")
    pieces, at = [], 0
    for start, (close, width) in sorted(pair_dollars(text).items()):
        pieces += [_decoded(text[at:start]), text[start : close + width]]
        at = close + width
    pieces.append(_decoded(text[at:]))
    return " ".join("".join(pieces).split()) or None


_DOTLESS_ACCENT = re.compile(r"(\\['\"`^~=.])\s*(?:\{\\i\}|\\i(?![A-Za-z]))")  # {\'\i} is í, not "\'ı"
_SPACED_ACCENT = re.compile(r"\\([vcuHkrdb])\s+([A-Za-z])")  # {\v r} is \v{r}: ř


def _decoded(text: str) -> str:
    """``text`` cleaned, keeping a space at either end that it has."""
    if not text.strip():
        return " " if text else ""
    return (" " if text[0].isspace() else "") + clean(text).text + (" " if text[-1].isspace() else "")


def strip_case_braces(value: str) -> str:
    """Drop the braces BibTeX uses to protect case (``{BERT}``, ``{{Attention Is All You Need}}``), but not the
    argument braces of a command (``\\textbf{x}``, ``\\"{o}``, ``x^{2}``, ``\\frac{a}{b}``), which clean() reads."""
    pairs = match_braces(value) if "{" in value else {}
    drop: set[int] = set()
    for start, end in pairs.items():
        before = value[start - 1] if start else " "
        command = before.isalnum() or before in "^_}]" or (start >= 2 and value[start - 2] == "\\")
        if not command and not value.startswith("\\", start + 1):  # "{\\em x}", "{\\"o}": clean() reads those
            drop.update((start, end))
    return "".join(ch for i, ch in enumerate(value) if i not in drop) if drop else value


def unescape(value: object) -> str | None:
    """A DOI's or URL's text: braces and backslash escapes (``\\_``, ``\\%``) removed."""
    if not isinstance(value, str):
        return None
    text = value.replace("{", "").replace("}", "")
    for ch in "_%&#$~":
        text = text.replace("\\" + ch, ch)
    return text.strip() or None
