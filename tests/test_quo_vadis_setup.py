"""Quo Vadis maps: real rhombus geometry, every violation code with its legal twin, bad input, the dealer."""

from __future__ import annotations

import copy
import math
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from pnpforge import contract
from pnpforge.cli import main
from pnpforge.geometry import hexgrid
from pnpforge.sourcefile import Source
from pnpforge.table.setupfile import check_loaded, check_text, deal_setup, dump_yaml, load_source
from pnpforge.validator.report import Report

checks: Any = contract.load("quo-vadis").module("checks")


def report_of(data: dict[str, Any]) -> Report:
    return check_text(dump_yaml(data), "map.yaml")


def dealt(players: int, seed: int = 1) -> dict[str, Any]:
    return deal_setup("quo-vadis", players, seed, {})


def setup_of(data: dict[str, Any]) -> Any:
    return load_source(Source("map.yaml", data)).setup


def extras(data: dict[str, Any]) -> list[dict[str, Any]]:
    return [p for p in data["map"] if hexgrid.distance(tuple(p["at"]), (0, 0)) == 2]


@pytest.mark.parametrize("players", [3, 4, 5])
def test_every_dealt_map_is_legal_over_200_seeds(players: int) -> None:
    for seed in range(200):
        data = dealt(players, seed)
        report = check_loaded(load_source(Source("dealt.yaml", data)))
        assert report.valid, (seed, report.as_json())
        assert len(data["map"]) == {3: 10, 4: 12, 5: 14}[players]


def test_same_seed_same_map() -> None:
    assert dealt(4, 7) == dealt(4, 7)
    assert dealt(4, 7) != dealt(4, 8)


def test_areas_file_has_the_fifteen_tiles() -> None:
    areas = checks.load_areas()
    assert sorted(t.label for t in areas.tiles) == sorted(
        f"{a}-{b}" for a in range(1, 6) for b in range(a, 6)
    )
    assert sum(t.double for t in areas.tiles) == 5
    assert set(areas.terrains) == {"plains", "sea", "mountain", "desert", "tundra"}


def test_spaces_are_real_rhombi_and_touch_by_edges() -> None:
    setup = setup_of(dealt(3))
    qv = checks.build_map(setup)
    hex_area = 3 * math.sqrt(3) / 2
    for space in qv.spaces.values():
        assert space.polygon.area == pytest.approx(hex_area / 3)
        assert len(space.polygon.exterior.coords) == 5
    touching = checks.space_adjacency(setup)
    centre = setup.map[0].tile
    # a centre space touches its two siblings and one space across each of its two outer sides
    for k in range(3):
        near = touching[f"{centre}.{k}"]
        assert len(near) == 4 and len({s.split(".")[0] for s in near}) == 3
    areas = checks.adjacent_areas(setup)
    assert areas[centre] == {p.tile for p in setup.map[1:7]}


def test_rotation_moves_terrain_but_not_the_outline() -> None:
    base = dealt(3)
    turned = copy.deepcopy(base)
    turned["map"][0]["rotation"] = (base["map"][0]["rotation"] + 1) % 6
    a, b = checks.build_map(setup_of(base)), checks.build_map(setup_of(turned))
    assert not a.spaces[(0, 0)].polygon.equals(b.spaces[(0, 0)].polygon)
    assert a.spaces[(0, 0)].terrain == b.spaces[(0, 0)].terrain
    assert report_of(turned).valid


def test_tile_overlap() -> None:
    legal = dealt(3)
    broken = copy.deepcopy(legal)
    broken["map"][8]["at"] = broken["map"][9]["at"]
    report = report_of(broken)
    assert "tile-overlap" in report.codes()
    assert broken["map"][8]["tile"] in next(v.message for v in report.errors if v.code == "tile-overlap")


def test_map_tile_count() -> None:
    legal = dealt(3)
    broken = copy.deepcopy(legal)
    broken["map"].pop()
    assert report_of(broken).codes() == {"map-tile-count"}
    four = dealt(4) | {"players": 3}
    assert {"map-tile-count", "doubles-count"} <= report_of(four).codes()


def test_doubles_in_base() -> None:
    legal = dealt(4)
    broken = copy.deepcopy(legal)
    double = next(p for p in broken["map"] if p["tile"] in {f"a{n}-{n}" for n in range(1, 6)})
    ring_tile = broken["map"][3]
    ring_tile["tile"], double["tile"] = double["tile"], ring_tile["tile"]
    report = report_of(broken)
    assert report.codes() == {"doubles-in-base"}
    assert "(ring)" in report.errors[0].message


def test_tile_detached_but_connected() -> None:
    legal = dealt(3)
    broken = copy.deepcopy(legal)
    spot = next(tuple(p["at"]) for p in extras(broken))
    far = next(
        n for n in hexgrid.neighbours(spot) if hexgrid.distance(n, (0, 0)) == 3
    )  # touches only the extra tile it leans on
    mover = next(p for p in extras(broken) if tuple(p["at"]) != spot)
    mover["at"] = list(far)
    report = report_of(broken)
    assert report.codes() == {"tile-detached"}
    assert mover["tile"] in report.errors[0].message


def test_map_disconnected() -> None:
    legal = dealt(3)
    broken = copy.deepcopy(legal)
    broken["map"][-1]["at"] = [9, 0]
    report = report_of(broken)
    assert {"map-disconnected", "tile-detached"} == report.codes()
    assert report.errors[-1].message.startswith("the map falls into 2 separate parts")


def test_base_incomplete_and_tile_repeated() -> None:
    broken = dealt(3)
    broken["map"][1]["at"] = [5, 5]  # a hole in the ring
    assert "base-incomplete" in report_of(broken).codes()
    twice = dealt(3)
    twice["map"][9]["tile"] = twice["map"][8]["tile"]
    assert report_of(twice).codes() == {"tile-repeated"}


def test_inline_area_tiles_replace_bundled_ones() -> None:
    data = dealt(3)
    centre = data["map"][0]["tile"]
    low, high = (int(n) for n in centre[1:].split("-"))
    data["areas"] = [{"id": centre, "numbers": [low, high], "spaces": ["sea", "sea", "sea"]}]
    assert report_of(data).valid
    qv = checks.build_map(setup_of(data))
    assert {qv.spaces[(0, k)].terrain for k in range(3)} == {"sea"}


@pytest.mark.parametrize(
    ("edit", "line", "expected"),
    [
        (("map", 2, "rotation", 6), 7, "less than or equal to 5"),
        (("map", 2, "tile", "a9-9"), 7, "unknown area tile 'a9-9'"),
        (("map", 2, "at", [1.5, 0]), 7, "valid integer"),
        (("players", None, None, 6), 2, "3-5 players"),
    ],
)
def test_bad_input_is_located_and_exits_2(tmp_path: Path, edit: tuple, line: int, expected: str) -> None:
    data = dealt(3)
    key, index, field, value = edit
    if index is None:
        data[key] = value
    else:
        data[key][index][field] = value
    file = tmp_path / "bad.yaml"
    file.write_text(dump_yaml(data), encoding="utf-8")
    result = CliRunner().invoke(main, ["validate", str(file)])
    assert result.exit_code == 2, result.output
    assert f"bad.yaml:{line}:" in result.output and expected in result.output


def test_inline_terrain_the_game_lacks_is_bad_input(tmp_path: Path) -> None:
    data = dealt(3) | {"areas": [{"id": "a1-2", "numbers": [1, 2], "spaces": ["sea", "lava", "sea"]}]}
    file = tmp_path / "bad.yaml"
    file.write_text(dump_yaml(data), encoding="utf-8")
    result = CliRunner().invoke(main, ["validate", str(file)])
    assert result.exit_code == 2 and "unknown terrain 'lava'" in result.output


def test_cli_deal_then_validate(tmp_path: Path) -> None:
    out = tmp_path / "qv.yaml"
    runner = CliRunner()
    assert (
        runner.invoke(main, ["setup", "quo-vadis", "-p", "5", "--seed", "3", "-o", str(out)]).exit_code == 0
    )
    result = runner.invoke(main, ["validate", str(out)])
    assert result.exit_code == 0 and "legal quo-vadis set-up" in result.output
    assert runner.invoke(main, ["setup", "quo-vadis", "-p", "6"]).exit_code == 2


def test_areas_file_faces_agree_with_corners() -> None:
    for cut in checks.load_areas().geometry.spaces:
        a, b, c = cut.corners
        outer = {frozenset((a, b)), frozenset((b, c))}
        assert {frozenset(hexgrid.edge_corners(d)) for d in cut.faces} == outer


@settings(max_examples=20, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    shift=st.tuples(st.integers(-30, 30), st.integers(-30, 30)),
    turns=st.lists(st.integers(0, 5), min_size=14, max_size=14),
)
def test_moving_or_turning_a_legal_map_keeps_it_legal(
    seed: int, shift: tuple[int, int], turns: list[int]
) -> None:
    data = dealt(5, seed)
    for placed, turn in zip(data["map"], turns, strict=True):
        placed["at"] = [placed["at"][0] + shift[0], placed["at"][1] + shift[1]]
        placed["rotation"] = turn
    data["centre"] = list(shift)
    assert check_loaded(load_source(Source("moved.yaml", data))).valid
