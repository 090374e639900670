"""The embedded graph database: Ladybug (the maintained fork of Kùzu), bulk-loaded with ``COPY FROM``.

Tables come from ``kg.schema``; so do the saved queries' property names. A Dataset that is a benchmark keeps
``benchmark = true`` (Ladybug tables have one label each, so there is no separate ``:Benchmark`` label here).

Big graphs (more than ``FORWARD_ONLY_BYTES`` of relationship CSV; in a build, ``FORWARD_ONLY_PAPERS`` papers) get
relationship tables that store the forward direction only (paper -> concept, result -> concept). Stored both ways,
the backward adjacency of a concept most papers use (a dataset like ImageNet) sits in one node group with every
link's evidence; each slice of a big load rewrites that group, and at a million papers it no longer fits in memory
(the 1M build failed there with a 1 GB pool and was still loading with 8 GB). Forward only, a slice of papers
touches the node groups of those papers alone. Patterns still match in either direction (going from a concept back
to its papers scans the table: 63 vs 47 ms for ``papers_on_dataset`` on ImageNet's 2,323 papers of a 50k-paper
graph), but a subquery that starts from an already bound concept (``EXISTS { MATCH (q)-[:USES]->(c) }``) is refused
by the engine; the saved queries avoid that form, and Neo4j (``kg load``) has no such limit.
"""
from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import ladybug
import networkx as nx

from kg import schema
from kg.errors import StoreError
from kg.sinks.base import feed
from kg.sinks.neo4j_csv import ARRAY_DELIMITER, Neo4jCsvSink

_DDL_TYPES = {"int": "INT64", "float": "DOUBLE", "bool": "BOOLEAN", "list": "STRING[]"}


def _ddl_type(prop: str) -> str:
    return _DDL_TYPES.get(schema.PROPERTY_TYPES.get(prop, ""), "STRING")


def ddl(forward_only: bool = False) -> list[str]:
    """CREATE TABLE statements for the whole schema (``forward_only``: relationships stored one way)."""
    out = []
    for t in schema.NODE_TYPES:
        cols = ", ".join(f"{p} {_ddl_type(p)}" for p in t.properties)
        out.append(f"CREATE NODE TABLE {t.label}({cols}, PRIMARY KEY(id))")
    for r in schema.REL_TYPES:
        cols = "".join(f", {p} {_ddl_type(p)}" for p in r.properties)
        out.append(f"CREATE REL TABLE {r.name}(FROM {r.source} TO {r.target}{cols})"
                   + (" WITH (storage_direction = 'fwd')" if forward_only else ""))
    return out


def _load_type(prop: str) -> str:
    """How a column of the import CSVs is read: lists arrive as one delimited string."""
    return "STRING" if _is_list(prop) else _ddl_type(prop)


def _is_list(prop: str) -> bool:
    return schema.PROPERTY_TYPES.get(prop) == "list"


def _column(prop: str) -> str:
    if not _is_list(prop):
        return prop
    return (f"CASE WHEN {prop} IS NULL OR {prop} = '' THEN CAST([] AS STRING[]) "
            f"ELSE string_split({prop}, '{ARRAY_DELIMITER}') END")


_CSV_OPTIONS = "(header=true, quote='\"', escape='\"', parallel=false)"


# Memory the engine may cache pages in while a build loads it slice by slice (its default is most of the RAM);
# doubled while a load needs more, up to MAX_BUFFER_POOL.
LOAD_BUFFER_POOL = 1 << 30
MAX_BUFFER_POOL = 16 << 30
FORWARD_ONLY_BYTES = 1 << 30  # relationship CSV beyond which relationships are stored forward only (see above)
# A build chooses before it writes the relationships: papers beyond which they are stored forward only (about
# FORWARD_ONLY_BYTES of relationship rows: 7.9 KB per paper of the synthetic corpus, 157.7 MB for 20,000)
FORWARD_ONLY_PAPERS = 125_000


def is_forward_only(csv_dir: Path) -> bool:
    """Whether the relationships of the import CSVs in ``csv_dir`` are too many to store both ways."""
    return sum(f.stat().st_size for f in Path(csv_dir).glob("rels_*.csv")) > FORWARD_ONLY_BYTES


def store_direction(path: Path) -> str:
    """``"both"`` or ``"fwd"``: how the relationships of the embedded store at ``path`` are stored."""
    conn = connect(path)
    try:
        rels = [name for name, kind in conn.execute("CALL show_tables() RETURN name, type").get_all() if kind == "REL"]
        # table_info lists a relationship table's properties, each with the table's storage direction last
        directions = {str(row[-1]).lower() for rel in rels
                      for row in conn.execute(f"CALL table_info('{rel}') RETURN *").get_all()}
    finally:
        conn.close()
    return "fwd" if directions == {"fwd"} else "both"


Slice = dict[str, tuple[int, int]]  # file name -> byte range of its rows (after the header line)


def load_ladybug(csv_dir: Path, path: Path, slices: list[Slice] | None = None,
                 forward_only: bool | None = None) -> Path:
    """Create the embedded store ``path`` (replacing an old one) from the ``neo4j-admin`` import CSVs that
    :class:`kg.sinks.neo4j_csv.Neo4jCsvSink` wrote into ``csv_dir``, slice by slice (the sink's ``slices``; default: each
    file whole), reading the same files, so a build writes its rows once for both stores. ``forward_only``: store
    relationships one way (default: when there are more than ``FORWARD_ONLY_BYTES`` of them)."""
    csv_dir = Path(csv_dir)
    if forward_only is None:
        forward_only = is_forward_only(csv_dir)
    if slices is None:
        slices = [{f.name: (len(_header_line(f)), f.stat().st_size) for f in csv_dir.glob("*.csv")}]
    with StoreLoader(csv_dir, path, forward_only) as loader:
        for part in slices:
            loader.add(part)
        loader.finish()
    return Path(path)


class StoreLoader:
    """The embedded store ``path`` (replacing an old one), loaded one slice of the import CSVs at a time, each
    with ``COPY FROM``: its nodes, then its relationships (a slice's relationships link nodes of it or of
    earlier slices). A build's second process loads each slice as soon as the build has written it.

    Quote and escape are explicit (left to sniffing, a file whose first rows have no quotes is read as if it never
    quotes); parallel=false because abstracts may hold newlines inside quoted fields. List columns are split on
    the array delimiter, as neo4j-admin does. The engine caches pages in a bounded pool: one ``COPY`` of a whole
    big table would need it to hold all of it (about 1 GB more at 100k papers). ``growing``: a build is still
    appending to the files (a slice is then always read from a copy of its rows)."""

    def __init__(self, csv_dir: Path, path: Path, forward_only: bool, growing: bool = False) -> None:
        self.csv_dir, self.path, self.forward_only, self.growing = Path(csv_dir), Path(path), forward_only, growing
        self.pool = LOAD_BUFFER_POOL
        self.loaded: list[Slice] = []
        self.headers: dict[str, bytes] = {}
        self.conn = self.db = None
        self._open()

    def _open(self) -> None:
        """A new, empty store with the schema's tables."""
        while True:
            _remove(self.path)
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.db = ladybug.Database(str(self.path), buffer_pool_size=self.pool)
            self.conn = ladybug.Connection(self.db)
            try:
                for stmt in ddl(self.forward_only):
                    self.conn.execute(stmt)
                return
            except RuntimeError as e:
                self._grow(e)

    def __enter__(self) -> StoreLoader:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def add(self, part: Slice) -> None:
        """Load one slice: ``{file name: (start, end)}``, byte ranges of rows of the files in ``csv_dir``."""
        self.loaded.append(part)
        self._load([part])

    def finish(self) -> None:
        """Checkpoint what was loaded (the last checkpoint too may need a bigger pool), then close the store."""
        self._load([], checkpoint=True)
        self.close()

    def _load(self, todo: list[Slice], checkpoint: bool = False) -> None:
        """Copy ``todo`` (and checkpoint); when the pool runs out, grow it and load every slice again."""
        while True:
            try:
                for p in todo:
                    self._copy(p)
                if checkpoint:
                    self.conn.execute("CHECKPOINT")
                return
            except RuntimeError as e:
                self._grow(e)
                self._open()
                todo = self.loaded

    def _grow(self, e: RuntimeError) -> None:
        """After ``e``, close the store and double the pool, or raise ``e`` when it was not for want of pool (or
        the pool is at ``MAX_BUFFER_POOL``). The pool a load needs is not known beforehand: checkpointing a
        relationship table rewrites the adjacency of its most linked nodes (a dataset every paper uses), which
        grows with the table. A load that ran out of it starts again (a COPY that failed to checkpoint is not
        reliably kept, so the store is rebuilt from the first slice, not continued)."""
        if "buffer pool is full" not in str(e) or self.pool >= MAX_BUFFER_POOL:
            raise e
        self.close()
        self.pool *= 2

    def close(self) -> None:
        """Close the store (again: nothing)."""
        if self.conn is not None:
            self.conn.close()
            self.db.close()
            self.conn = self.db = None

    def _copy(self, part: Slice) -> None:
        with tempfile.TemporaryDirectory(prefix="kg-lbug-", dir=self.path.parent) as tmp:
            for t in schema.NODE_TYPES:
                header = ", ".join(f"{p} {_load_type(p)}" for p in t.properties) + ", kg_labels STRING"
                for f in self._rows(f"nodes_{t.label}.csv", part, Path(tmp)):
                    self.conn.execute(f"COPY {t.label} FROM (LOAD WITH HEADERS ({header}) FROM '{f.as_posix()}' "
                                      f"{_CSV_OPTIONS} RETURN {', '.join(_column(p) for p in t.properties)})")
            for r in schema.REL_TYPES:
                header = "kg_from STRING, kg_to STRING, kg_type STRING" + "".join(
                    f", {p} {_load_type(p)}" for p in r.properties)
                for f in self._rows(f"rels_{r.name}.csv", part, Path(tmp)):
                    columns = "".join(", " + _column(p) for p in r.properties)
                    self.conn.execute(f"COPY {r.name} FROM (LOAD WITH HEADERS ({header}) FROM '{f.as_posix()}' "
                                      f"{_CSV_OPTIONS} RETURN kg_from, kg_to{columns})")

    def _rows(self, name: str, part: Slice, tmp: Path) -> Iterator[Path]:
        """The slice's rows of file ``name`` with the file's header line: the file itself when they are all of it
        (and it is not ``growing``), else a temporary copy; nothing when the slice has no rows of it."""
        start, end = part.get(name, (0, 0))
        if end <= start:
            return
        f = self.csv_dir / name
        if name not in self.headers:
            self.headers[name] = _header_line(f)
        header = self.headers[name]
        if not self.growing and start == len(header) and end == f.stat().st_size:
            yield f
            return
        copy = tmp / name
        with f.open("rb") as src, copy.open("wb") as dst:
            dst.write(header)
            src.seek(start)
            remaining = end - start
            while remaining > 0:
                block = src.read(min(1 << 20, remaining))
                if not block:
                    raise RuntimeError(f"{f}: ends before byte {end} of the slice to load")
                dst.write(block)
                remaining -= len(block)
        yield copy
        copy.unlink()


def _header_line(f: Path) -> bytes:
    with f.open("rb") as fh:
        return fh.readline()


def _remove(path: Path) -> None:
    if path.is_dir():
        shutil.rmtree(path)
    elif path.exists():
        path.unlink()
    for extra in path.parent.glob(path.name + ".*"):  # write-ahead log and friends of an old store
        extra.unlink()


def write_ladybug(g: nx.MultiDiGraph, path: Path) -> Path:
    """Create ``path`` (replacing an old one) holding ``g``; returns the path."""
    with tempfile.TemporaryDirectory(prefix="kg-lbug-") as tmp:
        sink = Neo4jCsvSink(Path(tmp))
        feed(g, sink)
        return load_ladybug(Path(tmp), path, sink.slices)


def connect(path: Path) -> ladybug.Connection:
    """A read-only connection to an embedded store written by ``kg build``: any number of processes may read it at
    once, and nothing run on it changes the file (the engine refuses writes). FileNotFoundError when there is no
    store; StoreError when the engine cannot open it (a damaged file, another process writing it)."""
    path = Path(path)
    if not path.exists():
        raise FileNotFoundError(f"{path}: no embedded store here; run `kg build INPUT --out {path.parent}` first, or"
                                " give the folder a build wrote (kg related and kg query: --graph DIR)")
    try:
        conn = ladybug.Connection(ladybug.Database(str(path), read_only=True))
    except RuntimeError as e:  # (the engine's errors are RuntimeErrors)
        reason = " ".join(str(e).split())
        raise StoreError(f"{path}: cannot open the embedded store: {reason}; rebuild it with "
                         f"`kg build INPUT --out {path.parent}` if it is damaged") from None
    # One thread per query: with several, the engine's ORDER BY now and then returned rows out of order (1 run in 30
    # of results_on_dataset on the synthetic test graph: 76.3 before 85.0 on a metric sorted highest first), and
    # the saved queries on the NeurIPS 2022 corpus ran no slower on one thread (659 ms against 826 ms in all).
    conn.set_max_threads_for_exec(1)
    return conn
