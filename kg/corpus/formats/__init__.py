"""Records of other tools' formats, turned into kg's fields (``text``, ``title``, ``venue``, ``year``, ``authors``,
``url``, ``id``, ``doi``, ``arxiv_id``, ``keywords``, ``other_ids``).

JSON records are told apart by their shape, one record at a time, so a ``.json`` or ``.jsonl`` file (gzipped or
not) may hold OpenReview notes, OpenAlex works, Semantic Scholar papers, CSL-JSON items or kg's own records.
BibTeX and RIS files have their own readers (:mod:`.bibtex`, :mod:`.ris`).
"""
from __future__ import annotations

from collections.abc import Callable
from types import ModuleType

from kg.corpus.formats import csl, openalex, openreview, semantic_scholar
from kg.corpus.formats.fields import FormatError

__all__ = ["FormatError", "adapt", "items_of"]

# In this order: an OpenReview note has an "id" too, and a CSL item a "type"
SHAPES: tuple[ModuleType, ...] = (openreview, openalex, semantic_scholar, csl)
# API responses that wrap their records: OpenAlex {"meta", "results"}, Semantic Scholar {"total", "data"},
# OpenReview {"notes", "count"}
WRAPPERS = ("results", "data", "notes")


def adapt(value: dict) -> tuple[str, dict] | None:
    """(the format's name, kg's fields) of a record of one of :data:`SHAPES`, or None for kg's own records.
    Raises :class:`FormatError` for a record of a known shape that cannot be read."""
    for shape in SHAPES:
        matches: Callable[[dict], bool] = shape.matches
        if matches(value):
            try:
                return shape.NAME, shape.to_record(value)
            except FormatError:
                raise
            except (TypeError, ValueError, AttributeError, KeyError, IndexError) as e:  # a field of another shape
                raise FormatError(f"{shape.NAME} with a field of an unexpected shape: {e}") from None
    return None


def items_of(value: object) -> tuple[str, list] | None:
    """(key, records) of an API response that wraps a list of records (a paper has no such key), else None."""
    if not isinstance(value, dict) or any(k in value for k in ("text", "abstract", "title", "content")):
        return None
    for key in WRAPPERS:
        items = value.get(key)
        if isinstance(items, list) and all(isinstance(i, dict) for i in items):
            return key, items
    return None
