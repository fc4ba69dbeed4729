"""Quo Vadis: deal the map (Quo Vadis rulebook, ゲームの準備 1 天地開闢) in the set-up file format of
checks.py.

The five doubles are set aside and the other ten shuffled: one in the centre, six around it (the base), the
last three on cells touching the base's ring; 4 or 5 players add 2 or 4 random doubles the same way.
Every tile gets a random rotation. No options.

Stays Python: dealing is a procedure (shuffles, rotations), not a rule to check.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from pnpforge.gamekit import N_, folder_id, hexgrid, reject_unknown_options

from . import checks

GAME = folder_id(Path(__file__).parent)  # the game's id: its folder's name

CENTRE = (0, 0)
# the set-up file's words on the table page's "What goes where" (Quo Vadis rulebook, コンポーネント,
# ゲームの準備 1 天地開闢); area tile ids stay as the file has them
# words said as data (set-up keys and values, kinds, labels, names of fields): marked for the
# catalogs (locale/*.po), where each language says them in the game's words
DATA_WORDS = (
    N_("players"),
    N_("map"),
    N_("centre"),
    N_("tile"),
    N_("at"),
    N_("rotation"),
)


def deal(players: int, seed: int, options: dict[str, str]) -> dict[str, Any]:
    """A random legal map for `players`; the same seed gives the same map."""
    reject_unknown_options(options, ())
    rng = random.Random(seed)
    areas = checks.load_areas()
    rules = areas.setup
    singles = [t.id for t in areas.tiles if not t.double]
    doubles = [t.id for t in areas.tiles if t.double]
    rng.shuffle(singles)
    ring = hexgrid.ring(CENTRE, 1)
    base_size = 1 + len(ring)
    outside = hexgrid.ring(CENTRE, 2)  # every cell two steps out touches the base's ring
    extra = singles[base_size : base_size + rules.extra_tiles] + rng.sample(
        doubles, rules.doubles_by_players[players]
    )
    spots = rng.sample(outside, len(extra))
    cells = [CENTRE, *ring, *spots]
    tiles = singles[:base_size] + extra
    placed = [
        {"tile": tile, "at": list(cell), "rotation": rng.randrange(6)}
        for tile, cell in zip(tiles, cells, strict=True)
    ]
    return {"game": GAME, "players": players, "centre": list(CENTRE), "map": placed}
