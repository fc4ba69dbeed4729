"""Bleed by construction: art that reaches a piece's cut line is carried on into the bleed.

A face element filled with a colour, a pattern or an image whose outline comes within `TOUCH` of the
trim outline is extended outward, on the sides it touches, to the bleed outline: a cut a little
outside the line then shows the art, not paper. Only the bleed ring (between the trim and the bleed
outline) is painted, so everything inside the trim is drawn exactly as before; strokes stay on the trim.

The extension is the part of the ring facing the touching stretch of the cut line: that stretch is
pushed straight out (a flat-capped buffer), mitred round corners, so a band along the top of a card
bleeds up and round its two corners and no further down the sides than the band goes. The ring is cut
into one quarter per side (from the centre through the trim's corners), so no painted piece has a hole.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from pnpforge.components.model import ImageElement
from pnpforge.generator.pieces import Piece
from pnpforge.generator.sizes import is_kite
from pnpforge.layouts import shapes
from pnpforge.layouts.faces.context import Box, RenderContext
from pnpforge.layouts.faces.images import image_path, image_rect
from pnpforge.layouts.faces.kind import kind_of
from pnpforge.layouts.faces.values import FaceError
from pnpforge.output.canvas import RGB, Canvas, Point
from pnpforge.units import mm

if TYPE_CHECKING:
    from shapely.geometry.base import BaseGeometry

TOUCH = mm(0.5)  # an element this near the cut line is meant to reach it
SEAM = 0.1  # pt: the ring starts this far inside the cut line, so no hairline shows between them
OVERLAP = 0.5  # pt: neighbouring quarters overlap by this much, so no hairline shows between them
Rings = tuple[tuple[Point, ...], ...]


def outline_of(element: Any, box: Box, piece: Piece, ctx: RenderContext) -> list[Point] | None:
    """The painted outline of `element` in piece coordinates (rotation applied), or None: nothing to carry.
    Its kind says what it paints (`ElementKind.outline`); a missing picture raises FaceError."""
    points = kind_of(element).outline(element, box, piece, ctx)
    if points is None or len(points) < 3:
        return None
    if element.rotate:
        cx, cy = box.centre
        a = math.radians(element.rotate)
        cos, sin = math.cos(a), math.sin(a)
        points = [
            (cx + (x - cx) * cos - (y - cy) * sin, cy + (x - cx) * sin + (y - cy) * cos) for x, y in points
        ]
    return points


def _clear_of_edges(piece: Piece, outline: Sequence[Point]) -> bool:
    """True when `outline` surely stays clear of a rectangular piece's cut line (a quick test that
    spares the geometry for the many elements in the middle of a card)."""
    component = piece.component
    if component.shape not in ("rect", "square") or is_kite(component):
        return False
    room = TOUCH + shapes.corner_radius(piece)  # a rounded corner comes inside the trim box
    xs = [x for x, _ in outline]
    ys = [y for _, y in outline]
    inside_x = min(xs) > room and max(xs) < piece.width - room
    return inside_x and min(ys) > room and max(ys) < piece.height - room


def extension(piece: Piece, bleed: float, outline: Sequence[Point]) -> Rings:
    """The pieces of the bleed ring that carry `outline` on past the cut line (empty: it does not reach)."""
    if _clear_of_edges(piece, outline):
        return ()
    trim = tuple(shapes.trim_outline(piece))
    return _extension(
        trim, tuple(shapes.bleed_outline(piece, bleed)), tuple(outline), bleed, piece.width, piece.height
    )


@lru_cache(maxsize=4096)
def _extension(
    trim: tuple[Point, ...],
    grown: tuple[Point, ...],
    outline: tuple[Point, ...],
    bleed: float,
    w: float,
    h: float,
) -> Rings:
    if _surely_clear(trim, outline):  # what the geometry below would find, without importing it
        return ()
    from shapely.geometry import Polygon

    cut = Polygon(trim)
    element = Polygon(outline).buffer(0)
    edge = _stretches(cut.exterior.intersection(element.buffer(TOUCH)), outline)
    if edge.is_empty or edge.length < TOUCH:
        return ()
    reach = bleed * 2 + TOUCH  # past the bleed outline at a mitred tip; clipped to it below
    pushed = edge.buffer(reach, cap_style="flat", join_style="mitre", mitre_limit=4.0)
    ring = Polygon(grown).difference(cut.buffer(-SEAM, join_style="mitre"))
    out: list[tuple[Point, ...]] = []
    for quarter in _quarters(w, h, reach):
        part = pushed.intersection(ring).intersection(quarter)
        out += _polygons(part)
    return tuple(out)


def _stretches(edge: BaseGeometry, outline: Sequence[Point]) -> BaseGeometry:
    """The stretches of the cut line the element touches, each one line, ending where the element ends.

    The cut line's ring starts somewhere: the part of it near an element can come out as two lines
    meeting there, whose flat-capped buffers leave a wedge of paper between them where the line turns
    (a corner arc's first facet); merged, they buffer as one. And the part near an element reaches
    `TOUCH` past the element's end along the line (a top band's stretch ran 0.5 mm down each side, so
    its side bleed hung below the band): each end is brought back to the element's own extent."""
    from shapely.geometry import LineString, MultiLineString
    from shapely.ops import linemerge

    lines = [g for g in getattr(edge, "geoms", [edge]) if g.geom_type == "LineString" and not g.is_empty]
    if not lines:
        return edge
    merged = linemerge(lines) if len(lines) > 1 else lines[0]
    out = []
    for line in getattr(merged, "geoms", [merged]):
        coords = [tuple(c) for c in line.coords]
        if len(coords) >= 2:
            coords[-1] = _to_extent(coords[-2], coords[-1], outline)
            coords[0] = _to_extent(coords[1], coords[0], outline)
            out.append(LineString(coords))
    return MultiLineString(out) if len(out) > 1 else (out[0] if out else edge)


def _to_extent(inner: Point, end: Point, outline: Sequence[Point]) -> Point:
    """`end` of the segment from `inner`, moved back towards `inner` to where the element's outline
    stops along the segment's direction (never past `inner`, never further out)."""
    dx, dy = end[0] - inner[0], end[1] - inner[1]
    length = math.hypot(dx, dy)
    if length < 1e-9:
        return end
    ux, uy = dx / length, dy / length
    reach = max((x - inner[0]) * ux + (y - inner[1]) * uy for x, y in outline)
    if reach >= length:
        return end
    t = max(reach, 0.0)
    return (inner[0] + ux * t, inner[1] + uy * t)


def _surely_clear(trim: Sequence[Point], outline: Sequence[Point]) -> bool:
    """True when every corner of `outline` lies inside the convex cut line `trim`, more than `TOUCH` from
    each of its sides' lines: then the whole element (within its corners' hull), grown by `TOUCH`, stays
    off the cut line, so `_extension` finds no edge. False whenever unsure (a concave or degenerate trim,
    a corner near the line): the geometry decides then. Exact for the polygon the cut line is drawn as."""
    sides = []
    turn = 0.0
    count = len(trim)
    for k in range(count):
        (ax, ay), (bx, by) = trim[k], trim[(k + 1) % count]
        length = math.hypot(bx - ax, by - ay)
        if length > 1e-9:
            sides.append((ax, ay, (bx - ax) / length, (by - ay) / length))
    for k, (_, _, dx, dy) in enumerate(sides):
        _, _, ex, ey = sides[(k + 1) % len(sides)]
        cross = dx * ey - dy * ex
        if turn * cross < 0 and abs(cross) > 1e-12:
            return False  # turns both ways: not convex
        if abs(cross) > 1e-12:
            turn = cross
    if len(sides) < 3 or turn == 0:
        return False
    margin = TOUCH + 1e-6  # float noise never decides
    for ax, ay, dx, dy in sides:
        for px, py in outline:
            inward = (dx * (py - ay) - dy * (px - ax)) * (1 if turn > 0 else -1)
            if inward <= margin:
                return False
    return True


def _quarters(w: float, h: float, reach: float) -> list[BaseGeometry]:
    """The four triangles from the trim's centre out through its corners, far past the bleed."""
    from shapely.geometry import Polygon

    cx, cy = w / 2, h / 2
    far = 4 * (w + h + reach)
    corners = [(cx + (x - cx) * far, cy + (y - cy) * far) for x, y in ((0, 0), (w, 0), (w, h), (0, h))]
    return [
        Polygon([(cx, cy), corners[k], corners[(k + 1) % 4]]).buffer(OVERLAP, join_style="mitre")
        for k in range(4)
    ]


def _polygons(geometry: BaseGeometry) -> list[tuple[Point, ...]]:
    parts = getattr(geometry, "geoms", [geometry])
    out = []
    for part in parts:
        if part.geom_type == "Polygon" and part.area > 1e-3:
            coords = list(part.exterior.coords)[:-1]
            out.append(tuple((float(x), float(y)) for x, y in coords))
        elif part.geom_type in ("MultiPolygon", "GeometryCollection"):
            out += _polygons(part)
    return out


def paint_extension(
    canvas: Canvas, outline: Sequence[Point], rings: Rings, fill: RGB | None, pattern: str, ink: RGB | None
) -> None:
    """Fill each ring piece with the element's colour and its pattern carried on from `outline` (no
    stroke: strokes stay on the trim)."""
    from pnpforge.layouts.faces.patterns import draw_pattern

    for points in rings:
        if fill is not None:
            canvas.polygon(points, fill, None)
        if pattern != "none" and ink is not None:
            draw_pattern(canvas, outline, pattern, ink, area=points)


def carry_into_bleed(canvas: Canvas, element: Any, box: Box, piece: Piece, ctx: RenderContext) -> None:
    """Paint the bleed beyond `element` where it reaches the cut line (before the element itself), when its
    kind bleeds."""
    if ctx.bleed <= 0 or not kind_of(element).bleeds:
        return
    if isinstance(element, ImageElement):
        try:
            rect = image_rect(element, box, ctx)
        except FaceError:  # no such picture: the element's own drawing says so (or, in a draft, stands in)
            return
        outline = outline_of(element, box, piece, ctx) if not element.rotate else None
        if outline is None:
            return
        rings = extension(piece, ctx.bleed, outline)
        if rings:
            _stretch_image(canvas, element, rect, rings, ctx)
        return
    from pnpforge.layouts.faces.elements import paint

    fill, _, _, pattern, ink = paint(element)
    if fill is None and pattern == "none":
        return
    carried = _carried(element, box, piece, ctx)
    if carried is not None:
        paint_extension(canvas, *carried, fill, pattern, ink)


CARRIED_KEPT = 4096  # elements whose outline and extension are remembered (a deck repeats a few)
_kept: dict[tuple[int, int, float, float, float], tuple[Any, Any, tuple[list[Point], Rings] | None]] = {}


def _carried(element: Any, box: Box, piece: Piece, ctx: RenderContext) -> tuple[list[Point], Rings] | None:
    """The painted outline of `element` (not a picture) and the bleed ring pieces that carry it on (None:
    it paints no outline), worked out once per element and piece size and shape: every card of a deck
    carries its bands and frames alike. Kept by identity (models are unhashable), as templates.py keeps
    filled elements: `box` follows from the element and the piece's size. A polyhex's outline is its
    own cells': worked out each time."""
    component = piece.component
    key = (id(element), id(component), piece.width, piece.height, ctx.bleed)
    hit = _kept.get(key)
    if hit is not None and hit[0] is element and hit[1] is component:
        return hit[2]
    outline = outline_of(element, box, piece, ctx)
    found = None if outline is None else (outline, extension(piece, ctx.bleed, outline))
    if component.shape != "polyhex":
        if len(_kept) >= CARRIED_KEPT:
            _kept.clear()
        _kept[key] = (element, component, found)
    return found


def _stretch_image(
    canvas: Canvas, element: ImageElement, rect: Box, rings: Rings, ctx: RenderContext
) -> None:
    """The picture stretched over its own rectangle grown by the ring pieces, seen only in them."""
    xs = [x for ring in rings for x, _ in ring] + [rect.x, rect.x + rect.w]
    ys = [y for ring in rings for _, y in ring] + [rect.y, rect.y + rect.h]
    path = image_path(element.src, ctx)
    for points in rings:
        canvas.save()
        canvas.clip(points)
        canvas.image(path, min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))
        canvas.restore()
