"""The print commands through the real CLI: games, build, inventory, preview, new, watch, schema."""

from __future__ import annotations

import json
import math
import threading
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import SpecMaker
from pypdf import PdfReader

from pnpforge.cli import main


@pytest.mark.parametrize("name", main.list_commands(None))  # type: ignore[arg-type]
def test_every_command_has_help_with_an_example(runner: CliRunner, name: str) -> None:
    result = runner.invoke(main, [name, "--help"])
    assert result.exit_code == 0
    assert "Example:" in result.output


def test_games_lists_bundled_and_extra_games(runner: CliRunner, make_spec: SpecMaker, tmp_path: Path) -> None:
    make_spec(
        "game: {id: mine, title: {en: Mine, ja: 私の}}\ncomponents: [{name: a, kind: card, size: poker}]\n",
        "extra/mine",
    )
    ids = runner.invoke(main, ["--games-dir", str(tmp_path / "extra"), "games", "--ids"]).output.split()
    assert {"gods", "ankh", "quo-vadis", "good-shepherds", "delphi", "mine"} <= set(ids)
    rows = json.loads(runner.invoke(main, ["--games-dir", str(tmp_path / "extra"), "games", "--json"]).output)
    mine = next(r for r in rows if r["id"] == "mine")
    assert mine["title"] == {"en": "Mine", "ja": "私の"} and mine["bundled"] is False
    assert next(r for r in rows if r["id"] == "gods")["bundled"] is True
    text = runner.invoke(main, ["games"]).output
    assert "gods" in text and "players" in text


def test_build_writes_the_pdf_and_names_it(runner: CliRunner, tiny_quest: Path, tmp_path: Path) -> None:
    result = runner.invoke(main, ["build", str(tiny_quest), "-o", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert result.output.split() == [str(tmp_path / "tiny-quest.pdf")]  # no progress bar in a pipe
    assert len(PdfReader(tmp_path / "tiny-quest.pdf").pages) == 6  # land tiles and coins share a sheet


def test_build_accepts_game_yaml_and_options(runner: CliRunner, tiny_quest: Path, tmp_path: Path) -> None:
    args = [
        "build",
        str(tiny_quest / "game.yaml"),
        "-o",
        str(tmp_path),
        "--page",
        "letter",
        "--only",
        "heroes",
    ]
    result = runner.invoke(main, [*args, "--format", "pdf,png", "--dpi", "20", "--duplex", "short"])
    assert result.exit_code == 0, result.output
    names = sorted(Path(p).name for p in result.output.split())
    assert names == ["tiny-quest-p001.png", "tiny-quest-p002.png", "tiny-quest-p003.png", "tiny-quest.pdf"]
    box = PdfReader(tmp_path / "tiny-quest.pdf").pages[0].mediabox
    assert round(float(box.width) * 25.4 / 72, 1) == 215.9


def test_inventory_json(runner: CliRunner, tiny_quest: Path) -> None:
    result = runner.invoke(main, ["inventory", str(tiny_quest), "--json"])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.output)
    assert [(r["name"], r["kind"], r["shape"], r["count"], r["sides"]) for r in rows] == [
        ("heroes", "card", "rect", 8, 2),
        ("land", "tile", "hex", 10, 1),
        ("coins", "token", "circle", 12, 2),
        ("pad", "sheet", "rect", 1, 1),
    ]
    text = runner.invoke(main, ["inventory", str(tiny_quest)]).output
    assert "heroes" in text and "sheets" in text


def test_preview_writes_one_png_per_page(runner: CliRunner, tiny_quest: Path, tmp_path: Path) -> None:
    result = runner.invoke(main, ["preview", str(tiny_quest), "-o", str(tmp_path), "--dpi", "15"])
    assert result.exit_code == 0, result.output
    pngs = sorted(tmp_path.glob("*.png"))
    assert len(pngs) == 6 and not list(tmp_path.glob("*.pdf"))
    from PIL import Image

    with Image.open(pngs[0]) as image:
        assert image.size == (math.ceil(210 / 25.4 * 15), math.ceil(297 / 25.4 * 15))  # A4 at 15 dpi


def test_new_scaffolds_a_game_that_builds(runner: CliRunner, tmp_path: Path) -> None:
    folder = tmp_path / "my-game"
    result = runner.invoke(main, ["new", str(folder)])
    assert result.exit_code == 0, result.output
    built = runner.invoke(main, ["build", str(folder), "-o", str(tmp_path / "out")])
    assert built.exit_code == 0, built.output
    assert len(PdfReader(tmp_path / "out" / "my-game.pdf").pages) >= 3
    again = runner.invoke(main, ["new", str(folder)])
    assert again.exit_code == 2 and "not empty" in again.output


def test_schema_is_json_schema(runner: CliRunner, tmp_path: Path) -> None:
    result = runner.invoke(main, ["schema"])
    assert result.exit_code == 0
    schema = json.loads(result.output)
    assert schema["type"] == "object" and "components" in schema["properties"]
    assert "Component" in schema["$defs"] and schema["$defs"]["Component"]["additionalProperties"] is False
    runner.invoke(main, ["schema", "-o", str(tmp_path / "s.json")])
    assert json.loads((tmp_path / "s.json").read_text()) == schema


def test_watch_builds_then_rebuilds_on_change(
    runner: CliRunner, make_spec: SpecMaker, tmp_path: Path
) -> None:
    folder = make_spec("game: {id: w, title: W}\ncomponents: [{name: a, kind: card, size: poker}]\n")
    out = tmp_path / "out"
    once = runner.invoke(main, ["watch", str(folder), "-o", str(out), "--max-builds", "1"])
    assert once.exit_code == 0 and (out / "w.pdf").exists()

    def edit() -> None:
        time.sleep(0.3)
        text = (folder / "game.yaml").read_text().replace("size: poker", "size: mini, count: 2")
        (folder / "game.yaml").write_text(text)

    editor = threading.Thread(target=edit)
    editor.start()
    twice = runner.invoke(
        main, ["watch", str(folder), "-o", str(out), "--max-builds", "2", "--interval", "0.05"]
    )
    editor.join()
    assert twice.exit_code == 0, twice.output
    assert twice.output.count("w.pdf") == 2
    assert "2 " in runner.invoke(main, ["inventory", str(folder)]).output


def test_watch_reports_bad_input_and_keeps_going(
    runner: CliRunner, make_spec: SpecMaker, tmp_path: Path
) -> None:
    folder = make_spec(
        "game: {id: w, title: W}\ncomponents: [{name: a, kind: card, size: poker, count: 0}]\n"
    )
    result = runner.invoke(main, ["watch", str(folder), "-o", str(tmp_path), "--max-builds", "1"])
    assert result.exit_code == 0
    assert "game.yaml:2:" in result.output and "positive whole number" in result.output
