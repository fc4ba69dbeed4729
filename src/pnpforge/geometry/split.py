"""Lines along cell edges and the regions they cut a board into.

Two equivalent views: a line is a list of hex sides (pairs of neighbouring cells), which the graph
search in `cells.components` treats as walls; or a shapely LineString, which `split_cells` uses to cut
the union of any polygon cells with `shapely.ops.split` and then counts the cells on each side.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, TypeVar

from pnpforge.geometry import hexgrid
from pnpforge.geometry.cells import parts, snap, union
from pnpforge.geometry.hexgrid import Hex, Vertex

if TYPE_CHECKING:  # shapely is imported by the line functions alone: hex-side walls never need it
    from shapely.geometry import LineString, Polygon

__all__ = ["side_path", "side_vertices"]

K = TypeVar("K")
Side = tuple[Hex, Hex]


def side_vertices(a: Hex, b: Hex) -> tuple[Vertex, Vertex]:
    """Corner ids of the side between neighbouring hexes `a` and `b`; ValueError if they do not touch."""
    direction = hexgrid.direction_between(a, b)
    if direction is None:
        raise ValueError(f"{list(a)} and {list(b)} are not neighbours")
    return hexgrid.side_vertices(a, direction)


def walls(sides: Iterable[Side]) -> set[frozenset[Hex]]:
    """Hex sides as the `cut` pairs `cells.components` never crosses."""
    return {frozenset(side) for side in sides}


def side_path(sides: Sequence[Side]) -> list[Vertex] | None:
    """The corners of one unbroken, non-branching line through every side, in order; None otherwise.

    A line that closes on itself or repeats a side is not a line either.
    """
    if not sides:
        return None
    segments = [side_vertices(a, b) for a, b in sides]
    if len({frozenset(s) for s in segments}) != len(segments):
        return None
    links: dict[Vertex, list[Vertex]] = defaultdict(list)
    for u, v in segments:
        links[u].append(v)
        links[v].append(u)
    if any(len(v) > 2 for v in links.values()):
        return None
    ends = sorted(v for v, n in links.items() if len(n) == 1)
    if len(ends) != 2:
        return None
    path, previous = [ends[0]], None
    while len(path) <= len(segments):
        here = path[-1]
        step = [v for v in links[here] if v != previous]
        if not step:
            break
        previous = here
        path.append(step[0])
    return path if len(path) == len(segments) + 1 else None


def path_line(path: Sequence[Vertex], size: float = 1.0) -> LineString:
    """A corner-id path as a snapped LineString in drawing units."""
    from shapely.geometry import LineString

    return snap(LineString([hexgrid.vertex_to_pixel(v, size) for v in path]))


def sides_line(sides: Sequence[Side], size: float = 1.0) -> LineString | None:
    path = side_path(sides)
    return None if path is None else path_line(path, size)


def split_cells(polygons: Mapping[K, Polygon], line: LineString) -> list[set[K]]:
    """Cut the union of `polygons` along `line` and group the cells by the piece they fall in.

    Every cell lands in exactly one piece (its representative point decides), so a split conserves cells.
    Pieces come largest first.
    """
    from shapely.ops import split

    pieces = parts(split(union(polygons.values()), snap(line)))
    groups: list[set[K]] = [set() for _ in pieces]
    for key, polygon in polygons.items():
        point = polygon.representative_point()
        inside = [i for i, piece in enumerate(pieces) if piece.contains(point)]
        # a point on a cut line belongs to no piece: then the piece covering most of the cell takes it
        best = (
            inside[0]
            if inside
            else max(range(len(pieces)), key=lambda i: pieces[i].intersection(polygon).area)
        )
        groups[best].add(key)
    return sorted((g for g in groups if g), key=len, reverse=True)
