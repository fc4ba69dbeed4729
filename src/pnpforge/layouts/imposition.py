"""Imposition: where pieces go on pages. Pure placement maths in points (y down); nothing is drawn here.

Cards and square pieces sit in a grid whose gutters are as wide as two bleeds when that still fits the
most pieces, narrower otherwise, and 0 (shared cut lines) when narrower than `MIN_GUTTER`. Hexes sit in
a honeycomb (shared cut edges) or spaced by two bleeds; round tokens are hex-packed; boards larger than
a page are split over pages with overlap; die faces are laid out as cube nets. Where neighbours' bleeds
would overlap, each placement gets a clip: its bleed outline cut at the bisectors with its neighbours,
so art never paints over a neighbour's trim.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace

from pnpforge.components.model import PAGE_SIZES_MM
from pnpforge.units import mm

Point = tuple[float, float]
Rect = tuple[float, float, float, float]  # x0, y0, x1, y1
EPS = 1e-6
MIN_GUTTER = mm(2)  # a gap narrower than this is not worth a second cut: butt the pieces instead
SQRT3 = math.sqrt(3.0)
# Die net: faces in a cross, each (column, row, face number); opposite faces sum to 7.
CUBE_NET: tuple[tuple[int, int, int], ...] = (
    (1, 0, 1),
    (0, 1, 2),
    (1, 1, 3),
    (2, 1, 5),
    (3, 1, 4),
    (1, 2, 6),
)


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

    @property
    def label(self) -> str:
        return f"{chr(ord('A') + self.row)}{self.col + 1}"


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
    board: BoardPart | None = None


@dataclass(frozen=True)
class PageFrame:
    """A page and the distance from its edges within which no trim may lie."""

    width: float
    height: float
    margin: float
    bleed: float

    @property
    def area(self) -> tuple[float, float]:
        return (self.width - 2 * self.margin, self.height - 2 * self.margin)


# ---- fitting ---------------------------------------------------------------------------------------


def fits(width: float, height: float, frame: PageFrame) -> bool:
    """Whether a piece fits inside the printable area in either orientation."""
    aw, ah = frame.area
    return (width <= aw + EPS and height <= ah + EPS) or (height <= aw + EPS and width <= ah + EPS)


def suggest_page(width: float, height: float, margin: float) -> str | None:
    """The smallest standard page on which a piece of this size fits, or None."""
    for name, (pw, ph) in sorted(PAGE_SIZES_MM.items(), key=lambda item: item[1][0] * item[1][1]):
        if fits(width, height, PageFrame(mm(pw), mm(ph), margin, 0)):
            return name
    return None


def _line_fit(span: float, size: float, gutter: float | None, bleed: float) -> tuple[int, float]:
    """How many pieces of `size` fit in `span`, and the gutter between them."""
    if gutter is not None:
        return max(0, math.floor((span + gutter + EPS) / (size + gutter))), gutter
    count = math.floor((span + EPS) / size)
    if count <= 1:
        return count, 2 * bleed
    room = (span - count * size) / (count - 1)
    chosen = min(2 * bleed, room)
    return count, (chosen if chosen >= MIN_GUTTER else 0.0)


def grid_capacity(frame: PageFrame, width: float, height: float, gutter: float | None) -> tuple[int, int]:
    aw, ah = frame.area
    return _line_fit(aw, width, gutter, frame.bleed)[0], _line_fit(ah, height, gutter, frame.bleed)[0]


# ---- grids -----------------------------------------------------------------------------------------


def grid(
    count: int,
    width: float,
    height: float,
    frame: PageFrame,
    gutter: float | None = None,
    bleed_outline: Sequence[Point] | None = None,
    allow_turn: bool = True,
) -> list[PageLayout]:
    """Rectangular pieces in rows and columns, centred, as many per page as fit (turning them if more fit).

    `bleed_outline` is the piece's bleed outline relative to its trim box (unturned); it defaults to
    the trim box grown by the bleed.
    """
    cols, rows = grid_capacity(frame, width, height, gutter)
    quarter = 0
    if allow_turn and width != height:
        tcols, trows = grid_capacity(frame, height, width, gutter)
        if tcols * trows > cols * rows:
            cols, rows, width, height, quarter = tcols, trows, height, width, 1
    if cols * rows == 0:
        return []
    aw, ah = frame.area
    _, gx = _line_fit(aw, width, gutter, frame.bleed)
    _, gy = _line_fit(ah, height, gutter, frame.bleed)
    per_page = cols * rows
    outline = (
        _turned(bleed_outline, width, height, quarter) if bleed_outline else _grown(width, height, frame)
    )
    pages = []
    for start in range(0, count, per_page):
        n = min(per_page, count - start)
        used_rows = math.ceil(n / cols)
        used_cols = cols if used_rows > 1 else n
        block_w = used_cols * width + (used_cols - 1) * gx
        block_h = used_rows * height + (used_rows - 1) * gy
        x0 = (frame.width - (cols * width + (cols - 1) * gx)) / 2
        y0 = (frame.height - (rows * height + (rows - 1) * gy)) / 2
        cells = [(x0 + (k % cols) * (width + gx), y0 + (k // cols) * (height + gy)) for k in range(n)]
        placements = [Placement(start + k, x, y, width, height, quarter) for k, (x, y) in enumerate(cells)]
        placements = _clip_to_neighbours(placements, outline, frame.bleed)
        xs = _distinct(v for x, _ in cells for v in (x, x + width))
        ys = _distinct(v for _, y in cells for v in (y, y + height))
        b = frame.bleed
        block = (x0 - b, y0 - b, x0 + block_w + b, y0 + block_h + b)
        pages.append(PageLayout(placements, tuple(xs), tuple(ys), block))
    return pages


def _distinct(values: Iterable[float]) -> list[float]:
    """Sorted values with near-equal ones (shared cut lines) kept once."""
    out: dict[float, float] = {}
    for value in values:
        out.setdefault(round(value, 3), value)
    return sorted(out.values())


def _grown(width: float, height: float, frame: PageFrame) -> tuple[Point, ...]:
    b = frame.bleed
    return ((-b, -b), (width + b, -b), (width + b, height + b), (-b, height + b))


def _turned(outline: Sequence[Point], width: float, height: float, quarter: int) -> tuple[Point, ...]:
    """An outline given for the unturned piece, turned `quarter` times into a `width`×`height` box."""
    if quarter % 2 == 0:
        return tuple(outline)
    return tuple((width - v, u) for u, v in outline)  # (u, v) -> (-v, u), then shifted right by width


# ---- lattices (hexes and circles) ------------------------------------------------------------------


def lattice(
    count: int,
    width: float,
    height: float,
    frame: PageFrame,
    gap: float,
    flat: bool = False,
    bleed_outline: Sequence[Point] | None = None,
    shared_edges: bool = False,
) -> list[PageLayout]:
    """Pieces on a triangular lattice: pointy hexes in a honeycomb, or circles hex-packed.

    Centres are `pitch = width + gap` apart along a row and rows are `pitch·√3/2` apart, odd rows
    shifted by half a pitch, so the gap between neighbours is `gap` all round. Flat hexes are laid out
    as pointy ones with x and y exchanged.
    """
    if flat:
        swapped = PageFrame(frame.height, frame.width, frame.margin, frame.bleed)
        outline = [(v, u) for u, v in bleed_outline] if bleed_outline else None
        pages = lattice(count, height, width, swapped, gap, False, outline, shared_edges)
        return [_transpose(page) for page in pages]
    aw, ah = frame.area
    pitch = width + gap
    row_pitch = pitch * SQRT3 / 2
    even = math.floor((aw - width + EPS) / pitch) + 1 if aw + EPS >= width else 0
    odd = math.floor((aw - width - pitch / 2 + EPS) / pitch) + 1 if aw + EPS >= width + pitch / 2 else 0
    rows = math.floor((ah - height + EPS) / row_pitch) + 1 if ah + EPS >= height else 0
    if even == 0 or rows == 0:
        return []
    slots = [(c, r) for r in range(rows) for c in range(even if r % 2 == 0 else odd)]
    outline = tuple(bleed_outline) if bleed_outline else _grown(width, height, frame)
    used_w = width + (even - 1) * pitch if odd < even else width + (odd - 1) * pitch + pitch / 2
    pages = []
    for start in range(0, count, len(slots)):
        n = min(len(slots), count - start)
        used_rows = slots[n - 1][1] + 1
        used_h = height + (used_rows - 1) * row_pitch
        x0 = (frame.width - used_w) / 2
        y0 = (frame.height - (height + (rows - 1) * row_pitch)) / 2
        placements = [
            Placement(
                start + k, x0 + c * pitch + (pitch / 2 if r % 2 else 0), y0 + r * row_pitch, width, height
            )
            for k, (c, r) in enumerate(slots[:n])
        ]
        placements = _clip_to_neighbours(placements, outline, frame.bleed)
        b = frame.bleed
        block = (x0 - b, y0 - b, x0 + used_w + b, y0 + used_h + b)
        pages.append(PageLayout(placements, (), (), block, outlines=True, shared_edges=shared_edges))
    return pages


def _transpose(page: PageLayout) -> PageLayout:
    placements = [
        replace(
            p,
            x=p.y,
            y=p.x,
            width=p.height,
            height=p.width,
            clip=tuple((v, u) for u, v in p.clip) if p.clip else None,
        )
        for p in page.placements
    ]
    block = (page.block[1], page.block[0], page.block[3], page.block[2]) if page.block else None
    return replace(page, placements=placements, cuts_x=page.cuts_y, cuts_y=page.cuts_x, block=block)


# ---- clipping at the bisectors ---------------------------------------------------------------------


def _clip_to_neighbours(
    placements: list[Placement], outline: Sequence[Point], bleed: float
) -> list[Placement]:
    """Give each placement whose bleed reaches a neighbour a clip cut at their bisectors."""
    if bleed <= 0:
        return placements
    out = []
    for p in placements:
        polygon = [(p.x + u, p.y + v) for u, v in outline]
        cx, cy = p.centre
        reach = math.hypot(p.width, p.height) / 2 + 2 * bleed
        clipped = False
        for q in placements:
            if q is p:
                continue
            qx, qy = q.centre
            d = math.hypot(qx - cx, qy - cy)
            if d > 2 * reach or _gap_between(p, q) >= 2 * bleed - 1e-9:
                continue
            polygon = _half_plane(polygon, (cx, cy), (qx, qy))
            clipped = True
        out.append(replace(p, clip=tuple(polygon)) if clipped else p)
    return out


def _gap_between(p: Placement, q: Placement) -> float:
    """A lower bound of the distance between two placements' trim boxes (boxes only)."""
    dx = max(q.x - (p.x + p.width), p.x - (q.x + q.width), 0.0)
    dy = max(q.y - (p.y + p.height), p.y - (q.y + q.height), 0.0)
    return math.hypot(dx, dy)


def _half_plane(polygon: list[Point], own: Point, other: Point) -> list[Point]:
    """Keep the part of a convex polygon nearer to `own` than to `other` (Sutherland–Hodgman, one edge)."""
    nx, ny = other[0] - own[0], other[1] - own[1]
    limit = (nx * (own[0] + other[0]) + ny * (own[1] + other[1])) / 2

    def side(point: Point) -> float:
        return limit - (nx * point[0] + ny * point[1])

    result: list[Point] = []
    for i, current in enumerate(polygon):
        previous = polygon[i - 1]
        sc, sp = side(current), side(previous)
        if sc >= 0:
            if sp < 0:
                result.append(_cross(previous, current, sp, sc))
            result.append(current)
        elif sp >= 0:
            result.append(_cross(previous, current, sp, sc))
    return result


def _cross(a: Point, b: Point, sa: float, sb: float) -> Point:
    t = sa / (sa - sb)
    return (a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1]))


# ---- boards over pages -----------------------------------------------------------------------------


def board(width: float, height: float, frame: PageFrame, overlap: float) -> list[PageLayout]:
    """A board on one page when it fits, else split into windows that overlap by at least `overlap`."""
    if fits(width, height, frame):
        pages = grid(1, width, height, frame, allow_turn=True)
        return [replace(page, placements=[replace(p, clip=None) for p in page.placements]) for page in pages]
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
            ox, oy = frame.margin + (aw - (wx1 - wx0)) / 2, frame.margin + (ah - (wy1 - wy0)) / 2
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


# ---- dice ------------------------------------------------------------------------------------------


def tab_width(edge: float) -> float:
    return min(mm(6), edge / 4)


def die_nets(count: int, edge: float, frame: PageFrame) -> list[PageLayout]:
    """Cube nets (a cross of six faces with glue tabs), as many per page as fit; one placement per face."""
    tab = tab_width(edge)
    net_w, net_h = 4 * edge + tab, 3 * edge + 2 * tab
    flat = PageFrame(frame.width, frame.height, frame.margin, 0)
    pages = grid(count, net_w, net_h, flat, gutter=2 * frame.bleed + mm(2), allow_turn=False)
    square = ((-frame.bleed, -frame.bleed), (edge + frame.bleed, -frame.bleed))
    square += ((edge + frame.bleed, edge + frame.bleed), (-frame.bleed, edge + frame.bleed))
    out = []
    for page in pages:
        faces: list[Placement] = []
        nets = []
        for net in page.placements:
            ox, oy = net.x, net.y + tab
            nets.append((ox, oy, edge))
            cells = [
                Placement(net.index, ox + c * edge, oy + r * edge, edge, edge, 0, None, n)
                for c, r, n in CUBE_NET
            ]
            faces += _clip_to_neighbours(cells, square, frame.bleed)
        out.append(PageLayout(faces, (), (), page.block, nets=nets))
    return out


# ---- mixed sizes ----------------------------------------------------------------------------------


def shelves(sizes: Sequence[tuple[float, float]], frame: PageFrame, gap: float) -> list[PageLayout]:
    """Pieces of different sizes, in order, left to right in rows as tall as their tallest piece.

    `gap` (two bleeds or more) keeps every piece's full bleed clear of its neighbours, so no clips are
    needed; the cut is along each piece's outline, drawn as a hairline.
    """
    aw, ah = frame.area
    pages: list[list[Placement]] = [[]]
    x = y = row = 0.0
    for index, (width, height) in enumerate(sizes):
        if x > 0 and x + width > aw + EPS:
            x, y, row = 0.0, y + row + gap, 0.0
        if y > 0 and y + height > ah + EPS:
            pages.append([])
            x = y = row = 0.0
        pages[-1].append(Placement(index, frame.margin + x, frame.margin + y, width, height))
        x += width + gap
        row = max(row, height)
    out = []
    b = frame.bleed
    for placements in pages:
        x1 = max(p.x + p.width for p in placements)
        y1 = max(p.y + p.height for p in placements)
        out.append(
            PageLayout(
                placements, (), (), (frame.margin - b, frame.margin - b, x1 + b, y1 + b), outlines=True
            )
        )
    return out


# ---- sheets ----------------------------------------------------------------------------------------


def sheets(count: int, width: float, height: float, frame: PageFrame) -> list[PageLayout]:
    """One sheet per page, centred (a sheet is not cut, so it has no bleed or crop marks)."""
    x, y = (frame.width - width) / 2, (frame.height - height) / 2
    box = ((x, y), (x + width, y), (x + width, y + height), (x, y + height))
    return [PageLayout([Placement(k, x, y, width, height, 0, box)]) for k in range(count)]


# ---- backs -----------------------------------------------------------------------------------------


def backs(page: PageLayout, frame: PageFrame, duplex: str) -> PageLayout:
    """The page printed on the other side: each placement where its front lies once the sheet is flipped.

    Long-edge flip mirrors left-right (column order reversed); short-edge flip mirrors top-bottom. Each
    back is turned so that it stands upright when its piece is turned over about its own upright axis.
    """

    def fx(x: float) -> float:
        return frame.width - x if duplex == "long" else x

    def fy(y: float) -> float:
        return frame.height - y if duplex == "short" else y

    def point(p: Point) -> Point:
        return (fx(p[0]), fy(p[1]))

    placements = []
    for p in page.placements:
        x = fx(p.x + p.width) if duplex == "long" else p.x
        y = fy(p.y + p.height) if duplex == "short" else p.y
        clip = tuple(point(v) for v in reversed(p.clip)) if p.clip else None
        quarter = (-p.quarter) % 4 if duplex == "long" else (2 - p.quarter) % 4
        placements.append(replace(p, x=x, y=y, clip=clip, quarter=quarter))
    block = None
    if page.block:
        x0, y0, x1, y1 = page.block
        xs, ys = sorted((fx(x0), fx(x1))), sorted((fy(y0), fy(y1)))
        block = (xs[0], ys[0], xs[1], ys[1])
    return replace(
        page,
        placements=placements,
        cuts_x=tuple(sorted(fx(v) for v in page.cuts_x)),
        cuts_y=tuple(sorted(fy(v) for v in page.cuts_y)),
        block=block,
        nets=[],  # dice have no backs
    )
