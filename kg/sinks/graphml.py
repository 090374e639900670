"""graph.graphml: GraphML, written as the elements come."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import networkx as nx

from kg.build.jsontext import forget_json, json_text
from kg.sinks.base import GraphSink, feed


_XML_INVALID = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")  # not allowed in XML 1.0
_XML_SPECIAL = re.compile("[&<>\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")  # text that needs _xml_text
_ATTR_SPECIAL = re.compile("[&<>\"\n\r\t\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")  # values that need quoteattr


def _plain_text(text: str) -> bool:
    """Whether ``text`` is element text as it is: no character XML 1.0 forbids, no ``&``, ``<``, ``>``. Most
    values are printable, which str tests twice as fast as the regex scans them: every C0 control and U+FFFE/U+FFFF
    is not printable (neither are line breaks and some spaces, which the regex then checks)."""
    if text.isprintable():
        return "&" not in text and "<" not in text and ">" not in text
    return _XML_SPECIAL.search(text) is None


def _xml_text(text: str) -> str:
    """Element text: characters XML 1.0 forbids become U+FFFD, then ``&``, ``<``, ``>`` are escaped."""
    from xml.sax.saxutils import escape

    text = _XML_INVALID.sub("\ufffd", text)
    return escape(text) if "&" in text or "<" in text or ">" in text else text


def _attr(value) -> str:
    """A quoted attribute value (``xml.sax.saxutils.quoteattr``; plain values, the usual case, directly)."""
    text = str(value)
    if _ATTR_SPECIAL.search(text) is None:
        return f'"{text}"'
    from xml.sax.saxutils import quoteattr

    return quoteattr(_XML_INVALID.sub("\ufffd", text))


_GRAPHML_TYPES = {bool: "boolean", int: "long", float: "double", str: "string"}


NOT_WRITTEN = frozenset({"embedding"})  # a paper's text embedding: for kg related, of no use in a GraphML tool

class GraphmlSink(GraphSink):
    """GraphML (``networkx.read_graphml`` reads it back); list and dict attributes are stored as JSON strings,
    missing values are left out. Nodes and edges go into a body file in the order they come (GraphML allows any
    order); the ``<key>`` declarations, known only at the end, are written before it on ``close``. A key's type
    is that of its first non-missing value."""

    def __init__(self, path: Path, graph_attrs: dict) -> None:
        self.path = Path(path)
        self.graph_attrs = graph_attrs
        # kind -> attribute name -> (key id, GraphML type), each kind in declaration order
        self.keys: dict[str, dict[str, tuple[str, str]]] = {"graph": {}, "node": {}, "edge": {}}
        self.body_path = self.path.with_name(self.path.name + ".body")
        self.body = self.body_path.open("w", encoding="utf-8")
        self.graph_data = self._data(graph_attrs, "graph")

    def _key(self, kind: str, name: str, value) -> tuple[str, str]:
        """Declare a new key; its type is that of its first value."""
        keys = self.keys[kind]
        keys[name] = (f"{kind[0]}{len(keys)}", _GRAPHML_TYPES.get(type(value), "string"))
        return keys[name]

    def _data(self, d: dict, kind: str) -> str:
        keys = self.keys[kind]
        out = []
        for k, v in d.items():
            if v is None or k in NOT_WRITTEN:
                continue
            if isinstance(v, (list, dict)):
                v = json_text(v)
            key = (keys.get(k) or self._key(kind, k, v))[0]
            if isinstance(v, str):
                text = v if _plain_text(v) else _xml_text(v)
            else:
                text = ("true" if v else "false") if isinstance(v, bool) else str(v)
            out.append(f'<data key="{key}">{text}</data>')
        return "".join(out)

    def node(self, n: str, d: dict) -> None:
        self.body.write(f"<node id={_attr(n)}>{self._data(d, 'node')}</node>\n")

    def edge(self, u: str, v: str, k: str, d: dict) -> None:
        self.body.write(f"<edge source={_attr(u)} target={_attr(v)} id={_attr(k)}>{self._data(d, 'edge')}</edge>\n")

    def close(self) -> list[Path]:
        forget_json()
        from xml.sax.saxutils import quoteattr

        self.body.close()
        with self.path.open("w", encoding="utf-8") as fh:
            fh.write('<?xml version="1.0" encoding="utf-8"?>\n<graphml xmlns="http://graphml.graphdrawing.org/xmlns" '
                     'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://graphml.graphdrawing.org/'
                     'xmlns http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd">\n')
            for kind, keys in self.keys.items():
                for name, (key_id, typ) in keys.items():
                    fh.write(f'<key id="{key_id}" for="{kind}" attr.name={quoteattr(name)} attr.type="{typ}" />\n')
            fh.write(f'<graph edgedefault="directed">{self.graph_data}\n')
            with self.body_path.open(encoding="utf-8") as body:
                shutil.copyfileobj(body, fh, 1 << 20)
            fh.write("</graph></graphml>\n")
        self.body_path.unlink()
        return [self.path]


def write_graphml(g: nx.MultiDiGraph, path: Path) -> None:
    """Write ``g`` as GraphML, streaming (see :class:`GraphmlSink`)."""
    feed(g, GraphmlSink(path, g.graph))
