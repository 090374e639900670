"""neo4j/: node and relationship CSVs in ``neo4j-admin database import`` format, cut into slices that the
embedded store loads as they are written (:mod:`kg.store.embedded`)."""
from __future__ import annotations

import shlex
from pathlib import Path

import networkx as nx

from kg import schema
from kg.build.jsontext import forget_json, json_text
from kg.sinks.base import GraphSink, feed

# neo4j-admin import column types for the schema's property types.
_ADMIN_TYPES = {"int": "int", "float": "float", "bool": "boolean", "list": "string[]"}
ARRAY_DELIMITER = "|"
PART_BYTES = 128 << 20  # slices of the CSVs for the embedded store's bounded-memory load
PART_CHECK = 256  # boundaries between looks at the files' sizes


def _csv_cell(kind: str | None, value) -> str:
    """A property value as a neo4j-admin CSV cell (``kind``: its schema type): lists joined by the array delimiter,
    JSON for other lists and dicts (as ``kg.store.rows.flatten``), "true"/"false", "" for missing values."""
    if value is None:
        return ""
    if kind == "list":
        return ARRAY_DELIMITER.join(str(v).replace(ARRAY_DELIMITER, " ") for v in value)
    if value.__class__ is str:
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, dict)):
        return json_text(value)
    return str(value)


def csv_line(cells: list[str]) -> str:
    """One CSV record of string cells, as ``csv.writer`` (minimal quoting, "\\r\\n") writes it: a cell is quoted when it
    holds a comma, a quote (doubled) or a line break. Four times faster than ``writerow``, which examines every
    character of the long evidence cells one by one (tested equal)."""
    if cells == [""]:
        return '""\r\n'  # (a lone empty cell is quoted, or the record would read as a blank line)
    return ",".join([_quoted(c) for c in cells]) + "\r\n"


def _quoted(cell: str) -> str:
    if '"' in cell:
        return '"' + cell.replace('"', '""') + '"'
    if "," in cell or "\n" in cell or "\r" in cell:
        return '"' + cell + '"'
    return cell


def _header(prop: str) -> str:
    if prop == "id":
        return "id:ID"
    kind = schema.PROPERTY_TYPES.get(prop)
    return f"{prop}:{_ADMIN_TYPES[kind]}" if kind else prop


class Neo4jCsvSink(GraphSink):
    """Node and relationship CSVs in ``neo4j-admin database import`` format, one file per label/type, plus
    ``import.sh``. Import with: ``neo4j-admin database import full --array-delimiter='|' --multiline-fields=true --nodes=Paper=nodes_Paper.csv
    ...`` (the database name comes before the options).

    ``slices`` cuts all files at the same boundaries between elements (:meth:`boundary`) into slices of about
    ``PART_BYTES`` (the biggest file's growth), each a ``{file name: (start, end)}`` of byte ranges after the
    header: the embedded store loads them one after another in bounded memory, and a build's second process
    loads each one as soon as it is cut. Elements come in an order where a relationship follows the nodes it
    links (a graph's nodes before its edges; in a build the concepts first, then each paper's nodes before its
    links), so the relationships of a slice link nodes of that slice or of earlier ones."""

    def __init__(self, directory: Path) -> None:
        self.directory = Path(directory)
        self.directory.mkdir(parents=True, exist_ok=True)
        self.handles = {}
        self.writers = {}
        self.slices: list[dict[str, tuple[int, int]]] = []
        self.boundaries = 0
        kinds = schema.PROPERTY_TYPES
        self.node_props = {nt.label: [(p, kinds.get(p)) for p in nt.properties] for nt in schema.NODE_TYPES}
        self.rel_props = {rt.name: [(p, kinds.get(p)) for p in rt.properties] for rt in schema.REL_TYPES}
        for nt in schema.NODE_TYPES:
            self._open(f"nodes_{nt.label}.csv", nt.label).write(csv_line([_header(p) for p in nt.properties] + [":LABEL"]))
        for rt in schema.REL_TYPES:
            self._open(f"rels_{rt.name}.csv", rt.name).write(
                csv_line([":START_ID", ":END_ID", ":TYPE"] + [_header(p) for p in rt.properties]))
        self.starts = self._ends()  # where the open slice starts in each file

    def _open(self, name: str, table: str):
        self.handles[table] = fh = (self.directory / name).open("w", newline="", encoding="utf-8")
        self.writers[table] = fh.write
        return fh

    def _ends(self) -> dict[str, int]:
        """Each file's size so far, by name (``tell`` flushes the text layer into the file object's buffer)."""
        return {Path(fh.name).name: fh.tell() for fh in self.handles.values()}

    def _cut(self, ends: dict[str, int]) -> None:
        """Close the open slice at ``ends``, with every file flushed that far (another process may read it)."""
        for fh in self.handles.values():
            fh.flush()
        self.slices.append({name: (self.starts[name], end) for name, end in ends.items()})
        self.starts = ends

    def boundary(self) -> bool:
        """Cut a slice here when a file has grown by ``PART_BYTES`` since the open slice started (looked at every
        ``PART_CHECK`` boundaries); True when it did."""
        self.boundaries += 1
        if self.boundaries % PART_CHECK:
            return False
        ends = self._ends()
        if max(end - self.starts[name] for name, end in ends.items()) < PART_BYTES:
            return False
        self._cut(ends)
        return True

    def node(self, n: str, d: dict) -> None:
        label = d.get("type")
        # neo4j-admin splits :LABEL with the array delimiter too; :Benchmark is for datasets only
        benchmark = label == schema.DATASET.label and d.get("benchmark")
        labels = label + (f"{ARRAY_DELIMITER}{schema.BENCHMARK_LABEL}" if benchmark else "")
        cells = [str(n) if p == "id" else _csv_cell(kind, d.get(p)) for p, kind in self.node_props[label]]
        self.writers[label](csv_line(cells + [labels]))

    def edge(self, u: str, v: str, k: str, d: dict) -> None:
        self.writers[k](csv_line([str(u), str(v), k] + [_csv_cell(kind, d.get(p)) for p, kind in self.rel_props[k]]))

    def close(self) -> list[Path]:
        """Cut the last slice (when anything follows the last cut), close the files, write ``import.sh``."""
        forget_json()
        ends = self._ends()
        if not self.slices or ends != self.starts:
            self._cut(ends)
        for fh in self.handles.values():
            fh.close()
        written = [Path(fh.name) for fh in self.handles.values()]
        args = [f"--nodes={self.directory.joinpath(f'nodes_{nt.label}.csv').name}" for nt in schema.NODE_TYPES]
        args += [f"--relationships=rels_{rt.name}.csv" for rt in schema.REL_TYPES]
        script = self.directory / "import.sh"
        script.write_text(
            "#!/bin/sh\n# Bulk-load into an empty, stopped database (Neo4j 5): run from this directory.\n"
            f"neo4j-admin database import full \"${{1:-neo4j}}\" {' '.join(shlex.quote(o) for o in IMPORT_OPTIONS)} \\\n  "
            + " \\\n  ".join(args) + "\n", encoding="utf-8")
        return [*written, script]


# neo4j-admin import options the CSVs need: the list delimiter, and quoted fields that span lines (abstracts)
IMPORT_OPTIONS = (f"--array-delimiter={ARRAY_DELIMITER}", "--multiline-fields=true", "--overwrite-destination=true")


def write_neo4j_csv(g: nx.MultiDiGraph, directory: Path) -> list[Path]:
    """Write ``g`` as neo4j-admin import CSVs into ``directory`` (see :class:`Neo4jCsvSink`)."""
    return feed(g, Neo4jCsvSink(directory))
