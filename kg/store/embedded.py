"""The embedded graph database: Ladybug (the maintained fork of Kùzu), bulk-loaded with ``COPY FROM``.

Tables come from ``kg.schema``; so do the saved queries' property names. A Dataset that is a benchmark keeps
``benchmark = true`` (Ladybug tables have one label each, so there is no separate ``:Benchmark`` label here).
"""
from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import ladybug
import networkx as nx

from kg import schema
from kg.export import ARRAY_DELIMITER, write_neo4j_csv

_DDL_TYPES = {"int": "INT64", "float": "DOUBLE", "bool": "BOOLEAN", "list": "STRING[]"}


def _ddl_type(prop: str) -> str:
    return _DDL_TYPES.get(schema.PROPERTY_TYPES.get(prop, ""), "STRING")


def ddl() -> list[str]:
    """CREATE TABLE statements for the whole schema."""
    out = []
    for t in schema.NODE_TYPES:
        cols = ", ".join(f"{p} {_ddl_type(p)}" for p in t.properties)
        out.append(f"CREATE NODE TABLE {t.label}({cols}, PRIMARY KEY(id))")
    for r in schema.REL_TYPES:
        cols = "".join(f", {p} {_ddl_type(p)}" for p in r.properties)
        out.append(f"CREATE REL TABLE {r.name}(FROM {r.source} TO {r.target}{cols})")
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


def load_ladybug(csv_dir: Path, path: Path) -> Path:
    """Create the embedded store ``path`` (replacing an old one) from the ``neo4j-admin`` import CSVs that
    :class:`kg.export.Neo4jCsvSink` wrote into ``csv_dir``: one ``COPY`` per table, reading the same files, so
    the build writes its rows once for both stores. Quote and escape are explicit (left to sniffing, a file whose
    first rows have no quotes is read as if it never quotes); parallel=false because abstracts may hold newlines
    inside quoted fields. List columns are split on the array delimiter, as neo4j-admin does."""
    path, csv_dir = Path(path), Path(csv_dir)
    if path.is_dir():
        shutil.rmtree(path)
    elif path.exists():
        path.unlink()
    for extra in path.parent.glob(path.name + ".*"):  # write-ahead log and friends of an old store
        extra.unlink()
    path.parent.mkdir(parents=True, exist_ok=True)
    db = ladybug.Database(str(path))
    conn = ladybug.Connection(db)
    for stmt in ddl():
        conn.execute(stmt)
    for t in schema.NODE_TYPES:
        f = csv_dir / f"nodes_{t.label}.csv"
        header = ", ".join(f"{p} {_load_type(p)}" for p in t.properties) + ", kg_labels STRING"
        conn.execute(f"COPY {t.label} FROM (LOAD WITH HEADERS ({header}) FROM '{f.as_posix()}' {_CSV_OPTIONS} "
                     f"RETURN {', '.join(_column(p) for p in t.properties)})")
    for r in schema.REL_TYPES:
        f = csv_dir / f"rels_{r.name}.csv"
        header = "kg_from STRING, kg_to STRING, kg_type STRING" + "".join(f", {p} {_load_type(p)}" for p in r.properties)
        conn.execute(f"COPY {r.name} FROM (LOAD WITH HEADERS ({header}) FROM '{f.as_posix()}' {_CSV_OPTIONS} "
                     f"RETURN kg_from, kg_to{''.join(', ' + _column(p) for p in r.properties)})")
    conn.close()
    db.close()
    return path


def write_ladybug(g: nx.MultiDiGraph, path: Path) -> Path:
    """Create ``path`` (replacing an old one) holding ``g``; returns the path."""
    with tempfile.TemporaryDirectory(prefix="kg-lbug-") as tmp:
        write_neo4j_csv(g, Path(tmp))
        return load_ladybug(Path(tmp), path)


def connect(path: Path) -> ladybug.Connection:
    """A read-write connection to an embedded store written by ``kg build``."""
    path = Path(path)
    if not path.exists():
        raise FileNotFoundError(f"{path}: no embedded store here; run `kg build INPUT --out {path.parent}` first")
    return ladybug.Connection(ladybug.Database(str(path)))
