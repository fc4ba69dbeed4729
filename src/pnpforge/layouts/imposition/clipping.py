"""Clipping each placement's bleed at the bisectors with its neighbours, clear of their trims."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace

from pnpforge.layouts.imposition.placement import Placement, Point


def clip_to_neighbours(
    placements: list[Placement], outline: Sequence[Point], bleed: float
) -> list[Placement]:
    """Give each placement whose bleed reaches a neighbour a clip cut at their bisectors."""
    if bleed <= 0:
        return placements
    out = []
    for p in placements:
        polygon = [(p.x + u, p.y + v) for u, v in outline]
        cx, cy = p.centre
        reach = math.hypot(p.width, p.height) / 2 + 2 * bleed
        clipped = False
        corners = []
        for q in placements:
            if q is p:
                continue
            qx, qy = q.centre
            d = math.hypot(qx - cx, qy - cy)
            if d > 2 * reach or _gap_between(p, q) >= 2 * bleed - 1e-9:
                continue
            if _diagonal(p, q):
                corners.append(q)
            else:
                polygon = _half_plane(polygon, (cx, cy), (qx, qy))
            clipped = True
        if corners:
            polygon = _notched(polygon, corners)
        out.append(replace(p, clip=tuple(polygon)) if clipped else p)
    return out


def _diagonal(p: Placement, q: Placement) -> bool:
    """Whether q's box lies off a corner of p's (apart, or touching, across and down)."""
    gap_x = max(q.x - (p.x + p.width), p.x - (q.x + q.width))
    gap_y = max(q.y - (p.y + p.height), p.y - (q.y + q.height))
    return gap_x >= -1e-9 and gap_y >= -1e-9


def _notched(polygon: list[Point], corners: Sequence[Placement]) -> list[Point]:
    """The region less the trims of the pieces off its corners: a bisector through a shared corner
    would cut a wedge out of the bleed along both pieces' sides (paper at the end of a short row)."""
    from shapely.geometry import Polygon, box

    region = Polygon(polygon)
    for q in corners:
        region = region.difference(box(q.x, q.y, q.x + q.width, q.y + q.height))
    if not isinstance(region, Polygon) or region.is_empty:
        return polygon
    return [(float(x), float(y)) for x, y in region.exterior.coords[:-1]]


def _gap_between(p: Placement, q: Placement) -> float:
    """A lower bound of the distance between two placements' trim boxes (boxes only)."""
    dx = max(q.x - (p.x + p.width), p.x - (q.x + q.width), 0.0)
    dy = max(q.y - (p.y + p.height), p.y - (q.y + q.height), 0.0)
    return math.hypot(dx, dy)


def _half_plane(polygon: list[Point], own: Point, other: Point) -> list[Point]:
    """Keep the part of a convex polygon nearer to `own` than to `other` (Sutherland–Hodgman, one edge)."""
    nx, ny = other[0] - own[0], other[1] - own[1]
    limit = (nx * (own[0] + other[0]) + ny * (own[1] + other[1])) / 2

    def side(point: Point) -> float:
        return limit - (nx * point[0] + ny * point[1])

    result: list[Point] = []
    for i, current in enumerate(polygon):
        previous = polygon[i - 1]
        sc, sp = side(current), side(previous)
        if sc >= 0:
            if sp < 0:
                result.append(_cross(previous, current, sp, sc))
            result.append(current)
        elif sp >= 0:
            result.append(_cross(previous, current, sp, sc))
    return result


def _cross(a: Point, b: Point, sa: float, sb: float) -> Point:
    t = sa / (sa - sb)
    return (a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1]))
