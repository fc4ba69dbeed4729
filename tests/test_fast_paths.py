"""The fast drawing paths keep their meaning: every row's filled values are still checked (also when
rows repeat), shapes written as raw PDF operators render where they should, and text operators
cached per document never leak subset codes into another document."""

from __future__ import annotations

import io
import math
from pathlib import Path

import pytest
from conftest import SpecMaker, render_page, require_cjk
from pypdf import PdfReader
from reportlab.pdfgen.canvas import Canvas as RLCanvas

from pnpforge.build import BuildOptions
from pnpforge.building import BuildRequest, build
from pnpforge.errors import InputError
from pnpforge.output.pdf_canvas import PdfCanvas

SPEC = """\
game: {id: fast, title: Fast}
components:
  - name: cards
    kind: card
    size: poker
    csv: cards.csv
    face:
      elements:
        - {type: rect, x: 5mm, y: 5mm, w: 20mm, h: 10mm, fill: "{colour}"}
        - {type: text, text: "{name}", size: "{size}", y: 20mm, h: 10mm}
"""
BLACK, WHITE = (0.0, 0.0, 0.0), (1.0, 1.0, 1.0)


def test_every_row_is_checked_even_when_values_repeat(make_spec: SpecMaker, tmp_path: Path) -> None:
    rows = (
        "name,colour,size\n"
        "Ace,#ff0000,9pt\n"  # line 2
        "Ace,#ff0000,9pt\n"  # line 3: the same filled values as line 2
        "Two,blu,9pt\n"  # line 4
        "Two,blu,9pt\n"  # line 5: the same bad value again
        "Six,green,huge\n"  # line 6
    )
    folder = make_spec(SPEC, cards__csv=rows)
    out = tmp_path / "out"
    with pytest.raises(InputError) as info:
        build(BuildRequest(folder, BuildOptions(out_dir=out)))
    found = sorted((p.line, p.message) for p in info.value.problems)
    assert [line for line, _ in found] == [4, 5, 6]
    assert all(p.file.endswith("cards.csv") for p in info.value.problems)
    assert "'blu' is not a colour" in found[0][1] and "'blu' is not a colour" in found[1][1]
    assert "size: 'huge' is not a length" in found[2][1]
    assert not out.exists() or not any(out.iterdir())  # nothing written


def test_repeated_rows_draw_the_same_as_distinct_ones(make_spec: SpecMaker, tmp_path: Path) -> None:
    rows = "name,colour,size\n" + "Ace,#ff0000,9pt\n" * 3 + "Two,#0000ff,12pt\n"
    folder = make_spec(SPEC, cards__csv=rows)
    pdf = build(BuildRequest(folder, BuildOptions(out_dir=tmp_path / "out"))).files[0]
    text = PdfReader(str(pdf)).pages[1].extract_text()
    assert text.count("Ace") == 3 and text.count("Two") == 1
    page = render_page(pdf, 1, 36)
    colours = {page.getpixel((x, y)) for x in range(page.width) for y in range(page.height)}
    assert any(r > 200 and g < 60 and b < 60 for r, g, b in colours)  # the red boxes
    assert any(b > 200 and r < 60 and g < 60 for r, g, b in colours)  # the blue one


def _page(draw, size: float = 100.0):  # type: ignore[no-untyped-def]
    """A one-page PDF (size × size points) drawn by `draw(canvas)`, rendered at 4 pixels per point."""
    buffer = io.BytesIO()
    rl = RLCanvas(buffer, pagesize=(size, size), invariant=1)
    draw(PdfCanvas(rl, size))
    rl.save()
    return render_page(buffer.getvalue(), 0, 288)


def _dark(image, x: float, y: float) -> bool:  # type: ignore[no-untyped-def]
    """Whether the pixel at (x, y) points (y down, as the canvas) is mostly black."""
    return sum(image.getpixel((int(x * 4), int(y * 4)))) < 3 * 100


def test_rounded_rect_has_round_corners_where_asked() -> None:
    image = _page(lambda c: c.rounded_rect(10, 20, 80, 60, 20, BLACK, None, 0))
    assert _dark(image, 50, 50) and _dark(image, 50, 21) and _dark(image, 11, 50)  # inside, near edges
    assert not _dark(image, 50, 18) and not _dark(image, 8, 50)  # outside the straight edges
    corner = (30, 40)  # the top-left arc's centre; radius 20
    for angle in (200, 225, 250):
        dx, dy = math.cos(math.radians(angle)), math.sin(math.radians(angle))
        assert _dark(image, corner[0] + 18 * dx, corner[1] + 18 * dy)
        assert not _dark(image, corner[0] + 22 * dx, corner[1] + 22 * dy)
    square = _page(lambda c: c.rounded_rect(10, 20, 80, 60, 0, BLACK, None, 0))
    assert _dark(square, 11, 21) and not _dark(square, 9, 19)  # radius 0: sharp corners


def test_ellipse_is_an_ellipse() -> None:
    image = _page(lambda c: c.ellipse(50, 40, 40, 20, BLACK, None, 0))
    for degrees in range(0, 360, 30):
        dx, dy = math.cos(math.radians(degrees)), math.sin(math.radians(degrees))
        assert _dark(image, 50 + 37 * dx, 40 + 18 * dy)
        assert not _dark(image, 50 + 43 * dx, 40 + 22 * dy)


def test_dashed_polyline_has_gaps_and_leaves_no_dash_behind() -> None:
    def draw(c: PdfCanvas) -> None:
        c.polygon([(10, 30), (90, 30)], None, BLACK, 2, closed=False, dash=[10, 10])
        c.polygon([(10, 60), (90, 60)], None, BLACK, 2, closed=False)  # after the dash: solid

    image = _page(draw)
    dashed = [_dark(image, x, 30) for x in range(11, 90)]
    assert any(dashed) and not all(dashed)
    assert all(_dark(image, x, 60) for x in range(11, 90))


def test_text_operators_are_cached_per_document_only(tmp_path: Path) -> None:
    require_cjk()
    from pnpforge.fonts import FontRegistry

    fonts = FontRegistry()
    assert fonts.cjk is not None

    def write(path: Path, lines: list[str]) -> None:
        rl = RLCanvas(str(path), pagesize=(300, 200), invariant=1)
        canvas = PdfCanvas(rl, 200)
        for number, line in enumerate(lines, start=1):
            x = 10.0
            for segment, font in fonts.runs(line, "Helvetica"):
                canvas.text(x, 30 * number, segment, font, 12, BLACK)
                x += fonts.width(segment, font, 12)
        rl.save()

    # the second document meets 殿 before 神, so its subset codes differ from the first one's
    write(tmp_path / "a.pdf", ["神殿 A"])
    write(tmp_path / "b.pdf", ["殿神 B", "神殿 A"])
    assert "神殿 A" in PdfReader(str(tmp_path / "a.pdf")).pages[0].extract_text()
    text = PdfReader(str(tmp_path / "b.pdf")).pages[0].extract_text()
    assert "殿神 B" in text and "神殿 A" in text


def test_white_text_on_a_dark_fill_is_white() -> None:
    def draw(c: PdfCanvas) -> None:
        c.rounded_rect(0, 0, 100, 100, 0, BLACK, None, 0)
        c.text(10, 60, "IIIIIIII", "Helvetica-Bold", 40, WHITE)

    image = _page(draw)
    assert any(not _dark(image, x / 4, 50) for x in range(40, 360))  # white strokes of the letters
