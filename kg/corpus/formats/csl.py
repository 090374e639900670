"""CSL-JSON items, as Zotero, Mendeley and pandoc export them: ``title``, ``abstract``, ``DOI``, ``URL``,
``author`` as ``{family, given}``, ``issued`` as ``date-parts``, ``container-title``, ``keyword``."""
from __future__ import annotations

from kg.corpus.formats.fields import first, get, year_in
from kg.corpus.ids import normalise_arxiv

NAME = "CSL-JSON item"
_CSL_KEYS = ("issued", "container-title", "DOI", "URL", "citation-key", "event-title", "collection-title")


def matches(value: dict) -> bool:
    """Whether ``value`` is a CSL-JSON item (a ``type`` and one of CSL's own field names)."""
    if not isinstance(value.get("type"), str):
        return False
    authors = value.get("author")
    return any(k in value for k in _CSL_KEYS) or (
        isinstance(authors, list) and any(isinstance(a, dict) and ("family" in a or "literal" in a) for a in authors))


def _name(author: object) -> str | None:
    if not isinstance(author, dict):
        return None
    parts = [author.get(k) for k in ("given", "non-dropping-particle", "family", "suffix")]
    return first(author.get("literal"), " ".join(p for p in parts if isinstance(p, str) and p.strip()))  # type: ignore[return-value]


def _date_year(date: object) -> object:
    if isinstance(date, dict):
        parts = date.get("date-parts")
        return year_in(parts[0][0]) if isinstance(parts, list) and parts and isinstance(parts[0], list) and parts[0] \
            else year_in(first(date.get("raw"), date.get("literal")))
    return year_in(date)


def _text(raw: object) -> object:
    return raw[0] if isinstance(raw, list) and raw else raw  # container-title may be a list in older exports


def to_record(value: dict) -> dict:
    """kg's fields of a CSL-JSON item."""
    number = value.get("number")
    arxiv = normalise_arxiv(number) if isinstance(number, str) and number.lower().startswith("arxiv:") else None
    return {
        "text": value.get("abstract"),
        "title": value.get("title"),
        "doi": value.get("DOI"),
        "arxiv_id": arxiv,
        "url": value.get("URL"),
        "year": first(_date_year(value.get("issued")), _date_year(get(value, "event-date"))),
        "venue": first(_text(value.get("container-title")), value.get("event-title"), _text(value.get("event")),
                       "arXiv" if str(value.get("publisher", "")).lower() == "arxiv" else None),
        "authors": [_name(a) for a in value.get("author") or []],
        "keywords": value.get("keyword") or [],
    }
