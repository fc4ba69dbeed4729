"""The set-up vocabulary's parameters that Good Shepherds and Delphi brought (docs/setups.md, "Set-up
rules as data"): `crossed`, `not-adjacent` `per: piece`, `one-per-cell`'s `{what}`, `fixed` `spots:`
from the board's data, `connected` `each:` and `marks: groups`, and a board a game's code builds
(`built: true`). Each finds its break on a data-only game (the `new --template game` scaffold) with
its message and marks, and each mistake in them is one located error of game.yaml (exit 2)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from pnpforge.cli import main


def run(*args: str) -> Any:
    return CliRunner().invoke(main, list(args))


@pytest.fixture
def game(tmp_path: Path) -> Path:
    """The scaffold, its starting villages read from cells.yaml's `starts` (not listed in game.yaml)."""
    folder = tmp_path / "games" / "my-game"
    made = run("new", str(folder), "--template", "game")
    assert made.exit_code == 0, made.output
    cells = folder / "cells.yaml"
    starts = "starts:\n  - {at: [-3, 1], player: 1}\n  - {at: [3, -1], player: 2}\n"
    cells.write_text(cells.read_text(encoding="utf-8") + starts, encoding="utf-8")
    spec = folder / "game.yaml"
    text = spec.read_text(encoding="utf-8")
    start = text.index("    - kind: fixed\n")
    rules = (
        "    - {kind: fixed, code: start-village, spots: starts, pieces: village,"
        ' message: "player {player}\'s first village is printed at {cell}"}\n'
        "    - {kind: not-adjacent, code: tower-by-village, pieces: tower, crossed: false, to: village,"
        ' per: piece, message: "the tower at {a} stands by the village at {b}"}\n'
        "    - {kind: adjacent-required, code: ruin-alone, pieces: tower, crossed: true, to: village,"
        ' message: "the ruined tower at {cell} stands by no village"}\n'
        "    - {kind: connected, code: lake-parts, terrain: water, marks: groups,"
        ' each: {en: "part {number} ({size} cells: {cells})", ja: "部分{number}({size}マス)"},'
        ' message: {en: "the lake: {bodies}", ja: "湖: {bodies}"}}\n'
    )
    text = text[:start] + rules
    text = text.replace(
        'message: {en: "cell {cell} holds {count} pieces; one only"',
        'message: {en: "cell {cell} holds {count} pieces ({what}); one only"',
    )
    spec.write_text(text, encoding="utf-8")
    return folder


def errors_of(game: Path, pieces: str) -> list[tuple[str, str, Any]]:
    path = game / "case.yaml"
    path.write_text(f"game: my-game\nplayers: 2\npieces:\n{pieces}", encoding="utf-8")
    checked = run("validate", str(path), "--json")
    assert checked.exit_code in (0, 1), checked.output
    return [(e["code"], e["message"], e["where"]) for e in json.loads(checked.stdout)["errors"]]


def test_the_scaffold_s_start_is_dealt_from_the_board_s_spots(game: Path) -> None:
    dealt = run("--games-dir", str(game.parent), "setup", "my-game", "-p", "2")
    assert dealt.exit_code == 0, dealt.output
    assert "{piece: village, at: [-3, 1], player: 1}" in dealt.stdout
    assert "{piece: village, at: [3, -1], player: 2}" in dealt.stdout


def test_each_new_parameter_finds_its_break(game: Path) -> None:
    cells = game / "cells.yaml"
    cells.write_text(
        cells.read_text(encoding="utf-8").replace("at: [0, 0], terrain: water", "at: [0, 0], terrain: grass"),
        encoding="utf-8",
    )
    found = errors_of(
        game,
        "  - {piece: village, at: [-3, 1], player: 1}\n"
        "  - {piece: tower, at: [-3, 2], player: 1}\n"  # live, beside the village
        "  - {piece: tower, at: [-3, 2], player: 2, crossed: true}\n"  # the same cell; ruined, beside it
        "  - {piece: tower, at: [1, 2], player: 2, crossed: true}\n",  # ruined, by no village
    )
    assert found == [
        (
            "cell-occupied",
            "cell [-3, 2] holds 2 pieces (player 1's tower, player 2's tower); one only",
            [[-3, 2]],
        ),
        ("tower-alone", "the tower at [1, 2] stands next to no village", [[1, 2]]),  # the scaffold's rules
        ("lake-split", "the lake is in 2 parts; it is one lake", [[0, -1]]),
        ("start-village", "player 2's first village is printed at [3, -1]", [[3, -1]]),  # cells.yaml's starts
        ("tower-by-village", "the tower at [-3, 2] stands by the village at [-3, 1]", [[-3, 2], [-3, 1]]),
        ("ruin-alone", "the ruined tower at [1, 2] stands by no village", [[1, 2]]),
        (
            "lake-parts",
            "the lake: part 1 (2 cells: [-1, 1], [0, 1]); part 2 (2 cells: [0, -1], [1, -1])",
            [[[-1, 1], [0, 1]], [[0, -1], [1, -1]]],  # every part's cells
        ),
    ]
    said = run("validate", str(game / "case.yaml"), "--lang", "ja")
    assert "error [lake-parts] 湖: 部分1(2マス) / 部分2(2マス)" in said.output


def test_a_crossed_piece_is_drawn_crossed(game: Path, tmp_path: Path) -> None:
    path = game / "case.yaml"
    path.write_text(
        "game: my-game\nplayers: 2\npieces:\n  - {piece: village, at: [-3, 1], player: 1}\n"
        "  - {piece: village, at: [3, -1], player: 2}\n"
        "  - {piece: tower, at: [1, 2], player: 2, crossed: true}\n",
        encoding="utf-8",
    )
    from pnpforge.table import setupfile

    loaded = setupfile.load_setup(path)
    assert loaded.rules.picture is not None
    labels = [piece.label for piece in loaded.rules.picture(loaded.setup).pieces]
    assert labels == ["", "X", ""]  # drawn in cell order: [-3, 1], the ruin at [1, 2], [3, -1]


SPEC_MISTAKES = [
    # (what is replaced, by what, the one error's words)
    ("crossed: false, to: village", "crossed: no, to: village", "valid boolean"),
    ("per: piece", "per: each", "'pair' or 'piece'"),
    ("marks: groups", "marks: all", "'apart' or 'groups'"),
    ("spots: starts, pieces: village", "spots: starts", "needs `pieces: PIECE`"),
    ("spots: starts, pieces: village", "spots: starts, pieces: [village, tower]", "needs `pieces: PIECE`"),
    ("spots: starts, pieces: village", "pieces: village", "needs `placed: [...]` or `spots: LIST`"),
    ("spots: starts, pieces: village", "spots: start, pieces: village", "no list 'start' in"),
    ("spots: starts, pieces: village", "spots: starts, pieces: villa", "unknown piece 'villa'"),
    ("({size} cells: {cells})", "({size} cells: {cell})", "unknown name 'cell' in the message"),
    ("terrain: water, marks", "terrain: water, crossed: true, marks", "rule connected takes no 'crossed'"),
    ("board: {hexmap: board}", "board: {hexmap: board, built: true}", "`built: true` (one of them)"),
    ("board: {hexmap: board}", "board: {built: true}", "a built board is handed over by the game's code"),
    (
        "  pieces:\n    village: {label: {en: village, ja: 村}, mark: cube}\n"
        "    tower: {label: {en: tower, ja: 塔}, mark: pyramid, counts: {2: 2, 3: 2, 4: 2}}\n",
        "  pieces: {}\n",
        "expected at least one piece under `pieces`",
    ),
]


@pytest.mark.parametrize(("old", "new", "words"), SPEC_MISTAKES)
def test_each_mistake_is_one_located_error(game: Path, old: str, new: str, words: str) -> None:
    spec = game / "game.yaml"
    text = spec.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    spec.write_text(text.replace(old, new), encoding="utf-8")
    line = text[: text.index(old)].count("\n") + 1
    result = run("validate", str(game / "setup.yaml"))
    assert result.exit_code == 2, result.output
    errors = [entry for entry in result.output.splitlines() if entry.startswith("error:")]
    assert len(errors) == 1 and words in errors[0], result.output
    where = errors[0].split(": ", 2)[1]
    assert where.startswith(f"{spec}:") and int(where.split(":")[-2]) == line, (where, line)


def test_the_json_schema_describes_the_new_parameters() -> None:
    shown = run("schema")
    assert shown.exit_code == 0
    schema = json.loads(shown.stdout)
    rule = schema["$defs"]["RuleSpec"]["properties"]
    assert {"crossed", "per", "spots", "each", "marks"} <= set(rule)
    assert "built" in schema["$defs"]["Board"]["properties"]
    setup = schema["properties"]["setup"]["anyOf"][0]
    assert {"legend", "key_colour"} <= set(setup["properties"])


def test_the_docs_show_delphi_s_water_rule_as_its_game_yaml_holds_it() -> None:
    from ruamel.yaml import YAML

    from pnpforge import catalog

    docs = (Path(__file__).parent.parent / "docs" / "setups.md").read_text(encoding="utf-8")
    block = docs[docs.index("```yaml\nsetup:\n  board: {built: true}") + len("```yaml\n") :]
    shown = YAML(typ="safe", pure=True).load(block[: block.index("```")])
    spec = YAML(typ="safe", pure=True).load(
        (catalog.find_game("delphi").path / "game.yaml").read_text("utf-8")
    )
    assert shown["setup"] == spec["setup"]


def test_the_picture_s_key_lists_what_the_section_asks(game: Path) -> None:
    from pnpforge.table import setupfile

    spec = game / "game.yaml"
    text = spec.read_text(encoding="utf-8")
    spec.write_text(
        text.replace(
            "  pieces:\n",
            '  key: "hatched: a start"\n  key_colour: grass\n  legend: [players]\n  pieces:\n',
            1,
        ),
        encoding="utf-8",
    )
    path = game / "case.yaml"
    path.write_text(
        "game: my-game\nplayers: 2\npieces:\n  - {piece: village, at: [3, -1], player: 2}\n", "utf-8"
    )
    loaded = setupfile.load_setup(path)
    assert loaded.rules.picture is not None
    legend = loaded.rules.picture(loaded.setup).legend
    assert legend == [("blue", "player 2"), ("grass", "hatched: a start")]  # no terrains, no piece kinds
