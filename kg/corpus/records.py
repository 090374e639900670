"""From one input record (a JSON object or CSV row) to a :class:`~kg.model.Paper`, and the paper identity rules."""
from __future__ import annotations

import hashlib
import json
import re
import unicodedata
from collections.abc import Iterator

from kg.errors import Problem
from kg.model import Paper, Source

_ARXIV_NEW_ID = re.compile(r"(\d\d)(0[1-9]|1[0-2])\.\d{4,5}(v\d+)?")
_ARXIV_OLD_ID = re.compile(r"[a-z][a-z.-]*(\.[A-Z]{2})?/(\d\d)(0[1-9]|1[0-2])\d{3}(v\d+)?")
_ARXIV_FIELDS = ("categories", "update_date", "versions")
_SURROGATE = re.compile("[\ud800-\udfff]")


def content_id(text: str) -> str:
    """A paper id from its abstract alone: NFKC, whitespace collapsed, lowercased, sha256, 16 hex digits.

    >>> content_id("Deep  Learning\\n") == content_id("deep learning")
    True
    """
    normalised = " ".join(unicodedata.normalize("NFKC", text).split()).lower()
    return hashlib.sha256(normalised.encode("utf-8", "surrogatepass")).hexdigest()[:16]


# The names common exports give kg's fields (a scraped CSV's "paper_id" and "link", arXiv API's "summary"), in
# order of preference; a record's own kg name always wins.
FIELD_NAMES: dict[str, tuple[str, ...]] = {
    "id": ("paper_id", "paperId", "paper-id", "arxiv_id", "openreview_id", "doc_id", "uid"),
    "text": ("summary", "abstract_text", "paper_abstract"),
    "title": ("paper_title",),
    "url": ("link", "paper_url", "pdf_url", "href", "pdf"),
    "venue": ("conference", "booktitle", "journal", "source_venue"),
    "year": ("publication_year", "pub_year"),
    "authors": ("author", "author_names"),
}


def with_kg_names(value: dict) -> dict:
    """``value`` with each of kg's fields that it lacks taken from a common other name (:data:`FIELD_NAMES`)."""
    out = value
    for name, others in FIELD_NAMES.items():
        if value.get(name) in (None, "") and not (name == "text" and value.get("abstract") not in (None, "")):
            found = next((other for other in others if value.get(other) not in (None, "")), None)
            if found is not None:
                if out is value:
                    out = dict(value)
                out[name] = value[found]
    return out


def paper_from_record(value: object, source: Source, max_chars: int) -> Iterator[Paper | Problem]:
    """A paper from one JSON object or CSV row; problems with optional fields are reported and the field left out.
    Common other names of kg's fields count too (:data:`FIELD_NAMES`)."""
    if not isinstance(value, dict):
        yield Problem(source, f"expected a JSON object, got {_json_type(value)}")
        return
    value = with_kg_names(value)
    given = (value.get(name) for name in ("text", "abstract"))
    text = next((t for t in given if t is not None and not (isinstance(t, str) and not t.strip())), None)
    if text is None:
        yield Problem(source, "record has no 'text' or 'abstract'")
        return
    if not isinstance(text, str):
        yield Problem(source, f"'text' or 'abstract' is {_json_type(text)}, not a string")
        return
    problem = check_text(text, source, max_chars)
    if problem is not None:
        yield problem
        return
    problems: list[Problem] = []
    raw_id = value.get("id")
    record_id = None
    if isinstance(raw_id, str) and _SURROGATE.search(raw_id):
        problems.append(Problem(source, "id holds an unpaired surrogate escape (\\ud800-\\udfff); the paper is "
                                        "identified by its text instead"))
    elif isinstance(raw_id, (str, int)) and not isinstance(raw_id, bool) and str(raw_id).strip():
        record_id = str(raw_id).strip()
    elif raw_id not in (None, ""):
        problems.append(Problem(source, f"bad id {_short(raw_id)}: expected a string or a number"))
    title, venue, url = (_string(value, name, source, problems) for name in ("title", "venue", "url"))
    year = _year(value.get("year"), source, problems)
    if record_id and (any(name in value for name in _ARXIV_FIELDS) or _ARXIV_NEW_ID.fullmatch(record_id)):
        venue = venue or "arXiv"
        year = year or _arxiv_year(record_id, value.get("update_date"))
        url = url or f"https://arxiv.org/abs/{record_id}"
    authors = _valid_authors(_authors(value), source, problems)
    yield from problems
    yield Paper(
        id=record_id or content_id(text),
        text=text,
        title=title,
        venue=venue,
        year=year,
        authors=authors,
        url=url,
        sources=[source],
        has_input_id=record_id is not None,
    )


def check_text(text: str, source: Source, max_chars: int) -> Problem | None:
    """What makes an abstract unusable (too long, not valid Unicode), or None."""
    if len(text) > max_chars:
        return Problem(source, f"abstract is {len(text)} characters; the limit is {max_chars}")
    if _SURROGATE.search(text):  # a "\udc80" escape in JSON: not Unicode, and no file writer would take it
        return Problem(source, "abstract holds an unpaired surrogate escape (\\ud800-\\udfff)")
    return None


def _string(value: dict, name: str, source: Source, problems: list[Problem]) -> str | None:
    """An optional text field, whitespace collapsed (arXiv titles are wrapped); numbers are taken as text."""
    raw = value.get(name)
    if raw is None or isinstance(raw, bool) or not isinstance(raw, (str, int, float)):
        if raw is not None:
            problems.append(Problem(source, f"bad {name} {_short(raw)}: expected a string"))
        return None
    text = " ".join(str(raw).split())
    if _SURROGATE.search(text):
        problems.append(Problem(source, f"{name} holds an unpaired surrogate escape (\\ud800-\\udfff); left out"))
        return None
    return text or None


def _valid_authors(names: list[str], source: Source, problems: list[Problem]) -> list[str]:
    """``names`` without those that are not valid Unicode (reported)."""
    bad = [n for n in names if _SURROGATE.search(n)]
    if bad:
        problems.append(Problem(source, f"{len(bad)} author name(s) hold an unpaired surrogate escape; left out"))
    return [n for n in names if n not in bad]


def _year(raw: object, source: Source, problems: list[Problem]) -> int | None:
    if raw is None or raw == "":
        return None
    year: int | None = None
    if isinstance(raw, int) and not isinstance(raw, bool):
        year = raw
    elif isinstance(raw, float) and raw.is_integer():  # 2024.0 from a spreadsheet export
        year = int(raw)
    elif isinstance(raw, str) and re.fullmatch(r"\d{4}(-\d\d){0,2}", raw.strip()):  # 2024, 2024-05-01
        year = int(raw.strip()[:4])
    if year is None or not 1000 <= year <= 2999:
        problems.append(Problem(source, f"bad year {_short(raw)}: expected a four-digit year"))
        return None
    return year


def _arxiv_year(arxiv_id: str, update_date: object) -> int | None:
    """The submission year encoded in an arXiv id (``2401.12345``, ``hep-th/9901001``), else the last update's."""
    if m := _ARXIV_NEW_ID.fullmatch(arxiv_id):
        return 2000 + int(m.group(1))
    if m := _ARXIV_OLD_ID.fullmatch(arxiv_id):
        yy = int(m.group(2))
        return 1900 + yy if yy >= 91 else 2000 + yy  # old-style ids ran from 1991 to 2007
    if isinstance(update_date, str) and re.match(r"\d{4}-", update_date):
        return int(update_date[:4])
    return None


def _authors(value: dict) -> list[str]:
    """Authors from a list of names, a list of ``{"name": ...}``, arXiv's ``authors_parsed`` or a string like
    ``"A. Smith, B. Jones and C. Lee"``."""
    parsed = value.get("authors_parsed")
    raw = value.get("authors")
    if isinstance(parsed, list) and all(isinstance(p, list) and len(p) >= 2 for p in parsed):
        return [" ".join(str(part) for part in (p[1], p[0], *p[2:3]) if part).strip() for p in parsed]
    if isinstance(raw, str):
        return [n for n in re.split(r"\s*[,;]\s*(?:and\s+)?|\s+and\s+", " ".join(raw.split())) if n]
    if isinstance(raw, list):
        names = (a.get("name") if isinstance(a, dict) else a for a in raw)
        return [" ".join(n.split()) for n in names if isinstance(n, str) and n.strip()]
    return []


def merge_into(paper: Paper, later: Paper) -> None:
    """Fill the gaps in ``paper`` from a later record of the same paper and remember where that was read."""
    paper.sources.extend(s for s in later.sources if s not in paper.sources)
    paper.title = paper.title or later.title
    paper.venue = paper.venue or later.venue
    paper.year = paper.year or later.year
    paper.url = paper.url or later.url
    paper.authors = paper.authors or later.authors


def _json_type(value: object) -> str:
    names = {dict: "an object", list: "an array", str: "a string", bool: "a boolean", type(None): "null"}
    return names.get(type(value), "a number")


def _short(value: object) -> str:
    text = json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
