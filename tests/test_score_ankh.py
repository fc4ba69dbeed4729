"""Ankh: a conflict region by region (dominance, battles, cards, the tie-break token) and the winner."""

from __future__ import annotations

from pathlib import Path

import pytest

from pnpforge.errors import InputError
from pnpforge.scoring import RulesBroken, ScoreResult
from pnpforge.sourcefile import read_yaml_text
from pnpforge.table.scorefile import score_file, score_source


def score(text: str) -> ScoreResult:
    return score_source(read_yaml_text("game: ankh\n" + text, "conflict.yaml"))


def gained(result: ScoreResult) -> dict[str, int]:
    return {p.name: int(p.total or 0) - p.breakdown["before"] for p in result.players}


THREE = "players: [{name: Isis, devotion: 5}, {name: Amun, devotion: 5}, {name: Ra, devotion: 5}]\n"


def test_seed_dominance_amun_gains_three_in_region_three() -> None:
    result = score(
        THREE + "regions:\n"
        "  - name: 3\n"
        "    gods:\n"
        "      Amun: {figures: 3, obelisk: 2, pyramid: 1}\n"
        "      Isis: {pyramid: 1, temple: 1}\n"  # a temple majority, but no figure there: nothing
    )
    assert gained(result) == {"Isis": 0, "Amun": 3, "Ra": 0}
    assert result.players[1].breakdown == {"before": 5, "region 3": 3}


def test_seed_battle_majorities_count_every_controller_present_or_not() -> None:
    result = score(
        THREE + "regions:\n"
        "  - name: 1\n"
        "    gods:\n"
        "      Isis: {figures: 3, pyramid: 2}\n"
        "      Amun: {figures: 1, temple: 1, pyramid: 1}\n"
        "      Ra: {temple: 1, obelisk: 1}\n"
    )
    # Isis: +2 for the pyramids and +1 for winning 3-1; Amun ties Ra's absent temple; Ra has no figure.
    assert gained(result) == {"Isis": 3, "Amun": 0, "Ra": 0}


def test_seed_battle_isis_wins_a_four_four_tie_with_the_token() -> None:
    result = score(
        "players: [{name: Isis, devotion: 4}, {name: Amun, devotion: 6}]\n"
        "tiebreak_token: Isis\n"
        "regions:\n"
        "  - name: 2\n"
        "    gods:\n"
        "      Isis: {figures: 4, fertile: 4, card: Flood}\n"
        "      Amun: {figures: 2, god: true, fertile: 2, card: Drought}\n"
    )
    assert gained(result) == {"Isis": 1, "Amun": 0}
    assert result.details["regions"][0]["strength"] == {"Isis": 4, "Amun": 4}
    assert result.details["tiebreak_token_used"] is True
    assert result.details["figures_lost"] == {"Isis": 0, "Amun": 1}  # Amun's warrior; gods are never killed
    assert result.details["followers_gained"] == {"Isis": 4, "Amun": 0}
    assert "tie-break token" in result.tables[0].rows[0][2]


def test_a_tie_without_the_token_kills_everyone_and_the_token_works_once() -> None:
    result = score(
        "players: [{name: Isis}, {name: Amun}]\ntiebreak_token: Isis\nregions:\n"
        "  - name: 1\n    gods:\n      Isis: {figures: 2, card: flood}\n"
        "      Amun: {figures: 2, god: true, card: flood}\n"
        "  - name: 2\n    gods:\n      Isis: {figures: 2, card: miracle}\n"
        "      Amun: {figures: 2, card: miracle}\n"
    )
    assert result.details["regions"][0]["result"].endswith("Isis wins with the tie-break token")
    assert "everyone loses" in result.details["regions"][1]["result"]
    # Region 1 kills Amun's warrior; region 2 kills all four, and Miracle pays 1 per figure killed there.
    assert result.details["figures_lost"] == {"Isis": 2, "Amun": 1 + 2}
    assert gained(result) == {"Isis": 1 + 4, "Amun": 4}


def test_drought_doubles_desert_figures_and_adds_its_strength() -> None:
    result = score(
        "players: [{name: Isis}, {name: Amun}]\nregions:\n  - name: 1\n    gods:\n"
        "      Isis: {figures: 5, card: flood}\n"
        "      Amun: {figures: 2, desert: 2, card: drought}\n"
    )
    assert result.details["regions"][0]["strength"] == {"Isis": 5, "Amun": 2 + 2 + 2}
    assert gained(result) == {"Isis": 0, "Amun": 1}


def test_plague_kills_all_but_the_highest_bidder_and_a_tied_bid_spares_nobody() -> None:
    region = (
        "players: [{name: Isis}, {name: Amun}, {name: Ra}]\nregions:\n  - name: 1\n    gods:\n"
        "      Isis: {figures: 3, card: plague of locusts, bid: %d}\n"
        "      Amun: {figures: 4, god: true, card: drought, bid: 0}\n"
        "      Ra: {figures: 1, card: miracle, bid: 2}\n"
    )
    won = score(region % 3)
    assert won.details["figures_lost"] == {"Isis": 0, "Amun": 3 + 0, "Ra": 1}
    # After the locusts: Isis 3 + 1 (card) against Amun's god 1 + 2: Isis wins; Ra's Miracle: 4 killed.
    assert gained(won) == {"Isis": 1, "Amun": 0, "Ra": 4}
    tied = score(region % 2)
    assert tied.details["figures_lost"] == {"Isis": 3, "Amun": 3, "Ra": 1}
    assert gained(tied) == {"Isis": 0, "Amun": 1, "Ra": 7}  # only Amun's god stands, and wins


def test_build_monument_counts_for_the_majority() -> None:
    result = score(
        "players: [{name: Isis}, {name: Amun}]\nregions:\n  - name: 1\n    gods:\n"
        "      Isis: {figures: 1, temple: 1, card: build monument, build: temple}\n"
        "      Amun: {figures: 3, temple: 1, card: flood}\n"
    )
    assert gained(result) == {"Isis": 2, "Amun": 1}


def test_devotion_track_stack_order_breaks_the_final_tie() -> None:
    text = (
        "players: [{name: Isis, devotion: 7}, {name: Amun, devotion: 7}, {name: Ra, devotion: 3}]\n"
        "stack: [%s]\nfinal: true\n"
    )
    assert score(text % "Amun, Isis").winners == ["Amun"]
    result = score(text % "Isis, Amun")
    assert result.winners == ["Isis"] and result.tiebreak == "stack order on the devotion track"


def test_a_god_arriving_on_a_space_goes_on_top() -> None:
    result = score(
        "players: [{name: Isis, devotion: 8}, {name: Amun, devotion: 7}]\nfinal: true\n"
        "regions:\n  - name: 1\n    gods:\n      Amun: {figures: 1}\n"
    )
    assert [p.total for p in result.players] == [8, 8] and result.winners == ["Amun"]


def test_reaching_the_top_wins_at_once() -> None:
    result = score(
        "players: [{name: Isis, devotion: 9}, {name: Amun, devotion: 9}]\ntop: 10\n"
        "regions:\n  - name: 1\n    gods: {Isis: {figures: 1}}\n  - name: 2\n    gods: {Amun: {figures: 1}}\n"
    )
    assert result.winners == ["Isis"] and gained(result) == {"Isis": 1, "Amun": 0}


def test_last_god_standing_and_nobody_left() -> None:
    last = score("players: [{name: Isis, forgotten: true}, {name: Amun}, {name: Ra, forgotten: true}]\n")
    assert last.winners == ["Amun"]
    nobody = score("players: [{name: Isis, forgotten: true}, {name: Amun, forgotten: true}]\n")
    assert nobody.winners == [] and nobody.verdict and "atheist" in nobody.verdict
    going_on = score("players: [{name: Isis}, {name: Amun}]\n")
    assert going_on.winners == []


def test_empty_regions_and_five_gods() -> None:
    result = score(
        "players: [{name: Isis}, {name: Amun}, {name: Ra}, {name: Osiris}, {name: Anubis}]\n"
        "regions: [{name: 1}, {name: 2, gods: {Ra: {obelisk: 3}}}]\n"
    )
    assert set(gained(result).values()) == {0}
    assert [row[1] for row in result.tables[0].rows] == ["empty", "empty"]


def test_rule_breaks() -> None:
    with pytest.raises(RulesBroken) as info:
        score(
            "players: [{name: Isis, used_cards: [drought]}, {name: Amun}]\nregions:\n"
            "  - name: 1\n    gods:\n"
            "      Isis: {figures: 1, desert: 2, card: drought, bid: 1}\n"
            "      Amun: {figures: 1, god: true, card: [flood, miracle]}\n"
            "  - name: 2\n    gods:\n"
            "      Isis: {card: flood, build: pyramid}\n"
            "      Amun: {figures: 2, god: true, card: [cycle of maat, miracle], obelisk: 11}\n"
        )
    assert info.value.report.codes() == {
        "card-already-used",
        "terrain-count",
        "bid-without-plague",
        "card-without-figures",
        "build-without-card",
        "god-figure",
        "two-cards",
        "too-many-monuments",
    }


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("players: [{name: Isis}, {name: Zeus}]\n", "unknown god 'Zeus'"),
        ("players: [{name: Isis}, {name: Amun}]\ntiebreak_token: Ra\n", "unknown god 'Ra'"),
        (
            "players: [{name: Isis}, {name: Amun}]\n"
            "regions: [{name: 1, gods: {Isis: {figures: 1, card: joker}}}]\n",
            "unknown battle card 'joker'",
        ),
        ("players: [{name: Isis}]\n", "ankh is played by 2–5 players, not 1"),
    ],
)
def test_malformed_input(text: str, expected: str) -> None:
    with pytest.raises(InputError, match=expected):
        score(text)


SETUP = """\
game: ankh
players: 3
map: bundled
seats:
  - {seat: 1, god: ra}
  - {seat: 2, god: amun}
  - {seat: 3, god: anubis}
conflict_order:
  - {token: 1, region: [0, 1]}
  - {token: 2, region: [5, 4]}
  - {token: 3, region: [1, 0]}
pieces:
  - {piece: god, at: [3, 3], player: 1}
  - {piece: warrior, at: [4, 2], player: 1}
  - {piece: temple, at: [4, 3], player: 1}
  - {piece: warrior, at: [3, 4], player: 2}
  - {piece: god, at: [6, 4], player: 2}
  - {piece: obelisk, at: [5, 4], player: 2}
  - {piece: god, at: [5, 0], player: 3}
  - {piece: pyramid, at: [4, 0], player: 3}
  - {piece: obelisk, at: [8, -3], player: null}
"""


def test_regions_figures_and_terrain_come_from_a_set_up_file(tmp_path: Path) -> None:
    (tmp_path / "board.yaml").write_text(SETUP, encoding="utf-8")
    (tmp_path / "conflict.yaml").write_text(
        "game: ankh\nsetup: board.yaml\ntiebreak_token: Ra\n"
        "players: [{name: Ra, devotion: 3}, {name: Amun, devotion: 2}, {name: Anubis, devotion: 1}]\n"
        "regions:\n  - name: 1\n    gods: {Amun: {card: drought}, Ra: {card: flood}}\n",
        encoding="utf-8",
    )
    result = score_file(tmp_path / "conflict.yaml")
    first = result.details["regions"][0]
    # West (token 1): Ra's god and warrior (2) vs Amun's warrior on desert [3, 4]: 1 + 1 (drought) + 2.
    assert first["kind"] == "battle" and first["strength"] == {"Ra": 2, "Amun": 4}
    assert gained(result) == {"Ra": 1, "Amun": 1 + 2, "Anubis": 2}  # Ra's temple; dominance with monuments
    assert result.details["figures_lost"] == {"Ra": 1, "Amun": 0, "Anubis": 0}


def test_set_up_regions_only_take_what_was_played(tmp_path: Path) -> None:
    (tmp_path / "board.yaml").write_text(SETUP, encoding="utf-8")
    (tmp_path / "conflict.yaml").write_text(
        "game: ankh\nsetup: board.yaml\nplayers: [{name: Ra}, {name: Amun}, {name: Anubis}]\n"
        "regions:\n  - name: 7\n  - name: 1\n    gods: {Ra: {figures: 9}}\n",
        encoding="utf-8",
    )
    with pytest.raises(InputError) as info:
        score_file(tmp_path / "conflict.yaml")
    assert "no region with conflict order token 7" in str(info.value)
    assert "figures come(s) from the set-up file" in str(info.value)
