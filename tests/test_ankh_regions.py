"""Ankh's caravan check with regions found once (games/ankh/checks.py `Regions`): on random boards and
caravans it finds the same faults as recomputing every region for every caravan, the rulebook's way
("Camel caravans": a caravan splits one region into exactly two of at least 6 land spaces)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from pnpforge import contract
from pnpforge.geometry import hexgrid
from pnpforge.geometry.cells import components

checks: Any = contract.load("ankh").module("checks")
SPLIT_CODES = ("camel-no-split", "region-too-small")


def reference(setup: Any) -> list[tuple[str, Any]]:
    """The split faults found the slow, plain way: every region recomputed for every caravan."""
    m = checks.board(setup)
    walls = set(m.river)
    out: list[tuple[str, Any]] = []
    for number, caravan in enumerate(setup.caravans, 1):
        land = [
            (a, b) for a, b in caravan if m.is_land(a) and m.is_land(b) and frozenset((a, b)) not in m.river
        ]
        if land and caravan and checks.side_path(caravan) is not None:
            before = checks.regions(m, walls)
            region_of = {c: i for i, r in enumerate(before) for c in r}
            touched = {region_of[c] for side in land for c in side}
            if len(touched) > 1 or any(region_of[a] != region_of[b] for a, b in land):
                out.append(("camel-no-split", number))
            else:
                region = before[touched.pop()]
                after = components(
                    region,
                    lambda c, r=region: (n for n in hexgrid.neighbours(c) if n in r),
                    walls | {frozenset(s) for s in caravan},
                )
                if len(after) != 2:
                    out.append(("camel-no-split", number))
                else:
                    out += [
                        ("region-too-small", (number, sorted(p))) for p in after if len(p) < checks.MIN_REGION
                    ]
        walls |= {frozenset(s) for s in caravan}
    return out


def found(setup: Any) -> list[tuple[str, Any]]:
    out: list[tuple[str, Any]] = []
    for v in checks.check(setup).errors:
        if v.code == "camel-no-split":
            out.append((v.code, _number(v)))
        elif v.code == "region-too-small":
            out.append((v.code, (v.where["caravan"], [tuple(c) for c in v.where["cells"]])))
    return out


def _number(violation: Any) -> int:
    return int(violation.message.values["caravan"].values["number"])


def random_setup(seed: int) -> Any:
    rng = random.Random(seed)
    width, height = rng.randint(4, 12), rng.randint(4, 10)
    cells = [(q, r) for r in range(height) for q in range(width)]
    terrain = {c: ("water" if rng.random() < 0.1 else "fertile") for c in cells}
    by_corner: dict[Any, list[tuple[Any, tuple[Any, Any]]]] = {}
    for cell in cells:
        for d, other in enumerate(hexgrid.neighbours(cell)):
            if other in terrain and cell < other:
                u, v = hexgrid.side_vertices(cell, d)
                by_corner.setdefault(u, []).append((v, (cell, other)))
                by_corner.setdefault(v, []).append((u, (cell, other)))
    sides = sorted({s for ends in by_corner.values() for _, s in ends})
    river_sides = set(rng.sample(sides, k=min(len(sides), rng.randint(0, 8))))
    used: set[Any] = set(river_sides)
    caravans = []
    for _ in range(rng.randint(1, 30)):  # walks along sides: lines that split, cut nothing, cross regions
        here = rng.choice(sorted(by_corner))
        line: list[list[list[int]]] = []
        for _ in range(rng.randint(1, 5)):
            options = [(v, s) for v, s in by_corner[here] if s not in used]
            if not options:
                break
            here, side = rng.choice(options)
            used.add(side)
            line.append([list(side[0]), list(side[1])])
        if line:
            caravans.append(line)
    river = [[list(a), list(b)] for a, b in sorted(river_sides)]
    data = {
        "game": "ankh",
        "players": 2,
        "map": {"cells": [{"at": list(c), "terrain": t} for c, t in terrain.items()], "river": river},
        "caravans": caravans,
    }
    return checks.Setup.model_validate(data)


@pytest.mark.parametrize("seed", range(60))
def test_regions_found_once_agree_with_regions_recomputed(seed: int) -> None:
    setup = random_setup(seed)
    assert found(setup) == reference(setup)
