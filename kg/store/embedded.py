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
from kg.store.rows import flatten

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
        # One pass over the nodes, then one over the edges, writing a CSV per table as it goes (no row lists: the
        # store of a big graph was the peak of a build's memory). Scalars go through COPY; list columns are set
        # afterwards with parameters, because CSV list literals cannot carry a comma inside an item ("Smith, J.").
        # Quote and escape are explicit: left to sniffing, a file whose first rows have no quotes is read as if it
        # never quotes. parallel=false because abstracts may hold newlines inside quoted fields.
        scalars = {t.label: [p for p in t.properties if not _is_list(p)] for t in schema.NODE_TYPES}
        lists: dict[str, dict[str, list[dict]]] = {t.label: {p: [] for p in t.properties if _is_list(p)}
                                                   for t in schema.NODE_TYPES}
        counts = _write_tables(Path(tmp), scalars, _node_records(g, scalars, lists))
        for t in schema.NODE_TYPES:
            if not counts[t.label]:
                continue
            f = Path(tmp) / f"{t.label}.csv"
            conn.execute(f"COPY {t.label}({', '.join(scalars[t.label])}) FROM '{f.as_posix()}' "
                         "(header=true, quote='\"', escape='\"', parallel=false)")
            for p, rows in lists[t.label].items():
                for i in range(0, len(rows), LIST_BATCH):
                    conn.execute(f"UNWIND $rows AS r MATCH (n:{t.label} {{id: r.id}}) SET n.{p} = r.v",
                                 {"rows": rows[i : i + LIST_BATCH]})
        headers = {r.name: ["from", "to", *r.properties] for r in schema.REL_TYPES}
        counts = _write_tables(Path(tmp), headers, _edge_records(g))
        for r in schema.REL_TYPES:
            if counts[r.name]:
                f = Path(tmp) / f"{r.name}.csv"
                conn.execute(f"COPY {r.name} FROM '{f.as_posix()}' (header=true, quote='\"', escape='\"', parallel=false)")
    conn.close()
    db.close()
    return path


def _write_tables(directory: Path, headers: dict[str, list[str]], records) -> dict[str, int]:
    """Write ``(table, row)`` records into ``directory/TABLE.csv`` files (a header each); rows per table."""
    handles = {}
    writers = {}
    counts = {name: 0 for name in headers}
    try:
        for name, header in headers.items():
            handles[name] = (directory / f"{name}.csv").open("w", newline="", encoding="utf-8")
            writers[name] = csv.writer(handles[name])
            writers[name].writerow(header)
        for name, row in records:
            writers[name].writerow(row)
            counts[name] += 1
    finally:
        for fh in handles.values():
            fh.close()
    return counts


def _node_records(g: nx.MultiDiGraph, scalars: dict[str, list[str]], lists: dict[str, dict[str, list[dict]]]):
    """CSV rows of the nodes' scalar properties; list properties are collected into ``lists`` on the way."""
    for n, d in g.nodes(data=True):
        label = d["type"]
        yield label, [_csv_value(n if p == "id" else flatten(p, d.get(p))) for p in scalars[label]]
        for p, rows in lists[label].items():
            value = flatten(p, d.get(p))
            if value:
                rows.append({"id": n, "v": value})


def _edge_records(g: nx.MultiDiGraph):
    props = {r.name: r.properties for r in schema.REL_TYPES}
    for u, v, k, d in g.edges(keys=True, data=True):
        yield k, [u, v, *(_csv_value(flatten(p, d.get(p))) for p in props[k])]


def connect(path: Path) -> ladybug.Connection:
    """A read-write connection to an embedded store written by ``kg build``."""
    path = Path(path)
    if not path.exists():
        raise FileNotFoundError(f"{path}: no embedded store here; run `kg build INPUT --out {path.parent}` first")
    return ladybug.Connection(ladybug.Database(str(path)))
