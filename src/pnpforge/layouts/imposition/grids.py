"""Rectangular pieces in rows: a grid of one size with its gutters, shelves of mixed sizes."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

from pnpforge.layouts.imposition.clipping import clip_to_neighbours
from pnpforge.layouts.imposition.placement import (
    EPS,
    PageLayout,
    Placement,
    Point,
    bounds,
    extent,
    grown,
    settle,
    trim_area,
)
from pnpforge.output.page import PageFrame, Rect


def _line_fit(span: float, size: float, gutter: float | None, bleed: float) -> tuple[int, float]:
    """How many pieces of `size` fit in `span` (where trims may lie: the outer edges' bleed is outside
    it), and the gutter between them."""
    if gutter is not None:
        return max(0, math.floor((span + gutter + EPS) / (size + gutter))), gutter
    count = math.floor((span + EPS) / size)
    if count <= 1:
        return count, 2 * bleed
    room = (span - count * size) / (count - 1)
    # two bleeds, each piece's whole bleed; where that does not fit the pieces share their cut lines
    # (a narrower gutter would leave each a part of its bleed, then its neighbour's edge)
    return count, (2 * bleed if room >= 2 * bleed - EPS else 0.0)


def grid_capacity(
    frame: PageFrame, width: float, height: float, gutter: float | None, region: Rect | None = None
) -> tuple[int, int]:
    x0, y0, x1, y1 = trim_area(region, frame, (width, height))
    cols = _line_fit(x1 - x0, width, gutter, frame.bleed)[0]
    return cols, _line_fit(y1 - y0, height, gutter, frame.bleed)[0]


def grid(
    count: int,
    width: float,
    height: float,
    frame: PageFrame,
    gutter: float | None = None,
    bleed_outline: Sequence[Point] | None = None,
    allow_turn: bool = True,
    region: Rect | None = None,
) -> list[PageLayout]:
    """Rectangular pieces in rows and columns, as many per page as fit (turning them if more fit).

    The grid is centred on the page, or, given a `region` (where trims may lie), centred across it and
    at its top; either way each outer piece keeps its whole bleed inside the art area. A piece too large
    for that one way is turned when the other way keeps its bleed, even if that takes more pages.
    `bleed_outline` is the piece's bleed outline relative to its trim box (unturned); it defaults to
    the trim box grown by the bleed.
    """
    cols, rows = grid_capacity(frame, width, height, gutter, region)
    quarter = 0
    if allow_turn and width != height:
        tcols, trows = grid_capacity(frame, height, width, gutter, region)
        if _choice(count, tcols * trows, height, width, frame) < _choice(
            count, cols * rows, width, height, frame
        ):
            cols, rows, width, height, quarter = tcols, trows, height, width, 1
    if cols * rows == 0:
        return []
    if (
        allow_turn
        and region is not None
        and _short(width, height, frame)
        and not _short(height, width, frame)
    ):
        return []  # not in this band: on a sheet of its own it turns and keeps its bleed
    rx0, ry0, rx1, ry1 = trim_area(region, frame, (width, height))
    _, gx = _line_fit(rx1 - rx0, width, gutter, frame.bleed)
    _, gy = _line_fit(ry1 - ry0, height, gutter, frame.bleed)
    per_page = cols * rows
    outline = _turned(bleed_outline, width, height, quarter) if bleed_outline else grown(width, height, frame)
    x0 = (rx0 + rx1 - (cols * width + (cols - 1) * gx)) / 2
    full_h = rows * height + (rows - 1) * gy
    y0 = ry0 if region else (ry0 + ry1 - full_h) / 2  # at the region's top: `settle` keeps its bleed
    ox0, oy0, ox1, oy1 = bounds(outline)
    # pages holding as many pieces share one geometry (only the indices differ): worked out once
    shapes: dict[int, PageLayout] = {}
    pages = []
    for start in range(0, count, per_page):
        n = min(per_page, count - start)
        if n not in shapes:
            used_rows = math.ceil(n / cols)
            used_cols = cols if used_rows > 1 else n
            block_w = used_cols * width + (used_cols - 1) * gx
            block_h = used_rows * height + (used_rows - 1) * gy
            cells = [(x0 + (k % cols) * (width + gx), y0 + (k // cols) * (height + gy)) for k in range(n)]
            first = [Placement(k, x, y, width, height, quarter) for k, (x, y) in enumerate(cells)]
            xs = _distinct(v for x, _ in cells for v in (x, x + width))
            ys = _distinct(v for _, y in cells for v in (y, y + height))
            block = (x0 + ox0, y0 + oy0, x0 + block_w + ox1 - width, y0 + block_h + oy1 - height)
            shape = PageLayout(clip_to_neighbours(first, outline, frame.bleed), tuple(xs), tuple(ys), block)
            shapes[n] = settle(shape, (rx0, ry0, rx1, ry1), frame)
        shape = shapes[n]
        placements = [
            Placement(start + p.index, p.x, p.y, width, height, quarter, p.clip) for p in shape.placements
        ]
        pages.append(PageLayout(placements, shape.cuts_x, shape.cuts_y, shape.block))
    return pages


def _choice(
    count: int, per_page: int, width: float, height: float, frame: PageFrame
) -> tuple[bool, bool, float]:
    """How good a way to lie is, smallest best: fitting at all, then keeping the whole bleed on the
    page, then fewer pages."""
    pages = _pages_for(count, per_page)
    return (pages == math.inf, _short(width, height, frame), pages)


def _short(width: float, height: float, frame: PageFrame) -> bool:
    """Whether a piece lying this way is too large to keep its whole bleed inside the art area."""
    x0, y0, x1, y1 = trim_area(None, frame, (width, height))
    full = trim_area(None, frame)
    return x1 - x0 > full[2] - full[0] + EPS or y1 - y0 > full[3] - full[1] + EPS


def _pages_for(count: int, per_page: int) -> float:
    """Pages a grid needs; turning pieces is worth it only when it saves a page."""
    return math.ceil(count / per_page) if per_page else math.inf


def _distinct(values: Iterable[float]) -> list[float]:
    """Sorted values with near-equal ones (shared cut lines) kept once."""
    out: dict[float, float] = {}
    for value in values:
        out.setdefault(round(value, 3), value)
    return sorted(out.values())


def _turned(outline: Sequence[Point], width: float, height: float, quarter: int) -> tuple[Point, ...]:
    """An outline given for the unturned piece, turned `quarter` times into a `width`×`height` box."""
    if quarter % 2 == 0:
        return tuple(outline)
    return tuple((width - v, u) for u, v in outline)  # (u, v) -> (-v, u), then shifted right by width


def shelves(
    sizes: Sequence[tuple[float, float]],
    frame: PageFrame,
    gap: float,
    region: Rect | None = None,
    allow_turn: bool = False,
) -> list[PageLayout]:
    """Pieces of different sizes, in order, left to right in rows as tall as their tallest piece.

    `gap` (two bleeds or more) keeps every piece's full bleed clear of its neighbours, so no clips are
    needed; the cut is along each piece's outline, drawn as a hairline. With `allow_turn` a piece turns
    a quarter when that keeps it in the current row, or keeps the row lower. Rows start at the top of
    `region` (default: the page inside its margins), each piece's whole bleed inside the art area; a
    piece larger than the region is left out.
    """
    rx0, ry0, rx1, ry1 = trim_area(region, frame)
    aw, ah = rx1 - rx0, ry1 - ry0
    pages: list[list[Placement]] = [[]]
    x = y = row = 0.0
    for index, (width, height) in enumerate(sizes):
        ways = [(width, height, 0)] + ([(height, width, 1)] if allow_turn and width != height else [])
        ways = [w for w in ways if w[0] <= aw + EPS and w[1] <= ah + EPS]
        if not ways:
            continue
        here = [w for w in ways if (x == 0 or x + w[0] <= aw + EPS) and y + w[1] <= ah + EPS]
        if not here:
            x, y, row = 0.0, y + row + gap, 0.0
            here = [w for w in ways if y + w[1] <= ah + EPS]
        if not here:
            pages.append([])
            x = y = row = 0.0
            here = ways
        w, h, quarter = min(here, key=lambda way: (max(0.0, way[1] - row) if x > 0 else 0.0, way[2]))
        pages[-1].append(Placement(index, rx0 + x, ry0 + y, w, h, quarter))
        x += w + gap
        row = max(row, h)
    b = frame.bleed
    return [
        settle(
            PageLayout(placements, (), (), extent(placements, b, b), outlines=True),
            (rx0, ry0, rx1, ry1),
            frame,
        )
        for placements in pages
        if placements
    ]
