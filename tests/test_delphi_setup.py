"""The Oracle of Delphi set-ups: every violation code on a set-up that breaks it, a legal twin, the dealer."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from pnpforge import contract
from pnpforge.errors import InputError
from pnpforge.geometry import hexgrid
from pnpforge.table.setupfile import check_text, deal_setup, dump_yaml
from pnpforge.validator.report import Report

checks: Any = contract.load("delphi").module("checks")
dealer: Any = contract.load("delphi").module("deal")
BASE = deal_setup("delphi", 3, 11, {})


def run(data: dict[str, Any]) -> Report:
    report: Report = checks.check(checks.Setup.model_validate(data))
    return report


def spaces_of(data: dict[str, Any], kind: str) -> list[tuple[int, int]]:
    return checks.build(checks.Setup.model_validate(data)).of_kind(kind)


def test_the_dealt_base_is_legal_without_warnings() -> None:
    report = run(BASE)
    assert report.valid and not report.warnings, report.as_json()


def _overlap(d: dict[str, Any]) -> None:
    d["board"]["tiles"][4]["at"] = d["board"]["tiles"][3]["at"]


def _tile_twice(d: dict[str, Any]) -> None:
    d["board"]["tiles"][1]["tile"] = d["board"]["tiles"][2]["tile"]


def _tile_missing(d: dict[str, Any]) -> None:
    del d["board"]["tiles"][-1]


def _zeus_elsewhere(d: dict[str, Any]) -> None:
    d["zeus"] = list(spaces_of(d, "shrine")[0])


def _cube_twice(d: dict[str, Any]) -> None:
    colours = d["offerings"][0]["colours"]
    colours[1] = colours[0]


def _cube_moved(d: dict[str, Any]) -> None:
    a, b = d["offerings"][0], d["offerings"][1]
    colour = next(c for c in a["colours"] if c not in b["colours"])
    a["colours"].remove(colour)
    b["colours"].append(colour)


def _cube_recoloured(d: dict[str, Any]) -> None:
    entry = d["offerings"][0]
    entry["colours"][0] = next(c for c in checks.COLOURS if c not in entry["colours"])


def _monster_twice(d: dict[str, Any]) -> None:
    colours = d["monsters"][0]["colours"]
    colours[1] = colours[0]


def _monster_moved(d: dict[str, Any]) -> None:
    a, b = d["monsters"][0], d["monsters"][1]
    colour = next(c for c in a["colours"] if c not in b["colours"])
    a["colours"].remove(colour)
    b["colours"].append(colour)


def _monster_recoloured(d: dict[str, Any]) -> None:
    entry = d["monsters"][0]
    entry["colours"][0] = next(c for c in checks.COLOURS if c not in entry["colours"])


def _statues_swapped(d: dict[str, Any]) -> None:
    d["statues"][0]["at"], d["statues"][1]["at"] = d["statues"][1]["at"], d["statues"][0]["at"]


def _statue_short(d: dict[str, Any]) -> None:
    d["statues"][0]["count"] = 2


def _temple_twice(d: dict[str, Any]) -> None:
    d["temples"][1]["colour"] = d["temples"][0]["colour"]


def _temple_on_water(d: dict[str, Any]) -> None:
    d["temples"][0]["at"] = list(spaces_of(d, "water")[0])


def _island_tile_missing(d: dict[str, Any]) -> None:
    del d["island_tiles"][0]


def _short_game_wrong_order(d: dict[str, Any]) -> None:
    d["removed_tasks"] = ["shrine"]


def _zeus_tiles_reordered(d: dict[str, Any]) -> None:
    d["seats"][1]["zeus_tiles"] = sorted(d["seats"][1]["zeus_tiles"])


def _favour(d: dict[str, Any]) -> None:
    d["seats"][2]["favour"] = 3


CASES: dict[str, tuple[str, Callable[[dict[str, Any]], None]]] = {
    "overlap": ("tile-overlap", _overlap),
    "tile twice": ("tile-count", _tile_twice),
    "tile missing": ("tile-count", _tile_missing),
    "zeus elsewhere": ("zeus-not-surrounded", _zeus_elsewhere),
    "zeus off his tile": ("zeus-misplaced", _zeus_elsewhere),
    "cube colour twice": ("offering-duplicate-colour", _cube_twice),
    "cube moved": ("offering-uneven", _cube_moved),
    "cube recoloured": ("offering-count", _cube_recoloured),
    "monster colour twice": ("monster-duplicate-colour", _monster_twice),
    "monster moved": ("monster-uneven", _monster_moved),
    "monster recoloured": ("monster-count", _monster_recoloured),
    "statues swapped": ("statue-wrong-city", _statues_swapped),
    "statue short": ("statue-count", _statue_short),
    "temple colour twice": ("temple-count", _temple_twice),
    "temple on water": ("piece-misplaced", _temple_on_water),
    "island tile missing": ("island-tile-count", _island_tile_missing),
    "short game order": ("short-game-order", _short_game_wrong_order),
    "zeus tiles": ("zeus-tiles", _zeus_tiles_reordered),
    "favour": ("favour-count", _favour),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_each_violation_is_reported(case: str) -> None:
    code, breaker = CASES[case]
    data = copy.deepcopy(BASE)
    breaker(data)
    report = run(data)
    assert code in report.codes(), report.as_json()
    assert run(BASE).valid  # the twin, unchanged


def test_every_violation_is_listed_not_just_the_first() -> None:
    data = copy.deepcopy(BASE)
    for name in ("cube colour twice", "statues swapped", "favour", "island tile missing"):
        CASES[name][1](data)
    assert {"offering-duplicate-colour", "statue-wrong-city", "favour-count", "island-tile-count"} <= run(
        data
    ).codes()


def _custom(tiles: list[dict[str, Any]], placements: list[dict[str, Any]], zeus: list[int]) -> dict[str, Any]:
    return {
        "game": "delphi",
        "players": 2,
        "board": {"custom_tiles": tiles, "tiles": placements},
        "zeus": zeus,
    }


def _water(at: list[int], colour: str = "red") -> dict[str, Any]:
    return {"at": at, "kind": "water", "colour": colour}


def test_water_bodies_are_named_on_a_small_custom_board() -> None:
    pond = {
        "id": "ponds",
        "group": "island",
        "cells": [_water([0, 0]), {"at": [1, 0], "kind": "temple"}, _water([2, 0], "blue"), _water([3, 0])],
    }
    report = run(_custom([pond], [{"tile": "ponds", "at": [0, 0], "rotation": 2}], [0, 0]))
    found = [v for v in report.errors if v.code == "water-disconnected"]
    assert found and "2 separate bodies" in found[0].message and "ponds" in found[0].message
    assert sorted(len(body) for body in found[0].where) == [1, 2]
    pond["cells"][1] = _water([1, 0], "green")  # the twin: fill the gap with water
    assert "water-disconnected" not in run(_custom([pond], [{"tile": "ponds", "at": [0, 0]}], [0, 0])).codes()


def test_water_disconnected_on_the_bundled_tiles() -> None:
    """Swapping two tiles of one shape can cut the compact layout's water in two (the dealer redraws)."""
    shape = {t.id: t.shape for t in checks.bundled().tiles}
    tiles = BASE["board"]["tiles"]
    messages = []
    for i, a in enumerate(tiles):
        for j in range(i + 1, len(tiles)):
            if shape[a["tile"]] != shape[tiles[j]["tile"]]:
                continue
            data = copy.deepcopy(BASE)
            swap = data["board"]["tiles"]
            swap[i]["tile"], swap[j]["tile"] = swap[j]["tile"], swap[i]["tile"]
            messages += [v.message for v in run(data).errors if v.code == "water-disconnected"]
    assert messages and all("body 1:" in m and "body 2:" in m for m in messages)


def test_zeus_needs_six_water_neighbours() -> None:
    ring = [[1, -1], [1, 0], [0, 1], [-1, 1], [-1, 0], [0, -1]]
    colours = list(checks.COLOURS)
    flower = {
        "id": "zeus-flower",
        "group": "island",
        "cells": [{"at": [0, 0], "kind": "shallows", "zeus": True}]
        + [_water(c, colours[i]) for i, c in enumerate(ring)],
    }
    legal = _custom([flower], [{"tile": "zeus-flower", "at": [3, 3]}], [3, 3])
    assert not {"zeus-not-surrounded", "zeus-misplaced"} & run(legal).codes()
    flower["cells"][3] = {"at": [0, 1], "kind": "offering"}
    assert "zeus-not-surrounded" in run(legal).codes()


def test_cities_inland_and_uneven() -> None:
    city = {
        "id": "town",
        "group": "city",
        "colour": "red",
        "cells": [{"at": [0, 0], "kind": "city", "colour": "red"}],
    }
    sea = {"id": "sea", "group": "island", "cells": [_water(list(c)) for c in hexgrid.ring((0, 0), 1)]}
    data = _custom([city, sea], [{"tile": "town", "at": [0, 0]}, {"tile": "sea", "at": [0, 0]}], [5, 5])
    assert "city-inland" in run(data).codes()

    data = copy.deepcopy(BASE)
    cities = [t for t in data["board"]["tiles"] if t["tile"].startswith("city-")]
    cities[1]["at"], cities[1]["rotation"] = [3, -5], 5  # the red city moved beside the green one
    report = run(data)
    assert "cities-uneven" in {w.code for w in report.warnings}, report.as_json()
    assert report.codes() == {"statue-wrong-city"}  # a warning, not an error: the red statues stayed behind
    assert not run(BASE).warnings


def test_bad_input_is_located() -> None:
    text = dump_yaml(BASE)
    broken = text.replace("tile: cluster-7-0", "tile: cluster-7-9", 1)
    with pytest.raises(InputError) as info:
        check_text(broken, "b.yaml")
    line = next(i for i, t in enumerate(broken.splitlines(), 1) if "cluster-7-9" in t)
    assert str(info.value).startswith(f"b.yaml:{line}:") and "unknown tile 'cluster-7-9'" in str(info.value)
    for old, new, what in (
        ("rotation: 0}", "rotation: 6}", "less than or equal to 5"),
        (f"zeus: [{BASE['zeus'][0]},", "zeus: [1.5,", "valid integer"),
        ("colour: red", "colour: purple", "'red'"),
        ("players: 3", "players: 5", "The Oracle of Delphi is for 2-4 players, not 5"),
        ("players: 3", "players: 3\nwind: strong", "unknown key 'wind'"),
    ):
        with pytest.raises(InputError) as info:
            check_text(text.replace(old, new, 1), "b.yaml")
        assert str(info.value).startswith("b.yaml:") and what in str(info.value), str(info.value)
    cell_twice = _custom(
        [{"id": "x", "group": "island", "cells": [_water([0, 0]), _water([0, 0])]}],
        [{"tile": "x", "at": [0, 0]}],
        [0, 0],
    )
    with pytest.raises(InputError) as info:
        check_text(dump_yaml(cell_twice), "c.yaml")
    assert "given twice" in str(info.value) and str(info.value).startswith("c.yaml:")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_dealt_setups_are_legal_for_200_seeds(players: int) -> None:
    boards = set()
    for seed in range(200):
        data = dealer.deal(players, seed, {})
        report = run(data)
        assert report.valid and not report.warnings, (seed, report.as_json())
        boards.add(str(data["board"]))
    assert len(boards) > 150  # the deal really varies


def test_dealt_file_round_trips_and_repeats() -> None:
    text = dump_yaml(deal_setup("delphi", 4, 5, {}))
    assert text == dump_yaml(deal_setup("delphi", 4, 5, {}))
    assert text != dump_yaml(deal_setup("delphi", 4, 6, {}))
    assert check_text(text).valid


def test_short_game_options() -> None:
    short = dealer.deal(2, 3, {"short": "true"})
    assert short["removed_tasks"] == ["statue", "shrine", "monster", "offering"]
    assert len(short["seats"][0]["zeus_tiles"]) == 8 and len(short["island_tiles"]) == 8
    assert run(short).valid
    two = dealer.deal(3, 3, {"remove": "2"})
    assert two["removed_tasks"] == ["statue", "shrine"] and run(two).valid
    assert two["seats"][0]["zeus_tiles"][:3] == ["shrine", "shrine", "statue"]
    for bad in ({"short": "maybe"}, {"remove": "5"}, {"tide": "high"}, {"short": "true", "remove": "1"}):
        with pytest.raises(InputError):
            dealer.deal(2, 1, bad)


def test_picture_shows_every_cell_and_piece() -> None:
    pic = checks.picture(checks.Setup.model_validate(BASE))
    assert len(pic.cells) == 120
    icons = [p.icon for p in pic.pieces]
    assert icons.count("cube") == 18 and icons.count("monster") == 18 and icons.count("temple") == 6
    assert icons.count("statue") == 18 and icons.count("tile") == 12 and icons.count("zeus") == 1
