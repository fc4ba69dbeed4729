"""Good Shepherds: the set-up is the empty farm board with its two starting huts (farm.yaml).

Nothing is random at set-up (the dice decide who starts, during play), so every seed gives the same
file; the seed is accepted so every game's `setup` command works alike. No options.

Stays Python beside checks.py, whose farm board it writes out: it writes the game's own set-up file
(`board: farm` and `units`), which the data rules' dealer (a `pieces:` list) does not write.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pnpforge.gamekit import N_, folder_id, reject_unknown_options

from . import checks

GAME = folder_id(Path(__file__).parent)  # the game's id: its folder's name

# the set-up file's words on the table page's "What goes where" (Good Shepherds rulebook, ユニット)
# words said as data (set-up keys and values, kinds, labels, names of fields): marked for the
# catalogs (locale/*.po), where each language says them in the game's words
DATA_WORDS = (
    N_("players"),
    N_("board"),
    N_("farm"),
    N_("units"),
    N_("unit"),
    N_("hut"),
    N_("sheep"),
    N_("pasture"),
    N_("at"),
    N_("player"),
)


def deal(players: int, seed: int, options: dict[str, str]) -> dict[str, Any]:
    """The bundled farm board with each player's starting hut written in."""
    reject_unknown_options(options, ())
    huts = sorted(checks.load_farm().start_huts, key=lambda h: h.player)
    units = [{"at": list(h.at), "unit": "hut", "player": h.player} for h in huts]
    return {"game": GAME, "players": players, "board": "farm", "units": units}
