"""Polyhex tiles nested on pages, turned in 60° steps so different outlines interlock."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from pnpforge.geometry import hexgrid
from pnpforge.geometry.hexgrid import SQRT3
from pnpforge.layouts.imposition.placement import (
    EPS,
    PageLayout,
    Placement,
    Point,
    extent,
    page_area,
    settle,
    trim_area,
)
from pnpforge.output.page import PageFrame, Rect

if TYPE_CHECKING:  # shapely is imported by the functions that run a polygon operation
    from shapely.geometry import Polygon
    from shapely.geometry.base import BaseGeometry

OPEN_PAGES = 3  # nesting tries a tile on the last few pages only: older ones rarely have room, and time grows

Cells = Sequence[tuple[int, int]]


@dataclass(frozen=True)
class _Pose:
    """A polyhex turned by `angle`: its cells' centres relative to cell (0, 0)'s centre."""

    angle: float
    centres: tuple[Point, ...]
    apothem: float  # half a hex's flat-to-flat size
    radius: float  # a hex's circumradius
    pivot: Point  # the centre of the unturned trim box, turned, relative to cell (0, 0)'s centre

    @property
    def bounds(self) -> Rect:
        xs = [x for x, _ in self.centres]
        ys = [y for _, y in self.centres]
        return (min(xs) - self.apothem, min(ys) - self.radius, max(xs) + self.apothem, max(ys) + self.radius)


def _poses(cells: Cells, width: float, turn: bool) -> list[_Pose]:
    """The distinct ways a polyhex can lie (60° steps keep pointy hexes pointy), unturned first."""
    across = [q + r / 2 for q, r in cells]
    flat = width / (max(across) - min(across) + 1)  # the trim box is whole hexes wide
    radius = flat / SQRT3
    base = [hexgrid.to_pixel(cell, radius) for cell in cells]
    x0, y0, x1, y1 = _Pose(0, tuple(base), flat / 2, radius, (0, 0)).bounds
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    out: list[_Pose] = []
    seen: set[tuple[Point, ...]] = set()
    for k in range(6 if turn else 1):
        cos, sin = math.cos(math.radians(60 * k)), math.sin(math.radians(60 * k))
        centres = tuple((x * cos - y * sin, x * sin + y * cos) for x, y in base)
        mx, my = min(x for x, _ in centres), min(y for _, y in centres)
        key = tuple(sorted((round(x - mx, 2), round(y - my, 2)) for x, y in centres))
        if key in seen:  # a symmetric tile: the same outline, so keep its art upright
            continue
        seen.add(key)
        out.append(_Pose(60.0 * k, centres, flat / 2, radius, (cx * cos - cy * sin, cx * sin + cy * cos)))
    return out


def _hexagon(centre: Point, apothem: float) -> Polygon:
    from shapely.geometry import Polygon

    r = apothem * 2 / SQRT3
    return Polygon(
        [
            (centre[0] + r * math.cos(math.radians(a)), centre[1] + r * math.sin(math.radians(a)))
            for a in range(-30, 330, 60)
        ]
    )


@dataclass(eq=False)
class _NestPage:
    """Tiles placed so far on one page: their cells (centre, apothem) and placements."""

    cells: list[tuple[Point, float]] = field(default_factory=list)
    placements: list[Placement] = field(default_factory=list)
    _near: dict[float, BaseGeometry] = field(default_factory=dict)
    _blocked: dict[tuple[float, tuple[Point, ...]], BaseGeometry | None] = field(default_factory=dict)

    def near(self, apothem: float, gap: float) -> BaseGeometry | None:
        """Where the centre of a hex of `apothem` may not go: closer than `gap` to a placed hex.

        Two aligned pointy hexes keep `gap` between them exactly when their centres lie outside a
        pointy hex of apothem (sum of apothems + gap), so that is the region, one per placed cell.
        """
        import shapely

        if not self.cells:
            return None
        if apothem not in self._near:
            reach = gap + apothem + 1e-4  # a hair more: touching at exactly `gap` is allowed
            self._near[apothem] = shapely.union_all([_hexagon(c, a + reach) for c, a in self.cells])
        return self._near[apothem]

    def blocked(self, pose: _Pose, gap: float) -> BaseGeometry | None:
        """Where cell (0, 0) of a pose may not go: one of its hexes would be closer than `gap` to a tile."""
        import shapely
        from shapely import affinity

        key = (pose.apothem, pose.centres)
        if key not in self._blocked:
            near = self.near(pose.apothem, gap)
            shifted = [] if near is None else [affinity.translate(near, -x, -y) for x, y in pose.centres]
            self._blocked[key] = shapely.union_all(shifted) if shifted else None
        return self._blocked[key]

    def add(self, placement: Placement, pose: _Pose, at: Point) -> None:
        self.placements.append(placement)
        self.cells += [((at[0] + x, at[1] + y), pose.apothem) for x, y in pose.centres]
        self._near.clear()
        self._blocked.clear()


def _spot(page: _NestPage, pose: _Pose, region: Rect, gap: float) -> tuple[tuple[float, float], Point] | None:
    """The highest (then leftmost) place for a pose on a page: (its trim box's bottom and left, cell 0)."""
    import shapely
    from shapely.geometry import box

    bx0, by0, bx1, by1 = pose.bounds
    lo_x, hi_x = region[0] - bx0, region[2] - bx1
    lo_y, hi_y = region[1] - by0, region[3] - by1
    if hi_x < lo_x - EPS or hi_y < lo_y - EPS:
        return None
    room = box(lo_x - EPS, lo_y - EPS, max(hi_x, lo_x) + EPS, max(hi_y, lo_y) + EPS)
    blocked = page.blocked(pose, gap)
    if blocked is not None:
        room = room.difference(blocked)
    if room.is_empty:
        return None
    corners = [
        (min(max(x, lo_x), hi_x), min(max(y, lo_y), hi_y))
        for x, y in shapely.get_coordinates(shapely.boundary(room)).tolist()
    ]
    best = min(corners, key=lambda p: (round(p[1] + by1, 3), round(p[0] + bx0, 3)))
    return (round(best[1] + by1, 3), round(best[0] + bx0, 3)), best


def nest(
    tiles: Sequence[tuple[Cells, float]],
    frame: PageFrame,
    gap: float,
    region: Rect | None = None,
    turn: bool = True,
) -> list[PageLayout]:
    """Polyhex tiles (cells, trim width) nested on pages `gap` apart, turned in 60° steps when allowed.

    Each tile, in order, goes to the first of the last `OPEN_PAGES` pages with room (else a new one),
    where its pose and place put its bottom highest (then its left edge leftmost); so different
    outlines interlock instead of each taking a bounding box. A tile larger than the region is left out.
    Every tile keeps its whole bleed, a bleed past its trim on every side, inside the art area.
    """
    area = region or page_area(frame)
    b = frame.bleed
    pages = _nest(tiles, gap, (trim_area(region, frame),), turn)
    return [
        settle(
            PageLayout(page.placements, (), (), extent(page.placements, b, 2 * b / SQRT3), outlines=True),
            area,
            frame,
        )
        for page in pages
    ]


def _nest(
    tiles: Sequence[tuple[Cells, float]],
    gap: float,
    areas: Sequence[Rect],
    turn: bool,
    most: int | None = None,
) -> list[_NestPage]:
    """The nesting itself: each tile placed in the first of `areas` with room on a page; given `most`,
    nothing (an empty list) as soon as the tiles take more pages than that."""
    pages: list[_NestPage] = []
    for index, (cells, width) in enumerate(tiles):
        poses = _poses(cells, width, turn)
        for page in [*pages[-OPEN_PAGES:], _NestPage()]:
            found = []
            for room in areas:
                found = [
                    (spot[0], k, spot[1])
                    for k, pose in enumerate(poses)
                    if (spot := _spot(page, pose, room, gap))
                ]
                if found:
                    break
            if not found:
                continue
            _, k, at = min(found)
            pose = poses[k]
            x0, y0, x1, y1 = pose.bounds
            pivot = (at[0] + pose.pivot[0], at[1] + pose.pivot[1]) if pose.angle else None
            placement = Placement(
                index, at[0] + x0, at[1] + y0, x1 - x0, y1 - y0, angle=pose.angle, pivot=pivot
            )
            page.add(placement, pose, at)
            if not any(page is p for p in pages):
                pages.append(page)
                if most is not None and len(pages) > most:
                    return []
            break
    return pages
