"""graph.json: networkx node-link JSON, written as the elements come."""
from __future__ import annotations

import shutil
from pathlib import Path

import networkx as nx

from kg.build.jsontext import dumps, forget_json, json_text
from kg.sinks.base import GraphSink, feed


_EVIDENCE_MARK = "\x00kg:evidence\x00"
_EVIDENCE_MARK_JSON = dumps(_EVIDENCE_MARK)


class JsonSink(GraphSink):
    """networkx node-link JSON (``networkx.node_link_graph(data, edges="links")`` reads it back), one node or link
    per line. Nodes go straight into the file, links into a side file appended at the end."""

    def __init__(self, path: Path, graph_attrs: dict) -> None:
        self.path = Path(path)
        self.fh = self.path.open("w", encoding="utf-8")
        self.links_path = self.path.with_name(self.path.name + ".links")
        self.links = self.links_path.open("w", encoding="utf-8")
        self.n_nodes = self.n_links = 0
        self.fh.write(f'{{"directed": true, "multigraph": true, "graph": {dumps(graph_attrs)},\n"nodes": [')

    def node(self, n: str, d: dict) -> None:
        self.fh.write(("," if self.n_nodes else "") + "\n" + dumps({**d, "id": n}))
        self.n_nodes += 1

    def edge(self, u: str, v: str, k: str, d: dict) -> None:
        link, evidence, text = {**d, "source": u, "target": v, "key": k}, d.get("evidence"), None
        if isinstance(evidence, list):
            # The evidence (most of a link's text) is encoded once per link for all sinks (``json_text``) and put
            # in place of a marker; the marker's JSON must occur once (a value could hold it: then encode it all).
            head, mark, tail = dumps({**link, "evidence": _EVIDENCE_MARK}).partition(_EVIDENCE_MARK_JSON)
            if mark and _EVIDENCE_MARK_JSON not in tail:
                text = head + json_text(evidence) + tail
        self.links.write(("," if self.n_links else "") + "\n" + (text or dumps(link)))
        self.n_links += 1

    def close(self) -> list[Path]:
        forget_json()
        self.links.close()
        self.fh.write('\n],\n"links": [')
        with self.links_path.open(encoding="utf-8") as links:
            shutil.copyfileobj(links, self.fh, 1 << 20)
        self.links_path.unlink()
        self.fh.write("\n]}\n")
        self.fh.close()
        return [self.path]


def write_json(g: nx.MultiDiGraph, path: Path) -> None:
    """Write ``g`` as node-link JSON, streaming (see :class:`JsonSink`)."""
    feed(g, JsonSink(path, g.graph))
