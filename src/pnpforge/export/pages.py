"""Drawing export pages: one PDF page per item, each with its own size, through the build's canvas.

Every page is drawn by the same face code as the home sheets (pnpforge.layouts.faces on a PdfCanvas);
only the page differs: a piece side alone on a page of trim + bleed, with /TrimBox and /BleedBox, or
a virtual-table sheet of faces cut at their trim. Reportlab runs in invariant mode: same input, same bytes.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from pnpforge.layouts.faces.context import RenderContext
from pnpforge.layouts.faces.render import draw_side
from pnpforge.output.canvas import Canvas

from .sides import Side


@dataclass(frozen=True)
class Page:
    """A page of `width` × `height` points; `bleed` > 0 sets trim and bleed boxes that far inside."""

    width: float
    height: float
    bleed: float
    draw: Callable[[Canvas], None]


def side_page(side: Side, ctx: RenderContext, reuse: bool = False, key: str | None = None) -> Page:
    """`side` alone on a page of its trim plus the spec's bleed on every edge.

    With `reuse`, the side is recorded once (as `key`, else its file stem) and placed again on later
    pages: a row's copies, a shared back."""
    bleed = ctx.bleed
    key = f"export:{key or side.stem}"

    def draw(canvas: Canvas) -> None:
        canvas.translate(bleed, bleed)
        if not reuse:
            draw_side(canvas, side.piece, side.drawn, ctx)
            return
        if canvas.begin_reuse(key):
            draw_side(canvas, side.piece, side.drawn, ctx)
            canvas.end_reuse()
        canvas.reuse(key)

    return Page(side.piece.width + 2 * bleed, side.piece.height + 2 * bleed, bleed, draw)


def render(pages: Sequence[Page], title: str, font: str | None = None) -> bytes:
    """The PDF bytes of `pages` (nothing is written here).

    `font` replaces Helvetica as the font reportlab names at the top of every page (a print shop's
    PDF must name only embedded fonts)."""
    from pnpforge.output.pdf import binary_streams, new_document
    from pnpforge.output.pdf_canvas import PdfCanvas

    buffer = io.BytesIO()
    with binary_streams():
        first = pages[0]
        rl = new_document(buffer, (first.width, first.height), title, font)
        canvas = PdfCanvas(rl, first.height)
        for number, page in enumerate(pages):
            if number:
                rl.showPage()  # PdfCanvas writes any pending text first
                rl.setPageSize((page.width, page.height))
                canvas.page_height = page.height
                rl.translate(0, page.height)  # y down from the top-left, as PdfCanvas sets every page
                rl.scale(1, -1)
            if page.bleed > 0:
                b = page.bleed
                rl.setBleedBox([0, 0, page.width, page.height])
                rl.setTrimBox([b, b, page.width - b, page.height - b])
            canvas.save()
            page.draw(canvas)
            canvas.restore()
        rl.showPage()
        rl.save()
    return buffer.getvalue()
