"""How alike two papers' texts are: TF-IDF cosine over title, abstract and keyword words, through an inverted index.

Words are lower-cased letter runs of three or more (with inner hyphens) of the text as it reads, LaTeX and markdown
cleaned (``kg.corpus.clean``: "$\\mathbb{R}^n$" gives no word "mathbb"), without English stop words and words of
abstracts in general ("propose", "results", "method"); a title's words count :data:`TITLE_WEIGHT` times, since a
title names what the paper is about, and the authors' keywords, where the input gives them, :data:`KEYWORD_WEIGHT`
times; each paper's vector is its words' log term frequency times
their inverse document frequency, normalised to length 1. A query keeps its :data:`QUERY_TERMS` heaviest words, so
a query reads a few postings lists, not the corpus.
"""
from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping
from typing import TypeVar

from kg.corpus.clean import clean_text

_WORD = re.compile(r"[a-z][a-z]+(?:-[a-z]+)*")
K = TypeVar("K")
QUERY_TERMS = 40
TITLE_WEIGHT = 4  # chosen on the dev half of the NeurIPS 2022 corpus (docs/related.md)
KEYWORD_WEIGHT = 2  # chosen on the same (docs/related.md)
STOP = frozenset("""
a about above after again against all also although among an and any are as at be because been before being below
between both but by can could did do does doing done during each either et few for from further had has have having
here how however i if in into is it its itself just less many may might more most much must no nor not now of off on
once one only or other our ours out over own per rather same several should since so some such than that the their
them then there these they this those though three through thus to too two under until up upon us use used uses using
very via was we well were what when where whether which while who whom why will with within without would yet
paper propose proposed proposes present presents show shows shown demonstrate demonstrates results result method
methods approach approaches model models novel new existing state art work works based experiments experimental
extensive performance problem problems task tasks data learning different various however furthermore moreover
""".split())


def words(text: str) -> list[str]:
    """The index words of ``text``."""
    return [w for w in _WORD.findall(text.lower()) if len(w) >= 3 and w not in STOP]


def paper_text(title: str | None, abstract: str | None, keywords: Iterable[str] | None = None) -> str:
    """A paper's text as the index reads it, cleaned of markup (:func:`query_text`): the title
    :data:`TITLE_WEIGHT` times, the abstract, then the keywords :data:`KEYWORD_WEIGHT` times."""
    tags = " ; ".join(query_text(str(k)) for k in keywords or ())
    return f"{query_text(title or '') + ' '} " * TITLE_WEIGHT + query_text(abstract or "") \
        + f" ; {tags}" * KEYWORD_WEIGHT * bool(tags)


def query_text(text: str) -> str:
    """``text`` as it reads, LaTeX and markdown removed, so a formula's commands ("mathbb", "frac") are no words.

    >>> words(query_text(r"a map $f: \\mathbb{R}^n \\to \\mathbb{R}$ of \\textbf{kernels}"))
    ['map', 'kernels']
    """
    return clean_text(text)


def idf(documents: int, df: int) -> float:
    """A word's inverse document frequency among ``documents`` texts, ``df`` of which hold it."""
    return math.log(1 + max(documents, 1) / df)


def unit_vector(counts: Mapping[K, int], weight: Callable[[K], float]) -> dict[K, float]:
    """A text's TF-IDF vector from its word counts: log term frequency times ``weight(word)`` (the IDF), length 1."""
    vec = {w: (1 + math.log(k)) * weight(w) for w, k in counts.items()}
    norm = math.sqrt(sum(v * v for v in vec.values())) or 1.0
    return {w: v / norm for w, v in vec.items()}


def shared_words(a: Mapping[K, float], b: Mapping[K, float], n: int = 3) -> list[K]:
    """The ``n`` words that add most to the cosine of two text vectors (products rounded to 4 decimals, then by
    word, so 32-bit and 64-bit weights give one order)."""
    common = sorted(((-round(a[w] * b[w], 4), str(w), w) for w in a.keys() & b.keys()))
    return [w for _, _, w in common[:n]]


class TextIndex:
    """TF-IDF vectors of documents, with an inverted index for cosine queries."""

    def __init__(self, docs: Iterable[tuple[str, str]]) -> None:
        counts = {key: Counter(words(text)) for key, text in docs}
        df: Counter = Counter()
        for c in counts.values():
            df.update(c.keys())
        self.idf = {w: idf(len(counts), k) for w, k in df.items()}
        self.vectors: dict[str, dict[str, float]] = {}
        self.postings: dict[str, list[tuple[str, float]]] = defaultdict(list)
        for key, c in counts.items():
            vec = self.vectors[key] = unit_vector(c, self.idf.__getitem__)
            for w, v in vec.items():
                self.postings[w].append((key, v))

    def similar(self, key: str) -> dict[str, float]:
        """Cosine similarity of document ``key`` to every document sharing one of its heaviest words."""
        return self._scores(self.vectors.get(key, {}), exclude=key)

    def similar_to_text(self, text: str) -> dict[str, float]:
        """Cosine similarity of a free text to the documents."""
        return self._scores(self.vector_of_text(text))

    def vector_of_text(self, text: str) -> dict[str, float]:
        """A free text's TF-IDF vector over the index's words."""
        return unit_vector(Counter(w for w in words(query_text(text)) if w in self.idf), self.idf.__getitem__)

    def _scores(self, vec: dict[str, float], exclude: str | None = None) -> dict[str, float]:
        heaviest = sorted(vec.items(), key=lambda kv: -kv[1])[:QUERY_TERMS]
        out: dict[str, float] = defaultdict(float)
        for w, v in heaviest:
            for key, u in self.postings.get(w, ()):
                if key != exclude:
                    out[key] += v * u
        return dict(out)
