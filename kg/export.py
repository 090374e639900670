"""File sinks: node-link JSON, GraphML, neo4j-admin import CSVs, and per-paper predictions (JSONL)."""
from __future__ import annotations

import csv
import json
import re
from collections.abc import Iterable
from pathlib import Path

import networkx as nx

from kg import schema
from kg.model import Extraction, Paper

# neo4j-admin import column types for the schema's property types.
_ADMIN_TYPES = {"int": "int", "float": "float", "bool": "boolean", "list": "string[]"}
ARRAY_DELIMITER = "|"


def prediction(paper: Paper, ex: Extraction) -> dict:
    """One paper in the prediction format of ``shared/data/README.md`` (also what ``kg extract`` writes)."""
    concepts = ex.concepts()
    bench = sorted({m.canonical for m in ex.mentions if m.label == "DATASET" and m.benchmark})
    if bench:
        concepts["BENCHMARK"] = bench
    return {
        "id": paper.id,
        "mentions": [{"start": m.start, "end": m.end, "label": m.label, "text": m.text, "canonical": m.canonical,
                      "extractor": m.extractor, "proposed": m.proposed} for m in ex.mentions]
                    + [{"start": m.start, "end": m.end, "label": m.label, "text": m.text, "generic": True,
                        "extractor": m.extractor} for m in ex.generic],
        "concepts": concepts,
        "proposed": ex.proposed,
        "results": [{"method": r.method, "dataset": r.dataset, "metric": r.metric, "value": r.value} for r in ex.results],
    }


def write_predictions(items: Iterable[tuple[Paper, Extraction]], path: Path) -> int:
    """Write one prediction line per paper; returns the number written."""
    n = 0
    with path.open("w", encoding="utf-8") as fh:
        for paper, ex in items:
            fh.write(json.dumps(prediction(paper, ex), ensure_ascii=False) + "\n")
            n += 1
    return n


def write_json(g: nx.MultiDiGraph, path: Path) -> None:
    """networkx node-link JSON (``networkx.node_link_graph(data, edges="links")`` reads it back), written one
    node or link per line as it goes: memory does not grow with the graph."""
    dumps = json.JSONEncoder(ensure_ascii=False).encode
    with path.open("w", encoding="utf-8") as fh:
        fh.write(f'{{"directed": {dumps(g.is_directed())}, "multigraph": {dumps(g.is_multigraph())}, '
                 f'"graph": {dumps(g.graph)},\n"nodes": [')
        for i, (n, d) in enumerate(g.nodes(data=True)):
            fh.write(("," if i else "") + "\n" + dumps({**d, "id": n}))
        fh.write('\n],\n"links": [')
        for i, (u, v, k, d) in enumerate(g.edges(keys=True, data=True)):
            fh.write(("," if i else "") + "\n" + dumps({**d, "source": u, "target": v, "key": k}))
        fh.write("\n]}\n")


def _flat(value):
    if isinstance(value, (list, dict)):
        return json.dumps(value, ensure_ascii=False)
    return value


_XML_INVALID = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")  # not allowed in XML 1.0
_GRAPHML_TYPES = {bool: "boolean", int: "long", float: "double", str: "string"}


def _graphml_keys(items) -> dict[str, str]:
    """Attribute name -> GraphML type over all nodes or edges (lists and dicts are JSON strings)."""
    keys: dict[str, str] = {}
    for d in items:
        for k, v in d.items():
            if v is not None and k not in keys:
                keys[k] = _GRAPHML_TYPES.get(type(_flat(v)), "string")
    return keys


def write_graphml(g: nx.MultiDiGraph, path: Path) -> None:
    """GraphML (``networkx.read_graphml`` reads it back); list and dict attributes are stored as JSON strings,
    missing values are left out. Written element by element: memory does not grow with the graph."""
    from xml.sax.saxutils import escape, quoteattr

    node_keys = _graphml_keys(d for _, d in g.nodes(data=True))
    edge_keys = _graphml_keys(d for _, _, d in g.edges(data=True))
    graph_keys = _graphml_keys([g.graph])
    ids: dict[tuple[str, str], str] = {}

    def value(v) -> str:
        v = _flat(v)
        if isinstance(v, bool):
            return "true" if v else "false"
        return escape(_XML_INVALID.sub("\ufffd", str(v)))

    def data(d: dict, kind: str) -> str:
        return "".join(f'<data key="{ids[kind, k]}">{value(v)}</data>' for k, v in d.items() if v is not None)

    with path.open("w", encoding="utf-8") as fh:
        fh.write('<?xml version="1.0" encoding="utf-8"?>\n<graphml xmlns="http://graphml.graphdrawing.org/xmlns" '
                 'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://graphml.graphdrawing.org/'
                 'xmlns http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd">\n')
        for kind, keys in (("graph", graph_keys), ("node", node_keys), ("edge", edge_keys)):
            for name, typ in keys.items():
                ids[kind, name] = f"d{len(ids)}"
                fh.write(f'<key id="{ids[kind, name]}" for="{kind}" attr.name={quoteattr(name)} attr.type="{typ}" />\n')
        fh.write(f'<graph edgedefault="directed">{data(g.graph, "graph")}\n')
        for n, d in g.nodes(data=True):
            fh.write(f"<node id={quoteattr(str(n))}>{data(d, 'node')}</node>\n")
        for u, v, k, d in g.edges(keys=True, data=True):
            fh.write(f"<edge source={quoteattr(str(u))} target={quoteattr(str(v))} id={quoteattr(str(k))}>"
                     f"{data(d, 'edge')}</edge>\n")
        fh.write("</graph></graphml>\n")


def _cell(value) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return ARRAY_DELIMITER.join(str(v).replace(ARRAY_DELIMITER, " ") for v in value)
    if isinstance(value, dict):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


def _header(prop: str) -> str:
    if prop == "id":
        return "id:ID"
    kind = schema.PROPERTY_TYPES.get(prop)
    return f"{prop}:{_ADMIN_TYPES[kind]}" if kind else prop


def write_neo4j_csv(g: nx.MultiDiGraph, directory: Path) -> list[Path]:
    """Node and relationship CSVs in ``neo4j-admin database import`` format, one file per label/type.

    Import with: ``neo4j-admin database import full --array-delimiter='|' --nodes=Paper=nodes_Paper.csv ...``
    (see ``import.sh`` written next to the files; the database name comes before the options).
    """
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    args = []
    for nt in schema.NODE_TYPES:
        rows = [(n, d) for n, d in g.nodes(data=True) if d.get("type") == nt.label]
        path = directory / f"nodes_{nt.label}.csv"
        with path.open("w", newline="", encoding="utf-8") as fh:
            w = csv.writer(fh)
            w.writerow([_header(p) for p in nt.properties] + [":LABEL"])
            for n, d in rows:
                # neo4j-admin splits :LABEL with the array delimiter too
                labels = nt.label + (f"{ARRAY_DELIMITER}{schema.BENCHMARK_LABEL}" if d.get("benchmark") else "")
                w.writerow([_cell(n if p == "id" else d.get(p)) for p in nt.properties] + [labels])
        written.append(path)
        args.append(f"--nodes={path.name}")
    for rt in schema.REL_TYPES:
        path = directory / f"rels_{rt.name}.csv"
        with path.open("w", newline="", encoding="utf-8") as fh:
            w = csv.writer(fh)
            w.writerow([":START_ID", ":END_ID", ":TYPE"] + [_header(p) for p in rt.properties])
            for u, v, k, d in g.edges(keys=True, data=True):
                if k == rt.name:
                    w.writerow([u, v, k] + [_cell(d.get(p)) for p in rt.properties])
        written.append(path)
        args.append(f"--relationships={path.name}")
    script = directory / "import.sh"
    script.write_text(
        "#!/bin/sh\n# Bulk-load into an empty, stopped database (Neo4j 5): run from this directory.\n"
        f"neo4j-admin database import full \"${{1:-neo4j}}\" --array-delimiter='{ARRAY_DELIMITER}' --overwrite-destination=true \\\n  "
        + " \\\n  ".join(args) + "\n", encoding="utf-8")
    written.append(script)
    return written
