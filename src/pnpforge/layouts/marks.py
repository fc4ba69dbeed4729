"""Printer's marks drawn around and between pieces: crop marks, cut outlines, board alignment marks,
die-net tabs and folds, and the duplex test page. Geometry comes from imposition; drawing goes
through the Canvas protocol, so PDF and SVG get the same marks.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from pnpforge.layouts.imposition import PageLayout, Rect, tab_width
from pnpforge.output.canvas import RGB, Canvas, Point
from pnpforge.output.page import PageFrame
from pnpforge.units import mm

MARK: RGB = (0.0, 0.0, 0.0)
GUIDE: RGB = (0.45, 0.45, 0.45)
HAIRLINE = 0.25
MARK_GAP = mm(1)  # crop marks start this far beyond the art's bleed
MARK_LENGTH = mm(5)
MIN_MARK = mm(1)  # shorter than this a mark is not worth printing (it would sit in the printer's margin)

Segment = tuple[Point, Point]


def crop_mark_segments(page: PageLayout, frame: PageFrame) -> list[Segment]:
    """Short lines continuing each straight cut line outside its block's art: never over any piece or bleed.

    On a page of several blocks, a mark heading for another block stops half-way across the gap between
    their art (that block's own marks use the other half), and is left out when that leaves less than
    `MIN_MARK`; marks elsewhere run into the page margin as usual.
    """
    rects = [block.block for block in page.blocks if block.block is not None]
    out: list[Segment] = []
    for block in page.blocks:
        if block.block is None:
            continue
        others = [r for r in rects if r is not block.block]
        x0, y0, x1, y1 = block.block
        for x in block.cuts_x:
            out += _mark(x, y0, -1, others, frame.height, vertical=True)
            out += _mark(x, y1, +1, others, frame.height, vertical=True)
        for y in block.cuts_y:
            out += _mark(y, x0, -1, others, frame.width, vertical=False)
            out += _mark(y, x1, +1, others, frame.width, vertical=False)
    return out


def _mark(
    at: float, edge: float, way: int, others: Sequence[Rect], page_end: float, vertical: bool
) -> list[Segment]:
    """One mark on the line `at` (x for a vertical mark), from the art's `edge` outwards (`way` = ±1)."""
    start = edge + way * MARK_GAP
    end = edge + way * (MARK_GAP + MARK_LENGTH)
    end = max(0.0, end) if way < 0 else min(page_end, end)
    for x0, y0, x1, y1 in others:
        low, high, near, far = (x0, x1, y0, y1) if vertical else (y0, y1, x0, x1)
        if not low - HAIRLINE <= at <= high + HAIRLINE:
            continue
        facing = far if way < 0 else near  # the other art's edge that faces this block
        if (facing - edge) * way < 0:
            continue  # that art lies on the other side
        middle = (edge + facing) / 2
        end = max(end, middle) if way < 0 else min(end, middle)
    if (end - start) * way < MIN_MARK:
        return []
    return [((at, start), (at, end))] if vertical else [((start, at), (end, at))]


def draw_crop_marks(canvas: Canvas, page: PageLayout, frame: PageFrame) -> None:
    """Crop marks, recorded once per distinct set and reused: full pages of a deck share theirs."""
    segments = crop_mark_segments(page, frame)
    if not segments:
        return
    key = (
        "marks-"
        + hashlib.sha1(
            repr(
                [(round(a[0], 2), round(a[1], 2), round(b[0], 2), round(b[1], 2)) for a, b in segments]
            ).encode()
        ).hexdigest()[:16]
    )
    if canvas.begin_reuse(key):
        for a, b in segments:
            canvas.polygon([a, b], None, MARK, HAIRLINE, closed=False)
        canvas.end_reuse()
    canvas.reuse(key)


def draw_cut_outlines(canvas: Canvas, outlines: Sequence[Sequence[Point]]) -> None:
    """Hairline cut lines on the trim of hexes, circles and polyhexes (their cut follows no straight line)."""
    for outline in outlines:
        canvas.polygon(outline, None, GUIDE, HAIRLINE)


# ---- boards ----------------------------------------------------------------------------------------


def alignment_points(page: PageLayout) -> list[Point]:
    """Board coordinates of the alignment targets on this page: in the middle of each overlap strip.

    A neighbouring page puts its targets at the same board coordinates, so laying one sheet over the
    other with the targets matched aligns the art.
    """
    part = page.board
    if part is None:
        return []
    wx0, wy0, wx1, wy1 = part.window
    width, height = part.board_size
    step_x = (width - (wx1 - wx0)) / (part.cols - 1) if part.cols > 1 else 0.0
    step_y = (height - (wy1 - wy0)) / (part.rows - 1) if part.rows > 1 else 0.0
    points: list[Point] = []
    ys = [wy0 + (wy1 - wy0) * k / 4 for k in (1, 2, 3)]
    xs = [wx0 + (wx1 - wx0) * k / 4 for k in (1, 2, 3)]
    if part.col > 0:  # overlap with the left neighbour: [wx0, previous window's right edge]
        mid = (wx0 + min(width, wx0 - step_x + (wx1 - wx0))) / 2
        points += [(mid, y) for y in ys]
    if part.col < part.cols - 1:
        mid = (wx0 + step_x + wx1) / 2
        points += [(mid, y) for y in ys]
    if part.row > 0:
        mid = (wy0 + min(height, wy0 - step_y + (wy1 - wy0))) / 2
        points += [(x, mid) for x in xs]
    if part.row < part.rows - 1:
        mid = (wy0 + step_y + wy1) / 2
        points += [(x, mid) for x in xs]
    return points


def draw_board_marks(canvas: Canvas, page: PageLayout, label_font: str) -> None:
    """Alignment targets in the overlap strips and the part's label in the margin."""
    part = page.board
    if part is None or not page.placements:
        return
    origin = page.placements[0]
    radius = mm(2.5)
    for bx, by in alignment_points(page):
        x, y = origin.x + bx, origin.y + by
        canvas.ellipse(x, y, radius, radius, None, (1, 1, 1), 1.2)
        canvas.ellipse(x, y, radius, radius, None, MARK, HAIRLINE)
        canvas.polygon([(x - 1.6 * radius, y), (x + 1.6 * radius, y)], None, MARK, HAIRLINE, closed=False)
        canvas.polygon([(x, y - 1.6 * radius), (x, y + 1.6 * radius)], None, MARK, HAIRLINE, closed=False)
    if page.block:
        x0, y0, _, _ = page.block
        canvas.text(
            x0,
            max(8.0, y0 - mm(1.5)),
            f"{part.label}  ({part.row + 1}/{part.rows}, {part.col + 1}/{part.cols})",
            label_font,
            7,
            GUIDE,
        )


# ---- dice ------------------------------------------------------------------------------------------


def net_outline(x: float, y: float, e: float) -> list[Point]:
    """The cross of six faces (see imposition.CUBE_NET), clockwise from the top face's top-left."""
    cells = [(1, 0), (2, 0), (2, 1), (4, 1), (4, 2), (2, 2), (2, 3), (1, 3), (1, 2), (0, 2), (0, 1), (1, 1)]
    return [(x + c * e, y + r * e) for c, r in cells]


def net_tabs(x: float, y: float, e: float) -> list[list[Point]]:
    """Seven glue tabs, one per seam: three round the top face, three round the bottom one, one at the end."""
    t = tab_width(e)
    inset = t * 0.8

    def tab(a: Point, b: Point, normal: Point) -> list[Point]:
        ux, uy = (b[0] - a[0]) / e, (b[1] - a[1]) / e
        return [
            a,
            (a[0] + normal[0] * t + ux * inset, a[1] + normal[1] * t + uy * inset),
            (b[0] + normal[0] * t - ux * inset, b[1] + normal[1] * t - uy * inset),
            b,
        ]

    def p(c: float, r: float) -> Point:
        return (x + c * e, y + r * e)

    return [
        tab(p(1, 1), p(1, 0), (-1, 0)),
        tab(p(1, 0), p(2, 0), (0, -1)),
        tab(p(2, 0), p(2, 1), (1, 0)),
        tab(p(1, 2), p(1, 3), (-1, 0)),
        tab(p(1, 3), p(2, 3), (0, 1)),
        tab(p(2, 3), p(2, 2), (1, 0)),
        tab(p(4, 1), p(4, 2), (1, 0)),
    ]


def net_folds(x: float, y: float, e: float) -> list[Segment]:
    def p(c: float, r: float) -> Point:
        return (x + c * e, y + r * e)

    inner = [
        (p(1, 1), p(2, 1)),
        (p(1, 1), p(1, 2)),
        (p(2, 1), p(2, 2)),
        (p(3, 1), p(3, 2)),
        (p(1, 2), p(2, 2)),
    ]
    tab_bases = [(p(1, 0), p(1, 1)), (p(1, 0), p(2, 0)), (p(2, 0), p(2, 1))]
    tab_bases += [(p(1, 2), p(1, 3)), (p(1, 3), p(2, 3)), (p(2, 2), p(2, 3)), (p(4, 1), p(4, 2))]
    return inner + tab_bases


def draw_die_guides(canvas: Canvas, page: PageLayout) -> None:
    """Tabs (light grey), the net's cut line, and dashed fold lines."""
    for x, y, e in page.nets:
        for tab in net_tabs(x, y, e):
            canvas.polygon(tab, (0.92, 0.92, 0.92), MARK, HAIRLINE)
        canvas.polygon(net_outline(x, y, e), None, MARK, HAIRLINE)
        for a, b in net_folds(x, y, e):
            canvas.polygon([a, b], None, GUIDE, HAIRLINE, closed=False, dash=(2, 2))


# ---- duplex test -----------------------------------------------------------------------------------


def duplex_targets(frame: PageFrame) -> list[Point]:
    """Nine target positions (front-page coordinates) spread over the printable area."""
    aw, ah = frame.area
    m = frame.margin + mm(15)
    xs = (m, frame.width / 2, frame.width - m)
    ys = (m, frame.height / 2, frame.height - m)
    del aw, ah
    return [(x, y) for y in ys for x in xs]


def draw_duplex_test(canvas: Canvas, frame: PageFrame, back: bool, duplex: str, font: str) -> None:
    """Front: crosses. Back: rings 1, 2 and 3 mm round where each cross should show through.

    Held against the light after duplex printing, each cross's offset from its rings' centre is the
    printer's misalignment in millimetres.
    """
    for x, y in duplex_targets(frame):
        if back:
            x = frame.width - x if duplex == "long" else x
            y = frame.height - y if duplex == "short" else y
            for r in (1, 2, 3):
                canvas.ellipse(x, y, mm(r), mm(r), None, MARK, HAIRLINE)
        else:
            arm = mm(6)
            canvas.polygon([(x - arm, y), (x + arm, y)], None, MARK, HAIRLINE, closed=False)
            canvas.polygon([(x, y - arm), (x, y + arm)], None, MARK, HAIRLINE, closed=False)
    title = "Duplex test: BACK" if back else "Duplex test: FRONT"
    lines = [
        title,
        f"Print both pages double-sided ({duplex}-edge flip), then hold the sheet against a light.",
        "Each cross should sit in the centre of its rings; each ring is 1 mm wider than the last.",
    ]
    y = frame.height / 2 - mm(40)
    for line in lines:
        canvas.text(frame.width / 2 - mm(70), y, line, font, 9 if line != title else 14, MARK)
        y += mm(6)
