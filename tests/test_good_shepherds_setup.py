"""Good Shepherds farm states: board data, each violation code with its legal twin, bad input, dealer."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from pnpforge import contract
from pnpforge.cli import main
from pnpforge.geometry import hexgrid
from pnpforge.sourcefile import Source
from pnpforge.table.setupfile import check_text, deal_setup, dump_yaml, load_source
from pnpforge.validator.report import Report

checks: Any = contract.load("good-shepherds").module("checks")
LEFT, RIGHT = [-1, 3], [8, 3]


def report_of(data: dict[str, Any]) -> Report:
    return check_text(dump_yaml(data), "farm-state.yaml")


def state(*units: dict[str, Any]) -> dict[str, Any]:
    huts = [u(LEFT, "hut", 1), u(RIGHT, "hut", 2)]
    return {"game": "good-shepherds", "players": 2, "board": "farm", "units": [*huts, *units]}


def u(at: list[int], unit: str, player: int = 1, destroyed: bool = False) -> dict[str, Any]:
    return {"at": at, "unit": unit, "player": player} | ({"destroyed": True} if destroyed else {})


def test_farm_board_is_11_by_7_with_huts_mid_left_and_right() -> None:
    farm = checks.load_farm()
    cells = {c.at for c in farm.cells}
    assert len(cells) == 74 and {r for _, r in cells} == set(range(7))
    for r in range(7):  # odd rows sit half a cell right and hold one cell less: a mirror-symmetric board
        assert len([c for c in cells if c[1] == r]) == (11 if r % 2 == 0 else 10)
    row3 = sorted(q for q, r in cells if r == 3)
    assert [list(h.at) for h in farm.start_huts] == [[row3[0], 3], [row3[-1], 3]]


def _within(cells: set[tuple[int, int]], start: tuple[int, int], steps: int) -> int:
    """How many board cells (besides `start`) a walk of at most `steps` steps over the board reaches."""
    seen, edge = {start}, {start}
    for _ in range(steps):
        edge = {n for c in edge for n in hexgrid.neighbours(c) if n in cells} - seen
        seen |= edge
    return len(seen) - 1


def test_both_starting_huts_have_the_same_surroundings() -> None:
    farm = checks.load_farm()
    cells = {c.at for c in farm.cells}
    left, right = (tuple(h.at) for h in sorted(farm.start_huts, key=lambda h: h.player))
    counts = [[_within(cells, hut, k) for k in (1, 2, 3)] for hut in (left, right)]
    assert counts[0] == counts[1] == [5, 12, 23]
    dealt = deal_setup("good-shepherds", 2, 0, {})  # the dealer and the validator use the same places
    assert [x["at"] for x in dealt["units"]] == [list(left), list(right)]
    assert report_of(dealt).valid


def test_dealt_board_is_legal_for_200_seeds_and_always_the_same() -> None:
    first = deal_setup("good-shepherds", 2, 0, {})
    for seed in range(200):
        data = deal_setup("good-shepherds", 2, seed, {})
        assert data == first
    assert report_of(first).valid
    assert [x["unit"] for x in first["units"]] == ["hut", "hut"]


def test_cell_occupied() -> None:
    assert report_of(state(u([0, 3], "sheep"))).valid
    report = report_of(state(u([0, 3], "sheep"), u([0, 3], "sheep", 2)))
    assert report.codes() == {"cell-occupied"}


def test_hut_adjacent() -> None:
    assert report_of(state(u([1, 3], "hut"))).valid
    report = report_of(state(u([0, 3], "hut", 2)))
    assert report.codes() == {"hut-adjacent"}
    assert report.errors[0].where == [[-1, 3], [0, 3]]


def test_pasture_group_too_large_names_the_group_and_size() -> None:
    five = [u([q, 0], "pasture", 1 + q % 2) for q in range(5)]
    assert report_of(state(*five)).valid
    six = [*five, u([5, 0], "pasture", 2)]
    report = report_of(state(*six))
    assert report.codes() == {"pasture-group-too-large"}
    assert "has 6 pastures" in report.errors[0].message and "[0, 0]" in report.errors[0].message
    crossed = [*five, u([5, 0], "pasture", 2, destroyed=True), u([6, 0], "sheep", 2)]
    assert report_of(state(*crossed)).valid  # a crossed-out pasture is no longer in any group


def test_pasture_not_destroyed() -> None:
    assert report_of(state(u([3, 3], "sheep"), u([4, 3], "pasture", 2, destroyed=True))).valid
    report = report_of(state(u([3, 3], "sheep"), u([4, 3], "pasture", 2)))
    assert report.codes() == {"pasture-not-destroyed"}


def test_destroyed_without_sheep() -> None:
    report = report_of(state(u([4, 3], "pasture", destroyed=True)))
    assert report.codes() == {"destroyed-without-sheep"}


def test_start_huts() -> None:
    data = state()
    data["units"] = data["units"][1:]
    assert report_of(data).codes() == {"start-huts"}
    swapped = state()
    swapped["units"][0]["player"] = 2
    assert report_of(swapped).codes() == {"start-huts"}


def test_inline_board() -> None:
    board = {"cells": [{"at": [q, 0]} for q in range(4)], "start_huts": [{"player": 1, "at": [0, 0]}]}
    board["start_huts"].append({"player": 2, "at": [3, 0]})
    data = {"game": "good-shepherds", "board": board, "units": [u([0, 0], "hut"), u([3, 0], "hut", 2)]}
    assert report_of(data).valid
    data["units"].append(u([1, 0], "hut", 2))
    assert report_of(data).codes() == {"hut-adjacent"}


def test_pure_helpers_for_scoring() -> None:
    setup = load_source(Source("s.yaml", state(u([3, 3], "sheep"), u([4, 3], "pasture")))).setup
    farm = checks.farm_state(setup)
    assert len(farm.cells) == 74 and farm.start_huts == {(-1, 3): 1, (8, 3): 2}
    assert not checks.legal_farm(farm)
    assert checks.farm_report(farm).codes() == {"pasture-not-destroyed"}


@pytest.mark.parametrize(
    ("text", "line", "expected"),
    [
        ("units:\n  - {at: [20, 3], unit: sheep, player: 1}\n", 4, "not on the farm board"),
        ("units:\n  - {at: [0, 3], unit: sheep, player: 3}\n", 4, "1 or 2"),
        ("units:\n  - {at: [0, 3], unit: goat, player: 1}\n", 4, "'sheep', 'pasture' or 'hut'"),
        ("units:\n  - {at: [0, 3.5], unit: sheep, player: 1}\n", 4, "valid integer"),
        ("units:\n  - {at: [0, 3], unit: sheep, player: 1, destroyed: true}\n", 4, "only a pasture"),
        (
            "board:\n  start_huts: [{player: 1, at: [0, 0]}, {player: 2, at: [1, 0]}]\n"
            "  cells:\n    - {at: [0, 0]}\n    - {at: [1, 0]}\n    - {at: [0, 0]}\n",
            8,
            "given twice",
        ),
    ],
)
def test_bad_input_is_located_and_exits_2(tmp_path: Path, text: str, line: int, expected: str) -> None:
    file = tmp_path / "bad.yaml"
    file.write_text("game: good-shepherds\nplayers: 2\n" + text, encoding="utf-8")
    result = CliRunner().invoke(main, ["validate", str(file)])
    assert result.exit_code == 2, result.output
    assert f"bad.yaml:{line}:" in result.output and expected in result.output, result.output


def test_cli(tmp_path: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "farm.yaml"
    assert (
        runner.invoke(main, ["setup", "good-shepherds", "-p", "2", "--seed", "1", "-o", str(out)]).exit_code
        == 0
    )
    assert runner.invoke(main, ["validate", str(out)]).exit_code == 0
    assert runner.invoke(main, ["setup", "good-shepherds", "-p", "3"]).exit_code == 2
    out.write_text(dump_yaml(state(u([0, 3], "hut", 2))), encoding="utf-8")
    result = runner.invoke(main, ["validate", str(out), "--json"])
    assert result.exit_code == 1 and '"hut-adjacent"' in result.output
