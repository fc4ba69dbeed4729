"""No sliver anywhere: every cut piece of the five games, rendered by pdfium, has art right out to its
bleed edge wherever the art reaches its cut line, at the corners (where a full-width band's corner arc
starts a wedge of paper once showed) and along the sides (where a band's side bleed once hung 0.42 mm
below the band)."""

from __future__ import annotations

import math
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from click.testing import CliRunner
from conftest import MM, SpecMaker
from PIL import Image
from pypdf import PdfReader
from shapely.geometry import Point as ShapelyPoint
from shapely.geometry import Polygon, box

from pnpforge.build import BuildOptions, Plan, back_of, plan
from pnpforge.catalog import games
from pnpforge.cli import main
from pnpforge.components.load import load_target
from pnpforge.draw import write
from pnpforge.export import ExportOptions, prepare
from pnpforge.export.pages import render, side_page
from pnpforge.export.sides import Side, sides
from pnpforge.layouts.imposition.placement import BoardPart, Placement, page_area, to_page
from pnpforge.layouts.shapes import trim_outline

CORNER_DPI = 600  # a pixel is 0.04 mm: a wedge of paper a tenth of a millimetre wide shows white
SIDE_DPI = 300
PAPER = 250  # every channel at least this: paper (an anti-aliased edge of a thin wedge still counts)
INSIDE = 0.75 * MM  # the art is read this far inside the cut line (past a hairline stroke on it)
STEP = 0.1 * MM  # along the cut line
TURN = math.radians(1)  # a vertex turning more than this is part of a corner
CORNER = 4 * MM  # a point this near a turning vertex is in a corner region
HANG = 0.2 * MM  # a side's bleed may run this far past the art inside (anti-aliasing, sampling)


def _paper(pixel: tuple[int, ...]) -> bool:
    return min(pixel[:3]) >= PAPER


def _sides(target: str | Path) -> tuple[list[Side], list[tuple[float, float, float]], bytes]:
    """Every cut piece side on its own export page: sides, (left, top, bleed) of each page, the PDF."""
    prepared = prepare(target, "images", ExportOptions())
    chosen = [
        side
        for group in prepared.groups
        if group.component.kind != "sheet"  # a sheet is not cut: it has no bleed to keep
        for side in sides(group, every_back=True)
    ]
    pages = [side_page(side, prepared.ctx) for side in chosen]
    return chosen, [(*page.margins[:2], page.bleed) for page in pages], render(pages, "bleed")


def _walk(outline: list[tuple[float, float]]) -> list[tuple[float, float, float, float, bool]]:
    """Points every STEP along the closed outline: (x, y, outward normal x, y, at a corner)."""
    count = len(outline)
    area = sum(
        outline[k][0] * outline[(k + 1) % count][1] - outline[(k + 1) % count][0] * outline[k][1]
        for k in range(count)
    )
    turn = 1.0 if area > 0 else -1.0  # clockwise on the page (y down) has a positive shoelace sum
    directions = []
    for k in range(count):
        (x0, y0), (x1, y1) = outline[k], outline[(k + 1) % count]
        length = math.hypot(x1 - x0, y1 - y0)
        directions.append(((x1 - x0) / length, (y1 - y0) / length, length) if length > 1e-9 else None)
    corner = [
        d is not None
        and p is not None
        and abs(math.atan2(p[0] * d[1] - p[1] * d[0], p[0] * d[0] + p[1] * d[1])) > TURN
        for p, d in ((directions[k - 1], directions[k]) for k in range(count))
    ]
    corners = [outline[k] for k in range(count) if corner[k]]
    points = []
    for k, found in enumerate(directions):
        if found is None:
            continue
        dx, dy, length = found
        x0, y0 = outline[k]
        steps = max(1, int(length / STEP))
        for s in range(steps):
            t = s * length / steps
            nx, ny = turn * dy, -turn * dx
            if s == 0 and directions[k - 1] is not None:  # a vertex: the bisector of its two sides
                px, py, _ = directions[k - 1]  # type: ignore[misc]
                bx, by = nx + turn * py, ny - turn * px
                norm = math.hypot(bx, by)
                if norm > 1e-6:
                    nx, ny = bx / norm, by / norm
            x, y = x0 + dx * t, y0 + dy * t
            near_corner = any(math.hypot(x - cx, y - cy) < CORNER for cx, cy in corners)
            points.append((x, y, nx, ny, near_corner))
    return points


def corner_slivers(image: Image.Image, side: Side, left: float, top: float, bleed: float) -> list[str]:
    """Where the art just inside the cut line is coloured but paper shows somewhere across the bleed
    beyond it, at the corners (and on stretches under 2 mm: the facets of a round piece)."""
    scale = CORNER_DPI / 72
    found = []
    for x, y, nx, ny, near_corner in _walk(trim_outline(side.piece)):
        if not near_corner:
            continue
        px, py = x + left, y + top
        if _paper(image.getpixel((int((px - nx * INSIDE) * scale), int((py - ny * INSIDE) * scale)))):
            continue
        for fraction in (0.05, 0.25, 0.5, 0.75, 0.92):
            d = bleed * fraction
            at = (int((px + nx * d) * scale), int((py + ny * d) * scale))
            if _paper(image.getpixel(at)):
                found.append(f"({x / MM:.2f}, {y / MM:.2f}) mm, {d / MM:.2f} mm out")
                break
    return found


def side_overhangs(image: Image.Image, side: Side, left: float, top: float, bleed: float) -> list[str]:
    """Where a side's bleed runs on coloured more than HANG past the end of the art inside it, to end
    on paper (a band's side bleed hanging below the band). A gap in the art with art on both sides
    (a letter near the edge) is not an end: its bleed is the art's around it."""
    scale = SIDE_DPI / 72
    states = []  # per point along the cut line, corners skipped: "art", "hang" or "paper"; None: a corner
    for x, y, nx, ny, near_corner in _walk(trim_outline(side.piece)):
        if near_corner:
            states.append((x, y, None))
            continue
        px, py = x + left, y + top
        inside = image.getpixel((int((px - nx * INSIDE) * scale), int((py - ny * INSIDE) * scale)))
        outside = image.getpixel((int((px + nx * bleed / 2) * scale), int((py + ny * bleed / 2) * scale)))
        state = "art" if not _paper(inside) else ("paper" if _paper(outside) else "hang")
        states.append((x, y, state))
    found = []
    k = 0
    while k < len(states):
        if states[k][2] != "hang":
            k += 1
            continue
        end = k
        while end < len(states) and states[end][2] == "hang":
            end += 1
        before = states[k - 1][2] if k > 0 else None
        after = states[end][2] if end < len(states) else None
        if {before, after} == {"art", "paper"} and (end - k) * STEP > HANG:
            found.append(
                f"({states[k][0] / MM:.2f}, {states[k][1] / MM:.2f}) mm, {(end - k) * STEP / MM:.2f} mm"
            )
        k = end
    return found


def _check(target: str | Path) -> tuple[list[str], int]:
    chosen, places, pdf = _sides(target)
    document = pdfium.PdfDocument(pdf)
    problems: list[str] = []
    for index, (side, (left, top, bleed)) in enumerate(zip(chosen, places, strict=True)):
        page = document[index]
        fine = page.render(scale=CORNER_DPI / 72).to_pil().convert("RGB")
        coarse = page.render(scale=SIDE_DPI / 72).to_pil().convert("RGB")
        slivers = corner_slivers(fine, side, left, top, bleed)
        hangs = side_overhangs(coarse, side, left, top, bleed)
        if slivers:
            problems.append(f"{side.stem}: paper in the bleed at {len(slivers)} corner points, {slivers[0]}")
        if hangs:
            problems.append(f"{side.stem}: bleed hangs past the art at {len(hangs)} points, {hangs[0]}")
    return problems, len(chosen)


@pytest.mark.parametrize("game", [game.id for game in games()])
def test_no_piece_shows_paper_at_a_corner_or_a_bleed_past_its_art(game: str) -> None:
    problems, checked = _check(game)
    assert checked > 5
    assert not problems, problems


BAND = """\
game: {id: bands, title: Bands}
defaults: {bleed: 3mm}
components:
  - name: cards
    kind: card
    size: poker
    corner: 3mm
    count: 1
    face:
      background: white
      elements:
        - {type: rect, x: 0, y: 0, w: 100%, h: 12mm, fill: "#c02030", pattern: stripes}
        - {type: rect, x: 0, y: 60mm, w: 100%, h: 28mm, fill: "#203080"}
"""


def test_a_full_width_band_with_round_corners_meets_the_bleed_edge(make_spec: SpecMaker) -> None:
    """The designer's own card of the issue: a full-width top band on a card with 3 mm corners."""
    problems, checked = _check(make_spec(BAND))
    assert checked == 1 and not problems, problems


def test_the_checks_see_a_wedge_and_an_overhang(
    make_spec: SpecMaker, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The checks are not blind: with the cut line's stretches as they were (split where the ring
    starts, reaching TOUCH past the element), the wedge and the hanging side bleed are found."""
    from pnpforge.layouts.faces import bleed

    monkeypatch.setattr(bleed, "_stretches", lambda edge, outline: edge)
    bleed._extension.cache_clear()
    try:
        problems, _ = _check(make_spec(BAND))
    finally:
        bleed._extension.cache_clear()
    assert any("paper in the bleed" in p for p in problems), problems
    assert any("hangs past the art" in p for p in problems), problems


@pytest.mark.parametrize("page", ["a4", "letter"])
def test_a_board_in_parts_keeps_its_bleed_past_every_outer_edge(page: str, tmp_path: Path) -> None:
    """Ankh's board is printed in parts; past the board's own edges each part's art runs on into the
    bleed (it once stopped at the crop marks), read from the built PDF's pixels."""
    options = BuildOptions(out_dir=tmp_path, page=page)
    the_plan = plan(load_target("ankh"), options)
    (pdf,) = write(the_plan, options)
    document = pdfium.PdfDocument(pdf)
    frame, scale = the_plan.frame, SIDE_DPI / 72
    ax0, ay0, ax1, ay1 = page_area(frame)
    checked = 0
    for number, doc_page in enumerate(the_plan.pages):
        layout = doc_page.layout
        if layout is None or layout.board is None or doc_page.side != "face":
            continue
        part, placement = layout.board, layout.placements[0]
        wx0, wy0, wx1, wy1 = part.window
        width, height = part.board_size
        x0, y0 = placement.x + wx0, placement.y + wy0  # the window's trim on the page
        x1, y1 = placement.x + wx1, placement.y + wy1
        assert (
            ax0 - 1e-6 <= x0 - (frame.bleed if wx0 == 0 else 0)
            and y0 - (frame.bleed if wy0 == 0 else 0) >= ay0 - 1e-6
        )
        assert x1 + (frame.bleed if wx1 == width else 0) <= ax1 + 1e-6
        assert y1 + (frame.bleed if wy1 == height else 0) <= ay1 + 1e-6
        image = document[number].render(scale=scale).to_pil().convert("RGB")
        out = frame.bleed - 0.4 * MM  # just inside the bleed edge
        middle_x, middle_y = (x0 + x1) / 2, (y0 + y1) / 2
        samples = []
        if wx0 == 0:
            samples.append((x0 - out, middle_y))
        if wx1 == width:
            samples.append((x1 + out, middle_y))
        if wy0 == 0:
            samples.append((middle_x, y0 - out))
        if wy1 == height:
            samples.append((middle_x, y1 + out))
        for x, y in samples:
            assert not _paper(image.getpixel((int(x * scale), int(y * scale)))), (page, number + 1, x, y)
            checked += 1
    assert checked >= 8  # every part has two outer edges at least


HOME_DPI = 100  # a pixel is 0.25 mm
HOME_TOLERANCE = 0.5 * MM  # two pixels: rendering and sampling
HOME_INSIDE = (0.35 * MM, 0.5 * MM, 0.75 * MM, 1.0 * MM)  # art all along here reaches the cut line
# (a frame drawn a millimetre inside a white piece does not: its bleed is white)
HOME_TARGETS = [game.id for game in games()] + [str(Path(__file__).parents[1] / "examples" / "tiny-quest")]


def _at(image: Image.Image, x: float, y: float) -> tuple[int, ...]:
    """The pixel at a page point (points), clamped to the image."""
    scale = HOME_DPI / 72
    column = min(image.width - 1, max(0, int(x * scale)))
    pixel = image.getpixel((column, min(image.height - 1, max(0, int(y * scale)))))
    assert isinstance(pixel, tuple)
    return pixel


def _trim_on_page(placement: Placement, part: BoardPart | None) -> Polygon:
    """What a placement's cut lines enclose on the page: its trim box, or a board part's window."""
    if part is None:
        return box(placement.x, placement.y, placement.x + placement.width, placement.y + placement.height)
    x0, y0, x1, y1 = part.window
    corners = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
    return Polygon(to_page(placement, corners, part.board_size))


def _in_window(part: BoardPart | None, x: float, y: float) -> bool:
    """Whether a point of a board's cut line lies on this part, clear of its inner edges (where the
    part stops at the window, lying under its neighbour): there its bleed is the board's own."""
    if part is None:
        return True
    x0, y0, x1, y1 = part.window
    width, height = part.board_size
    clear = 1 * MM
    return (
        (x0 <= 0 or x >= x0 + clear)
        and (y0 <= 0 or y >= y0 + clear)
        and (x1 >= width or x <= x1 - clear)
        and (y1 >= height or y <= y1 - clear)
    )


def home_bleed_problems(the_plan: Plan, document: pdfium.PdfDocument) -> tuple[list[str], int]:
    """Where a home build's piece shows paper less than its whole bleed past its cut line, on a side
    where its art reaches the cut line (corners left to the sliver test), board parts past the board's
    own edges; and how many points were read."""
    problems: list[str] = []
    checked = 0
    bleed = the_plan.frame.bleed
    for number, doc_page in enumerate(the_plan.pages):
        if doc_page.layout is None or doc_page.kind != "pieces":
            continue
        layers = [(doc_page.layout, doc_page.side)]
        if doc_page.folded is not None:
            layers.append((doc_page.folded, "back"))
        image = document[number].render(scale=HOME_DPI / 72).to_pil().convert("RGB")
        for layer, side in layers:
            others = [  # every trim on the layer: past a shared cut line lies a neighbour, not bleed
                (p, _trim_on_page(p, block.board).buffer(-0.1 * MM))
                for block in layer.blocks
                for p in block.placements
            ]
            for block in layer.blocks:
                for placement in block.placements:
                    piece = doc_page.pieces[placement.index]
                    if piece.component.kind in ("sheet", "die"):  # sheets are not cut; dice are nets
                        continue
                    piece = back_of(piece) if side == "back" else piece
                    size = (piece.width, piece.height)
                    boxed = piece.component.shape in ("rect", "square")
                    for x, y, nx, ny, near_corner in _walk(trim_outline(piece))[::20]:  # every 2 mm
                        if near_corner and boxed:  # a card's corners: the sliver test above
                            continue  # (a round or hex piece's outline turns everywhere: all read)
                        if not _in_window(block.board, x, y):
                            continue
                        (px, py), (qx, qy) = to_page(placement, [(x, y), (x + nx, y + ny)], size)
                        ux, uy = qx - px, qy - py  # the outward normal on the page
                        reach = bleed - HOME_TOLERANCE
                        out = (px + ux * reach, py + uy * reach)
                        inside = (_at(image, px - ux * d, py - uy * d) for d in HOME_INSIDE)
                        if any(_paper(pixel) for pixel in inside) or any(  # art short of the cut line
                            q is not placement and area.contains(ShapelyPoint(out)) for q, area in others
                        ):
                            continue
                        checked += 1
                        if _paper(_at(image, *out)):
                            problems.append(
                                f"p{number + 1} {side} {piece.component.name}: paper "
                                f"{reach / MM:.2f} mm out at ({px / MM:.1f}, {py / MM:.1f}) mm"
                            )
    return problems, checked


@pytest.mark.parametrize("page", ["a4", "letter"])
@pytest.mark.parametrize("target", HOME_TARGETS, ids=lambda t: Path(t).name)
def test_every_home_piece_keeps_its_bleed_past_every_side(target: str, page: str, tmp_path: Path) -> None:
    """Every cut piece of a home build, front and back, shows art at least its whole bleed past its cut
    line on every side where its art reaches the cut line, read from the built PDF's pixels at the
    places the build's own layout puts each trim (the marks' band, a neighbour's cut line or a back
    missing beside it once cut it to 0.1–1 mm; Ankh's devotion track on Letter, as long as the page
    less its bleed, kept 1.2 mm before it was printed in parts); board parts past the board's own
    edges. Past a cut line two neighbours share lies the neighbour's own art: not read."""
    options = BuildOptions(out_dir=tmp_path, page=page)
    the_plan = plan(load_target(target), options)
    (pdf,) = write(the_plan, options)
    problems, checked = home_bleed_problems(the_plan, pdfium.PdfDocument(pdf))
    assert checked > 100
    assert not problems, problems[:10]


LONG = """\
game: {id: long, title: Long}
defaults: {bleed: 3mm, duplex: none}
components:
  - name: track
    kind: card
    size: 60x279mm
    count: 1
    face:
      background: "#2060a0"
      elements:
        - {type: rect, x: 0, y: 0, w: 100%, h: 20mm, fill: "#a02020"}
"""


def test_a_card_that_fits_only_without_its_bleed_is_printed_in_parts(
    make_spec: SpecMaker, tmp_path: Path
) -> None:
    """A 60 × 279 mm card fits A4's 282 mm inside the marks, but not with a 3 mm bleed past both ends:
    it is printed as a board is, in overlapping parts with an assembly page, each part keeping its
    whole bleed past the card's own edges (read from the pixels), the parts covering the whole card."""
    result = CliRunner().invoke(main, ["build", str(make_spec(LONG)), "-o", str(tmp_path), "--page", "a4"])
    assert result.exit_code == 0, result.output
    options = BuildOptions(out_dir=tmp_path / "again", page="a4")
    the_plan = plan(load_target(make_spec(LONG)), options)
    assert [page.kind for page in the_plan.pages] == ["cover", "assembly", "pieces"]
    parts = [block.board for block in the_plan.pages[2].layout.blocks]  # type: ignore[union-attr]
    assert len(parts) == 2 and all(part is not None for part in parts)
    windows = sorted(part.window for part in parts if part is not None)
    assert windows[0][1] == 0 and windows[1][3] == pytest.approx(279 * MM)
    assert windows[0][3] - windows[1][1] == pytest.approx(10 * MM)  # the default overlap
    (pdf,) = write(the_plan, options)
    assert len(PdfReader(pdf).pages) == 3
    problems, checked = home_bleed_problems(the_plan, pdfium.PdfDocument(pdf))
    assert checked > 100
    assert not problems, problems[:10]
