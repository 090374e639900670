"""One abstract under two ids: a preprint and its published version, an export with a DOI and one with the
publisher's own id, the same paper submitted twice. Records that share an abstract (as it reads: case, spacing,
LaTeX and markdown aside) and ids of one kind with different values (two DOIs, two input ids) are one paper, with a
warning, when the abstract is long enough that no two papers share it by chance and their titles do not differ;
with two titles they stay two papers, with a warning. A short abstract ("No abstract available.") tells nothing:
its records stay apart, as their ids say."""
from __future__ import annotations

from kg.corpus.clean import clean_text
from kg.corpus.records import content_id, title_key
from kg.errors import InputWarning
from kg.model import Paper, Source

# Fewer words than this is a placeholder ("No abstract available.") or a fragment that two papers may share
MIN_WORDS = 25


def text_key(text: str, known: str | None = None) -> str:
    """The key two abstracts share when they read the same: the :func:`~kg.corpus.records.content_id` of the text
    with LaTeX and markdown removed (``$\\alpha$-Net`` and ``α-Net`` give one key). ``known``: the text's content id,
    if computed already, for a text without markup.

    >>> text_key("We train $\\\\alpha$-Net.") == text_key("We  train α-Net.")
    True
    """
    cleaned = clean_text(text)  # (the text itself, at the cost of a cheap test, when it holds nothing to clean)
    return known if cleaned is text and known else content_id(cleaned)


def same_title(held_title: str | None, later: Paper) -> bool | None:
    """Whether ``later`` has the title ``held_title`` (case, spaces and punctuation aside); None when either has
    none."""
    held, key = title_key(held_title), title_key(later.title)
    return None if not (held and key) else held == key


def long_enough(text: str) -> bool:
    """Whether an abstract is long enough (:data:`MIN_WORDS` words) that two papers do not share it by chance."""
    return len(text.split()) >= MIN_WORDS


def merged(later: Paper, held_id: str, held_at: Source | None, merged_id: str, titles: bool | None) -> InputWarning:
    """The warning for ``later`` merged into the paper ``held_id`` (read at ``held_at``), now ``merged_id``
    (``titles``: :func:`same_title`)."""
    other = held_id if merged_id != held_id else later.id
    what = "the title and abstract" if titles else "the abstract (and no other title)"
    return InputWarning(later.sources[0], f"{later.id} has {what} of {held_id}{_at(held_at)}: one paper, "
                                          f"{merged_id}, with {other} kept as an alternate id")


def apart(later: Paper, held_id: str, held_at: Source | None, held_title: str | None = None) -> InputWarning:
    """The warning for ``later``, kept apart from the paper ``held_id`` (read at ``held_at``, titled
    ``held_title`` if known) whose abstract it has under another title."""
    other = f", not {held_title!r}" if held_title else ""
    return InputWarning(later.sources[0], f"{later.id} has the abstract of {held_id}{_at(held_at)} under another "
                                          f"title, {later.title!r}{other}; kept as two papers")


def _at(source: Source | None) -> str:
    return f" (read at {source})" if source is not None else ""
