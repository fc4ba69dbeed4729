"""Engine features the bundled games needed: hexmap marks, fills, labels, dots and badges; data rows from a
YAML list with lookups; localised, coloured die faces; fixed values reported once at game.yaml.

Faces are drawn into real PDFs and measured with pypdfium2 (pixels) and pypdf (text); specs go through the
real CLI.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from conftest import SpecMaker, render_page, require_cjk
from pypdf import PdfReader
from reportlab.pdfgen.canvas import Canvas as RLCanvas

from pnpforge.cli import main
from pnpforge.components.load import RowRef, load_spec
from pnpforge.components.model import Component
from pnpforge.fonts import FontRegistry, find_cjk_font
from pnpforge.generator.pieces import Piece
from pnpforge.generator.sizes import piece_size
from pnpforge.layouts.faces.context import RenderContext
from pnpforge.layouts.faces.render import check_side, draw_side, side_is_shared
from pnpforge.output.pdf_canvas import PdfCanvas

DPI = 100
R = 20 / 3**0.5  # circumradius (mm) of a 20 mm hex
ROW = "cells: [{at: [0, 0]}, {at: [1, 0], kind: sea}, {at: [2, 0]}]\nstart: [{at: [2, 0], player: 1}]\n"


@pytest.fixture(scope="module")
def fonts() -> FontRegistry:
    return FontRegistry()


def hexmap(**keys: Any) -> dict[str, Any]:
    return {
        "type": "hexmap",
        "source": {"data": "map.yaml", "list": "cells", "cells": ""},
        "hex": "20mm",
        **keys,
    }


def map_piece(element: dict[str, Any], row: dict[str, Any] | None = None) -> Piece:
    """A 100 × 60 mm board; its hexmap of cells [0, 0], [1, 0], [2, 0] puts them at x = 30, 50, 70, y = 30."""
    comp = Component.model_validate(
        {
            "name": "map",
            "kind": "board",
            "size": "100x60mm",
            "face": {"background": "white", "elements": [element]},
        }
    )
    width, height = piece_size(comp)
    return Piece(comp, row or {}, RowRef("rows.csv", 3), 0, width, height)


def draw(tmp_path: Path, fonts: FontRegistry, piece: Piece, data: str = ROW, lang: str = "en") -> Path:
    (tmp_path / "map.yaml").write_text(data, encoding="utf-8")
    pdf = tmp_path / f"map-{lang}.pdf"
    rl = RLCanvas(str(pdf), pagesize=(piece.width, piece.height), invariant=1)
    draw_side(PdfCanvas(rl, piece.height), piece, "face", RenderContext(lang, tmp_path, 0.0, fonts))
    rl.save()
    return pdf


def pixel(image: Any, x_mm: float, y_mm: float) -> tuple[int, int, int]:
    return image.getpixel((round(x_mm * DPI / 25.4), round(y_mm * DPI / 25.4)))


def near(colour: tuple[int, int, int], hex_colour: str, tolerance: int = 12) -> bool:
    want = [int(hex_colour[i : i + 2], 16) for i in (1, 3, 5)]
    return all(abs(a - b) <= tolerance for a, b in zip(colour, want, strict=True))


def text_of(pdf: Path) -> str:
    return "".join(PdfReader(pdf).pages[0].extract_text().split())


# hexmap ------------------------------------------------------------------------------------------
def test_default_fill_and_marks_from_another_list(fonts: FontRegistry, tmp_path: Path) -> None:
    mark = {"list": "start", "icon": "hut", "fill": "#ff0000", "colour": "#0000ff"}
    image = render_page(draw(tmp_path, fonts, map_piece(hexmap(default_fill="white", marks=[mark]))), 0, DPI)
    assert near(pixel(image, 30, 30), "#ffffff")  # no palette entry: the default fill, white
    assert near(pixel(image, 50, 30), "#8ec9ec")  # `kind: sea` still takes its palette colour
    assert near(pixel(image, 70 - R * 0.6, 30), "#ff0000")  # the start cell takes the mark's fill...
    assert near(pixel(image, 70, 30), "#0000ff", 40)  # ...and its icon, in the mark's colour
    plain = render_page(draw(tmp_path, fonts, map_piece(hexmap())), 0, DPI)
    assert near(pixel(plain, 30, 30), "#e4e4e4") and near(pixel(plain, 70 - R * 0.6, 30), "#e4e4e4")


def test_mark_problems(fonts: FontRegistry, tmp_path: Path) -> None:
    (tmp_path / "map.yaml").write_text(ROW, encoding="utf-8")
    ctx = RenderContext("en", tmp_path, 0.0, fonts)
    bad_icon = check_side(map_piece(hexmap(marks=[{"list": "start", "icon": "hutt"}])), "face", ctx)
    assert len(bad_icon) == 1 and "unknown icon 'hutt'" in bad_icon[0].message
    no_list = check_side(map_piece(hexmap(marks=[{"list": "starts", "icon": "hut"}])), "face", ctx)
    assert [(Path(p.file).name, "'starts'" in p.message) for p in no_list] == [("map.yaml", True)]
    none_matched = check_side(
        map_piece(hexmap(marks=[{"list": "start", "match": {"player": "2"}}])), "face", ctx
    )
    assert none_matched == []  # a mark that picks nothing draws nothing


def test_icon_size_and_colour(fonts: FontRegistry, tmp_path: Path) -> None:
    data = "cells:\n  - {at: [0, 0], kind: temple}\n"
    widths = []
    for size in ("30%", "80%"):
        element = hexmap(
            icons={"temple": "square"}, icon_size=size, icon_colour="#ff0000", default_fill="white"
        )
        image = render_page(draw(tmp_path, fonts, map_piece(element), data), 0, DPI)
        assert near(pixel(image, 50, 30), "#ff0000")
        red = [
            x
            for x in range(image.size[0])
            if near(image.getpixel((x, round(30 * DPI / 25.4))), "#ff0000", 40)
        ]
        widths.append((max(red) - min(red) + 1) * 25.4 / DPI)
    assert widths[1] / widths[0] == pytest.approx(80 / 30, rel=0.1)  # a percentage of the hex's width
    assert widths[1] <= 20 * 0.8 + 0.5


def test_labels_by_field_list_template_and_map(fonts: FontRegistry, tmp_path: Path) -> None:
    data = "cells: [{at: [0, 0], colour: red}, {at: [1, 0], explore: blue}, {at: [2, 0], kind: temple}]\n"
    names = {"red": {"en": "R", "ja": "赤"}, "blue": {"en": "B", "ja": "青"}}
    by_field = text_of(draw(tmp_path, fonts, map_piece(hexmap(label_by="colour", label_map=names)), data))
    assert by_field == "R"  # only the cell that has the field
    first = text_of(
        draw(tmp_path, fonts, map_piece(hexmap(label_by=["colour", "explore"], label_map=names)), data)
    )
    assert first == "RB"
    template = hexmap(label_by="<{kind}>", label_at="top")
    piece = map_piece(template, {"id": "no kind here"})  # filled from each cell, never from the row
    assert not check_side(piece, "face", RenderContext("en", tmp_path, 0.0, fonts))
    assert side_is_shared(piece.component, "face")
    assert text_of(draw(tmp_path, fonts, piece, data)) == "<temple>"


def test_labels_follow_the_language(fonts: FontRegistry, tmp_path: Path) -> None:
    require_cjk()
    data = "cells:\n  - {at: [0, 0], colour: red}\n"
    element = hexmap(label_by="colour", label_map={"red": {"en": "R", "ja": "赤"}})
    assert text_of(draw(tmp_path, fonts, map_piece(element), data, lang="ja")) == "赤"


def test_list_fields_are_dots_toward_their_sides(fonts: FontRegistry, tmp_path: Path) -> None:
    data = (
        "cells:\n"
        "  - {at: [1, 0], kind: statue, pedestals: [{side: 0, colour: '#00ff00'}, {side: 3, colour: blue}]}\n"
        "  - {at: [0, 0], marks: ['#ff0000', '#ff00ff']}\n"
        "  - {at: [2, 0]}\n"
    )
    element = hexmap(dots_by=["pedestals", "marks"], default_fill="white", label_map={"#00ff00": "G"})
    pdf = draw(tmp_path, fonts, map_piece(element), data)
    image = render_page(pdf, 0, DPI)
    assert near(pixel(image, 50 + R * 0.62, 30 - 0.6), "#00ff00", 30)  # side 0: east of the centre
    assert near(pixel(image, 50 - R * 0.62, 30), "#5d8fdc", 30)  # side 3: west, `blue` from the palette
    step = R * 0.19 * 2.3  # dots without a side: a row across the top of the cell
    assert near(pixel(image, 30 - step / 2, 30 - R * 0.55), "#ff0000", 30)
    assert near(pixel(image, 30 + step / 2, 30 - R * 0.55), "#ff00ff", 30)
    assert text_of(pdf) == "G"  # a dot's value in label_map is written on it


@pytest.mark.parametrize(
    ("cell", "expected"),
    [
        ("{at: [0, 0], pedestals: red}", "is not a list"),
        ("{at: [0, 0], pedestals: [{side: 7, colour: red}]}", "side 7"),
        ("{at: [0, 0], pedestals: [mauvish]}", "not a colour"),
        ("{at: [0, 0], monsters: two}", "'two' is not a whole number"),
    ],
)
def test_dot_and_badge_problems(fonts: FontRegistry, tmp_path: Path, cell: str, expected: str) -> None:
    (tmp_path / "map.yaml").write_text(f"cells:\n  - {cell}\n", encoding="utf-8")
    element = hexmap(dots_by=["pedestals"], badges={"monsters": 2})
    problems = check_side(map_piece(element), "face", RenderContext("en", tmp_path, 0.0, fonts))
    assert len(problems) == 1 and expected in problems[0].message and "[0, 0]" in problems[0].message


def test_number_badges_from_a_threshold(fonts: FontRegistry, tmp_path: Path) -> None:
    data = "cells: [{at: [0, 0], monsters: 1}, {at: [1, 0], monsters: 2}, {at: [2, 0], monsters: 3}]\n"
    pdf = draw(tmp_path, fonts, map_piece(hexmap(badges={"monsters": 2})), data)
    assert text_of(pdf) == "23"
    image = render_page(pdf, 0, DPI)
    assert near(pixel(image, 50 + R * 0.5 - R * 0.15, 30 - R * 0.5), "#ffffff", 20)  # the white disc
    assert not near(pixel(image, 30 + R * 0.5 - R * 0.15, 30 - R * 0.5), "#ffffff", 20)  # 1 < 2: none


# rows from a YAML list --------------------------------------------------------------------------
AREAS = """\
terrains:
  plains: {colour: green, en: Plains, ja: 平地}
  sea: {colour: blue, en: Sea, ja: 海}
tiles:
  - {id: t1, numbers: [1, 2], spaces: [plains, sea], name: {en: First, ja: 一}}
  - {id: t2, numbers: [3, 4], spaces: [sea, sea], name: {en: Second, ja: 二}, count: 2}
  - {id: x9, numbers: [5, 5], spaces: [sea, plains], name: {en: Other, ja: 他}, kind: spare}
"""
TILE_SPEC = """\
game: {id: rf, title: Rows from}
components:
  - name: tiles
    kind: card
    size: 60x40mm
    rows_from: {data: areas.yaml, list: tiles%s}
    lookup:
      - {fields: ["spaces_*"], data: areas.yaml, map: terrains}
      - fields: [spaces_0]
        table: {plains: {fill: "#00ff00"}, sea: {fill: "#0000ff"}}
    face:
      background: "{spaces_0_fill}"
      elements:
        - {type: text, text: "{name} {numbers_0}-{numbers_1} {spaces_0}/{spaces_1} %s", size: 8pt}
"""


def test_rows_from_a_yaml_list(make_spec: SpecMaker) -> None:
    folder = make_spec(TILE_SPEC % ("", "{spaces_1_colour}"), areas__yaml=AREAS)
    loaded = load_spec(folder)
    rows = loaded.rows["tiles"]
    assert [(Path(r.ref.file).name, r.ref.line, r.count) for r in rows] == [
        ("areas.yaml", 5, 1),
        ("areas.yaml", 6, 2),
        ("areas.yaml", 7, 1),
    ]
    first = rows[0].values
    assert {
        k: first[k] for k in ("id", "numbers_0", "numbers_1", "spaces_0", "spaces_1", "name_en", "name_ja")
    } == {
        "id": "t1",
        "numbers_0": 1,
        "numbers_1": 2,
        "spaces_0": "plains",
        "spaces_1": "sea",
        "name_en": "First",
        "name_ja": "一",
    }
    assert (first["spaces_0_en"], first["spaces_1_colour"], first["spaces_0_fill"]) == (
        "Plains",
        "blue",
        "#00ff00",
    )
    assert "spaces_1_fill" not in first  # the second lookup names spaces_0 only


def test_rows_from_print_in_both_languages(make_spec: SpecMaker, tmp_path: Path) -> None:
    folder = make_spec(TILE_SPEC % (", match: {kind: spare}", ""), areas__yaml=AREAS)
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["build", str(folder), "-o", str(out)])
    assert result.exit_code == 0, result.output
    text = "".join(page.extract_text() for page in PdfReader(out / "rf.pdf").pages)
    assert "Other 5-5 Sea/Plains" in text and "First" not in text  # match kept only the spare tile
    image = render_page(out / "rf.pdf", 1, 30)
    assert any(
        near(image.getpixel((x, y)), "#0000ff", 8) for x in range(image.size[0]) for y in range(0, 200, 5)
    )
    if find_cjk_font() is not None:
        CliRunner().invoke(main, ["build", str(folder), "-o", str(out), "--lang", "ja"])
        assert "他5-5海/平地" in "".join(
            "".join(p.extract_text() for p in PdfReader(out / "rf.pdf").pages).split()
        )


@pytest.mark.parametrize(
    ("rows_from", "areas", "where", "expected"),
    [
        ("{data: nope.yaml, list: tiles}", AREAS, "game.yaml:6:", "'nope.yaml' not found"),
        ("{data: ../areas.yaml, list: tiles}", AREAS, "game.yaml:6:", "outside the spec folder"),
        ("{data: areas.yaml, list: tile}", AREAS, "game.yaml:6:", "no key 'tile'"),
        ("{data: areas.yaml, list: terrains}", AREAS, "areas.yaml:2:", "is not a list"),
        ("{data: areas.yaml, list: tiles}", "tiles:\n  - t1\n", "areas.yaml:2:", "not a mapping"),
        ("{data: areas.yaml, list: tiles}", "tiles:\n  - {id: a, count: 0}\n", "areas.yaml:2:", "count 0"),
        ("{data: areas.yaml, list: tiles, match: {id: zz}}", AREAS, "game.yaml:6:", "matches id=zz"),
        (
            "{data: areas.yaml, list: tiles}",
            "tiles:\n  - {id: a}\n  - {idd: b}\n",
            "areas.yaml:3:",
            "no field 'id'",
        ),
    ],
)
def test_rows_from_problems_are_located(
    make_spec: SpecMaker,
    runner: CliRunner,
    tmp_path: Path,
    rows_from: str,
    areas: str,
    where: str,
    expected: str,
) -> None:
    spec = (
        "game: {id: rf, title: Rows from}\ncomponents:\n  - name: tiles\n    kind: card\n    size: poker\n"
        f"    rows_from: {rows_from}\n    face: {{elements: [{{type: text, text: '{{id}}'}}]}}\n"
    )
    folder = make_spec(spec, areas__yaml=areas)
    result = runner.invoke(main, ["build", str(folder), "-o", str(tmp_path / "out")])
    assert result.exit_code == 2, result.output
    errors = [line for line in result.output.splitlines() if line.startswith("error: ")]
    assert any(where in line and expected in line for line in errors), errors


def test_lookup_problems_are_located(make_spec: SpecMaker, runner: CliRunner, tmp_path: Path) -> None:
    spec = """\
        game: {id: lk, title: Lookup}
        components:
          - name: a
            kind: card
            size: poker
            rows_from: {data: areas.yaml, list: tiles}
            lookup:
              - {fields: [colour_*], table: {red: {fill: red}}}
          - name: b
            kind: card
            size: poker
            csv: b.csv
            lookup:
              - {fields: [terrain], table: {plains: {fill: green}}}
          - name: c
            kind: card
            size: poker
            rows: [{x: 1}]
            lookup:
              - {fields: [x], data: areas.yaml, map: nothing}
    """
    folder = make_spec(spec, areas__yaml=AREAS, b__csv="terrain\nplains\nswamp\n")
    result = runner.invoke(main, ["build", str(folder), "-o", str(tmp_path / "out")])
    assert result.exit_code == 2
    errors = [line for line in result.output.splitlines() if line.startswith("error: ")]
    assert any("game.yaml:8:" in e and "names no field" in e for e in errors), errors
    assert any("b.csv:3:" in e and "'swamp' is not in the lookup table" in e for e in errors), errors
    assert any("game.yaml:20:" in e and "no key 'nothing'" in e for e in errors), errors


def test_rows_one_way_only(make_spec: SpecMaker, runner: CliRunner, tmp_path: Path) -> None:
    spec = "game: {id: x, title: X}\ncomponents:\n  - {name: a, kind: card, size: poker, csv: a.csv,\n"
    spec += "     rows_from: {data: areas.yaml, list: tiles}}\n"
    folder = make_spec(spec, areas__yaml=AREAS, a__csv="id\n1\n")
    result = runner.invoke(main, ["build", str(folder), "-o", str(tmp_path / "out")])
    assert result.exit_code == 2 and "not csv and rows_from" in result.output


# die faces ---------------------------------------------------------------------------------------
DIE_SPEC = """\
game: {id: dice, title: Dice}
components:
  - name: die
    kind: die
    size: 20mm
    rows:
      - {face1: Red, face1_ja: 赤, face1_fill: "#ff0000", face2: Lime, face2_ja: 緑, face2_fill: "#00ff00",
         face3: Blue, face3_ja: 青, face3_fill: "#0000ff", face4: Red, face4_ja: 赤, face4_fill: "#ff0000",
         face5: Lime, face5_ja: 緑, face5_fill: "#00ff00", face6: Blue, face6_ja: 青, face6_fill: "#0000ff"}
    face:
      background: "{value_fill}"
      elements:
        - {type: rect, x: 15%, y: 35%, w: 70%, h: 30%, fill: white}
        - {type: text, text: "{value}", x: 15%, y: 35%, w: 70%, h: 30%, size: 7pt}
"""


def test_die_faces_take_their_own_columns(make_spec: SpecMaker, tmp_path: Path) -> None:
    folder = make_spec(DIE_SPEC)
    result = CliRunner().invoke(main, ["build", str(folder), "-o", str(tmp_path / "en")])
    assert result.exit_code == 0, result.output
    pdf = tmp_path / "en" / "dice.pdf"
    words = PdfReader(pdf).pages[1].extract_text().split()
    assert sorted(w for w in words if w in ("Red", "Lime", "Blue")) == [
        "Blue",
        "Blue",
        "Lime",
        "Lime",
        "Red",
        "Red",
    ]
    image = render_page(pdf, 1, 40).convert("RGB")
    colours = image.getcolors(1_000_000) or []
    for want in ("#ff0000", "#00ff00", "#0000ff"):  # {value_fill}: each face's own colour, two faces each
        assert sum(n for n, c in colours if near(c, want, 6)) > 2 * (20 / 25.4 * 40) ** 2 * 0.5
    if find_cjk_font() is not None:
        result = CliRunner().invoke(main, ["build", str(folder), "-o", str(tmp_path / "ja"), "--lang", "ja"])
        assert result.exit_code == 0, result.output
        text = "".join(PdfReader(tmp_path / "ja" / "dice.pdf").pages[1].extract_text().split())
        assert sorted(ch for ch in text if ch in "赤緑青") == sorted("赤赤緑緑青青")


# fixed values: one problem, at game.yaml ---------------------------------------------------------
def test_a_fixed_bad_value_is_reported_once_at_game_yaml(
    make_spec: SpecMaker, runner: CliRunner, tmp_path: Path
) -> None:
    spec = """\
        game: {id: fx, title: Fixed}
        components:
          - name: cards
            kind: card
            size: poker
            csv: cards.csv
            face:
              pattern: zigzag
              elements:
                - {type: text, text: "{name}"}
                - {type: icon, name: tempel}
                - {type: rect, fill: "{colour}"}
    """
    folder = make_spec(spec, cards__csv="name,colour\nA,red\nB,blu\nC,green\nD,blu\n")
    result = runner.invoke(main, ["build", str(folder), "-o", str(tmp_path / "out")])
    assert result.exit_code == 2
    errors = [line for line in result.output.splitlines() if line.startswith("error: ")]
    pattern = [e for e in errors if "zigzag" in e]
    assert len(pattern) == 1 and re.search(r"game\.yaml:8:\d+:", pattern[0]), errors
    # with the side's pattern fixed, the elements are checked too
    (folder / "game.yaml").write_text((folder / "game.yaml").read_text().replace("zigzag", "dots"))
    result = runner.invoke(main, ["build", str(folder), "-o", str(tmp_path / "out")])
    errors = [line for line in result.output.splitlines() if line.startswith("error: ")]
    icon = [e for e in errors if "tempel" in e]
    assert len(icon) == 1 and re.search(r"game\.yaml:11:\d+: cards face element 2 \(icon\)", icon[0]), errors
    colour = [e for e in errors if "'blu'" in e]  # a value filled from a row stays at its rows, said once
    assert len(colour) == 1 and re.search(r"cards\.csv:3:", colour[0]), errors
    assert colour[0].endswith("(and 1 more row: cards.csv:5)"), colour


def test_fixed_values_without_game_yaml_stay_at_the_row(fonts: FontRegistry, tmp_path: Path) -> None:
    comp = Component.model_validate(
        {
            "name": "c",
            "kind": "card",
            "size": "poker",
            "face": {"elements": [{"type": "icon", "name": "tempel"}]},
        }
    )
    w, h = piece_size(comp)
    piece = Piece(comp, {}, RowRef("x.csv", 4), 0, w, h)
    problems = check_side(piece, "face", RenderContext("en", tmp_path, 0.0, fonts))  # no spec_source given
    assert [(p.file, p.line) for p in problems] == [("x.csv", 4)]
