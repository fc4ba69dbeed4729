"""Board cells as polygons: snapping, adjacency by shared edge, connected groups, the outer edge.

A cell is any hashable key (a hex `(q, r)`, a rhombus id, ...) with a shapely polygon. Two cells are
adjacent only when they share an edge of positive length: touching at a corner is not adjacency
(docs/setups.md, "Coordinates"). Every polygon is snapped to a fixed grid before unions so that
float noise never splits one board into a MultiPolygon. Hex boards also get plain-graph fast paths: the rules
engines call those in their hot loops, and the shapely versions are there for any polygon shape.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Hashable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from pnpforge.geometry import hexgrid
from pnpforge.geometry.hexgrid import Hex

if TYPE_CHECKING:  # shapely is imported by the polygon functions alone: hex boards never need it
    from shapely.geometry import Polygon
    from shapely.geometry.base import BaseGeometry

__all__ = [
    "adjacency",
    "components",
    "hex_adjacency",
    "hex_outer_edge",
    "parts",
    "polygon_cell",
    "snap",
    "union",
]

K = TypeVar("K", bound=Hashable)
GRID = 1e-6  # snapping grid in drawing units (mm): far below print precision, far above float noise
EDGE_TOLERANCE = 1e-4  # shared boundary shorter than this is a corner touch, not an edge


def snap(geometry: BaseGeometry, grid: float = GRID) -> BaseGeometry:
    """Round every coordinate to `grid` so shared corners of neighbouring cells are identical."""
    import shapely

    return shapely.set_precision(geometry, grid)


def polygon_cell(points: Iterable[tuple[float, float]]) -> Polygon:
    """A snapped polygon from its corners; raises ValueError for fewer than 3 corners or a self-crossing."""
    from shapely.geometry import Polygon

    polygon = snap(Polygon(list(points)))
    if not isinstance(polygon, Polygon) or polygon.is_empty or not polygon.is_valid:
        raise ValueError("a cell needs at least 3 corners and must not cross itself")
    return polygon


def hex_polygon(cell: Hex, size: float = 1.0) -> Polygon:
    """The snapped pointy-top hexagon of circumradius `size` for an axial cell."""
    from shapely.geometry import Polygon

    return snap(Polygon(hexgrid.corners(cell, size)))


def hex_polygons(cells: Iterable[Hex], size: float = 1.0) -> dict[Hex, Polygon]:
    return {cell: hex_polygon(cell, size) for cell in cells}


def union(polygons: Iterable[BaseGeometry]) -> BaseGeometry:
    """The snapped union of snapped polygons: connected cells give exactly one Polygon."""
    import shapely

    return snap(shapely.union_all([snap(p) for p in polygons]))


def parts(geometry: BaseGeometry) -> list[Polygon]:
    """The separate polygons of a union (one for a connected board)."""
    from shapely.geometry import MultiPolygon, Polygon

    if isinstance(geometry, Polygon):
        return [] if geometry.is_empty else [geometry]
    if isinstance(geometry, MultiPolygon):
        return list(geometry.geoms)
    return [g for g in getattr(geometry, "geoms", []) if isinstance(g, Polygon)]


def shared_edge_length(a: Polygon, b: Polygon) -> float:
    return float(a.boundary.intersection(b.boundary).length)


def adjacency(polygons: Mapping[K, Polygon]) -> dict[K, set[K]]:
    """Cells sharing an edge of positive length, for polygon cells of any shape (STRtree-filtered)."""
    from shapely.strtree import STRtree

    keys = list(polygons)
    geoms = [polygons[k] for k in keys]
    tree = STRtree(geoms)
    out: dict[K, set[K]] = {k: set() for k in keys}
    for i, geom in enumerate(geoms):
        for j in tree.query(geom, predicate="intersects"):
            j = int(j)
            if j <= i:
                continue
            if shared_edge_length(geom, geoms[j]) > EDGE_TOLERANCE:
                out[keys[i]].add(keys[j])
                out[keys[j]].add(keys[i])
    return out


def hex_adjacency(cells: Collection[Hex]) -> dict[Hex, set[Hex]]:
    """The same answer as `adjacency(hex_polygons(cells))`, by axial arithmetic."""
    present = set(cells)
    return {c: {n for n in hexgrid.neighbours(c) if n in present} for c in present}


def components(
    nodes: Iterable[K],
    neighbours: Mapping[K, Collection[K]] | Callable[[K], Iterable[K]],
    cut: Collection[frozenset[K]] = (),
) -> list[set[K]]:
    """Connected groups of `nodes`, never crossing a `cut` pair; largest first, then by smallest member.

    Plain graph search: rivers, camel lines and other walls are pairs of cells in `cut`.
    """
    todo = set(nodes)
    step = neighbours if callable(neighbours) else neighbours.__getitem__
    groups: list[set[K]] = []
    for start in sorted(todo, key=_order):
        if start not in todo:
            continue
        todo.discard(start)
        group, frontier = {start}, [start]
        while frontier:
            cell = frontier.pop()
            for other in step(cell):
                if other in todo and (not cut or frozenset((cell, other)) not in cut):
                    todo.discard(other)
                    group.add(other)
                    frontier.append(other)
        groups.append(group)
    return sorted(groups, key=lambda g: (-len(g), _order(min(g, key=_order))))


def _order(key: Hashable) -> tuple[int, Any, str]:
    """A total order over mixed keys (hex tuples numerically, anything else by repr) for stable output."""
    if isinstance(key, tuple) and all(isinstance(v, int) for v in key):
        return (0, key, "")
    return (1, (), repr(key))


def outer_rings(polygons: Iterable[Polygon]) -> list[list[tuple[float, float]]]:
    """The outer boundary of a board: the exterior ring of each separate part (holes excluded)."""
    return [list(p.exterior.coords) for p in parts(union(polygons))]


def on_outer_edge(polygons: Mapping[K, Polygon]) -> set[K]:
    """Cells with an edge on the board's outer boundary (an edge on an enclosed hole does not count)."""
    import shapely

    rings = shapely.union_all([p.exterior for p in parts(union(polygons.values()))])
    return {k for k, p in polygons.items() if p.boundary.intersection(rings).length > EDGE_TOLERANCE}


def _outside(present: set[Hex]) -> set[Hex]:
    """Empty hexes reachable from beyond the board, within a box one cell larger than it."""
    qs = [c[0] for c in present]
    rs = [c[1] for c in present]
    lo_q, hi_q, lo_r, hi_r = min(qs) - 1, max(qs) + 1, min(rs) - 1, max(rs) + 1
    start = (lo_q, lo_r)
    outside, frontier = {start}, [start]
    while frontier:
        for n in hexgrid.neighbours(frontier.pop()):
            if n not in outside and n not in present and lo_q <= n[0] <= hi_q and lo_r <= n[1] <= hi_r:
                outside.add(n)
                frontier.append(n)
    return outside  # the box's border ring is connected and empty, so no outside pocket is missed


def hex_outer_edge(cells: Collection[Hex]) -> set[Hex]:
    """`on_outer_edge` for hex cells: cells with a side on the outside (enclosed gaps are not outside)."""
    present = set(cells)
    if not present:
        return set()
    outside = _outside(present)
    return {c for c in present if any(n in outside for n in hexgrid.neighbours(c))}


def enclosed_gaps(cells: Collection[Hex]) -> set[Hex]:
    """Empty hexes wholly surrounded by the board (holes)."""
    present = set(cells)
    if not present:
        return set()
    outside = _outside(present)
    return {n for c in present for n in hexgrid.neighbours(c) if n not in present and n not in outside}
