"""Imposition maths: how many pieces fit, gutters, honeycombs, board splits, die nets, mirrored backs."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely.geometry import Polygon, box

from pnpforge.layouts.imposition.backs import backs
from pnpforge.layouts.imposition.boards import board
from pnpforge.layouts.imposition.dice import die_nets
from pnpforge.layouts.imposition.grids import grid, shelves
from pnpforge.layouts.imposition.lattice import lattice
from pnpforge.layouts.imposition.placement import PageLayout, Placement, page_area, suggest_page
from pnpforge.layouts.marks import alignment_points, crop_mark_segments
from pnpforge.output.page import PageFrame
from pnpforge.units import mm, to_mm

A4 = PageFrame(mm(210), mm(297), mm(5), mm(3))
LETTER = PageFrame(mm(215.9), mm(279.4), mm(5), mm(3))


def trims(page: PageLayout) -> list[Polygon]:
    return [box(p.x, p.y, p.x + p.width, p.y + p.height) for p in page.placements]


@pytest.mark.parametrize(("frame", "per_page"), [(A4, [9, 9]), (LETTER, [6, 6, 6])], ids=["a4", "letter"])
def test_nine_poker_cards_per_page(frame: PageFrame, per_page: list[int]) -> None:
    """Nine on A4; six on Letter, where three rows (264 mm) would leave the outer rows' bleed cut by
    the marks' band (264.4 mm inside it)."""
    pages = grid(18, mm(63), mm(88), frame)
    assert [len(p.placements) for p in pages] == per_page
    page = pages[0]
    assert all(p.quarter == 0 for p in page.placements)
    b = frame.bleed
    for trim in trims(page):  # every cut line, and a bleed past it, inside the margin and the marks' band
        x0, y0, x1, y1 = trim.bounds
        assert x0 - b >= frame.inset - 1e-6 and y0 - b >= frame.inset - 1e-6
        assert x1 + b <= frame.width - frame.inset + 1e-6 and y1 + b <= frame.height - frame.inset + 1e-6
    xs = sorted({round(p.x, 3) for p in page.placements})
    ys = sorted({round(p.y, 3) for p in page.placements})
    gaps_x = [b - a - mm(63) for a, b in zip(xs, xs[1:], strict=False)]
    gaps_y = [b - a - mm(88) for a, b in zip(ys, ys[1:], strict=False)]
    for gap in gaps_x + gaps_y:  # two bleeds, or one shared cut line: never a part of a bleed
        assert abs(gap) < 0.01 or abs(gap - 2 * frame.bleed) < 1e-3
    assert round(to_mm(page.cuts_x[1] - page.cuts_x[0]), 2) == 63.00
    assert round(to_mm(page.cuts_y[1] - page.cuts_y[0]), 2) == 88.00


def test_letter_has_no_room_for_two_bleeds_across_so_the_columns_share_cut_lines() -> None:
    page = grid(6, mm(63), mm(88), LETTER)[0]
    xs, ys = page.cuts_x, page.cuts_y
    room = 215.9 - 2 * to_mm(LETTER.inset) - 189 - 2 * 3  # inside the marks' band, outer bleeds kept
    assert room / 2 < 6 and len(xs) == 4  # 2.95 mm gutters would leave each card half its bleed
    assert to_mm(ys[2] - ys[1]) == pytest.approx(6)  # two rows leave room for two bleeds between them


def test_clips_stop_at_half_the_gutter() -> None:
    page = grid(9, mm(63), mm(88), A4)[0]
    centre = page.placements[4]
    assert centre.clip is not None
    clip = Polygon(centre.clip)
    x0, _, x1, _ = clip.bounds
    left = page.placements[3]
    gutter = centre.x - (left.x + left.width)
    assert x0 == pytest.approx(centre.x - gutter / 2)
    assert x1 == pytest.approx(centre.x + centre.width + gutter / 2)


@settings(max_examples=25, deadline=None)
@given(
    w=st.floats(15, 120),
    h=st.floats(15, 160),
    bleed=st.floats(0, 5),
)
def test_no_art_over_a_neighbours_trim(w: float, h: float, bleed: float) -> None:
    frame = PageFrame(mm(210), mm(297), mm(5), mm(bleed))
    pages = grid(30, mm(w), mm(h), frame)
    if not pages:
        return
    page = pages[0]
    shapes = trims(page)
    for k, placement in enumerate(page.placements):
        b = frame.bleed
        paint = Polygon(placement.clip) if placement.clip else shapes[k].buffer(b, join_style="mitre")
        for j, other in enumerate(shapes):
            if j != k:
                assert paint.intersection(other).area < 1e-6
        for other in shapes[:k] + shapes[k + 1 :]:
            assert not shapes[k].intersection(other).area > 1e-6


def test_turns_pieces_when_more_fit() -> None:
    pages = grid(10, mm(130), mm(90), A4)  # 3 fit as given (1 × 3), 4 when turned upright (2 × 2)
    assert len(pages[0].placements) == 4
    assert pages[0].placements[0].quarter == 1
    assert pages[0].placements[0].width == pytest.approx(mm(90))


def hex_outline(p: Placement) -> Polygon:
    cx, cy = p.centre
    r = p.height / 2  # pointy: corner to corner is the height
    return Polygon(
        [
            (cx + r * math.cos(math.radians(-30 + 60 * k)), cy + r * math.sin(math.radians(-30 + 60 * k)))
            for k in range(6)
        ]
    )


def test_honeycomb_neighbours_share_cut_edges() -> None:
    size = mm(30)
    pages = lattice(20, size, size * 2 / math.sqrt(3), A4, 0.0, shared_edges=True)
    page = pages[0]
    hexes = [hex_outline(p) for p in page.placements]
    side = size / math.sqrt(3)
    shared = 0
    for i, a in enumerate(hexes):
        for b in hexes[i + 1 :]:
            assert a.intersection(b).area < 1e-3  # never overlapping
            common = a.boundary.intersection(b.boundary).length
            if common > 1e-3:
                assert common == pytest.approx(side, rel=1e-6)  # a whole shared edge
                shared += 1
    assert shared >= 20  # a real honeycomb, not a row of separate hexes
    first = page.placements[0]
    assert first.clip is not None  # interior sides carry no bleed into a neighbour
    for other in hexes[1:]:
        assert Polygon(first.clip).intersection(other).area < 1e-3


def test_spaced_hexes_keep_two_bleeds_apart() -> None:
    size = mm(30)
    page = lattice(10, size, size * 2 / math.sqrt(3), A4, 2 * A4.bleed)[0]
    hexes = [hex_outline(p) for p in page.placements]
    nearest = min(a.distance(b) for i, a in enumerate(hexes) for b in hexes[i + 1 :])
    assert to_mm(nearest) == pytest.approx(6.0, abs=1e-6)


def test_round_tokens_hex_packed() -> None:
    d = mm(20)
    square = grid(500, d, d, A4, gutter=mm(3))
    packed = lattice(500, d, d, A4, mm(3))
    assert len(packed[0].placements) > len(square[0].placements)
    centres = [p.centre for p in packed[0].placements]
    nearest = min(math.dist(a, b) for i, a in enumerate(centres) for b in centres[i + 1 :])
    assert to_mm(nearest) == pytest.approx(23.0)


def test_flat_hexes_are_transposed_pointy_ones() -> None:
    size = mm(30)
    pages = lattice(12, size * 2 / math.sqrt(3), size, A4, 0.0, flat=True)
    for p in pages[0].placements:
        assert p.height == pytest.approx(size)
        assert A4.margin - 1e-6 <= p.x and p.x + p.width <= A4.width - A4.margin + 1e-6


def test_board_split_over_pages_with_overlap() -> None:
    width, height, overlap = mm(500), mm(380), mm(10)
    pages = board(width, height, A4, overlap)
    parts = [p.board for p in pages]
    assert all(parts)
    assert len(pages) == parts[0].rows * parts[0].cols == 6  # 3 columns × 2 rows
    aw, ah = A4.area
    covered = Polygon()
    for page, part in zip(pages, parts, strict=True):
        x0, y0, x1, y1 = part.window
        assert x1 - x0 <= aw + 1e-6 and y1 - y0 <= ah + 1e-6
        covered = covered.union(box(x0, y0, x1, y1))
        placement = page.placements[0]  # the window lands inside the margins
        assert placement.x + x0 >= A4.margin - 1e-6 and placement.y + y0 >= A4.margin - 1e-6
    assert covered.area == pytest.approx(width * height)
    by_label = {p.label: p for p in parts}
    assert by_label["A1"].window[2] - by_label["A2"].window[0] >= overlap - 1e-6
    assert by_label["A1"].window[3] - by_label["B1"].window[1] >= overlap - 1e-6
    targets_a1 = set(alignment_points(pages[0]))  # shared targets line up the two sheets
    targets_a2 = set(alignment_points(pages[1]))
    assert len(targets_a1 & targets_a2) == 3


def test_small_board_stays_on_one_page() -> None:
    pages = board(mm(180), mm(250), A4, mm(10))
    assert len(pages) == 1 and pages[0].board is None


def test_die_nets_are_crosses_with_opposite_faces_summing_to_seven() -> None:
    edge = mm(16)
    pages = die_nets(3, edge, A4)
    faces = pages[0].placements
    assert len(faces) == 18 and len(pages[0].nets) == 3
    net = [p for p in faces if p.index == 0]
    cells = {(round((p.x - net[0].x) / edge), round((p.y - net[0].y) / edge)): p.face for p in net}
    assert sorted(cells.values()) == [1, 2, 3, 4, 5, 6]
    ring = [f for (c, r), f in sorted(cells.items()) if r == 1]
    assert ring[0] + ring[2] == 7 and ring[1] + ring[3] == 7
    assert sum(f for (c, r), f in cells.items() if r != 1) == 7


def test_long_edge_back_reverses_column_order() -> None:
    front = grid(9, mm(63), mm(88), A4)[0]
    back = backs(front, A4, "long")
    for f, b in zip(front.placements, back.placements, strict=True):
        assert b.x == pytest.approx(A4.width - f.x - f.width)
        assert b.y == pytest.approx(f.y)
    first_row = sorted((p for p in back.placements if p.index < 3), key=lambda p: p.x)
    assert [p.index for p in first_row] == [2, 1, 0]


def test_short_edge_back_reverses_rows_and_turns_backs() -> None:
    front = grid(9, mm(63), mm(88), A4)[0]
    back = backs(front, A4, "short")
    for f, b in zip(front.placements, back.placements, strict=True):
        assert b.x == pytest.approx(f.x)
        assert b.y == pytest.approx(A4.height - f.y - f.height)
        assert b.quarter == 2


def test_crop_marks_stay_outside_the_art() -> None:
    page = grid(9, mm(63), mm(88), LETTER)[0]
    art = Polygon.from_bounds(*page.block).intersection(box(*page_area(LETTER)))  # type: ignore[misc]
    segments = crop_mark_segments(page, LETTER)
    assert len(segments) >= 12
    x0, y0, x1, y1 = LETTER.printable
    for a, b in segments:
        assert not art.intersects(Polygon([a, b, (b[0] + 0.01, b[1] + 0.01)]).buffer(0))
        for point in (a, b):
            assert x0 - 1e-6 <= point[0] <= x1 + 1e-6 and y0 - 1e-6 <= point[1] <= y1 + 1e-6


def test_suggests_a_page_that_fits() -> None:
    assert suggest_page(mm(250), mm(350), mm(5)) == "a3"
    assert suggest_page(mm(600), mm(900), mm(5)) is None


def test_mixed_sizes_on_shelves_keep_two_bleeds_apart() -> None:
    sizes = [(mm(w), mm(h)) for w, h in [(60, 50), (80, 70), (40, 90), (100, 40), (90, 90), (50, 50)] * 3]
    pages = shelves(sizes, A4, 2 * A4.bleed)
    placed = [p for page in pages for p in page.placements]
    assert sorted(p.index for p in placed) == list(range(len(sizes)))
    for page in pages:
        boxes = trims(page)
        for i, a in enumerate(boxes):
            x0, y0, x1, y1 = a.bounds
            assert x0 >= A4.margin - 1e-6 and x1 <= A4.width - A4.margin + 1e-6
            assert y0 >= A4.margin - 1e-6 and y1 <= A4.height - A4.margin + 1e-6
            for b in boxes[i + 1 :]:
                assert a.distance(b) >= 2 * A4.bleed - 1e-6


def test_board_pages_mark_where_to_trim() -> None:
    pages = board(mm(500), mm(380), A4, mm(10))
    a2 = next(p for p in pages if p.board and p.board.label == "B2")
    placement = a2.placements[0]
    left = placement.x + a2.board.window[0]  # type: ignore[union-attr]
    top = placement.y + a2.board.window[1]  # type: ignore[union-attr]
    assert any(abs(x - left) < 1e-6 for x in a2.cuts_x)
    assert any(abs(y - top) < 1e-6 for y in a2.cuts_y)
    assert crop_mark_segments(a2, A4)
