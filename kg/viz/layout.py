"""Node positions computed before the page opens, so a view is still the moment it is drawn.

A ForceAtlas2-style simulation (degree-weighted repulsion, linear attraction, gravity) runs on each
component's core; leaves, such as concepts used by one paper, are then fanned around the node they hang
from, in the gaps between its other edges. Leaving the leaves out of the O(n²) simulation keeps a
1,500-node overview to seconds of numpy. The core is spread over the room its leaves need too, and the
components are packed into a canvas-shaped rectangle, so the picture fills the screen.
"""
from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable

import numpy as np

ROOMY, TIGHT = 150.0, 75.0  # pixels of room per core node at zoom 1: ROOMY for a handful, TIGHT from CROWDED on
CROWDED = 300
LEAF_DISTANCE = 0.75  # a leaf's distance from its hub, as a fraction of the room per node
LEAF_GAP = 0.5  # arc between neighbouring leaves of one hub, as a fraction of the room per node
LEAF_AREA = 1.0  # room the core is spread over, in unit squares per node of the component, leaves included
LABEL_ANGLE = math.pi / 2  # straight down on screen: vis-network draws a node's label under it
LABEL_WEDGE = math.radians(40)  # no leaf within this angle of LABEL_ANGLE
MAX_SEPARATED = 800  # larger cores skip the O(n²) overlap removal
VIEW_ASPECT = 1.4  # width / height of the canvas the drawings are packed for (see kg.viz.labels.CANVAS_PX)
REPULSION = 10.0
GRAVITY = 1.0


def layout(nodes: list[str], edges: Iterable[tuple[str, str]], *, seed: int = 7,
           iterations: int = 120, centre: str | None = None) -> dict[str, tuple[float, float]]:
    """Pixel positions for ``nodes``, deterministic for a given ``seed`` (up to how BLAS rounds the repulsion's
    float32 sums in a large component, which varies with its number of threads); ``centre`` (a focus node) is
    held in the middle of its component.

    Each connected component is drawn on its own; the largest goes first and the rest are packed in
    rows beneath it, so small islands neither fly off nor shrink the main picture.

    >>> pos = layout(["a", "b", "c", "d"], [("a", "b"), ("b", "c")])
    >>> sorted(pos) == ["a", "b", "c", "d"] and all(len(xy) == 2 for xy in pos.values())
    True
    """
    index = {n: i for i, n in enumerate(nodes)}
    neighbours: list[set[int]] = [set() for _ in nodes]
    for u, v in edges:
        if (i := index[u]) != (j := index[v]):
            neighbours[i].add(j)
            neighbours[j].add(i)
    room = TIGHT + (ROOMY - TIGHT) * max(0.0, 1 - len(nodes) / CROWDED)
    rng = np.random.default_rng(seed)
    middle = index.get(centre) if centre is not None else None
    parts = [(members, _draw_component(members, neighbours, rng, iterations, room, middle))
             for members in _components(neighbours)]
    xy = np.zeros((len(nodes), 2))
    _pack(xy, parts, room)
    return {n: (round(float(xy[i, 0]), 1), round(float(xy[i, 1]), 1)) for n, i in index.items()}


def _components(neighbours: list[set[int]]) -> list[list[int]]:
    """Connected components as sorted index lists, largest first."""
    seen: set[int] = set()
    found = []
    for start in range(len(neighbours)):
        if start in seen:
            continue
        seen.add(start)
        stack, members = [start], []
        while stack:
            i = stack.pop()
            members.append(i)
            stack.extend(j for j in neighbours[i] if j not in seen)
            seen.update(neighbours[i])
        found.append(sorted(members))
    return sorted(found, key=lambda c: (-len(c), c[0]))


def _draw_component(members: list[int], neighbours: list[set[int]], rng: np.random.Generator, iterations: int,
                    room: float, middle: int | None = None) -> np.ndarray:
    """Positions of one component (rows follow ``members``): its core simulated, its leaves fanned out."""
    # A leaf hangs from a neighbour that is not itself a leaf (an isolated pair stays in the core).
    hub = {i: next(iter(neighbours[i])) for i in members
           if len(neighbours[i]) == 1 and len(neighbours[next(iter(neighbours[i]))]) > 1}
    core = [i for i in members if i not in hub]
    where = {i: k for k, i in enumerate(core)}
    core_edges = np.array([(where[i], where[j]) for i in core for j in neighbours[i] if j in where and i < j],
                          dtype=int).reshape(-1, 2)
    mass = np.array([len(neighbours[i]) + 1 for i in core], dtype=float)
    spread = room * _simulate(mass, core_edges, rng, iterations, area=LEAF_AREA * len(members),
                              anchor=where.get(middle))
    fans = Counter(hub.values())
    reach = np.array([_fan_radius(fans[i], room) for i in core])
    if len(core) <= MAX_SEPARATED:
        _separate(spread, reach)
    at = {i: (float(x), float(y)) for i, (x, y) in zip(core, spread)}
    _place_leaves(at, hub, neighbours, room)
    return np.array([at[i] for i in members])


def _fan_radius(leaves: int, room: float) -> float:
    """How far a core node's drawing reaches: half the room per node, or the outer ring of its leaves."""
    if not leaves:
        return room / 2
    radius, placed = LEAF_DISTANCE * room, 0
    while True:
        placed += _ring_capacity(radius, room)
        if placed >= leaves:
            return radius + room / 3
        radius += LEAF_GAP * room


def _ring_capacity(radius: float, room: float) -> int:
    """Leaves that fit on a ring of ``radius``, outside the wedge kept for the hub's label."""
    return max(1, int((2 * math.pi - 2 * LABEL_WEDGE) * radius / (LEAF_GAP * room)))


def _separate(pos: np.ndarray, reach: np.ndarray, rounds: int = 40) -> None:
    """Push apart core nodes whose drawings (discs of radius ``reach``) overlap, in place, so one hub's
    leaves never land among another's.

    Distances come from the Gram matrix, and each node's push, the sum over j of w_ij (p_i - p_j), is
    p_i * sum_j w_ij - (w @ p)_i: n x n arrays only, ten times faster than the n x n x 2 differences."""
    n = len(pos)
    if n < 2:
        return
    need = reach[:, None] + reach[None, :]
    np.fill_diagonal(need, 0)
    for _ in range(rounds):
        square = (pos * pos).sum(axis=1)
        dist = np.add.outer(square, square)
        dist -= 2 * (pos @ pos.T)
        np.maximum(dist, 0, out=dist)
        np.sqrt(dist, out=dist)
        dist += 1e-9
        push = need - dist
        np.maximum(push, 0, out=push)
        if not push.any():
            return
        push /= dist  # w_ij: the overlap per unit of distance
        pos += 0.5 * (pos * push.sum(axis=1)[:, None] - push @ pos)


def _simulate(mass: np.ndarray, edges: np.ndarray, rng: np.random.Generator, iterations: int,
              area: float, anchor: int | None = None) -> np.ndarray:
    """ForceAtlas2 forces with a cooling step limit; returns positions spread over ``area`` unit squares
    (one per node of the component, leaves included), with node ``anchor`` (if any) at the centre.

    Repulsion m_i m_j / d_ij between all pairs is summed with one matrix product per step, in float32
    and preallocated buffers: numpy's fastest route to the O(n²) part.
    """
    n = len(mass)
    if n <= 1:
        return np.zeros((n, 2))
    spread = math.sqrt(n) * 10.0
    pos = rng.uniform(-spread, spread, (n, 2)).astype(np.float32)
    m = mass.astype(np.float32)
    pair = np.empty((n, n), np.float32)
    gram = np.empty((n, n), np.float32)
    rhs = np.ones((n, 3), np.float32)
    for step in range(iterations):
        square = (pos * pos).sum(axis=1)
        np.add.outer(square, square, out=pair)
        np.matmul(pos, pos.T, out=gram)
        np.multiply(gram, 2, out=gram)
        np.subtract(pair, gram, out=pair)  # squared distances
        np.maximum(pair, 0.01, out=pair)
        np.divide(m[None, :], pair, out=pair)  # m_j / d_ij², so the force along p_i - p_j is m_i m_j / d_ij
        np.fill_diagonal(pair, 0)
        rhs[:, 1:] = pos
        sums = pair @ rhs
        force = REPULSION * m[:, None] * (pos * sums[:, :1] - sums[:, 1:])
        if len(edges):
            pull = pos[edges[:, 1]] - pos[edges[:, 0]]
            np.add.at(force, edges[:, 0], pull)
            np.add.at(force, edges[:, 1], -pull)
        force -= GRAVITY * m[:, None] * pos / (np.linalg.norm(pos, axis=1, keepdims=True) + 1e-6)
        limit = spread * 0.1 * (1 - step / iterations) + 0.5
        length = np.linalg.norm(force, axis=1, keepdims=True) + 1e-6
        pos += force * np.minimum(1.0, limit / length)
        if anchor is not None:
            pos -= pos[anchor].copy()
    pos = pos.astype(float) - (pos[anchor] if anchor is not None else pos.mean(axis=0))
    # A disc holding n unit squares has radius sqrt(n / pi) and RMS radius sqrt(n / (2 pi)).
    rms = math.sqrt(float((pos * pos).sum(axis=1).mean())) or 1.0
    scaled: np.ndarray = pos * (math.sqrt(max(n, area) / (2 * math.pi)) / rms)
    return scaled


def _place_leaves(at: dict[int, tuple[float, float]], hub: dict[int, int], neighbours: list[set[int]],
                  room: float) -> None:
    """Set each hub's leaves on rings around it, inner ring first, so they neither touch nor sprawl, and in
    the gaps between the hub's edges to the core and its label, so no leaf sits on either."""
    leaves: dict[int, list[int]] = {}
    for leaf, parent in sorted(hub.items()):
        leaves.setdefault(parent, []).append(leaf)
    gap = LEAF_GAP * room
    for parent, group in leaves.items():
        (x, y), radius, placed = at[parent], LEAF_DISTANCE * room, 0
        # The hub's edges to the core, and the wedge under it where its label goes, stay clear of leaves.
        edges = [math.atan2(at[j][1] - y, at[j][0] - x) for j in neighbours[parent] if j not in hub]
        while placed < len(group):
            ring = group[placed: placed + _ring_capacity(radius, room)]
            for leaf, angle in zip(ring, _free_angles(len(ring), edges)):
                at[leaf] = (x + radius * math.cos(angle), y + radius * math.sin(angle))
            placed += len(ring)
            radius += gap


def _free_angles(k: int, edges: list[float]) -> list[float]:
    """``k`` directions spread evenly over the gaps between the ``edges`` directions, outside the label
    wedge (each gap gets its share of ``k`` by size, largest remainders first).

    >>> [round(math.degrees(a)) for a in _free_angles(3, [])]  # left, up, right (y points down)
    [200, 270, 340]
    """
    low, high = LABEL_ANGLE - LABEL_WEDGE, LABEL_ANGLE + LABEL_WEDGE
    turn = 2 * math.pi
    bounds = sorted({high % turn, *(a % turn for a in edges if not low < a % turn < high)})
    gaps = []
    for i, a in enumerate(bounds):
        b = bounds[(i + 1) % len(bounds)] + (turn if i + 1 == len(bounds) else 0)
        if a < low % turn <= b or a < low % turn + turn <= b:  # this gap runs into the wedge: stop at it
            b = low % turn if a < low % turn <= b else low % turn + turn
        gaps.append((a, b - a))
    total = sum(g for _, g in gaps)
    shares = [k * g / total for _, g in gaps]
    counts = [int(s) for s in shares]
    for i in sorted(range(len(gaps)), key=lambda i: counts[i] - shares[i])[: k - sum(counts)]:
        counts[i] += 1
    return [a + g * (t + 1) / (c + 1) for (a, g), c in zip(gaps, counts) for t in range(c)]


def _pack(xy: np.ndarray, parts: list[tuple[list[int], np.ndarray]], room: float) -> None:
    """Place the drawings ``room`` apart: the largest top left, the others in shelves beside it and then
    beneath everything, for the shelf width whose result best fills a VIEW_ASPECT canvas."""
    if not parts:
        return
    sizes = [np.ptp(pos, axis=0) for _, pos in parts]
    first = float(sizes[0][0])
    area = sum(float((w + room) * (h + room)) for w, h in sizes)
    widths = {first} | {max(first, f * math.sqrt(area * VIEW_ASPECT)) for f in (0.8, 0.9, 1.0, 1.15, 1.3, 1.5)}

    def fit(corners: list[tuple[float, float]]) -> float:  # the scale at which the result fills the canvas
        right = max(x + float(w) for (x, _), (w, _) in zip(corners, sizes))
        bottom = max(y + float(h) for (_, y), (_, h) in zip(corners, sizes))
        return min(VIEW_ASPECT / (right + room), 1 / (bottom + room))

    best = max((_shelves(sizes, width, room) for width in sorted(widths)), key=fit)
    for (members, pos), corner in zip(parts, best):
        xy[members] = pos - pos.min(axis=0) + corner


def _shelves(sizes: list[np.ndarray], width: float, room: float) -> list[tuple[float, float]]:
    """Top-left corners: the first box at the origin, then shelves in the region to its right (while they
    start above its bottom edge), then shelves across the full ``width`` beneath everything."""
    corners = [(0.0, 0.0)]
    left, first_bottom = float(sizes[0][0]) + room, float(sizes[0][1])
    x, y, row, bottom = left, 0.0, 0.0, first_bottom
    beside = left < width
    for w, h in ((float(a), float(b)) for a, b in sizes[1:]):
        start = left if beside else 0.0
        if x > start and x + w > width:  # the shelf is full: start the next one
            x, y, row = start, y + row + room, 0.0
        if beside and (y >= first_bottom or x + w > width):  # no room beside the first box any more
            beside = False
            x, y, row = 0.0, bottom + room, 0.0
        corners.append((x, y))
        x += w + room
        row = max(row, h)
        bottom = max(bottom, y + h)
    return corners
