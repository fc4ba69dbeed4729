"""Print-shop grade output, measured in the files: the bleed ring of every bundled piece read from its
pixels, every font embedded (pypdf), PNG pHYs/iCCP chunks, the shop PDF's version, OutputIntent, boxes,
CutContour and pure-K black, the cut files, and the shops' page sizes."""

from __future__ import annotations

import io
import math
import re
import shutil
import struct
import subprocess
import zlib
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from click.testing import CliRunner
from conftest import MM, SpecMaker, require_cmyk_profile
from PIL import Image
from pypdf import PdfReader
from pypdf.generic import DictionaryObject, IndirectObject, StreamObject

from pnpforge import fonts as font_files
from pnpforge.catalog import games
from pnpforge.cli import main
from pnpforge.export import ExportOptions, pdfx, prepare
from pnpforge.export.pages import render, side_page
from pnpforge.export.preflight import font_problems, fonts, pdfx_report, separations, shop_problems
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
    monkeypatch.setattr(font_files, "TWIN_FOLDERS", ())
    monkeypatch.delenv(font_files.TWINS_ENV, raising=False)
    font_files.twin_file.cache_clear()
    embedfonts.embedded.cache_clear()
    try:
        result = CliRunner().invoke(main, ["build", str(tiny_quest), "-o", str(tmp_path), "--only", "heroes"])
        assert result.exit_code == 0, result.output
        assert "fonts-liberation" in result.output and font_files.TWINS_ENV in result.output
        problems = font_problems(PdfReader(tmp_path / "tiny-quest.pdf"))
        assert any("Helvetica" in p and "not embedded" in p for p in problems)  # said, and true
    finally:
        font_files.twin_file.cache_clear()
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
X4_RULES = ["identification", "document info", "page boxes", "output intent", "colour spaces", "fonts"]


def _all_objects_text(path: Path) -> str:
    """Every object of the PDF as text, content streams decoded (font programs and ICC profiles left
    out): what a grep of the whole file finds, not only what its pages use."""
    reader = PdfReader(path)
    out = []
    for generation, numbers in reader.xref.items():
        for number in numbers:
            obj = reader.get_object(IndirectObject(number, generation, reader))
            kept = isinstance(obj, StreamObject) and obj.get("/Subtype") not in ("/Image", "/XML")
            if kept and "/N" not in obj and "/Length1" not in obj:  # not an ICC profile or font program
                out.append(obj.get_data().decode("latin-1"))
            out.append(str(dict(obj.items()) if isinstance(obj, DictionaryObject) else obj))
    return "\n".join(out)


def test_print_shop_pdfs_are_identified_pdfx4_with_a_cmyk_print_intent(
    tiny_quest: Path, tmp_path: Path
) -> None:
    icc = require_cmyk_profile()
    files = _run("export", str(tiny_quest), "--to", "print-shop", "--icc", str(icc), "-o", str(tmp_path))
    for path in files:
        reader = PdfReader(path)
        assert shop_problems(reader) == [] and font_problems(reader) == [], path.name
        claimed, rules = pdfx_report(reader)
        assert claimed == "PDF/X-4" and [r.name for r, _ in rules] == X4_RULES
        assert reader.metadata["/GTS_PDFXVersion"] == "PDF/X-4" and reader.pdf_header == "%PDF-1.6"
        xmp = reader.trailer["/Root"]["/Metadata"].get_object().get_data().decode()
        assert "<pdfxid:GTS_PDFXVersion>PDF/X-4</pdfxid:GTS_PDFXVersion>" in xmp
        intent = reader.trailer["/Root"]["/OutputIntents"][0].get_object()
        profile = intent["/DestOutputProfile"].get_object()
        assert intent["/S"] == "/GTS_PDFX" and profile["/N"] == 4
        assert profile.get_data() == icc.read_bytes()  # the shop's profile, embedded as it is
        assert profile.get_data()[12:20] == b"prtrCMYK"  # a print characterisation, not sRGB's 'mntr'
        for page in reader.pages:  # every page and every form takes DeviceRGB as ICC-based sRGB
            spaces = [page["/Resources"]["/ColorSpace"]] + [
                form.get_object()["/Resources"]["/ColorSpace"]
                for form in page["/Resources"].get("/XObject", {}).values()
            ]
            for space in spaces:
                family, stream = space["/DefaultRGB"].get_object()
                assert family == "/ICCBased" and stream.get_object().get_data()[12:20] == b"mntrRGB "
    hexes, coins, heroes = (PdfReader(tmp_path / f"{name}.pdf") for name in ("land", "coins", "heroes"))
    assert separations(hexes) == {"CutContour"} and separations(coins) == {"CutContour"}
    assert separations(heroes) == set()  # a rectangle is cut by its TrimBox
    resources = hexes.pages[0]["/Resources"]["/ColorSpace"]
    cut = next(v.get_object() for k, v in resources.items() if k != "/DefaultRGB")
    assert cut[1] == "/CutContour" and cut[2] == "/DeviceCMYK"  # the alternate is the intent's own space


def test_drivethrucards_files_are_pdfx1a_all_cmyk_through_the_profile(tmp_path: Path) -> None:
    from PIL import ImageCms

    from pnpforge.output.colour import srgb_profile

    icc = require_cmyk_profile()
    built = _run("build", "gods", "-o", str(tmp_path / "home"))
    home = PdfReader(next(path for path in built if path.suffix == ".pdf")).metadata
    files = _run(
        "export",
        "gods",
        "--to",
        "print-shop",
        "--shop",
        "drivethrucards",
        "--icc",
        str(icc),
        "-o",
        str(tmp_path / "dtc"),
    )
    assert len(files) >= 5
    for path in files:
        reader = PdfReader(path)
        claimed, rules = pdfx_report(reader)
        assert claimed == "PDF/X-1a:2003" and reader.pdf_header == "%PDF-1.4"
        assert [(r.name, found) for r, found in rules if found] == [], path.name
        assert "transparency" in [r.name for r, _ in rules]
        info = reader.metadata
        assert info["/Author"] == home["/Author"] and info["/Subject"] == home["/Subject"]
        assert info["/Title"] == f"{home['/Title']}: {path.stem}"
        text = _all_objects_text(path)  # a walk of every object, not only what pages use
        assert not re.search(r"(^|\s)[\d.]+ [\d.]+ [\d.]+ (rg|RG)\b", text), path.name
        assert "DeviceRGB" not in text and "ICCBased" not in text and "/SMask" not in text, path.name
        assert not re.search(r"/(CA|ca) 0?\.\d", text)
    # the grey of Gods' card notes (#444444) is converted by littleCMS through the profile, as ImageCms says
    transform = ImageCms.buildTransform(
        ImageCms.ImageCmsProfile(io.BytesIO(srgb_profile())),
        ImageCms.ImageCmsProfile(str(icc)),
        "RGB",
        "CMYK",
        renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC,
        flags=ImageCms.Flags.BLACKPOINTCOMPENSATION,
    )
    white = transform.apply(Image.new("RGB", (1, 1), (255, 255, 255))).getpixel((0, 0))
    assert white == (0, 0, 0, 0)
    text = _all_objects_text(tmp_path / "dtc" / "vp-cards.pdf")
    used = {tuple(float(v) for v in m) for m in re.findall(r"([\d.]+) ([\d.]+) ([\d.]+) ([\d.]+) k\b", text)}
    grey = transform.apply(Image.new("RGB", (1, 1), (0x44, 0x44, 0x44))).getpixel((0, 0))
    assert len(used) > 3 and all(all(0 <= v <= 1 for v in c) for c in used)
    assert any(all(abs(a * 255 - b) < 0.6 for a, b in zip(c, grey, strict=True)) for c in used), (grey, used)


def test_the_icc_profile_is_checked_and_without_one_nothing_is_written(
    tiny_quest: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rgb = tmp_path / "screen.icc"
    from pnpforge.output.colour import srgb_profile

    rgb.write_bytes(srgb_profile())
    out = tmp_path / "out"
    result = CliRunner().invoke(
        main, ["export", str(tiny_quest), "--to", "print-shop", "--icc", str(rgb), "-o", str(out)]
    )
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert f"{rgb}:1:1: not a CMYK output profile: class 'mntr', colour space RGB" in result.output
    junk = tmp_path / "junk.icc"
    junk.write_bytes(b"not a profile at all")
    result = CliRunner().invoke(
        main, ["export", str(tiny_quest), "--to", "print-shop", "--icc", str(junk), "-o", str(out)]
    )
    assert result.exit_code == 2 and f"{junk}:1:1: not an ICC profile" in result.output
    monkeypatch.setattr(pdfx, "INSTALLED", ())
    result = CliRunner().invoke(main, ["export", str(tiny_quest), "--to", "print-shop", "-o", str(out)])
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert result.exit_code == 2 and len(lines) == 1 and "Traceback" not in result.output
    assert "PDF/X-4 needs the shop's CMYK output profile: pass --icc FILE" in lines[0]
    assert not out.exists()
    images = CliRunner().invoke(
        main, ["export", str(tiny_quest), "--to", "images", "--icc", str(rgb), "-o", str(out)]
    )
    assert images.exit_code == 2 and "--icc applies to --to print-shop PDFs only" in images.output


def test_preflight_lists_the_rules_it_checked_per_file(tiny_quest: Path, tmp_path: Path) -> None:
    icc = require_cmyk_profile()
    args = ["export", str(tiny_quest), "--to", "print-shop", "--only", "heroes", "--only", "land"]
    result = CliRunner().invoke(main, [*args, "--icc", str(icc), "--preflight", "-o", str(tmp_path / "x4")])
    assert result.exit_code == 0, result.output
    for name in ("heroes", "land"):
        block = result.stdout.split(f"{tmp_path / 'x4' / name}.pdf: PDF/X-4")[1].split(".pdf:")[0]
        rules = re.findall(r"^  (ok|FAIL)  ([a-z ]+):", block, re.M)
        assert rules == [("ok", name) for name in X4_RULES]
    result = CliRunner().invoke(
        main,
        [*args, "--shop", "drivethrucards", "--icc", str(icc), "--preflight", "-o", str(tmp_path / "x1a")],
    )
    assert result.exit_code == 0 and result.stdout.count(": PDF/X-1a:2003") == 2
    assert result.stdout.count("  ok  transparency:") == 2
    # a file that breaks a rule is said so: an X-4 file whose pages lost their DefaultRGB
    reader = PdfReader(tmp_path / "x4" / "heroes.pdf")
    for page in reader.pages:
        for form in page["/Resources"]["/XObject"].values():
            form.get_object()["/Resources"].pop("/ColorSpace", None)  # a form shared by pages: once
    claimed, rules = pdfx_report(reader)
    assert dict((r.name, found) for r, found in rules)["colour spaces"][0].endswith(
        "DeviceRGB without a DefaultRGB colour space"
    )


@pytest.mark.skipif(shutil.which("gs") is None, reason="Ghostscript is not installed (.ci/run installs it)")
@pytest.mark.parametrize("shop", ["", "makeplayingcards", "drivethrucards", "thegamecrafter"])
def test_ghostscript_reads_every_presets_files_without_a_complaint(shop: str, tmp_path: Path) -> None:
    """Checked by a reader we did not write: Ghostscript renders every page of every file with its ink
    coverage device, stopping on any error or warning, using the file's own output intent profile."""
    icc = require_cmyk_profile()
    preset = ["--shop", shop] if shop else []
    files = _run("export", "quo-vadis", "--to", "print-shop", *preset, "--icc", str(icc), "-o", str(tmp_path))
    for path in files:
        run = subprocess.run(
            [
                "gs",
                "-dNOPAUSE",
                "-dBATCH",
                "-dPDFSTOPONERROR",
                "-dPDFSTOPONWARNING",
                "-dUsePDFX3Profile",
                "-sDEVICE=inkcov",
                "-o",
                "-",
                str(path),
            ],
            capture_output=True,
            text=True,
            check=False,
        )
        said = run.stdout + run.stderr
        assert run.returncode == 0 and "****" not in said and "rror" not in said, (path.name, said[-800:])
        pages = re.findall(r"^ ([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+) CMYK OK$", run.stdout, re.M)
        assert len(pages) == len(PdfReader(path).pages)


@pytest.mark.usefixtures("cmyk_profile")
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


@pytest.mark.usefixtures("cmyk_profile")
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
@pytest.mark.usefixtures("cmyk_profile")
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


@pytest.mark.usefixtures("cmyk_profile")
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


@pytest.mark.parametrize("game", [game.id for game in games()])
def test_every_game_gets_its_cut_files(game: str, tmp_path: Path) -> None:
    """Boards are cut in parts as the build cuts them; what cannot fit inside the marks is named (a note:
    --strict, as docs/exports.md runs it, refuses warnings only)."""
    result = CliRunner().invoke(main, ["export", game, "--to", "cutfile", "--strict", "-o", str(tmp_path)])
    assert result.exit_code == 0, result.output
    written = [Path(line) for line in result.stdout.splitlines()]
    svgs = [path for path in written if path.suffix == ".svg"]
    assert (tmp_path / f"{game}-print.pdf").is_file() and svgs
    for svg in svgs:
        text = svg.read_text()
        assert '<g id="registration"' in text and text.count("<path") > 3
    left_out = re.findall(
        r"note: (\S+) \([\d.]+ × [\d.]+ mm\) does not fit inside the cut marks", result.output
    )
    expected = {"ankh": ["devotion-track"], "good-shepherds": ["farm-board", "money-track"]}
    assert left_out == expected.get(game, [])
    assert ": warning: " not in result.stderr  # its cut sheets print as the spec is written


def test_cut_files_on_a3_take_what_a4_leaves_out(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        main,
        [
            "export",
            "ankh",
            "--to",
            "cutfile",
            "--page",
            "a3",
            "--only",
            "devotion-track",
            "-o",
            str(tmp_path),
        ],
    )
    assert result.exit_code == 0 and "does not fit" not in result.output, result.output
    page = PdfReader(tmp_path / "ankh-print.pdf").pages[0]
    assert round(float(page.mediabox.width) / 72 * 25.4) in (297, 420)  # an A3 sheet
    svg = (tmp_path / "ankh-p001-cut.svg").read_text()
    cut = svg.split('<g id="cut"')[1]
    xs = [float(v) for v in re.findall(r"([\d.]+),[\d.]+", cut)]
    ys = [float(v) for v in re.findall(r"[\d.]+,([\d.]+)", cut)]
    spans = sorted([max(xs) - min(xs), max(ys) - min(ys)])
    assert spans[1] / 72 * 25.4 >= 262 - 0.5  # the 262 mm track is on the sheet, whole
    refused = CliRunner().invoke(
        main, ["export", "ankh", "--to", "images", "--page", "a3", "-o", str(tmp_path / "x")]
    )
    assert refused.exit_code == 2 and "--page applies to --to cutfile only" in refused.output


@pytest.mark.parametrize("shop", ["makeplayingcards", "drivethrucards", "thegamecrafter"])
@pytest.mark.usefixtures("cmyk_profile")
def test_each_preset_says_what_it_cannot_place_on_a_product(shop: str, tmp_path: Path) -> None:
    """One line per component: drawn at a product's size, or exported at its own size and said so."""
    result = CliRunner().invoke(
        main, ["export", "gods", "--to", "print-shop", "--shop", shop, "-o", str(tmp_path)]
    )
    assert result.exit_code == 0, result.output
    notes = re.findall(r"game\.yaml:\d+: note: (\S+) (drawn at|\(|\()", result.output)
    named = [name for name, _ in notes]
    components = [path.stem for path in sorted(tmp_path.glob("*.pdf"))]
    assert sorted(named) == components  # every component, once
    assert "tiles (tile, 38 × 43.88 mm) is none of" in result.output
    if shop == "drivethrucards":  # no mini product: Gods' mini cards keep their own size, said so
        assert "vp-cards (44 × 63 mm) matches no DriveThruCards card product" in result.output


PICTURES = """\
game: {id: pictures, title: Pictures}
defaults: {bleed: 3mm}
components:
  - name: cards
    kind: card
    size: poker
    count: 1
    face:
      background: "#3060c0"
      elements:
        - {type: image, src: icon.png, x: 10mm, y: 10mm, w: 30mm, h: 30mm}
        - {type: image, src: art.svg, x: 10mm, y: 45mm, w: 30mm, h: 30mm}
"""
SVG = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="30" height="30">'
    '<rect x="0" y="0" width="30" height="15" fill="#10a040"/></svg>'
)


def test_x1a_converts_pictures_to_cmyk_and_keeps_their_transparency_as_a_mask(
    make_spec: SpecMaker, tmp_path: Path
) -> None:
    icc = require_cmyk_profile()
    icon = Image.new("RGBA", (60, 60), (0, 0, 0, 0))
    icon.paste((220, 30, 40, 255), (10, 10, 50, 50))  # a red square on a transparent ground
    buffer = io.BytesIO()
    icon.save(buffer, "PNG")
    folder = make_spec(PICTURES, icon__png=buffer.getvalue(), art__svg=SVG)
    out = tmp_path / "dtc"
    args = ["export", str(folder), "--to", "print-shop", "--shop", "drivethrucards", "--icc", str(icc)]
    _run(*args, "-o", str(out))
    reader = PdfReader(out / "cards.pdf")
    claimed, rules = pdfx_report(reader)
    assert claimed == "PDF/X-1a:2003" and [(r.name, f) for r, f in rules if f] == []
    images = [
        obj
        for generation, numbers in reader.xref.items()
        for number in numbers
        if isinstance(obj := reader.get_object(IndirectObject(number, generation, reader)), StreamObject)
        and obj.get("/Subtype") == "/Image"
    ]
    assert images and all(image["/ColorSpace"] == "/DeviceCMYK" for image in images)
    assert all("/SMask" not in image and len(image["/Mask"]) == 8 for image in images)  # a colour-key mask
    text = _all_objects_text(out / "cards.pdf")
    assert not re.search(r"(^|\s)[\d.]+ [\d.]+ [\d.]+ (rg|RG)\b", text)  # the SVG's green too is CMYK
    page = pdfium.PdfDocument(out / "cards.pdf")[0].render(scale=300 / 72).to_pil().convert("RGB")
    ground = page.getpixel((int(11 * 300 / 25.4 + 35), int(11 * 300 / 25.4 + 35)))  # the icon's clear corner
    square = page.getpixel((int(13 * 300 / 25.4 + 150), int(13 * 300 / 25.4 + 150)))
    assert ground[2] > ground[0] + 60  # the card's blue shows through where the icon is clear
    assert square[0] > square[2] + 60  # the icon's red, converted and back
    _run("export", str(folder), "--to", "print-shop", "--icc", str(icc), "-o", str(tmp_path / "x4"))
    claimed, rules = pdfx_report(PdfReader(tmp_path / "x4" / "cards.pdf"))  # SVG text state: embedded font
    assert claimed == "PDF/X-4" and [(r.name, f) for r, f in rules if f] == []


def test_x1a_refuses_transparent_svg_art_at_its_file(make_spec: SpecMaker, tmp_path: Path) -> None:
    icc = require_cmyk_profile()
    see_through = SVG.replace('fill="#10a040"', 'fill="#10a040" fill-opacity="0.5"')
    folder = make_spec(PICTURES, icon__png=_png(), art__svg=see_through)
    out = tmp_path / "dtc"
    args = ["export", str(folder), "--to", "print-shop", "--shop", "drivethrucards", "--icc", str(icc)]
    result = CliRunner().invoke(main, [*args, "-o", str(out)])
    assert result.exit_code == 2 and "Traceback" not in result.output and not out.exists()
    assert "art.svg:1:1: transparency cannot go in a PDF/X-1a file (expected opaque SVG art)" in result.output
    _run(
        "export", str(folder), "--to", "print-shop", "--icc", str(icc), "-o", str(tmp_path / "x4")
    )  # X-4 may


def _png() -> bytes:
    buffer = io.BytesIO()
    Image.new("RGBA", (4, 4), (200, 0, 0, 128)).save(buffer, "PNG")
    return buffer.getvalue()
