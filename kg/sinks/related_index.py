"""``related/``: the query index of ``kg related``, written as the graph's elements come, so that a query reads a
few memory-mapped arrays instead of the whole ``graph.json``.

- ``paper_ids.txt``: paper node ids as JSON strings, one a line in index order, and ``paper_dois.txt``,
  ``paper_arxiv_ids.txt`` and ``paper_other_ids.txt`` beside them: each paper's DOI in lower case, arXiv id and
  other ids (``other_ids``, separated by tabs), an empty line where it has none, which name a paper too
  (:mod:`kg.paper_names`); ``paper_facts.jsonl``: each paper's name (title), venue, year, url, the authors' keywords
  and whether the name is its title as one JSON list a line, and ``paper_lines.npy`` where each line starts (a query
  reads only the lines of its hits), ``paper_rank.npy`` each paper's place by name, then id; ``concepts.json``:
  concept ids, names, types, IDFs, the aliases of those that have some and the papers proposing each proposed
  method;
- ``terms.txt``: the index words, one a line in word-number order; ``titles.txt``: the names lower-cased, one a line;
- ``sentences.txt``: the sentences that link papers to concepts (each paper's distinct ones once), and
  ``paper_sentence_starts.npy``/``paper_sentence_ends.npy`` beside ``paper_concepts.npy``: where the sentence of
  each link stands in it (the first link's, when a paper links to a concept twice); ``hierarchy.json``: the
  subtasks, variants and kinds under each concept (``SUBTASK_OF``, ``VARIANT_OF``, ``KIND_OF``), by concept number;
- ``paper_ptr.npy``/``paper_concepts.npy`` and ``concept_ptr.npy``/``concept_papers.npy``: which concepts a paper
  links to (proposes, uses, addresses, evaluates on, reports) and which papers link to a concept (CSR arrays), with
  ``paper_titled.npy``/``concept_titled.npy`` beside them: 1 where the paper's title names the concept, and
  ``concept_counts.npy``: how many times the paper names the concept (its links' mentions);
- ``doc_ptr.npy``/``doc_terms.npy``/``doc_weights.npy``: each paper's TF-IDF vector of title and abstract, and
  ``term_ptr.npy``/``term_docs.npy``/``term_weights.npy`` the same by word (postings), as
  :mod:`kg.related.textsim` computes them (stored as 32-bit floats);
- ``format.txt``: the index's format (:data:`kg.related.index.FORMAT`); an index of another format, or without
  every file, leaves the answers to ``graph.json``;
- ``embeddings.npy``: each paper's text embedding ``[papers, 384]``, half-precision floats (zeros for a paper
  without one; no file when no paper has one: :mod:`kg.related.semantic`).

Memory stays flat with the corpus: the words of each paper go to a spill file as they come, and ``close`` computes
the weights and the postings in slices of :data:`SLICE` postings, appending each to its file (a million abstracts
make about 75 million postings). :mod:`kg.related.index` reads the index and ranks exactly as
:func:`kg.related.ranking.related` does on the graph.
"""
from __future__ import annotations

import json
from array import array
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import numpy
from numpy.lib import format as npy

from kg import schema
from kg.related.index import FORMAT
from kg.related.ranking import in_title, link_sentence
from kg.related.semantic import WIDTH, unpack
from kg.related.textsim import paper_text, words
from kg.sinks.base import GraphSink

LINKS = frozenset(r.name for r in (schema.PROPOSES, *schema.REL_FOR_LABEL.values()))
PROPOSES = schema.PROPOSES.name
CONCEPT_TYPES = frozenset(t.label for t in (schema.METHOD, schema.TASK, schema.DATASET, schema.METRIC))
_JSON_RUN = 1 << 16  # list items per write of a JSON file
EMBEDDING_BYTES = 2 * WIDTH  # a paper's text embedding: 384 half-precision floats (kg.related.semantic)
SLICE = 1 << 22  # postings held at once while the index is written (about 200 MB of working arrays)


class _Spill:
    """A growing column of numbers kept in a file: appended in memory, flushed to ``path`` every :data:`SLICE`."""

    def __init__(self, path: Path, code: str) -> None:
        self.path, self.code, self.dtype = path, code, numpy.dtype(code)
        self.buffer, self.flushed = array(code), 0
        path.write_bytes(b"")

    def extend(self, values: list[int]) -> None:
        self.buffer.extend(values)
        if len(self.buffer) >= SLICE:
            self.flush()

    def flush(self) -> None:
        with self.path.open("ab") as f:
            self.buffer.tofile(f)
        self.flushed += len(self.buffer)
        self.buffer = array(self.code)

    def __len__(self) -> int:
        return self.flushed + len(self.buffer)

    def read(self, start: int, stop: int) -> numpy.ndarray:
        """Items ``start:stop`` (after :meth:`flush`)."""
        size = self.dtype.itemsize
        return numpy.fromfile(self.path, dtype=self.dtype, count=stop - start, offset=start * size)


class _NpyWriter:
    """A 1-d ``.npy`` file of known length, written in slices."""

    def __init__(self, path: Path, dtype: numpy.dtype | type, length: int) -> None:
        self.path, self.dtype, self.length, self.written = path, numpy.dtype(dtype), length, 0
        self.file = path.open("wb")
        npy.write_array_header_1_0(self.file, {"descr": npy.dtype_to_descr(self.dtype), "fortran_order": False,
                                               "shape": (length,)})
        self.offset = self.file.tell()

    def write(self, values: numpy.ndarray) -> None:
        self.file.write(numpy.ascontiguousarray(values, dtype=self.dtype).tobytes())
        self.written += len(values)

    def close(self) -> Path:
        self.file.close()
        if self.written != self.length:
            raise RuntimeError(f"{self.path}: wrote {self.written} of {self.length} values")
        return self.path

    def read(self, start: int, stop: int) -> numpy.ndarray:
        """Values ``start:stop`` of the finished file."""
        return numpy.fromfile(self.path, dtype=self.dtype, count=stop - start,
                              offset=self.offset + start * self.dtype.itemsize)


class RelatedIndexSink(GraphSink):
    """Collects papers, their texts' words and their links to concepts; ``close`` computes and writes the index."""

    def __init__(self, directory: Path) -> None:
        self.dir = Path(directory)
        self.dir.mkdir(parents=True, exist_ok=True)
        self.papers: dict[str, int] = {}
        self.names: list[str] = []
        self.has_title: list[bool] = []  # whether a paper's name is its title (else its proposed name or first words)
        self.venues: list = []
        self.years: list = []
        self.urls: list = []
        self.dois: list[str] = []  # each paper's DOI in lower case ("": none)
        self.arxiv_ids: list[str] = []  # each paper's arXiv id ("": none)
        self.other_ids: list[str] = []  # each paper's other ids, separated by tabs ("": none)
        self.keywords: list = []  # each paper's authors' keywords (empty lists for most inputs)
        self.concepts: dict[str, tuple[str, str, float]] = {}  # id -> (name, type, idf)
        self.aliases: dict[str, list[str]] = {}
        self.proposed: dict[str, list[int]] = {}  # method id -> the papers proposing it
        self.linked: dict[str, int] = {}  # concept id -> its number in link_concepts, in order of first link
        self.vocab: dict[str, int] = {}
        self.doc_ptr = array("q", [0])
        self.doc_terms = _Spill(self.dir / ".doc_terms.spill", "i")
        self.doc_tf = _Spill(self.dir / ".doc_tf.spill", "H")
        self.link_papers, self.link_concepts = array("i"), array("i")
        self.link_titled = array("b")  # 1 where the link's evidence includes the paper's title
        self.link_counts = array("H")  # the link's mentions
        self.sentences = (self.dir / "sentences.txt").open("wb")
        self.link_starts, self.link_ends = array("q"), array("q")  # each link's sentence in sentences.txt
        self.written_for: tuple[int, dict[str, tuple[int, int]]] = (-1, {})  # the last paper's sentences so far
        self.below: list[tuple[str, str]] = []  # (child, parent) concept ids
        self.embeddings = (self.dir / ".embeddings.raw").open("w+b")  # paper i's at i * EMBEDDING_BYTES
        self.embedded = False  # whether any paper had one

    def _paper(self, n: str) -> int:
        i = self.papers.get(n)
        if i is None:
            i = self.papers[n] = len(self.names)
            self.names.append(n)
            self.has_title.append(False)
            self.venues.append(None)
            self.years.append(None)
            self.urls.append(None)
            self.dois.append("")
            self.arxiv_ids.append("")
            self.other_ids.append("")
            self.keywords.append([])
            self.doc_ptr.append(self.doc_ptr[-1])  # no words until its node comes
        return i

    def node(self, n: str, d: dict) -> None:
        kind = d.get("type")
        if kind == schema.PAPER.label:
            i = self._paper(n)
            self.names[i] = " ".join(str(d.get("name") or n).split())  # one line, single spaces: found by title
            self.has_title[i] = bool(d.get("title"))
            self.venues[i], self.years[i], self.urls[i] = d.get("venue"), d.get("year"), d.get("url")
            self.keywords[i] = [str(k) for k in d.get("keywords") or ()]
            self.dois[i] = " ".join(str(d.get("doi") or "").split()).lower()  # (one line each)
            self.arxiv_ids[i] = " ".join(str(d.get("arxiv_id") or "").split())
            self.other_ids[i] = "\t".join(o for o in (" ".join(str(x).split()) for x in d.get("other_ids") or ()) if o)
            if i != len(self.names) - 1 or self.doc_ptr[-1] != self.doc_ptr[-2]:
                return  # (a paper node sent twice keeps its first words)
            if d.get("embedding"):
                self.embeddings.seek(i * EMBEDDING_BYTES)
                self.embeddings.write(unpack(d["embedding"]).tobytes())
                self.embedded = True
            vocab = self.vocab
            counts = Counter(words(paper_text(d.get("title"), d.get("abstract"), d.get("keywords"))))
            for w in counts:
                if w not in vocab:
                    vocab[w] = len(vocab)
            self.doc_terms.extend([vocab[w] for w in counts])
            self.doc_tf.extend([min(k, 65535) for k in counts.values()])
            self.doc_ptr[-1] = len(self.doc_terms)
        elif kind in CONCEPT_TYPES:
            self.concepts[n] = (str(d.get("name") or n), kind, float(d.get("idf") or 0.0))
            if d.get("aliases"):
                self.aliases[n] = [str(a) for a in d["aliases"]]

    def edge(self, u: str, v: str, k: str, d: dict) -> None:
        if k in LINKS:
            self.link_papers.append(self._paper(u))
            if k == PROPOSES:
                self.proposed.setdefault(v, []).append(self._paper(u))
            self.link_concepts.append(self.linked.setdefault(v, len(self.linked)))
            self.link_titled.append(in_title(d))
            self.link_counts.append(min(max(int(d.get("count") or 1), 1), 65535))
            start, end = self._sentence(self._paper(u), link_sentence(d))
            self.link_starts.append(start)
            self.link_ends.append(end)
        elif k in schema.HIERARCHY:
            self.below.append((u, v))

    def _sentence(self, paper: int, sentence: str) -> tuple[int, int]:
        """Where ``sentence`` stands in ``sentences.txt``, written there unless the paper's earlier links (in a row)
        wrote it already."""
        last, seen = self.written_for
        if last != paper:
            seen = {}
            self.written_for = (paper, seen)
        found = seen.get(sentence)
        if found is None:
            start = self.sentences.tell()
            self.sentences.write(sentence.encode("utf-8") + b"\n")
            found = seen[sentence] = (start, self.sentences.tell() - 1)
        return found

    def close(self) -> list[Path]:
        n = len(self.names)
        concept_ids = sorted(self.concepts)
        files = [self._write_lines("paper_ids.txt", [json.dumps(p, ensure_ascii=False) for p in self.papers]),
                 self._write_lines("paper_dois.txt", self.dois),
                 self._write_lines("paper_arxiv_ids.txt", self.arxiv_ids),
                 self._write_lines("paper_other_ids.txt", self.other_ids),
                 *self._write_papers(),
                 self._write_json("concepts.json", {"ids": concept_ids,
                                                    "names": [self.concepts[c][0] for c in concept_ids],
                                                    "types": [self.concepts[c][1] for c in concept_ids],
                                                    "idf": [self.concepts[c][2] for c in concept_ids],
                                                    "aliases": {j: self.aliases[c] for j, c in enumerate(concept_ids)
                                                                if c in self.aliases},
                                                    "proposed_by": {j: sorted(set(self.proposed[c]))
                                                                    for j, c in enumerate(concept_ids)
                                                                    if c in self.proposed}}),
                 self._write_lines("terms.txt", list(self.vocab)),
                 self._write_titles("titles.txt"),
                 self._write_lines("format.txt", [FORMAT])]
        self.sentences.close()
        files.append(self._write_hierarchy("hierarchy.json", concept_ids))
        number = numpy.full(len(self.linked) + 1, -1, dtype=numpy.int32)  # link number -> concept index, -1: none
        for j, c in enumerate(concept_ids):
            if c in self.linked:
                number[self.linked[c]] = j
        cols = number[numpy.frombuffer(self.link_concepts, dtype=numpy.int32)] if self.link_concepts else number[:0]
        known = cols >= 0
        rows = numpy.frombuffer(self.link_papers, dtype=numpy.int32)[known]
        titled = numpy.frombuffer(self.link_titled, dtype=numpy.int8)[known].astype(bool)
        counts = numpy.frombuffer(self.link_counts, dtype=numpy.uint16)[known].astype(numpy.int32)
        starts = numpy.frombuffer(self.link_starts, dtype=numpy.int64)[known]
        ends = numpy.frombuffer(self.link_ends, dtype=numpy.int64)[known]
        cols = cols[known]
        self.link_papers = self.link_concepts = array("i")
        self.link_titled, self.link_counts = array("b"), array("H")
        self.link_starts, self.link_ends = array("q"), array("q")
        files += self._csr("paper", rows, cols, n, len(concept_ids), titled, (starts, ends))
        files += self._csr("concept", cols, rows, len(concept_ids), n, titled, counts=counts)
        del rows, cols, titled, counts, starts, ends
        files += self._text(n)
        files += self._write_embeddings(n)
        return files

    def _write_embeddings(self, n: int) -> list[Path]:
        """``embeddings.npy``: the papers' text embeddings ``[n, 384]`` (zeros for a paper without one), if any
        paper had one."""
        raw, self.embeddings = self.embeddings, None
        try:
            if not self.embedded:
                return []
            raw.truncate(n * EMBEDDING_BYTES)  # (zeros after the last paper that had one)
            raw.seek(0)
            path = self.dir / "embeddings.npy"
            with path.open("wb") as f:
                npy.write_array_header_1_0(f, {"descr": "<f2", "fortran_order": False, "shape": (n, WIDTH)})
                while chunk := raw.read(1 << 24):
                    f.write(chunk)
            return [path]
        finally:
            raw.close()
            (self.dir / ".embeddings.raw").unlink(missing_ok=True)

    def _write_json(self, name: str, value: dict) -> Path:
        """``value`` as JSON; a list is written in runs of items, so memory does not double with the corpus."""
        path = self.dir / name
        with path.open("w", encoding="utf-8") as f:
            f.write("{")
            for n, (key, item) in enumerate(value.items()):
                f.write(("," if n else "") + json.dumps(key) + ":")
                if not isinstance(item, list):
                    f.write(json.dumps(item, ensure_ascii=False))
                    continue
                f.write("[")
                for at in range(0, len(item), _JSON_RUN):
                    f.write(("," if at else "") + json.dumps(item[at:at + _JSON_RUN], ensure_ascii=False)[1:-1])
                f.write("]")
            f.write("}")
        return path

    def _write_papers(self) -> list[Path]:
        """``paper_facts.jsonl`` (name, venue, year, url, keywords, whether the name is the title: a JSON list a
        line), ``paper_lines.npy`` (line starts) and ``paper_rank.npy`` (each paper's place in the order of names,
        then ids: how papers are listed)."""
        path, starts, at = self.dir / "paper_facts.jsonl", array("q", [0]), 0
        with path.open("wb") as f:
            for i in range(len(self.names)):
                line = (json.dumps([self.names[i], self.venues[i], self.years[i], self.urls[i], self.keywords[i],
                                    self.has_title[i]], ensure_ascii=False) + "\n").encode("utf-8")
                f.write(line)
                at += len(line)
                starts.append(at)
        ids = list(self.papers)
        order = sorted(range(len(self.names)), key=lambda i: (self.names[i], ids[i]))
        rank = numpy.empty(len(order), dtype=numpy.int32)
        rank[numpy.asarray(order, dtype=numpy.int64)] = numpy.arange(len(order), dtype=numpy.int32)
        return [path, self._save("paper_lines", numpy.frombuffer(starts, dtype=numpy.int64)),
                self._save("paper_rank", rank)]

    def _write_hierarchy(self, name: str, concept_ids: list[str]) -> Path:
        """The subtasks and variants right under each concept that has some: parent number -> child numbers."""
        number = {c: j for j, c in enumerate(concept_ids)}
        below: dict[int, set[int]] = {}
        for child, parent in self.below:
            if child in number and parent in number:
                below.setdefault(number[parent], set()).add(number[child])
        return self._write_json(name, {"below": {j: sorted(cs) for j, cs in sorted(below.items())}})

    def _write_titles(self, name: str) -> Path:
        """The papers' names lower-cased, one a line in index order: what a query by title searches."""
        return self._write_lines(name, [x.lower() for x in self.names])

    def _write_lines(self, name: str, lines: list[str]) -> Path:
        """``lines``, one a line, written in runs."""
        path = self.dir / name
        with path.open("w", encoding="utf-8") as f:
            for at in range(0, len(lines), _JSON_RUN):
                f.write("".join(f"{x}\n" for x in lines[at:at + _JSON_RUN]))
        return path

    def _save(self, name: str, values: numpy.ndarray) -> Path:
        path = self.dir / f"{name}.npy"
        numpy.save(path, values)
        return path

    def _csr(self, name: str, rows: numpy.ndarray, cols: numpy.ndarray, n: int, width: int,
             titled: numpy.ndarray, sentences: tuple[numpy.ndarray, numpy.ndarray] | None = None,
             counts: numpy.ndarray | None = None) -> list[Path]:
        """``{name}_ptr`` and ``{name}_{other}`` arrays: for each of ``n`` rows, its columns (sorted, distinct);
        ``{name}_titled``: 1 where any link of that row and column is ``titled``; with ``sentences`` (each link's
        start and end in sentences.txt), ``{name}_sentence_starts``/``_ends``: those of each pair's first link; with
        ``counts`` (each link's), ``{name}_counts``: their sum per pair."""
        keys = rows.astype(numpy.int64) * max(width, 1) + cols
        order = numpy.argsort(keys, kind="stable")
        pairs, first, pair_of = numpy.unique(keys[order], return_index=True, return_inverse=True)
        ptr = numpy.zeros(n + 1, dtype=numpy.int64)
        numpy.add.at(ptr, pairs // max(width, 1) + 1, 1)
        other = "concepts" if name == "paper" else "papers"
        files = [self._save(f"{name}_ptr", numpy.cumsum(ptr)),
                 self._save(f"{name}_{other}", (pairs % max(width, 1)).astype(numpy.int32)),
                 self._save(f"{name}_titled", numpy.isin(pairs, keys[titled]).astype(numpy.int8))]
        if counts is not None:
            summed = numpy.zeros(len(pairs), dtype=numpy.int64)
            numpy.add.at(summed, pair_of, counts[order])
            files.append(self._save(f"{name}_counts", numpy.minimum(summed, 2**31 - 1).astype(numpy.int32)))
        if sentences is not None:
            links = order[first]
            files += [self._save(f"{name}_sentence_starts", sentences[0][links]),
                      self._save(f"{name}_sentence_ends", sentences[1][links])]
        return files

    def _slices(self, ptr: numpy.ndarray) -> Iterator[tuple[int, int]]:
        """Paper ranges ``(a, b)`` holding about :data:`SLICE` postings each (one paper never splits)."""
        a, n = 0, len(ptr) - 1
        while a < n:
            b = max(int(numpy.searchsorted(ptr, ptr[a] + SLICE, side="right")) - 1, a + 1)
            yield a, min(b, n)
            a = min(b, n)

    def _text(self, n: int) -> list[Path]:
        """Each paper's TF-IDF vector, normalised, and the postings by word (kg.related.textsim's weights),
        computed and written a slice of papers at a time."""
        self.doc_terms.flush()
        self.doc_tf.flush()
        ptr = numpy.frombuffer(self.doc_ptr, dtype=numpy.int64)
        total, slices = int(ptr[-1]), list(self._slices(ptr))
        df = numpy.zeros(len(self.vocab), dtype=numpy.int64)
        for a, b in slices:
            df += numpy.bincount(self.doc_terms.read(ptr[a], ptr[b]), minlength=len(self.vocab))
        idf = numpy.log(1 + max(n, 1) / numpy.maximum(df, 1).astype(numpy.float64))
        terms_out = _NpyWriter(self.dir / "doc_terms.npy", numpy.int32, total)
        weights_out = _NpyWriter(self.dir / "doc_weights.npy", numpy.float32, total)
        for a, b in slices:
            terms = self.doc_terms.read(ptr[a], ptr[b])
            tf = self.doc_tf.read(ptr[a], ptr[b]).astype(numpy.float64)
            weights = (1 + numpy.log(tf)) * idf[terms]
            doc = numpy.repeat(numpy.arange(b - a), numpy.diff(ptr[a:b + 1]))
            norms = numpy.sqrt(numpy.bincount(doc, weights=weights * weights, minlength=b - a))
            norms[norms == 0] = 1.0
            terms_out.write(terms)
            weights_out.write(weights / norms[doc])
        files = [self._save("doc_ptr", ptr), terms_out.close(), weights_out.close()]
        self.doc_terms.path.unlink()
        self.doc_tf.path.unlink()
        term_ptr = numpy.concatenate([[0], numpy.cumsum(df)])
        files.append(self._save("term_ptr", term_ptr))
        files += self._postings(ptr, slices, term_ptr, terms_out, weights_out)
        return files

    def _postings(self, ptr: numpy.ndarray, slices: list[tuple[int, int]], term_ptr: numpy.ndarray,
                  terms_in: _NpyWriter, weights_in: _NpyWriter) -> list[Path]:
        """``term_docs``/``term_weights``: the postings grouped by word, papers ascending within a word; one pass
        over the papers per range of words holding about :data:`SLICE` postings."""
        docs_out = _NpyWriter(self.dir / "term_docs.npy", numpy.int32, int(term_ptr[-1]))
        weights_out = _NpyWriter(self.dir / "term_weights.npy", numpy.float32, int(term_ptr[-1]))
        t0, vocab = 0, len(term_ptr) - 1
        while t0 < vocab:
            t1 = max(int(numpy.searchsorted(term_ptr, term_ptr[t0] + SLICE, side="right")) - 1, t0 + 1)
            t1 = min(t1, vocab)
            parts_t, parts_d, parts_w = [], [], []
            for a, b in slices:
                terms = terms_in.read(ptr[a], ptr[b])
                keep = numpy.flatnonzero((terms >= t0) & (terms < t1))
                if len(keep):
                    doc = numpy.searchsorted(ptr, ptr[a] + keep, side="right") - 1
                    parts_t.append(terms[keep])
                    parts_d.append(doc.astype(numpy.int32))
                    parts_w.append(weights_in.read(ptr[a], ptr[b])[keep])
            if parts_t:
                order = numpy.argsort(numpy.concatenate(parts_t), kind="stable")
                docs_out.write(numpy.concatenate(parts_d)[order])
                weights_out.write(numpy.concatenate(parts_w)[order])
            t0 = t1
        return [docs_out.close(), weights_out.close()]
