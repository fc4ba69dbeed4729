"""Drawing one side of one piece: outlines, elements, templating checks, both canvases, real PDFs."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pypdf
import pypdfium2 as pdfium
import pytest
from conftest import require_cjk
from PIL import Image
from reportlab.pdfgen.canvas import Canvas as RLCanvas

from pnpforge.components.load import RowRef
from pnpforge.components.model import Component
from pnpforge.errors import InputError
from pnpforge.fonts import FontRegistry
from pnpforge.generator.pieces import Piece
from pnpforge.generator.sizes import piece_size
from pnpforge.geometry.hexgrid import spiral
from pnpforge.layouts.faces.context import RenderContext
from pnpforge.layouts.faces.render import check_side, draw_side, side_is_shared
from pnpforge.layouts.faces.values import parse_colour
from pnpforge.layouts.imposition.placement import bounds
from pnpforge.layouts.shapes import bleed_outline, trim_outline
from pnpforge.output.pdf_canvas import PdfCanvas
from pnpforge.output.svg_canvas import SvgCanvas
from pnpforge.units import mm, to_mm

ANKH = Path(__file__).resolve().parents[1] / "src" / "pnpforge" / "games" / "ankh"
MARGIN = mm(10)


@pytest.fixture(scope="module")
def fonts() -> FontRegistry:
    return FontRegistry()


def component(**spec: Any) -> Component:
    return Component.model_validate({"name": "c", "kind": "card", "size": "poker", **spec})


def piece(
    comp: Component, row: dict[str, Any] | None = None, cells: tuple[tuple[int, int], ...] = ()
) -> Piece:
    w, h = piece_size(comp, cells, row=row)
    return Piece(comp, row or {}, RowRef("cards.csv", 7), 0, w, h, cells)


def render_pdf(path: Path, pieces: list[Piece], ctx: RenderContext, side: str = "face") -> None:
    """Each piece on its own row, MARGIN from the page's top-left corner."""
    width = max(p.width for p in pieces) + 2 * MARGIN
    height = sum(p.height + MARGIN for p in pieces) + MARGIN
    rl = RLCanvas(str(path), pagesize=(width, height), invariant=1)
    canvas = PdfCanvas(rl, height)
    y = MARGIN
    for p in pieces:
        canvas.save()
        canvas.translate(MARGIN, y)
        draw_side(canvas, p, side, ctx)  # type: ignore[arg-type]
        canvas.restore()
        y += p.height + MARGIN
    rl.save()


def ctx_for(fonts: FontRegistry, folder: Path, **kw: Any) -> RenderContext:
    return RenderContext(kw.pop("lang", "en"), folder, kw.pop("bleed", 0.0), fonts, kw.pop("allow", False))


# outlines ----------------------------------------------------------------------------------------
def test_piece_sizes() -> None:
    assert [round(to_mm(v), 6) for v in piece_size(component())] == [63, 88]
    assert [round(to_mm(v), 6) for v in piece_size(component(size="70x120mm"))] == [70, 120]
    hex_tile = Component(name="h", kind="tile", size="30mm")
    assert [round(to_mm(v), 3) for v in piece_size(hex_tile)] == [30, 34.641]
    flat = Component(name="h", kind="tile", size="30mm", orientation="flat")
    assert [round(to_mm(v), 3) for v in piece_size(flat)] == [34.641, 30]
    token = Component(name="t", kind="token", size="20mm")
    assert [round(to_mm(v), 6) for v in piece_size(token)] == [20, 20]
    die = Component(name="d", kind="die", size="16mm")
    assert [round(to_mm(v), 6) for v in piece_size(die)] == [16, 16]
    templated = Component(name="t", kind="token", size="{size}")
    assert round(to_mm(piece_size(templated, row={"size": "25mm"})[0]), 6) == 25
    with pytest.raises(ValueError):
        piece_size(templated, row={"size": "huge"})


def test_polyhex_flower_is_one_polygon_with_18_corners() -> None:
    tile = Component(
        name="t", kind="tile", shape="polyhex", size="20mm", cells={"data": "x.yaml", "list": "t"}
    )
    flower = tuple(spiral((0, 0), 1))
    p = piece(tile, cells=flower)
    assert round(to_mm(p.width), 3) == 60.0  # three hexes across, flat to flat
    outline = trim_outline(p)
    assert len(outline) == 18
    minx, miny, maxx, maxy = bounds(outline)
    assert (minx, miny) == pytest.approx((0, 0), abs=1e-3)
    assert (maxx, maxy) == pytest.approx((p.width, p.height), abs=1e-3)
    grown = bleed_outline(p, mm(3))
    assert len(grown) == 18  # mitred: corners stay corners
    gx0, _, gx1, _ = bounds(grown)
    assert to_mm(gx1 - gx0) == pytest.approx(66.0, abs=1e-3)  # 3 mm further out on each flat side


def test_split_polyhex_is_reported(fonts: FontRegistry, tmp_path: Path) -> None:
    tile = Component(
        name="t", kind="tile", shape="polyhex", size="20mm", cells={"data": "x.yaml", "list": "t"}
    )
    p = piece(tile, cells=((0, 0), (1, 0)))
    p = Piece(tile, {}, RowRef("tiles.yaml", 4), 0, p.width, p.height, ((0, 0), (3, 0)))
    problems = check_side(p, "face", ctx_for(fonts, tmp_path))
    assert problems and problems[0].line == 4 and "connected" in problems[0].message


def test_outlines_for_each_shape() -> None:
    card = piece(component(corner="3mm"))
    rounded = trim_outline(card)
    assert len(rounded) > 4 and bounds(rounded) == pytest.approx((0, 0, card.width, card.height))
    assert bounds(bleed_outline(card, mm(3))) == pytest.approx(
        (-mm(3), -mm(3), card.width + mm(3), card.height + mm(3))
    )
    token = piece(Component(name="t", kind="token", size="20mm"))
    ring = bleed_outline(token, mm(2))
    assert bounds(ring) == pytest.approx((-mm(2), -mm(2), mm(22), mm(22)), abs=1e-6)
    hex_piece = piece(Component(name="h", kind="tile", size="30mm"))
    assert len(trim_outline(hex_piece)) == 6
    board = piece(Component(name="b", kind="board", size="300x200mm"))
    assert len(trim_outline(board)) == 4  # boards keep square corners


# drawing into real PDFs --------------------------------------------------------------------------
def test_red_rect_renders_red_at_the_right_place(fonts: FontRegistry, tmp_path: Path) -> None:
    comp = component(
        face={
            "elements": [{"type": "rect", "x": "10mm", "y": "20mm", "w": "30mm", "h": "15mm", "fill": "red"}]
        }
    )
    out = tmp_path / "red.pdf"
    render_pdf(out, [piece(comp)], ctx_for(fonts, tmp_path))
    scale = 72 / 25.4 / 72 * 25.4 * 4  # 4 px per point
    image = pdfium.PdfDocument(str(out))[0].render(scale=scale).to_pil().convert("RGB")

    def px(x_mm: float, y_mm: float) -> tuple[int, int, int]:
        return image.getpixel((int((MARGIN + mm(x_mm)) * scale), int((MARGIN + mm(y_mm)) * scale)))

    assert px(25, 27.5) == (255, 0, 0)  # the middle of the rect
    assert px(10.3, 20.3) == (255, 0, 0) and px(39.7, 34.7) == (255, 0, 0)  # just inside its corners
    assert px(9.7, 27.5) == (255, 255, 255) and px(40.3, 27.5) == (255, 255, 255)  # just outside
    assert px(25, 19.7) == (255, 255, 255) and px(25, 35.3) == (255, 255, 255)


SQUARE_SVG = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="50" viewBox="0 0 100 50">'
    '<rect x="0" y="0" width="50" height="50" fill="#0000ff"/></svg>'
)


def test_svg_art_is_drawn_as_vectors_in_its_box(fonts: FontRegistry, tmp_path: Path) -> None:
    (tmp_path / "art.svg").write_text(SQUARE_SVG, encoding="utf-8")
    box = {"x": "10mm", "y": "20mm", "w": "40mm", "h": "20mm", "fit": "stretch"}
    comp = component(face={"elements": [{"type": "image", "src": "art.svg", **box}]})
    assert check_side(piece(comp), "face", ctx_for(fonts, tmp_path)) == []
    out = tmp_path / "svg.pdf"
    render_pdf(out, [piece(comp)], ctx_for(fonts, tmp_path))
    assert not pypdf.PdfReader(str(out)).pages[0]["/Resources"].get("/XObject")  # no bitmap: vectors
    scale = 4.0
    image = pdfium.PdfDocument(str(out))[0].render(scale=scale).to_pil().convert("RGB")

    def px(x_mm: float, y_mm: float) -> tuple[int, int, int]:
        return image.getpixel((int((MARGIN + mm(x_mm)) * scale), int((MARGIN + mm(y_mm)) * scale)))

    assert px(20, 30) == (0, 0, 255)  # the SVG's left half (blue) fills the box's left half
    assert px(10.5, 20.5) == (0, 0, 255) and px(29.5, 39.5) == (0, 0, 255)
    assert px(40, 30) == (255, 255, 255)  # its right half is empty
    assert px(20, 19.5) == (255, 255, 255) and px(20, 40.5) == (255, 255, 255)  # nothing outside the box
    canvas = SvgCanvas(500, 500)
    draw_side(canvas, piece(comp), "face", ctx_for(fonts, tmp_path))
    assert "data:image/svg+xml;base64," in canvas.dwg.tostring()


def test_japanese_face_embeds_a_truetype_subset(fonts: FontRegistry, tmp_path: Path) -> None:
    require_cjk()
    comp = component(
        face={"elements": [{"type": "text", "text": {"en": "{name}", "ja": "{name}"}, "size": "14pt"}]}
    )
    p = piece(comp, {"name_en": "Temple", "name_ja": "神殿は聖なる場所"})
    out = tmp_path / "ja.pdf"
    render_pdf(out, [p], ctx_for(fonts, tmp_path, lang="ja"))
    reader = pypdf.PdfReader(str(out))
    assert "神殿は聖なる場所" in reader.pages[0].extract_text().replace("\n", "")
    fonts_used = reader.pages[0]["/Resources"]["/Font"]
    embedded = []
    for ref in fonts_used.values():
        font = ref.get_object()
        for descendant in font.get("/DescendantFonts", [font]):
            descriptor = descendant.get_object().get("/FontDescriptor")
            if descriptor is not None and "/FontFile2" in descriptor.get_object():
                embedded.append(str(font["/BaseFont"]))
    assert embedded and all(re.fullmatch(r"/?[A-Z]{6}\+\S+", name) for name in embedded)


def test_shrink_to_fit_text_stays_inside_its_box(fonts: FontRegistry, tmp_path: Path) -> None:
    require_cjk()
    text = "Gain two crystals, then move any wilderness tile. 神殿の隣に置くこと。" * 2
    box = {"x": "5mm", "y": "30mm", "w": "40mm", "h": "20mm"}
    comp = component(face={"elements": [{"type": "text", "text": text, "size": "24pt", **box}]})
    out = tmp_path / "shrink.pdf"
    render_pdf(out, [piece(comp)], ctx_for(fonts, tmp_path))
    page = pdfium.PdfDocument(str(out))[0]
    page_height = page.get_height()
    textpage = page.get_textpage()
    assert textpage.count_chars() > 60
    left, top = MARGIN + mm(5), MARGIN + mm(30)
    for index in range(textpage.count_chars()):
        x0, y0, x1, y1 = textpage.get_charbox(index)
        if x1 - x0 <= 0:  # spaces have empty boxes
            continue
        assert left - 0.5 <= x0 and x1 <= left + mm(40) + 0.5
        assert top - 0.5 <= page_height - y1 and page_height - y0 <= top + mm(20) + 0.5


def test_shared_back_is_stored_once(fonts: FontRegistry, tmp_path: Path) -> None:
    comp = component(
        back={"background": "navy", "elements": [{"type": "icon", "name": "temple", "fill": "white"}]}
    )
    assert side_is_shared(comp, "back")
    out = tmp_path / "backs.pdf"
    rl = RLCanvas(str(out), pagesize=(mm(210), mm(297)), invariant=1)
    canvas = PdfCanvas(rl, mm(297))
    p = piece(comp)
    for index in range(3):
        canvas.save()
        canvas.translate(MARGIN + index * mm(66), MARGIN)
        if canvas.begin_reuse("back:c"):
            draw_side(canvas, p, "back", ctx_for(fonts, tmp_path))
            canvas.end_reuse()
        canvas.reuse("back:c")
        canvas.restore()
    rl.save()
    page = pypdf.PdfReader(str(out)).pages[0]
    assert len(page["/Resources"]["/XObject"]) == 1
    assert page.get_contents().get_data().count(b" Do") == 3
    image = pdfium.PdfDocument(str(out))[0].render(scale=1).to_pil().convert("RGB")
    for index in range(3):  # each copy shows navy at its top-left corner
        assert image.getpixel((int(MARGIN + index * mm(66) + 12), int(MARGIN + 12))) == (0, 0, 128)


def test_pdf_is_deterministic(fonts: FontRegistry, tmp_path: Path) -> None:
    comp = component(face={"pattern": "dots", "elements": [{"type": "text", "text": "{name}"}]})
    p = piece(comp, {"name": "Temple 神殿"})
    render_pdf(tmp_path / "a.pdf", [p], ctx_for(fonts, tmp_path))
    render_pdf(tmp_path / "b.pdf", [p], ctx_for(fonts, tmp_path))
    assert (tmp_path / "a.pdf").read_bytes() == (tmp_path / "b.pdf").read_bytes()


def test_patterns_mark_the_shape(fonts: FontRegistry, tmp_path: Path) -> None:
    box = {"x": "5mm", "y": "5mm", "w": "40mm", "h": "40mm", "fill": "white"}
    for name in ("stripes", "dots", "crosshatch", "waves"):
        comp = component(face={"elements": [{"type": "rect", "pattern": name, **box}]})
        out = tmp_path / f"{name}.pdf"
        render_pdf(out, [piece(comp)], ctx_for(fonts, tmp_path))
        image = pdfium.PdfDocument(str(out))[0].render(scale=2).to_pil().convert("L")
        inside = image.crop(
            (
                int((MARGIN + mm(6)) * 2),
                int((MARGIN + mm(6)) * 2),
                int((MARGIN + mm(44)) * 2),
                int((MARGIN + mm(44)) * 2),
            )
        )
        dark = sum(inside.histogram()[:200]) / (inside.width * inside.height)
        assert 0.05 < dark < 0.7, f"{name}: {dark:.2f} of the shape inked"
        outside = image.getpixel((int((MARGIN + mm(50)) * 2), int((MARGIN + mm(25)) * 2)))
        assert outside == 255, f"{name} pattern leaks outside the shape"


def test_image_contain_and_outside_folder(fonts: FontRegistry, tmp_path: Path) -> None:
    spec = tmp_path / "spec"
    spec.mkdir()
    Image.new("RGB", (20, 10), (0, 0, 255)).save(spec / "blue.png")
    Image.new("RGB", (10, 10), (0, 255, 0)).save(tmp_path / "outside.png")
    comp = component(
        face={"elements": [{"type": "image", "src": "{art}", "x": "0", "y": "0", "w": "40mm", "h": "40mm"}]}
    )
    good = piece(comp, {"art": "blue.png"})
    out = tmp_path / "img.pdf"
    render_pdf(out, [good], ctx_for(fonts, spec))
    image = pdfium.PdfDocument(str(out))[0].render(scale=2).to_pil().convert("RGB")
    assert image.getpixel((int((MARGIN + mm(20)) * 2), int((MARGIN + mm(20)) * 2))) == (0, 0, 255)
    assert image.getpixel((int((MARGIN + mm(20)) * 2), int((MARGIN + mm(5)) * 2))) == (
        255,
        255,
        255,
    )  # contain
    outside = piece(comp, {"art": "../outside.png"})
    assert "outside the spec folder" in check_side(outside, "face", ctx_for(fonts, spec))[0].message
    assert check_side(outside, "face", ctx_for(fonts, spec, allow=True)) == []


# checks before drawing ---------------------------------------------------------------------------
def test_check_side_reports_unknown_field_at_the_csv_line(fonts: FontRegistry, tmp_path: Path) -> None:
    comp = component(face={"elements": [{"type": "text", "text": "{nmae}"}]})
    p = piece(comp, {"name": "Temple", "cost": "3"})
    problems = check_side(p, "face", ctx_for(fonts, tmp_path))
    assert len(problems) == 1
    assert str(problems[0]).startswith("cards.csv:7:")
    assert "'nmae'" in problems[0].message and "cost, name" in problems[0].message
    with pytest.raises(InputError) as info:
        draw_side(SvgCanvas(500, 500), p, "face", ctx_for(fonts, tmp_path))
    assert info.value.problems == problems


@pytest.mark.parametrize(
    ("element", "row", "expected"),
    [
        ({"type": "rect", "fill": "{colour}"}, {"colour": "blu"}, "not a colour"),
        ({"type": "rect", "w": "{w}"}, {"w": "wide"}, "not a length"),
        ({"type": "icon", "name": "{icon}"}, {"icon": "tempel"}, "unknown icon 'tempel'"),
        ({"type": "image", "src": "{art}"}, {"art": "missing.png"}, "not found"),
        ({"type": "image", "src": "{art}"}, {"art": "logo.gif"}, "not a PNG, JPEG or SVG file"),
        ({"type": "rect", "pattern": "{p}"}, {"p": "zigzag"}, "unknown pattern"),
        ({"type": "text", "text": "x", "font": "{f}"}, {"f": "fancy"}, "unknown font"),
        ({"type": "hexgrid", "cols": 2, "rows": 2, "cells": [{"at": [5, 0]}]}, {}, "outside the 2x2 grid"),
    ],
)
def test_check_side_finds_bad_values(
    fonts: FontRegistry, tmp_path: Path, element: dict[str, Any], row: dict[str, str], expected: str
) -> None:
    comp = component(face={"elements": [{"type": "text", "text": "fine"}, element]})
    problems = check_side(piece(comp, row), "face", ctx_for(fonts, tmp_path))
    assert len(problems) == 1
    assert problems[0].file == "cards.csv" and problems[0].line == 7
    assert f"element 2 ({element['type']})" in problems[0].message and expected in problems[0].message


def test_check_side_collects_every_problem_and_checks_backgrounds(
    fonts: FontRegistry, tmp_path: Path
) -> None:
    comp = component(
        face={"elements": [{"type": "icon", "name": "{a}"}, {"type": "icon", "name": "{b}"}]},
        back={"background": "{colour}"},
    )
    p = piece(comp, {"colour": "mauvish"})
    assert len(check_side(p, "face", ctx_for(fonts, tmp_path))) == 2
    assert "not a colour" in check_side(p, "back", ctx_for(fonts, tmp_path))[0].message


def test_shared_sides() -> None:
    static = component(
        face={"elements": [{"type": "text", "text": "{name}"}]},
        back={"elements": [{"type": "icon", "name": "star"}]},
    )
    assert not side_is_shared(static, "face") and side_is_shared(static, "back")
    polyhex = Component(
        name="t", kind="tile", shape="polyhex", size="20mm", cells={"data": "x.yaml", "list": "t"}, back={}
    )
    assert not side_is_shared(polyhex, "back")


# element behaviour on a recording canvas ---------------------------------------------------------
class Recorder(SvgCanvas):
    """An SVG canvas that also counts what was drawn."""

    def __init__(self) -> None:
        super().__init__(1000, 1000)
        self.calls: list[tuple[str, tuple[Any, ...]]] = []

    def polygon(self, points, fill, stroke, width=0.5, closed=True, dash=None):  # type: ignore[no-untyped-def]
        self.calls.append(("polygon", (len(points), fill, stroke, closed)))
        super().polygon(points, fill, stroke, width, closed, dash)

    def text(self, x, baseline, text, font, size, colour):  # type: ignore[no-untyped-def]
        self.calls.append(("text", (text, font)))
        super().text(x, baseline, text, font, size, colour)


def test_when_skips_empty_zero_and_false(fonts: FontRegistry, tmp_path: Path) -> None:
    comp = component(
        face={"background": "none", "elements": [{"type": "text", "text": "VP", "when": "{vp}"}]}
    )
    for value, drawn in (("", False), ("0", False), ("false", False), ("2", True)):
        canvas = Recorder()
        draw_side(canvas, piece(comp, {"vp": value}), "face", ctx_for(fonts, tmp_path))
        assert any(call[0] == "text" for call in canvas.calls) is drawn, value


def test_hexgrid_draws_every_cell(fonts: FontRegistry, tmp_path: Path) -> None:
    grid = {
        "type": "hexgrid",
        "cols": 11,
        "rows": 7,
        "cells": [{"at": [0, 3], "icon": "hut", "fill": "#ccc"}],
    }
    comp = component(size="200x150mm", face={"background": "none", "elements": [grid]})
    canvas = Recorder()
    draw_side(canvas, piece(comp), "face", ctx_for(fonts, tmp_path))
    outlines = [c for c in canvas.calls if c[0] == "polygon" and c[1][0] == 6 and c[1][2] is not None]
    assert len(outlines) == 77
    filled = [c for c in canvas.calls if c[0] == "polygon" and c[1][0] == 6 and c[1][1] is not None]
    assert [c[1][1] for c in filled] == [parse_colour("#ccc")]


def test_ankh_hexmap_with_river(fonts: FontRegistry) -> None:
    board = {
        "type": "hexmap",
        "source": {"data": "map.yaml", "list": "cells", "cells": ""},
        "hex": "fit",
        "edges": "river.edges",
        "icons": {"water": "wave"},
    }
    comp = Component(name="map", kind="board", size="400x400mm", face={"elements": [board]})
    p = piece(comp)
    ctx = ctx_for(fonts, ANKH)
    assert check_side(p, "face", ctx) == []
    canvas = Recorder()
    draw_side(canvas, p, "face", ctx)
    cells = [c for c in canvas.calls if c[0] == "polygon" and c[1][0] == 6 and c[1][1] is not None]
    assert len(cells) == 101
    assert {c[1][1] for c in cells} >= {
        parse_colour("#8ec9ec"),
        parse_colour("#8cc46c"),
        parse_colour("#ecd68e"),
    }
    river = [
        c for c in canvas.calls if c[0] == "polygon" and c[1][0] == 2 and c[1][2] == parse_colour("#1f5fbf")
    ]
    assert len(river) == 31


def test_hexmap_data_problems_point_into_the_data_file(fonts: FontRegistry, tmp_path: Path) -> None:
    (tmp_path / "map.yaml").write_text("cells:\n  - {at: [0, 0]}\n  - {at: [1]}\n", encoding="utf-8")
    element = {"type": "hexmap", "source": {"data": "map.yaml", "list": "cells", "cells": ""}}
    comp = Component(name="map", kind="board", size="100x100mm", face={"elements": [element]})
    problems = check_side(piece(comp), "face", ctx_for(fonts, tmp_path))
    assert [(Path(p.file).name, p.line) for p in problems] == [("map.yaml", 3)]
    assert "at: [q, r]" in problems[0].message


# the SVG canvas ----------------------------------------------------------------------------------
def test_svg_face_is_valid_and_deterministic(fonts: FontRegistry, tmp_path: Path) -> None:
    comp = component(
        face={
            "background": "#ffeecc",
            "elements": [
                {"type": "rect", "x": "10%", "y": "10%", "w": "80%", "h": "20%", "fill": "red", "rotate": 10},
                {"type": "text", "text": "{name}", "y": "40%", "h": "20%"},
            ],
        }
    )
    p = piece(comp, {"name": "神殿 Temple"})

    def render() -> str:
        canvas = SvgCanvas(mm(100), mm(120), fonts)
        canvas.translate(MARGIN, MARGIN)
        draw_side(canvas, p, "face", ctx_for(fonts, tmp_path, bleed=mm(3)))
        return canvas.tostring()

    first = render()
    assert first == render()
    root = ET.fromstring(first)
    assert root.get("width") == "100.0mm"
    ids = [el.get("id") for el in root.iter() if el.get("id")]
    assert len(ids) == len(set(ids))
    texts = "".join(el.text or "" for el in root.iter() if el.tag.endswith("text"))
    assert "神殿" in texts and "Temple" in texts
    assert any("rotate(10" in (el.get("transform") or "") for el in root.iter())
