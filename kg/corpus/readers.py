"""Read abstracts into :class:`~kg.model.Paper` records: paper lists (.txt), JSON lines and arXiv metadata (.jsonl,
.json), CSV, BibTeX (.bib), RIS (.ris), and JSON records of other tools (OpenAlex, Semantic Scholar, OpenReview,
CSL-JSON; :mod:`kg.corpus.formats`), gzipped or not, from files, directories or stdin.

Bad input never raises: each problem is reported as a :class:`~kg.errors.Problem` (``FILE:LINE: what is wrong``) and
reading goes on with the next record, so one broken line never costs the valid ones.
"""
from __future__ import annotations

import csv
import gzip
import itertools
import json
import os
import re
import sys
import zlib
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, MutableSequence, Sequence
from dataclasses import dataclass, field
from typing import BinaryIO, TextIO

from kg.corpus.formats import items_of
from kg.corpus.formats.bibtex import read_bibtex
from kg.corpus.formats.ris import read_ris
from kg.corpus.ids import compatible
from kg.corpus.lines import CountedLines
from kg.corpus.lines import decode as _decode
from kg.corpus.lines import peek as _peek
from kg.corpus.lines import text_lines as _text_lines
from kg.corpus.lines import whole_text
from kg.corpus.script import foreign_script
from kg.corpus import columns as read_options
from kg.corpus import duplicates
from kg.corpus.records import (FIELD_NAMES, YEAR, Line, MissingText, check_text, content_id, identifiers, merge_into,
                               named_venue, paper_from_record, title_conflict, title_key)
from kg.errors import InputError, InputWarning, Problem
from kg.model import Paper, Source
from kg.nlp import lexicon

# .json may be a whole JSON document (an array of records) or JSON lines, like the arXiv metadata snapshot
SUFFIXES: dict[str, str] = {".txt": "txt", ".jsonl": "jsonl", ".ndjson": "jsonl", ".json": "json", ".csv": "csv",
                             ".tsv": "tsv", ".tab": "tsv", ".bib": "bib", ".bibtex": "bib", ".ris": "ris"}
_EXPECTED = ".txt, .jsonl, .json, .csv, .tsv, .bib or .ris, gzipped or not"
_GZIP_MAGIC = b"\x1f\x8b"
_NOT_INPUTS = ("LICENSE", "LICENCE", "README", "COPYING", "NOTICE")  # a data directory's LICENSE.txt is no paper list

_Line = Line


@dataclass
class Corpus:
    """The papers read (deduplicated, in input order) and everything wrong with the input."""

    papers: MutableSequence[Paper] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)


def read_corpus(
    paths: Sequence[str], *, strict: bool = False, max_chars: int = 100_000, stdin: TextIO | None = None,
    into: PaperSet | None = None
) -> Corpus:
    """Read every input into one deduplicated corpus; ``strict`` raises :class:`InputError` at the first problem.

    The same abstract read twice (from one file or several) is one paper listing both sources; so is the same
    explicit id (with another title, a warning). The first record's fields win and later ones only fill gaps, except
    a published record's venue and year, which win over a preprint's (:func:`~kg.corpus.records.merge_into`), and
    the id: the best any record gives (a DOI other than arXiv's, else an arXiv id, else a source's id, else the
    content hash). Records sharing a DOI, arXiv id or source id are one paper too, and so is the same abstract (as it
    reads: LaTeX and markdown aside) under ids that do not conflict (an arXiv id and an OpenReview note id). Two
    records with different ids of one kind (two DOIs, two ids of kg's own records) and the same abstract of 25 words
    or more are one paper unless their titles differ, with a warning and the other ids kept, else two papers, with a
    warning (:mod:`kg.corpus.duplicates`).
    ``into``: the set to read into (its ``papers`` become ``corpus.papers``; default: a new one over a list).
    """
    papers = into if into is not None else PaperSet()
    corpus = Corpus(papers=papers.papers)
    for item in iter_records(paths, max_chars=max_chars, stdin=stdin):
        problems: list[Problem] = []
        if isinstance(item, Paper):
            held = papers.add(item, problems)
            problem = title_conflict(held, item) if held is not item and not problems else None
            problems += [problem] if problem is not None else []
        else:
            problems.append(item)
        if problems and strict:
            raise InputError(problems[0])
        corpus.problems += problems
    return corpus


def iter_papers(paths: Sequence[str], *, strict: bool = False, max_chars: int = 100_000, stdin: TextIO | None = None,
                on_problem: Callable[[Problem], None] | None = None) -> Iterator[Paper]:
    """Stream unique papers without holding the corpus in memory (only ids and content hashes are kept).

    A repeat of an earlier paper is skipped by the rule of :class:`PaperSet`: a shared identifier, or the same
    abstract unless both records carry conflicting ids. Unlike :func:`read_corpus`, a repeat's sources are not merged
    into the paper, which has already been passed on.
    """
    # every identifier of the papers passed on (DOIs, arXiv ids, explicit ids) -> a hash of its paper's title key
    seen_ids: dict[str, int | None] = {}
    seen_content: dict[str, tuple[str, ...]] = {}  # text key -> the identifiers of the first paper with it
    seen_titles: dict[str, int] = {}  # text key -> the hash of the first paper's title key, if it has ids

    def report(problem: Problem) -> None:
        if strict:
            raise InputError(problem)
        if on_problem:
            on_problem(problem)

    for item in iter_records(paths, max_chars=max_chars, stdin=stdin):
        if isinstance(item, Problem):
            report(item)
            continue
        key = duplicates.text_key(item.text, None if item.has_input_id else item.id)
        ids = tuple(identifiers(item))  # (the empty tuple is one object: no memory per paper without ids)
        own = title_key(item.title)
        title = hash(own) if own else None  # (a number: less memory than the title)
        if any(i in seen_ids for i in ids):
            first = next((seen_ids[i] for i in ids if seen_ids.get(i) is not None), None)
            if first is not None and title is not None and title != first:  # (as records.title_conflict warns)
                report(InputWarning(item.sources[0], f"paper {item.id} again, with another title: {item.title!r}; "
                                                     f"the first record of it is kept"))
            continue
        held = seen_content.get(key)
        if held is not None and held and ids and not compatible(held, ids):
            if duplicates.long_enough(item.text):
                held_title = seen_titles.get(key)
                titles = None if held_title is None or title is None else held_title == title
                report(duplicates.merged(item, held[0], None, held[0], titles) if titles is not False else
                       duplicates.apart(item, held[0], None))
                if titles is not False:
                    continue
        elif held is not None:
            continue
        seen_ids.update((i, title) for i in ids)
        if key not in seen_content:
            seen_content[key] = ids
            if ids and title is not None:
                seen_titles[key] = title
        yield item


class PaperSet:
    """Papers in first-seen order, deduplicated by identifier (a shared DOI, arXiv id or explicit id) or by content
    (see :func:`read_corpus`).

    ``papers`` holds them: a list, or any sequence with ``append``, ``len``, indexing and item assignment (the build
    keeps them on disk, :class:`kg.build.cache.PaperSpool`); the set itself keeps only ids and content hashes.
    """

    def __init__(self, papers: MutableSequence[Paper] | None = None) -> None:
        self.papers: MutableSequence[Paper] = papers if papers is not None else []
        self._by_id: dict[str, int] = {}  # every identifier of every paper (:func:`identifiers`) -> its index
        self._by_content: dict[str, int] = {}
        self._own_id = bytearray()  # per paper: whether it carries an explicit id

    @staticmethod
    def _content_key(item: Paper) -> str:
        """The key its text gives a paper (:func:`kg.corpus.duplicates.text_key`; for a paper without an explicit id
        and without markup, its id)."""
        return duplicates.text_key(item.text, None if item.has_input_id else item.id)

    def _find(self, item: Paper, key: str) -> tuple[int | None, Problem | None]:
        """Where the paper ``item`` repeats is, or None; and the warning for one abstract under two ids (merged
        or not: :mod:`kg.corpus.duplicates`), or None."""
        known = next((self._by_id[i] for i in identifiers(item) if i in self._by_id), None)
        if known is not None:
            return known, None
        same_text = self._by_content.get(key)
        if same_text is None or not (self._own_id[same_text] and item.has_input_id):
            return same_text, None
        held = self.papers[same_text]  # (read back only when two papers with ids share a text: rare)
        if compatible(identifiers(held), identifiers(item)):
            return same_text, None
        if not duplicates.long_enough(item.text):
            return None, None
        titles, at = duplicates.same_title(held.title, item), held.sources[0] if held.sources else None
        if titles is not False:
            return same_text, duplicates.merged(item, held.id, at, held.id, titles)
        return None, duplicates.apart(item, held.id, at, held.title)

    def find(self, item: Paper) -> Paper | None:
        """The paper ``item`` duplicates (same explicit id, or same text where either has no explicit id, or the
        same title and text: :mod:`kg.corpus.duplicates`)."""
        at = self._find(item, self._content_key(item))[0]
        return None if at is None else self.papers[at]

    def add(self, item: Paper, problems: list[Problem] | None = None) -> Paper:
        """Add ``item`` or merge it into the paper it duplicates; returns the paper that holds it. ``problems``
        receives the warning for an abstract read under two ids."""
        key = self._content_key(item)  # once: hashing the normalised text is a third of reading a paper
        at, warning = self._find(item, key)
        if at is None:
            at = len(self.papers)
            self.papers.append(item)
            for i in identifiers(item):
                self._by_id.setdefault(i, at)
            self._by_content.setdefault(key, at)
            self._own_id.append(item.has_input_id)
            if warning is not None and problems is not None:
                problems.append(warning)
            return item
        known = self.papers[at]
        held_id = known.id
        merge_into(known, item)
        if warning is not None and problems is not None:  # (worded again: the merge may have changed the id)
            titles = duplicates.same_title(known.title, item)
            problems.append(duplicates.merged(item, held_id, known.sources[0], known.id, titles))
        for i in identifiers(known):
            self._by_id.setdefault(i, at)
        self._own_id[at] = known.has_input_id
        self.papers[at] = known  # stored again: a paper on disk is a copy
        return known


def iter_records(
    paths: Sequence[str], *, max_chars: int = 100_000, stdin: TextIO | None = None
) -> Iterator[Paper | Problem]:
    """Papers and problems in input order, one record at a time, without deduplication.

    ``-`` reads ``stdin`` (default ``sys.stdin``, gzipped or not; JSON, CSV, BibTeX, RIS or a paper list, told apart
    by the first line); a directory reads its supported files in name order, then its subdirectories'. A file's
    format is its suffix's (``.gz`` aside), or its first line's when the suffix names none (``part_000.gz``).
    """
    for path in [paths] if isinstance(paths, str) else paths:  # one path given bare is not a sequence of letters
        if path == "-":
            yield from _read_stdin(stdin, max_chars)
        elif os.path.isdir(path):
            yield from _read_directory(path, max_chars)
        else:
            yield from _read_file(path, max_chars)


def _read_directory(path: str, max_chars: int) -> Iterator[Paper | Problem]:
    """The supported files of a directory and of its subdirectories (as OpenAlex's snapshot nests them:
    ``works/updated_date=.../part_000.gz``), each directory's in name order before its subdirectories'; hidden
    directories and the folders of a kg build's output are skipped."""
    try:
        os.listdir(path)
    except OSError as e:
        yield Problem(Source(path, 0), f"cannot list directory: {e.strerror}")
        return
    files = []
    unreadable: list[Problem] = []
    for root, dirs, names in os.walk(path, onerror=lambda e: unreadable.append(
            Problem(Source(e.filename or path, 0), f"cannot list directory: {e.strerror}"))):
        own = _own_outputs(root)
        if own and root != path:
            dirs[:] = []
            continue  # another build's output
        dirs[:] = [] if own else sorted(d for d in dirs if not d.startswith(".") and d not in _TOOL_FOLDERS
                                        and not os.path.isfile(os.path.join(root, d, "pyvenv.cfg")))  # (a venv)
        files += [os.path.join(root, n) for n in sorted(names)
                  if _is_input_name(n) and not n.upper().startswith(_NOT_INPUTS) and n not in own
                  and os.path.isfile(os.path.join(root, n))]
    yield from unreadable
    if not files:
        yield Problem(Source(path, 0), f"no input files in directory (expected {_EXPECTED})")
    for file in files:
        yield from _read_file(file, max_chars)


# Folders of tools, never of inputs (a directory input skips them, and hidden folders and virtual environments)
_TOOL_FOLDERS = frozenset({"node_modules", "__pycache__", "site-packages"})

# What ``kg build`` writes into its --out directory (marked by the build's lock file, or its cache): never inputs,
# so ``kg build DIR --out DIR`` does not read its own outputs the next time.
_OWN_OUTPUTS = frozenset({"graph.json", "mentions.jsonl", "graph.graphml"})


def _own_outputs(path: str) -> frozenset[str]:
    """The names of kg's own output files when ``path`` is a directory a build wrote into, else none."""
    marked = os.path.exists(os.path.join(path, ".kg.lock")) or os.path.isfile(os.path.join(path, "cache", "papers.jsonl"))
    return _OWN_OUTPUTS if marked else frozenset()


def _is_input_name(name: str) -> bool:
    """Whether a directory entry looks like an input: a supported suffix, gzipped or not, or a bare ``.gz``
    (OpenAlex and Semantic Scholar snapshots name their JSON lines ``part_000.gz``)."""
    stem, suffix = os.path.splitext(name.lower())
    return suffix in SUFFIXES or (suffix == ".gz" and _suffix(stem) in (*SUFFIXES, ""))


def _read_file(path: str, max_chars: int) -> Iterator[Paper | Problem]:
    if not os.path.exists(path):
        yield Problem(Source(path, 0), "no such file")
        return
    suffix = _suffix(path)
    inner = _suffix(path[: -len(suffix)]) if suffix == ".gz" else suffix
    if inner not in SUFFIXES and suffix != ".gz":
        yield Problem(Source(path, 0), f"unsupported file type {suffix or '(no extension)'!r}; expected {_EXPECTED}")
        return
    lines: CountedLines | None = None
    try:
        with open(path, "rb") as raw:
            stream: BinaryIO = raw
            if raw.peek(2)[:2] == _GZIP_MAGIC:  # by content: a .jsonl that is gzipped is read too
                stream = gzip.GzipFile(fileobj=raw)  # type: ignore[assignment]
            elif suffix == ".gz":
                yield Problem(Source(path, 0), "not gzip data, though the name ends in .gz")
                return
            lines = CountedLines(stream)
            notes: list[tuple[int, str]] = []
            yield from _noted(path, _parse(path, SUFFIXES.get(inner, ""), _decode(lines, notes), max_chars), notes)
    except (OSError, EOFError, zlib.error) as e:
        where = Source(path, lines.n + 1 if lines is not None and lines.n else 0)
        if isinstance(e, (EOFError, zlib.error, gzip.BadGzipFile)):
            yield Problem(where, f"corrupt or truncated gzip data ({_first_line(e)}); cannot read further")
        else:
            yield Problem(where, f"cannot read: {e.strerror or e}")


def _read_stdin(stdin: TextIO | None, max_chars: int) -> Iterator[Paper | Problem]:
    notes: list[tuple[int, str]] = []
    if stdin is None and hasattr(sys.stdin, "buffer"):
        data: BinaryIO = sys.stdin.buffer
        if hasattr(data, "peek") and data.peek(2)[:2] == _GZIP_MAGIC:
            data = gzip.GzipFile(fileobj=data)  # type: ignore[assignment]
        lines = _decode(data, notes)  # bytes, so that bad bytes become a problem on their line
    else:
        lines = _text_lines(stdin if stdin is not None else sys.stdin)
    yield from _noted("-", _parse("-", "", lines, max_chars), notes)


def _noted(path: str, records: Iterator[Paper | Problem], notes: list[tuple[int, str]]) -> Iterator[Paper | Problem]:
    """``records``, each after a warning for the ``notes`` made while its lines were read (:func:`_decode`)."""
    for record in itertools.chain(records, [None]):
        if notes:
            yield from (InputWarning(Source(path, number), message) for number, message in notes)
            notes.clear()
        if record is not None:
            yield record


_BIB_START = re.compile(r"\s*@[A-Za-z]+\s*[{(]")
_RIS_START = re.compile(r"\s*TY  - ")
_EXCEL_SEP = re.compile(r"sep=.", re.IGNORECASE)  # Excel's first line naming the separator: the header follows it
_TEXT_COLUMNS = frozenset(("text", "abstract", *FIELD_NAMES["text"]))  # a header naming one of these is a CSV's


def _sniff(first: str) -> str:
    """The format of an input whose name does not tell (stdin, ``part_000.gz``) by its first non-blank line."""
    start = first.lstrip()[:1]
    if start in ("{", "["):
        return "json"
    if _BIB_START.match(first) or first.lstrip().startswith("%"):
        return "bib"
    if _RIS_START.match(first):
        return "ris"
    if _EXCEL_SEP.fullmatch(first.strip()) or (len(header := _csv_header(first)) > 1 and _TEXT_COLUMNS
                                               & set(header)) or first.strip() in ("text", "abstract"):
        return "csv"  # (commas, semicolons or tabs; "text" alone: a one-column CSV, not a list opening "Abstract")
    return "txt"


def _parse(path: str, fmt: str, lines: Iterator[_Line], max_chars: int) -> Iterator[Paper | Problem]:
    first, lines = _peek(lines)
    if first is None:
        yield Problem(Source(path, 0), "empty file")
        return
    fmt = fmt or _sniff(first)
    if fmt == "txt" and _RIS_START.match(first):
        fmt = "ris"  # an EndNote or Web of Science export saved as .txt
    if fmt == "bib":
        records = read_bibtex(path, lines, max_chars)
    elif fmt == "ris":
        records = read_ris(path, lines, max_chars)
    elif fmt == "txt":
        records = _read_txt(path, lines, max_chars)
    elif fmt in ("csv", "tsv"):
        records = _read_csv(path, lines, max_chars, tabs=fmt == "tsv")
    elif fmt == "json" and (first.lstrip().startswith("[") or first.lstrip().startswith("{") and not _whole(first)):
        records = _read_json_document(path, lines, max_chars)  # (a document indented or wrapped: '{"notes": [')
    else:
        records = _read_json_lines(path, lines, max_chars)
    found = False
    missing: list[Problem] = []  # records without an abstract beyond the first few: one line for them all
    foreign: list[tuple[Source, str]] = []  # papers whose abstract is not in English: one line for them all
    for record in records:
        found = True
        if isinstance(record, MissingText):
            if len(missing) < _MISSING_SHOWN:
                yield record
            missing.append(record)
            continue
        if isinstance(record, Paper) and (script := foreign_script(record.text)) is not None:
            foreign.append((record.sources[0], script))
        yield record
    if len(missing) > _MISSING_SHOWN:
        more = missing[_MISSING_SHOWN:]
        yield MissingText(more[0].source, f"{len(more)} more records without an abstract (lines "
                                          f"{_lines_of(more)}); skipped")
    if foreign:
        yield _not_english(foreign)
    if not found:
        yield Problem(Source(path, 0), "no abstracts in file")
    options = read_options.current()
    for pair in options.missing(path) if options is not None else []:
        yield InputWarning(Source(path, 0), f"--map {pair}: no record has that column; not used")


_MISSING_SHOWN = 3


def _not_english(foreign: list[tuple[Source, str]]) -> InputWarning:
    """One warning for the papers of a file whose abstracts are not in English (:mod:`kg.corpus.script`), at the
    first one's line."""
    names = [s for s, _ in Counter(s for _, s in foreign).most_common()]
    scripts = ", ".join(names) + (" scripts" if len(names) > 1 else " script")
    lines = [f"{source.line}" for source, _ in foreign]
    where = "" if len(foreign) == 1 else f"{len(foreign)} abstracts (lines {', '.join(lines[:5])}" + (
        ", ...)" if len(lines) > 5 else ")") + " are"
    what = f"{where} not in English" if where else "abstract is not in English"
    return InputWarning(foreign[0][0], f"{what} ({scripts}; kg extracts from English text): "
                                       f"{'its paper is' if len(foreign) == 1 else 'their papers are'} kept, with "
                                       "few or no concepts")


def _lines_of(problems: list[Problem], limit: int = 5) -> str:
    lines = [str(p.source.line) for p in problems]
    return ", ".join(lines[:limit]) + (", ..." if len(lines) > limit else "")


# --- formats -------------------------------------------------------------------------------------------------------

def _read_txt(path: str, lines: Iterable[_Line], max_chars: int) -> Iterator[Paper | Problem]:
    """A paper list: an optional header line naming venue and year, then one abstract per blank-line-separated block,
    or per line where every line of a block is a whole paragraph (:func:`_abstracts`)."""
    venue: str | None = None
    year: int | None = None
    first_block = True
    for item in _blocks(path, lines):
        if isinstance(item, Problem):
            yield item
            continue
        block, unreadable = item
        if first_block and not unreadable:
            header, block = _split_header(block)
            if header is not None:
                venue, year = header
        first_block = False
        for start, abstract in _abstracts(block, unreadable):
            title = None
            if len(block) > 1 and start == block[0][0] and _title_line(block[0][1], [text for _, text in block[1:]]):
                title, abstract = block[0][1].strip(), "\n".join(text for _, text in block[1:]).strip()
            problem = check_text(abstract, Source(path, start), max_chars)
            if problem is None and len(block) == 1 and _no_abstract(abstract):
                problem = MissingText(Source(path, start), f"block is one short line with no sentence "
                                                           f"({_quoted(abstract)}): a heading, or a title without "
                                                           "its abstract; skipped")
            if problem is not None:
                yield problem
            else:
                yield Paper(content_id(abstract), abstract, title=title, venue=venue, year=year,
                            sources=[Source(path, start)])


def _blocks(path: str, lines: Iterable[_Line]) -> Iterator[Problem | tuple[list[tuple[int, str]], bool]]:
    """A paper list's blank-line-separated blocks: each block's lines ``(number, text)`` and whether one of its lines
    was unreadable (a problem, reported as it is read)."""
    block: list[tuple[int, str]] = []
    unreadable = False
    for number, text, error in itertools.chain(lines, [(0, "", None)]):  # a blank line to end the last block
        if error is not None:
            yield Problem(Source(path, number), error)
            unreadable = True
        elif text.strip():
            block.append((number, text))
        elif block or unreadable:
            yield block, unreadable
            block, unreadable = [], False


def _split_header(block: list[tuple[int, str]]) -> tuple[tuple[str | None, int | None] | None, list[tuple[int, str]]]:
    """The (venue, year) of the header a paper list's first block is or opens with, else None; and the block's lines
    after the header. "NeurIPS 2024" right above the first abstract (no blank line) is one when it names a known venue
    and a year in four words at most."""
    texts = [text for _, text in block]
    header = _header(texts)
    if header is not None:  # a header alone
        return header, []
    if len(block) > 1 and len(texts[0].split()) <= 4 and (header := _header(texts[:1], strict=True)):
        return header, block[1:]
    return None, block


_PARAGRAPH_CHARS = 200  # longer than any hard-wrapped line
_SENTENCE_END = re.compile(r"[.!?][\"'\u201d\u2019)\]]*\s*$")
_STATEMENT_END = re.compile(r"[.\u2026\u3002\uff0e][\"'\u201d\u2019)\]]*\s*$")  # ".", "…", "。" (no "?": a title's)


def _no_abstract(text: str) -> bool:
    """Whether a block of one line is no abstract: shorter than a paragraph and ending no statement ("Oral session
    3", "Attention Is All You Need", "Do Transformers Really Perform Bad for Graph Representation?")."""
    return "\n" not in text and len(text) < _PARAGRAPH_CHARS and _STATEMENT_END.search(text) is None


_NAMED_TITLE = re.compile(r"[^\s:]+(?: [^\s:]+){0,5}: \S")  # up to six words, a colon: "Why X fail: ..."
# A first line this much shorter than the block's widest line, with the next line's first word, was not wrapped there
# (hand- or PDF-wrapped lines are ragged; greedy wrapping fills each line to the width)
_WRAP_SLACK = 0.8
_FUNCTION_WORDS = lexicon.words("function_words") | lexicon.words("prepositions")  # (no title's last word)


def _title_line(first: str, rest: list[str]) -> bool:
    """Whether a block's first line is its abstract's title (``rest``: the block's other lines): it ends no
    statement, the next line opens a sentence, and it reads as a title: most of its words of four letters or more
    capitalised, or up to six words before a colon ("Attention Is All You Need", "DiffCSE: Difference-based
    Contrastive Learning"). A hard-wrapped abstract's first line goes on in the next one, in lower case. A title in
    sentence case ("Learning to reason over graphs") is told by the lines after it: one whole paragraph, or lines
    wrapped narrower than it, or so wide that a wrapped first line would have held the next line's first word."""
    first, second = first.strip(), rest[0].strip()
    if not _no_abstract(first) or not second[:1].isupper():
        return False
    long_words = [w for w in re.findall(r"[^\W\d_][\w'-]*", first) if len(w) >= 4]
    capitalised = sum(w[0].isupper() for w in long_words)
    if long_words and capitalised * 2 > len(long_words) or _NAMED_TITLE.match(first):
        return True
    if first.rsplit(None, 1)[-1].lower() in _FUNCTION_WORDS:
        return False  # a line that stops at "on", "the", "and" goes on in the next: "... our retrieval method on"
    if len(rest) == 1:
        return len(second) >= _PARAGRAPH_CHARS and _SENTENCE_END.search(second) is not None
    width = max(len(line.strip()) for line in rest)  # (a wrapped first line is no wider than the others)
    return len(first) > width / _WRAP_SLACK or len(first) + 1 + len(second.split()[0]) <= _WRAP_SLACK * width


def _quoted(text: str, limit: int = 60) -> str:
    return repr(text if len(text) <= limit else text[:limit - 3] + "...")


def _abstracts(block: list[tuple[int, str]], unreadable: bool) -> list[tuple[int, str]]:
    """The abstracts of a block, each with its first line: one a line where every line is a whole paragraph (at least
    ``_PARAGRAPH_CHARS`` characters, ending a sentence: a list with an abstract per line), else the block as one
    abstract (hard-wrapped, its inner newlines kept); none of a block that is one abstract with a line unreadable."""
    if len(block) > 1 and all(len(text.strip()) >= _PARAGRAPH_CHARS and _SENTENCE_END.search(text)
                              for _, text in block):
        return [(number, text.strip()) for number, text in block]
    if unreadable or not block:
        return []
    return [(block[0][0], "\n".join(text for _, text in block).strip())]


_ACRONYM = re.compile(r"[A-Z][A-Za-z]*[A-Z][A-Za-z]*")  # ICML, NeurIPS


def _header(block: list[str], strict: bool = False) -> tuple[str | None, int | None] | None:
    """(venue, year) if the block is a header line like ``ICML 2026 论文列表`` or ``NeurIPS 2024 papers``: a
    known venue, or a year and a word in capitals ("ACMMM 2024"); ``strict``, a known venue and a year. "Reading
    list: RLHF and LLM alignment" names none: it is read as a block (of one short line: no abstract, skipped)."""
    line = block[0].strip()
    if len(block) != 1 or len(line) > 100 or len(line.split()) > 10 or line.endswith((".", "!", "?")):
        return None
    year = YEAR.search(line)
    words = re.findall(r"[A-Za-z]+", line)
    venue = named_venue(words)
    if strict and (venue is None or year is None):
        return None
    if venue is None and year is not None:
        venue = next((w for w in words if _ACRONYM.fullmatch(w)), None)
    if year is None and venue is None:
        return None
    return venue, int(year.group()) if year else None


def _whole(line: str) -> bool:
    """Whether a line is a whole JSON value (a JSON lines file's first record), not the start of a document."""
    try:
        json.loads(line)
    except ValueError:
        return False
    return True


def _read_json_lines(path: str, lines: Iterable[_Line], max_chars: int) -> Iterator[Paper | Problem]:
    for number, text, error in lines:
        source = Source(path, number)
        if error is not None:
            yield Problem(source, error)
        elif text.strip():
            try:
                value = json.loads(text)
            except json.JSONDecodeError as e:
                yield Problem(source, f"invalid JSON: {e.msg} (column {e.colno})")
            except (ValueError, RecursionError) as e:  # 5000-digit numbers, absurd nesting
                yield Problem(source, f"invalid JSON: {_first_line(e)}")
            else:
                wrapped = items_of(value)
                for item in wrapped[1] if wrapped else [value]:
                    yield from paper_from_record(item, source, max_chars)


def _read_json_document(path: str, lines: Iterable[_Line], max_chars: int) -> Iterator[Paper | Problem]:
    """A whole-file JSON array of records, or pretty-printed objects one after another."""
    texts: list[str] = []
    yield from whole_text(path, lines, texts)
    text = "\n".join(texts)
    decoder = json.JSONDecoder()
    i = _skip_space(text, 0)
    in_array = text.startswith("[", i)
    i = _skip_space(text, i + 1) if in_array else i
    line, counted = 1, 0
    while i < len(text) and not (in_array and text[i] == "]"):
        line, counted = line + text.count("\n", counted, i), i
        try:
            value, end = decoder.raw_decode(text, i)
        except json.JSONDecodeError as e:
            yield Problem(Source(path, e.lineno), f"invalid JSON: {e.msg} (column {e.colno}); cannot read further")
            return
        except (ValueError, RecursionError) as e:
            yield Problem(Source(path, line), f"invalid JSON: {_first_line(e)}; cannot read further")
            return
        wrapped = items_of(value)
        if wrapped:
            yield from _wrapped_items(path, text, i, end, line, wrapped, max_chars)
        else:
            yield from paper_from_record(value, Source(path, line), max_chars)
        i = _skip_space(text, end)
        if in_array and text.startswith(",", i):
            i = _skip_space(text, i + 1)
    if in_array and i >= len(text):
        yield Problem(Source(path, text.count("\n") + 1), "the JSON array ends without its ']': the file may be cut "
                                                           "short; the records before are read")


def _wrapped_items(path: str, text: str, start: int, end: int, line: int, wrapped: tuple[str, list],
                   max_chars: int) -> Iterator[Paper | Problem]:
    """The records of an API response (``{"meta": ..., "results": [...]}``), each at the line it starts on."""
    key, items = wrapped
    found = re.search(rf'"{re.escape(key)}"\s*:\s*\[', text[start:end])
    at = start + found.end() if found else end
    decoder = json.JSONDecoder()
    for item in items:
        at = _skip_space(text, at)
        try:
            _, stop = decoder.raw_decode(text, at)
        except ValueError:  # the key matched elsewhere: the response's line for all its records
            at, stop = start, start
        yield from paper_from_record(item, Source(path, line + text.count("\n", start, at)), max_chars)
        at = _skip_space(text, stop)
        at = at + 1 if text.startswith(",", at) else at


def _skip_space(text: str, i: int) -> int:
    while i < len(text) and text[i] in " \t\r\n":
        i += 1
    return i


def _read_csv(path: str, lines: Iterable[_Line], max_chars: int, tabs: bool = False) -> Iterator[Paper | Problem]:
    """CSV with a header row; a record's line is the line it starts on, even when quoted fields span lines. The
    separator is a tab in a ``.tsv`` file (``tabs``), else :func:`_delimiter`'s."""
    unreadable: list[Problem] = []
    first, lines = _peek(iter(lines))
    excel = first is not None and _EXCEL_SEP.fullmatch(first.strip()) is not None
    delimiter = "\t" if tabs and not excel else _delimiter(first or "")

    def feed() -> Iterator[str]:
        skip = excel
        for number, text, error in lines:
            if error is not None:
                unreadable.append(Problem(Source(path, number), error))
            if skip and text.strip():
                skip, text = False, ""  # Excel's "sep=" line, read as a blank one so that lines keep their numbers
            yield text + "\n"

    reader = csv.reader(feed(), strict=True, delimiter=delimiter)  # an unclosed quote is an error, not the rest
    # of the file in one field
    header: list[str] | None = None
    end = 0
    while True:
        start = end + 1
        try:
            row = next(reader)
        except StopIteration:
            break
        except csv.Error as e:
            yield Problem(Source(path, start), f"invalid CSV: {e}")
            row = None
        broken = bool(unreadable)  # the reader pulls no more lines than the row needs: they are all this row's
        yield from unreadable
        unreadable.clear()
        if end == reader.line_num:  # the reader made no progress: stop rather than loop
            break
        end = reader.line_num
        if row is None or broken or not any(cell.strip() for cell in row):
            continue
        if header is None:
            header = [name.strip().lower() for name in row]
            options = read_options.current()
            if options is not None:
                options.note_columns(path, header)  # (its rows leave empty cells out)
            mapped = (options.columns or {}).get("text") if options is not None else None
            if not (_TEXT_COLUMNS | ({mapped.lower()} if mapped else set())) & set(header):
                yield Problem(Source(path, start), "CSV header has no 'text' or 'abstract' column (columns: "
                              + ", ".join(header[:8]) + "; --map text=COLUMN names the abstract's)")
                return
        else:
            while len(row) > len(header) and not row[-1].strip():
                row.pop()  # empty fields after the last column: a separator that ends every line, as some
                # spreadsheets write it
            record = {name: cell for name, cell in zip(header, row) if cell.strip()}  # an empty cell is no value
            if len(row) > len(header) or len(row) < len(header) and not _TEXT_COLUMNS & record.keys() and not (
                    mapped and mapped.lower() in record):
                # (a short row with its abstract is read: the empty fields at its end left out)
                yield Problem(Source(path, start), f"row has {len(row)} fields; the header has {len(header)}")
                continue
            yield from paper_from_record(record, Source(path, start), max_chars)


def _delimiter(first: str) -> str:
    """A CSV's separator by its first line: what Excel's ``sep=;`` line names, else a comma, or a semicolon or tab
    where the header has no comma (spreadsheets in locales with decimal commas)."""
    if _EXCEL_SEP.fullmatch(first.strip()):
        return first.strip()[4]
    return next((d for d in (";", "\t") if d in first), ",") if "," not in first else ","


def _csv_header(line: str) -> list[str]:
    """The lower-cased column names of a first line read as a CSV header (separated as :func:`_delimiter` says)."""
    try:
        return [name.strip().lower() for name in next(csv.reader([line], delimiter=_delimiter(line)))]
    except (csv.Error, StopIteration):
        return []


def _first_line(error: BaseException) -> str:
    return (str(error).splitlines() or [type(error).__name__])[0]


def _suffix(path: str) -> str:
    return os.path.splitext(path)[1].lower()
