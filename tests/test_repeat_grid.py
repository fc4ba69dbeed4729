"""New face elements and face fixes, on real PDFs: repeat (copies with their {index}), grid (cells with
texts from a list or range), per-row backs, the warning for an element outside its piece, a hexgrid
cell's icon kept apart from its text."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy
import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
import pytest
from click.testing import CliRunner
from conftest import SpecMaker
from PIL import Image
from reportlab.pdfgen.canvas import Canvas as RLCanvas

from pnpforge.cli import main
from pnpforge.components.load import RowRef
from pnpforge.components.model import Component
from pnpforge.fonts import FontRegistry
from pnpforge.generator.pieces import Piece
from pnpforge.generator.sizes import piece_size
from pnpforge.layouts.faces.context import RenderContext
from pnpforge.layouts.faces.render import check_side, draw_side, side_is_shared
from pnpforge.output.pdf_canvas import PdfCanvas
from pnpforge.units import mm

DPI = 72 * 4  # 4 px a point
MARGIN = mm(10)


def _face(elements: list[dict[str, Any]], size: str = "100x60mm", row: dict[str, Any] | None = None) -> Piece:
    comp = Component.model_validate(
        {"name": "c", "kind": "card", "size": size, "face": {"background": "white", "elements": elements}}
    )
    w, h = piece_size(comp)
    return Piece(comp, row or {}, RowRef("cards.csv", 3), 0, w, h, ())


def _pdf(path: Path, piece: Piece) -> Path:
    """The piece's face alone on a page, its trim top-left MARGIN from the page's top-left corner."""
    width, height = piece.width + 2 * MARGIN, piece.height + 2 * MARGIN
    rl = RLCanvas(str(path), pagesize=(width, height), invariant=1)
    canvas = PdfCanvas(rl, height)
    canvas.save()
    canvas.translate(MARGIN, MARGIN)
    draw_side(canvas, piece, "face", RenderContext(fonts=FontRegistry()))
    canvas.restore()
    rl.save()
    return path


def _image(pdf: Path) -> Image.Image:
    return pdfium.PdfDocument(str(pdf))[0].render(scale=DPI / 72).to_pil().convert("RGB")


def _at(image: Image.Image, x_mm: float, y_mm: float) -> tuple[int, int, int]:
    """The pixel at (x, y) mm from the piece's trim top-left."""
    scale = DPI / 72
    return image.getpixel((round((MARGIN + mm(x_mm)) * scale), round((MARGIN + mm(y_mm)) * scale)))


def _words(pdf: Path) -> list[str]:
    return str(pdfium.PdfDocument(str(pdf))[0].get_textpage().get_text_range()).split()


RED, WHITE = (208, 32, 32), (255, 255, 255)


def _near(pixel: tuple[int, int, int], colour: tuple[int, int, int]) -> bool:
    return all(abs(a - b) <= 12 for a, b in zip(pixel, colour, strict=True))


# repeat ----------------------------------------------------------------------------------------------
def test_repeat_draws_each_copy_a_step_on(tmp_path: Path) -> None:
    piece = _face(
        [
            {
                "type": "repeat",
                "count": 5,
                "x": "10mm",
                "y": "10mm",
                "w": "8mm",
                "h": "8mm",
                "step": ["16mm", "2mm"],
                "elements": [{"type": "rect", "fill": "#d02020"}],
            }
        ]
    )
    image = _image(_pdf(tmp_path / "r.pdf", piece))
    for n in range(5):  # the middle of each copy is red, the gap after it paper
        assert _near(_at(image, 14 + 16 * n, 14 + 2 * n), RED), n
        assert _near(_at(image, 22 + 16 * n, 14 + 2 * n), WHITE), n
    assert _near(_at(image, 14 + 16 * 5, 14 + 2 * 5), WHITE)  # no sixth copy


def test_repeat_wraps_into_lines_and_gives_each_copy_its_index(tmp_path: Path) -> None:
    track = {
        "type": "repeat",
        "count": 6,
        "start": 10,
        "wrap": 3,
        "x": "5mm",
        "y": "5mm",
        "w": "20mm",
        "h": "10mm",
        "elements": [
            {"type": "rect", "fill": "#d02020", "when": "index % 2 == 0"},
            {"type": "text", "text": "n{index}", "size": "10pt"},
        ],
    }
    pdf = _pdf(tmp_path / "t.pdf", _face([track]))
    assert _words(pdf) == ["n10", "n11", "n12", "n13", "n14", "n15"]
    image = _image(pdf)
    reds = [_near(_at(image, 6 + 20 * (n % 3), 6 + 10 * (n // 3)), RED) for n in range(6)]
    assert reds == [True, False, True, False, True, False]  # the second line starts under the first


def test_a_repeat_of_index_only_is_shared_and_one_naming_a_row_field_is_not() -> None:
    index_only = {
        "type": "repeat",
        "count": 3,
        "w": "5mm",
        "h": "5mm",
        "elements": [{"type": "text", "text": "{index}"}],
    }
    per_row = {**index_only, "elements": [{"type": "text", "text": "{index}/{vp}"}]}
    assert side_is_shared(_face([index_only]).component, "face")
    assert not side_is_shared(_face([per_row]).component, "face")
    assert check_side(_face([per_row], row={"vp": "3"}), "face", RenderContext(fonts=FontRegistry())) == []


# grid ------------------------------------------------------------------------------------------------
def test_grid_draws_its_cells_and_the_range_in_them(tmp_path: Path) -> None:
    grid = {
        "type": "grid",
        "columns": 4,
        "rows": 3,
        "x": "10mm",
        "y": "6mm",
        "w": "80mm",
        "h": "48mm",
        "range": [1, 12],
        "fill": "#d02020",
        "stroke": "black",
        "stroke_width": "0.6mm",
        "colour": "white",
        "size": "12pt",
    }
    pdf = _pdf(tmp_path / "g.pdf", _face([grid]))
    assert _words(pdf) == [str(n) for n in range(1, 13)]
    image = _image(pdf)
    for col in range(4):
        for row in range(3):  # each cell red near its corner, black on its lines
            assert _near(_at(image, 10 + 20 * col + 3, 6 + 16 * row + 3), RED), (col, row)
            assert max(_at(image, 10 + 20 * col, 6 + 16 * row + 8)) < 60, (col, row)
    assert max(_at(image, 90, 30)) < 60  # the right edge
    assert _near(_at(image, 95, 30), WHITE)  # nothing past it


def test_grid_texts_fill_row_by_row_and_too_many_is_an_error(tmp_path: Path) -> None:
    texts = {"type": "grid", "columns": 2, "rows": 2, "texts": ["a", "b", "c"], "w": "40mm", "h": "40mm"}
    assert _words(_pdf(tmp_path / "t.pdf", _face([texts]))) == ["a", "b", "c"]
    too_many = {**texts, "texts": ["a", "b", "c", "d", "e"]}
    (problem,) = check_side(_face([too_many]), "face", RenderContext(fonts=FontRegistry()))
    assert "5 texts for 4 cells" in problem.message
    with pytest.raises(ValueError, match="either `texts` or `range`"):
        _face([{**texts, "range": [1, 4]}])


# through the CLI: the warning, per-row backs -----------------------------------------------------
def _build(folder: Path, out: Path, *args: str) -> Any:
    result = CliRunner().invoke(main, ["build", str(folder), "-o", str(out), "--no-cache", *args])
    assert result.exit_code == 0, result.output
    return result


def test_an_element_wholly_outside_its_piece_is_a_warning_at_its_line(
    make_spec: SpecMaker, tmp_path: Path
) -> None:
    spec = make_spec(
        """\
        game: {id: off, title: Off, players: [1, 2], designer: t}
        components:
          - name: cards
            kind: card
            size: poker
            count: 3
            face:
              elements:
                - {type: text, text: "on the card"}
                - {type: icon, name: star, x: 70mm, y: 5mm, w: 10mm, h: 10mm}
                - {type: rect, x: 60mm, y: 5mm, w: 10mm, h: 10mm, fill: red}
        """
    )
    result = _build(spec, tmp_path / "out")
    lines = [line for line in result.stderr.splitlines() if "warning" in line]
    assert len(lines) == 1, result.stderr  # said once, not once per card; the rect reaching in is fine
    assert lines[0].startswith(f"{spec / 'game.yaml'}:10:") and "element 2" in lines[0]
    assert "lies wholly outside the piece" in lines[0]
    clean = make_spec((spec / "game.yaml").read_text(encoding="utf-8").replace("x: 70mm", "x: 50mm"), "clean")
    assert "warning" not in _build(clean, tmp_path / "clean").stderr


BACKS = """\
game: {id: backs, title: Backs, players: [1, 2], designer: t}
defaults: {bleed: 0mm}
components:
  - name: cards
    kind: card
    size: poker
    rows:
      - {id: a, type: spell}
      - {id: b, type: rule}
      - {id: c, type: spell, back: false}
      - {id: d, type: spell}
    face: {elements: [{type: text, text: "{id}"}]}
    back_by:
      field: type
      faces:
        spell: {background: "#d02020"}
        rule: none
"""


def _red_share(pdf: Path, index: int) -> float:
    doc = pdfium.PdfDocument(str(pdf))
    image = doc[index % len(doc)].render(scale=30 / 72).to_pil().convert("RGB")
    pixels = numpy.asarray(image, dtype=int)
    return float((numpy.abs(pixels - RED).max(axis=2) <= 12).mean())


def test_only_some_rows_are_double_sided(make_spec: SpecMaker, tmp_path: Path) -> None:
    one_sided = make_spec(BACKS, "some")
    every = make_spec(
        BACKS.replace("rule: none", "rule: {background: '#d02020'}").replace(", back: false", ""), "all"
    )
    some_pdf = tmp_path / "some" / "backs.pdf"
    every_pdf = tmp_path / "all" / "backs.pdf"
    _build(one_sided, tmp_path / "some")
    _build(every, tmp_path / "all")
    # the last page holds the backs: two of four cards have one (b's back_by is none, c says back: false)
    assert _red_share(some_pdf, -1) == pytest.approx(_red_share(every_pdf, -1) / 2, rel=0.05)
    assert _red_share(every_pdf, -1) > 0.2


def test_face_by_cannot_leave_a_row_without_a_face(make_spec: SpecMaker, tmp_path: Path) -> None:
    spec = make_spec(
        BACKS.replace("back_by:", "face_by:").replace(
            '    face: {elements: [{type: text, text: "{id}"}]}\n', ""
        )
    )
    result = CliRunner().invoke(main, ["build", str(spec), "-o", str(tmp_path / "out")])
    assert result.exit_code == 2
    assert "every row has a face" in result.output and "game.yaml:" in result.output


# hexgrid ---------------------------------------------------------------------------------------------
def test_a_hexgrid_cells_icon_and_text_do_not_overlap(tmp_path: Path) -> None:
    grid = {
        "type": "hexgrid",
        "cols": 1,
        "rows": 1,
        "cells": [{"at": [0, 0], "icon": "star", "text": "Start", "fill": "#ffffff"}],
    }
    pdf = _pdf(tmp_path / "h.pdf", _face([grid], size="60x60mm"))
    page = pdfium.PdfDocument(str(pdf))[0]
    text = page.get_textpage()
    assert text.get_text_range() == "Start"
    text_top = max(text.get_charbox(i)[3] for i in range(text.count_chars()))  # PDF y grows up
    paths = [obj.get_bounds() for obj in page.get_objects() if obj.type == pdfium_c.FPDF_PAGEOBJ_PATH]
    icon = [box for box in paths if box[3] - box[1] < page.get_height() * 0.5]  # not the hex itself
    assert icon
    assert min(box[1] for box in icon) > text_top  # the icon's lowest point is above the text's top


def test_the_json_schema_knows_repeat_grid_and_backs_of_none() -> None:
    import json

    schema = json.loads(CliRunner().invoke(main, ["schema"]).output)
    defs = schema["$defs"]
    assert defs["RepeatElement"]["properties"]["type"]["const"] == "repeat"
    assert defs["GridElement"]["properties"]["type"]["const"] == "grid"
    held = {
        ref["$ref"].rsplit("/", 1)[1]
        for ref in defs["RepeatElement"]["properties"]["elements"]["items"]["oneOf"]
    }
    assert "GridElement" in held and "RepeatElement" not in held  # a repeat holds any kind but itself
    sides = defs["SideBy"]["properties"]["faces"]["additionalProperties"]["oneOf"]
    assert {"const": "none", "type": "string"} in sides


def test_the_complete_example_in_docs_elements_builds_clean_and_draws_what_the_picture_shows(
    tmp_path: Path,
) -> None:
    import re

    docs = Path(__file__).resolve().parents[1] / "docs" / "elements.md"
    blocks = re.findall(r"```yaml spec\n(game:.*?)```", docs.read_text(encoding="utf-8"), re.DOTALL)
    assert len(blocks) == 1
    spec = tmp_path / "demo"
    spec.mkdir()
    (spec / "game.yaml").write_text(blocks[0], encoding="utf-8")
    result = CliRunner().invoke(main, ["build", str(spec), "-o", str(tmp_path / "out"), "--strict"])
    assert result.exit_code == 0, result.output
    doc = pdfium.PdfDocument(str(tmp_path / "out" / "elements-demo.pdf"))
    words = str(doc[1].get_textpage().get_text_range()).split()
    assert words[:51] == [str(n) for n in range(51)]  # the track
    assert words[51:75] == [str(n) for n in range(1, 25)]  # the grid


def test_a_field_a_repeated_element_names_is_checked_at_its_line(
    make_spec: SpecMaker, tmp_path: Path
) -> None:
    spec = make_spec(
        """\
        game: {id: typo, title: Typo, players: [1, 2], designer: t}
        components:
          - name: cards
            kind: card
            size: poker
            rows: [{vp: 3}, {vp: 1}]
            face:
              elements:
                - type: repeat
                  count: 3
                  w: 10mm
                  h: 10mm
                  elements:
                    - {type: text, text: "{index}{vpp}"}
        """
    )
    result = CliRunner().invoke(main, ["build", str(spec), "-o", str(tmp_path / "out")])
    assert result.exit_code == 2
    assert f"{spec / 'game.yaml'}:14:" in result.output and "did you mean vp?" in result.output
    assert "index" not in result.output.split("fields:")[1]  # {index} is the copy's own, never asked of a row
    fixed = make_spec((spec / "game.yaml").read_text(encoding="utf-8").replace("{vpp}", "/{vp}"), "fixed")
    assert "warning" not in _build(fixed, tmp_path / "fixed").stderr


def test_a_repeats_work_is_bounded_before_drawing() -> None:
    grid = {"type": "grid", "columns": 60, "rows": 60}
    with pytest.raises(ValueError, match="1000 copies of 3601 shapes each is over 20000"):
        _face([{"type": "repeat", "count": 1000, "elements": [grid, {"type": "rect"}]}])
    with pytest.raises(ValueError, match="less than or equal to 60"):
        _face([{**grid, "columns": 61}])
