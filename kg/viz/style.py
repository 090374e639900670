"""Visual encoding of kg nodes and edges for vis-network: schema colours, shapes, sizes, tooltip content.

Tooltip content is plain data (strings and lists); the page's script turns it into DOM nodes with
``textContent``, so no input text is ever parsed as HTML.
"""
from __future__ import annotations

import itertools
import re
from collections.abc import Mapping
from typing import Any

import networkx as nx

from kg.corpus.clean import clean_text
from kg.schema import NODE_TYPE_BY_LABEL, PAPER, PROPOSES, REL_TYPE_BY_NAME, RESULT, concept_key
from kg.viz.labels import DRAW_THRESHOLD_PX

SHAPES = {"Paper": "dot", "Method": "diamond", "Task": "triangle", "Dataset": "square", "Metric": "star",
          "Result": "hexagon"}
GLYPHS = {"dot": "●", "diamond": "◆", "triangle": "▲", "square": "■", "star": "★", "hexagon": "⬢"}
DASHES: dict[str, list[int] | bool] = {"USES": [6, 4], "REPORTS": [2, 4], "FOR_METHOD": [1, 3],
                                       "ON_DATASET": [1, 3], "IN_METRIC": [1, 3]}
# Line width on screen at the fitting zoom (kg.viz.labels), by relation: what a paper is about stands out.
WIDTHS_PX = {"PROPOSES": 2.6, "EVALUATES_ON": 2.0, "ADDRESSES": 1.6, "USES": 1.3, "REPORTS": 1.3, "HAS_RESULT": 1.6}
THIN_PX = 1.0
CROWDED_WIDTH = 0.45  # line widths are scaled by this in views of more than BIG nodes
# Relation colours as drawn: the schema's, darkened where a thin line of it would vanish on white.
DRAWN_EDGE_COLORS = {"USES": "#d4a017", "FOR_METHOD": "#9a918c", "ON_DATASET": "#9a918c", "IN_METRIC": "#9a918c"}
# Smallest and largest node radius on screen at the fitting zoom, for views of up to SMALL, up to BIG and more nodes.
SMALL, BIG = 60, 300  # views with more than BIG nodes are drawn lighter: thinner and fainter straight lines
NODE_PX = {SMALL: (7.0, 18.0), BIG: (4.5, 14.0), None: (2.5, 11.0)}
UNKNOWN_COLOR = "#888888"
LABEL_CHARS = 30
TIP_WORDS = 20
DETAIL_CHARS = 1500
MAX_EVIDENCE = 3


def node_color(label: str) -> str:
    """The schema colour of a node label (grey for labels the schema does not know)."""
    node_kind = NODE_TYPE_BY_LABEL.get(label)
    return node_kind.color if node_kind else UNKNOWN_COLOR


def edge_color(rel: str) -> str:
    """The colour a relationship type is drawn in: the schema's, darker where it would be too faint."""
    rel_kind = REL_TYPE_BY_NAME.get(rel)
    return DRAWN_EDGE_COLORS.get(rel) or (rel_kind.color if rel_kind else UNKNOWN_COLOR)


def node_px(n_nodes: int) -> tuple[float, float]:
    """The smallest and largest node radius on screen (at the fitting zoom) in a view of ``n_nodes``."""
    return next(px for limit, px in NODE_PX.items() if limit is None or n_nodes <= limit)


def edge_width_px(rel: str, n_nodes: int) -> float:
    """The on-screen width of a relationship type's lines at the fitting zoom."""
    return WIDTHS_PX.get(rel, THIN_PX) * (CROWDED_WIDTH if n_nodes > BIG else 1.0)


def edge_dashes(rel: str) -> list[int] | bool:
    """The vis-network dash pattern of a relationship type (``False`` is a solid line)."""
    return DASHES.get(rel, False)


def shorten(text: str, limit: int = LABEL_CHARS) -> str:
    """``text`` on one line, cut at a word boundary to at most ``limit`` characters."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    cut = text[: limit - 1].rsplit(" ", 1)[0] if " " in text[: limit - 1] else text[: limit - 1]
    return cut.rstrip(" ,;:-") + "…"


def display_name(graph: nx.MultiDiGraph, n: str) -> str:
    """What a node is called on screen: a paper's title, else its name, else its id.

    An untitled paper named after the method it proposes is marked ``(paper)``, so it is not mistaken
    for the method's own node beside it.
    """
    data = graph.nodes[n]
    if data.get("title"):
        return str(data["title"])
    name = str(data.get("name") or n)
    if data.get("type") == PAPER.label and any(
            k == PROPOSES.name and concept_key(str(graph.nodes[v].get("name") or "")) == concept_key(name)
            for _, v, k in graph.out_edges(n, keys=True)):
        return f"{name} (paper)"
    return name


def edge_end_name(graph: nx.MultiDiGraph, n: str) -> str:
    """How an edge's tooltip names one of its ends: the display name, shortened."""
    return shorten(display_name(graph, n), 60)


def short_label(graph: nx.MultiDiGraph, n: str) -> str:
    """A node's label where there is no method node to confuse it with: a paper by its title, else by its
    name (the method it proposes, as the builder names untitled papers), without the ``(paper)`` mark."""
    data = graph.nodes[n]
    return shorten(str(data.get("title") or data.get("name") or n))


def node_options(graph: nx.MultiDiGraph, n: str, size: float, focus: str | None,
                 label: str | None = None) -> dict[str, Any]:
    """vis-network options of one node: label (default: its shortened display name), shape, colour, size in
    drawing units, and tooltip data."""
    data = graph.nodes[n]
    kind = str(data.get("type") or "")
    color = node_color(kind)
    name = display_name(graph, n)
    edge = "#1b1b1b" if n == focus else _darker(color)
    options: dict[str, Any] = {
        "label": shorten(name) if label is None else label,
        "shape": SHAPES.get(kind, "dot"),
        "color": {"background": color, "border": edge, "highlight": {"background": color, "border": "#1b1b1b"},
                  "hover": {"background": color, "border": "#1b1b1b"}},
        "size": size,
        "kind": kind,
        "fullName": " ".join(name.split()),
        "tip": _paper_tip(graph, n) if kind == PAPER.label else
        _result_tip(data) if kind == RESULT.label else _concept_tip(graph, n, kind),
    }
    if n == focus:
        options.update(borderWidth=4, borderWidthSelected=5, focus=True)
    return options


def _darker(color: str) -> str:
    """``#rrggbb`` at 75% brightness, for node borders."""
    r, g, b = (int(color[i: i + 2], 16) * 3 // 4 for i in (1, 3, 5))
    return f"#{r:02x}{g:02x}{b:02x}"


def _paper_tip(graph: nx.MultiDiGraph, n: str) -> dict[str, Any]:
    data = graph.nodes[n]
    abstract = " ".join(clean_text(str(data.get("abstract") or "")).split())  # (as it reads: "α-Net", not LaTeX)
    heading = " ".join(str(data["title"]).split()) if data.get("title") else _first_words(abstract)
    when = " ".join(str(x) for x in (data.get("venue"), data.get("year")) if x)
    proposed = [display_name(graph, v) for _, v, k in graph.out_edges(n, keys=True) if k == PROPOSES.name]
    authors = [str(a) for a in data.get("authors") or []]
    lines = [f"Paper{' · ' + when if when else ''}"]
    if proposed:
        lines.append("Proposes: " + ", ".join(dict.fromkeys(proposed)))
    if authors:
        lines.append("Authors: " + ", ".join(authors[:4]) + (" et al." if len(authors) > 4 else ""))
    ids = [str(i) for i in (data.get("doi"), data.get("arxiv_id") and f"arXiv:{data['arxiv_id']}",
                            *(data.get("other_ids") or ())) if i and str(i) != n.removeprefix("paper:")]
    if ids:  # what else names the paper (kg related, kg query): its DOI, arXiv id, a merged record's ids
        lines.append("Ids: " + ", ".join(dict.fromkeys(ids[:4])) + (" …" if len(ids) > 4 else ""))
    if data.get("source"):
        lines.append("Source: " + ", ".join(str(s) for s in data["source"][:3]))
    url = str(data.get("url") or "")
    return {"heading": str(heading or data.get("name") or n), "lines": lines,
            "detail": shorten(abstract, DETAIL_CHARS) if abstract else "",
            "url": url if url.lower().startswith(("https://", "http://")) else ""}


def _first_words(text: str) -> str:
    words = text.split()
    return " ".join(words[:TIP_WORDS]) + (" …" if len(words) > TIP_WORDS else "")


def _concept_tip(graph: nx.MultiDiGraph, n: str, label: str) -> dict[str, Any]:
    data = graph.nodes[n]
    kind = f"{label or 'Node'}{' · benchmark' if data.get('benchmark') else ''}"
    lines = [kind]
    # the first nine will do: a busy concept of a big corpus has thousands
    aliases = list(itertools.islice((str(a) for a in data.get("aliases") or [] if str(a) != data.get("name")), 9))
    if aliases:
        lines.append("Also: " + ", ".join(aliases[:8]) + (" …" if len(aliases) > 8 else ""))
    papers = data.get("papers")
    if papers is None:
        papers = sum(1 for u in graph.predecessors(n) if graph.nodes[u].get("type") == PAPER.label)
    lines.append(f"Used by {papers} paper{'' if papers == 1 else 's'}")
    return {"heading": display_name(graph, n), "lines": lines, "detail": "", "url": ""}


def _result_tip(data: dict[str, Any]) -> dict[str, Any]:
    lines = ["Result"] + [f"{part}: {data[part]}" for part in ("method", "dataset", "metric") if data.get(part)]
    sentence = " ".join(clean_text(str(data.get("sentence") or "")).split())  # (as it reads: "79.2%", not LaTeX)
    return {"heading": str(data.get("value") or data.get("name") or "result"), "lines": lines,
            "detail": sentence, "url": ""}


def edge_options(graph: nx.MultiDiGraph, u: str, v: str, rel: str, data: dict[str, Any], *, width_px: float = THIN_PX,
                 zoom: float = 1.0, names: Mapping[str, str] | None = None) -> dict[str, Any]:
    """vis-network options of one edge: colour, dashes and width by relationship type (``width_px`` screen
    pixels at the fitting ``zoom``; the page keeps that width while the reader zooms in), evidence for the
    tooltip. ``names``: the ends' :func:`edge_end_name` when a view has them at hand (a paper's edges all
    need its name)."""
    color = edge_color(rel)
    lines = [f"{names[u] if names else edge_end_name(graph, u)} → {names[v] if names else edge_end_name(graph, v)}"]
    facts = []
    if data.get("extractor"):
        facts.append(f"extractor: {data['extractor']}")
    if isinstance(data.get("confidence"), (int, float)):
        facts.append(f"confidence {data['confidence']:.2f}")
    if isinstance(data.get("count"), int) and data["count"] > 1:
        facts.append(f"{data['count']} mentions")
    if facts:
        lines.append(" · ".join(facts))
    return {
        "color": {"color": color, "highlight": color, "hover": color},
        "dashes": edge_dashes(rel),
        "width": round(width_px / zoom, 2),
        "px": width_px,
        "arrows": {"to": {"enabled": True, "scaleFactor": 0.5}},
        "rel": rel,
        "tip": {"heading": rel, "lines": lines, "evidence": _evidence(data)},
    }


def _find_casefree(text: str, part: str) -> int:
    """Where ``part`` first occurs in ``text`` ignoring case, or -1. (A regex per mention meant compiling
    thousands of patterns per view.)"""
    low_text, low_part = text.lower(), part.lower()
    if len(low_text) == len(text) and len(low_part) == len(part):
        return low_text.find(low_part)
    hit = re.search(re.escape(part), text, re.IGNORECASE)  # lowercasing changed lengths ("İ"): offsets differ
    return hit.start() if hit and hit.end() - hit.start() == len(part) else -1


def _evidence(data: dict[str, Any]) -> list[list[str]]:
    """Up to MAX_EVIDENCE sentences, each split as [before, mention, after] so the mention can be marked."""
    items = [e for e in data.get("evidence") or [] if isinstance(e, dict) and e.get("sentence")]
    if not items and data.get("sentence"):
        items = [{"sentence": data["sentence"], "text": None}]
    out = []
    for item in items[:MAX_EVIDENCE]:  # (sentence and mention as they read: "α-Net", not "$\alpha$-Net")
        sentence = " ".join(clean_text(str(item["sentence"])).split())
        mention = " ".join(clean_text(str(item.get("text") or "")).split())
        at = _find_casefree(sentence, mention) if mention else -1
        if at >= 0:
            out.append([sentence[:at], sentence[at : at + len(mention)], sentence[at + len(mention):]])
        else:
            out.append([sentence, "", ""])
    return out


def network_options(n_nodes: int) -> dict[str, Any]:
    """vis-network options: positions and sizes come precomputed (physics off).

    Labels smaller than ``drawThreshold - 1`` screen pixels are not drawn (see ``kg.viz.labels``).
    """
    big = n_nodes > BIG
    return {
        "autoResize": True,
        "layout": {"improvedLayout": False},
        "physics": {"enabled": False},
        "nodes": {
            "borderWidth": 1,
            "font": {"face": "system-ui, sans-serif", "color": "#1f2328", "strokeWidth": 4, "strokeColor": "#ffffff"},
            "scaling": {"label": {"enabled": False, "drawThreshold": DRAW_THRESHOLD_PX, "maxVisible": 18}},
        },
        "edges": {"smooth": False if big else {"enabled": True, "type": "continuous", "roundness": 0.15},
                  "color": {"opacity": 0.35 if big else 0.9}, "selectionWidth": 1.5, "hoverWidth": 0.5},
        "interaction": {"hover": True, "tooltipDelay": 120, "hideEdgesOnDrag": big, "navigationButtons": True,
                        "keyboard": False},
    }
