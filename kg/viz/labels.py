"""Which labels a view shows before the reader zooms in: a few, legible, and not on top of each other.

vis-network skips a label drawn smaller than ``drawThreshold - 1`` screen pixels. kg sets each node's font
size in drawing units so that, at the zoom that fits the whole view, the chosen labels come out at a
readable size and all others fall under the threshold; zooming in reveals them.
"""
from __future__ import annotations

CANVAS_PX = (1300.0, 780.0)  # a typical canvas: vis fits the whole view into it when the page opens
DRAW_THRESHOLD_PX = 6.0
HIDDEN_PX = 4.5  # on screen at the fitting zoom: under DRAW_THRESHOLD_PX - 1, even on a larger canvas
SHOWN_PX, LEAD_PX = 14.0, 18.0  # on screen at the fitting zoom: ordinary labels, and the LEADING first ones
LEADING = 10
BUDGET = 45  # labels shown at once, at most
CHAR_WIDTH = 0.58  # average glyph width of the UI font, in ems


def fitting_zoom(positions: dict[str, tuple[float, float]]) -> float:
    """The scale vis-network picks to fit all ``positions`` on CANVAS_PX (never above 1)."""
    xs = [x for x, _ in positions.values()] or [0.0]
    ys = [y for _, y in positions.values()] or [0.0]
    return min(1.0, CANVAS_PX[0] / (max(xs) - min(xs) + 100), CANVAS_PX[1] / (max(ys) - min(ys) + 100))


def label_sizes(ranked: list[str], positions: dict[str, tuple[float, float]],
                labels: dict[str, str]) -> dict[str, float]:
    """Font size per node, in drawing units. Going down the first 2 * BUDGET of ``ranked``, a label is shown
    if fewer than BUDGET are and it overlaps none shown so far (at the fitting zoom); all others are hidden.

    >>> sizes = label_sizes(["a", "b", "c"], {"a": (0, 0), "b": (5, 0), "c": (400, 0)}, dict(a="A", b="B", c="C"))
    >>> sizes["a"] >= 14 and sizes["b"] < 6 and sizes["c"] >= 14
    True
    """
    zoom = fitting_zoom(positions)
    taken: list[tuple[float, float, float, float]] = []
    sizes = {}
    for rank, n in enumerate(ranked):
        font = (LEAD_PX if len(taken) < LEADING else SHOWN_PX) / zoom
        x, y = positions[n]
        half = CHAR_WIDTH * font * len(labels[n]) / 2
        box = (x - half, y, x + half, y + 2 * font)  # vis draws the label under the node
        if rank < 2 * BUDGET and len(taken) < BUDGET and not any(_overlap(box, other) for other in taken):
            taken.append(box)
            sizes[n] = round(font, 1)
        else:
            sizes[n] = round(min(SHOWN_PX, HIDDEN_PX / zoom), 1)
    return sizes


def _overlap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]
