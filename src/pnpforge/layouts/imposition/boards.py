"""Boards and sheets: a board split over pages with overlap when it is larger than one, a sheet per page."""

from __future__ import annotations

from pnpforge.layouts.imposition.grids import grid
from pnpforge.layouts.imposition.placement import (
    EPS,
    BoardPart,
    PageLayout,
    Placement,
    Point,
    bounds,
    keeps_bleed,
    to_page,
)
from pnpforge.output.page import PageFrame, Rect
from pnpforge.units import mm

MARK_SPACE = mm(6)  # between two packed parts' art: room for both parts' crop marks and a part's label
MAX_STRIP_PARTS = 6  # layout tuning, not a work bound: strip splits tried for a board


def board(width: float, height: float, frame: PageFrame, overlap: float, count: int = 1) -> list[PageLayout]:
    """A board that fits on a page with its whole bleed round it: every copy, as many per page as fit.
    A larger one (even one that fits the page but leaves less than its bleed past an edge) is split
    into windows that overlap by at least `overlap`: page-sized windows, one a page, for each copy; or,
    for a strip whose parts fit several to a page when it is cut across its length, those parts packed
    (when that takes fewer pages)."""
    if keeps_bleed(width, height, frame):
        return grid(count, width, height, frame, allow_turn=True)
    windows = _windows(width, height, frame, overlap)
    strips = packed_strips(width, height, frame, overlap, count)
    return strips if strips and len(strips) < count * len(windows) else windows


def _windows(width: float, height: float, frame: PageFrame, overlap: float) -> list[PageLayout]:
    """The board (one copy) in page-sized windows, one a page. A window on the board's own outer edge
    leaves room for the bleed beyond that edge inside the art area (inner edges need none: the
    neighbouring part lies over them), so the board's art runs into its bleed on every outer side."""
    aw, ah = frame.area
    b = frame.bleed
    across, down = _spans(width, aw, overlap, b), _spans(height, ah, overlap, b)
    cols, rows = len(across), len(down)
    pages = []
    for r, (wy0, wy1) in enumerate(down):
        for c, (wx0, wx1) in enumerate(across):
            window = (wx0, wy0, wx1, wy1)
            # bleed only on the board's own outer edges; inner edges stop at the window
            bl, br = (b if c == 0 else 0.0), (b if c == cols - 1 else 0.0)
            bt, bb = (b if r == 0 else 0.0), (b if r == rows - 1 else 0.0)
            ox = frame.inset + (aw - (wx1 - wx0) - bl - br) / 2 + bl
            oy = frame.inset + (ah - (wy1 - wy0) - bt - bb) / 2 + bt
            left, top = ox - bl, oy - bt
            right, bottom = ox + (wx1 - wx0) + br, oy + (wy1 - wy0) + bb
            clip = ((left, top), (right, top), (right, bottom), (left, bottom))
            placement = Placement(0, ox - wx0, oy - wy0, width, height, 0, clip)
            part = BoardPart(r, c, rows, cols, window, (width, height), min(overlap, aw, ah))
            # Cut lines: the board's own edges, and this page's left and top window edges, where it
            # is trimmed to lie over its neighbour.
            xs = tuple(ox + v - wx0 for v in {0.0, width, wx0} if wx0 - EPS <= v <= wx1 + EPS)
            ys = tuple(oy + v - wy0 for v in {0.0, height, wy0} if wy0 - EPS <= v <= wy1 + EPS)
            block = (left, top, right, bottom)
            pages.append(PageLayout([placement], tuple(sorted(xs)), tuple(sorted(ys)), block, board=part))
    return pages


def _spans(length: float, span: float, overlap: float, bleed: float) -> list[tuple[float, float]]:
    """Where the windows along one side of a board start and end: as few as cover `length` with
    neighbours overlapping by at least `overlap`, all of one length (the alignment targets sit in the
    middle of evenly stepped overlaps), short enough that the first and the last keep room on the page
    for the bleed past the board's edge."""
    count = 1
    while count < 64:
        room = span - (2 * bleed if count == 1 else bleed)
        if count * room - (count - 1) * overlap >= length - EPS:
            break
        count += 1
    if count == 1:
        return [(0.0, min(length, room))]
    step = (length - room) / (count - 1)
    return [(k * step, min(length, k * step + room)) for k in range(count)]


def sheets(count: int, width: float, height: float, frame: PageFrame) -> list[PageLayout]:
    """One sheet per page, centred, turned a quarter when only that fits (a sheet is not cut, so it has
    no bleed or crop marks)."""
    aw, ah = frame.area
    quarter = 0
    if (width > aw + EPS or height > ah + EPS) and height <= aw + EPS and width <= ah + EPS:
        width, height, quarter = height, width, 1
    x, y = (frame.width - width) / 2, (frame.height - height) / 2
    box = ((x, y), (x + width, y), (x + width, y + height), (x, y + height))
    return [PageLayout([Placement(k, x, y, width, height, quarter, box)]) for k in range(count)]


def packed_strips(
    width: float, height: float, frame: PageFrame, overlap: float, count: int
) -> list[PageLayout]:
    """A long board cut across its length into equal parts overlapping by `overlap`, the parts of all
    `count` copies packed in a grid, each part a block of its own with its cut lines (its window's edges)
    and bleed on the board's own edges only. The fewest pages over the number of parts; [] when the
    board's short side does not fit the page or no split puts two parts on a page."""
    long_x = width >= height
    length, short = (width, height) if long_x else (height, width)
    gap = 2 * frame.bleed + MARK_SPACE
    best: list[PageLayout] = []
    for n in range(2, MAX_STRIP_PARTS + 1):
        part = (length + (n - 1) * overlap) / n
        if part <= overlap or not keeps_bleed(part, short, frame):
            continue
        size = (part, short) if long_x else (short, part)
        slots = grid(count * n, *size, frame, gutter=gap, allow_turn=True)
        if not slots or len(slots[0].placements) < 2:
            continue
        if not best or len(slots) < len(best):
            best = [
                _packed_page(slot, n, part, (width, height), long_x, frame, overlap, count) for slot in slots
            ]
    return best


def _packed_page(
    slot_page: PageLayout,
    parts: int,
    part: float,
    board_size: tuple[float, float],
    long_x: bool,
    frame: PageFrame,
    overlap: float,
    copies: int,
) -> PageLayout:
    """One page of packed parts: slot k of the grid holds part k % parts of copy k // parts."""
    width, height = board_size
    b = frame.bleed
    step = (max(board_size) - part) / (parts - 1)
    blocks = []
    for slot in slot_page.placements:
        copy, k = divmod(slot.index, parts)
        a0 = k * step
        window = (a0, 0.0, a0 + part, height) if long_x else (0.0, a0, width, a0 + part)
        wx0, wy0, wx1, wy1 = window
        # the art reaches into the bleed only across the board's own edges
        art = (
            wx0 - (b if wx0 <= EPS else 0),
            wy0 - (b if wy0 <= EPS else 0),
            wx1 + (b if wx1 >= width - EPS else 0),
            wy1 + (b if wy1 >= height - EPS else 0),
        )
        turned = slot.quarter % 2 == 1
        bw, bh = (height, width) if turned else (width, height)
        at_origin = Placement(copy, 0.0, 0.0, bw, bh, slot.quarter)
        tx0, ty0, _, _ = bounds(to_page(at_origin, _corners(window), board_size))
        x, y = slot.x - tx0, slot.y - ty0
        placed = Placement(copy, x, y, bw, bh, slot.quarter)
        clip = bounds(to_page(placed, _corners(art), board_size))
        row, col = (0, k) if long_x else (k, 0)
        rows, cols = (1, parts) if long_x else (parts, 1)
        part_of = BoardPart(row, col, rows, cols, window, board_size, overlap, copy, copies)
        blocks.append(
            PageLayout(
                [Placement(copy, x, y, bw, bh, slot.quarter, _corners(clip))],
                (slot.x, slot.x + slot.width),
                (slot.y, slot.y + slot.height),
                clip,
                board=part_of,
            )
        )
    return PageLayout([p for block in blocks for p in block.placements], parts=blocks)


def _corners(rect: Rect) -> tuple[Point, ...]:
    x0, y0, x1, y1 = rect
    return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))
