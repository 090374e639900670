"""From one input record (a JSON object, CSV row, BibTeX or RIS entry) to a :class:`~kg.model.Paper`, and the paper
identity rules: a paper's id is its DOI, else its arXiv id, else the id its source gives it, else a hash of its
abstract; two records sharing any of these identifiers are one paper."""
from __future__ import annotations

import functools
import hashlib
import json
import re
import unicodedata
from collections.abc import Iterable, Iterator
from pathlib import Path

from kg.corpus import columns as read_options
from kg.corpus.clean import clean_text
from kg.corpus.formats import FormatError, adapt
from kg.corpus.formats.fields import keywords as keyword_list
from kg.corpus.ids import (arxiv_from_doi, arxiv_from_url, is_arxiv_id, is_doi, normalise_arxiv, normalise_doi,
                           published_doi)
from kg.errors import InputWarning, Problem
from kg.model import Paper, Source

_ARXIV_NEW_ID = re.compile(r"(\d\d)(0[1-9]|1[0-2])\.\d{4,5}(v\d+)?")
_ARXIV_OLD_ID = re.compile(r"[a-z][a-z.-]*(\.[A-Z]{2})?/(\d\d)(0[1-9]|1[0-2])\d{3}(v\d+)?")
_ARXIV_FIELDS = ("categories", "update_date", "versions")
# The arXiv snapshot's other fields: known, so never named as columns kg did not use
_ARXIV_OTHER = ("submitter", "comments", "journal-ref", "report-no", "license", "authors_parsed")
_SURROGATE = re.compile("[\ud800-\udfff]")

YEAR = re.compile(r"(?<!\d)(?:19|20)\d\d(?!\d)")
VENUES_FILE = Path(__file__).resolve().parents[1] / "data" / "venues.json"


@functools.cache
def _venues() -> tuple[dict[str, str], tuple[tuple[str, str], ...], frozenset[str]]:
    """The venues kg recognises (``kg/data/venues.json``): acronyms (lower case -> as written), the words of venues'
    full names with their acronyms, in the order to test them, and publishers' acronyms."""
    data = json.loads(VENUES_FILE.read_text(encoding="utf-8"))
    return ({v.lower(): v for v in data["acronyms"]}, tuple((words, acronym) for words, acronym in data["names"]),
            frozenset(data["publishers"]))

# One input line: (1-based number, text without its line end, or a message saying why the line is unreadable).
Line = tuple[int, str, str | None]


class MissingText(Problem):
    """A record without an abstract (a reader summarises many of them in one line)."""


def named_venue(words: Iterable[str]) -> str | None:
    """The first known venue among ``words``, as it is written (:func:`_venues`), or None."""
    acronyms = _venues()[0]
    return next((acronyms[w.lower()] for w in words if w.lower() in acronyms), None)


_WORKSHOP = re.compile(r"\bworkshops?\b")
_GOES_ON = re.compile(r" [a-z]")  # a full name that goes on with a word names another venue


def venue_name(venue: str | None) -> str | None:
    """A venue as kg shows it: a known venue's acronym for a venue written out or in a longer phrase ("Proceedings of
    the 2019 Conference of the North American Chapter of the Association for Computational Linguistics ..." is NAACL,
    "Advances in Neural Information Processing Systems 35" NeurIPS, "arXiv preprint arXiv:2005.14165" arXiv, "NeurIPS
    2022" NeurIPS: the year is the paper's own field); a workshop, a venue kg does not know and one with another
    acronym ("ICMLA", "PAKDD") stay as written."""
    if not venue:
        return venue
    words = re.findall(r"[A-Za-z]+", venue)
    lowered = " ".join(venue.lower().split())
    publishers = _venues()[2]
    if _WORKSHOP.search(lowered) or any(w.isupper() and len(w) >= 4 and not named_venue([w]) and w not in publishers
                                        for w in words):
        return venue  # a workshop, or another venue's acronym: "ICMLA", "PAKDD", "VISAPP"
    found = named_venue(words)
    if found is not None:
        return found
    for name, acronym in _venues()[1]:
        at = lowered.find(name)
        if at >= 0 and not _GOES_ON.match(lowered, at + len(name)):
            return acronym  # (not "... Computer Vision Theory and Applications", another venue's name)
    return venue


def _journal_ref(ref: object) -> tuple[str, int | None] | None:
    """The venue (and year) an arXiv record's journal reference names, when it names a known one ("NeurIPS 2024",
    "Advances in Neural Information Processing Systems 35 (NeurIPS 2022)"), else None."""
    if not isinstance(ref, str):
        return None
    venue = named_venue(re.findall(r"[A-Za-z]+", ref))
    if venue is None or venue == "arXiv":
        return None
    year = YEAR.search(ref)
    return venue, int(year.group()) if year else None


def content_id(text: str) -> str:
    """A paper id from its abstract alone: NFKC, whitespace collapsed, lowercased, sha256, 16 hex digits.

    >>> content_id("Deep  Learning\\n") == content_id("deep learning")
    True
    """
    normalised = " ".join(unicodedata.normalize("NFKC", text).split()).lower()
    return hashlib.sha256(normalised.encode("utf-8", "surrogatepass")).hexdigest()[:16]


# The names common exports give kg's fields (a scraped CSV's "paper_id" and "link", arXiv API's "summary"), in
# order of preference; a record's own kg name always wins, and ``--map`` wins over both.
FIELD_NAMES: dict[str, tuple[str, ...]] = {
    "id": ("paper_id", "paperId", "paper-id", "openreview_id", "doc_id", "uid"),
    "text": ("summary", "abstract_text", "paper_abstract", "abstract note"),  # (Zotero's CSV: "Abstract Note")
    "title": ("paper_title",),
    "url": ("link", "paper_url", "pdf_url", "href", "pdf", "landing_page_url"),
    "venue": ("conference", "booktitle", "journal", "source_venue", "container_title", "journal_name"),
    "year": ("publication_year", "pub_year", "publication year"),
    "authors": ("author", "author_names"),
    "doi": ("DOI", "doi_url"),
    "arxiv_id": ("arxiv", "arxivId", "arXiv", "eprint", "arxiv_url"),
    "keywords": ("keyword", "tags", "subjects"),
}
_OTHER_NAMES = frozenset(name for others in FIELD_NAMES.values() for name in others)
# kg's gold files (kg eval, kg train) carry their annotations beside the fields: known too
_GOLD = ("spans", "entities", "results", "source")
_OWN_NAMES = frozenset((*read_options.FIELDS, "abstract", "authors_parsed", *_ARXIV_FIELDS, *_ARXIV_OTHER, *_GOLD))


def with_kg_names(value: dict, columns: dict[str, str] | None = None) -> dict:
    """``value`` with each of kg's fields taken from its mapped column, its own name or a common other name."""
    return kg_names(value, columns)[0]


def kg_names(value: dict, columns: dict[str, str] | None = None) -> tuple[dict, set[str]]:
    """``value`` with each of kg's fields taken from the column ``columns`` maps it to, else from its own name, else
    from a common other name (:data:`FIELD_NAMES`); and the names of the columns that gave a field."""
    out = value
    used: set[str] = set()
    for name, column in (columns or {}).items():
        found = column if column in value else next((k for k in value if k.lower() == column.lower()), None)
        if found is not None:
            if out is value:
                out = dict(value)
            out[name] = value[found]
            used.add(found)
            if name == "text":
                out.pop("abstract", None)
    if value.keys().isdisjoint(_OTHER_NAMES):  # (most records: kg's own names, or an arXiv snapshot's)
        return out, used
    for name, others in FIELD_NAMES.items():
        if value.get(name) in (None, "") and not (name == "text" and value.get("abstract") not in (None, "")):
            found = next((other for other in others if value.get(other) not in (None, "")), None)
            if found is not None and name not in (columns or {}):
                if out is value:
                    out = dict(value)
                out[name] = value[found]
                used.add(found)
    return out, used


def paper_from_record(value: object, source: Source, max_chars: int) -> Iterator[Paper | Problem]:
    """A paper from one JSON object or CSV row: OpenReview notes, OpenAlex works, Semantic Scholar papers and
    CSL-JSON items by their shape (:mod:`kg.corpus.formats`), else kg's own fields, under their common other names
    too (:data:`FIELD_NAMES`) or as ``--map`` names them (:mod:`kg.corpus.columns`)."""
    if not isinstance(value, dict):
        yield Problem(source, f"expected a JSON object, got {_json_type(value)}")
        return
    try:
        shaped = adapt(value)
    except FormatError as e:
        yield Problem(source, str(e))
        return
    if shaped is not None:
        yield from paper_from_fields(shaped[1], source, max_chars, shape=shaped[0])
        return
    options = read_options.current()
    record, used = kg_names(value, options.columns if options else None)
    if options is not None:
        options.note_unused(source.path, {k for k in value if k not in used and k not in _OWN_NAMES})
        options.note_columns(source.path, value)
    yield from paper_from_fields(record, source, max_chars)


def paper_from_fields(value: dict, source: Source, max_chars: int, shape: str = "record") -> Iterator[Paper | Problem]:
    """A paper from kg's fields; problems with optional fields are reported and the field left out. Titles, venues,
    author names and keywords are cleaned of LaTeX and markdown as abstracts are for extraction."""
    given = (value.get(name) for name in ("text", "abstract"))
    text = next((t for t in given if t is not None and not (isinstance(t, str) and not t.strip())), None)
    if text is None:
        empty = any(isinstance(value.get(name), str) for name in ("text", "abstract"))
        yield MissingText(source, f"{shape} has an empty abstract" if empty else
                          f"{shape} has no 'text' or 'abstract'" if shape == "record" else f"{shape} has no abstract")
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
        problems.append(InputWarning(source, "id holds an unpaired surrogate escape (\\ud800-\\udfff); the paper "
                                             "is identified by its text instead"))
    elif isinstance(raw_id, (str, int)) and not isinstance(raw_id, bool) and str(raw_id).strip():
        record_id = str(raw_id).strip()
    elif raw_id not in (None, ""):
        problems.append(InputWarning(source, f"bad id {_short(raw_id)}: expected a string or a number; left out"))
    title, venue, url = (_string(value, name, source, problems) for name in ("title", "venue", "url"))
    year = _year(value.get("year"), source, problems)
    if record_id and (any(name in value for name in _ARXIV_FIELDS) or _ARXIV_NEW_ID.fullmatch(record_id)):
        published = _journal_ref(value.get("journal-ref")) if venue is None else None
        venue = venue or (published[0] if published else "arXiv")
        year = year or (published and published[1]) or _arxiv_year(record_id, value.get("update_date"))
        url = url or f"https://arxiv.org/abs/{record_id}"
    doi, arxiv, others = _identifiers(value, record_id, url, source, problems)
    authors = _valid_authors([_display(a) for a in _authors(value)], source, problems)
    yield from problems
    own_id = published_doi(doi) or arxiv or (others[0] if others else None)
    yield Paper(
        id=own_id or content_id(text),
        text=text,
        title=_display(title),
        venue=venue_name(_display(venue)),
        year=year,
        authors=[a for a in authors if a],
        url=url,
        sources=[source],
        has_input_id=own_id is not None,
        doi=doi,
        arxiv_id=arxiv,
        other_ids=[i for i in others if i != own_id],
        keywords=[k for k in (_display(k) for k in keyword_list(value.get("keywords"))) if k],
    )


def _identifiers(value: dict, record_id: str | None, url: str | None, source: Source,
                 problems: list[Problem]) -> tuple[str | None, str | None, list[str]]:
    """(DOI, arXiv id, the source's own ids) of a record, normalised; an arXiv DOI gives the arXiv id too."""
    raw_doi = value.get("doi")
    doi = normalise_doi(raw_doi)
    if raw_doi not in (None, "") and doi is None:
        problems.append(InputWarning(source, f"bad doi {_short(raw_doi)}: expected 10.NNNN/...; left out"))
    raw_arxiv = value.get("arxiv_id")
    arxiv = normalise_arxiv(raw_arxiv if isinstance(raw_arxiv, str) else str(raw_arxiv) if raw_arxiv else None)
    if raw_arxiv not in (None, "") and arxiv is None:
        problems.append(InputWarning(source, f"bad arxiv_id {_short(raw_arxiv)}: expected an arXiv id; left out"))
    others = [i.strip() for i in (record_id, *(value.get("other_ids") or [])) if isinstance(i, str) and i.strip()]
    if record_id and is_arxiv_id(record_id):
        arxiv, others = arxiv or normalise_arxiv(record_id), others[1:]
    elif record_id and is_doi(record_id.lower()):
        doi, others = doi or normalise_doi(record_id), others[1:]
    return doi, arxiv or arxiv_from_doi(doi) or (arxiv_from_url(url) if url and "arxiv.org/" in url else None), others


def _display(text: str | None) -> str | None:
    """A title or name as it reads: LaTeX and markdown removed as from abstracts (``$\\alpha$-Net`` -> ``α-Net``)."""
    return clean_text(text) or None if text else text


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
            problems.append(InputWarning(source, f"bad {name} {_short(raw)}: expected a string; left out"))
        return None
    text = " ".join(str(raw).split())
    if _SURROGATE.search(text):
        problems.append(InputWarning(source, f"{name} holds an unpaired surrogate escape (\\ud800-\\udfff); left out"))
        return None
    return text or None


def _valid_authors(names: list[str], source: Source, problems: list[Problem]) -> list[str]:
    """``names`` without those that are not valid Unicode (reported)."""
    bad = [n for n in names if _SURROGATE.search(n)]
    if bad:
        problems.append(InputWarning(source, f"{len(bad)} author name(s) hold an unpaired surrogate escape; left out"))
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
        problems.append(InputWarning(source, f"bad year {_short(raw)}: expected a four-digit year; left out"))
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
        text = " ".join(raw.split())
        parts = re.split(r"\s*;\s*(?:and\s+)?|\s+and\s+|\s*&\s*", text)
        if ";" in text or parts and all(p.count(",") == 1 and _given_names(p) for p in parts):
            return [_first_last(p) for p in parts if p]  # "Last, First; Last, First", "Last, First and Last, First"
        return [n for n in re.split(r"\s*[,;]\s*(?:and\s+)?|\s+and\s+|\s*&\s*", text) if n]
    if isinstance(raw, list):
        names = (a.get("name") if isinstance(a, dict) else a for a in raw)
        return [_first_last(" ".join(n.split())) for n in names if isinstance(n, str) and n.strip()]
    return []


def _given_names(part: str) -> bool:
    """Whether what follows the comma of "X, Y" reads as given names ("Albert", "J.", "Jean-Luc", "J. R."), not as a
    second author's whole name ("Yann LeCun, Yoshua Bengio")."""
    given = part.partition(",")[2].split()
    return 0 < len(given) and (len(given) == 1 or all(len(w.rstrip(".")) <= 2 for w in given))


def _first_last(name: str) -> str:
    """A name written "Last, First" as "First Last" ("Gu, Albert" -> "Albert Gu"), as BibTeX's are; other names as
    they are."""
    last, comma, first = name.partition(",")
    if not comma or "," in first or not last.strip() or not first.strip() or not _given_names(name):
        return name
    return f"{first.strip()} {last.strip()}"


def identifiers(paper: Paper) -> list[str]:
    """Every identifier that names ``paper`` (its id, DOI, arXiv id, its sources' ids); none for a hash id. An arXiv
    DOI is not one: its arXiv id is (so that it conflicts with no published DOI)."""
    if not paper.has_input_id:  # (then it has no DOI, arXiv id or source id either)
        return []
    ids = [paper.id]
    if paper.doi and paper.doi != paper.id and published_doi(paper.doi):
        ids.append(paper.doi)
    if paper.arxiv_id and paper.arxiv_id != paper.id:
        ids.append(paper.arxiv_id)
    ids.extend(paper.other_ids)
    return ids


def merge_into(paper: Paper, later: Paper) -> None:
    """Fill the gaps in ``paper`` from a later record of the same paper and remember where that was read. A published
    record's venue and year win over an arXiv preprint's, whichever was read first (:func:`published`,
    :func:`preprint`). The id becomes the best either record gives: a DOI (not arXiv's), else an arXiv id, else an
    explicit id, else the content hash. Where the two records give two DOIs or two arXiv ids (one abstract under
    two ids: :mod:`kg.corpus.duplicates`), the published record's DOI wins and the other ids are kept in
    ``other_ids``."""
    paper.sources.extend(s for s in later.sources if s not in paper.sources)
    paper.title = paper.title or later.title
    first, second = (later, paper) if published(later) and preprint(paper) else (paper, later)
    paper.venue, paper.year = first.venue or second.venue, first.year or second.year
    paper.url = paper.url or later.url
    paper.authors = paper.authors or later.authors
    paper.keywords = paper.keywords or later.keywords
    given = (paper.doi, later.doi, paper.arxiv_id, later.arxiv_id)
    paper.doi = published_doi(first.doi) or published_doi(second.doi) or paper.doi or later.doi
    paper.arxiv_id = paper.arxiv_id or later.arxiv_id
    best = (published_doi(paper.doi) or paper.arxiv_id
            or (paper.id if paper.has_input_id else later.id if later.has_input_id else None))
    known = (paper.id if paper.has_input_id else None, later.id if later.has_input_id else None)
    if best is not None:
        paper.id, paper.has_input_id = best, True
    alternate = (i for i in given if i and not arxiv_from_doi(i))  # (an arXiv DOI: its arXiv id names the paper)
    paper.other_ids = list(dict.fromkeys(i for i in (*known, *paper.other_ids, *later.other_ids, *alternate)
                                         if i and i not in (paper.id, paper.doi, paper.arxiv_id)))


def title_conflict(held: Paper, later: Paper) -> InputWarning | None:
    """A warning when ``later``, merged into ``held``, gives another title (case, spaces and punctuation aside)."""
    if not (held.title and later.title) or title_key(held.title) == title_key(later.title):
        return None
    return InputWarning(later.sources[0], f"paper {held.id} (first read at {held.sources[0]}) again, with another "
                                          f"title: {later.title!r}, not {held.title!r}; the first is kept")


def title_key(title: str | None) -> str:
    """A title as titles are compared: case, spaces and punctuation aside ("" for none)."""
    return "".join(c for c in title.casefold() if c.isalnum()) if title else ""


# "arXiv", "CoRR abs/1810.04805", and the other preprint servers ML papers are posted on
_PREPRINT_VENUE = re.compile(r"(?:arxiv|corr|biorxiv|medrxiv|chemrxiv|techrxiv|ssrn|research\s*square)\b",
                             re.IGNORECASE)


def preprint(paper: Paper) -> bool:
    """Whether a record is of a preprint: a preprint server's venue (arXiv, CoRR, bioRxiv, SSRN, ...), or no venue,
    an arXiv id and no other DOI."""
    if paper.venue:
        return _PREPRINT_VENUE.match(paper.venue) is not None
    return paper.arxiv_id is not None and published_doi(paper.doi) is None


def published(paper: Paper) -> bool:
    """Whether a record is of a publication: not a preprint, and a venue or a DOI other than arXiv's."""
    return not preprint(paper) and bool(paper.venue or published_doi(paper.doi))


def _json_type(value: object) -> str:
    names = {dict: "an object", list: "an array", str: "a string", bool: "a boolean", type(None): "null"}
    return names.get(type(value), "a number")


def _short(value: object) -> str:
    text = json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
