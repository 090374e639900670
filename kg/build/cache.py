"""What a build remembers in ``DIR/cache/`` so the next build into DIR redoes only what changed.

- ``papers.jsonl``: every paper of the last build (a later build adds to them; ``--prune`` drops those not in
  its inputs), replaced only once a build's outputs are in place (``papers.pending.jsonl`` until then);
- ``extractions-<fingerprint>.jsonl``: extraction results keyed by the SHA-256 of the abstract. The fingerprint
  covers the pipeline config, the gazetteers, the trained model and kg's version, so changing any of them
  re-extracts everything instead of mixing old and new results.
"""
from __future__ import annotations

import hashlib
import json
import os
import tempfile
from array import array
from collections.abc import Iterable, Iterator
from dataclasses import fields
from pathlib import Path

import numpy

from kg.build.jsontext import dumpb, dumps, loads
from kg.model import Extraction, Paper, Source
from kg.nlp.settings import config_settings
from kg.related import semantic
from kg.version import __version__

CACHE = "cache"
PENDING = "papers.pending.jsonl"  # the papers of a build under way (BuildCache.save_papers)


def text_key(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def fingerprint_files(config: str = "") -> list[Path]:
    """The files whose bytes decide extraction output: the pipeline's config, kg/nlp's code (components included)
    and data, the text cleaning (kg/corpus/clean.py, markup.py) and the trained models."""
    from kg.nlp import pipeline

    nlp_dir = Path(pipeline.__file__).parent

    def source(f: Path) -> bool:  # (a .c beside a .py or .pyx is Cython's output, not a source)
        if f.suffix == ".c":
            return not (f.with_suffix(".py").exists() or f.with_suffix(".pyx").exists())
        return f.suffix in (".py", ".pyx")

    code = [f for f in nlp_dir.rglob("*") if "__pycache__" not in f.parts and source(f)]
    corpus = nlp_dir.parent / "corpus"  # the cleaning of the text extraction reads
    path = config_settings(config)[0]
    return [Path(path) if path else pipeline.DEFAULT_CONFIG, *sorted((nlp_dir / "data").rglob("*.json*")),
            *sorted(code), corpus / "clean.py", corpus / "markup.py", *sorted((nlp_dir / "trained").rglob("meta.json")),
            *sorted((nlp_dir / "trained_tagger").glob("*"))]


def pipeline_fingerprint(config: str = "") -> str:
    """A short hash of everything that determines extraction output (``config``: the pipeline's config.cfg, and the
    settings over it: :mod:`kg.nlp.settings`)."""
    h = hashlib.sha256(f"{__version__} cache {CACHE_FORMAT}".encode())
    for f in fingerprint_files(config):
        if f.is_file():
            h.update(str(f.name).encode())
            h.update(f.read_bytes())
    settings = config_settings(config)[1]
    if settings:  # (the user's lists: their paths and their contents' digest)
        h.update(json.dumps(settings, sort_keys=True).encode())
    return h.hexdigest()[:16]


_PAPER_FIELDS = tuple(f.name for f in fields(Paper))


def paper_to_json(p: Paper) -> dict:
    d = {name: getattr(p, name) for name in _PAPER_FIELDS}
    d["authors"] = list(p.authors)
    d["sources"] = [[s.path, s.line] for s in p.sources]
    return d


def paper_from_json(d: dict) -> Paper:
    return Paper(**{**d, "sources": [Source(path, line) for path, line in d["sources"]]})


def paper_line(p: Paper) -> str:
    """A paper as one JSON line (``papers.jsonl`` and the build's spool)."""
    return dumps(paper_to_json(p)) + "\n"


def paper_from_line(line: str | bytes) -> Paper:
    return paper_from_json(loads(line))


class PaperSpool:
    """Papers on disk, in order, for the length of a build: a million abstracts take about 2.5 GB as Python objects
    and 1.4 GB as JSON lines. A list-like sequence (``append``, ``len``, indexing, slicing, item assignment, iteration)
    over an anonymous temporary file; memory holds an offset and a length per paper. Replacing a paper appends its
    new version. Reads are positioned (``os.pread``), so two threads may read at once (a process pool's feeder
    thread reads the papers to extract while the build reads them in order)."""

    def __init__(self, directory: str | Path | None = None) -> None:
        self._fh = tempfile.TemporaryFile(dir=directory, prefix="kg-papers-", buffering=0)
        self._at, self._len = array("q"), array("q")
        self._end = 0

    def _write(self, paper: Paper) -> tuple[int, int]:
        data = paper_line(paper).encode("utf-8")
        at = self._end
        os.pwrite(self._fh.fileno(), data, at)
        self._end += len(data)
        return at, len(data)

    def append(self, paper: Paper) -> None:
        at, n = self._write(paper)
        self._at.append(at)
        self._len.append(n)

    def __setitem__(self, i: int, paper: Paper) -> None:
        self._at[i], self._len[i] = self._write(paper)

    def __len__(self) -> int:
        return len(self._at)

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        return paper_from_line(os.pread(self._fh.fileno(), self._len[i], self._at[i]))

    def __iter__(self) -> Iterator[Paper]:
        for k in range(len(self)):
            yield self[k]

    def close(self) -> None:
        self._fh.close()


class PaperSubset:
    """The papers at some positions of a sequence, as a sequence (what is left to extract)."""

    def __init__(self, papers, positions: array) -> None:
        self.papers, self.positions = papers, positions

    def __len__(self) -> int:
        return len(self.positions)

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self.papers[k] for k in self.positions[i]]
        return self.papers[self.positions[i]]

    def __iter__(self) -> Iterator[Paper]:
        for k in self.positions:
            yield self.papers[k]


# A record is a JSON array in field order (no repeated keys: smaller, and faster to write and read back);
# CACHE_FORMAT is part of the fingerprint, so a cache in another layout is never read.
CACHE_FORMAT = 3  # 3: mentions carry in_title


def extraction_to_json(ex: Extraction) -> dict:
    _, mentions, results, aliases, generic = ex.rows()
    return {"mentions": mentions, "results": results, "aliases": aliases, "generic": generic}


def extraction_from_json(paper_id: str, d: dict) -> Extraction:
    return Extraction.from_rows(paper_id, d["mentions"], d["results"], d["aliases"], d["generic"])


class BuildCache:
    """The papers and extractions of earlier builds into one output directory.

    Extractions stay on disk: the cache holds only each abstract's hash and the offset of its record, reads a
    record when asked for it, and appends new ones as they are put, so a million-paper build does not hold its
    extractions in memory.
    """

    def __init__(self, out: Path, config: str = "") -> None:
        self.dir = Path(out) / CACHE
        self.fingerprint = pipeline_fingerprint(config)
        self.path = self.dir / f"extractions-{self.fingerprint}.jsonl"
        self.offsets: dict[bytes, int] = {}
        self._reader = None
        self._writer = None
        self._scan()

    def _scan(self) -> None:
        """Index the records on disk: the abstract's hash leads each line (``["<sha256>", {...}]``)."""
        self.offsets = {}
        if self.path.is_file():
            with self.path.open("r+b") as fh:
                at = 0
                for line in fh:
                    if not line.endswith(b"\n"):  # a build stopped while writing: drop the torn record
                        fh.truncate(at)
                        break
                    if line.startswith(b'["'):
                        self.offsets[bytes.fromhex(line[2:66].decode("ascii"))] = at
                    at += len(line)

    def saved_papers(self, pending: bool = False) -> Iterator[Paper]:
        """The papers of ``papers.jsonl`` one at a time, in order; ``pending``: those of the build under way, which
        :meth:`save_papers` wrote and :meth:`commit_papers` has not yet made the build's."""
        path = self.dir / (PENDING if pending else "papers.jsonl")
        if not path.is_file():
            return
        with path.open(encoding="utf-8") as fh:
            for line in fh:
                if line.strip():
                    yield paper_from_line(line)

    def __getstate__(self) -> dict:
        """Pickled (for another process) as its files only: the receiver indexes the extractions again."""
        return {"dir": self.dir, "fingerprint": self.fingerprint, "path": self.path}

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state, offsets={}, _reader=None, _writer=None)
        self._scan()

    def __contains__(self, paper: Paper) -> bool:
        return bytes.fromhex(text_key(paper.text)) in self.offsets

    def get(self, paper: Paper) -> Extraction | None:
        at = self.offsets.get(bytes.fromhex(text_key(paper.text)))
        if at is None:
            return None
        if self._writer is not None:
            self._writer.flush()
        if self._reader is None:
            self._reader = self.path.open("rb")
        self._reader.seek(at)
        return extraction_from_json(paper.id, loads(self._reader.readline())[1])

    def put(self, paper: Paper, ex: Extraction) -> None:
        """Append ``ex`` as the extraction of ``paper``'s abstract (on disk at once)."""
        key = text_key(paper.text)
        if bytes.fromhex(key) in self.offsets:
            return
        if self._writer is None:
            self.dir.mkdir(parents=True, exist_ok=True)
            self._writer = self.path.open("ab")
        self.offsets[bytes.fromhex(key)] = self._writer.tell()
        self._writer.write(dumpb([key, extraction_to_json(ex)]) + b"\n")

    def close(self) -> None:
        for fh in (self._reader, self._writer):
            if fh is not None:
                fh.close()
        self._reader = self._writer = None

    def compact(self, papers: Iterable[Paper]) -> None:
        """Drop extractions of other papers and other pipelines."""
        self.close()
        self.dir.mkdir(parents=True, exist_ok=True)
        for old in self.dir.glob("extractions-*.jsonl"):
            if old != self.path:
                old.unlink()
        keep = {bytes.fromhex(text_key(p.text)) for p in papers}
        if self.path.is_file() and not keep.issuperset(self.offsets):
            tmp = self.path.with_suffix(".tmp")
            with self.path.open("rb") as src, tmp.open("wb") as dst:
                for key, at in sorted(self.offsets.items(), key=lambda kv: kv[1]):
                    if key in keep:
                        src.seek(at)
                        dst.write(src.readline())
            tmp.replace(self.path)
            self._scan()

    def save_papers(self, papers: list[Paper]) -> None:
        """Write the build's papers apart from ``papers.jsonl`` (``saved_papers(pending=True)`` reads them): a build
        stopped before :meth:`commit_papers` leaves the earlier build's list, so its papers never join the next
        build's."""
        self.dir.mkdir(parents=True, exist_ok=True)
        with (self.dir / PENDING).open("w", encoding="utf-8") as fh:
            for p in papers:
                fh.write(paper_line(p))

    def commit_papers(self) -> None:
        """Make the pending papers (:meth:`save_papers`) the build's ``papers.jsonl``, once its outputs are in
        place."""
        (self.dir / PENDING).replace(self.dir / "papers.jsonl")


class EmbeddingCache:
    """The text embeddings of earlier builds into one output directory (:mod:`kg.related.semantic`), by the hash
    of what was embedded (title, abstract, pieces): one file of fixed-size records, the hash's 8 bytes and 384
    half-precision floats each; memory holds an offset per record. Kept apart from the extractions: a new extraction
    pipeline embeds nothing again, and two papers with one abstract and two titles keep their own."""

    def __init__(self, out: Path) -> None:
        self.path = Path(out) / CACHE / f"embeddings-{semantic.PIECES}-{semantic.WIDTH}.bin"
        self.record = 8 + 2 * semantic.WIDTH
        self.offsets: dict[bytes, int] = {}
        self.todo: dict[bytes, str] = {}  # key -> text, embedded BATCH at a time
        self._reader = None
        if self.path.is_file():
            n = self.path.stat().st_size // self.record  # (a record cut short by a crash is written again)
            keys = numpy.memmap(self.path, dtype=numpy.dtype([("key", "S8"), ("vector", "<f2", semantic.WIDTH)]),
                                mode="r", shape=(n,))["key"] if n else []
            self.offsets = {bytes(k): i * self.record for i, k in enumerate(keys)}
            with self.path.open("r+b") as f:
                f.truncate(n * self.record)

    def want(self, paper: Paper) -> None:
        """Embed ``paper``'s text unless it is here: queued, and embedded with the next ``semantic.BATCH``."""
        key = semantic.text_key(paper)
        if key not in self.offsets and key not in self.todo:
            self.todo[key] = semantic.paper_text(paper.title, paper.text)
            if len(self.todo) >= semantic.BATCH:
                self.flush()

    def flush(self) -> None:
        """Embed and write what is queued."""
        if not self.todo:
            return
        keys = list(self.todo)
        vectors = semantic.embed([self.todo[k] for k in keys])
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self.path.open("ab") as f:
            for k, v in zip(keys, vectors):
                self.offsets[k] = f.tell()
                f.write(k + v.astype("<f2").tobytes())
        self.todo.clear()

    def get(self, paper: Paper) -> str | None:
        """``paper``'s embedding as :func:`kg.related.semantic.pack` writes it, or None."""
        at = self.offsets.get(semantic.text_key(paper))
        if at is None:
            return None
        if self._reader is None:
            self._reader = self.path.open("rb")
        return semantic.pack(numpy.frombuffer(os.pread(self._reader.fileno(), self.record - 8, at + 8), dtype="<f2"))

    def close(self) -> None:
        if self._reader is not None:
            self._reader.close()
            self._reader = None

    def keep(self, papers: Iterable[Paper]) -> None:
        """Drop the embeddings of texts no paper of ``papers`` has any more (a changed title, a pruned paper)."""
        wanted = {semantic.text_key(p) for p in papers} & self.offsets.keys()
        self.close()
        if len(wanted) == len(self.offsets):
            return
        order = sorted(wanted, key=self.offsets.__getitem__)  # in the file's order
        tmp = self.path.with_name(self.path.name + ".tmp")
        with self.path.open("rb") as src, tmp.open("wb") as dst:
            for k in order:
                src.seek(self.offsets[k])
                dst.write(src.read(self.record))
        os.replace(tmp, self.path)
        self.offsets = {k: i * self.record for i, k in enumerate(order)}
