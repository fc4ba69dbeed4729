"""Drawing the built-in icons (layouts/icon_table.py) through the Canvas: crisp at any size, on any backend.

Each icon is fitted square and centred in the box it is drawn in. Details that must read as holes
("knock-outs") are painted in the colour that contrasts with the icon's fill, since a Canvas polygon
has no holes.
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence

from pnpforge.i18n import N_
from pnpforge.layouts.icon_table import ICON_NAMES, ICONS, Ellipse, Poly
from pnpforge.output.canvas import RGB, Canvas, Point
from pnpforge.phrase import Phrase


def unknown_icon(name: str) -> Phrase:
    """The message for an icon name that is not built in, with the nearest names as a hint."""
    near = difflib.get_close_matches(
        name, ICON_NAMES, n=3, cutoff=0.5
    )  # icon names are short: a looser match
    hint = Phrase(N_("did you mean {names}? "), names=near) if near else ""
    return Phrase(
        N_("unknown icon {name} ({hint}expected a built-in icon, listed in docs/elements.md)"),
        name=repr(name),
        hint=hint,
    )


def _knock_colour(fill: RGB | None) -> RGB | None:
    """The colour of details that read as holes: white on a dark icon, black on a light one."""
    if fill is None:
        return None
    luminance = 0.2126 * fill[0] + 0.7152 * fill[1] + 0.0722 * fill[2]
    return (1.0, 1.0, 1.0) if luminance < 0.6 else (0.0, 0.0, 0.0)


def draw_icon(
    canvas: Canvas,
    name: str,
    x: float,
    y: float,
    w: float,
    h: float,
    fill: RGB | None,
    stroke: RGB | None = None,
) -> None:
    """Draw icon `name` fitted (square, centred) into the box; `stroke` outlines its shapes."""
    shapes = ICONS.get(name)
    if shapes is None:
        raise ValueError(unknown_icon(name))
    side = min(w, h)
    if side <= 0:
        return
    ox, oy = x + (w - side) / 2, y + (h - side) / 2
    knock = _knock_colour(fill)
    ink = fill if fill is not None else stroke
    outline = side * 0.025

    def at(points: Sequence[Point]) -> list[Point]:
        return [(ox + u * side, oy + v * side) for u, v in points]

    if stroke is not None:  # outlines first, fills over them: only the union's outer edge shows
        for shape in shapes:
            if shape.knock:
                continue
            if isinstance(shape, Poly):
                canvas.polygon(at(shape.points), None, stroke, outline * 2)
            elif isinstance(shape, Ellipse):
                cx, cy = ox + shape.cx * side, oy + shape.cy * side
                canvas.ellipse(cx, cy, shape.rx * side, shape.ry * side, None, stroke, outline * 2)
            else:
                width = shape.width * side + outline * 2
                canvas.polygon(at(shape.points), None, stroke, width, closed=shape.closed)
    for shape in shapes:
        colour = knock if shape.knock else fill
        if isinstance(shape, Poly):
            canvas.polygon(at(shape.points), colour, None)
        elif isinstance(shape, Ellipse):
            cx, cy = ox + shape.cx * side, oy + shape.cy * side
            canvas.ellipse(cx, cy, shape.rx * side, shape.ry * side, colour, None, 0)
        else:
            line_colour = knock if shape.knock else ink
            if line_colour is not None:
                canvas.polygon(at(shape.points), None, line_colour, shape.width * side, closed=shape.closed)
