"""Axial hex coordinates, r growing downward (docs/setups.md, "Coordinates"), pointy-top or flat-top.

Pure functions on `Hex = (q, r)` tuples, in the spirit of Red Blob Games' guide: no drawing,
no shapely, no game. Directions are indexed 0 E, 1 NE, 2 NW, 3 W, 4 SW, 5 SE.

One core for both orientations: an `Orientation` (the matrix from axial to pixels and the first
corner's angle) and a `Layout` (an orientation, the circumradius and where hex (0, 0) sits) place any
hex and its corners. Offset coordinates (`[col, row]` of a rectangular grid: odd rows shoved right when
pointy, odd columns shoved down when flat) convert to axial with `from_offset`. The board set-ups use
the pointy axial form (`to_pixel`, `corners`, the exact corner ids); faces draw grids of either.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import NamedTuple

__all__ = [
    "DIRECTIONS",
    "DIRECTION_NAMES",
    "FLAT",
    "POINTY",
    "Hex",
    "Layout",
    "Orientation",
    "SQRT3",
    "Vertex",
    "add",
    "corners",
    "direction_between",
    "distance",
    "edge_corners",
    "edge_key",
    "from_offset",
    "hex_corners",
    "offset_extent",
    "orientation",
    "line",
    "neighbour",
    "neighbours",
    "place",
    "ring",
    "rotate",
    "scale",
    "side_vertices",
    "spiral",
    "subtract",
    "to_pixel",
    "vertex_cells",
    "vertex_ids",
    "vertex_to_pixel",
]

Hex = tuple[int, int]

DIRECTIONS: tuple[Hex, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
DIRECTION_NAMES = ("E", "NE", "NW", "W", "SW", "SE")
SQRT3 = math.sqrt(3.0)


def add(a: Hex, b: Hex) -> Hex:
    return (a[0] + b[0], a[1] + b[1])


def subtract(a: Hex, b: Hex) -> Hex:
    return (a[0] - b[0], a[1] - b[1])


def scale(a: Hex, k: int) -> Hex:
    return (a[0] * k, a[1] * k)


def neighbour(cell: Hex, direction: int) -> Hex:
    return add(cell, DIRECTIONS[direction % 6])


def neighbours(cell: Hex) -> list[Hex]:
    return [add(cell, d) for d in DIRECTIONS]


def distance(a: Hex, b: Hex) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def rotate(cell: Hex, steps: int) -> Hex:
    """Rotate about the origin by `steps` × 60° clockwise: one step maps (q, r) to (-r, q + r)."""
    q, r = cell
    for _ in range(steps % 6):
        q, r = -r, q + r
    return (q, r)


def place(cells: Iterable[Hex], anchor: Hex, rotation: int) -> list[Hex]:
    """A tile's cells put on a board: anchor + rotate(cell, rotation)."""
    return [add(anchor, rotate(c, rotation)) for c in cells]


def ring(centre: Hex, radius: int) -> list[Hex]:
    """The cells at exactly `radius` from `centre`, walking clockwise from the SW corner."""
    if radius == 0:
        return [centre]
    cell = add(centre, scale(DIRECTIONS[4], radius))
    out = []
    for side in range(6):
        for _ in range(radius):
            out.append(cell)
            cell = neighbour(cell, side)
    return out


def spiral(centre: Hex, radius: int) -> list[Hex]:
    """Every cell within `radius` of `centre`, ring by ring."""
    return [c for k in range(radius + 1) for c in ring(centre, k)]


def line(cell: Hex, direction: int, length: int) -> list[Hex]:
    """`length` cells in a straight line from `cell` (excluded) in `direction`."""
    return [add(cell, scale(DIRECTIONS[direction % 6], k)) for k in range(1, length + 1)]


def direction_between(a: Hex, b: Hex) -> int | None:
    """The direction index from `a` to neighbouring `b`, or None when they are not neighbours."""
    delta = subtract(b, a)
    return DIRECTIONS.index(delta) if delta in DIRECTIONS else None


class Orientation(NamedTuple):  # (NamedTuples, not frozen dataclasses: ~1 ms less to import)
    """Pointy-top or flat-top: axial (q, r) to pixels is (f0 q + f1 r, f2 q + f3 r) circumradii, y down;
    corner k of a hex lies at `start + 60 k` degrees from its centre, clockwise on the page."""

    name: str
    f0: float
    f1: float
    f2: float
    f3: float
    start: float


POINTY = Orientation("pointy", SQRT3, SQRT3 / 2.0, 0.0, 1.5, -30.0)
FLAT = Orientation("flat", 1.5, 0.0, SQRT3 / 2.0, SQRT3, 0.0)


def orientation(name: str) -> Orientation:
    """`pointy` or `flat` (as a spec writes it)."""
    return FLAT if name == "flat" else POINTY


class Layout(NamedTuple):
    """Hexes of `orientation` and circumradius `size`, hex (0, 0) centred at `origin`."""

    orientation: Orientation
    size: float
    origin: tuple[float, float] = (0.0, 0.0)

    def to_pixel(self, cell: Hex) -> tuple[float, float]:
        x, y = _place(self.orientation, self.size, cell)
        return (self.origin[0] + x, self.origin[1] + y)

    def corners(self, cell: Hex) -> list[tuple[float, float]]:
        """The six corners, from the first (NE when pointy, E when flat) clockwise on the page."""
        cx, cy = self.to_pixel(cell)
        return hex_corners(cx, cy, self.size, self.orientation)


def _place(o: Orientation, size: float, cell: Hex) -> tuple[float, float]:
    q, r = cell
    return (size * (o.f0 * q + o.f1 * r), size * (o.f2 * q + o.f3 * r))


def hex_corners(cx: float, cy: float, size: float, orient: Orientation) -> list[tuple[float, float]]:
    """The corners of a hex of circumradius `size` centred at (cx, cy), clockwise from the first."""
    return [
        (
            cx + size * math.cos(math.radians(orient.start + 60 * k)),
            cy + size * math.sin(math.radians(orient.start + 60 * k)),
        )
        for k in range(6)
    ]


def from_offset(col: int, row: int, orient: Orientation) -> Hex:
    """The axial hex at `[col, row]` of a rectangular grid: odd rows shoved right by half a hex (pointy),
    or odd columns shoved down by half a hex (flat)."""
    if orient is FLAT:
        return (col, row - (col - (col & 1)) // 2)
    return (col - (row - (row & 1)) // 2, row)


def offset_extent(cols: int, rows: int, orient: Orientation) -> tuple[float, float]:
    """Width and height, in circumradii, of a `cols` × `rows` offset grid (from_offset's shoving)."""
    if orient is FLAT:
        return 2 + 1.5 * (cols - 1), SQRT3 * (rows + (0.5 if cols > 1 else 0))
    return SQRT3 * (cols + (0.5 if rows > 1 else 0)), 2 + 1.5 * (rows - 1)


def to_pixel(cell: Hex, size: float) -> tuple[float, float]:
    """Centre of a pointy-top hex of circumradius `size`, y growing downward."""
    return _place(POINTY, size, cell)


def corners(cell: Hex, size: float) -> list[tuple[float, float]]:
    """The six corners of a pointy-top hex, starting at the upper-right corner (NE) clockwise."""
    cx, cy = _place(POINTY, size, cell)
    return hex_corners(cx, cy, size, POINTY)


def edge_corners(direction: int) -> tuple[int, int]:
    """Indices into `corners()` of the side facing `direction` (E side = corners 0 and 1)."""
    return {0: (0, 1), 1: (5, 0), 2: (4, 5), 3: (3, 4), 4: (2, 3), 5: (1, 2)}[direction % 6]


# Exact corner ids: integers, so two hexes' shared corners compare equal with no float noise.
# A corner id (X, Y) sits at pixel (X * size * sqrt3 / 2, Y * size / 2).
Vertex = tuple[int, int]
_CORNER_STEPS: tuple[Vertex, ...] = ((1, -1), (1, 1), (0, 2), (-1, 1), (-1, -1), (0, -2))


def vertex_ids(cell: Hex) -> list[Vertex]:
    """Exact ids of the six corners, in the same order as `corners()`."""
    x, y = 2 * cell[0] + cell[1], 3 * cell[1]
    return [(x + dx, y + dy) for dx, dy in _CORNER_STEPS]


def side_vertices(cell: Hex, direction: int) -> tuple[Vertex, Vertex]:
    """The two corner ids of the side of `cell` facing `direction`."""
    ids = vertex_ids(cell)
    i, j = edge_corners(direction)
    return (ids[i], ids[j])


def vertex_to_pixel(vertex: Vertex, size: float) -> tuple[float, float]:
    return (vertex[0] * size * SQRT3 / 2.0, vertex[1] * size / 2.0)


def vertex_cells(vertex: Vertex) -> list[Hex]:
    """The three hexes meeting at a corner id, sorted."""
    x, y = vertex
    out = set()
    for dx, dy in _CORNER_STEPS:
        if (y - dy) % 3 == 0:
            r = (y - dy) // 3
            if (x - dx - r) % 2 == 0:
                out.add(((x - dx - r) // 2, r))
    return sorted(out)


def edge_key(a: Hex, b: Hex) -> tuple[Hex, Hex]:
    """One name for the side between two neighbouring hexes, whichever way round they are given."""
    return (a, b) if a <= b else (b, a)
