"""Quo Vadis: the generation-change settlement and the final scoring, numbers from game.yaml's `scoring:`."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnpforge import catalog
from pnpforge.cli import main
from pnpforge.errors import InputError
from pnpforge.scoring import RulesBroken, ScoreResult
from pnpforge.sourcefile import read_yaml_text
from pnpforge.table.scorefile import score_file, score_source

# Ten cards each (one per round), spread so every player wins exactly one generation (+4 each).
BALANCED = [
    [10, 0, 0, 0, 0, 0],
    [5, 5, 0, 0, 0, 0],
    [4, 3, 3, 0, 0, 0],
    [3, 3, 2, 2, 0, 0],
    [1, 1, 1, 1, 6, 0],
]


def score(text: str) -> ScoreResult:
    """Score `text`; a final score needs 10 cards per player, so players left without get BALANCED."""
    source = read_yaml_text("game: quo-vadis\n" + text, "qv.yaml")
    if "settlement" not in source.data and isinstance(source.data.get("players"), list):
        for index, player in enumerate(source.data["players"]):
            if isinstance(player, dict):
                player.setdefault("generations", BALANCED[index])
    return score_source(source)


def breakdown(result: ScoreResult, name: str) -> dict[str, int]:
    return next(p.breakdown for p in result.players if p.name == name)


def test_seed_settlement_example_four_cards_times_five_areas() -> None:
    result = score(
        "players: [{name: Ann}, {name: Bob}, {name: Cy}]\nsettlement: {player: Ann, cards: 4, areas: 5}\n"
    )
    assert breakdown(result, "Ann") == {"settlement": 20}
    assert result.winners == [] and "4 cards × 5 areas = 20 VP" in result.notes[0]


def test_a_settlement_without_its_player_is_located_not_an_internal_error() -> None:
    """`player: null` names no one: refused at its place as the Python rules did (the fuzz campaign's
    seed 28 found it raising KeyError inside the data sheet's note)."""
    with pytest.raises(InputError, match=r"qv.yaml:3:14: expected a player name \(text\) \(got None\)"):
        score(
            "players: [{name: Ann}, {name: Bob}, {name: Cy}]\n"
            "settlement: {player: null, cards: 4, areas: 5}\n"
        )


@pytest.mark.parametrize(("areas", "vp"), [(0, 0), (3, 0), (4, 3), (5, 6), (6, 9), (7, 12), (9, 12)])
def test_territory_bonus_boundaries(areas: int, vp: int) -> None:
    result = score(f"players: [{{name: Ann, territory: {areas}}}, {{name: Bob}}, {{name: Cy}}]\n")
    assert breakdown(result, "Ann")["territory"] == vp


def test_the_numbers_are_the_game_s_data(tmp_path: Path) -> None:
    """The designer edits game.yaml, not code: a copy with another territory table scores by it at once."""
    game = tmp_path / "games" / "qv-draft"
    shutil.copytree(catalog.BUNDLED_DIR / "quo-vadis", game, ignore=shutil.ignore_patterns("__pycache__"))
    spec = game / "game.yaml"
    table = "territory_vp: {0: 0, 1: 0, 2: 0, 3: 0, 4: 3,"
    assert spec.read_text(encoding="utf-8").count(table) == 1
    spec.write_text(
        spec.read_text(encoding="utf-8").replace(table, "territory_vp: {0: 0, 1: 0, 2: 5, 3: 5, 4: 5,"),
        encoding="utf-8",
    )
    path = tmp_path / "end.yaml"
    players = (
        "players:\n  - {name: Ann, territory: 2, generations: [10, 0, 0, 0, 0, 0]}\n"
        "  - {name: Bob, generations: [5, 5, 0, 0, 0, 0]}\n  - {name: Cy, generations: [4, 3, 3, 0, 0, 0]}\n"
    )
    rows = {}
    for id in ("qv-draft", "quo-vadis"):
        path.write_text(f"game: {id}\n{players}", encoding="utf-8")
        result = CliRunner().invoke(
            main, ["--games-dir", str(tmp_path / "games"), "score", str(path), "--json"]
        )
        assert result.exit_code == 0, result.output
        rows[id] = {p["name"]: p["breakdown"]["territory"] for p in json.loads(result.stdout)["players"]}
    assert rows == {"qv-draft": {"Ann": 5, "Bob": 0, "Cy": 0}, "quo-vadis": {"Ann": 0, "Bob": 0, "Cy": 0}}


def test_final_items_and_generation_bonus_ties_go_clockwise_from_the_start() -> None:
    result = score(
        "start_player: Bob\n"
        "players:\n"
        "  - {name: Ann, vp: 40, towns: 2, aptitude_workers: 3, territory: 4,"
        " generations: [3, 2, 2, 2, 1, 0]}\n"
        "  - {name: Bob, vp: 41, towns: 2, aptitude_workers: 3, territory: 4,"
        " generations: [3, 3, 2, 1, 1, 0]}\n"
        "  - {name: Cy, vp: 30, towns: 1, aptitude_workers: 3, territory: 7, generations: [1, 1, 1, 1, 1, 5],"
        " skills: 2}\n"
    )
    # Generations: 1 tie Ann/Bob -> Bob (start); 2 Bob; 3 tie -> Bob; 4 Ann; 5 three-way tie -> Bob; 6 Cy.
    assert breakdown(result, "Bob") == {
        "VP tokens": 41,
        "towns": 6,
        "aptitude": 3,
        "territory": 3,
        "generations": 16,
        "skills": 0,
    }
    assert breakdown(result, "Ann")["generations"] == 4 and breakdown(result, "Cy")["generations"] == 4
    assert breakdown(result, "Cy")["skills"] == 2
    assert result.winners == ["Bob"]


def test_tie_on_points_goes_to_the_first_clockwise_from_the_start_player() -> None:
    players = "players: [{name: Ann, vp: 10}, {name: Bob, vp: 12}, {name: Cy, vp: 12}]\n"
    assert score(players).winners == ["Bob"]  # start player defaults to the first listed
    result = score("start_player: Cy\n" + players)
    assert result.winners == ["Cy"] and result.tiebreak == "seat order from the start player"
    assert score("start_player: Ann\n" + players).winners == ["Bob"]


def test_empty_game_scores_zero_and_the_start_player_wins_the_tie() -> None:
    result = score("players: [{name: Ann}, {name: Bob}, {name: Cy}, {name: Di}, {name: Ed}]\n")
    assert all(p.total == 4 for p in result.players)  # only the generation bonus, one each
    assert result.winners == ["Ann"]


def test_impossible_inputs_are_rule_breaks() -> None:
    with pytest.raises(RulesBroken) as info:
        score(
            "players:\n"
            "  - {name: Ann, towns: 6, aptitude_workers: 11, territory: 11,"
            " generations: [2, 0, 1, 0, 0, 0]}\n"
            "  - {name: Bob, vp: -1, generations: [3, 3, 3, 2, 0, 0]}\n"
            "  - {name: Cy}\n"
        )
    assert info.value.report.codes() == {
        "too-many-towns",
        "too-many-workers",
        "territory-too-large",
        "generation-gap",
        "negative-count",
        "too-many-cards",
        "too-few-cards",  # Ann placed 3 of her 10 cards
    }


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("players: [{name: Ann, generations: [1, 2]}, {name: Bob}, {name: Cy}]", "give 6 numbers"),
        ("start_player: Zed\nplayers: [{name: Ann}, {name: Bob}, {name: Cy}]", "unknown player 'Zed'"),
        ("players: [{name: Ann}, {name: Bob}]", "quo-vadis is played by 3–5 players, not 2"),
        (
            "players: [{name: Ann}, {name: Bob}, {name: Cy}]\nsettlement: {player: Ann, cards: 4}",
            "missing key",
        ),
        ("players: [{name: Ann, crystals: 2}, {name: Bob}, {name: Cy}]", "it is a field of gods"),
    ],
)
def test_malformed_input(text: str, expected: str) -> None:
    with pytest.raises(InputError, match=expected):
        score(text + "\n")


MAP = """\
game: quo-vadis
players: 3
centre: [0, 0]
map:
  - {tile: a2-5, at: [0, 0], rotation: 0}
  - {tile: a3-5, at: [-1, 1], rotation: 3}
  - {tile: a4-5, at: [0, 1], rotation: 3}
  - {tile: a3-4, at: [1, 0], rotation: 4}
  - {tile: a2-4, at: [1, -1], rotation: 0}
  - {tile: a1-5, at: [0, -1], rotation: 5}
  - {tile: a1-2, at: [-1, 0], rotation: 3}
  - {tile: a2-3, at: [1, 1], rotation: 2}
  - {tile: a1-3, at: [-1, 2], rotation: 5}
  - {tile: a1-4, at: [1, -2], rotation: 1}
"""


def test_control_territory_and_aptitude_from_a_map(tmp_path: Path) -> None:
    (tmp_path / "map.yaml").write_text(MAP, encoding="utf-8")
    (tmp_path / "end.yaml").write_text(
        "game: quo-vadis\nmap: map.yaml\nterrain_tokens: {a2-5: plains}\nplayers:\n"
        # two workers each in a2-5, a3-5, a4-5, a3-4 and a town in a2-4: five areas in one group
        "  - {name: Ann, race: plains, workers: [a2-5.0, a2-5.1, a3-5.0, a3-5.1, a4-5.0, a4-5.2, a3-4.0,"
        " a3-4.1], towns: [a2-4.0], generations: [10, 0, 0, 0, 0, 0]}\n"
        "  - {name: Bob, race: sea, workers: [a1-2.0, a1-2.1, a1-3.0], generations: [5, 5, 0, 0, 0, 0]}\n"
        "  - {name: Cy, generations: [4, 3, 3, 0, 0, 0]}\n",
        encoding="utf-8",
    )
    result = score_file(tmp_path / "end.yaml")
    ann = breakdown(result, "Ann")
    assert ann["towns"] == 3 and ann["territory"] == 6  # 5 areas in one group
    assert ann["aptitude"] == 3  # a2-5's two spaces turned to plains by the token, plus a3-4.0 (plains)
    control = result.tables[0]
    assert control.rows[0][:2] == ["Ann", 5] and control.rows[1][:2] == ["Bob", 1]
    settlement = tmp_path / "settle.yaml"
    settlement.write_text(
        "game: quo-vadis\nmap: map.yaml\nsettlement: {player: Ann, cards: 4}\nplayers:\n"
        "  - {name: Ann, workers: [a2-5.0, a2-5.1], towns: [a1-3.0], race: sea}\n"
        "  - {name: Bob}\n  - {name: Cy}\n",
        encoding="utf-8",
    )
    assert breakdown(score_file(settlement), "Ann") == {"settlement": 8}  # 4 cards × 2 areas


def test_map_inputs_are_checked(tmp_path: Path) -> None:
    (tmp_path / "map.yaml").write_text(MAP, encoding="utf-8")
    bad = tmp_path / "bad.yaml"
    bad.write_text(
        "game: quo-vadis\nmap: map.yaml\nplayers:\n"
        "  - {name: Ann, race: plains, workers: [a9-9.0], territory: 3}\n  - {name: Bob}\n  - {name: Cy}\n",
        encoding="utf-8",
    )
    with pytest.raises(InputError) as info:
        score_file(bad)
    text = str(info.value)
    assert "no space 'a9-9.0' on the map" in text and "counted from the map" in text
    stacked = tmp_path / "stacked.yaml"
    stacked.write_text(
        "game: quo-vadis\nmap: map.yaml\nplayers:\n"
        "  - {name: Ann, race: plains, workers: [a2-5.0, a2-5.0], towns: [a2-4.0]}\n"
        "  - {name: Bob, towns: [a2-4.0]}\n  - {name: Cy}\n",
        encoding="utf-8",
    )
    with pytest.raises(RulesBroken) as broken:
        score_file(stacked)
    assert broken.value.report.codes() == {"worker-stacked", "town-stacked"}


def test_a_final_score_has_exactly_one_card_per_round() -> None:
    # 「好きな手札1枚を、各自の【世代置き場】へ表向きに配置します」 each turn, and
    # 「10ラウンド目が終わったら最終決算を行いゲーム終了となります」: ten cards, no fewer, no more.
    others = (
        "  - {name: Bob, generations: [5, 5, 0, 0, 0, 0]}\n  - {name: Cy, generations: [4, 3, 3, 0, 0, 0]}\n"
    )
    assert score(f"players:\n  - {{name: Ann, generations: [10, 0, 0, 0, 0, 0]}}\n{others}").winners
    for cards, code in (("[9, 0, 0, 0, 0, 0]", "too-few-cards"), ("[6, 5, 0, 0, 0, 0]", "too-many-cards")):
        with pytest.raises(RulesBroken) as info:
            score(f"players:\n  - {{name: Ann, generations: {cards}}}\n{others}")
        assert info.value.report.codes() == {code}
        assert "qv.yaml:3:" in info.value.report.errors[0].where  # at Ann's generations


def test_a_settlement_needs_no_ten_cards() -> None:
    result = score(
        "players: [{name: Ann}, {name: Bob}, {name: Cy}]\nsettlement: {player: Ann, cards: 2, areas: 1}\n"
    )
    assert breakdown(result, "Ann") == {"settlement": 2}


def test_destroyed_towns_earn_nothing_but_count_against_the_five_tokens() -> None:
    # 「破壊されていないタウン1つにつき3VP」; a destroyed town is turned face down and stays on the
    # board (「裏面は破壊された状態を表します」): it still uses one of the race's 5 town tokens.
    result = score("players: [{name: Ann, towns: 2, destroyed_towns: 3}, {name: Bob}, {name: Cy}]\n")
    assert breakdown(result, "Ann")["towns"] == 6
    with pytest.raises(RulesBroken) as info:
        score("players: [{name: Ann, towns: 3, destroyed_towns: 3}, {name: Bob}, {name: Cy}]\n")
    assert info.value.report.codes() == {"too-many-towns"}


def test_destroyed_towns_on_a_map_stay_on_their_space(tmp_path: Path) -> None:
    (tmp_path / "map.yaml").write_text(MAP, encoding="utf-8")
    end = tmp_path / "end.yaml"
    gens = ", generations: [10, 0, 0, 0, 0, 0]"
    # 「破壊されていたら、再建されるまでこの効果は失われます」: Ann's destroyed town in a1-3 gives no control.
    end.write_text(
        "game: quo-vadis\nmap: map.yaml\nplayers:\n"
        "  - {name: Ann, race: sea, workers: [a2-5.0, a2-5.1], towns: [a2-4.0],"
        f" destroyed_towns: [a1-3.0]{gens}}}\n"
        f"  - {{name: Bob{gens}}}\n  - {{name: Cy{gens}}}\n",
        encoding="utf-8",
    )
    result = score_file(end)
    assert result.tables[0].rows[0][:3] == ["Ann", 2, "a2-4, a2-5"] and breakdown(result, "Ann")["towns"] == 3
    # 「タウンは1つのマスに2つ配置できません。…破壊されたタウンであっても配置できません」, and a worker on
    # your own destroyed town rebuilds it (タウンの再建), so neither can stand at the end.
    end.write_text(
        "game: quo-vadis\nmap: map.yaml\nplayers:\n"
        f"  - {{name: Ann, race: sea, workers: [a1-3.0], destroyed_towns: [a1-3.0, a2-4.0]{gens}}}\n"
        f"  - {{name: Bob, towns: [a2-4.0]{gens}}}\n  - {{name: Cy{gens}}}\n",
        encoding="utf-8",
    )
    with pytest.raises(RulesBroken) as info:
        score_file(end)
    assert info.value.report.codes() == {"town-stacked", "town-not-rebuilt"}
