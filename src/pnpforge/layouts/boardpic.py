"""Drawing a `BoardPicture` (validator/picture.py): PDF at physical scale, SVG in millimetres, PNG.

One drawing routine on the Canvas protocol serves every format: the PDF goes through PdfCanvas on a
page exactly the board's size plus margins, the PNG is that PDF rendered by pdfium (what you see is
what prints), the SVG goes through a small svgwrite surface with the same calls.
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from reportlab.pdfbase.pdfmetrics import stringWidth

from pnpforge import limits
from pnpforge.files import write_atomic
from pnpforge.fonts import FontRegistry
from pnpforge.layouts.icon_table import ICON_NAMES
from pnpforge.layouts.icons import draw_icon
from pnpforge.output import png
from pnpforge.output.canvas import RGB, Canvas, Point
from pnpforge.output.pdf import new_document
from pnpforge.output.pdf_canvas import PdfCanvas
from pnpforge.output.svg_canvas import SvgCanvas
from pnpforge.units import mm
from pnpforge.validator.picture import BoardPicture, CellShape, PieceMark, centroid, rgb

MARGIN = 10.0  # mm around the board
TITLE = 10.0  # mm strip above the board
LEGEND = 10.0  # mm strip below it
FONT = "Helvetica"  # a PDF base font: nothing to embed, same metrics everywhere
PNG_DPI = 100
BLACK: RGB = (0.0, 0.0, 0.0)
WHITE: RGB = (1.0, 1.0, 1.0)


@cache
def _fonts() -> FontRegistry:
    return FontRegistry()  # finds (and registers) the Japanese TrueType font once per process


def _latin(text: str) -> bool:
    try:
        text.encode("cp1252")  # what the base font shows
    except UnicodeEncodeError:
        return False
    return True


def _font(text: str) -> str:
    """The base font for text it can show (every English picture, so its bytes never change); the
    embedded Japanese font for the rest (a picture said in Japanese, `validator.picture.said`)."""
    return FONT if _latin(text) else (_fonts().cjk or FONT)


def _texts(pic: BoardPicture) -> list[str]:
    return [
        pic.title,
        *(c.label for c in pic.cells),
        *(p.label for p in pic.pieces),
        *(e[1] for e in pic.legend),
    ]


TITLE_PT, LEGEND_PT = 12, 8  # text sizes, points
LEGEND_ROW = 6.0  # mm between legend rows after the first


@dataclass(frozen=True)
class Frame:
    """Where a picture's parts go, in mm: the page, the board's offset from its own coordinates, and the
    legend's entries row by row (as many rows as the page's width needs)."""

    width: float
    height: float
    ox: float
    oy: float
    legend_rows: list[list[tuple[str, ...]]]

    @property
    def legend_height(self) -> float:
        return LEGEND + LEGEND_ROW * max(0, len(self.legend_rows) - 1)


def _entry_mm(text: str) -> float:
    """A legend entry's width: its swatch, its text and the gap after it."""
    return 6.0 + stringWidth(text, _font(text), LEGEND_PT) / mm(1) + 4.0


def frame(pic: BoardPicture) -> Frame:
    """The page: the board at 1:1 plus margins, as wide as the title or the widest legend entry needs
    (a small board's caption is never cut off), the board centred, the legend wrapped into rows. A
    picture without a title or a legend has no strip for it (the page shows both as text of its own)."""
    x0, y0, x1, y1 = pic.bounds()
    board = x1 - x0
    title = stringWidth(pic.title, _font(pic.title), TITLE_PT) / mm(1)
    entries = [(entry, _entry_mm(entry[1])) for entry in pic.legend]
    inner = max([board, title, *(size - 4.0 for _, size in entries)])  # the last gap may overhang
    rows: list[list[tuple[str, ...]]] = []
    used = inner + 1.0  # start a row at once
    for entry, size in entries:
        if used + size - 4.0 > inner:
            rows.append([])
            used = 0.0
        rows[-1].append(entry)
        used += size
    width = inner + 2 * MARGIN
    top = TITLE if pic.title else 0.0
    legend = LEGEND + LEGEND_ROW * (len(rows) - 1) if rows else 0.0
    height = y1 - y0 + 2 * MARGIN + top + legend
    return Frame(width, height, (width - board) / 2 - x0, MARGIN + top - y0, rows)


def page_size(pic: BoardPicture) -> tuple[float, float]:
    """The page in mm (see `frame`)."""
    layout = frame(pic)
    return layout.width, layout.height


def _luma(colour: RGB) -> float:
    return 0.3 * colour[0] + 0.59 * colour[1] + 0.11 * colour[2]


def _ink_on(colour: RGB) -> RGB:
    return WHITE if _luma(colour) < 0.45 else BLACK


def _text_centred(canvas: Canvas, x: float, y: float, text: str, size: float, colour: RGB) -> None:
    font = _font(text)
    width = stringWidth(text, font, size)
    canvas.text(x - width / 2, y + size * 0.35, text, font, size, colour)


def _regular(cx: float, cy: float, radius: float, sides: int, turn: float = -90.0) -> list[Point]:
    return [
        (
            cx + radius * math.cos(math.radians(turn + 360 * k / sides)),
            cy + radius * math.sin(math.radians(turn + 360 * k / sides)),
        )
        for k in range(sides)
    ]


def draw_mark(canvas: Canvas, icon: str, cx: float, cy: float, size: float, fill: RGB) -> None:
    """A piece or space mark centred on (cx, cy), `size` points across.

    A game names an icon of pnpforge.layouts.icons (temple, obelisk, cube, zeus, ...), drawn in the
    piece's colour with a black outline; the renderer itself knows only generic marks: "tile" (a hexagon),
    "god" (a ringed disc) and, for any other name, a plain disc.
    """
    h = size / 2
    ink = _ink_on(fill)
    line = max(size * 0.06, 0.4)
    if icon in ICON_NAMES:
        draw_icon(canvas, icon, cx - h, cy - h, size, size, fill, BLACK)
    elif icon == "tile":
        canvas.polygon(_regular(cx, cy, h, 6), fill, BLACK, line)
    elif icon == "god":
        canvas.ellipse(cx, cy, h, h, fill, BLACK, line * 2)
        canvas.ellipse(cx, cy, h * 0.55, h * 0.55, None, ink, line)
    else:  # token, badge and anything new: a disc
        canvas.ellipse(cx, cy, h, h, fill, BLACK, line)


def _pattern(canvas: Canvas, cell: CellShape, points: Sequence[Point], ink: RGB) -> None:
    cx, cy = centroid(points)
    radius = min(math.dist((cx, cy), p) for p in points) * 0.5
    if cell.pattern == "waves":
        for dy in (-0.3, 0.3):
            wave = [
                (cx - radius + k * radius / 4, cy + dy * radius + (0.12 * radius if k % 2 else 0.0))
                for k in range(9)
            ]
            canvas.polygon(wave, None, ink, 0.4, closed=False)
    elif cell.pattern == "dots":
        for px, py in _regular(cx, cy, radius * 0.7, 5):
            canvas.ellipse(px, py, 0.5, 0.5, ink, None, 0)
    elif cell.pattern == "hatch":
        for k in (-1, 0, 1):
            off = k * radius * 0.5
            canvas.polygon(
                [(cx - radius + off, cy + radius), (cx + off + radius * 0.2, cy - radius)],
                None,
                ink,
                0.4,
                closed=False,
            )


def draw(canvas: Canvas, pic: BoardPicture, layout: Frame) -> None:
    """The whole picture on a canvas whose units are points, origin at the page's top-left."""

    def at(p: Point) -> Point:
        return (mm(p[0] + layout.ox), mm(p[1] + layout.oy))

    if pic.title:
        _text_centred(canvas, mm(layout.width / 2), mm(TITLE / 2 + 2), pic.title, TITLE_PT, BLACK)
    for cell in pic.cells:
        points = [at(p) for p in cell.points]
        fill = rgb(cell.fill, pic.palette)
        canvas.polygon(points, fill, rgb(cell.stroke, pic.palette), 0.5)
        ink = _ink_on(fill)
        _pattern(
            canvas,
            cell,
            points,
            (ink[0] * 0.6 + fill[0] * 0.4, ink[1] * 0.6 + fill[1] * 0.4, ink[2] * 0.6 + fill[2] * 0.4),
        )
        cx, cy = centroid(points)
        if cell.icon:
            draw_mark(canvas, cell.icon, cx, cy - mm(1.5), mm(4), rgb(cell.icon_colour, pic.palette))
        if cell.label:  # near the bottom corner, clear of the pieces around the centre
            bottom = max(p[1] for p in points)
            _text_centred(canvas, cx, cy + 0.68 * (bottom - cy), cell.label, 5.5, ink)
    for edge in pic.edges:
        if len(edge.points) >= 2:
            canvas.polygon(
                [at(p) for p in edge.points],
                None,
                rgb(edge.colour, pic.palette),
                mm(edge.width),
                closed=False,
                dash=[mm(1.2), mm(0.8)] if edge.dash else None,
            )
    for piece in pic.pieces:
        _piece(canvas, piece, at(piece.at), pic.palette)
    for row, entries in enumerate(layout.legend_rows):
        x = mm(MARGIN)
        y = mm(layout.height - layout.legend_height + LEGEND / 2 + row * LEGEND_ROW)
        for entry in entries:
            _swatch(canvas, x, y, entry, pic.palette)
            canvas.text(x + mm(5), y + 3, entry[1], _font(entry[1]), LEGEND_PT, BLACK)
            x += mm(_entry_mm(entry[1]))


def _swatch(canvas: Canvas, x: float, y: float, entry: tuple[str, ...], palette: dict[str, str]) -> None:
    """A legend entry's swatch, 4 mm across from `x`, centred on `y`: its colour, or a piece's mark."""
    colour, _, *icon = entry
    fill = rgb(colour, palette)
    if icon:  # a piece's mark, as on the board
        draw_mark(canvas, icon[0], x + mm(2), y, mm(4), fill)
    else:
        canvas.rounded_rect(x, y - mm(2), mm(4), mm(4), 0.5, fill, BLACK, 0.4)


def swatch_svg(entry: tuple[str, ...], palette: dict[str, str]) -> str:
    """A legend entry's swatch alone as SVG text (5 mm square), as the legend draws it: for a page that
    shows the legend's words as text beside it."""
    canvas = SvgCanvas(mm(5), mm(5))
    _swatch(canvas, mm(0.5), mm(2.5), entry, palette)
    return canvas.tostring()


def _piece(canvas: Canvas, piece: PieceMark, centre: Point, palette: dict[str, str]) -> None:
    fill = rgb(piece.colour, palette)
    draw_mark(canvas, piece.icon, centre[0], centre[1], mm(piece.size), fill)
    if piece.label:
        _text_centred(
            canvas, centre[0], centre[1], piece.label, max(mm(piece.size) * 0.45, 4.0), _ink_on(fill)
        )


# -- formats -----------------------------------------------------------------------------------------


def pdf_bytes(pic: BoardPicture) -> bytes:
    layout = frame(pic)
    buffer = io.BytesIO()
    rl = new_document(buffer, (mm(layout.width), mm(layout.height)), pic.title)
    draw(PdfCanvas(rl, mm(layout.height)), pic, layout)
    rl.showPage()
    rl.save()
    return buffer.getvalue()


def png_bytes(pic: BoardPicture, dpi: int = PNG_DPI) -> bytes:
    layout = frame(pic)
    size = limits.pixels(mm(layout.width), dpi), limits.pixels(mm(layout.height), dpi)
    limits.check_pixels(*size, "the board picture")  # a board far across the table: refused, not drawn
    return next(png.render(pdf_bytes(pic), dpi))


def svg_text(pic: BoardPicture) -> str:
    layout = frame(pic)
    # millimetres on paper, points inside, as every sheet; font families named only for Japanese text
    fonts = None if all(_latin(t) for t in _texts(pic)) else _fonts()
    canvas = SvgCanvas(mm(layout.width), mm(layout.height), fonts)
    draw(canvas, pic, layout)
    return canvas.tostring()


def render(pic: BoardPicture, path: str | Path) -> None:
    """Write the picture to `path`; the suffix (.pdf, .svg, .png) picks the format."""
    suffix = Path(path).suffix.lower()
    if suffix == ".pdf":
        write_atomic(path, pdf_bytes(pic))
    elif suffix == ".png":
        write_atomic(path, png_bytes(pic))
    elif suffix == ".svg":
        write_atomic(path, svg_text(pic))
    else:
        raise ValueError(f"cannot draw to {path}: expected .pdf, .svg or .png")
