"""Good Shepherds' units counted from a farm-board state (a set-up file), for the score sheet of game.yaml.

The sheet's arithmetic is data (game.yaml's `scoring:`); what stays Python is reading a board: counting
each player's units (player 1 is the first listed, the left hut; crossed-out pastures do not count), and,
for the immediate end (`ending: no-placement`, 「ただちに終了します」), looking for a free cell beside a live
unit, which the data vocabulary of counts and expressions cannot say.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pnpforge.gamekit import (
    N_,
    Hex,
    InputError,
    Phrase,
    Rules,
    RulesBroken,
    Source,
    folder_id,
    hexgrid,
    linked_setup,
    series,
)

from . import checks

GAME = folder_id(Path(__file__).parent)  # the game's id: its folder's name
KEY = "farm"  # the score file's key holding the board
COUNTED = ("sheep", "pastures", "huts")
NO_PLACEMENT = "no-placement"

FROM_FARM = N_("{key} comes from the farm board here; give one or the other")
STILL_PLACE = N_("the game has not ended at once: every player can still place a unit ({where})")
FREE_AT = N_("{name} at {cell}")


def count(data: Any, source: Source) -> None:
    """Count each player's units on the farm board into their `sheep`, `pastures` and `huts`."""
    counted = [
        source.problem(("players", i, key), Phrase(FROM_FARM, key=key))
        for i, p in enumerate(data.players)
        for key in COUNTED
        if key in p.model_fields_set
    ]
    if counted:
        raise InputError(counted)
    loaded = linked_setup(source, (KEY,), getattr(data, KEY), GAME)
    report = checks.check(loaded.setup, loaded.source)
    if not report.valid:
        raise RulesBroken(report)
    if data.ending == NO_PLACEMENT:
        _check_stuck(data, checks.farm_state(loaded.setup), source)
    for number, player in enumerate(data.players, 1):
        mine = [u for u in loaded.setup.units if u.player == number]
        player.sheep = sum(u.unit == "sheep" for u in mine)
        player.pastures = sum(u.unit == "pasture" and not u.destroyed for u in mine)
        player.huts = sum(u.unit == "hut" for u in mine)


def free_cell(state: Any, player: int) -> Hex | None:
    """An empty cell where `player` could still write a unit, or None when no dice would help.

    A unit goes next to one of your live units, or a die's moves away in a straight line through
    empty cells (◆移動力); either way the first cell beside a live unit must be empty, and a sheep
    may go on any empty cell, so a player can place something exactly when one of their live
    units has an empty neighbour on the board.
    """
    taken = {u.at for u in state.units}
    for unit in state.units:
        if unit.player == player and not unit.destroyed:
            for cell in hexgrid.neighbours(unit.at):
                if cell in state.cells and cell not in taken:
                    return cell
    return None


def _check_stuck(data: Any, state: Any, source: Source) -> None:
    """`ending: no-placement` from a farm board: someone must really be unable to place a unit."""
    free = {p.name: free_cell(state, number) for number, p in enumerate(data.players, 1)}
    if all(cell is not None for cell in free.values()):
        rules = Rules(GAME, source)
        spots = [Phrase(FREE_AT, name=name, cell=str(list(cell or ()))) for name, cell in free.items()]
        rules.error("can-still-place", ("ending",), Phrase(STILL_PLACE, where=series(spots)))
        rules.done()
