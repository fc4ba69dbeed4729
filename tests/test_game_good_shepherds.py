"""Good Shepherds as a print-and-play kit: the farm sheet from farm.yaml, money track, dice, rules card.

Expected numbers cite seeds/003_d56f8147b8017e56.txt ("必要なもの") and RULINGS.md; the game is built once
per module and language through the real CLI and measured with pypdf.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import MM, render_page
from pypdf import PdfReader

from pnpforge.build import BuildOptions, plan
from pnpforge.cli import main
from pnpforge.components.load import load_target
from pnpforge.components.model import HexMapElement
from pnpforge.fonts import FontRegistry
from pnpforge.geometry import hexgrid
from pnpforge.layouts.faces.hexdata import cells_from
from pnpforge.sourcefile import read_yaml

GAME = "good-shepherds"


def _squeeze(text: str) -> str:
    """Text without any whitespace: PDF extraction breaks lines where wrapping or the font changes."""
    return "".join(text.split())


def _pages_text(pdf: Path) -> list[str]:
    return [page.extract_text() for page in PdfReader(pdf).pages]


def test_inventory_matches_the_seed() -> None:
    result = CliRunner().invoke(main, ["inventory", GAME, "--json"])
    assert result.exit_code == 0, result.output
    counts = {line["name"]: line["count"] for line in json.loads(result.output)}
    assert counts == {
        "farm-board": 1,  # 農地ボード 1枚
        "money-track": 1,  # お金を記録するもの: one sheet for both players
        "dice": 2,  # 6面体ダイス 2個
        "rules-card": 2,  # assumption: one per player
    }


def test_the_farm_is_printed_from_farm_yaml() -> None:
    loaded = load_target(GAME)
    maps = [e for e in loaded.component("farm-board").face.elements if isinstance(e, HexMapElement)]
    assert len(maps) == 1 and maps[0].source.data == "farm.yaml"
    printed = {cell.at for cell in cells_from(maps[0].source, loaded.folder)}
    farm = read_yaml(loaded.folder / "farm.yaml").data
    assert printed == {tuple(c["at"]) for c in farm["cells"]}
    rows = [len([q for q, r in printed if r == row]) for row in range(farm["rows"])]
    assert rows == [11, 10, 11, 10, 11, 10, 11]  # 11 wide, 7 tall; shifted rows one cell less (symmetric)


def test_the_farm_is_white_with_the_starting_huts_drawn(built_en: tuple[Path, str]) -> None:
    """Cells print white to write in; the two cells of farm.yaml's `start_huts` are shaded, with a hut."""
    pdf, _ = built_en
    farm = read_yaml(load_target(GAME).folder / "farm.yaml").data
    cells = [tuple(c["at"]) for c in farm["cells"]]
    huts = {tuple(h["at"]) for h in farm["start_huts"]}
    assert huts == {(-1, 3), (8, 3)}  # the middle cell of the leftmost and rightmost columns
    corners = [xy for at in cells for xy in hexgrid.corners(at, 1.0)]
    xs, ys = [x for x, _ in corners], [y for _, y in corners]
    the_plan = plan(load_target(GAME), BuildOptions(), FontRegistry(search=False), check=False)
    sheet = next(
        p for p in the_plan.pages if p.label == "" and p.component and p.component.name == "farm-board"
    )
    at = sheet.layout.placements[0]  # type: ignore[union-attr]
    box_x, box_y, box_w, box_h = at.x / MM, at.y / MM + 10.95, 260, 129.54  # the hexmap's box, mm
    radius = min(box_w / (max(xs) - min(xs)), box_h / (max(ys) - min(ys)))  # hex: fit
    left = box_x + (box_w - (max(xs) - min(xs)) * radius) / 2 - min(xs) * radius
    top = box_y + (box_h - (max(ys) - min(ys)) * radius) / 2 - min(ys) * radius
    dpi = 50
    image = render_page(pdf, 1, dpi)

    def colour(at: tuple[int, int], dx: float) -> tuple[int, int, int]:
        x, y = hexgrid.to_pixel(at, radius)
        return image.getpixel((round((left + x + dx * radius) * dpi / 25.4), round((top + y) * dpi / 25.4)))

    for at in cells:
        r, g, b = colour(at, -0.6)  # between the centre and the west side: clear of any icon
        if at in huts:
            assert max(abs(r - 0xE9), abs(g - 0xE4), abs(b - 0xD6)) < 10, at
            assert sum(colour(at, 0.0)) < 150, at  # the hut icon, black, at the centre
        else:
            assert (r, g, b) == (255, 255, 255), at


def test_pages_and_piece_sizes(built_en: tuple[Path, str]) -> None:
    pdf, _ = built_en
    reader = PdfReader(pdf)
    for page in reader.pages:  # landscape A4 throughout
        assert float(page.mediabox.width) / MM == pytest.approx(297, abs=0.1)
        assert float(page.mediabox.height) / MM == pytest.approx(210, abs=0.1)
    # cover, farm, money, dice, rules cards (no backs), one a sheet: turned to fit two, they would keep
    # only 1.5 mm of their 2 mm bleed
    assert len(reader.pages) == 6
    the_plan = plan(load_target(GAME), BuildOptions(), FontRegistry(search=False), check=False)
    by_name = {p.component.name: p for p in the_plan.pages if p.component is not None}
    sheet = by_name["farm-board"].layout.placements[0]  # type: ignore[union-attr]
    assert (sheet.width / MM, sheet.height / MM) == pytest.approx((260, 181))  # fits A4 and Letter
    dice = by_name["dice"].layout
    assert dice is not None and len(dice.nets) == 2
    assert all(edge / MM == pytest.approx(20) for _, _, edge in dice.nets)
    assert sorted(p.face for p in dice.placements) == sorted(list(range(1, 7)) * 2)
    card = by_name["rules-card"].layout.placements[0]  # type: ignore[union-attr]
    assert sorted((card.width / MM, card.height / MM)) == pytest.approx([138, 190])


def test_english_build(built_en: tuple[Path, str]) -> None:
    pdf, output = built_en
    assert "warning" not in output.lower()
    cover, farm, money, dice, *sheets = _pages_text(pdf)
    rules = "\n".join(sheets)
    assert all(_squeeze(w) in _squeeze(farm) for w in ("farm board", "Sheep", "Pasture", "Hut", "Destroyed"))
    numbers = set(money.split())
    assert {str(n) for n in range(100)} <= numbers  # 0 to 99 for each player, then the end boxes
    assert _squeeze(money).count("100+:thegameends") == 2 and "below0" in _squeeze(money)
    assert "Settlement(doubles)" in _squeeze(rules) and "+5persheep" in _squeeze(rules)


def test_japanese_names_are_in_the_pdf(built_ja: tuple[Path, str]) -> None:
    pdf, output = built_ja
    assert "warning" not in output.lower()
    text = _squeeze("\n".join(_pages_text(pdf)))
    for word in ("農地ボード", "羊", "牧草地", "小屋", "決算", "ゾロ目", "0金未満"):
        assert word in text
