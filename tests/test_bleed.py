"""Every piece keeps its bleed round its cut line: hexes, round tokens and polyhex tiles at the top of a
sheet, in the band below another block, and on a short row; read from the rendered PDF's pixels. And no
bundled game leaves a block's bleed cut off at the art area's edge where the block had room to move."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import MM, SpecMaker, render_page
from shapely.geometry import Polygon

from pnpforge.build import BuildOptions, Plan, plan
from pnpforge.catalog import games
from pnpforge.components.load import load_target
from pnpforge.draw import write
from pnpforge.fonts import FontRegistry
from pnpforge.layouts.imposition.placement import page_area, to_page
from pnpforge.layouts.shapes import bleed_outline, hex_points, rounded_rect_points, trim_outline

DPI = 100
RING = 2.5 * MM  # where the bleed is sampled: half a millimetre inside its 3 mm edge
TOLERANCE = 0.1 * MM
SPEC = """\
game: {id: bleeding, title: Bleeding}
defaults: {duplex: none}
components:
  - {name: cards, kind: card, size: poker, count: 3, face: {background: "#ff0000"}}
  - {name: hexes, kind: tile, size: 30mm, count: 9, face: {background: "#00a000"}}
  - {name: coins, kind: token, size: 20mm, count: 10, new_sheet: true, face: {background: "#0000ff"}}
  - name: islands
    kind: tile
    shape: polyhex
    size: 25mm
    cells: {data: islands.yaml, list: tiles}
    face: {background: "#ff8000"}
  - name: bars
    kind: tile
    shape: polyhex
    size: 30mm
    gutter: 8mm
    new_sheet: true
    cells: {data: bars.yaml, list: tiles}
    face: {background: "#a000a0"}
"""
ISLANDS = (
    "tiles: [{id: a, cells: [[0, 0], [1, 0], [0, 1]]}, {id: b, cells: [[0, 0], [1, 0], [2, 0], [1, 1]]}]\n"
)
BARS = "tiles: [{id: a, cells: [[0, 0], [1, 0], [2, 0]]}, {id: b, cells: [[0, 0], [1, 0], [2, 0]]}]\n"


def _rgb(hex_colour: str) -> tuple[int, int, int]:
    return (int(hex_colour[1:3], 16), int(hex_colour[3:5], 16), int(hex_colour[5:7], 16))


@pytest.mark.parametrize("page", ["a4", "letter"])
def test_hexes_tokens_and_polyhexes_show_their_bleed_all_round(
    make_spec: SpecMaker, tmp_path: Path, page: str
) -> None:
    """Sheet 1: cards, then hexes in the band below them (a short second row); sheet 2: round tokens at
    the top, polyhexes below them; sheet 3: polyhexes at the top. 2.5 mm outside every cut line the
    rendered page shows the piece's colour, except where a neighbour is nearer (its share of the gap)."""
    folder = make_spec(SPEC, islands__yaml=ISLANDS, bars__yaml=BARS)
    options = BuildOptions(out_dir=tmp_path / "out", page=page)
    the_plan = plan(load_target(folder), options)
    (pdf,) = write(the_plan, options)
    missing: list[str] = []
    checked = 0
    for number, doc_page in enumerate(the_plan.pages):
        if doc_page.layout is None:
            continue
        image = render_page(pdf, number, DPI)
        trims = [
            (doc_page.pieces[p.index], Polygon(to_page(p, trim_outline(piece), (piece.width, piece.height))))
            for p in doc_page.layout.placements
            for piece in [doc_page.pieces[p.index]]
        ]
        for k, (piece, trim) in enumerate(trims):
            want = _rgb(piece.component.face.background)  # type: ignore[union-attr]
            ring = trim.buffer(RING, join_style="mitre").exterior
            for step in range(120):
                spot = ring.interpolate(step / 120, normalized=True)
                if any(o.distance(spot) <= RING + 0.5 * MM for j, (_, o) in enumerate(trims) if j != k):
                    continue  # a neighbour's cut is this close: the gap is shared
                checked += 1
                rgb = image.getpixel((int(spot.x / 72 * DPI), int(spot.y / 72 * DPI)))
                if max(abs(a - b) for a, b in zip(rgb, want, strict=True)) > 40:
                    where = f"{spot.x / MM:.1f},{spot.y / MM:.1f} mm"
                    missing.append(f"page {number + 1} {piece.component.name} #{k}: {rgb} at {where}")
    assert checked > 1500
    assert missing == []


def _blocks_cut_with_room(the_plan: Plan) -> list[str]:
    """Blocks whose art the art area cuts on a side although moving the block would keep it (a block
    below another on a shared sheet cannot move up, so only the sheet's first block counts down there)."""
    frame = the_plan.frame
    ax0, ay0, ax1, ay1 = page_area(frame)
    out = []
    for number, page in enumerate(the_plan.pages, start=1):
        if page.layout is None or page.layout.board is not None or page.side != "face":
            continue
        for k, block in enumerate(page.layout.blocks):
            outlines = [
                Polygon(to_page(p, bleed_outline(piece, frame.bleed), (piece.width, piece.height))).bounds
                for p in block.placements
                if not p.face
                for piece in [page.pieces[p.index]]
            ]
            if not outlines:
                continue
            x0, y0 = min(o[0] for o in outlines), min(o[1] for o in outlines)
            x1, y1 = max(o[2] for o in outlines), max(o[3] for o in outlines)
            cut_x = max(ax0 - x0, x1 - ax1) > TOLERANCE
            cut_y = max(ay0 - y0, y1 - ay1) > TOLERANCE
            if (cut_x and x1 - x0 <= ax1 - ax0) or (k == 0 and cut_y and y1 - y0 <= ay1 - ay0):
                names = sorted({page.pieces[p.index].component.name for p in block.placements})
                out.append(f"{the_plan.id} {the_plan.page_name} page {number}: {', '.join(names)}")
    return out


@pytest.mark.parametrize("page", ["a4", "letter"])
def test_no_bundled_block_loses_bleed_it_had_room_to_keep(page: str) -> None:
    found = []
    for game in (g.id for g in games() if g.bundled):
        the_plan = plan(load_target(game), BuildOptions(page=page), FontRegistry(search=False), check=False)
        found += _blocks_cut_with_room(the_plan)
    assert found == []


def _shapely_touches(trim: list[tuple[float, float]], outline: list[tuple[float, float]]) -> bool:
    """What the geometry itself says: does the element, grown by TOUCH, meet the cut line?"""
    from pnpforge.layouts.faces.bleed import TOUCH

    edge = Polygon(trim).exterior.intersection(Polygon(outline).buffer(0).buffer(TOUCH))
    return not edge.is_empty and edge.length >= TOUCH


@pytest.mark.parametrize(
    "trim",
    [
        rounded_rect_points(0, 0, 63 * MM, 88 * MM, 3 * MM),  # a poker card's rounded corners
        rounded_rect_points(0, 0, 40 * MM, 40 * MM, 0),  # a square tile
        rounded_rect_points(0, 0, 20 * MM, 20 * MM, 10 * MM),  # a round token drawn as a rounded square
        hex_points(15 * MM, 15 * MM, 15 * MM, "pointy"),
        hex_points(15 * MM, 15 * MM, 15 * MM, "flat"),
    ],
)
def test_the_quick_clear_test_never_says_clear_where_the_geometry_finds_the_cut_line(
    trim: list[tuple[float, float]],
) -> None:
    """The test that spares importing shapely answers "clear" only where shapely finds no edge to carry,
    over rectangles and rotated bands swept across each cut line, and for the bench card's title band
    (clear, as shapely says too) and a band reaching the top (never clear)."""
    from pnpforge.layouts.faces.bleed import _surely_clear

    xs, ys = [x for x, _ in trim], [y for _, y in trim]
    w, h = max(xs), max(ys)
    said_clear = 0
    for step in range(0, 41):
        inset = step * 0.25 * MM  # from on the cut line to 10 mm inside it
        for a, b in ((0.0, 0.0), (0.3, 0.1), (0.1, 0.4)):
            box = [
                (inset + a * MM, inset),
                (w - inset, inset + b * MM),
                (w - inset - a, h - inset),
                (inset, h - inset - b),
            ]
            band = [
                (inset, inset),
                (w - inset, inset),
                (w - inset, inset + 12 * MM),
                (inset, inset + 12 * MM),
            ]
            for outline in (box, band):
                if _surely_clear(trim, outline):
                    said_clear += 1
                    assert not _shapely_touches(trim, outline), (inset, a, b, outline)
    assert said_clear > 20  # the quick test does spare the geometry for elements well inside
    title_band = rounded_rect_points(3 * MM, 3 * MM, 57 * MM, 12 * MM, 2 * MM)
    card = rounded_rect_points(0, 0, 63 * MM, 88 * MM, 3 * MM)
    assert _surely_clear(card, title_band) and not _shapely_touches(card, title_band)
    top = [(3 * MM, 0.2 * MM), (60 * MM, 0.2 * MM), (60 * MM, 12 * MM), (3 * MM, 12 * MM)]
    assert not _surely_clear(card, top) and _shapely_touches(card, top)


def test_a_concave_cut_line_is_left_to_the_geometry() -> None:
    from pnpforge.layouts.faces.bleed import _surely_clear

    notched = [(0.0, 0.0), (100.0, 0.0), (100.0, 100.0), (50.0, 40.0), (0.0, 100.0)]
    assert not _surely_clear(notched, [(40.0, 10.0), (60.0, 10.0), (60.0, 20.0), (40.0, 20.0)])
