"""`pnpforge inventory`: each component's parts (pieces per kind), in the text, the JSON and the cover."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner
from conftest import SpecMaker, require_cjk
from pypdf import PdfReader

from pnpforge.cli import main

SPEC = """\
game: {id: parts, title: Parts}
components:
  - name: chits
    title: Chits
    kind: token
    size: 15mm
    %s
    rows:
      - {kind: gold, colour: yellow, count: 3}
      - {kind: gold, colour: orange, count: 2}
      - {kind: wood, colour: brown, count: 4}
    face: {background: "{colour}"}
"""


def inventory(*args: str) -> list[dict[str, object]]:
    result = CliRunner().invoke(main, ["inventory", *args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_gods_tiles_split_as_the_rulebook_counts_them() -> None:
    # Gods rulebook, 内容: 24 temples, 32 people, 11 wilderness, 2 storm, 2 extra action, 1 game end.
    tiles = next(c for c in inventory("gods") if c["name"] == "tiles")
    assert [(p["name"], p["count"]) for p in tiles["parts"]] == [  # type: ignore[union-attr]
        ("temple", 24),
        ("people", 32),
        ("wilderness", 11),
        ("storm", 2),
        ("extra-action", 2),
        ("game-end", 1),
    ]
    text = CliRunner().invoke(main, ["inventory", "gods"]).output.splitlines()
    at = next(i for i, line in enumerate(text) if line.startswith("tiles "))
    assert text[at + 1].split() == ["-", "temple", "24", "Temple", "tiles"]


def test_every_component_of_a_bundled_game_has_parts_in_the_json() -> None:
    for component in inventory("quo-vadis"):
        parts = component["parts"]
        assert isinstance(parts, list)
        if parts:
            assert sum(p["count"] for p in parts) == component["count"]


def test_a_spec_names_its_group_and_titles(make_spec: SpecMaker) -> None:
    default = make_spec(SPEC % "")
    assert inventory(str(default))[0]["parts"] == [
        {"name": "gold", "title": "Gold", "count": 5},
        {"name": "wood", "title": "Wood", "count": 4},
    ]
    by_colour = make_spec(SPEC % "group: {by: colour, titles: {brown: {en: Brown chits, ja: 茶}}}", "b")
    parts = inventory(str(by_colour))[0]["parts"]
    assert [(p["name"], p["title"], p["count"]) for p in parts] == [  # type: ignore[index]
        ("yellow", "Yellow", 3),
        ("orange", "Orange", 2),
        ("brown", "Brown chits", 4),
    ]
    assert inventory(str(by_colour), "--lang", "ja")[0]["parts"][2]["title"] == "茶"


def test_a_group_field_the_rows_lack_is_bad_input(make_spec: SpecMaker) -> None:
    folder = make_spec(SPEC % "group: shape")
    result = CliRunner().invoke(main, ["inventory", str(folder)])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert f"{folder / 'game.yaml'}:7:" in result.output and "no row field 'shape'" in result.output
    folder = make_spec(SPEC % "group: {by: kind, titles: {iron: Iron}}", "t")
    result = CliRunner().invoke(main, ["inventory", str(folder)])
    assert result.exit_code == 2 and "no row has kind = 'iron'" in result.output


def test_the_cover_lists_the_parts(make_spec: SpecMaker, tmp_path: Path) -> None:
    folder = make_spec(SPEC % "")
    result = CliRunner().invoke(main, ["build", str(folder), "-o", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    cover = PdfReader(tmp_path / "out" / "parts.pdf").pages[0].extract_text()
    assert "· Gold" in cover and "· Wood" in cover
    lines = cover.splitlines()
    assert any(line.split()[-1:] == ["5"] and "Gold" in line for line in lines), cover


def test_the_japanese_cover_lists_the_parts_in_japanese(tmp_path: Path) -> None:
    require_cjk()
    result = CliRunner().invoke(main, ["build", "gods", "--lang", "ja", "-o", str(tmp_path)])
    assert result.exit_code == 0, result.output
    cover = PdfReader(tmp_path / "gods.pdf").pages[0].extract_text()
    assert "· 神殿タイル 24" in cover and "· ゲームエンドタイル 1" in cover
