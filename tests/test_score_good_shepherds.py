"""Good Shepherds: one settlement, the end of the game at 100 or below 0, winner by money then sheep."""

from __future__ import annotations

from pathlib import Path

import pytest

from pnpforge.errors import InputError
from pnpforge.scoring import DRAW, RulesBroken, ScoreResult
from pnpforge.sourcefile import read_yaml_text
from pnpforge.table.scorefile import score_file, score_source


def score(ann: str, bob: str, extra: str = "") -> ScoreResult:
    text = f"game: good-shepherds\n{extra}players:\n  - {{name: Ann, {ann}}}\n  - {{name: Bob, {bob}}}\n"
    return score_source(read_yaml_text(text, "settle.yaml"))


def row(result: ScoreResult, name: str) -> dict[str, int]:
    player = next(p for p in result.players if p.name == name)
    return {**player.breakdown, "total": int(player.total or 0)}


def test_sheep_equal_to_live_pastures_earn_and_one_over_costs() -> None:
    result = score("money: 10, sheep: 3, pastures: 3, huts: 1", "money: 10, sheep: 4, pastures: 3, huts: 1")
    assert row(result, "Ann") == {"money before": 10, "sheep": 15, "pastures": 3, "huts": 0, "total": 28}
    assert row(result, "Bob") == {"money before": 10, "sheep": -5, "pastures": 3, "huts": 0, "total": 8}
    assert result.winners == [] and result.details["game_ends"] is False  # nobody at 100 or below 0


def test_huts_pay_three_per_hut_more_than_the_opponent() -> None:
    result = score("money: 20, huts: 4", "money: 20, huts: 1")
    assert row(result, "Ann")["huts"] == 9 and row(result, "Bob")["huts"] == 0


def test_exactly_zero_does_not_end_the_game_but_below_zero_does() -> None:
    at_zero = score("money: 9, sheep: 3, pastures: 1", "money: 10")
    assert row(at_zero, "Ann")["total"] == 0 and at_zero.details["game_ends"] is False
    below = score("money: 9, sheep: 4, pastures: 1", "money: 10")
    assert row(below, "Ann")["total"] == -5 and below.details["game_ends"] is True
    assert below.winners == ["Bob"]


def test_reaching_exactly_100_ends_the_game_and_99_does_not() -> None:
    at_100 = score("money: 88, sheep: 2, pastures: 2, huts: 1", "money: 50")
    assert row(at_100, "Ann")["total"] == 100 and at_100.details["game_ends"] is True
    assert at_100.winners == ["Ann"] and at_100.tiebreak is None
    at_99 = score("money: 87, sheep: 2, pastures: 2, huts: 1", "money: 50")
    assert row(at_99, "Ann")["total"] == 99 and at_99.details["game_ends"] is False


def test_ties_go_to_more_sheep_then_a_draw() -> None:
    by_sheep = score("money: 95, sheep: 1, pastures: 2", "money: 98, sheep: 0, pastures: 4")
    assert row(by_sheep, "Ann")["total"] == row(by_sheep, "Bob")["total"] == 102
    assert by_sheep.winners == ["Ann"] and by_sheep.tiebreak == "sheep"
    draw = score("money: 99, pastures: 1", "money: 99, pastures: 1")
    assert draw.winners == ["Ann", "Bob"] and draw.tiebreak == DRAW


def test_no_placement_ends_the_game_at_once_without_a_settlement() -> None:
    # 「誰かがダイスの出目にかかわらずユニットを一切置けなくなる…と、ゲームはただちに終了します」:
    # Bob's 4 sheep on 3 pastures would cost 5 and Ann's 3 huts would earn 6 in a settlement; none is paid.
    units = "sheep: 4, pastures: 3, huts: 1"
    result = score("money: 30, huts: 3", f"money: 31, {units}", extra="ending: no-placement\n")
    assert row(result, "Ann") == {"money": 30, "total": 30} and row(result, "Bob") == {
        "money": 31,
        "total": 31,
    }
    assert result.details == {"game_ends": True, "ending": "no-placement"}
    assert result.winners == ["Bob"] and "at once" in result.notes[0]
    settled = score("money: 30, huts: 3", f"money: 31, {units}")  # the same table at a settlement
    assert row(settled, "Ann")["total"] == 36 and row(settled, "Bob")["total"] == 29


def test_no_placement_tie_goes_to_more_sheep_then_a_draw() -> None:
    # 「同点のときは、羊がより多いプレイヤーの勝利です。羊も同じであれば引き分けです。」
    end = "ending: no-placement\n"
    assert score("money: 40, sheep: 2", "money: 40, sheep: 1", extra=end).winners == ["Ann"]
    draw = score("money: 40, sheep: 2", "money: 40, sheep: 2", extra=end)
    assert draw.winners == ["Ann", "Bob"] and draw.tiebreak == DRAW


def test_the_old_game_over_flag_is_refused() -> None:
    with pytest.raises(InputError, match="game_over"):
        score("money: 30", "money: 20", extra="game_over: true\n")


def test_impossible_inputs_are_rule_breaks() -> None:
    with pytest.raises(RulesBroken) as info:
        score("money: 100, sheep: -1", "huts: 0")
    assert info.value.report.codes() == {"money-out-of-play", "negative-count", "start-hut"}


def test_empty_game_keeps_the_starting_money_and_goes_on() -> None:
    text = "game: good-shepherds\nplayers: [{name: Ann}, {name: Bob}]\n"
    result = score_source(read_yaml_text(text, "settle.yaml"))
    assert [p.total for p in result.players] == [10, 10] and result.winners == []
    assert result.verdict == "No winner yet."


def test_two_players_only() -> None:
    text = "game: good-shepherds\nplayers: [{name: Ann}, {name: Bob}, {name: Cy}]\n"
    with pytest.raises(InputError, match="played by 2 players, not 3"):
        score_source(read_yaml_text(text, "settle.yaml"))


FARM = """\
game: good-shepherds
board: farm
units:
  - {at: [-1, 3], unit: hut, player: 1}
  - {at: [8, 3], unit: hut, player: 2}
  - {at: [0, 3], unit: pasture, player: 1}
  - {at: [1, 3], unit: pasture, player: 1}
  - {at: [3, 3], unit: sheep, player: 1}
  - {at: [2, 3], unit: pasture, player: 1, destroyed: true}
  - {at: [3, 1], unit: hut, player: 1}
  - {at: [7, 3], unit: pasture, player: 2}
  - {at: [5, 3], unit: sheep, player: 2}
  - {at: [6, 3], unit: pasture, player: 2, destroyed: true}
  - {at: [5, 4], unit: sheep, player: 2}
"""


def test_farm_board_state_is_counted(tmp_path: Path) -> None:
    (tmp_path / "farm.yaml").write_text(FARM, encoding="utf-8")
    (tmp_path / "score.yaml").write_text(
        "game: good-shepherds\nfarm: farm.yaml\n"
        "players:\n  - {name: Ann, money: 12}\n  - {name: Bob, money: 12}\n",
        encoding="utf-8",
    )
    result = score_file(tmp_path / "score.yaml")
    # Ann: 1 sheep, 2 live pastures (+5), 2 pastures (+2), 2 huts vs 1 (+3); Bob: 2 sheep, 1 pasture (-5), +1.
    assert row(result, "Ann") == {"money before": 12, "sheep": 5, "pastures": 2, "huts": 3, "total": 22}
    assert row(result, "Bob") == {"money before": 12, "sheep": -5, "pastures": 1, "huts": 0, "total": 8}


def test_inline_farm_with_a_live_pasture_beside_a_sheep_is_a_rule_break() -> None:
    inline = FARM.replace("game: good-shepherds\n", "").replace(", destroyed: true", "")
    body = "".join(f"  {line}\n" for line in inline.splitlines())
    text = f"game: good-shepherds\nfarm:\n{body}players: [{{name: Ann}}, {{name: Bob}}]\n"
    with pytest.raises(RulesBroken) as info:
        score_source(read_yaml_text(text, "settle.yaml"))
    assert "pasture-not-destroyed" in info.value.report.codes()


def test_farm_and_counts_together_are_malformed() -> None:
    text = "game: good-shepherds\nfarm: {units: []}\nplayers: [{name: Ann, sheep: 2}, {name: Bob}]\n"
    with pytest.raises(InputError, match="settle.yaml:3:30: sheep comes from the farm board"):
        score_source(read_yaml_text(text, "settle.yaml"))


# A strip of five cells: Ann's hut at the left end is boxed in by Bob's pasture, Bob still has room.
STRIP = """\
  board:
    start_huts: [{player: 1, at: [0, 0]}, {player: 2, at: [4, 0]}]
    cells: [{at: [0, 0]}, {at: [1, 0]}, {at: [2, 0]}, {at: [3, 0]}, {at: [4, 0]}]
  units:
    - {at: [0, 0], unit: hut, player: 1}
    - {at: [4, 0], unit: hut, player: 2}
    - {at: [1, 0], unit: pasture, player: 2}
"""


def test_no_placement_from_a_farm_board_needs_a_player_who_really_cannot_place() -> None:
    # 「誰かがダイスの出目にかかわらずユニットを一切置けなくなる」: Ann's only unit has no empty neighbour,
    # and every move starts through a neighbour, so no dice let her write anything.
    players = "players: [{name: Ann, money: 20}, {name: Bob, money: 15}]\n"
    text = f"game: good-shepherds\nending: no-placement\nfarm:\n{STRIP}{players}"
    result = score_source(read_yaml_text(text, "stuck.yaml"))
    assert result.winners == ["Ann"] and row(result, "Bob") == {"money": 15, "total": 15}
    free = STRIP.replace("    - {at: [1, 0], unit: pasture, player: 2}\n", "")
    with pytest.raises(RulesBroken) as info:
        score_source(
            read_yaml_text(f"game: good-shepherds\nending: no-placement\nfarm:\n{free}{players}", "f.yaml")
        )
    assert info.value.report.codes() == {"can-still-place"}
    assert "Ann at [1, 0]" in info.value.report.errors[0].message


def test_a_farm_named_outside_the_score_file_s_folder_is_refused_unread(tmp_path: Path) -> None:
    """A score file someone else wrote never makes pnpforge read other files (the long fuzz campaign
    found `farm: /etc/passwd` opened); a farm beside it, or below it, is read as before."""
    outside = tmp_path / "elsewhere" / "farm.yaml"
    outside.parent.mkdir()
    outside.write_text(FARM, encoding="utf-8")
    table = tmp_path / "table"
    (table / "boards").mkdir(parents=True)
    (table / "boards" / "farm.yaml").write_text(FARM, encoding="utf-8")
    final = table / "final.yaml"
    players = "players:\n  - {name: Ann, money: 12}\n  - {name: Bob, money: 12}\n"
    refused = r"final.yaml:2:7: set-up file .* is outside this score file's folder"
    for named in (str(outside), "../elsewhere/farm.yaml"):
        final.write_text(f"game: good-shepherds\nfarm: {named}\n{players}", encoding="utf-8")
        with pytest.raises(InputError, match=refused):
            score_file(final)
    final.write_text(f"game: good-shepherds\nfarm: boards/farm.yaml\n{players}", encoding="utf-8")
    assert row(score_file(final), "Ann")["total"] == 22  # as test_farm_board_state_is_counted
