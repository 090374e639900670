"""Node positions computed before the page opens, so a view is still the moment it is drawn.

A ForceAtlas2-style simulation (degree-weighted repulsion, linear attraction, gravity) runs on each
component's core; leaves, such as concepts used by one paper, are then fanned around the node they hang
from. Leaving the leaves out of the O(n²) simulation keeps a 1,500-node overview to seconds of numpy.
"""
from __future__ import annotations

import math
from collections.abc import Iterable

import numpy as np

ROOMY, TIGHT = 150.0, 75.0  # pixels of room per core node at zoom 1: ROOMY for a handful, TIGHT from CROWDED on
CROWDED = 300
LEAF_DISTANCE = 0.6  # a leaf's distance from its hub, as a fraction of the room per node
LEAF_GAP = 0.35  # arc between neighbouring leaves of one hub, as a fraction of the room per node
REPULSION = 10.0
GRAVITY = 1.0


def layout(nodes: list[str], edges: Iterable[tuple[str, str]], *, seed: int = 7,
           iterations: int = 120) -> dict[str, tuple[float, float]]:
    """Pixel positions for ``nodes``, deterministic for a given ``seed``.

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
    parts = [(members, _draw_component(members, neighbours, rng, iterations, room))
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
                    room: float) -> np.ndarray:
    """Positions of one component (rows follow ``members``): its core simulated, its leaves fanned out."""
    # A leaf hangs from a neighbour that is not itself a leaf (an isolated pair stays in the core).
    hub = {i: next(iter(neighbours[i])) for i in members
           if len(neighbours[i]) == 1 and len(neighbours[next(iter(neighbours[i]))]) > 1}
    core = [i for i in members if i not in hub]
    where = {i: k for k, i in enumerate(core)}
    core_edges = np.array([(where[i], where[j]) for i in core for j in neighbours[i] if j in where and i < j],
                          dtype=int).reshape(-1, 2)
    mass = np.array([len(neighbours[i]) + 1 for i in core], dtype=float)
    at = {i: tuple(p) for i, p in zip(core, _simulate(mass, core_edges, rng, iterations) * room)}
    _place_leaves(at, hub, rng, room)
    return np.array([at[i] for i in members])


def _simulate(mass: np.ndarray, edges: np.ndarray, rng: np.random.Generator, iterations: int) -> np.ndarray:
    """ForceAtlas2 forces with a cooling step limit; returns positions scaled to one unit square per node.

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
    pos = pos.astype(float) - pos.mean(axis=0)
    # A disc holding n unit squares has radius sqrt(n / pi) and RMS radius sqrt(n / (2 pi)).
    rms = math.sqrt(float((pos * pos).sum(axis=1).mean())) or 1.0
    scaled: np.ndarray = pos * (math.sqrt(n / (2 * math.pi)) / rms)
    return scaled


def _place_leaves(at: dict[int, tuple[float, float]], hub: dict[int, int], rng: np.random.Generator,
                  room: float) -> None:
    """Set each hub's leaves on rings around it, inner ring first, so they neither touch nor sprawl."""
    leaves: dict[int, list[int]] = {}
    for leaf, parent in sorted(hub.items()):
        leaves.setdefault(parent, []).append(leaf)
    gap = LEAF_GAP * room
    for parent, group in leaves.items():
        (x, y), radius, turn, placed = at[parent], LEAF_DISTANCE * room, rng.uniform(0, 2 * math.pi), 0
        while placed < len(group):
            ring = group[placed: placed + max(1, int(2 * math.pi * radius / gap))]
            for k, leaf in enumerate(ring):
                angle = turn + 2 * math.pi * k / len(ring)
                at[leaf] = (x + radius * math.cos(angle), y + radius * math.sin(angle))
            placed += len(ring)
            radius += gap


def _pack(xy: np.ndarray, parts: list[tuple[list[int], np.ndarray]], room: float) -> None:
    """Shelf packing: the first (largest) drawing on its own row, then the others left to right in rows as
    wide as it is, ``room`` apart."""
    width = max(float(np.ptp(parts[0][1][:, 0])), 8 * room) if parts else 0.0
    x = y = row_height = 0.0
    for members, pos in parts:
        low, size = pos.min(axis=0), np.ptp(pos, axis=0)
        if x > 0 and x + size[0] > width:
            x, y, row_height = 0.0, y + row_height + room, 0.0
        xy[members] = pos - low + (x, y)
        x += float(size[0]) + room
        row_height = max(row_height, float(size[1]))
