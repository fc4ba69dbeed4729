"""Die nets: cubes as a cross of six faces, d10s as a strip of ten kites, each with glue tabs."""

from __future__ import annotations

import math
from dataclasses import replace
from typing import TYPE_CHECKING

from pnpforge.geometry.kite import KITE_SHOULDER, KITE_WIDTH
from pnpforge.layouts.imposition.clipping import clip_to_neighbours
from pnpforge.layouts.imposition.grids import grid
from pnpforge.layouts.imposition.placement import (
    EPS,
    KiteNet,
    PageLayout,
    Placement,
    Point,
    art_extent,
    page_area,
    settle,
)
from pnpforge.output.page import PageFrame
from pnpforge.units import mm

if TYPE_CHECKING:  # shapely is imported by the d10-net functions alone
    from shapely.geometry import Polygon
    from shapely.geometry.base import BaseGeometry

GRID = 1e-4  # points; float noise where unioned faces meet would leave them apart
# Die net: faces in a cross, each (column, row, face number); opposite faces sum to 7.
CUBE_NET: tuple[tuple[int, int, int], ...] = (
    (1, 0, 1),
    (0, 1, 2),
    (1, 1, 3),
    (2, 1, 5),
    (3, 1, 4),
    (1, 2, 6),
)
# d10 numbers along the strip (up, down, up, ...): odd faces round one pole, opposite faces sum to 9.
D10_NET: tuple[int, ...] = (1, 2, 3, 0, 5, 8, 7, 6, 9, 4)
TAB_MIN = mm(1.25)  # half the narrowest glue tab worth printing: a tab pinched narrower is cut back


def tab_width(edge: float) -> float:
    return min(mm(6), edge / 4)


def die_nets(count: int, edge: float, frame: PageFrame) -> list[PageLayout]:
    """Cube nets (a cross of six faces with glue tabs), as many per page as fit; one placement per face."""
    tab = tab_width(edge)
    net_w, net_h = 4 * edge + tab, 3 * edge + 2 * tab
    flat = PageFrame(frame.width, frame.height, frame.margin, 0)
    pages = grid(count, net_w, net_h, flat, gutter=2 * frame.bleed + mm(2), allow_turn=False)
    low, high = -frame.bleed, edge + frame.bleed
    square = ((low, low), (high, low), (high, high), (low, high))
    out = []
    for page in pages:
        faces: list[Placement] = []
        nets = []
        for net in page.placements:
            ox, oy = net.x, net.y + tab
            nets.append((ox, oy, edge))
            cells = [
                Placement(net.index, ox + c * edge, oy + r * edge, edge, edge, 0, None, n)
                for c, r, n in CUBE_NET
            ]
            faces += clip_to_neighbours(cells, square, frame.bleed)
        out.append(_settled(PageLayout(faces, (), (), page.block, nets=nets), frame))
    return out


def _settled(page: PageLayout, frame: PageFrame) -> PageLayout:
    """A page of nets moved to keep its faces' bleed on the page: tabs lie on one side of a net only."""
    if not page.placements or page.block is None:
        return page
    faces = art_extent(page, frame.bleed)
    nets = page.block
    art = (min(faces[0], nets[0]), min(faces[1], nets[1]), max(faces[2], nets[2]), max(faces[3], nets[3]))
    return settle(replace(page, block=art), page_area(frame), frame)


def kite_points(long_diagonal: float) -> list[Point]:
    """A d10 face in its trim box (apex up): apex, right shoulder, foot, left shoulder."""
    w, a = KITE_WIDTH * long_diagonal, KITE_SHOULDER * long_diagonal
    return [(w / 2, 0.0), (w, a), (w / 2, long_diagonal), (0.0, a)]


def _kite_faces(long_diagonal: float) -> list[tuple[Polygon, int]]:
    """The strip of a d10 net (origin top-left of the faces' extent): each face and its quarter turns.

    Each down face is its up neighbour turned 180° about their shared edge's midpoint, so the strip is
    straight: up faces one short diagonal apart, down faces between them, shifted half a width.
    """
    from shapely import affinity
    from shapely.geometry import Polygon

    w, a = KITE_WIDTH * long_diagonal, KITE_SHOULDER * long_diagonal
    kite = Polygon(kite_points(long_diagonal))
    down = affinity.rotate(kite, 180, origin=(3 * w / 4, (a + long_diagonal) / 2))
    out: list[tuple[Polygon, int]] = []
    for k in range(5):
        out.append((affinity.translate(kite, k * w, 0), 0))
        out.append((affinity.translate(down, k * w, 0), 2))
    return out


def _kite_guides(
    long_diagonal: float, tab: float
) -> tuple[list[Polygon], list[Polygon], list[tuple[Point, Point]]]:
    """The d10 net's faces, its 11 glue tabs (one per seam) and its 9 + 11 fold lines, net coordinates."""
    import shapely

    faces = [face for face, _ in _kite_faces(long_diagonal)]
    corners = [list(face.exterior.coords)[:4] for face in faces]
    # One tab per seam: each up face's right long edge (apex-shoulder), each down face's right long edge
    # (foot-shoulder, as turned), and the first up face's left short edge, which closes the strip.
    seams: list[tuple[Point, Point]] = []
    for k in range(5):
        up, down = corners[2 * k], corners[2 * k + 1]
        seams.append((up[0], up[1]))
        seams.append((down[1], down[0]))
    seams.append((corners[0][2], corners[0][3]))
    folds = [(corners[2 * k][1], corners[2 * k][2]) for k in range(5)]
    folds += [(corners[2 * k + 1][2], corners[2 * k + 1][3]) for k in range(4)]
    net = shapely.union_all(faces, grid_size=GRID)
    tabs: list[Polygon] = []
    for start, end in seams:
        taken = shapely.union_all([net, *tabs]).buffer(EPS * 10)
        piece = _tab(start, end, tab, net).difference(taken)
        # Opening: where a 36° notch pinches a tab narrower than two `TAB_MIN` its tip is rounded off, so
        # no tab tapers to a sliver; the rest of its outline is kept (intersected with the plain tab).
        piece = piece.buffer(-TAB_MIN, quad_segs=4).buffer(TAB_MIN, quad_segs=4)
        piece = piece.intersection(_tab(start, end, tab, net)).simplify(GRID)
        parts = list(getattr(piece, "geoms", [piece]))
        tabs.append(max(parts, key=lambda g: g.area))
    return faces, tabs, folds + seams


def _tab(start: Point, end: Point, depth: float, net: BaseGeometry) -> Polygon:
    """A trapezoid glue tab `depth` deep on the edge start→end, on the side away from the net."""
    import shapely
    from shapely.geometry import Polygon

    ex, ey = end[0] - start[0], end[1] - start[1]
    length = math.hypot(ex, ey)
    ux, uy = ex / length, ey / length
    nx, ny = uy, -ux
    mid = ((start[0] + end[0]) / 2 + nx * EPS * 100, (start[1] + end[1]) / 2 + ny * EPS * 100)
    if net.contains(shapely.Point(mid)):
        nx, ny = -nx, -ny
    inset = min(depth, length / 3)
    return Polygon(
        [
            start,
            (start[0] + nx * depth + ux * inset, start[1] + ny * depth + uy * inset),
            (end[0] + nx * depth - ux * inset, end[1] + ny * depth - uy * inset),
            end,
        ]
    )


def d10_nets(count: int, long_diagonal: float, frame: PageFrame) -> list[PageLayout]:
    """d10 nets (a straight strip of ten kites with eleven glue tabs), as many per page as fit.

    One placement per face (`face` = number + 1), down faces turned 180°; each face's clip is its bleed
    less its neighbours' trims, so bleed shows only on the net's outer edges.
    """
    import shapely
    from shapely import affinity
    from shapely.geometry import box

    faces, tabs, folds = _kite_guides(long_diagonal, tab_width(long_diagonal))
    x0, y0, x1, y1 = shapely.union_all([*faces, *tabs]).bounds
    flat = PageFrame(frame.width, frame.height, frame.margin, 0)
    pages = grid(count, x1 - x0, y1 - y0, flat, gutter=2 * frame.bleed + mm(2), allow_turn=False)
    w = KITE_WIDTH * long_diagonal
    b = frame.bleed
    out = []
    for page in pages:
        placements: list[Placement] = []
        nets: list[KiteNet] = []
        for net in page.placements:
            dx, dy = net.x - x0, net.y - y0
            moved = [affinity.translate(face, dx, dy) for face in faces]
            half = b + mm(1)
            room = box(net.x - half, net.y - half, net.x + net.width + half, net.y + net.height + half)
            for k, (face, (_, quarter)) in enumerate(zip(moved, _kite_faces(long_diagonal), strict=True)):
                fx, fy, _, _ = face.bounds
                clip: BaseGeometry = face.buffer(b, join_style="mitre", mitre_limit=2.0) if b > 0 else face
                clip = clip.intersection(room)  # never over the next net, whose art is half a gutter away
                clip = clip.difference(shapely.union_all([f for f in moved if f is not face]), grid_size=GRID)
                parts = list(getattr(clip, "geoms", [clip]))
                ring = max(parts, key=lambda g: g.area).exterior.coords[:-1]
                placement = Placement(net.index, fx, fy, w, long_diagonal, quarter, None, D10_NET[k] + 1)
                placements.append(replace(placement, clip=tuple((float(x), float(y)) for x, y in ring)))
            outline = shapely.union_all(moved, grid_size=GRID).exterior.coords[:-1]
            nets.append(
                KiteNet(
                    tuple((float(x), float(y)) for x, y in outline),
                    tuple(
                        tuple(
                            (float(x), float(y))
                            for x, y in affinity.translate(t, dx, dy).exterior.coords[:-1]
                        )
                        for t in tabs
                    ),
                    tuple(((a[0] + dx, a[1] + dy), (c[0] + dx, c[1] + dy)) for a, c in folds),
                )
            )
        out.append(_settled(PageLayout(placements, (), (), page.block, kite_nets=nets), frame))
    return out
