"""RIS (``.ris``), as Zotero, Mendeley, EndNote and publishers export it. Records are cut at their ``TY`` and ``ER``
lines here, so each keeps its line and a broken one costs only itself; ``rispy`` maps each record's tags
(``TI``/``T1``, ``AB``/``N2``, ``AU``/``A1``, ``DO``, ``UR``, ``PY``/``DA``, ``T2``/``JO``/``JF``, ``KW``)."""
from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from kg.corpus.formats.fields import first, keywords, person
from kg.corpus.ids import arxiv_from_url
from kg.corpus.records import Line, paper_from_fields
from kg.errors import InputWarning, Problem
from kg.model import Paper, Source

_TAG = re.compile(r"^([A-Z][A-Z0-9])  -(?: (.*))?$")


def read_ris(path: str, lines: Iterable[Line], max_chars: int) -> Iterator[Paper | Problem]:
    """Papers from the records of a RIS file; a problem for a record that cannot be read or text outside records."""
    record: list[str] = []
    start = 0
    stray = 0  # line of the first text outside a record, not yet reported
    for number, text, error in lines:
        if error is not None:
            yield Problem(Source(path, number), error)
            continue
        tag = _TAG.match(text.rstrip())
        if tag and tag.group(1) == "TY":
            if record:
                yield InputWarning(Source(path, start),
                                   "record has no 'ER  -' line before the next 'TY  -'; read as it is")
                yield from _record(path, start, record, max_chars)
            record, start = [text], number
        elif record:
            record.append(text)
            if tag and tag.group(1) == "ER":
                yield from _record(path, start, record, max_chars)
                record = []
        elif text.strip() and not stray:
            stray = number
            yield Problem(Source(path, number), "text outside a record (a RIS record starts with 'TY  - '); skipped")
    if record:
        yield InputWarning(Source(path, start), "record has no 'ER  -' line at the end of the file; read as it is")
        yield from _record(path, start, record, max_chars)


def _record(path: str, start: int, lines: list[str], max_chars: int) -> Iterator[Paper | Problem]:
    import rispy  # (here: only a .ris input needs it)

    if not lines[-1].startswith("ER  -"):
        lines = [*lines, "ER  - "]  # rispy reads nothing of a record without its end
    try:
        entries = rispy.loads("\n".join(lines) + "\n")
    except Exception as e:  # rispy raises plain exceptions on malformed records
        yield Problem(Source(path, start), f"invalid RIS record: {str(e).splitlines()[0] if str(e) else type(e).__name__}")
        return
    if len(entries) != 1:
        yield Problem(Source(path, start), "invalid RIS record")
        return
    try:
        record = to_record(entries[0])
    except (TypeError, ValueError, AttributeError) as e:  # a tag of an unexpected shape
        yield Problem(Source(path, start), f"RIS record cannot be read: {e}")
        return
    yield from paper_from_fields(record, Source(path, start), max_chars, shape="RIS record")


def to_record(r: dict) -> dict:
    """kg's fields of a record as rispy names its tags."""
    urls = [u for u in r.get("urls") or [] if isinstance(u, str)]
    return {
        "text": first(r.get("abstract"), r.get("notes_abstract")),
        "title": first(r.get("title"), r.get("primary_title"), r.get("translated_title")),
        "doi": r.get("doi"),
        "arxiv_id": next((a for a in map(arxiv_from_url, urls) if a), None),
        "url": urls[0] if urls else None,
        "year": _year(first(r.get("year"), r.get("publication_year"), r.get("date"))),
        "venue": first(r.get("secondary_title"), r.get("journal_name"), r.get("alternate_title3"),
                       r.get("alternate_title1"), r.get("alternate_title2")),
        "authors": [person(a) for a in first(r.get("authors"), r.get("first_authors")) or [] if isinstance(a, str)],
        "keywords": keywords(r.get("keywords")),
    }


def _year(raw: object) -> object:
    """``2017``, ``2017///``, ``2017/05/01/`` -> ``2017``."""
    m = re.match(r"\s*(\d{4})", raw) if isinstance(raw, str) else None
    return m.group(1) if m else raw
