"""Ankh: every legal camel caravan on a set-up, for `pnpforge caravans`.

A depth-first walk over hex corners: it starts at every anchored corner (river, water, camel line, map
edge), follows sides between two land spaces of one region, at most 6 of them, never revisiting a
corner, and stops to test each anchored corner it reaches. The test is two small floods over the
region. Each line is found once (from its smaller end).
"""

from __future__ import annotations

from collections import deque
from typing import Any

from pnpforge.gamekit import N_, Hex, Phrase, Source, Vertex, hexgrid, side_vertices

from . import checks as _checks

Wall = frozenset[Hex]


Links = dict[Hex, list[tuple[Hex, Wall]]]


def _flood(start: Hex, links: Links, cut: set[Wall]) -> set[Hex]:
    seen, frontier = {start}, [start]
    while frontier:
        for other, wall in links[frontier.pop()]:
            if other not in seen and wall not in cut:
                seen.add(other)
                frontier.append(other)
    return seen


def _smaller_side(a: Hex, b: Hex, links: Links, cut: set[Wall]) -> set[Hex] | None:
    """The land reachable from the end of `a` or `b` that runs out first, or None when they meet.

    Both floods grow one step at a time, so the work is about twice the smaller side: a line that
    cuts nothing meets itself around its end within a few hexes, whatever the board's size.
    """
    seen = ({a}, {b})
    frontiers = (deque([a]), deque([b]))
    while True:
        for side in (0, 1):
            mine, other = seen[side], seen[1 - side]
            if not frontiers[side]:
                return mine
            here = frontiers[side].popleft()
            for nxt, wall in links[here]:
                if wall in cut or nxt in mine:
                    continue
                if nxt in other:
                    return None
                mine.add(nxt)
                frontiers[side].append(nxt)


def _region_name(m: Any, region: set[Hex]) -> str:
    names = {m.names.get(c) for c in region}
    if len(names) == 1 and None not in names:
        name = names.pop()
        whole = sum(1 for n in m.names.values() if n == name) == len(region)
        return name if whole else Phrase(N_("{name} (part)"), name=name)
    return Phrase(N_("region at {cell}"), cell=str(list(min(region))))


def caravans(setup: Any, source: Source | None = None) -> list[dict[str, Any]]:
    """Every legal caravan of 1 to 6 camels on the board as the set-up leaves it, in a stable order."""
    m = _checks.board(setup, source)
    _checks.check_input(setup, m, source)
    walls: set[Wall] = set(m.river) | {frozenset(s) for c in setup.caravans for s in c}
    camel_corners = {v for c in setup.caravans for a, b in c for v in side_vertices(a, b)}
    regions = _checks.regions(m, walls)
    region_of = {c: i for i, r in enumerate(regions) for c in r}

    links: dict[Hex, list[tuple[Hex, Wall]]] = {c: [] for c in region_of}
    corner_sides: dict[Vertex, list[tuple[Vertex, Wall, int]]] = {}
    for cell in sorted(region_of):
        for d, other in enumerate(hexgrid.neighbours(cell)):
            if other not in region_of or region_of[other] != region_of[cell]:
                continue
            wall = frozenset((cell, other))
            if wall in walls:
                continue
            links[cell].append((other, wall))
            if cell < other:  # each side once: a candidate camel spot
                u, v = hexgrid.side_vertices(cell, d)
                corner_sides.setdefault(u, []).append((v, wall, region_of[cell]))
                corner_sides.setdefault(v, []).append((u, wall, region_of[cell]))
    anchors = {v for v in corner_sides if _checks.anchored(m, v, camel_corners)}

    found: list[dict[str, Any]] = []
    for start in sorted(anchors):
        stack: list[tuple[Vertex, list[Vertex], list[Wall], int]] = [(start, [start], [], -1)]
        while stack:
            here, path, line, region = stack.pop()
            if line and here in anchors and start < here:
                result = _test(line, regions[region], links, m)
                if result:
                    found.append(result)
            if len(line) == _checks.MAX_CAMELS:
                continue
            for nxt, wall, reg in corner_sides.get(here, ()):
                if nxt not in path and (region < 0 or reg == region):
                    stack.append((nxt, [*path, nxt], [*line, wall], reg))
    found.sort(key=lambda c: (c["camels"], c["sides"]))
    return found


def _test(
    line: list[Wall], region: set[Hex], links: dict[Hex, list[tuple[Hex, Wall]]], m: Any
) -> dict | None:
    """The caravan's entry when `line` cuts `region` into exactly two parts of at least 6 land spaces."""
    cut = set(line)
    a, b = sorted(line[0])
    small = _smaller_side(a, b, links, cut)
    if small is None or len(small) < _checks.MIN_REGION:
        return None
    first = small if a in small else _flood(a, links, cut)
    second = small if b in small else _flood(b, links, cut)
    if len(first) + len(second) != len(region):
        return None
    sides = [sorted(w) for w in line]
    return {
        "camels": len(line),
        "sides": [[list(x), list(y)] for x, y in sides],
        "region": _region_name(m, region),
        "region_size": len(region),
        "sizes": sorted((len(first), len(second)), reverse=True),
    }


CARAVAN_LINE = N_("{camels} camel(s) {sides}: splits {region} ({size}) into {big} + {small}")


def describe(caravan: dict[str, Any]) -> str:
    """One caravan as `pnpforge caravans` lists it (a `Phrase`: said in the terminal's language)."""
    sides = " ".join(f"{a}|{b}" for a, b in caravan["sides"])
    big, small = caravan["sizes"]
    return Phrase(
        CARAVAN_LINE,
        camels=caravan["camels"],
        sides=sides,
        region=caravan["region"],
        size=caravan["region_size"],
        big=big,
        small=small,
    )
