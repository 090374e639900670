"""Render one interactive view of a kg graph to an offline HTML file (pyvis data, kg's own template)."""
from __future__ import annotations

import json
import os
import shutil
from collections import Counter
from collections.abc import Collection
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

import jinja2
import networkx as nx
import pyvis
from pyvis.network import Network

from kg.schema import NODE_TYPES, PAPER, PROPOSES, REL_TYPES
from kg.viz.labels import LABEL_GAP, LINE_HEIGHT, MAX_ZOOM, PAD_PX, fitting_zoom, label_sizes, radius_px, scaled
from kg.viz.layout import layout
from kg.viz.selection import KIND_TYPES, Selection, node_type, resolve_focus, select_neighbourhood, select_overview
from kg.viz.style import (
    BIG,
    GLYPHS,
    SHAPES,
    display_name,
    edge_color,
    edge_dashes,
    edge_end_name,
    edge_options,
    edge_width_px,
    network_options,
    node_color,
    node_options,
    node_px,
    short_label,
)

# The libraries ship inside pyvis; kg inlines (or copies) them so a view never fetches anything.
PYVIS_LIB = Path(pyvis.__file__).parent / "templates" / "lib"
SCRIPTS = {"vis-network.min.js": "vis-9.1.2/vis-network.min.js",
           "tom-select.complete.min.js": "tom-select/tom-select.complete.min.js"}
STYLES = {"vis-network.css": "vis-9.1.2/vis-network.css", "tom-select.css": "tom-select/tom-select.css"}

FOCUS_PX = 0.8  # a focus node is at least this fraction of the largest node size

TEMPLATES = jinja2.Environment(
    loader=jinja2.PackageLoader("kg.viz", "templates"), autoescape=True, undefined=jinja2.StrictUndefined,
    trim_blocks=True, lstrip_blocks=True,
)


@dataclass
class ViewInfo:
    """A written view: its file and the node and edge counts it shows and leaves out."""

    path: Path
    nodes: int
    edges: int
    omitted_nodes: int
    omitted_edges: int
    hidden: dict[str, int] = field(default_factory=dict)  # what the left-out nodes are -> how many


@dataclass(frozen=True)
class PageContext:
    """Where a page sits: a shared asset folder, an index page and other views (all absent for a lone page)."""

    assets: Path | None = None
    index: Path | None = None
    views: dict[str, Path] = field(default_factory=dict)  # node id -> its focused view


def render_view(graph: nx.MultiDiGraph, out: Path, *, kind: str = "overview", focus: str | None = None,
                max_nodes: int = 1500, title: str | None = None) -> ViewInfo:
    """Write one self-contained, offline HTML view of ``graph`` to ``out``.

    ``kind`` is ``overview`` (papers and concepts, capped at ``max_nodes``) or ``paper``, ``dataset``,
    ``task``, ``method`` with ``focus`` naming a node (id, name or alias) whose neighbourhood is shown.

    >>> import networkx as nx, tempfile, pathlib
    >>> g = nx.MultiDiGraph()
    >>> g.add_node("paper:1", type="Paper", name="P1"); g.add_node("dataset:x", type="Dataset", name="X")
    >>> g.add_edge("paper:1", "dataset:x", key="EVALUATES_ON", type="EVALUATES_ON")
    'EVALUATES_ON'
    >>> render_view(g, pathlib.Path(tempfile.mkdtemp()) / "x.html", kind="dataset", focus="x").nodes
    2
    """
    return write_view(graph, out, kind=kind, focus=focus, max_nodes=max_nodes, title=title, context=PageContext())


def write_view(graph: nx.MultiDiGraph, out: Path, *, kind: str, focus: str | None, max_nodes: int,
               title: str | None, context: PageContext) -> ViewInfo:
    """``render_view`` with the page placed in a site (see ``PageContext``)."""
    out = Path(out)
    selection = select(graph, kind, focus, max_nodes)
    shown = induced(graph, selection.nodes)
    candidate_edges = edge_kinds(graph, selection.candidates)
    n_candidate_edges = sum(candidate_edges.values())
    nodes, edges, options, frame = network_data(graph, selection, shown)
    info = ViewInfo(out, len(nodes), len(edges), len(selection.candidates) - len(nodes), n_candidate_edges - len(edges),
                    dict(selection.hidden))
    here = out.parent
    payload = {
        "nodes": nodes, "edges": edges, "options": options, "focus": selection.focus, "frame": frame,
        "views": {n: _href(path, here) for n, path in context.views.items() if n in shown and path != out},
        "kinds": {t: {"color": node_color(t), "glyph": GLYPHS[SHAPES.get(t, "dot")]} for t in sorted({n["kind"] for n in nodes})},
    }
    page = TEMPLATES.get_template("view.html").render(
        title=title or default_title(graph, kind, selection.focus),
        summary=summary(info, n_candidate_edges, selection, graph.graph.get("sample_papers")),
        legend_nodes=_node_legend(graph, selection),
        legend_edges=_edge_legend(shown, candidate_edges),
        data_json=script_json(payload),
        assets=_asset_tags(context.assets, here),
        index_href=_href(context.index, here) if context.index else None,
    )
    here.mkdir(parents=True, exist_ok=True)
    out.write_text(page, encoding="utf-8")
    return info


def induced(graph: nx.MultiDiGraph, nodes: list[str]) -> nx.MultiDiGraph:
    """The subgraph on ``nodes`` as a copy, nodes in the order given and edges in the graph's order from each.
    (``graph.subgraph`` walks a set, whose order changes from run to run with string hashing, so the same build
    wrote different pages.)"""
    keep = set(nodes)
    g = nx.MultiDiGraph()
    g.add_nodes_from((n, graph.nodes[n]) for n in nodes)
    g.add_edges_from((u, v, k, d) for u in nodes for v, keyed in graph.succ[u].items() if v in keep
                     for k, d in keyed.items())
    return g


def edge_kinds(graph: nx.MultiDiGraph, nodes: Collection[str]) -> Counter:
    """Edges per relationship type among ``nodes`` (what ``induced(graph, nodes)`` would hold, without copying
    it: a busy dataset's candidates are thousands of papers)."""
    keep = nodes if isinstance(nodes, (set, frozenset)) else set(nodes)
    counts: Counter = Counter()
    for u in keep:
        for v, keyed in graph.succ[u].items():
            if v in keep:
                counts.update(str(k) for k in keyed)
    return counts


def network_data(graph: nx.MultiDiGraph, selection: Selection, shown: nx.MultiDiGraph | None = None,
                 ) -> tuple[list[dict[str, Any]], list[dict[str, Any]], dict[str, Any], dict[str, float]]:
    """vis-network nodes, edges and options of the selected nodes (``shown``: their subgraph, if at hand),
    built with a pyvis ``Network``, and the frame the page fits into its canvas (the nodes' bounding box,
    padding, largest and design zoom)."""
    if shown is None:
        shown = induced(graph, selection.nodes)
    degrees = dict(shown.degree())
    positions = layout(selection.nodes, shown.edges(), centre=selection.focus)
    zoom = fitting_zoom(positions)
    n_nodes = len(selection.nodes)
    smallest, largest = node_px(n_nodes)
    low, high = min(degrees.values(), default=0), max(degrees.values(), default=0)
    radii = {n: scaled(max(radius_px(degrees[n], low, high, smallest, largest),
                           FOCUS_PX * largest if n == selection.focus else 0.0), zoom) for n in selection.nodes}
    labels = {n: short_label(graph, n) if selection.focus is None and node_type(graph, n) == PAPER.label else None
              for n in selection.nodes}
    options = {n: node_options(graph, n, radii[n], selection.focus, labels[n]) for n in selection.nodes}
    above = _labels_above(shown, positions)
    # In a crowded view every label would touch some node: there, labels keep clear of the biggest fiftieth only
    # (their white outline keeps them readable over the small ones).
    avoid = None if n_nodes <= BIG else set(sorted(radii, key=lambda n: -radii[n])[: n_nodes // 50])
    fonts = label_sizes(_label_ranking(graph, selection, degrees), positions,
                        {n: o["label"] for n, o in options.items()}, radii, above, avoid)
    net = Network(directed=True)
    for n in selection.nodes:
        x, y = positions[n]
        font: dict[str, float] = {"size": fonts[n]}
        if n in above:  # vis-network draws labels under their node: lift this one over it
            options[n]["labelLift"] = round(2 * radii[n] + 2 * LABEL_GAP, 2)
            font["vadjust"] = -round(options[n]["labelLift"] + LINE_HEIGHT * fonts[n], 2)
        net.add_node(n, x=x, y=y, font=font, **options[n])
    names = {n: edge_end_name(graph, n) for n in selection.nodes}
    for i, (u, v, rel, data) in enumerate(shown.edges(keys=True, data=True)):
        net.add_edge(u, v, id=f"e{i}", **edge_options(graph, u, v, str(rel), data, names=names,
                                                     width_px=edge_width_px(str(rel), n_nodes), zoom=zoom))
    net.set_options(json.dumps(network_options(len(net.nodes))))
    nodes, edges, _, _, _, options = net.get_network_data()
    xs, ys = [x for x, _ in positions.values()] or [0.0], [y for _, y in positions.values()] or [0.0]
    frame = {"x0": min(xs), "y0": min(ys), "x1": max(xs), "y1": max(ys), "padX": PAD_PX[0], "padY": PAD_PX[1],
             "maxZoom": MAX_ZOOM, "zoom": zoom, "lineHeight": LINE_HEIGHT}
    return nodes, edges, json.loads(options), frame


def _labels_above(shown: nx.MultiDiGraph, positions: dict[str, tuple[float, float]]) -> set[str]:
    """Leaves (one neighbour) that sit above their neighbour: their labels go above them, away from it."""
    above = set()
    for n in shown:
        near = set(shown.predecessors(n)) | set(shown.successors(n))
        if len(near) == 1:
            (x, y), (hx, hy) = positions[n], positions[next(iter(near))]
            if y < hy - 0.3 * abs(x - hx):
                above.add(n)
    return above


def _label_ranking(graph: nx.MultiDiGraph, selection: Selection, degrees: dict[str, int]) -> list[str]:
    """Whose labels go first: the focus, then concepts shared in this view (they say what a cluster is about),
    then papers with a proper name (a title, or the method they propose), then the rest; busiest first."""
    def tier(n: str) -> int:
        if n == selection.focus:
            return 0
        if node_type(graph, n) != PAPER.label:
            return 1 if degrees[n] > 1 else 3
        named = graph.nodes[n].get("title") or any(k == PROPOSES.name for _, _, k in graph.out_edges(n, keys=True))
        return 2 if named else 4
    return sorted(selection.nodes, key=lambda n: (tier(n), -degrees[n], n))


def select(graph: nx.MultiDiGraph, kind: str, focus: str | None, max_nodes: int) -> Selection:
    """Validate the view arguments and choose its nodes."""
    if kind not in KIND_TYPES:
        raise ValueError(f"unknown view kind {kind!r}; choose one of {', '.join(KIND_TYPES)}")
    if max_nodes < 1:
        raise ValueError(f"max_nodes must be at least 1, not {max_nodes}")
    if kind == "overview":
        if focus is not None:
            raise ValueError("an overview has no focus; --focus needs --kind paper, dataset, task or method")
        return select_overview(graph, max_nodes)
    if not focus:
        raise ValueError(f"a {kind} view needs a focus (kg viz --focus) naming a {kind} (node id, name or alias)")
    return select_neighbourhood(graph, resolve_focus(graph, kind, focus), max_nodes)


def default_title(graph: nx.MultiDiGraph, kind: str, focus: str | None) -> str:
    """``Knowledge graph overview`` or ``Dataset: ImageNet``."""
    if focus is None:
        return "Knowledge graph overview"
    return f"{kind.capitalize()}: {display_name(graph, focus)}"


def summary(info: ViewInfo, candidate_edges: int, selection: Selection, sample_papers: int | None = None) -> list[str]:
    """Sentences saying what the view shows and what it leaves out (``sample_papers``: the graph drawn from is a
    sample of that many papers, as a big build's views are)."""
    scope = "the whole graph" if selection.focus is None else "this neighbourhood"
    if sample_papers:
        scope = (f"a sample of {sample_papers:,} papers" if selection.focus is None
                 else f"this neighbourhood in a sample of {sample_papers:,} papers")
    if not info.omitted_nodes and not info.omitted_edges:
        return [f"Showing all {info.nodes:,} nodes and {info.edges:,} edges of {scope}."]
    lines = [f"Showing {info.nodes:,} of {len(selection.candidates):,} nodes and {info.edges:,} of "
             + f"{candidate_edges:,} edges of {scope}."]
    if selection.hidden:
        parts = [f"{count:,} {what}" for what, count in sorted(selection.hidden.items(), key=lambda x: (-x[1], x[0]))]
        lines.append("Hidden: " + "; ".join(parts) + ".")
    return lines


def _node_legend(graph: nx.MultiDiGraph, selection: Selection) -> list[dict[str, Any]]:
    shown = Counter(str(graph.nodes[n].get("type") or "") for n in selection.nodes)
    total = Counter(str(graph.nodes[n].get("type") or "") for n in selection.candidates)
    order = [t.label for t in NODE_TYPES] + sorted(set(total) - {t.label for t in NODE_TYPES})
    return [{"kind": t, "color": node_color(t), "glyph": GLYPHS[SHAPES.get(t, "dot")], "shown": shown[t],
             "total": total[t]} for t in order if total[t]]


def _edge_legend(shown: nx.MultiDiGraph, candidate_edges: Counter) -> list[dict[str, Any]]:
    counts = Counter(str(k) for _, _, k in shown.edges(keys=True))
    present = set(candidate_edges)
    order = [r.name for r in REL_TYPES] + sorted(present - {r.name for r in REL_TYPES})
    return [{"rel": r, "color": edge_color(r), "shown": counts[r],
             "dash": " ".join(map(str, dash)) if isinstance(dash := edge_dashes(r), list) else ""}
            for r in order if r in present]


def script_json(value: Any) -> str:
    """JSON that is safe inside ``<script>``: no ``<``, ``>`` or ``&`` can close the element or open a comment."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    for char, escape in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026"),
                         ("\u2028", "\\u2028"), ("\u2029", "\\u2029")):
        text = text.replace(char, escape)
    return text


def write_assets(folder: Path) -> None:
    """Copy the vis-network and tom-select files that ship with pyvis into ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, source in {**SCRIPTS, **STYLES}.items():
        shutil.copyfile(PYVIS_LIB / source, folder / name)


def _asset_tags(folder: Path | None, here: Path) -> dict[str, list[dict[str, str]]]:
    """Script and style entries for the template: inline text, or a relative link into a shared folder."""
    def entry(name: str, source: str, tag: str) -> dict[str, str]:
        if folder is not None:
            return {"href": _href(folder / name, here)}
        text = (PYVIS_LIB / source).read_text(encoding="utf-8")
        if f"</{tag}" in text.lower():  # would end the element early; the shipped files never contain it
            raise RuntimeError(f"cannot inline {source}: it contains '</{tag}'")
        return {"text": text}
    return {"scripts": [entry(n, s, "script") for n, s in SCRIPTS.items()],
            "styles": [entry(n, s, "style") for n, s in STYLES.items()]}


def _href(target: Path, here: Path) -> str:
    """A relative URL from a page in folder ``here`` to ``target``, percent-encoded so it can never be a scheme."""
    return quote(Path(os.path.relpath(target, here)).as_posix())
