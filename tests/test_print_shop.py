"""Print-shop grade output, measured in the files: the bleed ring of every bundled piece read from its
pixels, every font embedded (pypdf), PNG pHYs/iCCP chunks, the shop PDF's version, OutputIntent, boxes,
CutContour and pure-K black, the cut files, and the shops' page sizes."""

from __future__ import annotations

import math
import re
import struct
import zlib
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from click.testing import CliRunner
from conftest import MM, SpecMaker
from PIL import Image
from pypdf import PdfReader

from pnpforge.catalog import games
from pnpforge.cli import main
from pnpforge.export import ExportOptions, prepare
from pnpforge.export.pages import render, side_page
from pnpforge.export.preflight import font_problems, fonts, separations, shop_problems
from pnpforge.export.sides import Side, sides
from pnpforge.layouts.shapes import trim_outline
from pnpforge.output import embedfonts

RING_DPI = 72  # a pixel is 0.35 mm: enough to tell a painted bleed from paper, fast for ~700 sides
INSIDE = 0.75 * MM  # the art sampled this far inside the cut line (past a hairline stroke on it)
PAPER = 253  # every channel at least this: unprinted paper


def _run(*args: str) -> list[Path]:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 0, result.output
    return [Path(line) for line in result.stdout.splitlines()]


def _paper(pixel: tuple[int, ...]) -> bool:
    return min(pixel[:3]) >= PAPER


def bare_bleed(image: Image.Image, side: Side, left: float, top: float, bleed: float) -> tuple[int, int]:
    """(points where the art inside the cut line is coloured but the bleed outside it is paper, points
    checked), along every straight stretch of the cut line, 1 mm apart, clear of corners."""
    scale = RING_DPI / 72
    outline = trim_outline(side.piece)
    area = sum(
        x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(outline, outline[1:] + outline[:1], strict=True)
    )
    turn = 1.0 if area > 0 else -1.0  # clockwise on the page (y down) has a positive shoelace sum
    bare = checked = 0
    for (x0, y0), (x1, y1) in zip(outline, outline[1:] + outline[:1], strict=True):
        length = math.hypot(x1 - x0, y1 - y0)
        if length < 3 * MM:
            continue
        nx, ny = turn * (y1 - y0) / length, -turn * (x1 - x0) / length  # outward
        for k in range(1, int(length / MM)):
            t = k * MM / length
            if t * length < 1.5 * MM or (1 - t) * length < 1.5 * MM:
                continue
            px, py = x0 + (x1 - x0) * t + left, y0 + (y1 - y0) * t + top
            inside = image.getpixel((int((px - nx * INSIDE) * scale), int((py - ny * INSIDE) * scale)))
            out = bleed - INSIDE
            outside = image.getpixel((int((px + nx * out) * scale), int((py + ny * out) * scale)))
            checked += 1
            bare += not _paper(inside) and _paper(outside)
    return bare, checked


def _side_images(target: str | Path) -> tuple[list[Side], list[tuple[float, float, float]], bytes]:
    """Every cut piece side of `target` on its own export page: sides, (left, top, bleed), the PDF."""
    prepared = prepare(target, "images", ExportOptions(dpi=RING_DPI))
    chosen = [
        side
        for group in prepared.groups
        if group.component.kind != "sheet"  # a sheet is not cut: it has no bleed to keep
        for side in sides(group, every_back=True)
    ]
    pages = [side_page(side, prepared.ctx) for side in chosen]
    return chosen, [(*page.margins[:2], page.bleed) for page in pages], render(pages, "bleed")


@pytest.mark.parametrize("game", [game.id for game in games()])
def test_every_piece_of_every_bundled_game_keeps_its_art_in_the_bleed(game: str) -> None:
    """Wherever a piece is coloured just inside its cut line, its bleed is coloured too (no paper)."""
    chosen, places, pdf = _side_images(game)
    document = pdfium.PdfDocument(pdf)
    bare: list[str] = []
    checked = 0
    for index, (side, (left, top, bleed)) in enumerate(zip(chosen, places, strict=True)):
        image = document[index].render(scale=RING_DPI / 72).to_pil().convert("RGB")
        count, seen = bare_bleed(image, side, left, top, bleed)
        checked += seen
        if count:
            bare.append(f"{side.stem}: {count} of {seen}")
    assert checked > 100 * len(chosen) // 10  # the ring was really read
    assert not bare, bare
    assert not font_problems(PdfReader(_bytes_file(pdf)))  # the face fonts are all embedded


def _bytes_file(data: bytes):  # type: ignore[no-untyped-def]
    import io

    return io.BytesIO(data)


BAND = """\
game: {id: bands, title: Bands}
defaults: {bleed: 3mm}
components:
  - name: cards
    kind: card
    size: poker
    count: 1
    face:
      background: white
      elements:
        - {type: rect, x: 0, y: 0, w: 100%, h: 10mm, fill: "#ff0000", stroke: "#000000", stroke_width: 1mm}
        - {type: rect, x: 0.3mm, y: 40mm, w: 20mm, h: 8mm, fill: "#0000ff", pattern: stripes}
        - {type: rect, x: 20mm, y: 70mm, w: 20mm, h: 8mm, fill: "#00a000"}
  - name: hexes
    kind: tile
    shape: hex
    orientation: pointy
    size: 30mm
    count: 1
    face:
      elements:
        - {type: hex, x: 0, y: 0, w: 100%, h: 100%, orientation: pointy, fill: "#00a000"}
"""


def _pixel(image: Image.Image, x_mm: float, y_mm: float, dpi: int) -> tuple[int, int, int]:
    return image.getpixel((int(x_mm * dpi / 25.4), int(y_mm * dpi / 25.4)))[:3]  # type: ignore[index]


def test_a_band_at_the_edge_bleeds_on_the_sides_it_touches_and_no_further(
    make_spec: SpecMaker, tmp_path: Path
) -> None:
    dpi = 100
    folder = make_spec(BAND)
    _run("export", str(folder), "--to", "images", "-o", str(tmp_path), "--dpi", str(dpi))
    card = Image.open(tmp_path / "cards-001-front.png").convert("RGB")  # 69 x 94 mm: trim at 3 mm
    red = (255, 0, 0)
    assert _pixel(card, 30, 1, dpi) == red  # above the header band, in the bleed
    assert _pixel(card, 1, 8, dpi) == red  # beside it, left
    assert _pixel(card, 68, 8, dpi) == red  # and right
    assert _pixel(card, 1, 0.5, dpi) == red  # round the corner
    assert _pixel(card, 1, 20, dpi) == (255, 255, 255)  # not below the band's own height
    assert _pixel(card, 30, 2.2, dpi) == red  # the 1 mm stroke stays on the trim: not carried out
    assert _pixel(card, 30, 3.0, dpi)[0] < 60  # ... where it still is drawn
    # a band 0.3 mm short of the edge is meant to reach it: its stripes carry on into the bleed
    left_bleed = [_pixel(card, 0.5 + k * 0.1, 47, dpi) for k in range(20)]
    assert any(p[2] > 200 and p[0] < 60 for p in left_bleed)  # its blue fill
    assert _pixel(card, 1, 73, dpi) == (255, 255, 255)  # a block 20 mm in does not bleed
    hexes = Image.open(tmp_path / "hexes-001-front.png").convert("RGB")
    chosen, places, pdf = _side_images(folder)
    document = pdfium.PdfDocument(pdf)
    for index, (side, (left, top, bleed)) in enumerate(zip(chosen, places, strict=True)):
        image = document[index].render(scale=RING_DPI / 72).to_pil().convert("RGB")
        assert bare_bleed(image, side, left, top, bleed)[0] == 0, side.stem
    width_mm = hexes.width / dpi * 25.4
    assert width_mm == pytest.approx(30 + 2 * 3, abs=0.3)  # flat to flat: the bleed on each side
    height_mm = hexes.height / dpi * 25.4  # tip to tip: 3 mm / cos 30° = 3.46 mm beyond each tip
    assert height_mm == pytest.approx(30 / math.cos(math.pi / 6) + 2 * 3 / math.cos(math.pi / 6), abs=0.3)
    assert _pixel(hexes, width_mm / 2, 0.6, dpi) == (0, 160, 0)  # green right up to the tip's bleed


def test_the_bleed_check_sees_a_piece_without_bleed(
    make_spec: SpecMaker, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The pixel check is not blind: with the carrying switched off the band's bleed is paper."""
    import pnpforge.layouts.faces.draw as draw_module

    monkeypatch.setattr(draw_module, "carry_into_bleed", lambda *args: None)
    chosen, places, pdf = _side_images(make_spec(BAND))
    image = pdfium.PdfDocument(pdf)[0].render(scale=RING_DPI / 72).to_pil().convert("RGB")
    assert bare_bleed(image, chosen[0], *places[0])[0] > 20


# fonts ------------------------------------------------------------------------------------------------
def test_every_build_pdf_embeds_every_font_with_its_own_subset_tag(tiny_quest: Path, tmp_path: Path) -> None:
    for target in (tiny_quest, "gods"):
        out = tmp_path / str(target).replace("/", "_")
        _run("build", str(target), "-o", str(out))
        reader = PdfReader(next(out.glob("*.pdf")))
        used = fonts(reader)
        names = {use.name for use in used}
        assert any("LiberationSans-Bold" in name for name in names), names
        assert all(use.embedded for use in used), [u.name for u in used if not u.embedded]
        assert font_problems(reader) == []  # no subset tag shared by two fonts


def test_board_pictures_and_shared_score_tables_embed_their_fonts(tmp_path: Path) -> None:
    from pnpforge.web.share import table_pdf

    reader = PdfReader(_bytes_file(table_pdf("Alice  12\nBob     9\n")))
    assert fonts(reader) and font_problems(reader) == []
    _run("setup", "gods", "--players", "2", "--draw", str(tmp_path / "setup.pdf"))
    reader = PdfReader(tmp_path / "setup.pdf")
    assert fonts(reader) and font_problems(reader) == []


def test_without_twin_fonts_a_warning_says_how_to_get_them(
    tiny_quest: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(embedfonts, "FOLDERS", ())
    monkeypatch.delenv(embedfonts.ENV_FOLDER, raising=False)
    embedfonts.twin_file.cache_clear()
    embedfonts.embedded.cache_clear()
    try:
        result = CliRunner().invoke(main, ["build", str(tiny_quest), "-o", str(tmp_path), "--only", "heroes"])
        assert result.exit_code == 0, result.output
        assert "fonts-liberation" in result.output and embedfonts.ENV_FOLDER in result.output
        problems = font_problems(PdfReader(tmp_path / "tiny-quest.pdf"))
        assert any("Helvetica" in p and "not embedded" in p for p in problems)  # said, and true
    finally:
        embedfonts.twin_file.cache_clear()
        embedfonts.embedded.cache_clear()


# PNG colour management ------------------------------------------------------------------------------
def _chunks(path: Path) -> dict[bytes, bytes]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    found, at = {}, 8
    while at < len(data):
        (length,) = struct.unpack(">I", data[at : at + 4])
        kind = data[at + 4 : at + 8]
        found.setdefault(kind, data[at + 8 : at + 8 + length])
        at += 12 + length
    return found


def _srgb_profile(chunk: bytes) -> bytes:
    name, _, rest = chunk.partition(b"\x00")
    assert rest[0] == 0  # compression method: zlib
    return zlib.decompress(rest[1:])


@pytest.mark.parametrize("dpi", [300, 150])
def test_exported_pngs_carry_their_dpi_and_an_srgb_profile(
    tiny_quest: Path, tmp_path: Path, dpi: int
) -> None:
    files = _run(
        "export",
        str(tiny_quest),
        "--to",
        "images",
        "--only",
        "heroes",
        "-o",
        str(tmp_path),
        "--dpi",
        str(dpi),
    )
    for path in (f for f in files if f.suffix == ".png"):
        chunks = _chunks(path)
        x, y, unit = struct.unpack(">IIB", chunks[b"pHYs"])
        assert unit == 1 and x == y == round(dpi / 0.0254)  # pixels per metre
        profile = _srgb_profile(chunks[b"iCCP"])
        assert profile[36:40] == b"acsp" and profile[16:20] == b"RGB "
        from PIL import ImageCms

        assert "sRGB" in ImageCms.getProfileDescription(ImageCms.ImageCmsProfile(_bytes_file(profile)))


def test_tts_sheets_and_build_previews_say_the_dpi_they_were_drawn_at(
    tiny_quest: Path, tmp_path: Path
) -> None:
    files = _run("export", str(tiny_quest), "--to", "tts", "--only", "heroes", "-o", str(tmp_path / "tts"))
    sheet = next(f for f in files if f.name == "heroes-sheet-1.png")
    x, _, _ = struct.unpack(">IIB", _chunks(sheet)[b"pHYs"])
    assert x == pytest.approx(300 / 0.0254, rel=0.002)  # a small deck's sheet is drawn at --dpi 300
    _run(
        "build",
        str(tiny_quest),
        "-o",
        str(tmp_path / "b"),
        "--format",
        "png",
        "--dpi",
        "60",
        "--only",
        "heroes",
    )
    preview = sorted((tmp_path / "b").glob("*.png"))[0]
    chunks = _chunks(preview)
    assert struct.unpack(">IIB", chunks[b"pHYs"])[0] == round(60 / 0.0254) and b"iCCP" in chunks


# print-shop PDFs -------------------------------------------------------------------------------------
def test_print_shop_pdfs_pass_the_preflight(tiny_quest: Path, tmp_path: Path) -> None:
    files = _run("export", str(tiny_quest), "--to", "print-shop", "-o", str(tmp_path))
    for path in files:
        reader = PdfReader(path)
        assert shop_problems(reader) == [] and font_problems(reader) == [], path.name
        assert float(reader.pdf_header.removeprefix("%PDF-")) >= 1.6
        intent = reader.trailer["/Root"]["/OutputIntents"][0].get_object()
        assert intent["/S"] == "/GTS_PDFX" and "sRGB" in intent["/OutputConditionIdentifier"]
        assert intent["/DestOutputProfile"].get_object()["/N"] == 3
    hexes, coins, heroes = (PdfReader(tmp_path / f"{name}.pdf") for name in ("land", "coins", "heroes"))
    assert separations(hexes) == {"CutContour"} and separations(coins) == {"CutContour"}
    assert separations(heroes) == set()  # a rectangle is cut by its TrimBox


def test_the_cut_contour_follows_the_hex_and_its_bleed_reaches_past_the_tips(
    tiny_quest: Path, tmp_path: Path
) -> None:
    _run("export", str(tiny_quest), "--to", "print-shop", "--only", "land", "-o", str(tmp_path))
    page = PdfReader(tmp_path / "land.pdf").pages[0]
    media, trim = page.mediabox, page.trimbox
    margins = [
        float(trim.left - media.left),
        float(media.right - trim.right),
        float(trim.bottom - media.bottom),
        float(media.top - trim.top),
    ]
    across = sorted(margins)
    assert across[0] == pytest.approx(3 * MM, abs=0.01)  # tiny-quest's 3 mm bleed along the flat sides
    assert across[-1] == pytest.approx(3 * MM / math.cos(math.pi / 6), abs=0.01)  # 3.46 mm at the tips
    content = page.get_contents().get_data().decode("latin-1")  # type: ignore[union-attr]
    stroke = content[content.index("/CutContour CS") :]
    points = re.findall(r"([\d.]+) ([\d.]+) [ml]", re.split(r"\sS\s", stroke)[0])
    assert len(points) == 6  # the hexagon itself, not a rectangle
    image = pdfium.PdfDocument(tmp_path / "land.pdf")[0].render(scale=4).to_pil().convert("RGB")
    image.save(tmp_path / "land.png")


def test_black_k_writes_black_text_as_pure_k(tiny_quest: Path, tmp_path: Path) -> None:
    _run("export", str(tiny_quest), "--to", "print-shop", "--only", "heroes", "-o", str(tmp_path / "rgb"))
    _run(
        "export",
        str(tiny_quest),
        "--to",
        "print-shop",
        "--only",
        "heroes",
        "-o",
        str(tmp_path / "k"),
        "--black",
        "k",
    )

    def streams(path: Path) -> str:
        reader = PdfReader(path)
        out = []
        for page in reader.pages:
            out.append(page.get_contents().get_data().decode("latin-1"))  # type: ignore[union-attr]
            for xobject in page["/Resources"].get("/XObject", {}).values():
                out.append(xobject.get_object().get_data().decode("latin-1"))
        return "\n".join(out)

    rgb, k = streams(tmp_path / "rgb" / "heroes.pdf"), streams(tmp_path / "k" / "heroes.pdf")
    assert re.search(r"(^|\s)0 0 0 rg\b", rgb) and "0 0 0 1 k" not in rgb
    assert "0 0 0 1 k" in k and not re.search(r"(^|\s)0 0 0 rg\b", k)
    assert re.search(r"0 0 0 1 k [^E]*BT|0 0 0 1 k \(|Tm 0 0 0 1 k", k)  # the text's own colour


# cut files ---------------------------------------------------------------------------------------------
def test_cutfile_writes_the_sheets_with_marks_and_a_cut_svg_per_front_sheet(
    tiny_quest: Path, tmp_path: Path
) -> None:
    files = _run(
        "export", str(tiny_quest), "--to", "cutfile", "--only", "land", "--only", "coins", "-o", str(tmp_path)
    )
    pdf = tmp_path / "tiny-quest-print.pdf"
    svgs = sorted(f for f in files if f.suffix == ".svg")
    assert pdf in files and svgs
    document = pdfium.PdfDocument(pdf)
    dpi = 150
    for svg in svgs:
        number = int(re.search(r"-p(\d+)-cut", svg.name).group(1))  # type: ignore[union-attr]
        text = svg.read_text()
        assert 'width="210.000mm"' in text or 'width="215.900mm"' in text
        cut = text[text.index('<g id="cut"') :]
        assert cut.count("<path") >= 1
        marks = text[text.index('<g id="registration"') : text.index('<g id="cut"')]
        assert marks.count("<path") == 3
        image = document[number - 1].render(scale=dpi / 72).to_pil().convert("RGB")
        assert _pixel(image, 12.5, 12.5, dpi) == (0, 0, 0)  # the square mark is printed where the SVG has it
        right = image.width * 25.4 / dpi - 10.25
        assert _pixel(image, right, 20, dpi)[0] < 80  # the top-right angle's arm


# shop presets ------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("shop", "pixels"),
    [("makeplayingcards", (822, 1122)), ("drivethrucards", (825, 1125)), ("thegamecrafter", (825, 1125))],
)
def test_shop_presets_give_the_shops_card_sizes(
    tiny_quest: Path, tmp_path: Path, shop: str, pixels: tuple[int, int]
) -> None:
    result = CliRunner().invoke(
        main,
        [
            "export",
            str(tiny_quest),
            "--to",
            "print-shop",
            "--only",
            "heroes",
            "--only",
            "land",
            "--shop",
            shop,
            "-o",
            str(tmp_path),
        ],
    )
    assert result.exit_code == 0, result.output
    assert re.search(r"game\.yaml:\d+: note: heroes drawn at .* poker size 63\.5 × 88\.9 mm", result.output)
    page = PdfReader(tmp_path / "heroes.pdf").pages[0]
    assert (
        round(float(page.mediabox.width) / 72 * 300),
        round(float(page.mediabox.height) / 72 * 300),
    ) == pixels
    assert float(page.trimbox.width) == pytest.approx(2.5 * 72) and float(
        page.trimbox.height
    ) == pytest.approx(3.5 * 72)


def test_a_shop_gets_a_plain_back_for_cards_without_one(make_spec: SpecMaker, tmp_path: Path) -> None:
    folder = make_spec(BAND)
    _run("export", str(folder), "--to", "print-shop", "--only", "cards", "-o", str(tmp_path / "plain"))
    _run(
        "export",
        str(folder),
        "--to",
        "print-shop",
        "--only",
        "cards",
        "--shop",
        "thegamecrafter",
        "-o",
        str(tmp_path / "tgc"),
    )
    assert len(PdfReader(tmp_path / "plain" / "cards.pdf").pages) == 1
    reader = PdfReader(tmp_path / "tgc" / "cards.pdf")
    assert len(reader.pages) == 2
    back = pdfium.PdfDocument(tmp_path / "tgc" / "cards.pdf")[1].render(scale=0.5).to_pil().convert("L")
    assert back.getextrema() == (255, 255)  # plain white


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--to", "print-shop", "--shop", "kinkos"],
            "--shop 'kinkos': unknown shop (expected one of makeplayingcards",
        ),
        (["--to", "print-shop", "--black", "cmyk"], "--black 'cmyk': unknown (expected rgb or k)"),
        (["--to", "images", "--black", "k"], "--black k applies to --to print-shop PDFs only"),
        (["--to", "images", "--shop", "thegamecrafter"], "--shop applies to --to print-shop only"),
    ],
)
def test_bad_shop_options_are_said_and_nothing_is_written(
    tiny_quest: Path, tmp_path: Path, args: list[str], message: str
) -> None:
    result = CliRunner().invoke(main, ["export", str(tiny_quest), "-o", str(tmp_path / "out"), *args])
    assert result.exit_code == 2 and message in result.output and "Traceback" not in result.output
    assert not (tmp_path / "out").exists()
