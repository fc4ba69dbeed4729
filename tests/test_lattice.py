"""geometry/lattice.py gives shapely's facts: on lattice cells, on dealt Quo Vadis maps, on broken maps."""

from __future__ import annotations

import copy
import random
from types import SimpleNamespace
from typing import Any

import pytest
from shapely.geometry import Polygon

from pnpforge import contract
from pnpforge.geometry import hexgrid
from pnpforge.geometry.cells import adjacency, polygon_cell
from pnpforge.geometry.lattice import hex_lattice, lattice_adjacency, overlapping
from pnpforge.sourcefile import Source
from pnpforge.table.setupfile import deal_setup, load_source

checks: Any = contract.load("quo-vadis").module("checks")
LATTICE = hex_lattice(7.5)


def test_cells_are_unit_triangles_and_their_outline() -> None:
    centre = hexgrid.to_pixel((2, -1), 7.5)
    corners = hexgrid.corners((2, -1), 7.5)
    hexagon, rhombus = LATTICE.cell(corners), LATTICE.cell([centre, *corners[:3]])
    assert hexagon is not None and (len(hexagon.triangles), len(hexagon.edges)) == (6, 6)
    assert rhombus is not None and (len(rhombus.triangles), len(rhombus.edges)) == (2, 4)
    assert rhombus.triangles < hexagon.triangles


def test_off_lattice_polygons_are_left_to_shapely() -> None:
    corners = hexgrid.corners((0, 0), 7.5)
    assert LATTICE.cell([(0.1, 0.0), *corners[1:3]]) is None  # a corner off the lattice
    assert LATTICE.cell([corners[0], corners[2], corners[4]]) is None  # sides across lattice lines
    assert LATTICE.cell([corners[0], corners[2], corners[1], corners[3]]) is None  # crossing itself
    assert LATTICE.cell(corners[:2]) is None


def shapely_overlaps(polygons: dict[Any, Polygon]) -> set[frozenset[Any]]:
    keys = list(polygons)
    return {
        frozenset((a, b))
        for i, a in enumerate(keys)
        for b in keys[i + 1 :]
        if polygons[a].intersection(polygons[b]).area > 1e-6
    }


def test_random_rhombi_agree_with_shapely() -> None:
    rng = random.Random(5)
    shapes: dict[int, list[tuple[float, float]]] = {}
    for key in range(120):  # crowded: many share sides, many overlap, some coincide
        cell = (rng.randint(-2, 2), rng.randint(-2, 2))
        k = rng.randrange(6)
        corners = hexgrid.corners(cell, 7.5)
        shapes[key] = [hexgrid.to_pixel(cell, 7.5), *(corners[(k + j) % 6] for j in range(3))]
    cells = {key: LATTICE.cell(points) for key, points in shapes.items()}
    lattice = {key: cell for key, cell in cells.items() if cell is not None}
    assert len(lattice) == len(shapes)
    polygons = {key: polygon_cell(points) for key, points in shapes.items()}
    assert lattice_adjacency(lattice) == adjacency(polygons)
    found = overlapping(lattice)
    assert found == shapely_overlaps(polygons) and found


def by_shapely(monkeypatch: pytest.MonkeyPatch, data: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
    """The map and the report as shapely finds them: no space gets a lattice cell."""
    with monkeypatch.context() as patch:
        patch.setattr(checks, "LATTICE", SimpleNamespace(cell=lambda points: None))
        return qv_and_report(data)


def qv_and_report(data: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
    loaded = load_source(Source("map.yaml", data))
    return checks.build_map(loaded.setup), checks.check(loaded.setup, loaded.source).as_json()


def jumbled(data: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """Tiles moved onto each other, far away or next to anything: overlaps, detached and split maps."""
    for placed in rng.sample(data["map"][1:], 4):  # the centre tile stays where `centre` says
        placed["at"] = rng.choice([data["map"][0]["at"], [rng.randint(-4, 4), rng.randint(-4, 4)]])
        placed["rotation"] = rng.randrange(6)
    return data


@pytest.mark.parametrize("players", [3, 4, 5])
def test_quo_vadis_maps_agree_with_shapely(monkeypatch: pytest.MonkeyPatch, players: int) -> None:
    rng = random.Random(players)
    codes: set[str] = set()
    for seed in range(12):
        dealt = deal_setup("quo-vadis", players, seed, {})
        for data in (dealt, jumbled(copy.deepcopy(dealt), rng)):
            qv, report = qv_and_report(data)
            assert all(space.cell is not None for space in qv.spaces.values())  # the fast path ran
            slow_qv, slow_report = by_shapely(monkeypatch, data)
            assert all(space.cell is None for space in slow_qv.spaces.values())
            assert qv.touching == slow_qv.touching
            assert report == slow_report
            codes |= {error["code"] for error in report["errors"]}
    assert {"tile-overlap", "map-disconnected"} <= codes  # the broken maps did break those rules
