"""The graph as store-ready rows: one list per node label and per relationship type, properties flattened
to what graph databases hold (strings, numbers, booleans, lists of strings; ``evidence`` as a JSON string)."""
from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import networkx as nx

from kg import schema
from kg.build.jsontext import json_text
from kg.errors import StoreError


@dataclass
class NodeRows:
    type: schema.NodeType
    rows: list[dict] = field(default_factory=list)  # {"id": ..., "props": {...}, "benchmark": bool (datasets only)}


@dataclass
class RelRows:
    type: schema.RelType
    rows: list[dict] = field(default_factory=list)  # {"src": ..., "dst": ..., "props": {...}}


def flatten(prop: str, value):
    """A property value as stored outside networkx."""
    kind = schema.PROPERTY_TYPES.get(prop)
    if value is None:
        return [] if kind == "list" else None
    if kind == "list":
        return [str(v) for v in value]
    if isinstance(value, (list, dict)):
        return json_text(value)
    return value


def _flattener(props: tuple[str, ...]) -> Callable[[dict], dict]:
    """``flatten`` over every property in ``props`` at once (the kinds looked up once per type, not per value:
    a load flattens millions of values)."""
    kinds = [(p, schema.PROPERTY_TYPES.get(p) == "list") for p in props]

    def flat(d: dict) -> dict:
        out = {}
        for p, is_list in kinds:
            value = d.get(p)
            if is_list:
                out[p] = [] if value is None else [str(v) for v in value]
            elif isinstance(value, (list, dict)):
                out[p] = json_text(value)
            else:
                out[p] = value
        return out

    return flat


def node_rows(g: nx.MultiDiGraph) -> list[NodeRows]:
    """Rows per node type, in schema order; ``benchmark`` says whether a row is a dataset called a benchmark (the
    ``:Benchmark`` label is for datasets, whatever another concept's ``benchmark`` property says)."""
    out = {t.label: NodeRows(t) for t in schema.NODE_TYPES}
    flat = {t.label: _flattener(tuple(p for p in t.properties if p != "id")) for t in schema.NODE_TYPES}
    for n, d in g.nodes(data=True):
        label = d["type"]
        benchmark = label == schema.DATASET.label and bool(d.get("benchmark"))
        out[label].rows.append({"id": n, "props": flat[label](d), "benchmark": benchmark})
    return list(out.values())


def rel_rows(g: nx.MultiDiGraph) -> list[RelRows]:
    """Rows per relationship type, in schema order."""
    out = {r.name: RelRows(r) for r in schema.REL_TYPES}
    flat = {r.name: _flattener(r.properties) for r in schema.REL_TYPES}
    for u, v, k, d in g.edges(keys=True, data=True):
        out[k].rows.append({"src": u, "dst": v, "props": flat[k](d)})
    return list(out.values())


def load_graph(directory: Path) -> nx.MultiDiGraph:
    """Read ``DIR/graph.json`` written by ``kg build``: FileNotFoundError when there is none, StoreError when it is
    damaged (both exit code 3, a graph store problem)."""
    path = Path(directory) / "graph.json"
    if not path.is_file():
        raise FileNotFoundError(f"{path}: no graph here; run `kg build INPUT --out {directory}` first, or give the"
                                " folder a build wrote (kg related and kg query: --graph DIR)")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return nx.node_link_graph(data, edges="links")
    except (ValueError, KeyError, TypeError, AttributeError) as exc:  # truncated, empty, {} or not node-link JSON
        raise StoreError(f"{path}: not a graph kg wrote ({type(exc).__name__}: {exc}); rebuild it with "
                         f"`kg build INPUT --out {directory}`") from None


def batches(rows: list, size: int) -> Iterator[list]:
    for i in range(0, len(rows), size):
        yield rows[i : i + size]
