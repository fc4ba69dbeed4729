"""Gods: villages 3, VP cards 2, +4 to every player tied for most temples; ties on points by crystals."""

from __future__ import annotations

import pytest

from pnpforge.errors import InputError
from pnpforge.scoring import DRAW, RulesBroken, ScoreResult
from pnpforge.sourcefile import read_yaml_text
from pnpforge.table.scorefile import score_source


def score(text: str) -> ScoreResult:
    return score_source(read_yaml_text("game: gods\n" + text, "final.yaml"))


def broken(text: str) -> set[str]:
    with pytest.raises(RulesBroken) as info:
        score(text)
    return info.value.report.codes()


def totals(result: ScoreResult) -> dict[str, int]:
    return {p.name: int(p.total or 0) for p in result.players}


def test_points_and_temple_bonus_for_everyone_tied_for_most() -> None:
    result = score(
        "players:\n"
        "  - {name: Ann, villages: {red: 1, blue: 1}, vp_cards: {red: 1, blue: 1}, temples: 4, crystals: 5}\n"
        "  - {name: Bob, villages: 1, vp_cards: 3, temples: 4, crystals: 2}\n"
        "  - {name: Cy, villages: 1, vp_cards: 1, temples: 3, crystals: 12}\n"
    )
    assert totals(result) == {"Ann": 6 + 4 + 4, "Bob": 3 + 6 + 4, "Cy": 3 + 2}
    ann = result.players[0]
    assert ann.breakdown == {"villages": 6, "VP cards": 4, "temple bonus": 4}
    assert result.winners == ["Ann"] and result.tiebreak is None


def test_tie_on_points_goes_to_more_crystals_then_a_draw() -> None:
    tied = (
        "players:\n"
        "  - {name: Ann, villages: 2, temples: 2, crystals: %d}\n"
        "  - {name: Bob, villages: 2, temples: 2, crystals: 4}\n"
    )
    result = score(tied % 5)
    assert result.winners == ["Ann"] and result.tiebreak == "crystals"
    result = score(tied % 4)
    assert result.winners == ["Ann", "Bob"] and result.tiebreak == DRAW


def test_empty_game_nobody_built_the_most_of_no_temples() -> None:
    result = score("players: [{name: Ann}, {name: Bob}]\n")
    assert totals(result) == {"Ann": 0, "Bob": 0}
    assert result.winners == ["Ann", "Bob"] and result.tiebreak == DRAW


def test_maximum_values_are_accepted() -> None:
    players = "\n".join(
        f"  - {{name: P{i}, villages: {{{c}: 2}}, vp_cards: {{{c}: 3}}, temples: 6, crystals: 12}}"
        for i, c in enumerate(["red", "blue", "green", "yellow"])
    )
    result = score("players:\n" + players + "\n")
    assert set(totals(result).values()) == {6 + 6 + 4}
    assert len(result.winners) == 4 and result.tiebreak == DRAW


def test_impossible_counts_are_rule_breaks() -> None:
    assert broken("players:\n  - {name: Ann, villages: {red: 2}}\n  - {name: Bob, villages: {red: 1}}\n") == {
        "too-many-village-cards"
    }
    assert broken("players:\n  - {name: Ann, vp_cards: {blue: 4}}\n  - {name: Bob}\n") == {
        "too-many-vp-cards"
    }
    assert broken("players:\n  - {name: Ann, villages: 5}\n  - {name: Bob, villages: 4}\n") == {
        "too-many-village-cards"
    }
    assert broken("players:\n  - {name: Ann, vp_cards: 7}\n  - {name: Bob, vp_cards: 6}\n") == {
        "too-many-vp-cards"
    }
    assert broken("players:\n  - {name: Ann, temples: 7, crystals: 13}\n  - {name: Bob}\n") == {
        "too-many-temples",
        "too-many-crystals",
    }
    assert broken("players:\n  - {name: Ann, villages: -1}\n  - {name: Bob}\n") == {"negative-count"}


def test_rule_breaks_point_at_the_line() -> None:
    with pytest.raises(RulesBroken) as info:
        score("players:\n  - {name: Ann}\n  - {name: Bob, crystals: 13}\n")
    (violation,) = info.value.report.errors
    assert violation.where == "final.yaml:4:27" and "13" in violation.message


@pytest.mark.parametrize(
    ("players", "expected"),
    [
        ("[{name: Ann, villages: 2.5}, {name: Bob}]", "final.yaml:2:33: expected a whole number"),
        ("[{name: Ann, villages: {purple: 1}}, {name: Bob}]", "unknown colour 'purple'"),
        ("[{name: Ann}, {name: Ann}]", "player 'Ann' is listed twice"),
        ("[{name: Ann}]", "gods is played by 2–4 players, not 1"),
        (
            "[{name: Ann, sheep: 2}, {name: Bob}]",
            "unknown key 'sheep' for gods: it is a field of good-shepherds",
        ),
    ],
)
def test_malformed_input_is_located(players: str, expected: str) -> None:
    with pytest.raises(InputError) as info:
        score(f"players: {players}\n")
    assert expected in str(info.value)
