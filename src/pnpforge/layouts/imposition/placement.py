"""Placements and page layouts, the types every imposition returns, and whether a piece fits a page."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from pnpforge.components.model import PAGE_SIZES_MM
from pnpforge.output.page import PageFrame, Rect
from pnpforge.units import mm

Point = tuple[float, float]
EPS = 1e-6


@dataclass(frozen=True)
class Placement:
    """One piece (or one die face) on a page: its trim box as placed, and what it may paint."""

    index: int  # position of the piece in the list that was laid out
    x: float
    y: float
    width: float  # as placed (swapped when turned a quarter)
    height: float
    quarter: int = 0  # quarter turns clockwise
    clip: tuple[Point, ...] | None = None  # page-space region art may cover; None: its own bleed
    face: int = 0  # die face number (1-based), 0 for other pieces
    angle: float = 0.0  # with `pivot`: turned this far (degrees clockwise) instead of in quarters
    pivot: Point | None = None  # where the centre of the piece's own trim box lands; x, y, w, h bound it

    @property
    def centre(self) -> Point:
        return (self.x + self.width / 2, self.y + self.height / 2)


@dataclass(frozen=True)
class BoardPart:
    """Which part of a board a page shows: `window` in board coordinates (trim origin)."""

    row: int
    col: int
    rows: int
    cols: int
    window: Rect
    board_size: tuple[float, float]
    overlap: float
    copy: int = 0  # packed parts (several to a page): which copy of the board this part belongs to
    copies: int = 0  # packed parts: how many copies; 0 for a board printed one part a page

    @property
    def label(self) -> str:
        return f"{chr(ord('A') + self.row)}{self.col + 1}"

    @property
    def packed_label(self) -> str:
        """A packed part's name, its board's number first: 2·A1 is board 2's first part."""
        return f"{self.copy + 1}·{self.label}"


@dataclass(frozen=True)
class KiteNet:
    """A d10 net's guides in page coordinates: its cut outline, glue tabs and dashed fold lines."""

    outline: tuple[Point, ...]
    tabs: tuple[tuple[Point, ...], ...]
    folds: tuple[tuple[Point, Point], ...]


@dataclass
class PageLayout:
    """Placements on one page plus what its marks need (cut lines, art extent, nets, board part)."""

    placements: list[Placement]
    cuts_x: tuple[float, ...] = ()  # straight vertical cut lines (crop marks go outside `block`)
    cuts_y: tuple[float, ...] = ()
    block: Rect | None = None  # extent of all art including bleed
    outlines: bool = False  # non-rectangular trims: draw hairline cut outlines
    shared_edges: bool = False  # honeycomb: neighbours share cut edges
    nets: list[tuple[float, float, float]] = field(default_factory=list)  # die nets: x, y, face edge
    kite_nets: list[KiteNet] = field(default_factory=list)  # d10 nets, drawn from their own geometry
    board: BoardPart | None = None
    parts: list[PageLayout] = field(default_factory=list)  # a shared sheet: each block, in order

    @property
    def blocks(self) -> list[PageLayout]:
        """The blocks on the page, each with its own cut lines and art extent: the parts, or the page."""
        return self.parts or [self]


def page_area(frame: PageFrame) -> Rect:
    """Where trims and art may lie: the printable area less the crop marks' band."""
    i = frame.inset
    return (i, i, frame.width - i, frame.height - i)


def to_page(placement: Placement, points: Iterable[Point], size: tuple[float, float]) -> list[Point]:
    """Points given on the unturned piece (trim box `size`, origin top-left) where they land on the page."""
    w, h = size
    if placement.pivot is not None:
        a = math.radians(placement.angle)
        cos, sin = math.cos(a), math.sin(a)
        px, py = placement.pivot
        return [
            (px + (u - w / 2) * cos - (v - h / 2) * sin, py + (u - w / 2) * sin + (v - h / 2) * cos)
            for u, v in points
        ]
    q = placement.quarter % 4
    pw, ph = placement.width, placement.height
    turned = {
        0: lambda u, v: (u, v),
        1: lambda u, v: (pw - v, u),
        2: lambda u, v: (pw - u, ph - v),
        3: lambda u, v: (v, ph - u),
    }[q]
    return [(placement.x + x, placement.y + y) for x, y in (turned(u, v) for u, v in points)]


def fits(width: float, height: float, frame: PageFrame, around: float = 0.0) -> bool:
    """Whether a piece fits inside the printable area in either orientation, with `around` to spare
    on every side."""
    aw, ah = frame.area
    w, h = width + 2 * around, height + 2 * around
    return (w <= aw + EPS and h <= ah + EPS) or (h <= aw + EPS and w <= ah + EPS)


def keeps_bleed(width: float, height: float, frame: PageFrame) -> bool:
    """Whether a piece fits inside the printable area with its whole bleed round it, either way up."""
    return fits(width, height, frame, frame.bleed)


def pages_that_fit(width: float, height: float, margin: float) -> list[str]:
    """The standard pages (smallest first) on which a piece of this size fits, in either orientation."""
    by_area = sorted(PAGE_SIZES_MM.items(), key=lambda item: item[1][0] * item[1][1])
    return [name for name, (pw, ph) in by_area if fits(width, height, PageFrame(mm(pw), mm(ph), margin, 0))]


def suggest_page(width: float, height: float, margin: float) -> str | None:
    """The smallest standard page on which a piece of this size fits, or None."""
    return next(iter(pages_that_fit(width, height, margin)), None)


def grown(width: float, height: float, frame: PageFrame) -> tuple[Point, ...]:
    """The trim box grown by the bleed: a piece's bleed outline when it has no outline of its own."""
    b = frame.bleed
    return ((-b, -b), (width + b, -b), (width + b, height + b), (-b, height + b))


def bounds(points: Iterable[Point]) -> Rect:
    """The bounding box of some points."""
    xs, ys = zip(*points, strict=True)
    return min(xs), min(ys), max(xs), max(ys)


def extent(placements: Sequence[Placement], bx: float, by: float) -> Rect:
    """The trims' bounding box grown by the art's reach beyond them."""
    return (
        min(p.x for p in placements) - bx,
        min(p.y for p in placements) - by,
        max(p.x + p.width for p in placements) + bx,
        max(p.y + p.height for p in placements) + by,
    )


def art_extent(page: PageLayout, bleed: float) -> Rect:
    """What a page's pieces may paint: each placement's clip, or its box grown by the bleed."""
    boxes = [
        bounds(p.clip)
        if p.clip
        else (p.x - bleed, p.y - bleed, p.x + p.width + bleed, p.y + p.height + bleed)
        for p in page.placements
    ]
    return (
        min(b[0] for b in boxes),
        min(b[1] for b in boxes),
        max(b[2] for b in boxes),
        max(b[3] for b in boxes),
    )


def settle(page: PageLayout, region: Rect, frame: PageFrame) -> PageLayout:
    """The block moved, its trims staying inside `region`, so its art (`page.block`) keeps clear of the
    marks' band and of the room above and left of `region` (a bleed wide, kept for the block before).

    Where the region leaves no such room on either side of an axis, the shortfall is split evenly
    between the two sides, so no edge is left with none of its bleed while the other keeps all of it.
    """
    if page.block is None or not page.placements:
        return page
    room = _room(region, frame)
    trims = (
        min(p.x for p in page.placements),
        min(p.y for p in page.placements),
        max(p.x + p.width for p in page.placements),
        max(p.y + p.height for p in page.placements),
    )
    dx, dy = (_shift(page.block, room, region, trims, axis) for axis in (0, 1))
    return moved(page, dx, dy) if abs(dx) > EPS or abs(dy) > EPS else page


def kept(region: Rect, frame: PageFrame, reach_x: float, reach_y: float) -> Rect:
    """Where trims keep art reaching `reach_x`, `reach_y` beyond them clear of the marks' band and of
    the bleed-wide room above and left of `region` (as `settle`)."""
    x0, y0, x1, y1 = _room(region, frame)
    return (x0 + reach_x, y0 + reach_y, x1 - reach_x, y1 - reach_y)


def trim_area(region: Rect | None, frame: PageFrame, size: tuple[float, float] | None = None) -> Rect:
    """Where the trims of pieces laid out in `region` (default: the art area) may lie so that every
    piece keeps its whole bleed, a bleed past its trim on every side, inside the art area.

    Given the pieces' `size`: along an axis where one piece and two bleeds are more than the room, the
    piece keeps as much bleed as the room leaves, the same on both sides (a card nearly as long as the
    page is still printed, its bleed short)."""
    base = region or page_area(frame)
    b = frame.bleed
    if size is None:
        return kept(base, frame, b, b)
    ax0, ay0, ax1, ay1 = page_area(frame)  # the whole art area: a band too small is not a reason
    reach = [
        min(b, max(0.0, (span - length) / 2)) for span, length in ((ax1 - ax0, size[0]), (ay1 - ay0, size[1]))
    ]
    return kept(base, frame, *reach)


def _room(region: Rect, frame: PageFrame) -> Rect:
    """Where the art of a block whose trims lie in `region` may go."""
    ax0, ay0, ax1, ay1 = page_area(frame)
    b = frame.bleed
    return (
        max(ax0, region[0] - b),
        max(ay0, region[1] - b),
        min(ax1, region[2] + b),
        min(ay1, region[3] + b),
    )


def _shift(art: Rect, room: Rect, region: Rect, trims: Rect, axis: int) -> float:
    """How far along one axis to move a block so its art lies in `room`, its trims staying in `region`."""
    lo, hi = axis, axis + 2
    short_lo, short_hi = max(0.0, room[lo] - art[lo]), max(0.0, art[hi] - room[hi])
    want = (short_lo - short_hi) / 2 if short_lo and short_hi else short_lo - short_hi
    return min(max(want, min(0.0, region[lo] - trims[lo])), max(0.0, region[hi] - trims[hi]))


def moved(page: PageLayout, dx: float, dy: float) -> PageLayout:
    """A block of pieces moved by (dx, dy): its placements, their clips, its cut lines and art extent."""

    def shift(points: Iterable[Point]) -> tuple[Point, ...]:
        return tuple((x + dx, y + dy) for x, y in points)

    placements = [
        Placement(
            p.index,
            p.x + dx,
            p.y + dy,
            p.width,
            p.height,
            p.quarter,
            shift(p.clip) if p.clip else None,
            p.face,
            p.angle,
            (p.pivot[0] + dx, p.pivot[1] + dy) if p.pivot else None,
        )
        for p in page.placements
    ]
    assert not page.parts and page.board is None
    block = page.block and (page.block[0] + dx, page.block[1] + dy, page.block[2] + dx, page.block[3] + dy)
    kites = [
        KiteNet(
            shift(net.outline),
            tuple(shift(tab) for tab in net.tabs),
            tuple((a, c) for a, c in (shift(fold) for fold in net.folds)),
        )
        for net in page.kite_nets
    ]
    return PageLayout(
        placements,
        tuple(x + dx for x in page.cuts_x),
        tuple(y + dy for y in page.cuts_y),
        block,
        page.outlines,
        page.shared_edges,
        [(x + dx, y + dy, edge) for x, y, edge in page.nets],
        kites,
    )
