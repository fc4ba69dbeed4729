"""Good Shepherds: the farm-board state file and its checks (Good Shepherds rulebook).

Where the rulebook is open, docs/games/good-shepherds.md, "Rules decisions", says what is decided.

A state file is the farm board (`board: farm` = the bundled farm.yaml, or an inline board in the same
format: `cells` as `at: [q, r]` hexes and `start_huts`) and the `units` written on it: each `at`,
`unit` (sheep, pasture or hut), `player` (1 = the left starting hut's owner, 2) and, for a pasture,
`destroyed: true` when crossed out. The same format serves the set-up (only the two starting huts) and any
later state, so the scorer reads it too.

The placement rules are data: game.yaml's `setup:` section (codes cell-occupied, start-huts,
hut-adjacent, pasture-group-too-large, pasture-not-destroyed, destroyed-without-sheep; docs/setups.md).
`farm_report(state)` / `legal_farm(state)` run them on a state, for other modules too.

Stays Python, and why: the set-up file is the game's own, not the data rules' `pieces:` list on one
board: its board may be written inline (cells and starting huts, each checked as input), its units are
`units` that a pen crosses out (`destroyed`, a pasture's only), and the score sheet reads the same file
(`farm_state`). This module reads it and hands the board and units to the data rules, which check them
and draw them (`picture`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Literal

from pnpforge.gamekit import (
    N_,
    Coord,
    Hex,
    InputError,
    Path_,
    Phrase,
    PlacedPiece,
    Report,
    SetupBoard,
    SetupModel,
    SetupTable,
    Source,
    StrictBool,
    StrictInt,
    data_rules,
    folder_id,
    player_count,
    read_yaml,
    validate,
)

if TYPE_CHECKING:  # the picture's names are imported by `picture`: checking never draws
    from pnpforge.gamekit import BoardPicture

HERE = Path(__file__).parent
GAME = folder_id(HERE)  # the game's id: its folder's name
Players = Annotated[StrictInt, player_count(HERE, "Good Shepherds")]  # game.yaml's range
FARM_FILE = HERE / "farm.yaml"
Player = Literal[1, 2]
UnitKind = Literal["sheep", "pasture", "hut"]


class FarmCell(SetupModel):
    at: Coord


class StartHut(SetupModel):
    player: Player
    at: Coord


class FarmBoard(SetupModel):
    """farm.yaml's format; `cols`, `rows` and `offset` describe it for people and print specs only."""

    cols: StrictInt | None = None
    rows: StrictInt | None = None
    offset: str | None = None
    start_huts: list[StartHut]
    cells: list[FarmCell]


class Unit(SetupModel):
    at: Coord
    unit: UnitKind
    player: Player
    destroyed: StrictBool = False


class Setup(SetupModel):
    game: str  # its game was found by it
    players: Players = 2
    board: Literal["farm"] | FarmBoard = "farm"
    units: list[Unit] = []


def _board_problems(board: FarmBoard, source: Source, at: Path_) -> list:
    problems = []
    seen: set[Hex] = set()
    for index, cell in enumerate(board.cells):
        if cell.at in seen:
            message = Phrase(N_("cell {cell} given twice (expected each cell once)"), cell=str(list(cell.at)))
            problems.append(source.problem((*at, "cells", index, "at"), message))
        seen.add(cell.at)
    players = [h.player for h in board.start_huts]
    if sorted(players) != [1, 2]:
        problems.append(
            source.problem(
                (*at, "start_huts"), Phrase(N_("expected one starting hut for player 1 and one for 2"))
            )
        )
    for index, hut in enumerate(board.start_huts):
        if hut.at not in seen:
            message = Phrase(N_("starting hut at {cell} is not a cell of the board"), cell=str(list(hut.at)))
            problems.append(source.problem((*at, "start_huts", index, "at"), message))
    return problems


@cache
def load_farm(path: Path = FARM_FILE) -> FarmBoard:
    """farm.yaml, type-checked; errors there are located like a user's."""
    source = read_yaml(path)
    board = validate(FarmBoard, source)
    problems = _board_problems(board, source, ())
    if problems:
        raise InputError(problems)
    return board


@dataclass(frozen=True)
class FarmState:
    """A farm board and what is written on it: the form the checks and the scorer work on."""

    cells: frozenset[Hex]
    start_huts: dict[Hex, int]  # cell -> player
    units: tuple[Unit, ...]

    def at(self) -> dict[Hex, list[Unit]]:
        out: dict[Hex, list[Unit]] = {}
        for unit in self.units:
            out.setdefault(unit.at, []).append(unit)
        return out


def farm_board(setup: Setup) -> FarmBoard:
    return load_farm() if setup.board == "farm" else setup.board


def farm_state(setup: Setup) -> FarmState:
    board = farm_board(setup)
    huts: dict[Hex, int] = {h.at: h.player for h in board.start_huts}
    return FarmState(frozenset(c.at for c in board.cells), huts, tuple(setup.units))


def _input_problems(setup: Setup, source: Source) -> None:
    problems = [] if setup.board == "farm" else _board_problems(setup.board, source, ("board",))
    cells = {c.at for c in farm_board(setup).cells}
    for index, unit in enumerate(setup.units):
        if unit.at not in cells:
            message = Phrase(
                N_("cell {cell} is not on the farm board (expected one of its `cells`)"),
                cell=str(list(unit.at)),
            )
            problems.append(source.problem(("units", index, "at"), message))
        if unit.destroyed and unit.unit != "pasture":
            message = Phrase(
                N_("only a pasture can be destroyed (crossed out), not a {unit}"), unit=Phrase.word(unit.unit)
            )
            problems.append(source.problem(("units", index, "destroyed"), message))
    if problems:
        raise InputError(problems)


def check(setup: Setup, source: Source) -> Report:
    _input_problems(setup, source)
    return farm_report(farm_state(setup))


def legal_farm(state: FarmState) -> bool:
    """True when nothing on the board breaks the placement rules (see `farm_report`)."""
    return farm_report(state).valid


# words said as data (set-up keys and values, kinds, labels, names of fields): marked for the
# catalogs (locale/*.po), where each language says them in the game's words
DATA_WORDS = (
    N_("sheep"),
    N_("pasture"),
    N_("hut"),
    N_("X"),
)


def farm_report(state: FarmState) -> Report:
    """Every placement rule the state breaks (cells off the board are the caller's input error): the
    rules of game.yaml's `setup:` section, on this state's board and units.

    One unit per cell; the starting huts in place; no two huts touching; live pastures (both players')
    in groups of at most 5; no live pasture touching a sheep (it would have been crossed out); and a
    crossed-out pasture touches a sheep (nothing else crosses one out).
    """
    report = Report(GAME)
    data_rules(GAME, HERE).judge(_table(state), report)
    return report


def _table(state: FarmState) -> SetupTable:
    """The state as the data rules see it: every cell land, the starting huts as spots, the units as
    pieces (crossed out when destroyed), two players."""
    board = SetupBoard(
        dict.fromkeys(state.cells, "land"), spots={"start_huts": sorted(state.start_huts.items())}
    )
    placed = [PlacedPiece(u.at, u.unit, u.player, u.destroyed) for u in state.units]
    return SetupTable(placed, board, 2)


def picture(setup: Setup) -> BoardPicture:
    """The farm board as drawn by `pnpforge setup good-shepherds --draw`: the data rules' picture of
    the board and units (game.yaml's `setup:`: its title, key, marks and colours)."""
    return data_rules(GAME, HERE).draw(_table(farm_state(setup)))
