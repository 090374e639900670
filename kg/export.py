"""File sinks: node-link JSON, GraphML, neo4j-admin import CSVs, and per-paper predictions (JSONL).

Each graph sink takes nodes and edges one at a time, in any interleaving, and writes them as they come: a build
streams the elements of ``kg.build.elements`` into all sinks in one pass, so no file needs the whole graph in memory.
``write_json``, ``write_graphml`` and ``write_neo4j_csv`` feed a networkx graph through the same sinks.
"""
from __future__ import annotations

import re
import shlex
import shutil
from collections.abc import Iterable, Iterator
from pathlib import Path

import networkx as nx

from kg import schema
from kg.build.jsontext import dumps
from kg.model import Extraction, Mention, Paper
from kg.store.rows import forget_json, json_text

# neo4j-admin import column types for the schema's property types.
_ADMIN_TYPES = {"int": "int", "float": "float", "bool": "boolean", "list": "string[]"}
ARRAY_DELIMITER = "|"
PART_BYTES = 128 << 20  # slices of the CSVs for the embedded store's bounded-memory load
PART_CHECK = 256  # boundaries between looks at the files' sizes


_OPEN = re.compile(r"\s*(?:\(|-LRB-)\s*")
_CLOSE = re.compile(r"\s*(?:\)|-RRB-)")
_HEADS = {"METHOD": re.compile(r" (?:methods?|models?|algorithms?|approach(?:es)?|frameworks?|systems?|techniques?"
                               r"|networks?)\b"),
          "TASK": re.compile(r" (?:tasks?|problems?)\b"),
          "DATASET": re.compile(r" (?:datasets?|data sets?|corpus|corpora|benchmarks?|treebanks?)\b")}


def defined_spans(text: str, mentions: list[Mention]) -> Iterator[tuple[Mention, int, int]]:
    """Mention spans as the scored corpora annotate them. An abbreviation defined in brackets is one mention with
    its definition ("Markov random field (MRF)": SciERC and TDMSci mark 121 and 103 such spans whole, 2 and 3
    split), and a mention takes the head noun that follows it: "task"/"problem" for a task (inside the span 80 of
    80 times in SciERC, 453 of 477 in SciREX, 52 of 106 in TDMSci), "model", "method", "algorithm"... for a method
    (529 of 530 in SciERC, 1,724 of 1,818 in SciREX), "dataset", "corpus", "benchmark"... for a dataset (139 of 144
    in TDMSci, 142 of 177 in SciREX). (Not "score" for a metric: TDMSci splits it too often, 44 in to 33 out, and
    its CV score went down.) The graph keeps the names as concepts ("vehicle routing", "MRF" an alias of "Markov
    random field"); this is how mentions are reported (``kg extract``, ``mentions.jsonl``)."""
    i = 0
    while i < len(mentions):
        m, end, step = mentions[i], mentions[i].end, 1
        if i + 1 < len(mentions):
            n = mentions[i + 1]
            opening = _OPEN.fullmatch(text, m.end, n.start)
            closing = _CLOSE.match(text, n.end)
            if opening and closing and (n.label, n.canonical) == (m.label, m.canonical):
                end, step = closing.end(), 2
        heads = _HEADS.get(m.label)
        head = heads.match(text, end) if heads else None
        if head and i + step < len(mentions) and head.end() > mentions[i + step].start:
            head = None  # the next mention begins there: spans do not overlap
        yield m, m.start, head.end() if head else end
        i += step


_DATASET_HEAD = re.compile(r"\s+(?:data ?sets?|benchmarks?|corpus|corpora|suite|collection)$", re.I)


def document_names(text: str, ex: Extraction) -> dict[tuple[str, str], str]:
    """The name of each (label, canonical name) concept of a paper as the paper writes it: the canonical name where
    a mention spells it (in any case) or the text has it as whole words (line breaks taken as spaces, a plural
    ending allowed), else the paper's first spelling (a gazetteer's "image colorization" is "colorization" for a
    paper that only says "colorization"). In order of first mention."""
    first: dict[tuple[str, str], str] = {}
    spelled: set[tuple[str, str]] = set()
    spans: dict[tuple[str, str], list[tuple[int, int]]] = {}
    for m in ex.mentions:
        key = (m.label, m.canonical)
        first.setdefault(key, m.text)
        if m.text.lower() == m.canonical.lower():
            spelled.add(key)
        elif m.label == "DATASET" and not m.in_title and \
                _DATASET_HEAD.sub("", m.text).lower() != m.canonical.lower():  # "GLUE benchmark" is GLUE
            spans.setdefault(key, []).append((m.start, m.end))
    out: dict[tuple[str, str], str] = {}
    for key, spelling in first.items():
        if key not in spelled:
            # A dataset's name must stand on its own: "COCO" inside the paper's "MS COCO" is that paper's "MS COCO".
            own = list(text)
            for a, b in spans.get(key, ()):
                own[a:b] = " " * (b - a)
            if not _written(key[1].lower(), " ".join("".join(own).split()).lower()):
                out[key] = spelling
                continue
        out[key] = key[1]
    return out


def _written(name: str, text: str) -> bool:
    """Whether ``name`` occurs in ``text`` as whole words ("gan" not inside "organ" or "gang"), perhaps plural
    ("gans")."""
    at = text.find(name) if name else -1
    while at >= 0:
        end = at + len(name)
        if at == 0 or not text[at - 1].isalnum():
            for tail in ("", "s", "es"):
                stop = end + len(tail)
                if text.startswith(tail, end) and (stop == len(text) or not text[stop].isalnum()):
                    return True
        at = text.find(name, at + 1)
    return False


def _by_label(names: Iterable[tuple[str, str]]) -> dict[str, list[str]]:
    """(label, name) pairs -> names per label, each once (case aside), in order."""
    out: dict[str, dict[str, str]] = {}
    for label, name in names:
        out.setdefault(label, {}).setdefault(name.casefold(), name)
    return {label: list(seen.values()) for label, seen in out.items()}


def prediction(paper: Paper, ex: Extraction) -> dict:
    """One paper in the prediction format that ``kg eval`` scores (:mod:`kg.evaluate`; also what ``kg extract``
    writes): ``id``, ``mentions`` (``start``, ``end``, ``label``), ``concepts`` (names by label), ``proposed``."""
    names = document_names(paper.text, ex)
    concepts = _by_label((label, name) for (label, _), name in names.items())
    bench = _by_label(("BENCHMARK", names[("DATASET", m.canonical)]) for m in ex.mentions
                      if m.label == "DATASET" and m.benchmark)
    concepts.update(bench)
    return {
        "id": paper.id,
        "mentions": [{"start": s, "end": e, "label": m.label, "text": m.text if e == m.end else paper.text[s:e],
                      "canonical": m.canonical, "extractor": m.extractor, "proposed": m.proposed}
                     for m, s, e in defined_spans(paper.text, [m for m in ex.mentions if not m.in_title])]
                    + [{"start": m.start, "end": m.end, "label": m.label, "text": m.text, "generic": True,
                        "extractor": m.extractor} for m in ex.generic],
        "concepts": concepts,
        "proposed": list(dict.fromkeys(names[(m.label, m.canonical)] for m in ex.mentions if m.proposed)),
        "results": [{"method": r.method, "dataset": r.dataset, "metric": r.metric, "value": r.value} for r in ex.results],
    }


def write_predictions(items: Iterable[tuple[Paper, Extraction]], path: Path) -> int:
    """Write one prediction line per paper; returns the number written."""
    n = 0
    with path.open("w", encoding="utf-8") as fh:
        for paper, ex in items:
            fh.write(dumps(prediction(paper, ex)) + "\n")
            n += 1
    return n




class GraphSink:
    """Something that takes graph elements one at a time; ``close`` finishes the files."""

    def node(self, n: str, d: dict) -> None:
        raise NotImplementedError

    def edge(self, u: str, v: str, k: str, d: dict) -> None:
        raise NotImplementedError

    def boundary(self) -> bool:
        """Between two elements (in a build, between two papers): where the sink may cut its files into slices;
        True when it did."""
        return False

    def close(self) -> list[Path]:
        raise NotImplementedError


def feed(g: nx.MultiDiGraph, sink: GraphSink) -> list[Path]:
    """Send a networkx graph's nodes, then its edges, through ``sink``; returns the files written."""
    for n, d in g.nodes(data=True):
        sink.node(n, d)
        sink.boundary()
    for u, v, k, d in g.edges(keys=True, data=True):
        sink.edge(u, v, k, d)
        sink.boundary()
    return sink.close()


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
            if v is None:
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
        # neo4j-admin splits :LABEL with the array delimiter too
        labels = label + (f"{ARRAY_DELIMITER}{schema.BENCHMARK_LABEL}" if d.get("benchmark") else "")
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
