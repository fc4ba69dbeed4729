"""Print it tonight: every bundled game and the `new` scaffold built on A4 and Letter (portrait), the
real PDFs measured. Marks, labels and footers lie inside the printer margin; no mark touches art;
every straight cut line of every piece has a mark on its line; every piece lies inside its page."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import MM, Segment, pdf_crop_marks
from shapely.geometry import LineString, Point, Polygon, box

from pnpforge.build import BuildOptions, Plan, plan, write
from pnpforge.catalog import games
from pnpforge.cli import main
from pnpforge.components.load import load_target
from pnpforge.layouts import imposition as imp
from pnpforge.layouts.imposition import Placement

ON_LINE = 1.0 * MM  # a mark counts for a cut line within 1 mm of it
GAMES = [game.id for game in games() if game.bundled]


@pytest.fixture(scope="module")
def scaffold(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("scaffold") / "my-game"
    result = CliRunner().invoke(main, ["new", str(folder)])
    assert result.exit_code == 0, result.output
    return folder


def _art(p: Placement, bleed: float) -> Polygon:
    grown = box(p.x - bleed, p.y - bleed, p.x + p.width + bleed, p.y + p.height + bleed)
    return Polygon(p.clip) if p.clip else grown


def _problems(the_plan: Plan, marks: list[list[Segment]], text_boxes: list[list[tuple]]) -> list[str]:
    """Every way the built pages break the print rules, as readable lines (empty: all good)."""
    frame = the_plan.frame
    printable = box(*frame.printable).buffer(0.01)
    art_area = box(*imp.page_area(frame))
    out: list[str] = []
    for number, (page, drawn) in enumerate(zip(the_plan.pages, marks, strict=True), start=1):
        where = f"{the_plan.id} {the_plan.page_name} page {number}"
        for a, b in drawn:
            if not printable.contains(LineString([a, b])):
                out.append(f"{where}: mark {a}-{b} outside the printable area")
        placements = page.layout.placements if page.layout else []
        arts = [_art(p, frame.bleed).intersection(art_area) for p in placements]
        owned = [_art(replace(p, clip=None), frame.bleed) for p in placements]  # what a piece may draw
        for x0, y0, x1, y1 in text_boxes[number - 1]:
            inside_art = any(art.contains(Point((x0 + x1) / 2, (y0 + y1) / 2)) for art in owned)
            if not inside_art and not printable.contains(box(x0, y0, x1, y1)):  # art is clipped to it
                out.append(f"{where}: text at {x0 / MM:.1f},{y0 / MM:.1f} mm outside the printable area")
        if page.layout is None:
            continue
        for a, b in drawn:
            if any(LineString([a, b]).intersects(art) for art in arts):
                out.append(f"{where}: mark {a}-{b} crosses art")
        for p in page.layout.placements:
            trim = box(p.x, p.y, p.x + p.width, p.y + p.height)
            if page.layout.board is not None:  # a board split over pages: this page's window of it
                trim = trim.intersection(_art(p, 0))
            if not art_area.buffer(0.01).contains(trim):
                out.append(f"{where}: piece {p.index} at {p.x / MM:.1f},{p.y / MM:.1f} mm off its page")
        for block in page.layout.blocks:
            if not (block.cuts_x or block.cuts_y):
                continue  # hexes, tokens, die nets: their cut outline is drawn on the trim
            xs: set[float] = set(block.cuts_x) if block.board else set()
            ys: set[float] = set(block.cuts_y) if block.board else set()
            for p in [] if block.board else block.placements:  # each piece's own four edges
                xs |= {p.x, p.x + p.width}
                ys |= {p.y, p.y + p.height}
            for x in sorted(xs):
                if not any(abs(a[0] - x) <= ON_LINE and abs(b[0] - x) <= ON_LINE for a, b in drawn):
                    out.append(f"{where}: no mark on the cut x = {x / MM:.1f} mm")
            for y in sorted(ys):
                if not any(abs(a[1] - y) <= ON_LINE and abs(b[1] - y) <= ON_LINE for a, b in drawn):
                    out.append(f"{where}: no mark on the cut y = {y / MM:.1f} mm")
    return sorted(set(out))


def _text_boxes(pdf: Path) -> list[list[tuple]]:
    """Per page, each drawn character's box in points from the top-left corner (pdfium's measure)."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(str(pdf))
    out = []
    try:
        for page in document:
            height = page.get_height()
            text = page.get_textpage()
            boxes = []
            for k in range(text.count_chars()):
                if text.get_text_range(k, 1).strip():
                    left, bottom, right, top = text.get_charbox(k)
                    boxes.append((left, height - top, right, height - bottom))
            out.append(boxes)
    finally:
        document.close()
    return out


@pytest.mark.parametrize("page", ["a4", "letter"])
@pytest.mark.parametrize("game", [*GAMES, "scaffold"])
def test_every_cut_is_marked_inside_the_printer_margin(
    game: str, page: str, scaffold: Path, tmp_path: Path
) -> None:
    target = scaffold if game == "scaffold" else game
    options = BuildOptions(out_dir=tmp_path, page=page)
    the_plan = plan(load_target(target), options)
    (pdf,) = write(the_plan, options)
    assert _problems(the_plan, pdf_crop_marks(pdf), _text_boxes(pdf)) == []
