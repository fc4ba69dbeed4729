"""SVG artwork placed on a piece: read once with svglib into reportlab vector drawings."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # reportlab.graphics and svglib load only when a spec has SVG artwork
    from reportlab.graphics.shapes import Drawing
    from reportlab.pdfgen.canvas import Canvas as RlCanvas


@lru_cache(maxsize=64)
def _load(path: Path, mtime: float) -> Drawing:
    from svglib.svglib import svg2rlg  # imported here: only specs with SVG art pay for it

    try:
        drawing = svg2rlg(str(path))
    except Exception as exc:  # lxml and svglib raise many kinds for a broken file
        raise ValueError(f"cannot read SVG image {path.name!r}: {exc}") from None
    if drawing is None or drawing.width <= 0 or drawing.height <= 0:
        raise ValueError(f"cannot read SVG image {path.name!r}: it has no size (expected width and height)")
    return drawing


def svg_drawing(path: Path) -> Drawing:
    """The parsed SVG (cached while the file is unchanged); ValueError when it cannot be read."""
    return _load(path.resolve(), path.stat().st_mtime)


def svg_size(path: Path) -> tuple[float, float]:
    drawing = svg_drawing(path)
    return float(drawing.width), float(drawing.height)


def draw_svg(canvas: RlCanvas, path: Path, w: float, h: float) -> None:
    """Draw the SVG into the box (0, 0)-(w, h) of a y-up reportlab canvas, stretched to fill it."""
    from reportlab.graphics import renderPDF

    drawing = svg_drawing(path)
    canvas.saveState()
    canvas.scale(w / drawing.width, h / drawing.height)
    renderPDF.draw(drawing, canvas, 0, 0)
    canvas.restoreState()
