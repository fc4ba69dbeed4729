"""Boards and sheets: a board split over pages with overlap when it is larger than one, a sheet per page."""

from __future__ import annotations

import math

from pnpforge.layouts.imposition.grids import grid
from pnpforge.layouts.imposition.placement import EPS, BoardPart, PageLayout, Placement, fits
from pnpforge.output.page import PageFrame


def board(width: float, height: float, frame: PageFrame, overlap: float, count: int = 1) -> list[PageLayout]:
    """A board that fits on a page: every copy, as many per page as fit. A larger one (one copy) is split
    into windows that overlap by at least `overlap`."""
    if fits(width, height, frame):
        return grid(count, width, height, frame, allow_turn=True)
    aw, ah = frame.area
    cols = _parts(width, aw, overlap)
    rows = _parts(height, ah, overlap)
    step_x = (width - aw) / (cols - 1) if cols > 1 else 0.0
    step_y = (height - ah) / (rows - 1) if rows > 1 else 0.0
    b = frame.bleed
    pages = []
    for r in range(rows):
        for c in range(cols):
            wx0, wy0 = c * step_x, r * step_y
            wx1, wy1 = min(width, wx0 + aw), min(height, wy0 + ah)
            window = (wx0, wy0, wx1, wy1)
            ox, oy = frame.inset + (aw - (wx1 - wx0)) / 2, frame.inset + (ah - (wy1 - wy0)) / 2
            # Bleed only on the board's own outer edges; inner edges stop at the window.
            left = ox - (b if c == 0 else 0)
            top = oy - (b if r == 0 else 0)
            right = ox + (wx1 - wx0) + (b if c == cols - 1 else 0)
            bottom = oy + (wy1 - wy0) + (b if r == rows - 1 else 0)
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


def _parts(length: float, span: float, overlap: float) -> int:
    """How many windows of `span` cover `length` with neighbours overlapping by at least `overlap`."""
    if length <= span + EPS:
        return 1
    return math.ceil((length - overlap - EPS) / (span - overlap))


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
