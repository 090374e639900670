"""Abstracts kg cannot read: kg extracts from English text, and an abstract written mostly in another script than
the Latin alphabet (Chinese, Japanese, Korean, Cyrillic, Arabic, ...) gives it few or no concepts. Told by the
share of its letters that are Latin, not by a language model: cheap, and nothing to download."""
from __future__ import annotations

import itertools
import re
import unicodedata
from collections import Counter

# Letters of the Latin script: ASCII, Latin-1 and Latin Extended-A/B, IPA, Latin Extended Additional
_LATIN = re.compile("[A-Za-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u02af\u1e00-\u1eff]")
_LETTER = re.compile(r"[^\W\d_]")
LATIN_SHARE = 0.5  # an abstract with fewer of its letters Latin is not English
_MIN_LETTERS = 20  # fewer letters tell nothing
_SAMPLE = 200  # letters looked up to name the script


def foreign_script(text: str) -> str | None:
    """The script most of ``text``'s letters are written in when fewer than :data:`LATIN_SHARE` of them are Latin
    ("CJK", "Hangul", "Cyrillic", ...), else None.

    >>> foreign_script("We propose a network."), foreign_script("我们提出了一种用于图像分类的新型卷积神经网络，效果很好。")
    (None, 'CJK')
    """
    if text.isascii():  # (most abstracts)
        return None
    letters = _LETTER.findall(text)
    if len(letters) < _MIN_LETTERS or len(_LATIN.findall(text)) >= LATIN_SHARE * len(letters):
        return None
    others = itertools.islice((c for c in letters if not _LATIN.match(c)), _SAMPLE)
    scripts = Counter(_script(c) for c in others).most_common(1)
    return scripts[0][0] if scripts else None


def _script(letter: str) -> str:
    """The script a letter belongs to, by the first word of its Unicode name ("CJK UNIFIED IDEOGRAPH-4E00")."""
    word = unicodedata.name(letter, "OTHER").split()[0]
    return word if len(word) <= 3 else word.capitalize()
