"""OpenReview notes, as API v1 (``content.title`` a string) and API v2 (``content.title.value``) give them."""
from __future__ import annotations

import re
from datetime import datetime, timezone

from kg.corpus.formats.fields import first, year_in

NAME = "OpenReview note"
_VENUE_ID = re.compile(r"([A-Za-z][\w-]*)\.cc/(\d{4})\b")  # ICLR.cc/2024/Conference
_VENUE = re.compile(r"(?:Submitted to )?([A-Za-z][\w-]*) (\d{4})\b")  # "ICLR 2024 poster"


def matches(value: dict) -> bool:
    """Whether ``value`` is an OpenReview note."""
    return isinstance(value.get("content"), dict) and any(k in value for k in ("forum", "invitation", "invitations"))


def _field(content: dict, name: str) -> object:
    raw = content.get(name)
    return raw.get("value") if isinstance(raw, dict) else raw  # v2 wraps every field in {"value": ...}


_NOT_MAIN = re.compile(r"submitted to|withdrawn|rejected|workshop", re.IGNORECASE)


def _venue(content: dict, value: dict) -> tuple[str | None, int | None]:
    """The venue and year of a note: "ICLR" for a paper the conference took ("ICLR 2024 poster"), the venue as
    OpenReview writes it for a submission it did not take or a workshop's ("Submitted to ICLR 2023", "NeurIPS 2023
    Workshop on ..."), so that such papers are not counted as the conference's."""
    venue, venue_id = _field(content, "venue"), _field(content, "venueid")
    said = venue_id if isinstance(venue_id, str) else venue  # (venueid says it where given: API v1 notes of
    not_main = isinstance(said, str) and bool(_NOT_MAIN.search(said.replace("_", " ")))  # accepted papers may
    # still read "Submitted to ..." in venue)
    for pattern, text in ((_VENUE_ID, venue_id), (_VENUE, venue), (_VENUE_ID, first(value.get("invitation"),
                                                                                    *(value.get("invitations") or [])))):
        if isinstance(text, str) and (m := pattern.search(text)):
            if not_main:
                written = venue.strip() if isinstance(venue, str) and venue.strip() else None
                return written or f"{m.group(1)} {m.group(2)} (not accepted)", int(m.group(2))
            return m.group(1), int(m.group(2))
    return (venue if isinstance(venue, str) else None), None


def _date_year(ms: object) -> int | None:
    if isinstance(ms, (int, float)) and not isinstance(ms, bool) and ms > 0:
        return datetime.fromtimestamp(ms / 1000, tz=timezone.utc).year
    return None


def to_record(value: dict) -> dict:
    """kg's fields of an OpenReview note."""
    content = value["content"]
    note = value.get("forum") or value.get("id")
    venue, year = _venue(content, value)
    pdf = _field(content, "pdf")
    return {
        "id": note,
        "text": _field(content, "abstract"),
        "title": _field(content, "title"),
        "venue": venue,
        "year": year or year_in(_field(content, "year")) or _date_year(first(value.get("pdate"), value.get("cdate"),
                                                                            value.get("tcdate"))),
        "url": f"https://openreview.net/forum?id={note}" if isinstance(note, str) else
        (f"https://openreview.net{pdf}" if isinstance(pdf, str) and pdf.startswith("/") else None),
        "authors": _field(content, "authors") or [],
        "keywords": _field(content, "keywords") or [],
        "doi": _field(content, "doi"),
    }
