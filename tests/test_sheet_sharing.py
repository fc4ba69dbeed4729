"""Small pieces of several components share sheets: page counts, mirrored backs on mixed sheets, crop
marks clear of every piece's art, nested (turned) polyhex tiles, every copy printed, the cover's
sheet numbers, and the bundled games on fewer sheets than one component per sheet gave."""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest
from conftest import MM, SpecMaker, render_page
from pypdf import PdfReader
from shapely.geometry import LineString, Polygon, box

from pnpforge.build import BuildOptions, DocPage, Plan, plan
from pnpforge.building import BuildRequest, build
from pnpforge.components.load import load_target
from pnpforge.fonts import FontRegistry
from pnpforge.geometry import hexgrid
from pnpforge.layouts.imposition.placement import Placement, page_area, to_page
from pnpforge.layouts.imposition.sharing import BLOCK_GAP
from pnpforge.layouts.marks import crop_mark_segments
from pnpforge.layouts.shapes import trim_outline

TOKENS = """\
game: {{id: chits, title: Chits}}
components:
  - name: coins
    kind: token
    size: 20mm
    count: 10
    face: {{background: red}}
  - name: cubes
    kind: token
    shape: square
    size: 15mm
    count: 12
    face: {{background: green}}{new_sheet}
  - name: hexes
    kind: tile
    size: 25mm
    count: 8
    face: {{background: blue}}
"""
MIXED = """\
game: {id: mixed, title: Mixed}
components:
  - name: cards
    kind: card
    size: 40x60mm
    count: 5
    face: {background: red}
    back: {background: blue}
  - name: chips
    kind: token
    size: 20mm
    count: 6
    face: {background: green}
  - name: big-cards
    kind: card
    size: poker
    count: 3
    face: {background: "#ffaa00"}
    back: {background: blue}
"""
BARS = """\
game: {id: bars, title: Bars}
components:
  - name: bars
    kind: tile
    shape: polyhex
    size: 42mm
    cells: {data: tiles.yaml, list: tiles}
    face: {background: red}
    back: {background: blue}
"""
BAR_TILES = "tiles: [{id: a, cells: [[0, 0], [1, 0], [2, 0], [3, 0], [4, 0]]}, {id: b, cells: [[0, 0], [1, 0], [2, 0], [3, 0], [4, 0]]}]\n"  # noqa: E501
BUNDLED_SHEETS = {  # every piece's whole bleed inside the marks' band (docs/printing.md) costs a few
    "gods": (7, 6),
    "ankh": (27, 23),  # the board in 6 parts, each with its outer bleed (was 4)
    "quo-vadis": (20, 17),
    "good-shepherds": (5, 5),  # the two rules cards one a sheet (their bleed)
    "delphi": (27, 21),  # the player boards turned, one a sheet (their bleed)
}


def _plan(target: str | Path) -> Plan:
    return plan(load_target(target), BuildOptions(), FontRegistry(search=False), check=False)


def _fronts(the_plan: Plan) -> list[DocPage]:
    return [p for p in the_plan.pages if p.kind == "pieces" and p.side == "face"]


def _names(page: DocPage) -> Counter[str]:
    assert page.layout is not None
    return Counter(page.pieces[p.index].component.name for p in page.layout.placements)


def _colour_at(image, x: float, y: float, dpi: int) -> tuple[int, int, int]:  # type: ignore[no-untyped-def]
    return image.getpixel((round(x / 72 * dpi), round(y / 72 * dpi)))


def _near(rgb: tuple[int, int, int], want: tuple[int, int, int]) -> bool:
    return max(abs(a - b) for a, b in zip(rgb, want, strict=True)) < 40


def test_three_token_components_share_one_sheet(make_spec: SpecMaker, tmp_path: Path) -> None:
    folder = make_spec(TOKENS.format(new_sheet=""))
    result = build(BuildRequest(folder, BuildOptions(out_dir=tmp_path / "out")))
    assert len(PdfReader(result.files[0]).pages) == 2  # the cover and one sheet
    assert result.plan is not None
    assert [(line.name, line.sheet_numbers, line.sheets) for line in result.plan.inventory] == [
        ("coins", (1,), 1),
        ("cubes", (1,), 1),
        ("hexes", (1,), 1),
    ]
    (sheet,) = _fronts(_plan(folder))
    assert _names(sheet) == {"coins": 10, "cubes": 12, "hexes": 8}
    cover = PdfReader(result.files[0]).pages[0].extract_text()
    assert "1 sheet" in cover  # the total counts the shared sheet once
    label = PdfReader(result.files[0]).pages[1].extract_text()
    assert "sheet 1" in label and "coins, cubes, hexes" in label


def test_new_sheet_opts_a_component_out(make_spec: SpecMaker) -> None:
    folder = make_spec(TOKENS.format(new_sheet="\n    new_sheet: true"))
    assert [dict(_names(p)) for p in _fronts(_plan(folder))] == [{"coins": 10}, {"cubes": 12, "hexes": 8}]


def _art(p: Placement, bleed: float) -> Polygon:
    grown = box(p.x - bleed, p.y - bleed, p.x + p.width + bleed, p.y + p.height + bleed)
    return Polygon(p.clip) if p.clip else grown


def test_blocks_hold_their_art_apart_inside_the_margins(make_spec: SpecMaker) -> None:
    the_plan = _plan(make_spec(MIXED))
    frame = the_plan.frame
    (front,) = _fronts(the_plan)
    assert front.layout is not None
    assert _names(front) == {"cards": 5, "chips": 6, "big-cards": 3}
    blocks = front.layout.blocks
    rects = [box(*b.block) for b in blocks if b.block]  # type: ignore[misc]
    assert len(rects) == 3
    for i, a in enumerate(rects):
        assert all(a.distance(b) >= BLOCK_GAP - 1e-6 for b in rects[i + 1 :])
    for block, rect in zip(blocks, rects, strict=True):
        for p in block.placements:  # every piece's art inside its own block, every trim inside the margins
            assert rect.buffer(0.01).contains(_art(p, frame.bleed))
            assert frame.margin - 1e-6 <= p.x and p.x + p.width <= frame.width - frame.margin + 1e-6
            assert frame.margin - 1e-6 <= p.y and p.y + p.height <= frame.height - frame.margin + 1e-6


def test_crop_marks_stay_off_every_trim_and_all_art(make_spec: SpecMaker) -> None:
    the_plan = _plan(make_spec(MIXED))
    frame = the_plan.frame
    for page in the_plan.pages:
        if page.layout is None:
            continue
        area = box(*page_area(frame))  # bleed is clipped there: the marks' band stays clear
        arts = [_art(replace(p, clip=None), frame.bleed).intersection(area) for p in page.layout.placements]
        segments = crop_mark_segments(page.layout, frame)
        assert segments
        for a, b in segments:
            mark = LineString([a, b])
            assert not any(mark.intersects(art) for art in arts)
            assert all(
                0 <= v <= limit for v, limit in zip((*a, *b), (frame.width, frame.height) * 2, strict=True)
            )
        blocks = [b.block for b in page.layout.blocks if b.block]
        top, bottom = blocks[0][3], blocks[-1][1]  # the first block's lower edge, the last one's upper
        between = [
            (a, b) for a, b in segments if a[0] == b[0] and top < min(a[1], b[1]) < max(a[1], b[1]) < bottom
        ]
        assert between


def test_backs_mirror_every_piece_that_has_one(make_spec: SpecMaker, tmp_path: Path) -> None:
    folder = make_spec(MIXED)
    the_plan = _plan(folder)
    frame = the_plan.frame
    front, back = (p for p in the_plan.pages if p.kind == "pieces")
    assert front.layout is not None and back.layout is not None and back.side == "back"
    fronts = {p.index: p for p in front.layout.placements}
    assert _names(back) == {"cards": 5, "big-cards": 3}  # the chips have no back: their spots stay blank
    for b in back.layout.placements:
        f = fronts[b.index]
        assert b.x == pytest.approx(frame.width - f.x - f.width) and b.y == pytest.approx(f.y)
    dpi = 40
    pdf = build(BuildRequest(folder, BuildOptions(out_dir=tmp_path / "out"))).files[0]
    image = render_page(pdf, 2, dpi)
    for f in front.layout.placements:
        x, y = frame.width - f.centre[0], f.centre[1]
        has_back = front.pieces[f.index].component.back is not None
        assert _near(_colour_at(image, x, y, dpi), (0, 0, 255) if has_back else (255, 255, 255))


def test_every_copy_of_a_board_that_fits_is_printed(make_spec: SpecMaker) -> None:
    folder = make_spec(
        """\
        game: {id: tracks, title: Tracks}
        components:
          - name: track
            kind: board
            size: 150x40mm
            count: 5
            face: {background: red}
        """
    )
    (sheet,) = _fronts(_plan(folder))
    assert sheet.layout is not None and len(sheet.layout.placements) == 5


@pytest.mark.parametrize("game", sorted(BUNDLED_SHEETS))
def test_bundled_games_print_every_piece_on_fewer_sheets(game: str) -> None:
    the_plan = _plan(game)
    fronts = _fronts(the_plan)
    before, after = BUNDLED_SHEETS[game]
    assert len(fronts) <= after <= before  # measured; one component per sheet took `before`
    printed = {id(page.pieces[p.index]) for page in fronts for p in page.layout.placements}  # type: ignore[union-attr]
    pieces = [piece for page in fronts for piece in page.pieces]
    assert {id(piece) for piece in pieces} == printed  # every copy of every component
    numbers = sorted({n for line in the_plan.inventory for n in line.sheet_numbers})
    assert numbers == list(range(1, len(fronts) + 1))  # the cover's numbers are the sheets
    for line in the_plan.inventory:
        assert line.sheets == len(line.sheet_numbers) >= 1


def test_polyhex_tiles_nest_turned_and_are_drawn_where_placed(make_spec: SpecMaker, tmp_path: Path) -> None:
    folder = make_spec(BARS, tiles__yaml=BAR_TILES)
    the_plan = _plan(folder)
    frame = the_plan.frame
    front, back = (p for p in the_plan.pages if p.kind == "pieces")
    assert front.layout is not None and back.layout is not None
    # a straight bar of five 42 mm hexes (210 mm) fits the 195 mm wide area only turned 60° or 120°
    assert all(p.angle % 180 in (60.0, 120.0) for p in front.layout.placements)
    dpi = 30
    pdf = build(BuildRequest(folder, BuildOptions(out_dir=tmp_path / "out"))).files[0]
    images = render_page(pdf, 1, dpi), render_page(pdf, 2, dpi)
    for page, image, colour in ((front, images[0], (255, 0, 0)), (back, images[1], (0, 0, 255))):
        for placement in page.layout.placements:  # type: ignore[union-attr]
            piece = page.pieces[placement.index]
            cells = piece.cells if page.side == "face" else tuple((-q - r, r) for q, r in piece.cells)
            radius = 42 * MM / math.sqrt(3)
            centres = [hexgrid.to_pixel(c, radius) for c in cells]
            left = min(x for x, _ in centres) - 42 * MM / 2
            top = min(y for _, y in centres) - radius
            local = [(x - left, y - top) for x, y in centres]
            for x, y in to_page(placement, local, (piece.width, piece.height)):
                assert _near(_colour_at(image, x, y, dpi), colour)
            outline = to_page(placement, trim_outline(piece), (piece.width, piece.height))
            x0, y0, x1, y1 = Polygon(outline).bounds  # the cut line is where the placement says
            assert (x0, y0, x1, y1) == pytest.approx(
                (placement.x, placement.y, placement.x + placement.width, placement.y + placement.height),
                abs=0.01,
            )
            assert frame.margin - 0.01 <= x0 and x1 <= frame.width - frame.margin + 0.01


def test_delphi_polyhex_tiles_interlock_two_bleeds_apart() -> None:
    the_plan = _plan("delphi")
    frame = the_plan.frame
    sheets = [p for p in _fronts(the_plan) if set(_names(p)) <= {"island-tiles", "city-tiles"}]
    assert len(sheets) <= 4  # 12 islands and 6 cities took 4 + 1 sheets as bounding boxes
    for page in sheets:
        outlines = [
            Polygon(
                to_page(
                    p,
                    trim_outline(page.pieces[p.index]),
                    (page.pieces[p.index].width, page.pieces[p.index].height),
                )
            )  # noqa: E501
            for p in page.layout.placements  # type: ignore[union-attr]
        ]
        for i, a in enumerate(outlines):
            assert all(a.distance(b) >= 2 * frame.bleed - 0.01 for b in outlines[i + 1 :])


def test_shared_sheets_rebuild_byte_identical(make_spec: SpecMaker, tmp_path: Path) -> None:
    folder = make_spec(MIXED + BARS.split("components:\n")[1], tiles__yaml=BAR_TILES)
    first = build(BuildRequest(folder, BuildOptions(out_dir=tmp_path / "a"))).files[0].read_bytes()
    second = build(BuildRequest(folder, BuildOptions(out_dir=tmp_path / "b"))).files[0].read_bytes()
    assert first == second
