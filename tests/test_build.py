"""Real builds measured: page sizes, a card's printed size, cards per page, the cover, duplex backs,
byte-identical rebuilds, boards over pages, die nets."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import MM, SpecMaker, extent_of, red_length, render_page
from pypdf import PdfReader

from pnpforge.build import BuildOptions, plan
from pnpforge.building import BuildRequest, build
from pnpforge.components.load import load_target
from pnpforge.layouts.cover import CALIBRATION_MM

RED = (255, 0, 0)
CARDS = """\
game: {{id: deck, title: {{en: Deck, ja: デッキ}}}}
defaults: {{bleed: {bleed}}}
components:
  - name: cards
    title: Red cards
    kind: card
    size: poker
    count: {count}
    face: {{background: red}}
"""


def pdf_of(folder: Path, out: Path, **options: object) -> Path:
    result = build(BuildRequest(folder, BuildOptions(out_dir=out, **options)))  # type: ignore[arg-type]
    return result.files[0]


@pytest.mark.parametrize(
    ("page", "size_mm"), [("a4", (210, 297)), ("letter", (215.9, 279.4)), ("a3", (297, 420))]
)
def test_page_sizes(make_spec: SpecMaker, tmp_path: Path, page: str, size_mm: tuple[float, float]) -> None:
    pdf = pdf_of(make_spec(CARDS.format(bleed="3mm", count=1)), tmp_path / "out", page=page)
    for p in PdfReader(pdf).pages:
        assert float(p.mediabox.width) / MM == pytest.approx(size_mm[0], abs=0.01)
        assert float(p.mediabox.height) / MM == pytest.approx(size_mm[1], abs=0.01)


def test_custom_page_size(make_spec: SpecMaker, tmp_path: Path) -> None:
    pdf = pdf_of(make_spec(CARDS.format(bleed="3mm", count=1)), tmp_path / "out", page="150x200mm")
    box = PdfReader(pdf).pages[0].mediabox
    assert (round(float(box.width) / MM, 2), round(float(box.height) / MM, 2)) == (150.0, 200.0)


def test_poker_card_measures_63_by_88_mm(make_spec: SpecMaker, tmp_path: Path) -> None:
    dpi = 300
    pdf = pdf_of(make_spec(CARDS.format(bleed="0mm", count=1)), tmp_path / "out")
    page = render_page(pdf, 1, dpi)
    x0, y0, x1, y1 = extent_of(page, RED)
    px = 25.4 / dpi
    # Measured through the card's middle, edge pixels counted by how much of them is red
    # (pdfium's anti-aliasing is good to a fraction of a pixel: 0.05 mm is 0.6 px at 300 dpi).
    assert red_length(page, (y0 + y1) // 2) * px == pytest.approx(63.0, abs=0.05)
    assert red_length(page, (x0 + x1) // 2, vertical=True) * px == pytest.approx(88.0, abs=0.05)
    placed = plan(load_target(tmp_path / "spec"), BuildOptions()).pages[1].layout.placements[0]  # type: ignore[union-attr]
    assert (round(placed.width / MM, 2), round(placed.height / MM, 2)) == (63.00, 88.00)
    assert placed.x / MM == pytest.approx(x0 * px, abs=2 * px)  # the drawing sits where the plan says


def test_bleed_extends_art_3_mm_past_the_trim(make_spec: SpecMaker, tmp_path: Path) -> None:
    dpi = 300
    pdf = pdf_of(make_spec(CARDS.format(bleed="3mm", count=1)), tmp_path / "out")
    page = render_page(pdf, 1, dpi)
    x0, y0, x1, y1 = extent_of(page, RED)
    px = 25.4 / dpi  # pdfium does not anti-alias clip paths: the edge is good to a pixel
    assert red_length(page, (y0 + y1) // 2) * px == pytest.approx(69.0, abs=1.5 * px)
    assert red_length(page, (x0 + x1) // 2, vertical=True) * px == pytest.approx(94.0, abs=1.5 * px)


@pytest.mark.parametrize(("page", "per_sheet"), [("a4", [9, 9]), ("letter", [6, 6, 6])])
def test_nine_poker_cards_per_page(
    make_spec: SpecMaker, tmp_path: Path, page: str, per_sheet: list[int]
) -> None:
    """Nine to an A4 sheet; six on Letter, where a third row would cut the outer rows' bleed."""
    folder = make_spec(CARDS.format(bleed="3mm", count=18))
    the_plan = plan(load_target(folder), BuildOptions(page=page))
    assert [len(p.layout.placements) for p in the_plan.pages if p.layout] == per_sheet
    pdf = pdf_of(folder, tmp_path / "out", page=page)
    assert len(PdfReader(pdf).pages) == 1 + len(per_sheet)  # the cover, then the sheets


def test_cover_lists_components_counts_and_sheets(tiny_quest: Path, tmp_path: Path) -> None:
    pdf = pdf_of(tiny_quest, tmp_path / "out")
    shown: list[str] = []  # each text operator's string: one per table cell, however lines are joined
    text = PdfReader(pdf).pages[0].extract_text(visitor_text=lambda t, *_: shown.append(t))
    assert "Tiny Quest" in text
    cells = [piece.strip() for piece in shown if piece.strip()]
    expected = [("Hero cards (heroes)", 8, "1"), ("Land tiles (land)", 10, "2"), ("Coins (coins)", 12, "2")]
    for title, count, sheets in [*expected, ("Score pad (pad)", 1, "3")]:
        at = cells.index(title)  # row cells: component, kind, size, count, sides, sheet numbers
        assert (int(cells[at + 3]), cells[at + 5]) == (count, sheets)  # land and coins share sheet 2
    assert "3 sheets" in cells
    assert "50 mm" in text


def test_calibration_bar_is_50_mm(tiny_quest: Path, tmp_path: Path) -> None:
    dpi = 300
    pdf = pdf_of(tiny_quest, tmp_path / "out")
    cover = render_page(pdf, 0, dpi)
    px = 25.4 / dpi
    # The bar's middle row: dark blocks 0-10, 20-30, 40-50 mm and the frame's right edge at 50 mm.
    the_plan = plan(load_target(tiny_quest), BuildOptions())
    frame = the_plan.frame
    left_mm = (frame.margin / MM) + 10
    bar_mid_mm = (frame.height - frame.margin) / MM - 25 + 2
    row = round(bar_mid_mm / px)
    start, stop = round((left_mm - 3) / px), round((left_mm + 53) / px)
    dark = [x for x in range(start, stop) if sum(cover.getpixel((x, row))) < 200]
    assert (dark[-1] - dark[0] + 1) * px == pytest.approx(CALIBRATION_MM, abs=1.5 * px)
    assert CALIBRATION_MM == 50.0


def test_long_edge_back_page_is_mirrored(make_spec: SpecMaker, tmp_path: Path) -> None:
    colours = {"red": (255, 0, 0), "lime": (0, 255, 0), "blue": (0, 0, 255)}
    folder = make_spec(
        """\
        game: {id: backs, title: Backs}
        components:
          - name: cards
            kind: card
            size: poker
            rows: [{c: red}, {c: lime}, {c: blue}]
            face: {background: white}
            back: {background: "{c}"}
        """
    )
    pdf = pdf_of(folder, tmp_path / "out")
    assert len(PdfReader(pdf).pages) == 3
    back = render_page(pdf, 2, 30)
    xs = {name: extent_of(back, rgb)[0] for name, rgb in colours.items()}
    assert xs["blue"] < xs["lime"] < xs["red"]  # front order red, lime, blue reversed
    assert xs["red"] > back.width / 2  # the first card's back sits behind it: at the right


def test_short_edge_back_keeps_columns(make_spec: SpecMaker, tmp_path: Path) -> None:
    folder = make_spec(
        """\
        game: {id: backs, title: Backs}
        components:
          - {name: cards, kind: card, size: poker, rows: [{c: red}, {c: blue}], back: {background: "{c}"}}
        """
    )
    pdf = pdf_of(folder, tmp_path / "out", duplex="short")
    back = render_page(pdf, 2, 30)
    red, blue = extent_of(back, (255, 0, 0)), extent_of(back, (0, 0, 255))
    assert red[0] < blue[0]  # same column order
    assert red[1] > back.height / 2  # first row now at the bottom


def test_duplex_none_prints_no_backs_and_test_page_adds_two(tiny_quest: Path, tmp_path: Path) -> None:
    pages = len(PdfReader(pdf_of(tiny_quest, tmp_path / "a")).pages)
    assert len(PdfReader(pdf_of(tiny_quest, tmp_path / "b", duplex="none")).pages) == pages - 2
    assert len(PdfReader(pdf_of(tiny_quest, tmp_path / "c", duplex_test=True)).pages) == pages + 2


def test_rebuilds_are_byte_identical(tiny_quest: Path, tmp_path: Path) -> None:
    first = pdf_of(tiny_quest, tmp_path / "one").read_bytes()
    second = pdf_of(tiny_quest, tmp_path / "two").read_bytes()
    assert first == second
    assert b"CreationDate" not in first or b"D:20000101" in first


def test_shared_back_is_one_form(make_spec: SpecMaker, tmp_path: Path) -> None:
    folder = make_spec(
        """\
        game: {id: forms, title: Forms}
        components:
          - name: cards
            kind: card
            size: poker
            count: 27
            face: {background: white}
            back: {background: navy, elements: [{type: text, text: BACK}]}
        """
    )
    reader = PdfReader(pdf_of(folder, tmp_path / "out"))
    names = set()
    for page in reader.pages:
        resources = page.get("/Resources")
        xobjects = resources.get("/XObject") if resources else None
        if xobjects:
            names |= {str(k) for k in xobjects.get_object()}
    assert len([n for n in names if "back" in n]) == 1  # 27 backs on 3 pages: one drawing, reused


def test_png_and_japanese(tiny_quest: Path, tmp_path: Path) -> None:
    result = build(
        BuildRequest(tiny_quest, BuildOptions(out_dir=tmp_path, formats=("pdf", "png"), dpi=20, lang="ja"))
    )
    pngs = [p for p in result.files if p.suffix == ".png"]
    assert len(pngs) == result.pages and all(p.read_bytes()[:4] == b"\x89PNG" for p in pngs)
    if result.warnings:
        pytest.skip("no Japanese font on this machine")
    fonts = PdfReader(result.files[0]).pages[0]["/Resources"]["/Font"].get_object()
    cjk = [f.get_object() for f in fonts.values() if "+" in str(f.get_object()["/BaseFont"])]
    assert cjk, "the Japanese title is set in an embedded TrueType subset"
    assert "タイニー・クエスト" in PdfReader(result.files[0]).pages[0].extract_text()


def test_board_split_over_pages(make_spec: SpecMaker, tmp_path: Path) -> None:
    folder = make_spec(
        """\
        game: {id: big, title: Big board}
        components:
          - name: map
            kind: board
            size: 500x380mm
            overlap: 12mm
            face: {background: "#88cc88", elements: [{type: text, text: MAP, size: 60pt}]}
        """
    )
    the_plan = plan(load_target(folder), BuildOptions())
    kinds = [p.kind for p in the_plan.pages]
    assert kinds == ["cover", "assembly"] + ["pieces"] * 6
    windows = [p.layout.board.window for p in the_plan.pages if p.layout and p.layout.board]
    a1, a2 = windows[0], windows[1]
    assert (a1[2] - a2[0]) / MM >= 12 - 1e-6
    pdf = pdf_of(folder, tmp_path / "out")
    reader = PdfReader(pdf)
    assert len(reader.pages) == 8
    assert "Assembly" in reader.pages[1].extract_text() and "A1" in reader.pages[1].extract_text()


def test_hex_tiles_and_dice_render(make_spec: SpecMaker, tmp_path: Path) -> None:
    folder = make_spec(
        """\
        game: {id: bits, title: Bits}
        components:
          - {name: hexes, kind: tile, size: 30mm, count: 7, face: {background: red}}
          - name: flat
            kind: tile
            size: 30mm
            orientation: flat
            count: 5
            layout: spaced
            face: {background: blue}
          - name: dice
            kind: die
            size: 16mm
            count: 2
            rows: [{face1: A, face2: B, face3: C, face4: D, face5: E, face6: F}]
            face: {background: white, elements: [{type: text, text: "{value}", size: 20pt}]}
        """
    )
    pdf = pdf_of(folder, tmp_path / "out")
    reader = PdfReader(pdf)
    assert len(reader.pages) == 3  # cover, the two kinds of hexes sharing a sheet, the dice
    text = reader.pages[2].extract_text()
    assert all(letter in text for letter in "ABCDEF")
    page = render_page(pdf, 1, 60)
    x0, y0, x1, y1 = extent_of(page, RED)
    assert (x1 - x0) > 3 * 30 * 60 / 25.4  # a honeycomb several hexes wide


def test_polyhex_back_is_the_mirror_of_its_front(make_spec: SpecMaker, tmp_path: Path) -> None:
    from PIL import ImageChops, ImageOps

    folder = make_spec(
        """\
        game: {id: poly, title: Poly}
        defaults: {bleed: 0mm}
        components:
          - name: l-tile
            kind: tile
            shape: polyhex
            size: 25mm
            cells: {data: tiles.yaml, list: tiles}
            face: {background: red}
            back: {background: blue}
        """,
        tiles__yaml="tiles: [{id: L, cells: [{at: [0, 0]}, {at: [1, 0]}, {at: [2, 0]}, {at: [0, 1]}]}]\n",
    )
    pdf = pdf_of(folder, tmp_path / "out")
    front, back = render_page(pdf, 1, 40), render_page(pdf, 2, 40)

    def mask(image, rgb):  # type: ignore[no-untyped-def]
        from PIL import Image

        solid = Image.new("RGB", image.size, rgb)
        return ImageChops.difference(image, solid).convert("L").point(lambda v: 255 if v < 60 else 0)

    seen_from_behind = ImageOps.mirror(mask(front, (255, 0, 0)))
    behind = mask(back, (0, 0, 255))
    both = ImageChops.multiply(seen_from_behind, behind).histogram()[255]
    either = ImageChops.lighter(seen_from_behind, behind).histogram()[255]
    assert both / either > 0.95  # the back's outline lies exactly behind the front's


def test_svg_per_page_at_physical_size(tiny_quest: Path, tmp_path: Path) -> None:
    import xml.dom.minidom

    result = build(BuildRequest(tiny_quest, BuildOptions(out_dir=tmp_path, formats=("svg",))))
    svgs = [p for p in result.files if p.suffix == ".svg"]
    assert [p.name for p in svgs] == [f"tiny-quest-p{k:03d}.svg" for k in range(1, result.pages + 1)]
    assert not (tmp_path / "tiny-quest.pdf").exists()
    for path in svgs:
        root = xml.dom.minidom.parse(str(path)).documentElement
        assert (root.getAttribute("width"), root.getAttribute("height")) == ("210.0mm", "297.0mm")
    cards = svgs[1].read_text(encoding="utf-8")
    assert "Knight" in cards and "Scout" in cards
    assert "Hero cards (heroes)" in svgs[0].read_text(encoding="utf-8")
    uses = xml.dom.minidom.parse(str(svgs[2])).getElementsByTagName("use")
    hrefs = [u.getAttribute("xlink:href") for u in uses]
    assert max(hrefs.count(h) for h in hrefs) == 8  # the shared back drawn once, used by all 8 cards
