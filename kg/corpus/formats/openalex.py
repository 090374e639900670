"""OpenAlex works (the API's ``/works`` results and the snapshot's JSON lines): the abstract is rebuilt from its
``abstract_inverted_index`` (word -> positions); the work's id, DOI, year, venue, authors and concepts are kept."""
from __future__ import annotations

from kg.corpus.formats.fields import FormatError, first, get
from kg.corpus.ids import arxiv_from_url

NAME = "OpenAlex work"


def matches(value: dict) -> bool:
    """Whether ``value`` is an OpenAlex work."""
    work_id = value.get("id")
    return "abstract_inverted_index" in value or (isinstance(work_id, str)
                                                  and work_id.startswith("https://openalex.org/W"))


def abstract(index: object) -> str | None:
    """The text of an inverted index, words in position order (None for a null index)."""
    if index is None:
        return None
    if not isinstance(index, dict):
        raise FormatError("abstract_inverted_index is not an object of word -> positions")
    at: dict[int, str] = {}
    for word, positions in index.items():
        if not isinstance(positions, list) or not all(isinstance(p, int) and not isinstance(p, bool) and p >= 0
                                                      for p in positions):
            raise FormatError(f"abstract_inverted_index[{word!r}] is not a list of word positions")
        for p in positions:
            at[p] = word
    return " ".join(at[p] for p in sorted(at)) or None


def to_record(value: dict) -> dict:
    """kg's fields of an OpenAlex work."""
    work = str(value.get("id") or "").rsplit("/", 1)[-1] or None
    locations = [value.get("primary_location"), value.get("best_oa_location"), *(value.get("locations") or [])]
    urls = [u for loc in locations if isinstance(loc, dict) for u in (loc.get("landing_page_url"), loc.get("pdf_url"))
            if isinstance(u, str)]
    concepts = [c.get("display_name") for c in value.get("concepts") or [] if isinstance(c, dict)
                and (c.get("score") is None or (isinstance(c.get("score"), (int, float)) and c["score"] >= 0.3))]
    words = [k.get("display_name") or k.get("keyword") for k in value.get("keywords") or [] if isinstance(k, dict)]
    return {
        "id": work,
        "text": abstract(value.get("abstract_inverted_index")),
        "title": first(value.get("title"), value.get("display_name")),
        "doi": first(value.get("doi"), get(value, "ids", "doi")),
        "arxiv_id": next((a for a in map(arxiv_from_url, urls) if a), None),
        "year": first(value.get("publication_year"), value.get("publication_date")),
        "venue": first(get(value, "primary_location", "source", "display_name"), get(value, "host_venue", "display_name")),
        "url": first(*urls, value.get("doi"), value.get("id")),
        "authors": [get(a, "author", "display_name") for a in value.get("authorships") or []],
        "keywords": [w for w in [*words, *concepts] if isinstance(w, str)],
    }
