"""The score sheet engine: ranking with tie-breaks, the table and JSON renderers, the prompt driver."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from pnpforge.errors import InputError
from pnpforge.scoring import DRAW, Field, PlayerScore, ScoreResult, Table, TieBreak, rank
from pnpforge.scoring.prompts import interview
from pnpforge.scoring.render import as_json, grid, text, verdict


def test_total_alone_decides() -> None:
    ranking = rank({"a": 3, "b": 5, "c": 1}, [TieBreak.by("x", {"a": 9, "b": 0, "c": 9})])
    assert ranking.winners == ["b"] and ranking.tiebreak is None
    assert ranking.places == {"b": 1, "a": 2, "c": 3}


def test_tie_breaks_apply_in_order_and_name_the_deciding_one() -> None:
    first = TieBreak.by("crystals", {"a": 2, "b": 2, "c": 1})
    second = TieBreak.by("sheep", {"a": 1, "b": 4, "c": 9})
    ranking = rank({"a": 5, "b": 5, "c": 5}, [first, second])
    assert ranking.winners == ["b"] and ranking.tiebreak == "sheep"
    assert ranking.tried == ["crystals", "sheep"]
    assert ranking.places == {"b": 1, "a": 2, "c": 3}


def test_unbroken_tie_is_a_draw_with_shared_places() -> None:
    ranking = rank({"a": 5, "b": 5, "c": 2}, [TieBreak.by("x", {"a": 1, "b": 1, "c": 0})])
    assert ranking.winners == ["a", "b"] and ranking.tiebreak == DRAW
    assert ranking.places == {"a": 1, "b": 1, "c": 3}
    assert rank({"a": 0, "b": 0}).tiebreak == DRAW


def test_only_eligible_players_can_win() -> None:
    ranking = rank(
        {"a": 9, "b": 5, "c": 5}, [TieBreak.by("x", {"a": 0, "b": 1, "c": 2})], eligible=["b", "c"]
    )
    assert ranking.winners == ["c"] and ranking.tiebreak == "x"
    assert ranking.places["a"] == 3
    assert rank({"a": 1}, eligible=[]).winners == []


@settings(max_examples=60, deadline=None)
@given(
    st.dictionaries(
        st.text("abcdef", min_size=1, max_size=3),
        st.tuples(st.integers(-5, 5), st.integers(0, 3)),
        min_size=1,
        max_size=6,
    )
)
def test_winners_hold_the_best_total_and_order_does_not_matter(scores: dict[str, tuple[int, int]]) -> None:
    totals = {name: total for name, (total, _) in scores.items()}
    extra = {name: x for name, (_, x) in scores.items()}
    ranking = rank(totals, [TieBreak.by("x", extra)])
    best = max(totals.values())
    assert all(totals[w] == best for w in ranking.winners)
    assert len({extra[w] for w in ranking.winners}) == 1
    assert (ranking.tiebreak == DRAW) == (len(ranking.winners) > 1)
    backwards = rank(dict(reversed(list(totals.items()))), [TieBreak.by("x", extra)])
    assert set(backwards.winners) == set(ranking.winners) and backwards.places == ranking.places
    assert all(ranking.places[w] == 1 for w in ranking.winners)


def sample() -> ScoreResult:
    players = [
        PlayerScore("アン", {"villages": 6, "VP cards": 4}, info={"crystals": 3}),
        PlayerScore("Bob", {"villages": 6, "VP cards": 4}, info={"crystals": 5}),
    ]
    crystals = {"アン": 3, "Bob": 5}
    table = Table("Extra", ["player", "note"], [["Bob", "ok"]])
    return ScoreResult.ranked("gods", players, [TieBreak.by("crystals", crystals)], tables=[table])


def test_table_lines_up_wide_names_and_says_what_decided() -> None:
    out = text(sample())
    lines = out.splitlines()
    header = next(line for line in lines if line.startswith("#"))
    assert header.split() == ["#", "player", "villages", "VP", "cards", "total", "crystals"]
    rows = [line for line in lines if line[:1].isdigit()]
    assert rows[0].startswith("1  Bob ") and rows[1].startswith("2  アン")
    assert len(rows[0]) == len(rows[1]) + 2  # the two wide characters take two columns each
    assert "Winner: Bob (tied on 10; decided by crystals)." in out
    assert out.rstrip().endswith("Bob     ok")


def test_json_has_the_contract_shape() -> None:
    data = json.loads(as_json(sample()))
    assert list(data)[:4] == ["game", "players", "winners", "tiebreak"]
    assert data["players"][0] == {"name": "アン", "total": 10, "breakdown": {"villages": 6, "VP cards": 4}}
    assert data["winners"] == ["Bob"] and data["tiebreak"] == "crystals"


def test_verdicts() -> None:
    result = sample()
    result.winners, result.tiebreak, result.tried = ["アン", "Bob"], DRAW, ["crystals"]
    assert verdict(result) == "Draw: アン and Bob share the win (tied on 10; crystals did not separate them)."
    result.winners = []
    assert verdict(result) == "No winner."
    result.verdict = "No winner yet."
    assert verdict(result) == "No winner yet."


def test_grid_right_aligns_numbers_only() -> None:
    assert grid(["a", "n"], [["x", 5], ["yy", 10]]) == ["a    n", "x    5", "yy  10"]


FIELDS = [
    Field("final", "last event", "rule", kind="bool", per_player=False),
    Field("villages", "villages", "3 points each"),
    Field("cards.red", "red cards", "2 each"),
    Field("gens", "generations", "one per slot", kind="ints", size=3),
]


def test_interview_builds_score_file_data_from_piped_answers() -> None:
    runner = CliRunner()
    answers = "2\ny\nAnn\n2\n1\n1 2 3\n\n4\n0\n0,0,1\n"
    with runner.isolation(input=answers) as (_, err, *_rest):
        data = interview("gods", "Gods", (2, 4), FIELDS)
        shown = err.getvalue().decode()
    assert data == {
        "game": "gods",
        "final": True,
        "players": [
            {"name": "Ann", "villages": 2, "cards": {"red": 1}, "gens": [1, 2, 3]},
            {"name": "Player 2", "villages": 4, "cards": {"red": 0}, "gens": [0, 0, 1]},
        ],
    }
    assert "Ann: villages (3 points each)" in shown and "Player 2: villages:" in shown


def test_interview_reports_answers_that_run_out() -> None:
    with CliRunner().isolation(input="2\nn\nAnn\n"), pytest.raises(InputError, match="answers ended"):
        interview("gods", "Gods", (2, 4), FIELDS)
