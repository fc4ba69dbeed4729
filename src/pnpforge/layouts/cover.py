"""Information pages of a build: the cover (title, inventory, 50 mm calibration bar) and a board's
assembly diagram. Drawn through the Canvas protocol with the build's font registry, so the same
page comes out in PDF and SVG and Japanese titles use the embedded CJK font.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from reportlab.pdfbase.pdfmetrics import stringWidth

from pnpforge.fonts import STANDARD, FontRegistry
from pnpforge.generator.parts import Part
from pnpforge.i18n import N_, translator
from pnpforge.layouts.imposition.placement import BoardPart
from pnpforge.layouts.text import draw_layout, layout_text
from pnpforge.output.canvas import RGB, Canvas
from pnpforge.output.page import PageFrame
from pnpforge.phrase import Phrase
from pnpforge.units import mm

INK: RGB = (0.0, 0.0, 0.0)
GREY: RGB = (0.45, 0.45, 0.45)
RULE: RGB = (0.75, 0.75, 0.75)
PART_INKS: tuple[RGB, ...] = ((0.8, 0.1, 0.1), (0.1, 0.3, 0.8), (0.1, 0.55, 0.2), (0.6, 0.2, 0.6))
CALIBRATION_MM = 50.0
REGULAR = STANDARD["sans"]
BOLD = STANDARD["sans-bold"]


@dataclass(frozen=True)
class InventoryLine:
    """One component as the cover lists it."""

    name: str
    title: str
    kind: str
    shape: str
    size_mm: str  # e.g. "63 × 88 mm"
    count: int
    sides: int
    sheets: int  # how many sheets carry pieces of it (a shared sheet counts for each component on it)
    sheet_numbers: tuple[int, ...] = ()  # which ones, numbered as in each sheet's label
    parts: tuple[Part, ...] = ()  # the pieces per kind, as a rulebook's component list counts them


def sheet_list(numbers: Sequence[int]) -> str:
    """Sheet numbers as ranges: (3, 4, 5, 7) -> '3–5, 7'."""
    spans: list[list[int]] = []
    for n in sorted(set(numbers)):
        if spans and n == spans[-1][1] + 1:
            spans[-1][1] = n
        else:
            spans.append([n, n])
    return ", ".join(str(a) if a == b else f"{a}{', ' if b == a + 1 else '–'}{b}" for a, b in spans)


# The cover's own words, said in the build's language (a game's texts come from its spec).
COMPONENT, KIND, SIZE, SIDES, SHEETS, TOTAL = (
    N_("Component"),
    N_("Kind"),
    N_("Size"),
    N_("Sides"),
    N_("Sheets"),
    N_("Total"),
)
COUNT = Phrase.word("Count", N_("Count (a column of the cover)"))  # "Count" alone is the table page's button
SHEET_COUNT = (N_("{count} sheet"), N_("{count} sheets"))  # the Sheets column's total: one, more
SHARED = N_(
    "Sheets: the number in each sheet's label (a back has its front's number); components with the same "
    "number share that sheet. On a shared sheet, cut the blocks apart first, then each along its marks."
)
BAR = N_('This bar must measure exactly 50 mm. If not, print at 100% ("actual size", not "fit to page").')
ASSEMBLY = N_("Assembly: {title}")
ASSEMBLY_PAGES = N_(
    "{pages} pages, {rows} row(s) × {cols} column(s); {kind} {width} × {height} mm, pages overlap by at "
    "least {overlap} mm. Trim each page along the crop marks on its left and top edges, lay it over its "
    "neighbour matching the round alignment targets, and glue."
)
ASSEMBLY_PARTS = N_(
    "Each {kind} prints in {parts} parts, several to a page, each labelled with its number and part (e.g. "
    "1·A2); {kind} {width} × {height} mm, parts overlap by {overlap} mm. Cut out every part along its crop "
    "marks, lay each part over the one before it matching the round alignment targets, and glue."
)
KIND_AND_SHAPE = N_("{kind} {shape}")  # the Kind column: "card rect"
# a component's kinds and shapes as the Kind column says them (model.Kind, model.Shape)
KINDS = (N_("card"), N_("tile"), N_("token"), N_("die"), N_("board"), N_("sheet"))
SHAPES = (N_("rect"), N_("square"), N_("hex"), N_("circle"), N_("polyhex"))


def _cell(
    canvas: Canvas,
    fonts: FontRegistry,
    text: str,
    x: float,
    y: float,
    w: float,
    size: float,
    draw: bool = True,
) -> float:
    """A table cell's text wrapped to `w` with its top at `y` (never shrunk below the floor); its height."""
    layout = layout_text(
        text, x, y, w, 10_000, fonts=fonts, font=REGULAR, size=size, align="left", valign="top", fit="wrap"
    )
    if draw:
        draw_layout(canvas, layout, INK)
    return layout.height


def _line(
    canvas: Canvas,
    fonts: FontRegistry,
    text: str,
    x: float,
    y: float,
    w: float,
    size: float,
    font: str = REGULAR,
    colour: RGB = INK,
    align: Literal["left", "center", "right"] = "left",
) -> float:
    """Draw one line of text with its top at `y`; returns the y below it."""
    layout = layout_text(
        text, x, y, w, size * 1.5, fonts=fonts, font=font, size=size, align=align, valign="top", fit="shrink"
    )
    draw_layout(canvas, layout, colour)
    return y + size * 1.5


def draw_calibration_bar(
    canvas: Canvas, fonts: FontRegistry, x: float, y: float, lang: str = "en"
) -> tuple[float, float]:
    """A 50 mm bar in 10 mm blocks with a caption; returns its drawn (x, width) for checking."""
    length = mm(CALIBRATION_MM)
    height = mm(4)
    for k in range(5):
        fill = INK if k % 2 == 0 else (1.0, 1.0, 1.0)
        canvas.polygon(
            [
                (x + mm(10 * k), y),
                (x + mm(10 * k + 10), y),
                (x + mm(10 * k + 10), y + height),
                (x + mm(10 * k), y + height),
            ],
            fill,
            None,
        )
    half = 0.25  # the frame's stroke is inset so its outer edge is the bar's true length
    frame = [(x + half, y + half), (x + length - half, y + half), (x + length - half, y + height - half)]
    canvas.polygon([*frame, (x + half, y + height - half)], None, INK, 2 * half)
    for k in range(6):
        canvas.polygon(
            [(x + mm(10 * k), y + height), (x + mm(10 * k), y + height + mm(1.5))], None, INK, 0.5, False
        )
        _line(
            canvas,
            fonts,
            str(10 * k),
            x + mm(10 * k) - mm(5),
            y + height + mm(1.8),
            mm(10),
            6,
            align="center",
        )
    _line(
        canvas,
        fonts,
        translator(lang)(BAR),
        x + length + mm(5),
        y - mm(0.5),
        mm(120),
        8,
    )
    return x, length


def draw_cover(
    canvas: Canvas,
    frame: PageFrame,
    fonts: FontRegistry,
    title: str,
    subtitle: str,
    lines: Sequence[InventoryLine],
    notes: Sequence[str],
    lang: str = "en",
) -> None:
    """Title, the inventory table (component, kind, size, count, sheets), notes and the calibration bar.

    Each row is as tall as its tallest cell (a long name wraps onto a second line inside its own row);
    the rows' text shrinks, down to the legibility floor, when a long list would not fit otherwise.
    """
    say = translator(lang)
    left = frame.margin + mm(10)
    width = frame.width - 2 * left
    y = frame.margin + mm(12)
    title_font = fonts.cjk if fonts.cjk and any(ord(ch) > 0x2FFF for ch in title) else BOLD
    y = _line(canvas, fonts, title, left, y, width, 24, font=title_font)
    y = _line(canvas, fonts, subtitle, left, y + mm(1), width, 10, colour=GREY) + mm(6)
    columns = [(say(k), at) for k, at in ((COMPONENT, 0.0), (KIND, 0.38), (SIZE, 0.53))]
    columns += [(say(k), at) for k, at in ((COUNT, 0.72), (SIDES, 0.79), (SHEETS, 0.86))]
    numbered = any(item.sheet_numbers for item in lines)
    notes = [say(SHARED), *notes] if numbered else list(notes)
    for label, at in columns:
        _line(canvas, fonts, label, left + at * width, y, width * 0.07 if at else width * 0.3, 9, font=BOLD)
    y += mm(5.5)
    canvas.polygon([(left, y - mm(1)), (left + width, y - mm(1))], None, INK, 0.5, False)
    bar_y = frame.height - frame.margin - mm(25)
    note_room = sum(_cell(canvas, fonts, n, left, 0, width, 9, draw=False) + mm(1.5) for n in notes)
    room = bar_y - y - mm(14) - note_room
    spans = [(at, nxt) for (_, at), nxt in zip(columns, [*[c[1] for c in columns[1:]], 1.0], strict=True)]
    rows = [_cells(item, say, numbered) for item in lines]

    def heights(size: float) -> list[float]:
        return [
            max(
                _cell(canvas, fonts, text, 0, 0, (nxt - at) * width - mm(2), size, draw=False)
                for text, (at, nxt) in zip(cells, spans, strict=True)
            )
            + mm(1.8)
            for cells in rows
        ]

    def part_step(size: float) -> float:
        return mm(5) * size / 9

    parts = sum(len(item.parts) for item in lines)
    size = 9.0
    while size > 6.0 and sum(heights(size)) + parts * part_step(size) > room:
        size = max(6.0, size - 0.5)  # a long list: smaller rows, never under the floor
    total_sheets = 0
    total_pieces = 0
    for item, cells, row_height in zip(lines, rows, heights(size), strict=True):
        for text, (at, nxt) in zip(cells, spans, strict=True):
            _cell(canvas, fonts, text, left + at * width, y, (nxt - at) * width - mm(2), size)
        y += row_height
        y = _part_rows(canvas, fonts, item.parts, left, y, width, part_step(size), size)
        canvas.polygon([(left, y - mm(1)), (left + width, y - mm(1))], None, RULE, 0.3, False)
        total_sheets += item.sheets
        total_pieces += item.count
    if numbered:  # a shared sheet is one sheet, however many components it carries
        total_sheets = len({n for item in lines for n in item.sheet_numbers})
    y += mm(1)
    _line(canvas, fonts, say(TOTAL), left, y, width * 0.3, 9, font=BOLD)
    _line(canvas, fonts, str(total_pieces), left + 0.72 * width, y, width * 0.07, 9, font=BOLD)
    counted = SHEET_COUNT[total_sheets != 1]
    total = say(Phrase(counted, count=total_sheets)) if numbered else str(total_sheets)
    _line(canvas, fonts, total, left + 0.86 * width, y, width * 0.14, 9, font=BOLD)
    y += mm(10)
    for note in notes:
        y += _cell(canvas, fonts, note, left, y, width, 9) + mm(1.5)
    draw_calibration_bar(canvas, fonts, left, bar_y, lang)


def _cells(item: InventoryLine, say: Callable[[str], str], numbered: bool) -> list[str]:
    """One inventory row's cells, in the cover's language."""
    label = item.title if item.title and item.title != item.name else item.name
    shown = f"{label} ({item.name})" if label != item.name else label
    kind = say(Phrase(KIND_AND_SHAPE, kind=Phrase.word(item.kind), shape=Phrase.word(item.shape)))
    sheets = sheet_list(item.sheet_numbers) if numbered else str(item.sheets)
    return [shown, kind, item.size_mm, str(item.count), str(item.sides), sheets]


def _part_rows(
    canvas: Canvas,
    fonts: FontRegistry,
    parts: Sequence[Part],
    left: float,
    y: float,
    width: float,
    step: float,
    size: float,
) -> float:
    """A component's parts under it, indented, each count in the Count column; returns the y below."""
    for part in parts:
        _line(canvas, fonts, f"· {part.title}", left + mm(4), y, 0.72 * width - mm(6), size, colour=GREY)
        _line(canvas, fonts, str(part.count), left + 0.72 * width, y, 0.07 * width, size, colour=GREY)
        y += step
    return y


def draw_assembly(
    canvas: Canvas,
    frame: PageFrame,
    fonts: FontRegistry,
    title: str,
    parts: Sequence[BoardPart],
    lang: str = "en",
    draw_board: Callable[[Canvas], None] | None = None,
    kind: str = "board",
) -> None:
    """The board (or a card too long for its bleed: `kind`, a KINDS word) drawn small (`draw_board` draws
    its face at full size, trim top-left at the origin) with each part's window outlined and labelled, in
    assembly order."""
    left = frame.margin + mm(10)
    width = frame.width - 2 * left
    y = frame.margin + mm(12)
    say = translator(lang)
    heading = say(Phrase(ASSEMBLY, title=title))
    title_font = fonts.cjk if fonts.cjk and any(ord(ch) > 0x2FFF for ch in heading) else BOLD
    y = _line(canvas, fonts, heading, left, y, width, 16, font=title_font)
    if not parts:
        return
    board_w, board_h = parts[0].board_size
    overlap = parts[0].overlap
    measures = {
        "kind": Phrase.word(kind),
        "width": f"{board_w / mm(1):.0f}",
        "height": f"{board_h / mm(1):.0f}",
        "overlap": f"{overlap / mm(1):.0f}",
    }
    if any(part.copies for part in parts):  # packed: several parts to a page
        text = say(Phrase(ASSEMBLY_PARTS, parts=len(parts), **measures))
    else:
        text = say(
            Phrase(ASSEMBLY_PAGES, pages=len(parts), rows=parts[0].rows, cols=parts[0].cols, **measures)
        )
    layout = layout_text(
        text, left, y + mm(2), width, mm(20), fonts=fonts, font=REGULAR, size=9, align="left", valign="top"
    )
    draw_layout(canvas, layout, INK)
    y += mm(26)
    room_w, room_h = width, frame.height - frame.margin - mm(10) - y
    scale = min(room_w / board_w, room_h / board_h)
    ox = left + (room_w - board_w * scale) / 2
    outline = [
        (ox, y),
        (ox + board_w * scale, y),
        (ox + board_w * scale, y + board_h * scale),
        (ox, y + board_h * scale),
    ]
    if draw_board is None:
        canvas.polygon(outline, (0.95, 0.95, 0.95), INK, 1.0)
    else:  # the board itself, small: the parts are found on it by its own art
        canvas.save()
        canvas.clip(outline)
        canvas.translate(ox, y)
        canvas.scale(scale, scale)
        draw_board(canvas)
        canvas.restore()
        canvas.polygon(outline, None, INK, 1.0)
    for k, part in enumerate(parts):
        x0, y0, x1, y1 = (v * scale for v in part.window)
        box = [(ox + x0, y + y0), (ox + x1, y + y0), (ox + x1, y + y1), (ox + x0, y + y1)]
        shade = PART_INKS[k % len(PART_INKS)]
        canvas.polygon(box, None, shade, 1.2, dash=(4, 2))
        size = max(8.0, min(28.0, (x1 - x0) / 5, (y1 - y0) * 0.6))
        cx, cy = ox + (x0 + x1) / 2, y + (y0 + y1) / 2
        half = stringWidth(part.label, BOLD, size) / 2
        pad = size * 0.3  # a white chip under the label keeps it readable on the board's art
        box_h = size * 1.1
        canvas.rounded_rect(
            cx - half - pad, cy - box_h / 2, 2 * (half + pad), box_h, pad, (1, 1, 1), shade, 0.8
        )
        canvas.text(cx - half, cy + size * 0.36, part.label, BOLD, size, shade)
