"""Which input column is which of kg's fields: ``--map id=paper_id,url=link`` for CSV and JSON records, the
columns a run did not use (named once, in one line, at the end of ``kg build`` and ``kg extract``), and the mapped
columns a file does not have (a warning for that file).

The options live in a context variable, so that the readers see them however deep the build calls them.
"""
from __future__ import annotations

import contextlib
from collections.abc import Iterable, Iterator
from contextvars import ContextVar
from dataclasses import dataclass, field

# kg's fields a record may name (``abstract`` is another name of ``text``)
FIELDS = ("id", "text", "title", "venue", "year", "authors", "url", "doi", "arxiv_id", "keywords")


@dataclass
class ReadOptions:
    """``columns``: kg field -> the input column that holds it; ``unused``: input file -> columns not used;
    ``seen``: input file -> the columns of its records read with ``columns`` (kept only when a column is mapped)."""

    columns: dict[str, str] = field(default_factory=dict)
    unused: dict[str, set[str]] = field(default_factory=dict)
    seen: dict[str, set[str]] = field(default_factory=dict)

    def note_columns(self, path: str, names: Iterable[str]) -> None:
        """Remember columns of a record of ``path`` read with the mapping (nothing without one)."""
        if self.columns:
            self.seen.setdefault(path, set()).update(names)

    def missing(self, path: str) -> list[str]:
        """The ``FIELD=COLUMN`` pairs whose column no record of ``path`` has (none for a file read without them, such
        as a BibTeX file or one of OpenAlex works)."""
        if path not in self.seen:
            return []
        names = {name.lower() for name in self.seen[path]}
        return [f"{name}={column}" for name, column in self.columns.items() if column.lower() not in names]

    def note_unused(self, path: str, names: set[str]) -> None:
        """Remember columns of ``path`` that no field was taken from."""
        if names:
            self.unused.setdefault(path, set()).update(names)

    def notice(self, limit: int = 8) -> str | None:
        """One line naming the columns no file's field was taken from, or None."""
        if not self.unused:
            return None
        names = sorted(set().union(*self.unused.values()))
        files = sorted(self.unused)
        shown = ", ".join(names[:limit]) + (f" and {len(names) - limit} more" if len(names) > limit else "")
        where = files[0] + (f" and {len(files) - 1} more files" if len(files) > 1 else "")
        return (f"kg: note: input columns not used: {shown} ({where}); "
                "name one with --map FIELD=COLUMN")


_OPTIONS: ContextVar[ReadOptions | None] = ContextVar("kg_read_options", default=None)


def current() -> ReadOptions | None:
    """The options of the read in progress (None: defaults, nothing remembered)."""
    return _OPTIONS.get()


@contextlib.contextmanager
def reading(columns: dict[str, str] | None = None) -> Iterator[ReadOptions]:
    """Read inside this block with ``columns`` mapped; the options collect the columns not used."""
    options = ReadOptions(dict(columns or {}))
    token = _OPTIONS.set(options)
    try:
        yield options
    finally:
        _OPTIONS.reset(token)


def parse_map(text: str) -> dict[str, str]:
    """``"id=paper_id,url=link"`` -> ``{"id": "paper_id", "url": "link"}``; ValueError naming what is wrong."""
    mapping: dict[str, str] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        name, sep, column = (s.strip() for s in part.partition("="))
        name = "text" if name == "abstract" else name
        if not sep or not column:
            raise ValueError(f"{part!r} is not FIELD=COLUMN")
        if name not in FIELDS:
            raise ValueError(f"unknown field {name!r}; kg's fields are {', '.join(FIELDS)}")
        mapping[name] = column
    if not mapping:
        raise ValueError("needs FIELD=COLUMN pairs, such as id=paper_id,url=link")
    return mapping
