"""Identifiers that name a paper across sources: DOIs and arXiv ids, normalised so that two exports of one paper
give the same string (``https://doi.org/10.1/ABC`` and ``10.1/abc``; ``arXiv:2401.12345v2`` and ``2401.12345``)."""
from __future__ import annotations

import re
from collections.abc import Sequence

_DOI = re.compile(r"10\.\d{4,9}/\S+")
_DOI_PREFIX = re.compile(r"^(?:https?://(?:dx\.)?doi\.org/|doi:\s*)", re.IGNORECASE)
# arXiv's own DataCite DOIs (10.48550/arXiv.2401.12345) name the preprint: its arXiv id is the better name
_ARXIV_DOI = re.compile(r"10\.48550/arxiv\.(.+)", re.IGNORECASE)
ARXIV_NEW = re.compile(r"(\d\d)(0[1-9]|1[0-2])\.\d{4,5}")
ARXIV_OLD = re.compile(r"[a-z][a-z.-]*(\.[A-Z]{2})?/(\d\d)(0[1-9]|1[0-2])\d{3}")
_ARXIV_ID = re.compile(rf"(?:{ARXIV_NEW.pattern}|{ARXIV_OLD.pattern})(?:v\d+)?")
_VERSION = re.compile(r"v\d+$")
_ARXIV_URL = re.compile(r"arxiv\.org/(?:abs|pdf|html)/([^\s?#]+?)(?:\.pdf)?/?(?:[?#]|$)", re.IGNORECASE)


def normalise_doi(raw: object) -> str | None:
    """A DOI in lower case without resolver prefix (``https://doi.org/``, ``doi:``), or None if ``raw`` holds none.

    >>> normalise_doi("https://doi.org/10.18653/V1/N19-1423")
    '10.18653/v1/n19-1423'
    """
    if not isinstance(raw, str):
        return None
    text = _DOI_PREFIX.sub("", raw.strip())
    m = _DOI.match(text)
    return m.group().rstrip(".,;").lower() if m else None


def normalise_arxiv(raw: object) -> str | None:
    """An arXiv id without version, ``arXiv:`` prefix or URL (``2401.12345``, ``hep-th/9901001``), or None.

    >>> normalise_arxiv("https://arxiv.org/abs/1706.03762v7"), normalise_arxiv("arXiv:1706.03762")
    ('1706.03762', '1706.03762')
    """
    if not isinstance(raw, str):
        return None
    text = raw.strip()
    if _ARXIV_ID.fullmatch(text):  # (the common case: an id as the arXiv snapshot writes it)
        return _VERSION.sub("", text)
    if m := _ARXIV_URL.search(text):
        text = m.group(1)
    elif m := _ARXIV_DOI.fullmatch(text.lower()) if text.lower().startswith("10.48550/") else None:
        text = m.group(1)
    text = re.sub(r"^arxiv:\s*", "", text, flags=re.IGNORECASE)
    m = _ARXIV_ID.fullmatch(text)
    return _VERSION.sub("", m.group()) if m else None


def normalise_id(raw: str) -> str:
    """An identifier as kg keeps and compares a paper's other ids: a DOI in lower case without resolver prefix, an
    arXiv id without version or prefix, anything else (an input's own id) as written, spacing collapsed.

    >>> normalise_id("https://doi.org/10.1101/2024.01.01.X"), normalise_id("arXiv:2401.12345v2"), normalise_id(" W42 ")
    ('10.1101/2024.01.01.x', '2401.12345', 'W42')
    """
    text = " ".join(raw.split())
    if " " in text:  # (no DOI or arXiv id has a space: an input's own id)
        return text
    return normalise_doi(text) or normalise_arxiv(text) or text


def arxiv_from_doi(doi: str | None) -> str | None:
    """The arXiv id of one of arXiv's own DOIs (``10.48550/arxiv.2401.12345``), else None."""
    m = _ARXIV_DOI.fullmatch(doi) if doi else None
    return normalise_arxiv(m.group(1)) if m else None


def published_doi(doi: str | None) -> str | None:
    """``doi`` unless it is one of arXiv's own (which names the preprint, not a publication)."""
    return None if doi is None or arxiv_from_doi(doi) else doi


def arxiv_from_url(url: object) -> str | None:
    """The arXiv id in an ``arxiv.org/abs/...`` or ``/pdf/...`` URL, else None."""
    if isinstance(url, str) and (m := _ARXIV_URL.search(url)):
        return normalise_arxiv(m.group(1))
    return None


def is_arxiv_id(text: str) -> bool:
    """Whether ``text`` is an arXiv id as the arXiv snapshot writes it (with or without a version)."""
    return _ARXIV_ID.fullmatch(text) is not None


def is_doi(text: str) -> bool:
    """Whether ``text`` is a bare DOI."""
    return _DOI.fullmatch(text) is not None


_OPENALEX = re.compile(r"W\d{4,}")
_S2_PAPER = re.compile(r"[0-9a-f]{40}")


def id_kind(identifier: str) -> str:
    """What names a paper by ``identifier``: ``doi``, ``arxiv``, ``openalex``, ``s2`` (a Semantic Scholar paperId),
    ``corpusid``, or ``id`` (anything else: an input's own id, an OpenReview note id)."""
    if is_doi(identifier):
        return "doi"
    if is_arxiv_id(identifier):
        return "arxiv"
    if _OPENALEX.fullmatch(identifier):
        return "openalex"
    if _S2_PAPER.fullmatch(identifier):
        return "s2"
    return "corpusid" if identifier.startswith("CorpusId:") else "id"


def compatible(ids: Sequence[str], others: Sequence[str]) -> bool:
    """Whether two lists of identifiers may name one paper: no kind of identifier in both with different values
    (a DOI and an arXiv id may; two DOIs, or two input ids, may not)."""
    kinds: dict[str, set[str]] = {}
    for i in ids:
        kinds.setdefault(id_kind(i), set()).add(i)
    theirs: dict[str, set[str]] = {}
    for i in others:
        theirs.setdefault(id_kind(i), set()).add(i)
    return all(not (kinds[k].isdisjoint(v)) for k, v in theirs.items() if k in kinds)
