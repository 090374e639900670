"""Input lines as the readers take them: ``(number, text, error)``, decoded line by line so that bad bytes cost
only their own line (or none: a line in Windows-1252 is read as such), from files (gzipped or not) and standard
input."""
from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Iterator
from typing import BinaryIO, TextIO

from kg.corpus.records import Line
from kg.errors import Problem
from kg.model import Source


class CountedLines:
    """A binary stream's lines, counted as they are read (to say where a gzip error happened), with its ``peek``."""

    def __init__(self, stream: BinaryIO) -> None:
        self._stream = stream
        self.n = 0

    def peek(self, n: int) -> bytes:
        """The stream's next bytes, unread."""
        return self._stream.peek(n) if hasattr(self._stream, "peek") else b""  # type: ignore[attr-defined]

    def __iter__(self) -> Iterator[bytes]:
        for data in self._stream:
            self.n += 1
            yield data


_MAX_BAD_LINES = 5


def decode(stream: BinaryIO | CountedLines, notes: list[tuple[int, str]]) -> Iterator[Line]:
    """Decode line by line, so that bad bytes cost only their own line; a binary file is one problem. A line that
    is not UTF-8 but reads as text in Windows-1252 (:func:`legacy_text`) is read so, and the first such line of a
    file goes into ``notes`` as ``(number, message)``: a warning to give."""
    head = stream.peek(4096)[:4096] if hasattr(stream, "peek") else b""
    if head.startswith((b"\xff\xfe", b"\xfe\xff")):
        yield 1, "", "UTF-16 text; convert the file to UTF-8"
        return
    if b"\x00" in head and _line_error(head.split(b"\n", 1)[0]):
        yield 1, "", "binary data (NUL bytes), not UTF-8 text"
        return
    bad = good = 0
    read_as = ""  # the encoding the first line that is not UTF-8 was read in
    for number, data in enumerate(stream, 1):
        if number == 1 and data.startswith(b"\xef\xbb\xbf"):
            data = data[3:]
        error = _line_error(data)
        legacy = legacy_text(data) if error is not None else None
        if legacy is not None and not read_as:
            read_as = legacy[1]
            notes.append((number, f"{error}; read as {read_as}, as are any later lines that are not UTF-8"))
        if error is None or legacy is not None:
            good += 1
            yield number, (legacy[0] if legacy else data.decode("utf-8")).rstrip("\r\n"), None
            continue
        bad += 1
        if bad >= _MAX_BAD_LINES and bad > good:
            yield number, "", f"{error}; stopped reading after {bad} such lines"
            return
        yield number, "", error


def _line_error(data: bytes) -> str | None:
    """Why a line is not UTF-8 text, or None."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        return f"not UTF-8 text: byte 0x{data[e.start]:02x} at column {e.start + 1}"
    if "\x00" in text:  # valid UTF-8, but never in text: binary data or another encoding
        return f"binary data (NUL byte at column {text.index(chr(0)) + 1}), not UTF-8 text"
    return None


_CONTROL = re.compile(r"[\x00-\x08\x0e-\x1f\x7f]")  # never in text (tabs, line and page ends aside): binary data


def legacy_text(data: bytes) -> tuple[str, str] | None:
    """(text, encoding's name) of a line in Windows-1252, as Excel and older Windows tools save text, or in Latin-1
    where it has bytes Windows-1252 leaves undefined; None for a line with control characters (binary data)."""
    try:
        text, name = data.decode("cp1252"), "Windows-1252 (cp1252)"
    except UnicodeDecodeError:
        text, name = data.decode("latin-1"), "Latin-1"
    return None if _CONTROL.search(text) else (text, name)


def text_lines(stream: TextIO) -> Iterator[Line]:
    number = 0
    try:
        for number, text in enumerate(stream, 1):
            yield number, text.rstrip("\r\n"), None
    except UnicodeDecodeError as e:
        yield number + 1, "", f"not UTF-8 text ({e.reason}); cannot read further"


def peek(lines: Iterator[Line]) -> tuple[str | None, Iterator[Line]]:
    """The first non-blank line's text (None if there is none) and all the lines, still unread."""
    seen: list[Line] = []
    first = None
    for line in lines:
        seen.append(line)
        if line[2] is not None or line[1].strip():
            first = line[1]
            break
    return first, itertools.chain(seen, lines)


def whole_text(path: str, lines: Iterable[Line], texts: list[str]) -> Iterator[Problem]:
    """The problems of ``lines`` (of the file ``path``), while their texts go into ``texts``: a reader that parses
    the whole file joins them with newlines. An unreadable line stays as an empty one, so line numbers hold."""
    for number, text, error in lines:
        if error is not None:
            yield Problem(Source(path, number), error)
        texts.append(text)
