"""The rules read the printed kit (pnpforge.kit): the files and columns they read exist in what
`pnpforge build` prints, their numbers agree with `pnpforge inventory`, and a renamed file fails loudly."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnpforge import catalog, contract, kit
from pnpforge.cli import main
from pnpforge.errors import InputError
from pnpforge.scoring import datasheet
from pnpforge.sourcefile import read_csv, read_yaml

REPO = Path(__file__).parents[1]
BUNDLED = [g for g in catalog.games() if g.bundled]


def _inventory(game: str) -> dict[str, int]:
    """Component (and part) name -> count, as `pnpforge inventory --json` prints them."""
    rows = json.loads(CliRunner().invoke(main, ["inventory", game, "--json"]).stdout)
    counts = {row["name"]: row["count"] for row in rows}
    counts |= {
        f"{row['name']}/{part['name']}": part["count"] for row in rows for part in row.get("parts", [])
    }
    return counts


def _exercise(game_id: str) -> None:
    """Every rule a game has, once: deal, check, draw, score its example score file."""
    game = contract.load(game_id)
    low, _ = catalog.players_range(catalog.find_game(game_id))
    if game.deal is not None and game.setup is not None:
        rules = game.rules()
        setup = rules.model.model_validate(game.dealer().deal(low, 1, {}))
        rules.check(setup, None)  # type: ignore[arg-type]
        if rules.picture is not None:
            rules.picture(setup)
        game.translator("ja")  # the kit's own names in Japanese (name_ja columns)
    if game.score is not None:
        from pnpforge.table.scorefile import score_file

        score_file(catalog.BUNDLED_DIR / game_id / "example-score.yaml")


@pytest.mark.parametrize("found", BUNDLED, ids=lambda g: g.id)
def test_every_kit_file_and_column_the_rules_read_is_printed(found: catalog.GameFolder) -> None:
    _exercise(found.id)
    spec = read_yaml(found.path / "game.yaml").data
    printed = {c["csv"] for c in spec["components"] if "csv" in c}
    names = {c["name"] for c in spec["components"]}
    inventory = _inventory(found.id)
    for folder, file, column in kit.reads():
        if Path(folder) != found.path.resolve() and Path(folder) != found.path:
            continue
        if file == "game.yaml":
            component = column.removeprefix("component:")
            assert component in names and component in inventory, column
        else:
            assert file in printed, f"{found.id}: the rules read {file}, which no component prints"
            assert column in read_csv(found.path / file).rows[0], f"{file} has no column {column}"


def test_gods_scoring_and_checks_agree_with_the_inventory() -> None:
    gods = contract.load("gods")
    checks = gods.module("checks")
    sheet = datasheet.load(catalog.find_game("gods"))  # the score sheet is data: game.yaml's `scoring:`
    assert sheet is not None
    parts = sheet.kit
    inventory = _inventory("gods")
    assert (
        parts["vp_copies"] * len(parts["colours"]) == inventory["vp-cards"] == 12
    )  # 勝利ポイントカード(4色×3=12)
    assert (
        parts["village_copies"] * len(parts["colours"]) == inventory["village-cards"] == 8
    )  # 村落カード(4色×2=8)
    assert sum(checks.marker_limit().values()) == inventory["god-markers"] == 60  # ゴッドマーカー(60)
    assert parts["temples_each"] * len(checks.colours()) == inventory["tiles/temple"] == 24
    assert sum(checks.tile_counts().values()) == inventory["tiles"] == 72
    assert (parts["vp_points"], parts["village_points"]) == (2, 3)  # what the printed cards say


def test_delphi_checks_agree_with_the_inventory() -> None:
    checks = contract.load("delphi").module("checks")
    inventory = _inventory("delphi")
    colours = read_csv(catalog.BUNDLED_DIR / "delphi" / "colours.csv").rows
    assert {r["colour"] for r in colours} == set(checks.COLOURS)  # the set-up's colours are the printed ones
    assert checks.statues_each() * len(checks.COLOURS) == inventory["statues"] == 18  # 3 per colour
    assert checks.PLAYER_COLOURS * checks.TASKS_EACH == inventory["island-shrine-tiles"] == 12
    assert (inventory["island-tiles"], inventory["city-tiles"]) == (checks.ISLAND_TILES, checks.CITY_TILES)


def test_ankh_battle_strengths_are_the_printed_cards() -> None:
    cards = contract.load("ankh").module("score")._cards_table()
    printed = read_csv(catalog.BUNDLED_DIR / "ankh" / "battle_cards.csv").rows
    assert {(r["card"], r["god"], int(r["strength"])) for r in printed} == {
        (card, god, n) for card, v in cards.items() for god, n in v["strength"].items()
    }


@pytest.mark.parametrize(
    ("game", "renamed", "command"),
    [
        ("gods", "vp_cards.csv", "score"),
        ("gods", "tiles.csv", "validate"),
        ("ankh", "battle_cards.csv", "score"),
    ],
)
def test_a_renamed_kit_file_fails_loudly(tmp_path: Path, game: str, renamed: str, command: str) -> None:
    """A copy of the game whose kit file was renamed: the rules say which file is missing, exit 2."""
    copy = tmp_path / "games" / f"{game}-copy"
    shutil.copytree(catalog.BUNDLED_DIR / game, copy, ignore=shutil.ignore_patterns("__pycache__"))
    for path in copy.glob("*.py"):
        text = path.read_text(encoding="utf-8")
        for said in ('Literal["{}"]', 'Game("{}"', 'GAME = "{}"', '"game": "{}"'):
            text = text.replace(said.format(game), said.format(f"{game}-copy"))
        path.write_text(text, encoding="utf-8")
    (copy / renamed).rename(copy / f"old_{renamed}")
    if command == "score":
        text = (catalog.BUNDLED_DIR / game / "example-score.yaml").read_text(encoding="utf-8")
        target = tmp_path / "in.yaml"
        target.write_text(text.replace(f"game: {game}", f"game: {game}-copy"), encoding="utf-8")
    else:
        target = tmp_path / "in.yaml"
        dealt = contract.load(game).dealer().deal(2, 1, {})
        from pnpforge.table.setupfile import dump_yaml

        target.write_text(dump_yaml({**dealt, "game": f"{game}-copy"}), encoding="utf-8")
    env = {"PNPFORGE_GAMES_DIR": str(tmp_path / "games")}
    done = subprocess.run(
        [sys.executable, "-m", "pnpforge", command, str(target)],
        capture_output=True, text=True, timeout=60, env={**__import__("os").environ, **env},
    )  # fmt: skip
    assert done.returncode == 2, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    assert f"{copy / renamed}: the rules read this kit file, which is missing" in done.stderr


def test_a_missing_column_is_named_with_the_columns_there_are(tmp_path: Path) -> None:
    (tmp_path / "cards.csv").write_text("colour,worth\nred,2\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"cards.csv:1:1: the rules read column 'value', which is missing"):
        kit.numbers(tmp_path, "cards.csv", "value")
