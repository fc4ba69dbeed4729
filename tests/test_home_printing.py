"""Home printing measured in the built PDFs: the fold layout, the back offset, Quo Vadis' strip boards
packed on Letter, assembly pages, and sheet labels that keep front/back."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import MM, SpecMaker, extent_of, render_page
from pypdf import PdfReader

from pnpforge.build import BuildOptions, plan
from pnpforge.building import BuildRequest, build
from pnpforge.cli import main
from pnpforge.components.load import load_target
from pnpforge.draw import write

RED, BLUE = (255, 0, 0), (0, 0, 255)
DPI = 254  # ten pixels a millimetre
PX = 25.4 / DPI
CARDS = """\
game: {{id: deck, title: {{en: Deck}}}}
components:
  - name: cards
    kind: card
    size: poker
    count: {count}
    face: {{background: red}}
    back: {{background: blue}}
"""

ROW_CARDS = """\
game: {{id: deck, title: {{en: Deck}}}}
components:
  - name: cards
    kind: card
    size: poker
    csv: cards.csv
    face: {{background: "{face}"}}
    back: {{background: "{back}"}}
"""


def _pdf(folder: Path, out: Path, **options: object) -> Path:
    return build(BuildRequest(folder, BuildOptions(out_dir=out, **options))).files[0]  # type: ignore[arg-type]


def _mm(box: tuple[int, int, int, int], dpi: int = DPI) -> tuple[float, ...]:
    return tuple(v * 25.4 / dpi for v in box)


def test_fold_puts_backs_mirrored_about_the_fold_line(make_spec: SpecMaker, tmp_path: Path) -> None:
    folder = make_spec(CARDS.format(count=3))
    pdf = _pdf(folder, tmp_path / "out", duplex="fold")
    reader = PdfReader(pdf)
    assert len(reader.pages) == 2  # cover, one folded sheet: three cards fit a half A4
    page = render_page(pdf, 1, DPI)
    width_mm = page.size[0] * PX
    assert width_mm == pytest.approx(210, abs=0.2)
    fx0, fy0, fx1, fy1 = _mm(extent_of(page, RED))
    bx0, by0, bx1, by1 = _mm(extent_of(page, BLUE))
    fold = width_mm / 2
    assert fx1 < fold < bx0  # fronts left of the fold, backs right of it
    # folding about the centre line puts each back exactly behind its front
    assert (width_mm - bx1, width_mm - bx0) == pytest.approx((fx0, fx1), abs=0.2)
    assert (by0, by1) == pytest.approx((fy0, fy1), abs=0.2)
    # the dashed fold line runs down the page's centre, grey, in the gap between the halves
    column = round(fold / PX)
    greys = [y for y in range(page.size[1]) if page.getpixel((column, y))[0] < 200]
    assert greys and min(greys) * PX < 10 and max(greys) * PX > 287
    text = reader.pages[1].extract_text()
    assert "fold" in text and "front" in text and "back" in text


def test_fold_mirrors_each_back_behind_its_own_front(make_spec: SpecMaker, tmp_path: Path) -> None:
    """A card's back shows its row's colour: the back of the first card lies behind the first card."""
    folder = make_spec(ROW_CARDS.format(face="{colour}", back="{colour}"), cards__csv="colour\nred\nblue\n")
    page = render_page(_pdf(folder, tmp_path / "out", duplex="fold"), 1, DPI)
    width_mm = page.size[0] * PX
    reds = _mm(extent_of(page, RED))
    # the red card's front is on the left, its back on the right: two red patches, mirrored
    left = [x for x in range(0, page.size[0] // 2) if page.getpixel((x, round(reds[1] / PX) + 20)) == RED]
    right = [
        x
        for x in range(page.size[0] // 2, page.size[0])
        if page.getpixel((x, round(reds[1] / PX) + 20)) == RED
    ]
    assert left and right
    assert width_mm - max(right) * PX == pytest.approx(min(left) * PX, abs=0.3)


def test_fold_keeps_pieces_without_backs_on_whole_pages(make_spec: SpecMaker, tmp_path: Path) -> None:
    folder = make_spec(
        """\
        game: {id: deck, title: {en: Deck}}
        components:
          - name: cards
            kind: card
            size: poker
            count: 3
            face: {background: red}
            back: {background: blue}
          - name: plain
            kind: card
            size: poker
            count: 9
            face: {background: red}
        """
    )
    pdf = _pdf(folder, tmp_path / "out", duplex="fold")
    assert len(PdfReader(pdf).pages) == 3  # cover, folded sheet, a whole sheet of nine
    x0, _, x1, _ = _mm(extent_of(render_page(pdf, 2, 50), RED), 50)
    assert x0 < 20 and x1 > 190


def test_back_offset_moves_back_pages_only(make_spec: SpecMaker, tmp_path: Path) -> None:
    folder = make_spec(CARDS.format(count=9))
    plain = _pdf(folder, tmp_path / "a")
    moved = _pdf(folder, tmp_path / "b", back_offset="1.5,-2")
    same_front = _mm(extent_of(render_page(plain, 1, DPI), RED))
    assert _mm(extent_of(render_page(moved, 1, DPI), RED)) == pytest.approx(same_front, abs=0.05)
    before = _mm(extent_of(render_page(plain, 2, DPI), BLUE))
    after = _mm(extent_of(render_page(moved, 2, DPI), BLUE))
    shifts = [b - a for a, b in zip(before, after, strict=True)]
    # right 1.5 mm and up 2 mm (the art is clipped at the marks' band, so compare the free edges)
    assert shifts[2] == pytest.approx(1.5, abs=0.15) and shifts[1] == pytest.approx(-2.0, abs=0.15)
    assert "moved 1.5 mm right and -2 mm down" in PdfReader(moved).pages[0].extract_text()


def test_back_offset_moves_the_duplex_test_rings(make_spec: SpecMaker, tmp_path: Path) -> None:
    folder = make_spec(CARDS.format(count=1))
    plain = _pdf(folder, tmp_path / "a", duplex_test=True)
    moved = _pdf(folder, tmp_path / "b", duplex_test=True, back_offset="-1,0.5")
    page = PdfReader(moved).pages
    assert len(page) == len(PdfReader(plain).pages)
    a = extent_of(render_page(plain, 2, DPI), (0, 0, 0), 120)
    b = extent_of(render_page(moved, 2, DPI), (0, 0, 0), 120)
    assert (b[0] - a[0]) * PX == pytest.approx(-1.0, abs=0.15)


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--back-offset", "1,2,3"], "expected X,Y in mm"),
        (["--back-offset", "12,0"], "between -10 and 10"),
        (["--back-offset", "nan,0"], "expected X,Y in mm"),
        (["--back-offset", "1,1", "--duplex", "fold"], "--duplex fold prints no back pages"),
    ],
)
def test_bad_back_offset_is_refused(make_spec: SpecMaker, tmp_path: Path, args: list[str], said: str) -> None:
    folder = make_spec(CARDS.format(count=1))
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["build", str(folder), "-o", str(out), *args])
    assert result.exit_code == 2
    assert said in result.output and "<command line>" in result.output
    assert "Traceback" not in result.output and not out.exists()


def test_quo_vadis_generation_boards_fit_three_letter_pages(tmp_path: Path) -> None:
    pdf = _pdf(Path("quo-vadis"), tmp_path / "out", page="letter", only=("generation-boards",))
    reader = PdfReader(pdf)
    pages = [p.extract_text() for p in reader.pages[1:]]
    assert len(pages) <= 3
    assert pages[0].startswith("Assembly: Generation boards")
    parts = [label for text in pages[1:] for label in text.split() if "·A" in label]
    assert sorted(parts) == sorted(f"{copy}·A{part}" for copy in range(1, 6) for part in (1, 2))
    for number, text in enumerate(pages[1:], 1):
        assert re.search(rf"quo-vadis · (draft \S+ · )?sheet {number} · generation-boards · front", text)


def test_packed_parts_overlap_and_keep_their_windows(tmp_path: Path) -> None:
    """Each strip part's art measured in pixels: (276 + 10) / 2 = 143 mm a part, plus Quo Vadis' 2 mm
    bleed at the board's own end only; the first part's bleed on the left, the second's on the right."""
    pdf = _pdf(Path("quo-vadis"), tmp_path / "out", page="letter", only=("generation-boards",))
    page = render_page(pdf, 2, DPI)
    board = (0xEF, 0xE9, 0xDC)

    def art(top_mm: float) -> tuple[float, float]:  # a row through the part's bottom band, below its boxes
        y = round(top_mm / PX)
        xs = [
            x
            for x in range(page.size[0])
            if max(map(abs, (a - b for a, b in zip(page.getpixel((x, y)), board, strict=True)))) <= 6
        ]
        return xs[0] * PX, (xs[-1] + 1) * PX

    first, second = art(24.7 + 37), art(72.7 + 37)  # the trims' tops, as the plan places them
    assert first[1] - first[0] == pytest.approx(145.0, abs=0.2)
    assert second[1] - second[0] == pytest.approx(145.0, abs=0.2)
    assert second[0] - first[0] == pytest.approx(2.0, abs=0.2)  # the same cut lines: 2 mm bleed each end


@pytest.mark.parametrize(("game", "spread_some"), [("quo-vadis", True), ("delphi", False)])
def test_crowded_labels_are_spread_whole(game: str, spread_some: bool, tmp_path: Path) -> None:
    """Crowded sheets (crop marks every few centimetres along the band): the label is spread over the
    stretches between the marks, in order and whole (issue 30): game, draft, sheet, components, side."""
    options = BuildOptions(out_dir=tmp_path, stamp="v0.3")
    the_plan = plan(load_target(game), options)
    (pdf,) = write(the_plan, options)
    texts = [p.extract_text() for p in PdfReader(pdf).pages]
    spread = 0
    for page, text in zip(the_plan.pages, texts, strict=True):
        if page.kind != "pieces":
            continue
        side = "back" if page.side == "back" else "front"
        *_, found = re.finditer(rf"{game}(?: ·)? v0\.3", text)  # parts spread apart lose their " · "
        label = text[found.start() :]
        spread += f"· sheet {page.sheet}" not in label
        assert "…" not in label and f"sheet {page.sheet}" in label and label.rstrip().endswith(side), label
        names = {c.name for c in the_plan.loaded.spec.components}
        assert names & set(re.split(r"[\s·,]+", label)), label  # a component named in full
    assert bool(spread) == spread_some  # a Quo Vadis sheet crowded with crop marks


def test_assembly_page_draws_the_board(tmp_path: Path) -> None:
    """Not a grey box: the Ankh assembly page shows the board's own colours (its green fertile land)."""
    pdf = _pdf(Path("ankh"), tmp_path / "out", lang="ja")
    reader = PdfReader(pdf)
    assert reader.pages[1].extract_text().startswith("組み立て:ゲームボード")
    page = render_page(pdf, 1, 40)
    colours = {page.getpixel((x, y)) for x in range(0, page.size[0], 4) for y in range(0, page.size[1], 4)}
    assert len(colours) > 40  # a grey box with dashed lines has a handful
    data = page.tobytes()
    pixels = [tuple(data[k : k + 3]) for k in range(0, len(data), 3)]
    greens = sum(1 for r, g, b in pixels if g > r + 30 and g > b + 30)
    assert greens > 0.05 * len(pixels)


def test_fold_page_count_measured_by_page_boxes(make_spec: SpecMaker, tmp_path: Path) -> None:
    """Eighteen backed cards: two duplex sheets (four pages) become six folded sheets of three (turned,
    three poker cards fit a half A4 a quarter turned with their whole bleed)."""
    folder = make_spec(CARDS.format(count=18))
    duplex = PdfReader(_pdf(folder, tmp_path / "a"))
    fold = PdfReader(_pdf(folder, tmp_path / "b", duplex="fold"))
    assert len(duplex.pages) == 1 + 4 and len(fold.pages) == 1 + 6
    for page in fold.pages:
        assert float(page.mediabox.width) / MM == pytest.approx(210, abs=0.01)


def test_fold_from_the_command_line_and_from_the_spec(make_spec: SpecMaker, tmp_path: Path) -> None:
    folder = make_spec(CARDS.format(count=3))
    result = CliRunner().invoke(main, ["build", str(folder), "-o", str(tmp_path / "cli"), "--duplex", "fold"])
    assert result.exit_code == 0, result.output
    cover = PdfReader(tmp_path / "cli" / "deck.pdf").pages[0].extract_text()
    assert "print single-sided, fold along the" in cover
    spec = make_spec(
        CARDS.format(count=3).replace("components:", "defaults: {duplex: fold}\ncomponents:"), "s"
    )
    reader = PdfReader(_pdf(spec, tmp_path / "spec"))
    assert len(reader.pages) == 2 and "front + back, fold" in reader.pages[1].extract_text()


def test_watch_sees_a_changed_back_on_a_folded_page(make_spec: SpecMaker) -> None:
    """watch re-renders a page when its digest changes: on a folded sheet a row's back is on the page."""
    from pnpforge.drafts.pages import page_prints

    def prints(back: str) -> list[str]:
        spec = ROW_CARDS.format(face="red", back="{back}")
        folder = make_spec(spec, back, cards__csv=f"back\nblue\n{back}\n")
        return page_prints(plan(load_target(folder), BuildOptions(duplex="fold")))

    blue, green = prints("blue"), prints("green")
    assert blue[1] != green[1]  # the second card's back changed: its folded sheet is drawn again


def test_watch_sees_a_changed_board_on_its_assembly_page(make_spec: SpecMaker) -> None:
    """The assembly page draws the board: a change to the board's art is a change to that page."""
    from pnpforge.drafts.pages import page_prints

    def prints(colour: str) -> list[str]:
        folder = make_spec(
            f"""\
            game: {{id: strip, title: {{en: Strip}}}}
            components:
              - {{name: track, kind: board, size: 330x40mm, count: 2, face: {{background: {colour}}}}}
            """,
            colour,
        )
        the_plan = plan(load_target(folder), BuildOptions(page="letter"))
        assert [p.kind for p in the_plan.pages][:2] == ["cover", "assembly"]
        return page_prints(the_plan)

    assert prints("red")[1] != prints("green")[1]
