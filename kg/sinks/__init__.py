"""The build's outputs, one module per sink, and :data:`SINKS`, the registry a build loops over.

- :mod:`kg.sinks.predictions`: ``mentions.jsonl``, a prediction line per paper;
- :mod:`kg.sinks.json`: ``graph.json``, networkx node-link JSON;
- :mod:`kg.sinks.graphml`: ``graph.graphml``;
- :mod:`kg.sinks.neo4j_csv`: ``neo4j/``, ``neo4j-admin database import`` CSVs, cut into the slices that the
  embedded store (:mod:`kg.store.embedded`) loads as they are written;
- :mod:`kg.sinks.related_index`: ``related/``, the index ``kg related`` answers from (:mod:`kg.related.index`).

Each sink is a :class:`kg.sinks.base.GraphSink`.
"""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from kg.sinks.base import GraphSink
from kg.sinks.graphml import GraphmlSink
from kg.sinks.json import JsonSink
from kg.sinks.neo4j_csv import Neo4jCsvSink
from kg.sinks.predictions import PredictionSink
from kg.sinks.related_index import RelatedIndexSink

# name -> what opens the sink in a build's output directory, given the graph's attributes. A build writes them in
# this order, and times each as ``export_<name>``; the embedded store is loaded from the "csv" sink's slices.
SINKS: dict[str, Callable[[Path, dict], GraphSink]] = {
    "predictions": lambda out, graph_attrs: PredictionSink(out / "mentions.jsonl"),
    "json": lambda out, graph_attrs: JsonSink(out / "graph.json", graph_attrs),
    "graphml": lambda out, graph_attrs: GraphmlSink(out / "graph.graphml", graph_attrs),
    "csv": lambda out, graph_attrs: Neo4jCsvSink(out / "neo4j"),
    "related": lambda out, graph_attrs: RelatedIndexSink(out / "related"),
}


def open_sinks(out: Path, graph_attrs: dict) -> dict[str, GraphSink]:
    """Every sink of :data:`SINKS`, opened in ``out``, by name."""
    return {name: make(out, graph_attrs) for name, make in SINKS.items()}


__all__ = ["SINKS", "GraphSink", "GraphmlSink", "JsonSink", "Neo4jCsvSink", "PredictionSink", "RelatedIndexSink",
           "open_sinks"]
