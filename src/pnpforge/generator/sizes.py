"""The trim box of a piece: a component's size (card preset, WxH, one length, hex or kite) in points.

The generator sizes every piece it makes; layouts/shapes.py draws the outlines within these boxes.
Hex sizes are flat-to-flat; polyhex tiles are pointy-top, axial, consistent with geometry/hexgrid.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any

from pnpforge.components.model import CARD_SIZES_MM, Component, templated
from pnpforge.components.template import fill
from pnpforge.geometry import hexgrid
from pnpforge.geometry.kite import KITE_WIDTH
from pnpforge.i18n import N_
from pnpforge.phrase import Phrase
from pnpforge.units import mm, parse_length, parse_size

SQRT3 = math.sqrt(3.0)
SNAP = 1e-4  # points; hex corners are rounded to this grid before a union
Point = tuple[float, float]


def size_value(component: Component, row: Mapping[str, Any] | None, lang: str) -> str | float | int | None:
    """The component's size as written, a `{field}` in it filled from the data row."""
    size = component.size
    if templated(size):
        if row is None:
            raise ValueError(
                Phrase(
                    N_("component {name}: size {size} needs a data row"),
                    name=repr(component.name),
                    size=repr(size),
                )
            )
        size = fill(str(size), row, lang)
    return size


def _box(size: str | float | int) -> tuple[float, float]:
    """A rectangle size: a card preset, "WxH", or one length for a square."""
    if isinstance(size, str):
        if size.lower() in CARD_SIZES_MM:
            w, h = CARD_SIZES_MM[size.lower()]
            return mm(w), mm(h)
        if "x" in size.lower() or "×" in size:
            return parse_size(size)
    side = parse_length(size)
    return side, side


def hex_extent(flat_to_flat: float, orientation: str) -> tuple[float, float]:
    """Bounding box (w, h) of one regular hexagon."""
    corner_to_corner = flat_to_flat * 2.0 / SQRT3
    return (flat_to_flat, corner_to_corner) if orientation == "pointy" else (corner_to_corner, flat_to_flat)


def snapped(points: Iterable[Point]) -> list[Point]:
    return [(round(x / SNAP) * SNAP, round(y / SNAP) * SNAP) for x, y in points]


def polyhex_corners(cells: Iterable[tuple[int, int]], flat_to_flat: float) -> list[list[Point]]:
    """The snapped corners of each pointy-top hex of a polyhex tile (circumradius = flat-to-flat / sqrt 3)."""
    radius = flat_to_flat / SQRT3
    return [snapped(hexgrid.corners(cell, radius)) for cell in cells]


def is_kite(component: Component) -> bool:
    """d10 faces are kites; every other die face is a square."""
    return component.kind == "die" and component.faces == 10


def piece_size(
    component: Component,
    cells: Iterable[tuple[int, int]] = (),
    *,
    row: Mapping[str, Any] | None = None,
    lang: str = "en",
    page: tuple[float, float] | None = None,
) -> tuple[float, float]:
    """Trim bounding box (w, h) in points. Raises ValueError (with what is expected) on a bad size.

    `row` fills a templated size; `page` is the size of a `sheet` without one.
    """
    size = size_value(component, row, lang)
    if size is None:
        if page is None:
            raise ValueError(
                Phrase(
                    N_("component {name} has no size (expected e.g. size: 63x88mm)"),
                    name=repr(component.name),
                )
            )
        return page
    shape = component.shape
    if is_kite(component):  # size is the kite's long diagonal, apex to foot
        length = parse_length(size)
        return KITE_WIDTH * length, length
    if shape == "hex":
        return hex_extent(parse_length(size), component.orientation)
    if shape == "polyhex":
        cells = list(cells)
        if not cells:
            raise ValueError(Phrase(N_("polyhex component {name} has no cells"), name=repr(component.name)))
        corners = [point for hexagon in polyhex_corners(cells, parse_length(size)) for point in hexagon]
        xs, ys = [x for x, _ in corners], [y for _, y in corners]
        return max(xs) - min(xs), max(ys) - min(ys)  # the union's bounds: its extreme corners
    if shape in ("circle", "square"):
        w, h = _box(size)
        if w != h:
            raise ValueError(
                Phrase(N_("a {shape} takes one length, not {size}"), shape=shape, size=repr(size))
            )
        return w, h
    return _box(size)
