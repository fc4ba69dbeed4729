"""Look defects found in review, measured on the exported pieces (one side a page, trim + bleed): text
characters' boxes read from the PDF, the pixels around them rendered."""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium
import pytest
from click.testing import CliRunner
from conftest import MM, require_cjk

from pnpforge.build import BuildOptions
from pnpforge.building import BuildRequest, build
from pnpforge.cli import main

DPI = 600


def _shop_pdf(game: str, component: str, out: Path, lang: str = "en") -> pdfium.PdfDocument:
    result = CliRunner().invoke(
        main, ["export", game, "--to", "print-shop", "--only", component, "--lang", lang, "-o", str(out)]
    )
    assert result.exit_code == 0, result.output
    return pdfium.PdfDocument(str(out / f"{component}.pdf"))


def _chars(page: pdfium.PdfPage) -> list[tuple[str, float, tuple[float, float, float, float]]]:
    """Each drawn character, its size and its box in points from the page's top-left corner."""
    import pypdfium2.raw as raw

    height = page.get_height()
    text = page.get_textpage()
    out = []
    for k in range(text.count_chars()):
        char = text.get_text_range(k, 1)
        if char.isspace() or not char:
            continue
        left, bottom, right, top = text.get_charbox(k)
        out.append(
            (char, raw.FPDFText_GetFontSize(text.raw, k), (left, height - top, right, height - bottom))
        )
    return out


def _saturated(rgb: tuple[int, int, int]) -> bool:
    return max(rgb) - min(rgb) > 60


@pytest.mark.usefixtures("cmyk_profile")
def test_ankh_power_icons_leave_the_power_texts_clear(tmp_path: Path) -> None:
    """The 6 pt power texts of every god dashboard: no pixel of a god's colour (the ankh icon) inside any
    of their characters' boxes (60 boxes: 12 powers on each of 5 dashboards)."""
    document = _shop_pdf("ankh", "god-dashboards", tmp_path)
    checked = 0
    for index in range(len(document)):
        page = document[index]
        image = page.render(scale=DPI / 72).to_pil().convert("RGB")
        scale = DPI / 72
        body = [(c, box) for c, size, box in _chars(page) if abs(size - 6.0) < 0.05]
        firsts = [box for k, (_, box) in enumerate(body) if k == 0 or box[0] < body[k - 1][1][0] - 20]
        assert len(firsts) >= 12
        for x0, y0, x1, y1 in firsts:
            pixels = [
                image.getpixel((x, y))
                for x in range(int(x0 * scale), int(x1 * scale) + 1)
                for y in range(int(y0 * scale), int(y1 * scale) + 1)
            ]
            assert not any(_saturated(p) for p in pixels), f"icon over a character at {x0 / MM:.1f} mm"
            checked += 1
    assert checked >= 60


@pytest.mark.usefixtures("cmyk_profile")
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_ankh_board_legend_stays_inside_its_frame(lang: str, tmp_path: Path) -> None:
    """Every character of the legend (the frame is 7.8–370.2 mm across, 416–440 mm down the board) keeps
    0.5 mm inside it."""
    if lang == "ja":
        require_cjk()
    page = _shop_pdf("ankh", "board", tmp_path, lang)[0]
    bleed = 3 * MM
    inside = [box for _, _, box in _chars(page) if 416 * MM < (box[1] + box[3]) / 2 - bleed < 440 * MM]
    assert len(inside) > 100
    right = max(box[2] for box in inside) - bleed
    assert right <= (370.2 - 0.5) * MM, f"the legend reaches {right / MM:.2f} mm"


@pytest.mark.parametrize(("lang", "mark"), [("en", "Y"), ("ja", "黄")])
def test_delphi_shrine_marks_sit_on_plain_colour(lang: str, mark: str, tmp_path: Path) -> None:
    """Round the yellow shrine tile's mark (0.3–0.6 mm outside its character box) the pixels are the
    tile's plain yellow: the crosshatch no longer runs through the letter (measured on the built sheet
    of shrine tiles)."""
    if lang == "ja":
        require_cjk()
    options = BuildOptions(out_dir=tmp_path, lang=lang, only=("island-shrine-tiles",))
    (pdf,) = build(BuildRequest("delphi", options)).files
    document = pdfium.PdfDocument(str(pdf))
    page = document[1]  # the sheet of fronts, after the cover
    yellow = (0xF3, 0xCD, 0x2B)
    ((x0, y0, x1, y1), *_) = [box for c, _, box in _chars(page) if c == mark]  # the first of three
    image = page.render(scale=DPI / 72).to_pil().convert("RGB")
    scale = DPI / 72
    near, far = 0.3 * MM, 0.6 * MM
    ring = [
        (x, y)
        for x in range(int((x0 - far) * scale), int((x1 + far) * scale) + 1)
        for y in range(int((y0 - far) * scale), int((y1 + far) * scale) + 1)
        if not (x0 - near) * scale <= x <= (x1 + near) * scale
        or not (y0 - near) * scale <= y <= (y1 + near) * scale
    ]
    off = [
        image.getpixel(p)
        for p in ring
        if max(abs(a - b) for a, b in zip(image.getpixel(p), yellow, strict=True)) > 40
    ]
    assert len(off) <= 0.02 * len(ring), (
        f"{len(off)} of {len(ring)} pixels round the mark are not plain yellow"
    )


@pytest.mark.usefixtures("cmyk_profile")
def test_japanese_print_shop_fronts_are_drawn(tmp_path: Path) -> None:
    """Rows named by a Japanese title: every front of the print-shop PDF shows its art (it was blank)."""
    require_cjk()
    document = _shop_pdf("delphi", "island-shrine-tiles", tmp_path, "ja")
    for index in range(0, len(document), 2):
        image = document[index].render(scale=1).to_pil().convert("RGB")
        assert len(image.getcolors(1 << 20) or ()) > 10, f"page {index + 1} is blank"
