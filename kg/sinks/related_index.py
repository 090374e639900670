"""``related/``: the query index of ``kg related``, written as the graph's elements come, so that a query reads a
few memory-mapped arrays instead of the whole ``graph.json``.

- ``papers.json``: paper node ids, names, venues and years, in index order; ``concepts.json``: concept ids, names, types, IDFs;
- ``paper_ptr.npy``/``paper_concepts.npy`` and ``concept_ptr.npy``/``concept_papers.npy``: which concepts a paper
  links to (proposes, uses, addresses, evaluates on, reports) and which papers link to a concept (CSR arrays);
- ``doc_ptr.npy``/``doc_terms.npy``/``doc_weights.npy``: each paper's TF-IDF vector of title and abstract, and
  ``term_ptr.npy``/``term_docs.npy``/``term_weights.npy`` the same by word (postings), as
  :mod:`kg.related.textsim` computes them (stored as 32-bit floats).

:mod:`kg.related.index` reads it and ranks exactly as :func:`kg.related.ranking.related` does on the graph.
"""
from __future__ import annotations

import json
from array import array
from collections import Counter
from pathlib import Path

import numpy

from kg import schema
from kg.related.textsim import words
from kg.sinks.base import GraphSink

LINKS = frozenset(r.name for r in (schema.PROPOSES, *schema.REL_FOR_LABEL.values()))
CONCEPT_TYPES = frozenset(t.label for t in (schema.METHOD, schema.TASK, schema.DATASET, schema.METRIC))


class RelatedIndexSink(GraphSink):
    """Collects papers, their texts' words and their links to concepts; ``close`` computes and writes the index."""

    def __init__(self, directory: Path) -> None:
        self.dir = Path(directory)
        self.papers: dict[str, int] = {}
        self.names: list[str] = []
        self.where: dict[int, tuple] = {}  # paper index -> (venue, year)
        self.concepts: dict[str, tuple[str, str, float]] = {}  # id -> (name, type, idf)
        self.vocab: dict[str, int] = {}
        self.doc_ptr, self.doc_terms, self.doc_tf = array("q", [0]), array("i"), array("H")
        self.link_papers, self.link_concepts = array("i"), []  # (paper index, concept id) per link

    def _paper(self, n: str) -> int:
        i = self.papers.get(n)
        if i is None:
            i = self.papers[n] = len(self.names)
            self.names.append(n)
            self.doc_ptr.append(self.doc_ptr[-1])  # no words until its node comes
        return i

    def node(self, n: str, d: dict) -> None:
        kind = d.get("type")
        if kind == schema.PAPER.label:
            i = self._paper(n)
            self.names[i] = str(d.get("name") or n)
            self.where[i] = (d.get("venue"), d.get("year"))
            if i != len(self.names) - 1 or self.doc_ptr[-1] != self.doc_ptr[-2]:
                return  # (a paper node sent twice keeps its first words)
            vocab = self.vocab
            counts = Counter(words(f"{d.get('title') or ''} {d.get('abstract') or ''}"))
            for w, k in counts.items():
                t = vocab.get(w)
                if t is None:
                    t = vocab[w] = len(vocab)
                self.doc_terms.append(t)
                self.doc_tf.append(min(k, 65535))
            self.doc_ptr[-1] = len(self.doc_terms)
        elif kind in CONCEPT_TYPES:
            self.concepts[n] = (str(d.get("name") or n), kind, float(d.get("idf") or 0.0))

    def edge(self, u: str, v: str, k: str, d: dict) -> None:
        if k in LINKS:
            self.link_papers.append(self._paper(u))
            self.link_concepts.append(v)

    def close(self) -> list[Path]:
        self.dir.mkdir(parents=True, exist_ok=True)
        n = len(self.names)
        ids = list(self.papers)
        concept_ids = sorted(self.concepts)
        number = {c: i for i, c in enumerate(concept_ids)}
        where = [self.where.get(i, (None, None)) for i in range(n)]
        files = [self._write_json("papers.json", {"ids": ids, "names": self.names, "venues": [w[0] for w in where],
                                                  "years": [w[1] for w in where]}),
                 self._write_json("concepts.json", {"ids": concept_ids,
                                                    "names": [self.concepts[c][0] for c in concept_ids],
                                                    "types": [self.concepts[c][1] for c in concept_ids],
                                                    "idf": [self.concepts[c][2] for c in concept_ids]})]
        kept = [(p, number[c]) for p, c in zip(self.link_papers, self.link_concepts) if c in number]
        rows = numpy.array([p for p, _ in kept], dtype=numpy.int32)
        cols = numpy.array([c for _, c in kept], dtype=numpy.int32)
        files += self._csr("paper", rows, cols, n)
        files += self._csr("concept", cols, rows, len(concept_ids))
        files += self._text(n)
        return files

    def _write_json(self, name: str, value: dict) -> Path:
        path = self.dir / name
        path.write_text(json.dumps(value, ensure_ascii=False), encoding="utf-8")
        return path

    def _save(self, name: str, values: numpy.ndarray) -> Path:
        path = self.dir / f"{name}.npy"
        numpy.save(path, values)
        return path

    def _csr(self, name: str, rows: numpy.ndarray, cols: numpy.ndarray, n: int) -> list[Path]:
        """``{name}_ptr`` and ``{name}_{other}`` arrays: for each row, its columns (sorted, distinct)."""
        pairs = numpy.unique(numpy.stack([rows, cols], axis=1), axis=0) if len(rows) else numpy.zeros((0, 2), int)
        ptr = numpy.zeros(n + 1, dtype=numpy.int64)
        numpy.add.at(ptr, pairs[:, 0] + 1, 1)
        other = "concepts" if name == "paper" else "papers"
        return [self._save(f"{name}_ptr", numpy.cumsum(ptr)),
                self._save(f"{name}_{other}", pairs[:, 1].astype(numpy.int32))]

    def _text(self, n: int) -> list[Path]:
        """Each paper's TF-IDF vector, normalised, and the postings by word (kg.related.textsim's weights)."""
        ptr = numpy.frombuffer(self.doc_ptr, dtype=numpy.int64).copy()
        terms = numpy.frombuffer(self.doc_terms, dtype=numpy.int32).copy()
        tf = numpy.frombuffer(self.doc_tf, dtype=numpy.uint16).astype(numpy.float64)
        df = numpy.bincount(terms, minlength=len(self.vocab)).astype(numpy.float64)
        idf = numpy.log(1 + max(n, 1) / numpy.maximum(df, 1))
        weights = (1 + numpy.log(tf)) * idf[terms]
        lengths = numpy.diff(ptr)
        doc = numpy.repeat(numpy.arange(n, dtype=numpy.int32), lengths)
        norms = numpy.sqrt(numpy.bincount(doc, weights=weights * weights, minlength=n))
        norms[norms == 0] = 1.0
        weights = (weights / norms[doc]).astype(numpy.float32)  # 4 bytes a posting: a 1M-paper index stays ~1.2 GB
        del tf, norms
        order = numpy.argsort(terms, kind="stable").astype(numpy.int32)
        term_ptr = numpy.zeros(len(self.vocab) + 1, dtype=numpy.int64)
        numpy.add.at(term_ptr, terms + 1, 1)
        return [self._save("doc_ptr", ptr), self._save("doc_terms", terms), self._save("doc_weights", weights),
                self._save("term_ptr", numpy.cumsum(term_ptr)), self._save("term_docs", doc[order]),
                self._save("term_weights", weights[order])]
