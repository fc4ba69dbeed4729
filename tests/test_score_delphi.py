"""The Oracle of Delphi: finished players win, ties by oracle cards, then favour tokens, then shared."""

from __future__ import annotations

import pytest

from pnpforge.errors import InputError
from pnpforge.scoring import DRAW, RulesBroken, ScoreResult
from pnpforge.sourcefile import read_yaml_text
from pnpforge.table.scorefile import score_source

DONE = "shrine: 3, statue: 3, offering: 3, monster: 3, zeus: true"


def score(*players: str, tasks: int | None = None) -> ScoreResult:
    head = "game: delphi\n" + (f"tasks: {tasks}\n" if tasks is not None else "")
    body = "".join(f"  - {{name: P{i + 1}, {p}}}\n" for i, p in enumerate(players))
    return score_source(read_yaml_text(head + "players:\n" + body, "end.yaml"))


def test_the_only_player_who_finished_and_reached_zeus_wins() -> None:
    result = score(
        DONE + ", oracle_cards: 0", "shrine: 3, statue: 3, offering: 3, monster: 2, oracle_cards: 5"
    )
    assert result.winners == ["P1"] and result.tiebreak is None
    progress = result.tables[0]
    assert progress.rows[1][1:6] == ["3/3", "3/3", "3/3", "2/3", 1]


def test_ties_by_oracle_cards_then_favour_then_a_shared_win() -> None:
    by_oracle = score(DONE + ", oracle_cards: 2", DONE + ", oracle_cards: 3", DONE + ", oracle_cards: 3")
    assert by_oracle.winners == ["P2", "P3"]
    assert by_oracle.tiebreak == DRAW  # P2 and P3 tie on oracle cards and favour (0)
    by_favour = score(DONE + ", oracle_cards: 3, favour: 1", DONE + ", oracle_cards: 3, favour: 4")
    assert by_favour.winners == ["P2"] and by_favour.tiebreak == "favour tokens"
    by_cards = score(DONE + ", oracle_cards: 4, favour: 0", DONE + ", oracle_cards: 3, favour: 9")
    assert by_cards.winners == ["P1"] and by_cards.tiebreak == "oracle cards"
    shared = score(DONE + ", oracle_cards: 1, favour: 2", DONE + ", oracle_cards: 1, favour: 2")
    assert shared.winners == ["P1", "P2"] and shared.tiebreak == DRAW
    assert shared.tried == ["oracle cards", "favour tokens"]


def test_nobody_finished_means_no_winner_yet() -> None:
    result = score("shrine: 1", "monster: 3, oracle_cards: 9")
    assert result.winners == [] and result.verdict and "No winner yet" in result.verdict


def test_short_game_needs_two_of_each_kind() -> None:
    short = "shrine: 2, statue: 2, offering: 2, monster: 2, zeus: true"
    result = score(short, "shrine: 2, statue: 2, offering: 2, monster: 1", tasks=8)
    assert result.winners == ["P1"] and result.details["required"] == dict.fromkeys(
        ("shrine", "statue", "offering", "monster"), 2
    )


def test_fewer_than_four_removed_go_statue_shrine_monster_offering() -> None:
    result = score("statue: 2, shrine: 2, monster: 3, offering: 3, zeus: true", "shrine: 1", tasks=10)
    assert result.details["required"] == {"shrine": 2, "statue": 2, "offering": 3, "monster": 3}
    assert result.winners == ["P1"]


def test_four_players_at_most_values() -> None:
    result = score(*[DONE + ", oracle_cards: 7, favour: 6"] * 4)
    assert len(result.winners) == 4 and result.tiebreak == DRAW


def test_impossible_inputs_are_rule_breaks() -> None:
    with pytest.raises(RulesBroken) as info:
        score("shrine: 4, favour: -1", "monster: 2, zeus: true")
    assert info.value.report.codes() == {"too-many-tasks", "negative-count", "zeus-before-tasks"}
    with pytest.raises(RulesBroken) as info:
        score("shrine: 1", "shrine: 1", tasks=13)
    assert info.value.report.codes() == {"task-count"}


@pytest.mark.parametrize(
    ("players", "expected"),
    [
        (["zeus: maybe", "shrine: 1"], "expected true or false"),
        (["shrine: '2'", "shrine: 1"], "expected a whole number"),
        (["shrine: 1"] * 5, "delphi is played by 2–4 players, not 5"),
    ],
)
def test_malformed_input(players: list[str], expected: str) -> None:
    with pytest.raises(InputError, match=expected):
        score(*players)
