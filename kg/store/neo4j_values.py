"""Values read from Neo4j as the embedded store (Ladybug) gives them: nodes, relationships and paths as plain
objects, so ``kg query`` prints the same JSON, table and CSV on both engines."""
from __future__ import annotations

from neo4j.graph import Node, Relationship
from neo4j.graph import Path as GraphPath

from kg import schema


def plain(value: object) -> object:
    """A value read from Neo4j as the embedded store gives it, inside lists and maps too: a node as ``{"_ID",
    "_LABEL", properties}``, a relationship as ``{"_SRC", "_DST", "_LABEL", "_ID", properties}``, a path as
    ``{"_NODES", "_RELS"}``. Ids are Neo4j's element ids; a node's label is its kg.schema label (``Benchmark`` is
    left out); the properties come in kg.schema's order, a missing one as None, then any others by name."""
    if isinstance(value, Node):
        return _plain_node(value)
    if isinstance(value, Relationship):
        return _plain_relationship(value)
    if isinstance(value, GraphPath):
        return {"_NODES": [_plain_node(n) for n in value.nodes],
                "_RELS": [_plain_relationship(r) for r in value.relationships]}
    if isinstance(value, list):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    return value


def _plain_node(node: Node) -> dict:
    """A node as the embedded store gives it (see :func:`plain`)."""
    labels = sorted(node.labels - {schema.BENCHMARK_LABEL})
    label = next((x for x in labels if x in schema.NODE_TYPE_BY_LABEL), ":".join(labels))
    declared = schema.NODE_TYPE_BY_LABEL[label].properties if label in schema.NODE_TYPE_BY_LABEL else ()
    return {"_ID": node.element_id, "_LABEL": label, **_ordered(declared, dict(node))}


def _plain_relationship(rel: Relationship) -> dict:
    """A relationship as the embedded store gives it (see :func:`plain`)."""
    declared = schema.REL_TYPE_BY_NAME[rel.type].properties if rel.type in schema.REL_TYPE_BY_NAME else ()
    return {"_SRC": rel.start_node.element_id, "_DST": rel.end_node.element_id, "_LABEL": rel.type,
            "_ID": rel.element_id, **_ordered(declared, dict(rel))}


def _ordered(declared: tuple[str, ...], properties: dict) -> dict:
    """``properties`` in the order of ``declared`` (None for one it lacks), then the others by name."""
    return {**{p: properties.get(p) for p in declared}, **{k: properties[k] for k in sorted(properties)
                                                           if k not in declared}}
