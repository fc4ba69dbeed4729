"""Printer's marks drawn around and between pieces: crop marks, cut outlines, board alignment marks,
die-net tabs and folds, and the duplex test page. Geometry comes from imposition; drawing goes
through the Canvas protocol, so PDF and SVG get the same marks.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

from pnpforge.i18n import N_
from pnpforge.layouts.imposition.dice import tab_width
from pnpforge.layouts.imposition.placement import PageLayout, page_area, to_page
from pnpforge.layouts.text import draw_layout, layout_text
from pnpforge.output.canvas import RGB, Canvas, Point
from pnpforge.output.page import MARK_ROOM, PageFrame, Rect
from pnpforge.units import mm

if TYPE_CHECKING:
    from pnpforge.fonts import FontRegistry

MARK: RGB = (0.0, 0.0, 0.0)
GUIDE: RGB = (0.45, 0.45, 0.45)
TARGET: RGB = (0.1, 0.1, 0.1)  # board alignment targets: near-black, so they never pass for crop marks
HAIRLINE = 0.25
MARK_GAP = mm(0.5)  # crop marks start this far beyond the art's bleed
MARK_LENGTH = mm(4)
MIN_MARK = mm(2) - 1e-6  # every cut line keeps marks at least this long (the printable band is 2.5 mm)
LABEL_SIZE = 6.0  # points: sheet footers and board labels, in the marks' band
LABEL_GAP = mm(1)  # from a label to the nearest crop mark
MIN_SHORTENED = 5  # a label's shortened part keeps at least " · w…", else it is left out

Segment = tuple[Point, Point]
Say = Callable[[str], str]  # a message said in the build's language (i18n.translator)
FOLD = N_("fold")  # the fold line's word (--duplex fold)


def draw_text(
    canvas: Canvas,
    fonts: FontRegistry,
    x: float,
    baseline: float,
    text: str,
    font: str,
    size: float,
    colour: RGB,
) -> None:
    """One line of text from `x`, each run in the font that has its characters (a word said in Japanese
    takes the CJK font; English stays one run in `font`)."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    for run, name in fonts.runs(text, font):
        canvas.text(x, baseline, run, name, size, colour)
        x += stringWidth(run, name, size)


def _clipped(rect: Rect, area: Rect) -> Rect:
    return (max(rect[0], area[0]), max(rect[1], area[1]), min(rect[2], area[2]), min(rect[3], area[3]))


SEGMENTS_KEPT = 64  # distinct crop-mark sets kept (a deck's pages share a few)
_kept: dict[tuple[object, ...], tuple[list[Segment], str]] = {}


def _crop_marks(page: PageLayout, frame: PageFrame) -> tuple[list[Segment], str]:
    """A page's crop marks and the name they are recorded under, worked out once per distinct layout of
    cut lines (pages of a deck share theirs; the page's label asks for them too)."""
    key = (frame, *((block.cuts_x, block.cuts_y, block.block) for block in page.blocks))
    hit = _kept.get(key)
    if hit is None:
        segments = _segments(page, frame)
        shown = [(round(a[0], 2), round(a[1], 2), round(b[0], 2), round(b[1], 2)) for a, b in segments]
        if len(_kept) >= SEGMENTS_KEPT:
            _kept.clear()
        hit = _kept[key] = (segments, "marks-" + hashlib.sha1(repr(shown).encode()).hexdigest()[:16])
    return hit


def crop_mark_segments(page: PageLayout, frame: PageFrame) -> list[Segment]:
    return _crop_marks(page, frame)[0]


def _segments(page: PageLayout, frame: PageFrame) -> list[Segment]:
    """Short lines continuing each straight cut line outside its block's art: never over any piece or bleed.

    Marks run from just beyond the art towards the paper's edge and stop at the printable area's edge
    (the page less the printer margin); art never reaches into the last `MARK_ROOM` of it, so every
    mark is at least `MIN_MARK` long there. On a page of several blocks, a mark heading for another
    block stops half-way across the gap between their art (that block's own marks use the other half).
    """
    art = page_area(frame)
    rects = [_clipped(block.block, art) for block in page.blocks if block.block is not None]
    px0, py0, px1, py1 = frame.printable
    out: list[Segment] = []
    for block in page.blocks:
        if block.block is None:
            continue
        own = _clipped(block.block, art)
        others = [r for r in rects if r != own]
        x0, y0, x1, y1 = own
        for x in block.cuts_x:
            out += _mark(x, y0, -1, others, py0, vertical=True)
            out += _mark(x, y1, +1, others, py1, vertical=True)
        for y in block.cuts_y:
            out += _mark(y, x0, -1, others, px0, vertical=False)
            out += _mark(y, x1, +1, others, px1, vertical=False)
    return out


def _mark(
    at: float, edge: float, way: int, others: Sequence[Rect], limit: float, vertical: bool
) -> list[Segment]:
    """One mark on the line `at` (x for a vertical mark), from the art's `edge` outwards (`way` = ±1),
    never beyond `limit` (the printable area's edge)."""
    start = edge + way * MARK_GAP
    end = edge + way * (MARK_GAP + MARK_LENGTH)
    end = max(limit, end) if way < 0 else min(limit, end)
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


def band_gaps(segments: Sequence[Segment], frame: PageFrame, top: bool) -> list[tuple[float, float]]:
    """The stretches of the top or bottom marks' band between the marks that reach into it, left to
    right: (left x, room) each."""
    return list(_band_gaps(tuple(segments), frame, top))


@lru_cache(maxsize=SEGMENTS_KEPT)  # every page of a deck has the same marks: its label goes in the same gaps
def _band_gaps(segments: tuple[Segment, ...], frame: PageFrame, top: bool) -> tuple[tuple[float, float], ...]:
    px0, py0, px1, py1 = frame.printable
    band = (py0, py0 + MARK_ROOM) if top else (py1 - MARK_ROOM, py1)
    xs = sorted(
        x
        for (ax, ay), (bx, by) in segments
        for x in ((ax,) if abs(ax - bx) < 1e-6 else (ax, bx))
        if min(ay, by) < band[1] and max(ay, by) > band[0]
    )
    stops = [px0 - LABEL_GAP, *xs, px1 + LABEL_GAP]
    return tuple((a + LABEL_GAP, b - a - 2 * LABEL_GAP) for a, b in zip(stops, stops[1:], strict=False))


def band_label_x(
    segments: Sequence[Segment], frame: PageFrame, width: float, top: bool
) -> tuple[float, float]:
    """Where a label `width` wide goes in the top or bottom marks' band: (left x, room), in the widest
    stretch between the marks that reach into that band (left-most when several are wide enough)."""
    gaps = band_gaps(segments, frame, top)
    fitting = [g for g in gaps if g[1] >= width]
    return fitting[0] if fitting else max(gaps, key=lambda g: g[1])


def draw_band_label(
    canvas: Canvas,
    frame: PageFrame,
    segments: Sequence[Segment],
    text: str,
    font: str,
    top: bool,
    fonts: FontRegistry,
    tail: str = "",
    keep: Sequence[str] = ("",),
) -> None:
    """A grey label (sheet footer, board part) in a marks' band, clear of the marks, inside the printable
    area: `keep[0]` + `text` + `tail`. When no stretch is long enough, `text` is shortened with an
    ellipsis, then left out; then `keep`'s shorter alternatives are tried in turn, and only the last is
    shortened. `tail` (a sheet's front/back) never is: a cutter must still tell the sides apart."""

    widths: dict[str, float] = {}  # the same few texts are measured again and again below

    def width(t: str) -> float:
        found = widths.get(t)
        if found is None:
            found = widths[t] = fonts.width(t + tail, font, LABEL_SIZE)
        return found

    x, room = band_label_x(segments, frame, width(keep[0] + text), top)
    if width(keep[0] + text) > room:  # spread over the stretches between the marks, whole, if it goes
        parts = [(SEPARATOR, p) for p in (keep[0] + text + tail).split(SEPARATOR) if p]
        gaps = band_gaps(segments, frame, top)
        spread = _spread(parts, gaps, lambda t: fonts.width(t, font, LABEL_SIZE))
        if not spread:  # a list of components too long for any stretch: its names spread too
            names = [
                (sep if k == 0 else LIST, name) for sep, p in parts for k, name in enumerate(p.split(LIST))
            ]
            spread = _spread(names, gaps, lambda t: fonts.width(t, font, LABEL_SIZE))
        if spread:
            baseline = _band_baseline(frame, top)
            for at, line in spread:
                draw_text(canvas, fonts, at, baseline, line, font, LABEL_SIZE, GUIDE)
            return
    while text and width(keep[0] + text) > room:
        text = text[:-2] + "…" if len(text) > MIN_SHORTENED else ""
    whole = keep[0] + text
    if width(whole) > room:
        whole = next((k for k in keep if width(k) <= room), keep[-1])
    while whole and width(whole) > room:
        whole = whole[:-2] + "…" if len(whole) > 1 else ""
    if not whole + tail or width(whole) > room:
        return
    draw_text(canvas, fonts, x, _band_baseline(frame, top), whole + tail, font, LABEL_SIZE, GUIDE)


SEPARATOR = " · "  # between a label's parts (game · draft · sheet · components · side)
LIST = ", "  # between the names in a label's list of components


def _band_baseline(frame: PageFrame, top: bool) -> float:
    return frame.margin + mm(2.1) if top else frame.height - frame.margin - mm(0.6)


def _spread(
    parts: Sequence[tuple[str, str]], gaps: Sequence[tuple[float, float]], width: Callable[[str], float]
) -> list[tuple[float, str]]:
    """`parts` (each with the separator that joins it to the one before) in order over the `gaps`, as
    many to a gap as go, none cut: (x, text) each; [] when they do not all go."""

    def joined(some: Sequence[tuple[str, str]]) -> str:
        return some[0][1] + "".join(sep + text for sep, text in some[1:])

    out: list[tuple[float, str]] = []
    left = list(parts)
    for x, room in gaps:
        taken = 0
        while taken < len(left) and width(joined(left[: taken + 1])) <= room:
            taken += 1
        if taken:
            out.append((x, joined(left[:taken])))
            left = left[taken:]
        if not left:
            return out
    return []


def draw_crop_marks(canvas: Canvas, page: PageLayout, frame: PageFrame) -> None:
    """Crop marks, recorded once per distinct set and reused: full pages of a deck share theirs."""
    segments, key = _crop_marks(page, frame)
    if not segments:
        return
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


def draw_board_marks(
    canvas: Canvas, page: PageLayout, frame: PageFrame, label_font: str, fonts: FontRegistry
) -> None:
    """Alignment targets in the overlap strips and the part's label in the margin (each block's)."""
    if page.parts:
        for block in page.parts:
            draw_board_marks(canvas, block, frame, label_font, fonts)
        return
    part = page.board
    if part is None or not page.placements:
        return
    origin = page.placements[0]
    radius = mm(2.5)
    for x, y in to_page(origin, alignment_points(page), part.board_size):
        canvas.ellipse(x, y, radius, radius, None, (1, 1, 1), 1.2)
        canvas.ellipse(x, y, radius, radius, None, TARGET, HAIRLINE)
        canvas.polygon([(x - 1.6 * radius, y), (x + 1.6 * radius, y)], None, TARGET, HAIRLINE, closed=False)
        canvas.polygon([(x, y - 1.6 * radius), (x, y + 1.6 * radius)], None, TARGET, HAIRLINE, closed=False)
    if part.copies:  # a packed part: its name just above its art, between its crop marks
        assert page.block is not None
        x = min(page.cuts_x) + LABEL_GAP
        canvas.text(x, page.block[1] - mm(1.2), part.packed_label, label_font, LABEL_SIZE, GUIDE)
        return
    label = f"{part.label}  ({part.row + 1}/{part.rows}, {part.col + 1}/{part.cols})"
    draw_band_label(canvas, frame, crop_mark_segments(page, frame), label, label_font, top=True, fonts=fonts)


# ---- dice ------------------------------------------------------------------------------------------


def net_outline(x: float, y: float, e: float) -> list[Point]:
    """The cross of six faces (see imposition.dice.CUBE_NET), clockwise from the top face's top-left."""
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


# ---- folding ---------------------------------------------------------------------------------------


def draw_fold_line(
    canvas: Canvas, frame: PageFrame, font: str, fonts: FontRegistry, say: Say, across: bool = False
) -> list[Segment]:
    """The dashed fold line through the page's centre (--duplex fold), down it or `across` it, and its
    word at one end; returns it as a segment, so the sheet's label keeps clear of it."""
    left, top, right, bottom = frame.printable
    word = say(FOLD)
    if across:
        y = frame.height / 2
        line: Segment = ((left, y), (right, y))
        draw_text(canvas, fonts, left, y - LABEL_GAP, word, font, LABEL_SIZE, GUIDE)
    else:
        x = frame.width / 2
        line = ((x, top), (x, bottom))
        draw_text(canvas, fonts, x + LABEL_GAP, frame.margin + mm(2.1), word, font, LABEL_SIZE, GUIDE)
    canvas.polygon(list(line), None, GUIDE, HAIRLINE, closed=False, dash=(4, 2))
    return [line]


# ---- duplex test -----------------------------------------------------------------------------------


def duplex_targets(frame: PageFrame) -> list[Point]:
    """Nine target positions (front-page coordinates) spread over the printable area."""
    aw, ah = frame.area
    m = frame.margin + mm(15)
    xs = (m, frame.width / 2, frame.width - m)
    ys = (m, frame.height / 2, frame.height - m)
    del aw, ah
    return [(x, y) for y in ys for x in xs]


DUPLEX_TEST = {  # the duplex test page's words: its title per side, then how to read it
    "front": N_("Duplex test: FRONT"),
    "back": N_("Duplex test: BACK"),
    "long": N_("Print both pages double-sided (long-edge flip), then hold the sheet against a light."),
    "short": N_("Print both pages double-sided (short-edge flip), then hold the sheet against a light."),
    "rings": N_("Each cross should sit in the centre of its rings; each ring is 1 mm wider than the last."),
    "offset": N_(
        "Seen from this side, a cross X mm right of and Y mm below its rings' centre: "
        "build with --back-offset X,Y."
    ),
}


def draw_duplex_test(
    canvas: Canvas, frame: PageFrame, back: bool, duplex: str, font: str, fonts: FontRegistry, say: Say
) -> None:
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
    keys = ["back" if back else "front", duplex, "rings"]
    if back:  # how to turn what is seen into the correction
        keys.append("offset")
    x, y = frame.width / 2 - mm(70), frame.height / 2 - mm(40)
    room = frame.printable[2] - x
    for k, key in enumerate(keys):
        line, size = say(DUPLEX_TEST[key]), 14 if k == 0 else 9
        if fonts.width(line, font, size) <= room:
            draw_text(canvas, fonts, x, y, line, font, size, MARK)
            y += mm(6)
            continue
        # a sentence longer than the page has room for (a translation's): wrapped inside the printable area
        layout = layout_text(
            line,
            x,
            y - size,
            room,
            10_000,
            fonts=fonts,
            font=font,
            size=size,
            align="left",
            valign="top",
            fit="wrap",
        )
        draw_layout(canvas, layout, MARK)
        y = layout.lines[-1].baseline + mm(6) if layout.lines else y + mm(6)
