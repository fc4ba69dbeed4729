"""Gods set-ups: every violation code with a breaking set-up and its legal twin, bad input, the dealer."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from pnpforge.cli import main
from pnpforge.sourcefile import Source
from pnpforge.table.setupfile import check_loaded, check_text, deal_setup, dump_yaml, load_source
from pnpforge.validator.report import Report


def report_of(data: dict[str, Any]) -> Report:
    return check_text(dump_yaml(data), "gods.yaml")


def dealt(players: int, seed: int = 1, **options: str) -> dict[str, Any]:
    return deal_setup("gods", players, seed, dict(options))


def play_board(board: list[dict[str, Any]], gods: list[str] | None = None) -> dict[str, Any]:
    """A game under way (no draw pile): only the rules any position obeys apply."""
    gods = gods or ["red", "blue"]
    return {"game": "gods", "players": len(gods), "gods": gods, "stage": "play", "board": board}


def t(tile: str, q: int, r: int, marker: str | None = None) -> dict[str, Any]:
    return {"tile": tile, "at": [q, r]} | ({"marker": marker} if marker else {})


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_dealt_opening_is_legal_over_200_seeds(players: int) -> None:
    for seed in range(200):
        data = dealt(players, seed)
        report = check_loaded(load_source(Source("dealt.yaml", data)))
        assert report.valid, (seed, report.as_json())
        stack = data["stack"]
        assert "game-end" in stack[-3:] and stack.count("game-end") == 1
        assert len(stack) == 48 - (players == 4)


def test_bag_variant_has_no_end_tile_and_is_legal() -> None:
    for players in (2, 3, 4):
        data = dealt(players, 5, variant="bag")
        assert "game-end" not in data["bag"] and "stack" not in data
        assert report_of(data).valid


def test_same_seed_same_deal_and_seeds_differ() -> None:
    assert dealt(3, 42) == dealt(3, 42)
    assert dealt(3, 42)["stack"] != dealt(3, 43)["stack"]
    assert dealt(2, 1, gods="green,yellow")["gods"] == ["green", "yellow"]


def test_tile_overlap() -> None:
    legal = play_board([t("temple-red", 0, 0), t("temple-blue", 1, 0), t("people-green", 2, 0, "blue")])
    assert report_of(legal).valid
    broken = play_board([t("temple-red", 0, 0), t("temple-blue", 1, 0), t("people-green", 1, 0)])
    assert "tile-overlap" in report_of(broken).codes()


def test_tiles_disconnected() -> None:
    legal = play_board([t("temple-red", 0, 0), t("wilderness", 1, 0), t("temple-blue", 2, 0)])
    assert report_of(legal).valid
    broken = play_board([t("temple-red", 0, 0), t("wilderness", 1, 0), t("temple-blue", 3, 0)])
    report = report_of(broken)
    assert report.codes() == {"tiles-disconnected"}
    assert report.errors[0].where == [[[0, 0], [1, 0]], [[3, 0]]]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_opening_layout(players: int) -> None:
    legal = dealt(players)
    assert report_of(legal).valid
    broken = copy.deepcopy(legal)
    broken["board"][0]["at"] = [5, 5]  # one temple walks away from the others
    assert "opening-layout" in report_of(broken).codes()


def test_four_player_pairs_must_not_touch() -> None:
    data = dealt(4)
    # two pairs side by side with the wilderness touching both: the pairs touch, so not the seed's layout
    cells = [[0, 0], [1, 0], [0, 1], [1, 1]]
    for placed, cell in zip(data["board"][:4], cells, strict=True):
        placed["at"] = cell
    data["board"][4]["at"] = [2, 0]
    report = report_of(data)
    assert report.codes() == {"opening-layout"}


def test_opening_needs_each_players_temple_and_nothing_else() -> None:
    data = dealt(2)
    data["board"][1]["tile"] = next(
        f"temple-{c}" for c in ("red", "blue", "green", "yellow") if c not in data["gods"]
    )
    assert "opening-layout" in report_of(data).codes()


def test_end_tile_position() -> None:
    legal = dealt(3)
    broken = copy.deepcopy(legal)
    broken["stack"].remove("game-end")
    broken["stack"].insert(0, "game-end")  # on top: the first draw would end the game
    report = report_of(broken)
    assert report.codes() == {"end-tile-position"}
    assert "number 48 from the bottom" in report.errors[0].message
    bag = dealt(3, variant="bag")
    bag["bag"].append("game-end")
    assert "end-tile-position" in report_of(bag).codes()


def test_god_marker_next_to_one_god_must_be_that_god() -> None:
    base = [t("temple-red", 0, 0), t("wilderness", -1, 0), t("temple-blue", -2, 0)]
    legal = play_board([*base, t("people-green", 1, 0, "red")])
    assert report_of(legal).valid
    for wrong in ("blue", None):
        report = report_of(play_board([*base, t("people-green", 1, 0, wrong)]))
        assert report.codes() == {"god-marker"}, wrong


def test_god_marker_spreads_only_along_people_chains() -> None:
    base = [
        t("temple-red", 0, 0),
        t("wilderness", -1, 0),
        t("temple-blue", -2, 0),
        t("people-green", 1, 0, "red"),
    ]
    assert report_of(play_board([*base, t("people-green", 2, -1, "red")])).valid
    assert report_of(play_board([*base, t("people-green", 2, -1)])).valid
    broken = report_of(play_board([*base, t("people-green", 2, -1, "blue")]))
    assert broken.codes() == {"god-marker"}
    assert broken.errors[0].where == [[2, -1]]


def test_god_marker_between_two_gods_and_on_wrong_tiles() -> None:
    board = [t("temple-red", 0, 0), t("temple-blue", 2, 0), t("people-yellow", 1, 0, "blue")]
    assert report_of(play_board(board)).valid
    three = play_board([*board[:2], t("people-yellow", 1, 0, "green")], ["red", "blue", "green"])
    three["board"].append(t("temple-green", 3, 0))
    assert "god-marker" in report_of(three).codes()
    on_temple = play_board([t("temple-red", 0, 0, "red"), t("temple-blue", 1, 0)])
    assert report_of(on_temple).codes() == {"god-marker"}


def test_tile_count() -> None:
    legal = dealt(2)
    broken = copy.deepcopy(legal)
    broken["stack"].remove("storm")
    assert report_of(broken).codes() == {"tile-count"}
    unused = play_board([t("temple-red", 0, 0), t("temple-blue", 1, 0), t("temple-green", 2, 0)])
    assert report_of(unused).codes() == {"tile-count"}
    many = play_board([t("temple-red", q, 0) for q in range(7)] + [t("temple-blue", 0, 1)])
    assert "tile-count" in report_of(many).codes()


def test_storm_is_never_placed() -> None:
    board = [t("temple-red", 0, 0), t("temple-blue", 1, 0)]
    assert report_of(play_board([*board, t("wilderness", 2, 0)])).valid
    assert report_of(play_board([*board, t("storm", 2, 0)])).codes() == {"tile-not-placeable"}


def test_every_violation_is_reported_not_just_the_first() -> None:
    data = dealt(3)
    data["board"][0]["at"] = data["board"][1]["at"]  # overlap, and the opening breaks
    data["stack"].remove("game-end")
    data["stack"].insert(0, "game-end")
    assert {"tile-overlap", "opening-layout", "end-tile-position"} <= report_of(data).codes()


@pytest.mark.parametrize(
    ("text", "line", "expected"),
    [
        ("board:\n  - tile: temple-purple\n    at: [0, 0]\n", 6, "unknown tile 'temple-purple'"),
        ("board:\n  - tile: temple-red\n    at: [0.5, 0]\n", 7, "valid integer"),
        ("board:\n  - tile: people-red\n    at: [0, 0]\n    marker: purple\n", 8, "unknown colour 'purple'"),
    ],
)
def test_bad_input_is_located_and_exits_2(tmp_path: Path, text: str, line: int, expected: str) -> None:
    head = "game: gods\nplayers: 2\ngods: [red, blue]\nstage: play\n"
    file = tmp_path / "bad.yaml"
    file.write_text(head + text, encoding="utf-8")
    result = CliRunner().invoke(main, ["validate", str(file)])
    assert result.exit_code == 2, result.output
    assert f"bad.yaml:{line}:" in result.output and expected in result.output
    assert "Traceback" not in result.output


def test_player_count_and_gods_are_checked(tmp_path: Path) -> None:
    file = tmp_path / "bad.yaml"
    file.write_text("game: gods\nplayers: 5\ngods: [red, blue]\nboard: []\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["validate", str(file)])
    assert result.exit_code == 2 and "bad.yaml:2:" in result.output and "2-4 players" in result.output
    file.write_text("game: gods\nplayers: 2\ngods: [red, red]\nboard: []\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["validate", str(file)])
    assert result.exit_code == 2 and "bad.yaml:3:" in result.output and "chosen twice" in result.output


def test_cli_round_trip_and_exit_codes(tmp_path: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "gods.yaml"
    result = runner.invoke(main, ["setup", "gods", "--players", "4", "--seed", "9", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert runner.invoke(main, ["validate", str(out)]).exit_code == 0
    text = out.read_text(encoding="utf-8").replace("stage: opening", "stage: opening\nvariant_typo: 1")
    out.write_text(text, encoding="utf-8")
    assert runner.invoke(main, ["validate", str(out)]).exit_code == 2
    broken = dump_yaml(dealt(2) | {"stack": []})
    out.write_text(broken, encoding="utf-8")
    result = runner.invoke(main, ["validate", str(out), "--json"])
    assert result.exit_code == 1 and '"end-tile-position"' in result.output
    bad = runner.invoke(main, ["setup", "gods", "--players", "2", "--option", "variant=sack"])
    assert bad.exit_code == 2 and "variant" in bad.output
