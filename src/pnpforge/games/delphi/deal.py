"""The Oracle of Delphi: deal a random legal set-up, following the Delphi rulebook's set-up steps in order.

The board uses the compact first-game layout of tiles.yaml: tiles of one shape shuffled over that
shape's slots, flowers in any rotation, redrawn until all water is one body. Pieces are then spread
with a Havel-Hakimi style deal (fullest islands first, random ties), which never dead-ends.

Stays Python: dealing is a procedure (shuffles, redraws, a balanced spread), not a rule to check.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from pnpforge.gamekit import (
    COMMAND_LINE,
    N_,
    Hex,
    InputError,
    Phrase,
    folder_id,
    hexgrid,
    option_bool,
    option_int,
    reject_unknown_options,
)

from . import checks as _checks

GAME = folder_id(Path(__file__).parent)  # the game's id: its folder's name

OPTIONS = ("short", "remove")
OPTION_CHOICES = {"short": ["true", "false"], "remove": ["0", "1", "2", "3", "4"]}  # for pickers
# the page's deal form says each option so (Delphi rulebook, セットアップ: ショートゲーム, 減らすタスク)
LABELS = {"short": N_("Short game"), "remove": N_("Tasks to remove")}
# and its values (the short game has 8 tasks, one fewer per Zeus tile; the full game 12); counts are numbers
VALUES = {"short": {"true": N_("Yes (8 tasks)"), "false": N_("No (12 tasks)")}}
MAX_REDRAWS = 10_000

# the set-up file's words on the table page's "What goes where" (Delphi rulebook, セットアップ,
# 12のタスク); tile ids stay as the file has them
# words said as data (set-up keys and values, kinds, labels, names of fields): marked for the
# catalogs (locale/*.po), where each language says them in the game's words
DATA_WORDS = (
    N_("players"),
    N_("removed_tasks"),
    N_("board"),
    N_("tiles"),
    N_("tile"),
    N_("rotation"),
    N_("at"),
    N_("island_tiles"),
    N_("monsters"),
    N_("offerings"),
    N_("statues"),
    N_("temples"),
    N_("zeus"),
    N_("seats"),
    N_("seat"),
    N_("favour"),
    N_("zeus_tiles"),
    N_("colour"),
    N_("colours"),
    N_("count"),
    N_("player"),
)


def _removed(options: dict[str, str]) -> list[str]:
    reject_unknown_options(options, OPTIONS)
    short = option_bool(options, "short")
    count = option_int(options, "remove", 4 if short else 0, 0, 4)
    if short and count != 4 and "remove" in options:
        raise InputError.single(
            COMMAND_LINE, Phrase(N_("--option short=true removes 4 tasks; drop remove= or set it to 4"))
        )
    return list(_checks.REMOVAL_ORDER[:count])


def _layout(rng: random.Random) -> list[dict[str, Any]]:
    """Tiles on the compact layout's slots, redrawn until every water space is connected."""
    data = _checks.bundled()
    slots = data.compact_layout["slots"]
    by_shape: dict[str, list[Any]] = {}
    for tile in data.tiles:
        by_shape.setdefault(tile.shape or "", []).append(tile)
    for _ in range(MAX_REDRAWS):
        placed: list[dict[str, Any]] = []
        sea: set[Hex] = set()
        pools = {shape: rng.sample(tiles, len(tiles)) for shape, tiles in sorted(by_shape.items())}
        for slot in slots:
            tile = pools[slot["shape"]].pop()
            rotation = rng.randrange(6) if slot["rotation"] == "any" else int(slot["rotation"])
            anchor = (int(slot["anchor"][0]), int(slot["anchor"][1]))
            placed.append({"tile": tile.id, "at": list(anchor), "rotation": rotation})
            for cell in tile.cells:
                if cell.kind in _checks.SEA:
                    sea.add(hexgrid.add(anchor, hexgrid.rotate(cell.at, rotation)))
        if _one_body(sea):
            return placed
    raise RuntimeError("no connected board found")  # 29% of draws pass; 10,000 misses never happen


def _one_body(cells: set[Hex]) -> bool:
    start = next(iter(cells))
    seen, frontier = {start}, [start]
    while frontier:
        for n in hexgrid.neighbours(frontier.pop()):
            if n in cells and n not in seen:
                seen.add(n)
                frontier.append(n)
    return len(seen) == len(cells)


def spread(rng: random.Random, demand: dict[str, int], capacity: list[int]) -> list[list[str]]:
    """Put `demand[colour]` pieces of each colour on islands of the given capacities, no colour twice on one.

    Largest demand first, each onto the islands with the most room left (random among ties): the
    Havel-Hakimi order, which succeeds whenever any arrangement exists.
    """
    room = list(capacity)
    out: list[list[str]] = [[] for _ in capacity]
    keys = {c: rng.random() for c in demand}
    for colour in sorted(demand, key=lambda c: (-demand[c], keys[c])):
        ties = {i: rng.random() for i in range(len(room))}
        chosen = sorted((i for i in range(len(room)) if room[i] > 0), key=lambda i: (-room[i], ties[i]))
        for i in chosen[: demand[colour]]:
            out[i].append(colour)
            room[i] -= 1
    return out


def deal(players: int, seed: int, options: dict[str, str]) -> dict[str, Any]:
    rng = random.Random(seed)
    removed = _removed(options)
    tiles = _layout(rng)
    setup = _checks.Setup.model_validate(
        {"game": GAME, "players": players, "board": {"tiles": tiles}, "zeus": [0, 0]}
    )
    built = _checks.build(setup)
    zeus = next(c for c, s in sorted(built.spaces.items()) if s.zeus)
    colours = list(_checks.COLOURS)

    offering_islands = built.of_kind("offering")
    cubes = spread(rng, {c: players for c in colours}, [players] * len(offering_islands))
    monster_islands = sorted(built.of_kind("monster"), key=lambda c: (-(built.spaces[c].monsters or 1), c))
    capacity = [2 if built.spaces[c].monsters == 2 else players - 1 for c in monster_islands]
    monsters = spread(rng, {c: players for c in colours}, capacity)
    temple_colours = rng.sample(colours, len(colours))
    cities = {built.spaces[c].colour: c for c in built.of_kind("city")}
    shrine_tasks = _checks.TASKS_EACH - removed.count("shrine")
    island_tiles = [p for p in range(1, _checks.PLAYER_COLOURS + 1) for _ in range(shrine_tasks)]
    shrines = rng.sample(built.of_kind("shrine"), len(island_tiles))
    rng.shuffle(island_tiles)
    zeus_tiles = [t for t in _checks.TASK_ORDER for _ in range(_checks.TASKS_EACH - removed.count(t))]

    return {
        "game": GAME,
        "players": players,
        "removed_tasks": removed,
        "board": {"tiles": tiles},
        "zeus": list(zeus),
        "offerings": [
            {"at": list(c), "colours": sorted(cs, key=colours.index)}
            for c, cs in zip(offering_islands, cubes, strict=True)
        ],
        "monsters": [
            {"at": list(c), "colours": sorted(ms, key=colours.index)}
            for c, ms in sorted(zip(monster_islands, monsters, strict=True))
            if ms
        ],
        "temples": [
            {"at": list(c), "colour": colour}
            for c, colour in zip(built.of_kind("temple"), temple_colours, strict=True)
        ],
        "statues": [{"at": list(cities[c]), "colour": c, "count": _checks.statues_each()} for c in colours],
        "island_tiles": [
            {"at": list(c), "player": p} for c, p in sorted(zip(shrines, island_tiles, strict=True))
        ],
        "seats": [
            {"seat": s, "favour": _checks.FAVOUR_FIRST_SEAT + s - 1, "zeus_tiles": zeus_tiles}
            for s in range(1, players + 1)
        ],
    }
