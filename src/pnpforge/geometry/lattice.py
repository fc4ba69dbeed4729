"""Cells cut from a triangular lattice: adjacency, overlaps and corners by integer arithmetic, no shapely.

A convex polygon whose corners snap to the lattice and whose sides run along lattice lines is exactly a
set of unit triangles, and its boundary is a set of unit edges. Then two such cells share an edge of
positive length exactly when they share a boundary unit edge (two unit edges on one line either coincide
or meet at a point), and they overlap with positive area exactly when they share a unit triangle (unit
triangles tile the plane). These are the facts `cells.adjacency` and a shapely overlap test give for the
same polygons, found here by matching integer corners. Any other polygon gets `None` from
`Lattice.cell`: its caller keeps the shapely functions for it.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from typing import TypeVar

from pnpforge.geometry import hexgrid

__all__ = ["hex_lattice", "lattice_adjacency", "overlapping", "LatticeCell", "Triangle"]

K = TypeVar("K", bound=Hashable)
Point = tuple[float, float]
Node = tuple[int, int]  # lattice coordinates: a * e1 + b * e2
Edge = frozenset[Node]
Triangle = frozenset[Node]
SNAP = 1e-9  # largest distance, in units of the lattice side, from a point to the node it snaps to
_LINES = ((1, 0), (0, 1), (-1, 1))  # the three directions of lattice lines, in lattice coordinates


@dataclass(frozen=True)
class LatticeCell:
    """A cell as the unit triangles it covers and the unit edges of its boundary."""

    triangles: frozenset[Triangle]
    edges: frozenset[Edge]


@dataclass(frozen=True)
class Lattice:
    """The triangular lattice spanned by `e1` and `e2`: two vectors of the same length, 60° apart."""

    e1: Point
    e2: Point

    def snap(self, point: Point) -> Node | None:
        """The node at `point` (within SNAP of a side), or None when the point is off the lattice."""
        (x1, y1), (x2, y2) = self.e1, self.e2
        det = x1 * y2 - x2 * y1
        a = (point[0] * y2 - point[1] * x2) / det
        b = (x1 * point[1] - y1 * point[0]) / det
        node = (round(a), round(b))
        dx = point[0] - (node[0] * x1 + node[1] * x2)
        dy = point[1] - (node[0] * y1 + node[1] * y2)
        side_squared = x1 * x1 + y1 * y1
        return node if dx * dx + dy * dy <= SNAP * SNAP * side_squared else None

    def cell(self, points: Sequence[Point]) -> LatticeCell | None:
        """A convex polygon with corners on the lattice and sides along lattice lines as a cell, else None."""
        nodes = [self.snap(p) for p in points]
        if len(nodes) < 3 or None in nodes or len(set(nodes)) != len(nodes):
            return None
        corners: list[Node] = [n for n in nodes if n is not None]
        (a0, b0) = corners[0]
        shape = _cover(tuple((a - a0, b - b0) for a, b in corners))  # translates of one shape share the work
        if shape is None:
            return None

        def moved(parts: tuple[tuple[Node, ...], ...]) -> frozenset[frozenset[Node]]:
            return frozenset(frozenset((a + a0, b + b0) for a, b in part) for part in parts)

        return LatticeCell(moved(shape[0]), moved(shape[1]))


@lru_cache(maxsize=256)
def _cover(
    corners: tuple[Node, ...],
) -> tuple[tuple[tuple[Node, ...], ...], tuple[tuple[Node, ...], ...]] | None:
    """The unit triangles and boundary unit edges of a polygon given by lattice corners, or None."""
    outline = list(corners)
    if not _convex(outline) or not all(_along_line(a, b) for a, b in _sides(outline)):
        return None
    triangles = [t for t in _triangles_near(outline) if _inside(_centroid3(t), outline)]
    counts: dict[tuple[Node, ...], int] = {}
    for triangle in triangles:
        for edge in combinations(triangle, 2):
            counts[edge] = counts.get(edge, 0) + 1
    return tuple(triangles), tuple(e for e, n in counts.items() if n == 1)


def hex_lattice(size: float) -> Lattice:
    """The lattice of the corners and centres of pointy-top hexes of circumradius `size` (hexgrid's)."""
    centre = hexgrid.to_pixel((0, 0), size)
    first, second = hexgrid.corners((0, 0), size)[:2]
    return Lattice(
        (first[0] - centre[0], first[1] - centre[1]), (second[0] - centre[0], second[1] - centre[1])
    )


def lattice_adjacency(cells: Mapping[K, LatticeCell]) -> dict[K, set[K]]:
    """Cells sharing a boundary edge: `cells.adjacency` of the same polygons."""
    by_edge: dict[Edge, list[K]] = {}
    for key, cell in cells.items():
        for edge in cell.edges:
            by_edge.setdefault(edge, []).append(key)
    out: dict[K, set[K]] = {k: set() for k in cells}
    for keys in by_edge.values():
        for a, b in combinations(keys, 2):
            out[a].add(b)
            out[b].add(a)
    return out


def overlapping(cells: Mapping[K, LatticeCell]) -> set[frozenset[K]]:
    """Pairs of cells covering a common triangle: their intersection has positive area."""
    by_triangle: dict[Triangle, list[K]] = {}
    for key, cell in cells.items():
        for triangle in cell.triangles:
            by_triangle.setdefault(triangle, []).append(key)
    return {frozenset((a, b)) for keys in by_triangle.values() for a, b in combinations(keys, 2)}


def _sides(corners: list[Node]) -> Iterable[tuple[Node, Node]]:
    return zip(corners, corners[1:] + corners[:1], strict=True)


def _cross(o: Node, a: Node, b: Node) -> int:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def _convex(corners: list[Node]) -> bool:
    """Strictly convex, turning one way only (the lattice map is linear, so convexity carries over)."""
    n = len(corners)
    turns = {_cross(corners[i], corners[(i + 1) % n], corners[(i + 2) % n]) > 0 for i in range(n)}
    straight = any(_cross(corners[i], corners[(i + 1) % n], corners[(i + 2) % n]) == 0 for i in range(n))
    return len(turns) == 1 and not straight


def _along_line(a: Node, b: Node) -> bool:
    da, db = b[0] - a[0], b[1] - a[1]
    return any(da * line[1] == db * line[0] for line in _LINES)


def _triangles_near(corners: list[Node]) -> Iterable[tuple[Node, Node, Node]]:
    """Every unit triangle with a node in the corners' bounding box (a superset of those inside)."""
    a_values, b_values = [c[0] for c in corners], [c[1] for c in corners]
    for a in range(min(a_values) - 1, max(a_values) + 1):
        for b in range(min(b_values) - 1, max(b_values) + 1):
            yield ((a, b), (a, b + 1), (a + 1, b))  # nodes in sorted order, so edges compare as tuples
            yield ((a, b + 1), (a + 1, b), (a + 1, b + 1))


def _centroid3(triangle: tuple[Node, Node, Node]) -> tuple[int, int]:
    """Three times the centroid (kept whole): never on a lattice line, so never on a side."""
    return (sum(n[0] for n in triangle), sum(n[1] for n in triangle))


def _inside(point3: tuple[int, int], corners: list[Node]) -> bool:
    """`point3 / 3` strictly inside the convex polygon: on the same side of every side."""
    signs = set()
    for a, b in _sides(corners):
        cross = (3 * b[0] - 3 * a[0]) * (point3[1] - 3 * a[1]) - (3 * b[1] - 3 * a[1]) * (
            point3[0] - 3 * a[0]
        )
        signs.add(cross > 0)
        if cross == 0:
            return False
    return len(signs) == 1
