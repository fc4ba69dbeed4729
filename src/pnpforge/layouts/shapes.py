"""Piece outlines: a piece's cut and bleed outlines within its trim box (generator/sizes.py), in points.

Piece coordinates have their origin at the top-left of the trim bounding box, y growing down.
Hex sizes are flat-to-flat; polyhex tiles are pointy-top, axial, consistent with geometry/hexgrid.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import TYPE_CHECKING

from pnpforge.components.model import templated
from pnpforge.generator.pieces import Piece
from pnpforge.generator.sizes import SNAP, is_kite, polyhex_corners, size_value
from pnpforge.geometry import hexgrid
from pnpforge.i18n import N_
from pnpforge.layouts.imposition.dice import kite_points
from pnpforge.output.canvas import Point
from pnpforge.phrase import Phrase
from pnpforge.units import parse_length

if TYPE_CHECKING:  # shapely is imported by the polyhex and polygon-bleed functions alone
    from shapely.geometry import Polygon
    from shapely.geometry.base import BaseGeometry

CIRCLE_POINTS = 128  # a 40 mm token's polygon stays within 0.01 mm of the true circle
CORNER_POINTS = 8  # points per rounded quarter corner


@lru_cache(maxsize=512)
def _polyhex_geometry(cells: tuple[tuple[int, int], ...], flat_to_flat: float) -> BaseGeometry:
    """Union of the snapped pointy-top hexes of `cells` (circumradius = flat-to-flat / sqrt 3)."""
    import shapely
    from shapely.geometry import Polygon

    hexes = [Polygon(corners) for corners in polyhex_corners(cells, flat_to_flat)]
    return shapely.union_all(hexes).simplify(SNAP)  # simplify drops collinear points left on shared sides


def _outer(geometry: BaseGeometry) -> Polygon:
    if geometry.geom_type == "Polygon":
        return geometry
    if geometry.geom_type == "MultiPolygon":
        raise ValueError(
            Phrase.word(N_("the cells of a polyhex tile must be connected (they form several pieces)"))
        )
    raise ValueError(Phrase(N_("cannot outline a {shape}"), shape=geometry.geom_type))


def _ring(polygon: Polygon) -> list[Point]:
    coords = list(polygon.exterior.coords)[:-1]
    return [(float(x), float(y)) for x, y in coords]


def hex_points(cx: float, cy: float, radius: float, orientation: str = "pointy") -> list[Point]:
    """Corners of a regular hexagon of circumradius `radius` centred at (cx, cy), clockwise on the page."""
    return hexgrid.hex_corners(cx, cy, radius, hexgrid.orientation(orientation))


def ellipse_points(cx: float, cy: float, rx: float, ry: float, count: int = CIRCLE_POINTS) -> list[Point]:
    return [
        (cx + rx * math.cos(2 * math.pi * k / count), cy + ry * math.sin(2 * math.pi * k / count))
        for k in range(count)
    ]


def rounded_rect_points(x: float, y: float, w: float, h: float, radius: float) -> list[Point]:
    """A rectangle with quarter-circle corners as a polygon (radius clamped to half the short side)."""
    return list(_rounded_rect(x, y, w, h, radius))


@lru_cache(maxsize=1024)  # every card of a deck asks for the same outlines (its trim, its bleed, its bands)
def _rounded_rect(x: float, y: float, w: float, h: float, radius: float) -> tuple[Point, ...]:
    r = max(0.0, min(radius, w / 2.0, h / 2.0))
    if r <= 0:
        return ((x, y), (x + w, y), (x + w, y + h), (x, y + h))
    out: list[Point] = []
    corners = (
        (x + w - r, y + r, -90.0),
        (x + w - r, y + h - r, 0.0),
        (x + r, y + h - r, 90.0),
        (x + r, y + r, 180.0),
    )
    for cx, cy, start in corners:
        for k in range(CORNER_POINTS + 1):
            angle = math.radians(start + 90.0 * k / CORNER_POINTS)
            out.append((cx + r * math.cos(angle), cy + r * math.sin(angle)))
    return tuple(out)


def corner_radius(piece: Piece) -> float:
    """Rounded corners for cards, square tiles and tokens; boards, sheets and die faces stay square."""
    component = piece.component
    if component.kind not in ("card", "tile", "token") or component.shape not in ("rect", "square"):
        return 0.0
    return parse_length(component.corner) if not templated(component.corner) else 0.0


def _polyhex_outline(piece: Piece) -> Polygon:
    from shapely import affinity

    size = parse_length(size_value(piece.component, piece.row, "en") or 0)
    polygon = _outer(_polyhex_geometry(tuple(piece.cells), size))
    minx, miny, _, _ = polygon.bounds
    return affinity.translate(polygon, -minx, -miny)


def trim_outline(piece: Piece) -> list[Point]:
    """The cut line, in piece coordinates."""
    shape, w, h = piece.component.shape, piece.width, piece.height
    if shape == "circle":
        return ellipse_points(w / 2, h / 2, w / 2, h / 2)
    if shape == "hex":
        orientation = piece.component.orientation
        return hex_points(w / 2, h / 2, (h if orientation == "pointy" else w) / 2, orientation)
    if shape == "polyhex":
        return _ring(_polyhex_outline(piece))
    if is_kite(piece.component):
        return kite_points(piece.height)
    return rounded_rect_points(0, 0, w, h, corner_radius(piece))


def bleed_outline(piece: Piece, bleed: float) -> list[Point]:
    """The trim outline grown by `bleed`: rectangles stay rectangles, circles circles, polygons mitred."""
    if bleed <= 0:
        return trim_outline(piece)
    shape, w, h = piece.component.shape, piece.width, piece.height
    if shape == "circle":
        return ellipse_points(w / 2, h / 2, w / 2 + bleed, h / 2 + bleed)
    if shape in ("rect", "square") and not is_kite(piece.component):
        return [(-bleed, -bleed), (w + bleed, -bleed), (w + bleed, h + bleed), (-bleed, h + bleed)]
    from shapely.geometry import Polygon

    polygon = _polyhex_outline(piece) if shape == "polyhex" else Polygon(trim_outline(piece))
    grown = polygon.buffer(bleed, join_style="mitre", mitre_limit=4.0)
    return _ring(_outer(grown))
