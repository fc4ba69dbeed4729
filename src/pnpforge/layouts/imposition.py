"""Imposition: where pieces go on pages. Pure placement maths in points (y down); nothing is drawn here.

Cards and square pieces sit in a grid whose gutters are as wide as two bleeds when that still fits the
most pieces, narrower otherwise, and 0 (shared cut lines) when narrower than `MIN_GUTTER`. Hexes sit in
a honeycomb (shared cut edges) or spaced by two bleeds; round tokens are hex-packed; boards larger than
a page are split over pages with overlap; die faces are laid out as cube nets; polyhex tiles are nested,
turned in 60° steps. Where neighbours' bleeds would overlap, each placement gets a clip: its bleed outline
cut at the bisectors with its neighbours, so art never paints over a neighbour's trim.

Small pieces of several components share sheets (`share`): each component's block continues in the band
its predecessor left free at the bottom of its last sheet.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from pnpforge.components.model import PAGE_SIZES_MM
from pnpforge.geometry import hexgrid
from pnpforge.geometry.kite import KITE_SHOULDER, KITE_WIDTH
from pnpforge.output.page import PageFrame, Rect
from pnpforge.units import mm

if TYPE_CHECKING:  # shapely is imported by the d10-net and polyhex-nesting functions alone
    from shapely.geometry import Polygon
    from shapely.geometry.base import BaseGeometry

Point = tuple[float, float]
EPS = 1e-6
GRID = 1e-4  # points; float noise where unioned faces meet would leave them apart
MIN_GUTTER = mm(2)  # a gap narrower than this is not worth a second cut: butt the pieces instead
BLOCK_GAP = mm(2)  # art to art between two components' blocks on a shared sheet
MARKED_GAP = mm(6)  # ... when a block has straight cuts: room for both blocks' crop marks between them
OPEN_PAGES = 3  # nesting tries a tile on the last few pages only: older ones rarely have room, and time grows
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
# d10 numbers along the strip (up, down, up, ...): odd faces round one pole, opposite faces sum to 9.
D10_NET: tuple[int, ...] = (1, 2, 3, 0, 5, 8, 7, 6, 9, 4)


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

    @property
    def label(self) -> str:
        return f"{chr(ord('A') + self.row)}{self.col + 1}"


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


# ---- fitting ---------------------------------------------------------------------------------------


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


def fits(width: float, height: float, frame: PageFrame) -> bool:
    """Whether a piece fits inside the printable area in either orientation."""
    aw, ah = frame.area
    return (width <= aw + EPS and height <= ah + EPS) or (height <= aw + EPS and width <= ah + EPS)


def pages_that_fit(width: float, height: float, margin: float) -> list[str]:
    """The standard pages (smallest first) on which a piece of this size fits, in either orientation."""
    by_area = sorted(PAGE_SIZES_MM.items(), key=lambda item: item[1][0] * item[1][1])
    return [name for name, (pw, ph) in by_area if fits(width, height, PageFrame(mm(pw), mm(ph), margin, 0))]


def suggest_page(width: float, height: float, margin: float) -> str | None:
    """The smallest standard page on which a piece of this size fits, or None."""
    return next(iter(pages_that_fit(width, height, margin)), None)


def _line_fit(span: float, size: float, gutter: float | None, bleed: float) -> tuple[int, float]:
    """How many pieces of `size` fit in `span`, and the gutter between them."""
    if gutter is not None:
        return max(0, math.floor((span + gutter + EPS) / (size + gutter))), gutter
    count = math.floor((span + EPS) / size)
    if count <= 1:
        return count, 2 * bleed
    room = (span - count * size - 2 * bleed) / (count - 1)  # the outer edges keep their bleed first
    chosen = min(2 * bleed, room)
    return count, (chosen if chosen >= MIN_GUTTER else 0.0)


def grid_capacity(
    frame: PageFrame, width: float, height: float, gutter: float | None, region: Rect | None = None
) -> tuple[int, int]:
    x0, y0, x1, y1 = region or page_area(frame)
    cols = _line_fit(x1 - x0, width, gutter, frame.bleed)[0]
    return cols, _line_fit(y1 - y0, height, gutter, frame.bleed)[0]


# ---- grids -----------------------------------------------------------------------------------------


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
    at its top. `bleed_outline` is the piece's bleed outline relative to its trim box (unturned); it
    defaults to the trim box grown by the bleed.
    """
    rx0, ry0, rx1, ry1 = region or page_area(frame)
    cols, rows = grid_capacity(frame, width, height, gutter, region)
    quarter = 0
    if allow_turn and width != height:
        tcols, trows = grid_capacity(frame, height, width, gutter, region)
        if _pages_for(count, tcols * trows) < _pages_for(count, cols * rows):
            cols, rows, width, height, quarter = tcols, trows, height, width, 1
    if cols * rows == 0:
        return []
    _, gx = _line_fit(rx1 - rx0, width, gutter, frame.bleed)
    _, gy = _line_fit(ry1 - ry0, height, gutter, frame.bleed)
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
        x0 = (rx0 + rx1 - (cols * width + (cols - 1) * gx)) / 2
        full_h = rows * height + (rows - 1) * gy
        y0 = (ry0 + ry1 - full_h) / 2
        if region:  # at the region's top; at the page's top, lowered to keep the bleed when there is room
            y0 = ry0 + (min(frame.bleed, ry1 - ry0 - full_h) if ry0 <= frame.inset + EPS else 0.0)
        cells = [(x0 + (k % cols) * (width + gx), y0 + (k // cols) * (height + gy)) for k in range(n)]
        placements = [Placement(start + k, x, y, width, height, quarter) for k, (x, y) in enumerate(cells)]
        placements = _clip_to_neighbours(placements, outline, frame.bleed)
        xs = _distinct(v for x, _ in cells for v in (x, x + width))
        ys = _distinct(v for _, y in cells for v in (y, y + height))
        b = frame.bleed
        block = (x0 - b, y0 - b, x0 + block_w + b, y0 + block_h + b)
        pages.append(PageLayout(placements, tuple(xs), tuple(ys), block))
    return pages


def _pages_for(count: int, per_page: int) -> float:
    """Pages a grid needs; turning pieces is worth it only when it saves a page."""
    return math.ceil(count / per_page) if per_page else math.inf


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
    region: Rect | None = None,
) -> list[PageLayout]:
    """Pieces on a triangular lattice: pointy hexes in a honeycomb, or circles hex-packed.

    Centres are `pitch = width + gap` apart along a row and rows are `pitch·√3/2` apart, odd rows
    shifted by half a pitch, so the gap between neighbours is `gap` all round. Flat hexes are laid out
    as pointy ones with x and y exchanged. Centred on the page, or at the top of `region`.
    """
    top = region is not None
    if flat:
        swapped = PageFrame(frame.height, frame.width, frame.margin, frame.bleed)
        outline = [(v, u) for u, v in bleed_outline] if bleed_outline else None
        area = (region[1], region[0], region[3], region[2]) if region else None
        pages = _lattice(count, height, width, swapped, gap, outline, shared_edges, area, (top, False))
        return [_transpose(page) for page in pages]
    return _lattice(count, width, height, frame, gap, bleed_outline, shared_edges, region, (False, top))


def _lattice(
    count: int,
    width: float,
    height: float,
    frame: PageFrame,
    gap: float,
    bleed_outline: Sequence[Point] | None,
    shared_edges: bool,
    region: Rect | None,
    at_start: tuple[bool, bool],
) -> list[PageLayout]:
    """Pointy lattice pages; `at_start` says, per axis, whether the block sits at the region's start."""
    rx0, ry0, rx1, ry1 = region or page_area(frame)
    aw, ah = rx1 - rx0, ry1 - ry0
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
        x0 = rx0 if at_start[0] else (rx0 + rx1 - used_w) / 2
        y0 = ry0 if at_start[1] else (ry0 + ry1 - (height + (rows - 1) * row_pitch)) / 2
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


# ---- dice ------------------------------------------------------------------------------------------


TAB_MIN = mm(1.25)  # half the narrowest glue tab worth printing: a tab pinched narrower is cut back


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


def kite_points(long_diagonal: float) -> list[Point]:
    """A d10 face in its trim box (apex up): apex, right shoulder, foot, left shoulder."""
    w, a = KITE_WIDTH * long_diagonal, KITE_SHOULDER * long_diagonal
    return [(w / 2, 0.0), (w, a), (w / 2, long_diagonal), (0.0, a)]


def _kite_faces(long_diagonal: float) -> list[tuple[Polygon, int]]:
    """The strip of a d10 net (origin top-left of the faces' extent): each face and its quarter turns.

    Each down face is its up neighbour turned 180° about their shared edge's midpoint, so the strip is
    straight: up faces one short diagonal apart, down faces between them, shifted half a width.
    """
    from shapely import affinity
    from shapely.geometry import Polygon

    w, a = KITE_WIDTH * long_diagonal, KITE_SHOULDER * long_diagonal
    kite = Polygon(kite_points(long_diagonal))
    down = affinity.rotate(kite, 180, origin=(3 * w / 4, (a + long_diagonal) / 2))
    out: list[tuple[Polygon, int]] = []
    for k in range(5):
        out.append((affinity.translate(kite, k * w, 0), 0))
        out.append((affinity.translate(down, k * w, 0), 2))
    return out


def _kite_guides(
    long_diagonal: float, tab: float
) -> tuple[list[Polygon], list[Polygon], list[tuple[Point, Point]]]:
    """The d10 net's faces, its 11 glue tabs (one per seam) and its 9 + 11 fold lines, net coordinates."""
    import shapely

    faces = [face for face, _ in _kite_faces(long_diagonal)]
    corners = [list(face.exterior.coords)[:4] for face in faces]
    # One tab per seam: each up face's right long edge (apex-shoulder), each down face's right long edge
    # (foot-shoulder, as turned), and the first up face's left short edge, which closes the strip.
    seams: list[tuple[Point, Point]] = []
    for k in range(5):
        up, down = corners[2 * k], corners[2 * k + 1]
        seams.append((up[0], up[1]))
        seams.append((down[1], down[0]))
    seams.append((corners[0][2], corners[0][3]))
    folds = [(corners[2 * k][1], corners[2 * k][2]) for k in range(5)]
    folds += [(corners[2 * k + 1][2], corners[2 * k + 1][3]) for k in range(4)]
    net = shapely.union_all(faces, grid_size=GRID)
    tabs: list[Polygon] = []
    for start, end in seams:
        taken = shapely.union_all([net, *tabs]).buffer(EPS * 10)
        piece = _tab(start, end, tab, net).difference(taken)
        # Opening: where a 36° notch pinches a tab narrower than two `TAB_MIN` its tip is rounded off, so
        # no tab tapers to a sliver; the rest of its outline is kept (intersected with the plain tab).
        piece = piece.buffer(-TAB_MIN, quad_segs=4).buffer(TAB_MIN, quad_segs=4)
        piece = piece.intersection(_tab(start, end, tab, net)).simplify(GRID)
        parts = list(getattr(piece, "geoms", [piece]))
        tabs.append(max(parts, key=lambda g: g.area))
    return faces, tabs, folds + seams


def _tab(start: Point, end: Point, depth: float, net: BaseGeometry) -> Polygon:
    """A trapezoid glue tab `depth` deep on the edge start→end, on the side away from the net."""
    import shapely
    from shapely.geometry import Polygon

    ex, ey = end[0] - start[0], end[1] - start[1]
    length = math.hypot(ex, ey)
    ux, uy = ex / length, ey / length
    nx, ny = uy, -ux
    mid = ((start[0] + end[0]) / 2 + nx * EPS * 100, (start[1] + end[1]) / 2 + ny * EPS * 100)
    if net.contains(shapely.Point(mid)):
        nx, ny = -nx, -ny
    inset = min(depth, length / 3)
    return Polygon(
        [
            start,
            (start[0] + nx * depth + ux * inset, start[1] + ny * depth + uy * inset),
            (end[0] + nx * depth - ux * inset, end[1] + ny * depth - uy * inset),
            end,
        ]
    )


def d10_nets(count: int, long_diagonal: float, frame: PageFrame) -> list[PageLayout]:
    """d10 nets (a straight strip of ten kites with eleven glue tabs), as many per page as fit.

    One placement per face (`face` = number + 1), down faces turned 180°; each face's clip is its bleed
    less its neighbours' trims, so bleed shows only on the net's outer edges.
    """
    import shapely
    from shapely import affinity
    from shapely.geometry import box

    faces, tabs, folds = _kite_guides(long_diagonal, tab_width(long_diagonal))
    x0, y0, x1, y1 = shapely.union_all([*faces, *tabs]).bounds
    flat = PageFrame(frame.width, frame.height, frame.margin, 0)
    pages = grid(count, x1 - x0, y1 - y0, flat, gutter=2 * frame.bleed + mm(2), allow_turn=False)
    w = KITE_WIDTH * long_diagonal
    b = frame.bleed
    out = []
    for page in pages:
        placements: list[Placement] = []
        nets: list[KiteNet] = []
        for net in page.placements:
            dx, dy = net.x - x0, net.y - y0
            moved = [affinity.translate(face, dx, dy) for face in faces]
            half = b + mm(1)
            room = box(net.x - half, net.y - half, net.x + net.width + half, net.y + net.height + half)
            for k, (face, (_, quarter)) in enumerate(zip(moved, _kite_faces(long_diagonal), strict=True)):
                fx, fy, _, _ = face.bounds
                clip: BaseGeometry = face.buffer(b, join_style="mitre", mitre_limit=2.0) if b > 0 else face
                clip = clip.intersection(room)  # never over the next net, whose art is half a gutter away
                clip = clip.difference(shapely.union_all([f for f in moved if f is not face]), grid_size=GRID)
                parts = list(getattr(clip, "geoms", [clip]))
                ring = max(parts, key=lambda g: g.area).exterior.coords[:-1]
                placement = Placement(net.index, fx, fy, w, long_diagonal, quarter, None, D10_NET[k] + 1)
                placements.append(replace(placement, clip=tuple((float(x), float(y)) for x, y in ring)))
            outline = shapely.union_all(moved, grid_size=GRID).exterior.coords[:-1]
            nets.append(
                KiteNet(
                    tuple((float(x), float(y)) for x, y in outline),
                    tuple(
                        tuple(
                            (float(x), float(y))
                            for x, y in affinity.translate(t, dx, dy).exterior.coords[:-1]
                        )
                        for t in tabs
                    ),
                    tuple(((a[0] + dx, a[1] + dy), (c[0] + dx, c[1] + dy)) for a, c in folds),
                )
            )
        out.append(PageLayout(placements, (), (), page.block, kite_nets=nets))
    return out


# ---- mixed sizes ----------------------------------------------------------------------------------


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
    `region` (default: the page inside its margins); a piece larger than the region is left out.
    """
    rx0, ry0, rx1, ry1 = region or page_area(frame)
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
        PageLayout(placements, (), (), _extent(placements, b, b), outlines=True)
        for placements in pages
        if placements
    ]


def _extent(placements: Sequence[Placement], bx: float, by: float) -> Rect:
    """The trims' bounding box grown by the art's reach beyond them."""
    return (
        min(p.x for p in placements) - bx,
        min(p.y for p in placements) - by,
        max(p.x + p.width for p in placements) + bx,
        max(p.y + p.height for p in placements) + by,
    )


# ---- polyhex nesting ------------------------------------------------------------------------------

Cells = Sequence[tuple[int, int]]


@dataclass(frozen=True)
class _Pose:
    """A polyhex turned by `angle`: its cells' centres relative to cell (0, 0)'s centre."""

    angle: float
    centres: tuple[Point, ...]
    apothem: float  # half a hex's flat-to-flat size
    radius: float  # a hex's circumradius
    pivot: Point  # the centre of the unturned trim box, turned, relative to cell (0, 0)'s centre

    @property
    def bounds(self) -> Rect:
        xs = [x for x, _ in self.centres]
        ys = [y for _, y in self.centres]
        return (min(xs) - self.apothem, min(ys) - self.radius, max(xs) + self.apothem, max(ys) + self.radius)


def _poses(cells: Cells, width: float, turn: bool) -> list[_Pose]:
    """The distinct ways a polyhex can lie (60° steps keep pointy hexes pointy), unturned first."""
    across = [q + r / 2 for q, r in cells]
    flat = width / (max(across) - min(across) + 1)  # the trim box is whole hexes wide
    radius = flat / SQRT3
    base = [hexgrid.to_pixel(cell, radius) for cell in cells]
    x0, y0, x1, y1 = _Pose(0, tuple(base), flat / 2, radius, (0, 0)).bounds
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    out: list[_Pose] = []
    seen: set[tuple[Point, ...]] = set()
    for k in range(6 if turn else 1):
        cos, sin = math.cos(math.radians(60 * k)), math.sin(math.radians(60 * k))
        centres = tuple((x * cos - y * sin, x * sin + y * cos) for x, y in base)
        mx, my = min(x for x, _ in centres), min(y for _, y in centres)
        key = tuple(sorted((round(x - mx, 2), round(y - my, 2)) for x, y in centres))
        if key in seen:  # a symmetric tile: the same outline, so keep its art upright
            continue
        seen.add(key)
        out.append(_Pose(60.0 * k, centres, flat / 2, radius, (cx * cos - cy * sin, cx * sin + cy * cos)))
    return out


def _hexagon(centre: Point, apothem: float) -> Polygon:
    from shapely.geometry import Polygon

    r = apothem * 2 / SQRT3
    return Polygon(
        [
            (centre[0] + r * math.cos(math.radians(a)), centre[1] + r * math.sin(math.radians(a)))
            for a in range(-30, 330, 60)
        ]
    )


@dataclass(eq=False)
class _NestPage:
    """Tiles placed so far on one page: their cells (centre, apothem) and placements."""

    cells: list[tuple[Point, float]] = field(default_factory=list)
    placements: list[Placement] = field(default_factory=list)
    _near: dict[float, BaseGeometry] = field(default_factory=dict)

    def near(self, apothem: float, gap: float) -> BaseGeometry | None:
        """Where the centre of a hex of `apothem` may not go: closer than `gap` to a placed hex.

        Two aligned pointy hexes keep `gap` between them exactly when their centres lie outside a
        pointy hex of apothem (sum of apothems + gap), so that is the region, one per placed cell.
        """
        import shapely

        if not self.cells:
            return None
        if apothem not in self._near:
            reach = gap + apothem + 1e-4  # a hair more: touching at exactly `gap` is allowed
            self._near[apothem] = shapely.union_all([_hexagon(c, a + reach) for c, a in self.cells])
        return self._near[apothem]

    def add(self, placement: Placement, pose: _Pose, at: Point) -> None:
        self.placements.append(placement)
        self.cells += [((at[0] + x, at[1] + y), pose.apothem) for x, y in pose.centres]
        self._near.clear()


def _spot(page: _NestPage, pose: _Pose, region: Rect, gap: float) -> tuple[tuple[float, float], Point] | None:
    """The highest (then leftmost) place for a pose on a page: (its trim box's bottom and left, cell 0)."""
    import shapely
    from shapely import affinity
    from shapely.geometry import box

    bx0, by0, bx1, by1 = pose.bounds
    lo_x, hi_x = region[0] - bx0, region[2] - bx1
    lo_y, hi_y = region[1] - by0, region[3] - by1
    if hi_x < lo_x - EPS or hi_y < lo_y - EPS:
        return None
    room = box(lo_x - EPS, lo_y - EPS, max(hi_x, lo_x) + EPS, max(hi_y, lo_y) + EPS)
    near = page.near(pose.apothem, gap)
    if near is not None:
        room = room.difference(shapely.union_all([affinity.translate(near, -x, -y) for x, y in pose.centres]))
    if room.is_empty:
        return None
    corners = [
        (min(max(x, lo_x), hi_x), min(max(y, lo_y), hi_y))
        for x, y in shapely.get_coordinates(shapely.boundary(room)).tolist()
    ]
    best = min(corners, key=lambda p: (round(p[1] + by1, 3), round(p[0] + bx0, 3)))
    return (round(best[1] + by1, 3), round(best[0] + bx0, 3)), best


def nest(
    tiles: Sequence[tuple[Cells, float]],
    frame: PageFrame,
    gap: float,
    region: Rect | None = None,
    turn: bool = True,
) -> list[PageLayout]:
    """Polyhex tiles (cells, trim width) nested on pages `gap` apart, turned in 60° steps when allowed.

    Each tile, in order, goes to the first of the last `OPEN_PAGES` pages with room (else a new one),
    where its pose and place put its bottom highest (then its left edge leftmost); so different
    outlines interlock instead of each taking a bounding box. A tile larger than the region is left out.
    """
    area = region or page_area(frame)
    pages: list[_NestPage] = []
    for index, (cells, width) in enumerate(tiles):
        poses = _poses(cells, width, turn)
        for page in [*pages[-OPEN_PAGES:], _NestPage()]:
            found = [
                (spot[0], k, spot[1])
                for k, pose in enumerate(poses)
                if (spot := _spot(page, pose, area, gap))
            ]
            if not found:
                continue
            _, k, at = min(found)
            pose = poses[k]
            x0, y0, x1, y1 = pose.bounds
            pivot = (at[0] + pose.pivot[0], at[1] + pose.pivot[1]) if pose.angle else None
            placement = Placement(
                index, at[0] + x0, at[1] + y0, x1 - x0, y1 - y0, angle=pose.angle, pivot=pivot
            )
            page.add(placement, pose, at)
            if not any(page is p for p in pages):
                pages.append(page)
            break
    b = frame.bleed
    return [
        PageLayout(page.placements, (), (), _extent(page.placements, b, 2 * b / SQRT3), outlines=True)
        for page in pages
    ]


# ---- shared sheets --------------------------------------------------------------------------------

Lay = Callable[[Sequence[int], Rect], list[PageLayout]]


class DoesNotFit(ValueError):
    """Piece number `index` (counted across all runs) fits nowhere inside the page's margins."""

    def __init__(self, index: int) -> None:
        super().__init__(f"piece {index} does not fit inside the page's margins")
        self.index = index


@dataclass(frozen=True)
class Run:
    """One block's pieces for shared sheets, and how to lay them out.

    `lay(items, region)` places the pieces numbered `items` (placement k is items[k]) on pages, with
    trims inside `region` and the block at its top; `new_sheet` refuses the room left on the previous
    run's last sheet.
    """

    count: int
    lay: Lay
    new_sheet: bool = False


def share(runs: Sequence[Run], frame: PageFrame) -> list[PageLayout]:
    """Pages for several runs in order, each run starting in the band its predecessor left free.

    Pieces are numbered across all runs in order (run 0's pieces first), and so are the placements'
    indices. A run's pieces that fit in the band go there; the rest go on fresh pages, whose last one
    offers its own band to the next run. A page holding blocks of more than one run lists them as
    `parts`; a page of one block is that block.
    """
    full = page_area(frame)
    sheets: list[list[PageLayout]] = []
    offset = 0
    for run in runs:
        items = list(range(run.count))
        if sheets and not run.new_sheet:
            part = _in_band(run, items, sheets[-1], frame)
            if part is not None:
                sheets[-1].append(_numbered(part, items, offset))
                placed = {items[p.index] for p in part.placements}
                items = [i for i in items if i not in placed]
        if items:
            pages = run.lay(items, full)
            placed = {items[p.index] for page in pages for p in page.placements}
            if len(placed) < len(items):
                raise DoesNotFit(offset + next(i for i in items if i not in placed))
            sheets += [[_numbered(page, items, offset)] for page in pages]
        offset += run.count
    return [compose(parts) for parts in sheets]


def _in_band(run: Run, items: list[int], above: Sequence[PageLayout], frame: PageFrame) -> PageLayout | None:
    """The run's first block in the room the sheet's blocks left: the band below them, or the one beside
    them when more pieces fit there; None when nothing fits."""
    blocks = [part.block for part in above if part.block]
    marked = any(part.cuts_x or part.cuts_y for part in above)
    m, b = frame.inset, frame.bleed
    best: PageLayout | None = None
    for beside in (False, True):
        for gap in (MARKED_GAP if marked else BLOCK_GAP, MARKED_GAP):
            if beside:
                region = (max(r[2] for r in blocks) + gap + b, m, frame.width - m, frame.height - m)
            else:
                region = (m, max(r[3] for r in blocks) + gap + b, frame.width - m, frame.height - m)
            pages = run.lay(items, region) if region[2] > region[0] and region[3] > region[1] else []
            if not pages or not pages[0].placements:
                break
            part = pages[0]
            if gap == MARKED_GAP or not (part.cuts_x or part.cuts_y):  # marks need the wider gap
                if best is None or _pieces(part) > _pieces(best):
                    best = part
                break
    return best


def _pieces(page: PageLayout) -> int:
    return len({p.index for p in page.placements})


def _numbered(page: PageLayout, items: Sequence[int], offset: int) -> PageLayout:
    """A run's page with each placement's index turned into the piece's number across all runs."""
    return replace(page, placements=[replace(p, index=offset + items[p.index]) for p in page.placements])


def compose(parts: Sequence[PageLayout]) -> PageLayout:
    """One page of several blocks (or the block itself when there is one)."""
    if len(parts) == 1:
        return parts[0]
    placements = [p for part in parts for p in part.placements]
    return PageLayout(placements, parts=list(parts))


# ---- sheets ----------------------------------------------------------------------------------------


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


# ---- backs -----------------------------------------------------------------------------------------


def backs(
    page: PageLayout, frame: PageFrame, duplex: str, keep: Callable[[int], bool] | None = None
) -> PageLayout:
    """The page printed on the other side: each placement where its front lies once the sheet is flipped.

    Long-edge flip mirrors left-right (column order reversed); short-edge flip mirrors top-bottom. Each
    back is turned so that it stands upright when its piece is turned over about its own upright axis.
    Only placements whose index `keep` accepts are kept (pieces without a back leave their spot blank);
    a block with none of them left is dropped, with its marks.
    """
    if page.parts:
        parts = [backs(part, frame, duplex, keep) for part in page.parts]
        return compose([part for part in parts if part.placements] or parts[:1])

    def fx(x: float) -> float:
        return frame.width - x if duplex == "long" else x

    def fy(y: float) -> float:
        return frame.height - y if duplex == "short" else y

    def point(p: Point) -> Point:
        return (fx(p[0]), fy(p[1]))

    placements = []
    for p in page.placements:
        if keep is not None and not keep(p.index):
            continue
        x = fx(p.x + p.width) if duplex == "long" else p.x
        y = fy(p.y + p.height) if duplex == "short" else p.y
        clip = tuple(point(v) for v in reversed(p.clip)) if p.clip else None
        quarter = (-p.quarter) % 4 if duplex == "long" else (2 - p.quarter) % 4
        angle, pivot = p.angle, p.pivot
        if pivot is not None:  # turned about its centre instead of in quarters
            quarter, pivot = 0, point(pivot)
            angle = (-angle) % 360.0 if duplex == "long" else (180.0 - angle) % 360.0
        placements.append(replace(p, x=x, y=y, clip=clip, quarter=quarter, angle=angle, pivot=pivot))
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
        kite_nets=[],
    )
