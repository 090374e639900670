"""``kg related`` from the index a build writes (``related/``, :mod:`kg.sinks.related_index`): the same ranking as
:func:`kg.related.ranking.related` and :func:`kg.related.ranking.rank`, read from memory-mapped arrays instead of a
graph loaded from ``graph.json``. Papers are named as everywhere in kg (:class:`IndexPapers`, :mod:`kg.paper_names`).

>>> index = RelatedIndex.load(Path("out/related"))   # doctest: +SKIP
>>> index.related("paper:2106.09685", top=5)           # doctest: +SKIP
>>> index.related_to_text("pose estimation on COCO")   # doctest: +SKIP
"""
from __future__ import annotations

import json
import os
from collections import Counter
from pathlib import Path

import numpy
from numpy.lib import format as npy

from kg import schema
from kg.concept_names import match_concept
from kg.errors import InputError
from kg.paper_names import Candidate, normal
from kg.related.ranking import (DEFAULT_WEIGHTS, TEXT_WEIGHT, TITLE_FACTOR, ConceptReport, Hit, PaperFacts, Shared,
                                best, descendants, named_in, shared_keywords, text_concept_keys)
from kg.related.semantic import available, cosines, embed, reranked
from kg.related.semantic import blend as semantic_blend
from kg.related.textsim import QUERY_TERMS, idf, query_text, shared_words, unit_vector, words

DIRECTORY = "related"
_ARRAYS = ("paper_lines", "paper_rank", "paper_ptr", "paper_concepts", "paper_titled", "paper_sentence_starts",
           "paper_sentence_ends", "concept_ptr", "concept_papers", "concept_titled", "concept_counts", "doc_ptr",
           "doc_terms", "doc_weights", "term_ptr", "term_docs", "term_weights")
_FILES = ("paper_ids.txt", "paper_dois.txt", "paper_arxiv_ids.txt", "paper_other_ids.txt", "paper_facts.jsonl",
          "concepts.json", "terms.txt", "titles.txt", "sentences.txt", "hierarchy.json", "format.txt",
          *(f"{a}.npy" for a in _ARRAYS))
# format.txt: 3 since the papers' DOIs and arXiv ids are in paper_dois.txt and paper_arxiv_ids.txt, 4 since their
# other ids are in paper_other_ids.txt, 5 since concept_counts.npy holds how often each paper names each concept
FORMAT = "5"


class _Lines:
    """A file of one item a line (ids, words, titles), read once as bytes when first needed: the numbers of the
    lines equal to a text, a line by its number, all lines. No line is decoded that a query does not ask for."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._text: bytes | None = None
        self._breaks: numpy.ndarray | None = None

    @property
    def text(self) -> bytes:
        """The file after a line break, so every line sits between two."""
        if self._text is None:
            self._text = b"\n" + self.path.read_bytes()
        return self._text

    def find(self, line: bytes, first: bool = False) -> list[int]:
        """The numbers of the lines that are ``line`` (only the first with ``first``)."""
        return self._matching(b"\n" + line + b"\n", first)

    def ending(self, tail: bytes) -> list[int]:
        """The numbers of the lines that end in ``tail``."""
        return self._matching(tail + b"\n")

    def _matching(self, key: bytes, first: bool = False) -> list[int]:
        """The numbers of the lines in which ``key`` starts (only the first with ``first``)."""
        text, found, number, last = self.text, [], -1, 0
        at = text.find(key)
        while at != -1:
            number += text.count(b"\n", last, at + 1)  # the line breaks up to this line's own
            last = at + 1
            found.append(number)
            if first:
                break
            at = text.find(key, at + 1)
        return found

    def holding(self, field: bytes) -> list[int]:
        """The numbers of the lines that hold ``field`` as one of their tab-separated fields."""
        text, found, number, last = self.text, [], 0, 0
        at = text.find(field) if field else -1
        while at != -1:
            end = at + len(field)
            if text[at - 1:at] in (b"\n", b"\t") and text[end:end + 1] in (b"\n", b"\t"):
                number += text.count(b"\n", last, at)  # (with the line break before the first line)
                last = at
                found.append(number - 1)
            at = text.find(field, end)
        return list(dict.fromkeys(found))

    def line(self, i: int) -> str:
        """Line number ``i``."""
        if self._breaks is None:
            self._breaks = numpy.flatnonzero(numpy.frombuffer(self.text, dtype=numpy.uint8) == 10)
        return self.text[self._breaks[i] + 1:self._breaks[i + 1]].decode("utf-8")

    def all(self) -> list[str]:
        """Every line, in order."""
        return self.text[1:].decode("utf-8").split("\n")[:-1]


_REBUILD = "rebuild it with `kg build INPUT --out {out}`"


def _read(path: Path, read):
    """``read(path)``, or an :class:`InputError` naming the file when it is damaged (truncated, empty, not what kg
    wrote)."""
    try:
        return read(path)
    except (OSError, ValueError, EOFError) as exc:
        raise InputError(f"{path}: not an index file kg wrote ({type(exc).__name__}: {exc}); "
                         f"{_REBUILD.format(out=path.parent.parent)}") from None


class _Rows:
    """The rows of a 2-d ``.npy`` file read by ``pread`` as a query needs them. A query reads a thousand of a
    million embeddings, far apart; through a memory map those reads touched 315 MB of the file."""

    def __init__(self, path: Path) -> None:
        with path.open("rb") as f:
            version = npy.read_magic(f)
            read_header = npy.read_array_header_1_0 if version == (1, 0) else npy.read_array_header_2_0
            shape, fortran, dtype = read_header(f)
            self.offset = f.tell()
        if len(shape) != 2 or fortran:
            raise ValueError(f"not a 2-d array in C order: {shape}")
        self.shape, self.dtype = shape, numpy.dtype(dtype)
        self.width = shape[1] * self.dtype.itemsize
        if path.stat().st_size < self.offset + shape[0] * self.width:
            raise ValueError(f"shorter than its {shape[0]} rows")
        self.fd = os.open(path, os.O_RDONLY)

    def __len__(self) -> int:
        return self.shape[0]

    def __getitem__(self, rows: int | numpy.ndarray) -> numpy.ndarray:
        """Row ``rows`` (an int), or those rows (an array of numbers) as a 2-d array."""
        if isinstance(rows, (int, numpy.integer)):
            return numpy.frombuffer(os.pread(self.fd, self.width, self.offset + int(rows) * self.width), self.dtype)
        data = b"".join(os.pread(self.fd, self.width, self.offset + int(r) * self.width) for r in rows)
        return numpy.frombuffer(data, self.dtype).reshape(len(rows), self.shape[1])

    def __del__(self) -> None:
        if getattr(self, "fd", None) is not None:
            os.close(self.fd)


class RelatedIndex:
    """A build's related-work index."""

    def __init__(self, directory: Path, concepts: dict, arrays: dict[str, numpy.ndarray],
                 hierarchy: dict | None = None) -> None:
        self.dir = directory
        self.n = len(arrays["paper_lines"]) - 1  # papers
        self.concept_ids, self.concept_names, self.concept_types = concepts["ids"], concepts["names"], concepts["types"]
        self.children = {int(j): cs for j, cs in (hierarchy or {}).get("below", {}).items()}
        self.aliases = {int(j): a for j, a in concepts["aliases"].items()}
        self.proposed_by = {int(j): p for j, p in concepts["proposed_by"].items()}
        self.idf = numpy.asarray(concepts["idf"], dtype=numpy.float64)
        self.a = arrays
        self._dois, self._arxiv_ids = _Lines(directory / "paper_dois.txt"), _Lines(directory / "paper_arxiv_ids.txt")
        self._other_ids = _Lines(directory / "paper_other_ids.txt")
        self._ids, self._titles, self._words = (_Lines(directory / f) for f in ("paper_ids.txt", "titles.txt",
                                                                                "terms.txt"))
        self._terms: dict[str, int] | None = None  # word -> its number, for a free text
        self._papers: numpy.ndarray | None = None  # paper_facts.jsonl
        self._sentences: numpy.ndarray | None = None  # sentences.txt
        self._datasets: numpy.ndarray | None = None  # which concepts are datasets
        embeddings = directory / "embeddings.npy"  # (a build without text embeddings has none)
        self.embeddings = _read(embeddings, _Rows) if embeddings.is_file() else None

    @staticmethod
    def complete(directory: Path) -> bool:
        """Whether ``directory`` holds an index of this kg's format with every file it reads (an older kg wrote
        fewer, or another format)."""
        if not all((directory / f).is_file() for f in _FILES):
            return False
        try:
            return (directory / "format.txt").read_text(encoding="utf-8").strip() == FORMAT
        except (OSError, UnicodeDecodeError):
            return False

    @classmethod
    def load(cls, directory: Path) -> RelatedIndex:
        """The index in ``directory`` (``OUT/related``), its arrays memory-mapped; the papers' ids and facts are read
        line by line as a query needs them."""
        concepts = _read(directory / "concepts.json", lambda p: json.loads(p.read_text(encoding="utf-8")))
        hierarchy = _read(directory / "hierarchy.json", lambda p: json.loads(p.read_text(encoding="utf-8")))
        arrays = {name: _read(directory / f"{name}.npy", lambda p: numpy.load(p, mmap_mode="r")) for name in _ARRAYS}
        n, width = len(arrays["paper_lines"]) - 1, len(concepts.get("names", ()))
        for name, size in (("paper_rank", n), ("paper_ptr", n + 1), ("doc_ptr", n + 1), ("concept_ptr", width + 1)):
            if len(arrays[name]) != size:
                raise InputError(f"{directory / (name + '.npy')}: {len(arrays[name])} values where the index has "
                                 f"{size}; {_REBUILD.format(out=directory.parent)}")
        return cls(directory, concepts, arrays, hierarchy)

    def number_of(self, paper: str) -> int | None:
        """The index number of the paper node ``paper``, or None: a search of ``paper_ids.txt`` as one text."""
        found = self._ids.find(json.dumps(paper, ensure_ascii=False).encode("utf-8"), first=True)
        return found[0] if found else None

    def numbers_ending(self, tail: str) -> list[int]:
        """The index numbers of the papers whose node id ends in ``tail`` (a search of ``paper_ids.txt``, a JSON
        string a line)."""
        return self._ids.ending(json.dumps(tail, ensure_ascii=False)[1:].encode("utf-8"))

    def paper_id(self, i: int) -> str:
        """The node id of paper number ``i``."""
        return json.loads(self._ids.line(i))

    @property
    def ids(self) -> list[str]:
        """Every paper's node id, in index order (reads the whole list)."""
        return [json.loads(x) for x in self._ids.all()]

    def _paper_line(self, i: int) -> list:
        if self._papers is None:
            self._papers = numpy.memmap(self.dir / "paper_facts.jsonl", dtype=numpy.uint8, mode="r") if self.n else \
                numpy.zeros(0, dtype=numpy.uint8)
        lines = self.a["paper_lines"]
        return json.loads(bytes(self._papers[int(lines[i]):int(lines[i + 1])]).decode("utf-8"))

    def name(self, i: int) -> str:
        """The name (title) of paper number ``i``."""
        return self._paper_line(i)[0]

    def facts(self, paper: str) -> PaperFacts:
        """What a reference to the paper shows: title (name), url, venue, year."""
        line = self._paper_line(self.number_of(paper))
        name, venue, year, url = line[:4]
        return PaperFacts(name, url, venue, year, line[5] if len(line) > 5 else True)  # (an older index: titled)

    def keywords(self, i: int) -> list[str]:
        """The authors' keywords of paper number ``i`` (none in an index an older kg wrote)."""
        line = self._paper_line(i)
        return line[4] if len(line) > 4 else []

    def titled(self, wanted: str) -> list[int]:
        """The papers whose name, lower-cased, is ``wanted`` (names are stored on one line with single spaces): a
        search of ``titles.txt`` as one text, kept for the next query."""
        return self._titles.find(wanted.encode("utf-8"))

    def identified(self, doi: str, arxiv: str, other: str = "") -> list[int]:
        """The papers whose DOI (lower case) is ``doi`` or whose arXiv id is ``arxiv``, or one of whose other ids is
        one of ``doi``, ``arxiv`` and ``other`` (an empty one: none)."""
        found = [i for text, lines in ((doi, self._dois), (arxiv, self._arxiv_ids)) if text
                 for i in lines.find(text.encode("utf-8"))]
        found += [i for key in dict.fromkeys((doi, arxiv, other)) if key
                  for i in self._other_ids.holding(key.encode("utf-8"))]
        return list(dict.fromkeys(found))

    def _row(self, name: str, other: str, i: int) -> numpy.ndarray:
        ptr = self.a[f"{name}_ptr"]
        return self.a[other][ptr[i]:ptr[i + 1]]

    def _scores(self, vector: list[tuple[int, float]]) -> numpy.ndarray:
        """Cosine of a normalised word vector (word number, weight) to every paper, through its heaviest words."""
        heaviest = sorted(vector, key=lambda tw: -tw[1])[:QUERY_TERMS]
        scores = numpy.zeros(self.n, dtype=numpy.float64)
        for t, v in heaviest:
            u = self._row("term", "term_weights", t).astype(numpy.float64)
            numpy.add.at(scores, self._row("term", "term_docs", t), v * u)
        return scores

    def similar(self, i: int) -> numpy.ndarray:
        """Cosine similarity of paper ``i``'s text to every paper (0 for itself)."""
        terms, weights = self._row("doc", "doc_terms", i), self._row("doc", "doc_weights", i)
        scores = self._scores(list(zip(terms.tolist(), weights.tolist())))
        scores[i] = 0.0
        return scores

    def _word_numbers(self) -> dict[str, int]:
        """Word -> its number, from ``terms.txt`` (one word a line), read once: what a free text needs."""
        if self._terms is None:
            self._terms = {w: t for t, w in enumerate(self._words.all())}
        return self._terms

    def vector_of_text(self, text: str) -> dict[int, float]:
        """A free text's TF-IDF vector by word number, as :meth:`kg.related.textsim.TextIndex.vector_of_text`."""
        numbers = self._word_numbers()
        counts = Counter(t for w in words(query_text(text)) if (t := numbers.get(w)) is not None)
        ptr = self.a["term_ptr"]
        return unit_vector(counts, lambda t: idf(self.n, int(ptr[t + 1] - ptr[t])))

    def similar_to_text(self, text: str) -> numpy.ndarray:
        """Cosine similarity of a free text to every paper, as :meth:`kg.related.textsim.TextIndex.similar_to_text`."""
        return self._scores(list(self.vector_of_text(text).items()))

    def _doc_vector(self, i: int) -> dict[int, float]:
        return dict(zip(self._row("doc", "doc_terms", i).tolist(), self._row("doc", "doc_weights", i).tolist()))

    def concepts_in_text(self, text: str) -> list[int]:
        """The concepts of the index that kg's extractor finds in a text (by name or alias)."""
        wanted = text_concept_keys(text)
        if not wanted:
            return []
        return [j for j, (name, kind) in enumerate(zip(self.concept_names, self.concept_types))
                if named_in(wanted, kind, (name, *self.aliases.get(j, ())))]

    def related(self, paper: str, *, top: int = 10, weights: dict[str, float] | None = None,
                text_weight: float = TEXT_WEIGHT, shared_only: bool = False) -> list[Hit]:
        """Papers related to the paper node ``paper``, as :func:`kg.related.ranking.related` ranks them."""
        i = self.number_of(paper)
        similarity = self.similar(i) if text_weight else None
        embedding = self.embeddings[i] if text_weight and self.embeddings is not None else None
        concepts = self._row("paper", "paper_concepts", i).tolist()
        titled = {c for c, t in zip(concepts, self._row("paper", "paper_titled", i).tolist()) if t}
        return self._rank(concepts, similarity, exclude=i, top=top, weights=weights, text_weight=text_weight,
                          titled=titled, query_vector=self._doc_vector(i) if text_weight else None,
                          embedding=embedding if embedding is not None and embedding.any() else None,
                          keywords=self.keywords(i), shared_only=shared_only)

    def related_to_text(self, text: str, *, top: int = 10, weights: dict[str, float] | None = None,
                        text_weight: float = TEXT_WEIGHT, shared_only: bool = False
                        ) -> tuple[list[Hit], list[tuple[str, str]]]:
        """Papers related to a free text (an abstract, a few words), as :func:`kg.related.ranking.rank` ranks them
        from ``concepts_from_text`` and the texts' similarity; also the known concepts the text names, (type,
        name) each."""
        concepts = self.concepts_in_text(text)
        vector = self.vector_of_text(text)
        similarity = self._scores(list(vector.items())) if text_weight else None
        embedding = embed([text])[0] if text_weight and self.embeddings is not None and available() else None
        return self._rank(concepts, similarity, exclude=None, top=top, weights=weights, text_weight=text_weight,
                          query_vector=vector if text_weight else None, embedding=embedding,
                          shared_only=shared_only), self._named(concepts)

    def concepts_of(self, paper: str) -> list[tuple[str, str]]:
        """(type, name) of each concept the paper node ``paper`` links to."""
        return self._named(self._row("paper", "paper_concepts", self.number_of(paper)).tolist())

    def _named(self, concepts: list[int]) -> list[tuple[str, str]]:
        """(type, name) of concepts by number, by type then name."""
        return sorted((self.concept_types[c], self.concept_names[c]) for c in concepts)

    def _rank(self, concepts: list[int], similarity: numpy.ndarray | None, *, exclude: int | None, top: int,
              weights: dict[str, float] | None, text_weight: float, titled: set[int] = frozenset(),
              query_vector: dict[int, float] | None = None, embedding: numpy.ndarray | None = None,
              keywords: list[str] | None = None, shared_only: bool = False) -> list[Hit]:
        """The scores of all papers at once, then the explanations of the best (a concept of the query's title,
        ``titled``, or of a candidate's counts TITLE_FACTOR times, as :func:`kg.related.ranking.rank`; the query's
        authors' ``keywords`` that each carries too; only papers sharing a weighted concept with ``shared_only``)."""
        weights = weights or DEFAULT_WEIGHTS
        n = self.n
        mine: dict[int, float] = {}
        concept_score = numpy.zeros(n, dtype=numpy.float64)
        for c in concepts:
            w = weights.get(self.concept_types[c], 0.0) * float(self.idf[c]) * (TITLE_FACTOR if c in titled else 1.0)
            if w > 0:
                mine[c] = w
                factor = numpy.where(self._row("concept", "concept_titled", c) > 0, TITLE_FACTOR, 1.0)
                concept_score[self._row("concept", "concept_papers", c)] += w * factor
        if similarity is None:
            similarity = numpy.zeros(n)
        if exclude is not None:
            concept_score[exclude] = similarity[exclude] = 0.0
        candidates = concept_score > 0
        if text_weight and not shared_only:
            candidates |= similarity > 0
        tfidf, semantic = similarity, None
        most = float(concept_score.max()) if n else 0.0
        scale = text_weight * (most or 1.0)  # the texts' part on the concepts' scale, as kg.related.ranking.rank
        if embedding is not None:  # the meanings of the best candidates by concepts and words (kg.related.semantic)
            rows = numpy.flatnonzero(candidates)
            rows = rows[reranked(concept_score[rows] + scale * semantic_blend(tfidf[rows], 0.0), tfidf[rows],
                                 self.a["paper_rank"][rows], top)]
            semantic = numpy.zeros(n, dtype=numpy.float64)
            semantic[rows] = cosines(self.embeddings[rows], embedding)
            similarity = semantic_blend(tfidf, semantic)
        total = concept_score + scale * similarity
        chosen = numpy.flatnonzero(candidates)
        rounded = numpy.round(total[chosen], 9)
        if len(chosen) > top:  # the best ``top`` and every paper tied with the last of them
            kth = -numpy.partition(-rounded, top - 1)[top - 1]
            chosen = chosen[rounded >= kth]
        hits, number = [], {}  # (the hits' index numbers, for their sentences and words)
        for q in chosen.tolist():
            row = self._row("paper", "paper_concepts", q).tolist()
            titles = self._row("paper", "paper_titled", q).tolist()
            shared = [Shared(self.concept_names[c], self.concept_types[c], mine[c] * (TITLE_FACTOR if t else 1.0),
                             (c in titled) + bool(t), self.concept_ids[c]) for c, t in zip(row, titles) if c in mine]
            sim = float(similarity[q])
            hit = Hit(self.paper_id(q), self.name(q), sum(s.weight for s in shared) + scale * sim,
                      sorted(shared, key=lambda s: (-s.weight, s.name)), sim, tfidf=float(tfidf[q]),
                      semantic=None if semantic is None else float(semantic[q]))
            hits.append(hit)
            number[id(hit)] = q
        hits = best(hits, top)
        concept_number = {self.concept_ids[j]: j for j in mine}
        for h in hits:  # the sentences and words of the hits shown only
            q = number[id(h)]
            for s in h.shared:
                s.sentence = self.sentence(q, concept_number[s.concept])
            if query_vector:
                theirs = self._doc_vector(q)
                common = {t: query_vector[t] for t in query_vector.keys() & theirs.keys()}
                names = {t: self._words.line(t) for t in common}  # (words, to order ties as the graph does)
                h.words = shared_words({names[t]: v for t, v in common.items()},
                                       {names[t]: theirs[t] for t in common})
            h.keywords = shared_keywords(keywords, self.keywords(q), h.shared) if keywords else []
        return hits

    def find_concept(self, kind: str, name: str) -> int:
        """The concept of type ``kind`` named ``name``, as :func:`kg.related.ranking.find_concept` finds it."""
        every = list(enumerate(zip(self.concept_ids, self.concept_names, self.concept_types)))
        return match_concept(((j, cid, cname, self.aliases.get(j, ())) for j, (cid, cname, ctype) in every
                              if ctype == kind), kind, name,
                             ((ctype, cname, self.aliases.get(j, ())) for j, (_, cname, ctype) in every
                              if ctype != kind))

    def below(self, concept: int) -> list[int]:
        """The subtasks and dataset variants under ``concept``, as :func:`kg.related.ranking.below` lists them."""
        return descendants(concept, lambda c: self.children.get(c, ()))

    def sentence(self, paper: int, concept: int) -> str:
        """The sentence that links paper number ``paper`` to ``concept`` ("" when none)."""
        row = self._row("paper", "paper_concepts", paper)
        at = int(numpy.searchsorted(row, concept))
        if at >= len(row) or row[at] != concept:
            return ""
        if self._sentences is None:
            size = (self.dir / "sentences.txt").stat().st_size
            self._sentences = numpy.memmap(self.dir / "sentences.txt", dtype=numpy.uint8, mode="r") if size else \
                numpy.zeros(0, dtype=numpy.uint8)
        k = int(self.a["paper_ptr"][paper]) + at
        start, end = int(self.a["paper_sentence_starts"][k]), int(self.a["paper_sentence_ends"][k])
        return bytes(self._sentences[start:end]).decode("utf-8")

    def around_concept(self, kind: str, name: str, *, top: int = 10, hierarchy: bool = True,
                       shown: int | None = None) -> ConceptReport:
        """:func:`kg.related.ranking.around_concept` from the index: the papers of a concept (and of its subtasks and
        variants with ``hierarchy``), the first ``shown`` of them with their sentences, and the datasets most often
        used with it."""
        c = self.find_concept(kind, name)
        nodes = [c, *self.below(c)] if hierarchy else [c]
        first: dict[int, int] = {}  # paper -> the concept whose link names it first
        titled: set[int] = set()  # the papers whose title names it (or a subtask or variant): listed first
        named: Counter[int] = Counter()  # paper -> how often it names them
        for node in nodes:
            rows = self._row("concept", "concept_papers", node).tolist()
            for q, t, k in zip(rows, self._row("concept", "concept_titled", node).tolist(),
                               self._row("concept", "concept_counts", node).tolist()):
                first.setdefault(q, node)
                named[q] += k
                if t:
                    titled.add(q)
        papers = numpy.fromiter(first, dtype=numpy.int64, count=len(first))
        untitled = numpy.fromiter((q not in titled for q in first), dtype=bool, count=len(first))
        fewer = numpy.fromiter((-named[q] for q in first), dtype=numpy.int64, count=len(first))
        listed_order = papers[numpy.lexsort((numpy.asarray(self.a["paper_rank"])[papers], fewer, untitled))]
        shown_papers = listed_order if shown is None else listed_order[:shown]
        listed = [(self.paper_id(q), self.name(q), self.sentence(q, first[q])) for q in shown_papers.tolist()]
        co = self._co_used(papers, set(nodes))
        ptr = self.a["concept_ptr"]
        included = [self.concept_names[n] for n in nodes[1:] if ptr[n + 1] > ptr[n]]
        return ConceptReport(self.concept_ids[c], self.concept_names[c], listed,
                             sorted(co.items(), key=lambda kv: (-kv[1], kv[0]))[:top], included, total=len(papers),
                             co_total=len(co))

    def _co_used(self, papers: numpy.ndarray, nodes: set[int]) -> Counter[str]:
        """How many of ``papers`` use each other dataset (by name)."""
        if not len(papers):
            return Counter()
        ptr = self.a["paper_ptr"]
        starts, ends = numpy.asarray(ptr[papers]), numpy.asarray(ptr[papers + 1])
        lengths = ends - starts  # every paper's row of concepts, gathered at once
        at = numpy.repeat(starts - numpy.concatenate([[0], numpy.cumsum(lengths)[:-1]]), lengths) \
            + numpy.arange(int(lengths.sum()))
        linked = numpy.asarray(self.a["paper_concepts"])[at]
        if self._datasets is None:
            self._datasets = numpy.array([t == schema.DATASET.label for t in self.concept_types], dtype=bool)
        linked = linked[self._datasets[linked]]
        counts = numpy.bincount(linked, minlength=len(self.concept_names))
        co: Counter[str] = Counter()
        for j in numpy.flatnonzero(counts).tolist():
            if j not in nodes:
                co[self.concept_names[j]] += int(counts[j])
        return co


class IndexPapers:
    """The papers of a build's index, for :func:`kg.paper_names.resolve` (ids, titles, proposed methods)."""

    def __init__(self, index: RelatedIndex) -> None:
        self.index = index

    def _candidate(self, i: int) -> Candidate:
        return Candidate(self.index.paper_id(i), " ".join(str(self.index.name(i)).split()))

    def by_id(self, ids: list[str]) -> list[Candidate]:
        """The papers with one of these node ids."""
        numbers = [self.index.number_of(p) for p in dict.fromkeys(ids)]
        return [self._candidate(i) for i in numbers if i is not None]

    def by_name(self, wanted: str, exact: bool = False) -> list[Candidate]:
        """The papers whose title (name), or a proposed method's name or alias, normalised (``exact``: in its own
        case), is ``wanted``."""
        found = dict.fromkeys(self.index.titled(wanted.lower()))
        if exact:
            found = dict.fromkeys(i for i in found if normal(self._candidate(i).title, exact=True) == wanted)
        for j, papers in self.index.proposed_by.items():
            if any(normal(f, exact) == wanted for f in (self.index.concept_names[j], *self.index.aliases.get(j, ()))):
                found.update((i, None) for i in papers)
        return [self._candidate(i) for i in found]

    def by_identifier(self, doi: str, arxiv: str, other: str = "") -> list[Candidate]:
        """The papers whose DOI (lower case) is ``doi`` or whose arXiv id is ``arxiv``, or one of whose other ids is
        one of ``doi``, ``arxiv`` and ``other`` (an empty one: none)."""
        return [self._candidate(i) for i in self.index.identified(doi, arxiv, other)]

    def by_id_end(self, key: str) -> list[Candidate]:
        """The papers whose node id ends in ``":" + key``."""
        return [self._candidate(i) for i in self.index.numbers_ending(":" + key)]

    def names(self) -> list[str]:
        """Every paper's title (name) and every proposed method's name."""
        lines = (self.index.dir / "paper_facts.jsonl").read_text(encoding="utf-8").splitlines()
        return [str(json.loads(x)[0]) for x in lines] + [self.index.concept_names[j] for j in self.index.proposed_by]
