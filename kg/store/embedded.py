"""The embedded graph database: Ladybug (the maintained fork of Kùzu), bulk-loaded with ``COPY FROM``.

Tables come from ``kg.schema``; so do the saved queries' property names. A Dataset that is a benchmark keeps
``benchmark = true`` (Ladybug tables have one label each, so there is no separate ``:Benchmark`` label here).
"""
from __future__ import annotations

import csv
import shutil
import tempfile
from pathlib import Path

import ladybug
import networkx as nx

from kg import schema
from kg.store.rows import node_rows, rel_rows

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


LIST_BATCH = 5000


def _csv_value(value) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _is_list(prop: str) -> bool:
    return schema.PROPERTY_TYPES.get(prop) == "list"


def write_ladybug(g: nx.MultiDiGraph, path: Path) -> Path:
    """Create ``path`` (replacing an old one) holding ``g``; returns the path."""
    path = Path(path)
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
    with tempfile.TemporaryDirectory(prefix="kg-lbug-") as tmp:
        for nr in node_rows(g):
            if not nr.rows:
                continue
            # Scalars go through COPY; list columns are set afterwards with parameters, because CSV list
            # literals cannot carry a comma inside an item ("Smith, J."). Quote and escape are explicit: left to
            # sniffing, a file whose first rows have no quotes is read as if it never quotes. parallel=false
            # because abstracts may hold newlines inside quoted fields.
            scalars = [p for p in nr.type.properties if not _is_list(p)]
            f = Path(tmp) / f"{nr.type.label}.csv"
            with f.open("w", newline="", encoding="utf-8") as fh:
                w = csv.writer(fh)
                w.writerow(scalars)
                for r in nr.rows:
                    w.writerow([_csv_value(r["id"] if p == "id" else r["props"].get(p)) for p in scalars])
            conn.execute(f"COPY {nr.type.label}({', '.join(scalars)}) FROM '{f.as_posix()}' (header=true, quote='\"', escape='\"', parallel=false)")
            for p in filter(_is_list, nr.type.properties):
                rows = [{"id": r["id"], "v": r["props"][p]} for r in nr.rows if r["props"].get(p)]
                for i in range(0, len(rows), LIST_BATCH):
                    conn.execute(f"UNWIND $rows AS r MATCH (n:{nr.type.label} {{id: r.id}}) SET n.{p} = r.v",
                                 {"rows": rows[i : i + LIST_BATCH]})
        for rr in rel_rows(g):
            if not rr.rows:
                continue
            f = Path(tmp) / f"{rr.type.name}.csv"
            with f.open("w", newline="", encoding="utf-8") as fh:
                w = csv.writer(fh)
                w.writerow(["from", "to", *rr.type.properties])
                for r in rr.rows:
                    w.writerow([r["src"], r["dst"], *(_csv_value(r["props"].get(p)) for p in rr.type.properties)])
            conn.execute(f"COPY {rr.type.name} FROM '{f.as_posix()}' (header=true, quote='\"', escape='\"', parallel=false)")
    conn.close()
    db.close()
    return path


def connect(path: Path) -> ladybug.Connection:
    """A read-write connection to an embedded store written by ``kg build``."""
    path = Path(path)
    if not path.exists():
        raise FileNotFoundError(f"{path}: no embedded store here; run `kg build INPUT --out {path.parent}` first")
    return ladybug.Connection(ladybug.Database(str(path)))
