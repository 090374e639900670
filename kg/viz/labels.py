"""Sizes in screen pixels: which labels a view shows before the reader zooms in, and how big nodes and lines are.

A page opens at the zoom that fits the whole view into its canvas (``fitting_zoom``; the page's script
applies the same formula to the real canvas). kg sets each node's radius, font size and edge width in
drawing units so that at that zoom they come out at a chosen number of screen pixels, whatever the size of
the graph.

vis-network skips a label drawn smaller than ``drawThreshold - 1`` screen pixels. The chosen labels come
out at a readable size and all others fall under the threshold; zooming in reveals them.
"""
from __future__ import annotations

import math

import numpy as np

CANVAS_PX = (1120.0, 800.0)  # a typical graph area: a 1400x900 window less the header and the controls panel
PAD_PX = (40.0, 56.0)  # screen pixels kept free left and right, and above and below, for outer nodes and labels
MAX_ZOOM = 2.0  # a small view is spread over the canvas; its nodes and labels keep their screen size
DRAW_THRESHOLD_PX = 6.0
HIDDEN_PX = 4.5  # on screen at the fitting zoom: under DRAW_THRESHOLD_PX - 1, even on a larger canvas
SHOWN_PX, LEAD_PX = 13.0, 16.0  # on screen at the fitting zoom: ordinary labels, and the LEADING first ones
LEADING = 12
BUDGET = 60  # labels shown at once, at most
CHAR_WIDTH = 0.53  # average glyph width of the UI font, in ems
LINE_HEIGHT = 1.25  # a label's height, in ems
LABEL_MARGIN = 0.4  # free space kept left and right of a shown label, in ems
LABEL_GAP = 3.0  # vis-network draws a label this many drawing units under its node's shape


def fitting_zoom(positions: dict[str, tuple[float, float]]) -> float:
    """The scale that fits all ``positions`` on CANVAS_PX with PAD_PX to spare (never above MAX_ZOOM).

    >>> fitting_zoom({"a": (0, 0), "b": (4160, 0)})
    0.25
    """
    xs = [x for x, _ in positions.values()] or [0.0]
    ys = [y for _, y in positions.values()] or [0.0]
    width, height = max(xs) - min(xs), max(ys) - min(ys)
    return min(MAX_ZOOM, (CANVAS_PX[0] - 2 * PAD_PX[0]) / (width or 1e-9),
               (CANVAS_PX[1] - 2 * PAD_PX[1]) / (height or 1e-9))


def label_sizes(ranked: list[str], positions: dict[str, tuple[float, float]], labels: dict[str, str],
                radii: dict[str, float] | None = None, above: set[str] | frozenset[str] = frozenset(),
                avoid: set[str] | None = None) -> dict[str, float]:
    """Font size per node, in drawing units. Going down the first 2 * BUDGET of ``ranked``, a label is shown
    if fewer than BUDGET are, no shown label has the same text, and at the fitting zoom it overlaps neither
    a label shown so far nor a node of ``avoid`` (default: all; ``radii`` in drawing units). The first of
    ``ranked`` is always shown. Labels go under their node, or over it for nodes in ``above``. All other
    labels are hidden until the reader zooms in.

    >>> at = {"a": (0, 0), "b": (5, 0), "c": (800, 0)}
    >>> px = {n: size * fitting_zoom(at) for n, size in label_sizes(list(at), at, dict(a="A", b="B", c="C")).items()}
    >>> px["a"] >= SHOWN_PX and px["b"] < DRAW_THRESHOLD_PX - 1 and px["c"] >= SHOWN_PX
    True
    """
    zoom = fitting_zoom(positions)
    radii = radii or {}
    order = [n for n in positions if avoid is None or n in avoid]
    where = {n: i for i, n in enumerate(order)}
    xy = np.array([positions[n] for n in order], dtype=float).reshape(-1, 2)
    r = np.array([radii.get(n, 0.0) for n in order], dtype=float)
    discs = np.column_stack([xy[:, 0] - r, xy[:, 1] - r, xy[:, 0] + r, xy[:, 1] + r]) if len(order) else xy
    taken: list[tuple[float, float, float, float]] = []
    texts: set[str] = set()
    sizes = {}
    hidden = round(min(SHOWN_PX, HIDDEN_PX / zoom), 1)
    for rank, n in enumerate(ranked):
        sizes[n] = hidden
        text = labels[n].strip()
        if not text or rank >= 2 * BUDGET or len(taken) >= BUDGET or text.casefold() in texts:
            continue
        font = (LEAD_PX if len(taken) < LEADING else SHOWN_PX) / zoom
        x, y = positions[n]
        half = CHAR_WIDTH * font * len(text) / 2
        if n in above:
            bottom = y - radii.get(n, 0.0) - LABEL_GAP
            box = (x - half, bottom - LINE_HEIGHT * font, x + half, bottom)
        else:
            top = y + radii.get(n, 0.0) + LABEL_GAP
            box = (x - half, top, x + half, top + LINE_HEIGHT * font)
        if rank > 0 and (any(_overlap(box, other) for other in taken) or _hits_disc(box, discs, where.get(n, -1))):
            continue
        margin = LABEL_MARGIN * font  # neighbouring labels keep a space apart
        taken.append((box[0] - margin, box[1], box[2] + margin, box[3]))
        texts.add(text.casefold())
        sizes[n] = round(font, 1)
    return sizes


def _overlap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _hits_disc(box: tuple[float, float, float, float], discs: np.ndarray, own: int) -> bool:
    """Whether ``box`` overlaps the bounding square of any node but row ``own`` (-1: none) of ``discs``."""
    hit = (discs[:, 0] < box[2]) & (box[0] < discs[:, 2]) & (discs[:, 1] < box[3]) & (box[1] < discs[:, 3])
    if own >= 0:
        hit[own] = False
    return bool(hit.any())


def scaled(px: float, zoom: float) -> float:
    """Drawing units that come out at ``px`` screen pixels at ``zoom``."""
    return round(px / zoom, 2) if zoom > 0 else px


def radius_px(degree: int, low: int, high: int, smallest: float, largest: float) -> float:
    """A node's radius on screen: area, not radius, grows with the number of links (``low``..``high``)."""
    if high <= low:
        return (smallest + largest) / 2
    return smallest + (largest - smallest) * math.sqrt((degree - low) / (high - low))
