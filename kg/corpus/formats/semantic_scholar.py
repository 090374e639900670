"""Semantic Scholar papers: the Graph API's paper records (``paperId``, ``externalIds``) and the datasets' lines
(``corpusid``, ``externalids``; the ``abstracts`` dataset's ``openaccessinfo``)."""
from __future__ import annotations

from kg.corpus.formats.fields import first, get

NAME = "Semantic Scholar paper"


def matches(value: dict) -> bool:
    """Whether ``value`` is a Semantic Scholar paper record."""
    return any(k in value for k in ("paperId", "externalIds", "corpusid", "externalids", "openaccessinfo"))


def _external(value: dict) -> dict:
    ids = first(value.get("externalIds"), value.get("externalids"), get(value, "openaccessinfo", "externalids"))
    return {str(k).lower(): v for k, v in ids.items()} if isinstance(ids, dict) else {}


def to_record(value: dict) -> dict:
    """kg's fields of a Semantic Scholar paper."""
    ids = _external(value)
    corpus = first(value.get("corpusId"), value.get("corpusid"), ids.get("corpusid"))
    own = [str(i) for i in (value.get("paperId"), f"CorpusId:{corpus}" if corpus not in (None, "") else None) if i]
    fields = value.get("fieldsOfStudy") or value.get("s2FieldsOfStudy") or value.get("s2fieldsofstudy") or []
    return {
        "id": own[0] if own else None,
        "other_ids": own[1:],
        "text": value.get("abstract"),
        "title": value.get("title"),
        "doi": ids.get("doi"),
        "arxiv_id": ids.get("arxiv"),
        "year": first(value.get("year"), value.get("publicationDate"), value.get("publicationdate")),
        "venue": first(value.get("venue"), get(value, "publicationVenue", "name"), get(value, "journal", "name")),
        "url": first(value.get("url"), get(value, "openAccessPdf", "url"), get(value, "openaccessinfo", "url")),
        "authors": value.get("authors") or [],
        "keywords": [f.get("category") if isinstance(f, dict) else f for f in fields],
    }
