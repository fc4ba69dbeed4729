"""SVG output: one standalone SVG file per page, drawn through A's SvgCanvas with the same page
drawing as the PDF, so both show the same pieces, marks and cover. Sizes are physical (mm).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from pnpforge.fonts import FontRegistry
from pnpforge.output.canvas import Canvas
from pnpforge.output.page import PageFrame

T = TypeVar("T")


def render(
    pages: Sequence[T], frame: PageFrame, fonts: FontRegistry, draw: Callable[[Canvas, T], None]
) -> list[bytes]:
    """The UTF-8 text of one SVG document per page."""
    from pnpforge.output.svg_canvas import SvgCanvas

    documents = []
    for page in pages:
        canvas = SvgCanvas(frame.width, frame.height, fonts)
        draw(canvas, page)
        documents.append(canvas.tostring().encode("utf-8"))
    return documents
