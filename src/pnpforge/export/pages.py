"""Drawing export pages: one PDF page per item, each with its own size, through the build's canvas.

Every page is drawn by the same face code as the home sheets (pnpforge.layouts.faces on a PdfCanvas);
only the page differs: a piece side alone on a page of trim + bleed, with /TrimBox and /BleedBox, or
a virtual-table sheet of faces cut at their trim. Reportlab runs in invariant mode: same input, same bytes.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from pnpforge.build import RowPlace
from pnpforge.generator.pieces import Piece
from pnpforge.generator.sizes import is_kite
from pnpforge.layouts.faces.context import RenderContext
from pnpforge.layouts.faces.render import draw_side
from pnpforge.layouts.shapes import bleed_outline, trim_outline
from pnpforge.output.canvas import Canvas, Point
from pnpforge.output.info import Metadata

from .pdfx import PDF_VERSIONS, X1A, Profile, xmp
from .sides import Side


@dataclass(frozen=True)
class Page:
    """A page of `width` × `height` points; `bleed` > 0 sets the bleed box (the page) and the trim box
    (`trim`: left, top, right, bottom margins from the page edges; `bleed` on every side when None).
    `cut`: the piece's cut line in page points (y down), drawn as CutContour in a shop file."""

    width: float
    height: float
    bleed: float
    draw: Callable[[Canvas], None]
    trim: tuple[float, float, float, float] | None = None
    cut: tuple[Point, ...] | None = None

    @property
    def margins(self) -> tuple[float, float, float, float]:
        return self.trim if self.trim is not None else (self.bleed,) * 4


@dataclass(frozen=True)
class ShopStyle:
    """What a print-shop PDF is: a part of PDF/X (`standard`, export/pdfx.py) printed to a CMYK
    `profile`, with the cut path, and black as pure K when asked."""

    standard: str
    profile: Profile
    info: Metadata
    black_k: bool = False  # text and line art in black written as DeviceCMYK 0 0 0 1


def margins(piece: Piece, bleed: float) -> tuple[float, float, float, float]:
    """How far the bleed outline reaches past the trim box: left, top, right, bottom. A rectangle's
    bleed is the same on every side; a hex keeps the bleed width along its sides, so its tips reach
    further (2.31 mm for 2 mm), as do a polyhex's and a kite's."""
    if bleed <= 0 or (piece.component.shape in ("rect", "square", "circle") and not is_kite(piece.component)):
        return (bleed,) * 4
    xs, ys = zip(*bleed_outline(piece, bleed), strict=True)
    return (-min(xs), -min(ys), max(xs) - piece.width, max(ys) - piece.height)


def is_cut_shape(piece: Piece) -> bool:
    """Pieces a die or cutter follows as a shape, not a rectangle: hexes, rounds, polyhexes, kites."""
    return piece.component.shape not in ("rect", "square") or is_kite(piece.component)


def side_page(side: Side, ctx: RenderContext, reuse: bool = False, key: str | None = None) -> Page:
    """`side` alone on a page of its trim plus the spec's bleed on every edge (the bleed outline's
    extent for shapes, so a hex's tips keep their whole bleed).

    With `reuse`, the side is recorded once (as `key`, else its file stem) and placed again on later
    pages: a row's copies, a shared back."""
    bleed = ctx.bleed
    key = f"export:{key or side.stem}"
    left, top, right, bottom = margins(side.piece, bleed)

    def draw(canvas: Canvas) -> None:
        canvas.translate(left, top)
        ctx.fonts.context = RowPlace(side.piece)  # a character no font has is said at its row
        if not reuse:
            draw_side(canvas, side.piece, side.drawn, ctx)
            return
        if canvas.begin_reuse(key):
            draw_side(canvas, side.piece, side.drawn, ctx)
            canvas.end_reuse()
        canvas.reuse(key)

    cut = None
    if is_cut_shape(side.piece):
        cut = tuple((x + left, y + top) for x, y in trim_outline(side.piece))
    width, height = side.piece.width + left + right, side.piece.height + top + bottom
    return Page(width, height, bleed, draw, (left, top, right, bottom), cut)


def render(pages: Sequence[Page], title: str, shop: ShopStyle | None = None) -> bytes:
    """The PDF bytes of `pages` (nothing is written here); `shop`: as a print shop wants it."""
    from pnpforge.output.pdf import binary_streams, new_document
    from pnpforge.output.pdf_canvas import PdfCanvas

    buffer = io.BytesIO()
    with binary_streams():
        first = pages[0]
        if shop is None:
            rl = new_document(buffer, (first.width, first.height), title)
        else:
            version = PDF_VERSIONS[shop.standard]
            rl = new_document(buffer, (first.width, first.height), shop.info, pdf_version=version)
        canvas = PdfCanvas(rl, first.height)
        if shop is not None:
            from pnpforge import __version__
            from pnpforge.output.shopcolour import ShopColours, identify_pdfx

            profile = shop.profile
            tool = f"pnpforge {__version__}"
            identify_pdfx(rl, shop.standard, shop.info, profile.data, profile.description, xmp, tool)
            cmyk = profile.data if shop.standard == X1A else None
            canvas.colours = ShopColours(shop.black_k, cmyk)
        for number, page in enumerate(pages):
            if number:
                rl.showPage()  # PdfCanvas writes any pending text first
                rl.setPageSize((page.width, page.height))
                canvas.page_height = page.height
                rl.translate(0, page.height)  # y down from the top-left, as PdfCanvas sets every page
                rl.scale(1, -1)
            if page.bleed > 0:
                left, top, right, bottom = page.margins
                rl.setBleedBox([0, 0, page.width, page.height])
                rl.setTrimBox([left, bottom, page.width - right, page.height - top])  # PDF boxes: y up
            canvas.save()
            page.draw(canvas)
            canvas.restore()
            if shop is not None and page.cut is not None:
                from pnpforge.output.shopcolour import draw_cut_contour

                canvas.flush()
                draw_cut_contour(rl, page.cut)
        rl.showPage()
        rl.save()
    return buffer.getvalue()
