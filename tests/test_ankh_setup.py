"""Ankh set-ups: camel caravans, pieces and seats on the bundled map and on a small inline map."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from pnpforge import contract
from pnpforge.errors import InputError
from pnpforge.geometry import hexgrid
from pnpforge.geometry.split import side_path, side_vertices
from pnpforge.table.setupfile import check_text, deal_setup, dump_yaml
from pnpforge.validator.report import Report

game = contract.load("ankh")
checks: Any = game.module("checks")
dealer: Any = game.module("deal")
caravans_of: Any = game.module("caravans")
BASE = deal_setup("ankh", 2, 1, {"scenario": "OldKingdom"})  # no camels yet


def run(data: dict[str, Any]) -> Report:
    report: Report = checks.check(checks.Setup.model_validate(data))
    return report


def side(a: tuple[int, int], b: tuple[int, int]) -> list[list[int]]:
    return [list(a), list(b)]


# A small inline map: a radius-3 hexagon of desert around one water space, the "river" running from the
# water to the west edge between rows -1 and 0. A caravan from the water to the east edge then halves it.
RING = [c for c in hexgrid.spiral((0, 0), 3)]


def _row_sides(upper: int, east: bool | None) -> list[list[list[int]]]:
    out = []
    for a in RING:
        for b in hexgrid.neighbours(a):
            if a[1] != upper or b[1] != upper + 1 or b not in RING or (0, 0) in (a, b):
                continue
            if east is None or (east and a[0] >= 1 and b[0] >= 1) or (not east and a[0] <= 0 and b[0] <= -1):
                out.append(side(a, b))
    return out


def ring_map(river: bool = True) -> dict[str, Any]:
    return {
        "game": "ankh",
        "players": 2,
        "map": {
            "cells": [{"at": list(c), "terrain": "water" if c == (0, 0) else "desert"} for c in RING],
            "river": _row_sides(-1, east=False) if river else [],
        },
        "caravans": [],
        "pieces": [],
    }


def test_scenarios_for_every_player_count_are_legal() -> None:
    for players in range(2, 6):
        for scenario in ("OldKingdom", "MiddleKingdom"):
            report = run(dealer.deal(players, 0, {"scenario": scenario}))
            assert report.valid and not report.warnings, (players, scenario, report.as_json())


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_dealt_setups_validate_for_200_seeds(players: int) -> None:
    texts = {dump_yaml(dealer.deal(players, seed, {})) for seed in range(200)}
    assert len(texts) > 1
    for text in sorted(texts)[:3]:
        assert check_text(text).valid  # through YAML too
    for seed in range(200):
        assert run(dealer.deal(players, seed, {})).valid


def test_a_caravan_halving_the_ring_is_legal_and_without_the_river_splits_nothing() -> None:
    east = _row_sides(-1, east=True)
    assert len(east) == 5
    legal = ring_map()
    legal["caravans"] = [east]
    assert run(legal).valid, run(legal).as_json()
    no_river = ring_map(river=False)
    no_river["caravans"] = [east]
    assert "camel-no-split" in run(no_river).codes()


def _around(cells: set[tuple[int, int]]) -> list[list[list[int]]]:
    """The sides between `cells` and the rest of the ring's land."""
    return [
        side(a, b)
        for a in sorted(cells)
        for b in hexgrid.neighbours(a)
        if b in RING and b not in cells | {(0, 0)}
    ]


def test_region_too_small_says_how_many() -> None:
    data = ring_map()
    data["caravans"] = [_around({(3, -3)})]  # 3 camels around the corner space
    found = [v for v in run(data).errors if v.code == "region-too-small"]
    assert found and "1 land spaces" in found[0].message and found[0].where["size"] == 1
    data["caravans"] = [_row_sides(-1, east=True)]  # the twin: 15 and 21 land spaces
    assert run(data).valid, run(data).as_json()


def test_camel_count() -> None:
    data = ring_map()
    data["caravans"] = [_row_sides(-3, east=None)]  # 8 sides under the top row
    assert len(data["caravans"][0]) == 8
    assert "camel-count" in run(data).codes()
    data["caravans"] = [_row_sides(-1, east=True)]
    assert run(data).valid


def test_camel_on_river_and_on_water() -> None:
    data = ring_map()
    data["caravans"] = [[*_row_sides(-1, east=False)[:1], *_row_sides(-1, east=True)]]
    assert "camel-on-river" in run(data).codes()
    data["caravans"] = [[side((0, -1), (0, 0)), side((0, -1), (1, -1))]]
    assert "camel-on-water" in run(data).codes()


def test_camel_broken_and_unanchored() -> None:
    data = ring_map()
    east = _row_sides(-1, east=True)
    data["caravans"] = [[east[0], east[2], east[4]]]
    assert "camel-broken" in run(data).codes()
    data["caravans"] = [[side((-1, 2), (0, 2))]]  # one camel in the middle of the land
    report = run(data)
    assert [v.code for v in report.errors].count("camel-unanchored") == 2
    data["caravans"] = [east]
    assert run(data).valid


def test_a_later_caravan_may_end_on_an_earlier_one() -> None:
    data = ring_map()
    data["caravans"] = [_row_sides(-1, east=True)]
    setup = checks.Setup.model_validate(data)
    m = checks.board(setup)
    first = {v for a, b in data["caravans"][0] for v in side_vertices(tuple(a), tuple(b))}
    only_camel = {v for v in first if not checks.anchored(m, v, set())}
    assert only_camel  # corners of the first line that nothing else anchors
    ends_on_camel = []
    for caravan in caravans_of.caravans(setup):
        path = side_path([(tuple(a), tuple(b)) for a, b in caravan["sides"]])
        if path[0] in only_camel or path[-1] in only_camel:
            ends_on_camel.append(caravan)
    assert ends_on_camel
    data["caravans"].append(ends_on_camel[0]["sides"])
    assert run(data).valid, run(data).as_json()
    data["caravans"] = data["caravans"][1:]  # without the first line that end is loose
    assert "camel-unanchored" in run(data).codes()


def test_pieces_and_seats() -> None:
    data = copy.deepcopy(BASE)
    data["pieces"].append({"piece": "warrior", "at": data["pieces"][0]["at"], "player": 1})
    assert "space-occupied" in run(data).codes()
    data = copy.deepcopy(BASE)
    data["pieces"].append({"piece": "temple", "at": [4, -2], "player": None})  # the sea
    assert "piece-on-water" in run(data).codes()
    data = copy.deepcopy(BASE)
    data["conflict_order"][0]["token"] = 7
    assert "conflict-order" in run(data).codes()
    data = copy.deepcopy(BASE)
    data["seats"][1]["god"] = data["seats"][0]["god"]
    assert "god-twice" in run(data).codes()
    data = copy.deepcopy(BASE)
    data["players"] = 3  # two seats for three players
    assert "seat-count" in run(data).codes()
    data = copy.deepcopy(BASE)
    data["guardians"][1] = data["guardians"][0]
    assert "guardian-levels" in run(data).codes()
    assert run(BASE).valid


def test_bad_input_is_located() -> None:
    text = dump_yaml(BASE)
    cases = (
        ("players: 2", "players: 6", "Ankh is for 2-5 players, not 6"),
        ("map: bundled", "map: nile", "bundled"),
        ("piece: temple", "piece: sphinx", "'temple'"),
        ("player: 2}", "player: 3}", "player 3, but the set-up has 2"),
        ("caravans: []", "caravans:\n  - [[[0, 0], [1, 0]]]", "not a space of the map"),
        ("caravans: []", "caravans:\n  - [[[2, 2], [4, 2]]]", "not neighbours"),
        ("caravans: []", "caravans:\n  - [[[2, 2], [3, 2]], [[3, 2], [2, 2]]]", "twice"),
        ("caravans: []", "caravans:\n  - [[[2, 2], [3, 2.5]]]", "valid integer"),
        (f"god: {BASE['seats'][0]['god']}", "god: zeus", "unknown god 'zeus'"),
    )
    for old, new, what in cases:
        assert old in text, old
        with pytest.raises(InputError) as info:
            check_text(text.replace(old, new, 1), "a.yaml")
        message = str(info.value)
        assert message.startswith("a.yaml:") and what in message, (new, message)
    twice = ring_map()
    twice["map"]["cells"].append({"at": [0, 0], "terrain": "desert"})
    with pytest.raises(InputError) as info:
        check_text(dump_yaml(twice), "m.yaml")
    assert "given twice" in str(info.value) and str(info.value).startswith("m.yaml:")


def test_every_listed_caravan_is_legal_and_the_seed_example_is_there() -> None:
    found = caravans_of.caravans(checks.Setup.model_validate(BASE))
    assert len(found) > 50
    assert {c["camels"] for c in found} <= set(range(1, 7))
    # seed 001: a 5-camel line from a water space to the river cutting the Delta into 6 + 16
    assert any(c["region"] == "Delta" and c["camels"] == 5 and c["sizes"] == [16, 6] for c in found)
    for caravan in found:
        data = copy.deepcopy(BASE)
        data["caravans"] = [caravan["sides"]]
        data["conflict_order"] = []  # one more region than the scenario's tokens
        assert run(data).valid, (caravan, run(data).as_json())
        assert min(caravan["sizes"]) >= 6 and sum(caravan["sizes"]) == caravan["region_size"]
    again = caravans_of.caravans(checks.Setup.model_validate(BASE))
    assert again == found


def test_caravans_respect_existing_camels() -> None:
    data = dealer.deal(5, 0, {"scenario": "MiddleKingdom"})
    found = caravans_of.caravans(checks.Setup.model_validate(data))
    for caravan in found[:: max(1, len(found) // 15)]:
        later = copy.deepcopy(data)
        later["caravans"].append(caravan["sides"])
        later["conflict_order"] = []
        assert run(later).valid, (caravan, run(later).as_json())


def test_the_picture_looks_like_the_printed_board() -> None:
    """Flat-top hexes (the board prints map.yaml turned 30°), each seat in its god's printed colour, and
    the monuments' icons in the legend; measured in the rendered picture."""
    import io

    from PIL import Image

    from pnpforge.layouts import boardpic
    from pnpforge.units import mm

    data = deal_setup("ankh", 4, 1, {})
    pic = checks.picture(checks.Setup.model_validate(data))
    for cell in pic.cells:  # a flat top: the two highest corners level
        ys = sorted(y for _, y in cell.points)
        assert ys[1] - ys[0] < 1e-3 and ys[2] - ys[1] > 1
    known = checks.gods()
    seat_god = {s["seat"]: s["god"] for s in data["seats"]}
    assert [entry[1] for entry in pic.legend[:4]] == [
        f"{n}: {known[seat_god[n]]['name_en']}" for n in range(1, 5)
    ]
    assert [entry[2] for entry in pic.legend if len(entry) == 3] == ["temple", "pyramid", "obelisk"]
    image = Image.open(io.BytesIO(boardpic.png_bytes(pic, dpi=100))).convert("RGB")
    layout = boardpic.frame(pic)
    gods_drawn = [p for p in pic.pieces if p.icon == "god"]
    assert len(gods_drawn) == 4
    for piece in gods_drawn:
        god = seat_god[int(piece.label)]
        x = mm(piece.at[0] + layout.ox + 0.75 * piece.size / 2) * 100 / 72
        y = mm(piece.at[1] + layout.oy) * 100 / 72
        want = tuple(int(known[god]["colour"][i : i + 2], 16) for i in (1, 3, 5))
        got = image.getpixel((round(x), round(y)))
        assert max(abs(a - b) for a, b in zip(got, want, strict=True)) < 12, (god, got, want)


def test_an_unknown_scenario_is_refused_with_the_map_file_s_scenarios() -> None:
    assert list(checks.scenarios()) == ["OldKingdom", "MiddleKingdom"]
    data = copy.deepcopy(BASE)
    data["scenario"] = "NewKingdom"
    with pytest.raises(InputError, match=r"unknown scenario 'NewKingdom' \(expected one of: OldKingdom, Mid"):
        checks.check_input(checks.Setup.model_validate(data), checks.bundled_map(), None)
