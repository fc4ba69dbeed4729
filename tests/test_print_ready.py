"""Print it tonight: every bundled game and the `new` scaffold built on A4 and Letter (portrait), the
real PDFs measured. Marks, labels and footers lie inside the printer margin; no mark touches art;
every straight cut line of every piece has a mark on its line; every piece lies inside its page."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import MM, REPO, Segment, SpecMaker, pdf_crop_marks, require_cjk
from pypdf import PdfReader
from shapely.geometry import LineString, Point, Polygon, box

from pnpforge.build import BuildOptions, Plan, plan
from pnpforge.catalog import games
from pnpforge.cli import main
from pnpforge.components.load import load_target
from pnpforge.draw import write
from pnpforge.fonts import FontRegistry
from pnpforge.layouts.imposition.placement import Placement, page_area

ON_LINE = 1.0 * MM  # a mark counts for a cut line within 1 mm of it
LEGIBLE = 6.0  # points: no text is set smaller
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
    px0, py0, px1, py1 = printable.bounds
    art_area = box(*page_area(frame))
    out: list[str] = []
    for number, (page, drawn) in enumerate(zip(the_plan.pages, marks, strict=True), start=1):
        where = f"{the_plan.id} {the_plan.page_name} page {number}"
        for a, b in drawn:
            if not printable.contains(LineString([a, b])):
                out.append(f"{where}: mark {a}-{b} outside the printable area")
        layers = [lay for lay in (page.layout, page.folded) if lay is not None]  # fold: backs beside fronts
        blocks = [block for lay in layers for block in lay.blocks]
        placements = [p for block in blocks for p in block.placements]
        arts = [_art(p, frame.bleed).intersection(art_area) for p in placements]
        owned = [_art(replace(p, clip=None), frame.bleed) for p in placements]  # what a piece may draw
        for x0, y0, x1, y1 in text_boxes[number - 1]:
            if px0 <= x0 and py0 <= y0 and x1 <= px1 and y1 <= py1:
                continue
            if not any(art.contains(Point((x0 + x1) / 2, (y0 + y1) / 2)) for art in owned):  # art is clipped
                out.append(f"{where}: text at {x0 / MM:.1f},{y0 / MM:.1f} mm outside the printable area")
        if page.layout is None:
            continue
        for a, b in drawn:
            if any(LineString([a, b]).intersects(art) for art in arts):
                out.append(f"{where}: mark {a}-{b} crosses art")
        for block in blocks:
            for p in block.placements:
                trim = box(p.x, p.y, p.x + p.width, p.y + p.height)
                if block.board is not None:  # a board split in parts: this part's window of it
                    trim = trim.intersection(_art(p, 0))
                if not art_area.buffer(0.01).contains(trim):
                    out.append(f"{where}: piece {p.index} at {p.x / MM:.1f},{p.y / MM:.1f} mm off its page")
        for block in blocks:
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


def _text_facts(pdf: Path) -> tuple[list[list[tuple]], list[str]]:
    """Per page, each drawn character's box (points from the top-left corner), and every character set
    under the legibility floor or shown as a missing glyph (pdfium reads no character code for those)."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    document = pdfium.PdfDocument(str(pdf))
    boxes: list[list[tuple]] = []
    bad: list[str] = []
    try:
        for number, page in enumerate(document, start=1):
            height = page.get_height()
            text = page.get_textpage()
            found = []
            for k in range(text.count_chars()):
                code = raw.FPDFText_GetUnicode(text.raw, k)
                if code in (0, 0xFFFD, 0xFFFE, ord("□")):
                    bad.append(f"page {number}: missing glyph (code {code:#x})")
                    continue
                if chr(code).isspace():
                    continue
                size = raw.FPDFText_GetFontSize(text.raw, k)
                if size < LEGIBLE - 0.01:
                    bad.append(f"page {number}: {chr(code)!r} at {size:.1f} pt")
                left, bottom, right, top = text.get_charbox(k)
                found.append((left, height - top, right, height - bottom))
            boxes.append(found)
    finally:
        document.close()
    return boxes, bad


@pytest.mark.parametrize(("page", "lang"), [("a4", "en"), ("letter", "ja")])
@pytest.mark.parametrize("game", [*GAMES, "scaffold"])
def test_every_cut_is_marked_inside_the_printer_margin(
    game: str, page: str, lang: str, scaffold: Path, tmp_path: Path
) -> None:
    """Built on A4 in English and on Letter in Japanese: marks, labels and pieces where a home printer
    prints them, every glyph in an embedded font, no text under 6 pt."""
    if lang == "ja":
        require_cjk()
    target = scaffold if game == "scaffold" else game
    options = BuildOptions(out_dir=tmp_path, page=page, lang=lang)
    the_plan = plan(load_target(target), options)
    (pdf,) = write(the_plan, options)
    boxes, bad_text = _text_facts(pdf)
    assert _problems(the_plan, pdf_crop_marks(pdf), boxes) == []
    assert the_plan.ctx.fonts.missing == []
    assert bad_text == []


@pytest.mark.parametrize("game", GAMES)
def test_folded_sheets_keep_the_print_rules(game: str, tmp_path: Path) -> None:
    """--duplex fold: fronts and their mirrored backs on one page keep every mark, label and piece where
    a home printer prints them, every cut marked."""
    options = BuildOptions(out_dir=tmp_path, duplex="fold")
    the_plan = plan(load_target(game), options)
    (pdf,) = write(the_plan, options)
    assert any(page.folded for page in the_plan.pages) or game == "good-shepherds"
    assert _problems(the_plan, pdf_crop_marks(pdf), _text_facts(pdf)[0]) == []


def test_a_missing_glyph_falls_back_or_warns_with_component_and_row(
    make_spec: SpecMaker, tmp_path: Path
) -> None:
    folder = make_spec(
        """\
        game: {id: glyphs, title: Glyphs}
        components:
          - name: rules
            kind: card
            size: poker
            rows:
              - {text: "strength ≥ 9"}
              - {text: "eye \U00013080 of Horus"}
            face: {elements: [{type: text, text: "{text}", x: 0, y: 0, w: 100%, h: 20mm, size: 9pt}]}
        """
    )
    result = CliRunner().invoke(main, ["build", str(folder), "-o", str(tmp_path)])
    assert result.exit_code == 0, result.output
    warnings = [line for line in result.output.splitlines() if line.startswith("warning")]
    assert len(warnings) == 1  # ≥ comes from the fallback font; the hieroglyph is in no font
    assert "first: {}:8: rules, in".format(folder / "game.yaml") in warnings[0] and "U+13080" in warnings[0]
    assert "of Horus" in warnings[0] and "data rows or pages with them: 1;" in warnings[0]
    reader = PdfReader(tmp_path / "glyphs.pdf")
    fonts = {str(f.get_object()["/BaseFont"]) for f in reader.pages[1]["/Resources"]["/Font"].values()}
    assert any("DejaVuSans" in name for name in fonts)
    assert "strength ≥ 9" in reader.pages[1].extract_text()


def test_covers_speak_the_build_language_and_count_players_plainly(tmp_path: Path) -> None:
    en = write(plan(load_target("good-shepherds"), BuildOptions(out_dir=tmp_path / "en")), BuildOptions())
    cover = PdfReader(en[0]).pages[0].extract_text()
    assert "· 2 players ·" in cover and "2–2" not in cover
    require_cjk()
    options = BuildOptions(out_dir=tmp_path / "ja", lang="ja")
    (pdf,) = write(plan(load_target("good-shepherds"), options), options)
    cover = PdfReader(pdf).pages[0].extract_text()
    assert "コンポーネント" in cover and "2人用" in cover and "プリンターの余白" in cover
    assert "Component" not in cover and "Cut along" not in cover


def test_a_piece_too_large_is_turned_or_refused_by_name(make_spec: SpecMaker, tmp_path: Path) -> None:
    wide = make_spec(
        "game: {id: wide, title: Wide}\ncomponents:\n  - {name: mat, kind: card, size: 270x150mm}\n"
    )
    the_plan = plan(load_target(wide), BuildOptions(out_dir=tmp_path, page="a4"))
    (mat,) = [p for page in the_plan.pages if page.layout for p in page.layout.placements]
    assert mat.quarter == 1 and (mat.width / MM, mat.height / MM) == pytest.approx((150, 270))
    big = make_spec(
        "game: {id: big, title: Big}\ncomponents:\n  - {name: mat, kind: card, size: 250x300mm}\n", "big"
    )
    result = CliRunner().invoke(main, ["build", str(big), "-o", str(tmp_path), "--page", "letter"])
    assert result.exit_code == 2
    assert "mat: a 250.0 × 300.0 mm card does not fit" in result.output and "it fits on a3" in result.output
    assert not (tmp_path / "big.pdf").exists()


@pytest.mark.parametrize("game", GAMES)
def test_the_games_page_gives_the_built_page_and_sheet_counts(game: str) -> None:
    """docs/games/GAME.md's marked 'Print counts' line matches what the build plans on each page size."""
    doc = (REPO / "docs" / "games" / f"{game}.md").read_text(encoding="utf-8")
    (line,) = [x for x in doc.splitlines() if x.startswith("Print counts (tested against the build):")]
    stated = re.findall(r"(\w+): (\d+) pages, (\d+) sheets", line)
    assert len(stated) == 2
    for page, pages, sheets in stated:
        the_plan = plan(load_target(game), BuildOptions(page=page), FontRegistry(search=False))
        built = {p.sheet for p in the_plan.pages if p.kind == "pieces"}
        assert (int(pages), int(sheets)) == (len(the_plan.pages), len(built)), f"{game} on {page}"


def test_margin_option_moves_every_mark_inside_it(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["build", "gods", "-o", str(tmp_path), "--margin", "9mm"])
    assert result.exit_code == 0, result.output
    marks = [m for page in pdf_crop_marks(tmp_path / "gods.pdf") for m in page]
    assert marks
    edge = min(
        min(v, limit - v) for a, b in marks for v, limit in zip((*a, *b), (595.3, 841.9) * 2, strict=True)
    )
    assert 9 * MM - 0.01 <= edge <= 9.5 * MM  # the marks start at the printer margin
    bad = CliRunner().invoke(main, ["build", "gods", "-o", str(tmp_path / "bad"), "--margin", "wide"])
    assert bad.exit_code == 2 and "--margin 'wide' is not a length" in bad.output
    assert "Traceback" not in bad.output


def test_long_component_names_wrap_inside_their_own_cover_row(make_spec: SpecMaker, tmp_path: Path) -> None:
    """Names wrap onto two or three lines; every row's rule lies below its text (measured in the PDF)."""
    long = "A component whose title is long enough to need two or even three lines on the cover"
    components = "".join(
        f"  - {{name: c{k}, title: '{long} {k}', kind: card, size: poker}}\n" for k in range(6)
    )
    folder = make_spec(f"game: {{id: names, title: Names}}\ncomponents:\n{components}")
    options = BuildOptions(out_dir=tmp_path)
    (pdf,) = write(plan(load_target(folder), options), options)
    rules = pdf_crop_marks(pdf, colour=(0.75, 0.75, 0.75), width=0.3)[0]
    assert len(rules) == 6
    boxes, bad = _text_facts(pdf)
    assert bad == []
    for (x0, y), _ in rules:
        crossed = [b for b in boxes[0] if b[1] < y < b[3] and b[0] > x0]
        assert crossed == [], f"the rule at {y / MM:.1f} mm crosses text"
    tall = [b for b in boxes[0] if b[1] > rules[0][0][1] - 40 and b[3] < rules[0][0][1]]
    assert len({round(b[3]) for b in tall}) >= 2  # the first name did take more than one line


def test_art_running_off_a_sheet_is_refused_not_clipped(make_spec: SpecMaker, tmp_path: Path) -> None:
    """A sheet without a size is the page inside the margins: art laid out for a wider page stops the
    build (as Good Shepherds' 285 mm farm did on portrait Letter) instead of printing half of it."""
    folder = make_spec(
        """\
        game: {id: pad, title: Pad}
        components:
          - name: pad
            kind: sheet
            face: {elements: [{type: rect, x: 0, y: 0, w: 270mm, h: 100mm, fill: red}]}
        """
    )
    wide = CliRunner().invoke(main, ["build", str(folder), "-o", str(tmp_path), "--page", "297x210mm"])
    assert wide.exit_code == 0, wide.output
    result = CliRunner().invoke(main, ["build", str(folder), "-o", str(tmp_path / "p"), "--page", "letter"])
    assert result.exit_code == 2
    assert (
        "game.yaml:5:" in result.output
        and "runs to 270 × 100 mm, past the 201 × 264 mm sheet" in result.output
    )
