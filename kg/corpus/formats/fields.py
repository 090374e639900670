"""Small helpers the format adapters share: picking the first given value, names, keywords, years."""
from __future__ import annotations

import re
from collections.abc import Iterable



class FormatError(ValueError):
    """A record of a known shape that cannot be read (the message says why)."""


_YEAR = re.compile(r"(?<!\d)(1[89]\d\d|2\d\d\d)(?!\d)")


def first(*values: object) -> object:
    """The first value that is neither None nor an empty string or list."""
    return next((v for v in values if v not in (None, "", [], {})), None)


def get(value: object, *path: str) -> object:
    """``value[path[0]][path[1]]...``, or None where a step is missing or not an object."""
    for key in path:
        if not isinstance(value, dict):
            return None
        value = value.get(key)
    return value


def person(name: str) -> str:
    """``"Vaswani, Ashish"`` -> ``"Ashish Vaswani"``, ``"King, Jr., Martin"`` -> ``"Martin King Jr."``; other
    names as they are, whitespace collapsed."""
    parts = [p.strip() for p in name.split(",")]
    if len(parts) == 2 and all(parts):
        parts = [parts[1], parts[0]]
    elif len(parts) == 3 and all(parts):
        parts = [parts[2], parts[0], parts[1]]
    return " ".join(" ".join(parts).split())


def keywords(raw: object) -> list[str]:
    """Keywords from a list, or a string separated by commas or semicolons, each stripped, repeats dropped."""
    items: Iterable[object] = re.split(r"[,;]", raw) if isinstance(raw, str) else raw if isinstance(raw, list) else []
    seen: dict[str, None] = {}
    for item in items:
        if isinstance(item, str) and item.strip():
            seen.setdefault(" ".join(item.split()), None)
    return list(seen)


def year_in(raw: object) -> int | None:
    """The year in ``2020``, ``"2020/05/01/"``, ``"2020-05"``, ``[[2020, 5]]``, or None."""
    if isinstance(raw, bool):
        return None
    if isinstance(raw, int):
        return raw
    if isinstance(raw, list) and raw:
        return year_in(raw[0])
    if isinstance(raw, str) and (m := _YEAR.search(raw)):
        return int(m.group())
    return None
