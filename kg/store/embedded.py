"""The embedded graph database: Ladybug (the maintained fork of Kùzu), bulk-loaded with ``COPY FROM``.

Tables come from ``kg.schema``; so do the saved queries' property names. A Dataset that is a benchmark keeps
``benchmark = true`` (Ladybug tables have one label each, so there is no separate ``:Benchmark`` label here).

Big graphs (more than ``FORWARD_ONLY_BYTES`` of relationship CSV, about 200,000 papers) get relationship tables
that store the forward direction only (paper -> concept, result -> concept). Stored both ways, the backward
adjacency of a concept most papers use (a dataset like ImageNet) sits in one node group with every link's
evidence; each slice of a big load rewrites that group, and at a million papers it no longer fits in memory (the
1M build failed there with a 1 GB pool and was still loading with 8 GB). Forward only, a slice of papers touches
the node groups of those papers alone. Patterns still match in either direction (going from a concept back to
its papers scans the table: 63 vs 47 ms for ``papers_on_dataset`` on ImageNet's 2,323 papers of a 50k-paper
graph), but a subquery that starts from an already bound concept (``EXISTS { MATCH (q)-[:USES]->(c) }``) is
refused by the engine; the saved queries avoid that form, and Neo4j (``kg load``) has no such limit.
"""
from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import ladybug
import networkx as nx

from kg import schema
from kg.export import ARRAY_DELIMITER, Neo4jCsvSink, feed

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


def load_ladybug(csv_dir: Path, path: Path, parts: dict[str, list[int]] | None = None,
                 forward_only: bool | None = None) -> Path:
    """Create the embedded store ``path`` (replacing an old one) from the ``neo4j-admin`` import CSVs that
    :class:`kg.export.Neo4jCsvSink` wrote into ``csv_dir``, reading the same files, so a build writes its rows
    once for both stores. Quote and escape are explicit (left to sniffing, a file whose first rows have no quotes
    is read as if it never quotes); parallel=false because abstracts may hold newlines inside quoted fields. List
    columns are split on the array delimiter, as neo4j-admin does.

    ``parts`` (the sink's byte offsets of row slices per file) loads each table slice by slice with a bounded
    buffer pool: one ``COPY`` of a whole big table needs the engine to hold all of it (about 1 GB more at 100k
    papers). Without it, each table is one ``COPY`` with the engine's default pool. ``forward_only``: store
    relationships one way (default: when there are more than ``FORWARD_ONLY_BYTES`` of them)."""
    path, csv_dir = Path(path), Path(csv_dir)
    pool = LOAD_BUFFER_POOL if parts is not None else 0
    if forward_only is None:
        forward_only = is_forward_only(csv_dir)
    while True:
        try:
            _load(csv_dir, path, parts, pool, forward_only)
            return path
        except RuntimeError as e:
            # The pool a load needs is not known beforehand: checkpointing a relationship table rewrites the
            # adjacency of its most linked nodes (a dataset every paper uses), which grows with the table. A load
            # that ran out of it starts again with twice the pool (a COPY that failed to checkpoint is not
            # reliably kept, so the store is rebuilt, not continued).
            if "buffer pool is full" not in str(e) or not pool or pool >= MAX_BUFFER_POOL:
                raise
            pool *= 2


def _remove(path: Path) -> None:
    if path.is_dir():
        shutil.rmtree(path)
    elif path.exists():
        path.unlink()
    for extra in path.parent.glob(path.name + ".*"):  # write-ahead log and friends of an old store
        extra.unlink()


def _load(csv_dir: Path, path: Path, parts: dict[str, list[int]] | None, pool: int, forward_only: bool) -> None:
    _remove(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    db = ladybug.Database(str(path), buffer_pool_size=pool)
    conn = ladybug.Connection(db)
    try:
        for stmt in ddl(forward_only):
            conn.execute(stmt)
        with tempfile.TemporaryDirectory(prefix="kg-lbug-", dir=path.parent) as tmp:
            for t in schema.NODE_TYPES:
                header = ", ".join(f"{p} {_load_type(p)}" for p in t.properties) + ", kg_labels STRING"
                for f in _slices(csv_dir / f"nodes_{t.label}.csv", parts, Path(tmp)):
                    conn.execute(f"COPY {t.label} FROM (LOAD WITH HEADERS ({header}) FROM '{f.as_posix()}' "
                                 f"{_CSV_OPTIONS} RETURN {', '.join(_column(p) for p in t.properties)})")
            for r in schema.REL_TYPES:
                header = "kg_from STRING, kg_to STRING, kg_type STRING" + "".join(
                    f", {p} {_load_type(p)}" for p in r.properties)
                for f in _slices(csv_dir / f"rels_{r.name}.csv", parts, Path(tmp)):
                    conn.execute(f"COPY {r.name} FROM (LOAD WITH HEADERS ({header}) FROM '{f.as_posix()}' "
                                 f"{_CSV_OPTIONS} RETURN kg_from, kg_to{''.join(', ' + _column(p) for p in r.properties)})")
    finally:
        conn.close()
        db.close()


def _slices(f: Path, parts: dict[str, list[int]] | None, tmp: Path) -> Iterator[Path]:
    """``f`` itself when it is one slice; else each slice as a temporary file with ``f``'s header line."""
    starts = (parts or {}).get(f.name, [])
    if len(starts) <= 1:
        yield f
        return
    with f.open("rb") as src:
        header = src.readline()
        ends = [*starts[1:], None]
        for i, (start, end) in enumerate(zip(starts, ends)):
            part = tmp / f"{f.stem}.{i}.csv"
            with part.open("wb") as dst:
                dst.write(header)
                src.seek(start)
                remaining = None if end is None else end - start
                while remaining is None or remaining > 0:
                    block = src.read(1 << 20 if remaining is None else min(1 << 20, remaining))
                    if not block:
                        break
                    dst.write(block)
                    if remaining is not None:
                        remaining -= len(block)
            yield part
            part.unlink()


def write_ladybug(g: nx.MultiDiGraph, path: Path) -> Path:
    """Create ``path`` (replacing an old one) holding ``g``; returns the path."""
    with tempfile.TemporaryDirectory(prefix="kg-lbug-") as tmp:
        sink = Neo4jCsvSink(Path(tmp))
        feed(g, sink)
        return load_ladybug(Path(tmp), path, sink.parts)


def connect(path: Path) -> ladybug.Connection:
    """A read-write connection to an embedded store written by ``kg build``."""
    path = Path(path)
    if not path.exists():
        raise FileNotFoundError(f"{path}: no embedded store here; run `kg build INPUT --out {path.parent}` first")
    return ladybug.Connection(ladybug.Database(str(path)))
