"""Good Shepherds: one settlement, or the immediate end (Good Shepherds rulebook, 決算 and ゲームの終了).

Per player: sheep up to their own live pastures earn 5 each, otherwise the sheep earn nothing and
each sheep over costs 5; +1 per own live pasture; 3 per hut more than the opponent. The game ends
after a settlement that leaves someone at 100 or more or below 0 (exactly 0 does not end it).
It also ends at once, with no settlement, when someone can no longer place any unit whatever the
dice (「ただちに終了します」): `ending: no-placement` scores that end from the money as it stands.
Either way more money wins, then more sheep, else a draw.

The units are counted by the players (`sheep`, `pastures`, `huts`) or read from a farm-board
state in the set-up file format (`farm:`), where pastures next to sheep are already crossed out.

Stays Python, not game.yaml's `scoring:` (docs/scoring.md): it reads the units from a farm-board
state (a set-up file), and its immediate end is checked by looking for a free cell beside a live unit,
which the data vocabulary of counts and expressions cannot say.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Final, Literal

from pnpforge.gamekit import (
    N_,
    Count,
    Field,
    Hex,
    InputError,
    Phrase,
    PlayerEntry,
    PlayerScore,
    Rules,
    RulesBroken,
    ScoreResult,
    Source,
    Strict,
    TieBreak,
    folder_id,
    hexgrid,
    linked_setup,
    owned,
    series,
)

from . import checks

GAME = folder_id(Path(__file__).parent)  # the game's id: its folder's name

# Rulebook facts (決算, ◆ゲームの流れ, ◆ゲームの終了).
SHEEP_INCOME = 5
SHEEP_PENALTY = 5
PASTURE_INCOME = 1
HUT_INCOME = 3
START_MONEY = 10
END_AT_OR_ABOVE = 100
END_BELOW = 0


class Player(PlayerEntry):
    money: Count = START_MONEY
    sheep: Count = 0
    pastures: Count = 0
    huts: Count = 1


# the two ways a score file can end
SETTLEMENT: Final = "settlement"  # both marked for the catalogs in DATA_WORDS
NO_PLACEMENT: Final = "no-placement"


class Input(Strict):
    game: str  # its game was found by it
    players: list[Player]
    ending: Literal["settlement", "no-placement"] = SETTLEMENT
    farm: str | dict[str, Any] | None = None  # a farm-board state: a set-up file's path, or inline


FIELDS = [
    Field(
        "ending",
        "settlement (doubles were rolled) or no-placement (a player can place no unit, whatever the dice)",
        "no-placement ends the game at once, with no settlement",
        kind="choice",
        default=SETTLEMENT,
        choices=(SETTLEMENT, NO_PLACEMENT),
        per_player=False,
    ),
    Field(
        "money",
        "money before this settlement (the final money if no-placement)",
        Phrase(N_("everyone starts with {money}"), money=START_MONEY),
        default=START_MONEY,
    ),
    Field(
        "sheep",
        "sheep (○)",
        Phrase(
            N_("{income} each if no more than your live pastures, else -{penalty} per sheep over"),
            income=SHEEP_INCOME,
            penalty=SHEEP_PENALTY,
        ),
    ),
    Field(
        "pastures", "live pastures (△, not crossed out)", Phrase(N_("{income} each"), income=PASTURE_INCOME)
    ),
    Field(
        "huts",
        "huts (■, the starting hut included)",
        Phrase(N_("{income} per hut more than the opponent"), income=HUT_INCOME),
        default=1,
    ),
]

GOES_ON = N_("The game goes on: nobody has {high} or more or below {low} (exactly 0 goes on).")
ENDS = N_("The game ends: {why} ({high} or more, or below {low}, ends it).")
HAS = N_("{name} has {money}")
# the rule breaks, as templates (a `Phrase` each) said in the catalogs (locale/*.po)
START_HUT = N_("{name} has no hut, but the starting hut is printed on the board")
MONEY_OUT = N_(
    "{name} had {money} before this settlement, but the game ended when anyone reached {high} "
    "or fell below {low}"
)
STILL_PLACE = N_("the game has not ended at once: every player can still place a unit ({where})")
FREE_AT = N_("{name} at {cell}")

# the score sheet's words: the web page and `score --lang LANG` (Good Shepherds rulebook,
# ユニット, 決算, ゲームの終了)
# words said as data (set-up keys and values, kinds, labels, names of fields): marked for the
# catalogs (locale/*.po), where each language says them in the game's words
DATA_WORDS = (
    N_("settlement"),
    N_("no-placement"),
    N_("settlement (doubles were rolled) or no-placement (a player can place no unit, whatever the dice)"),
    N_("no-placement ends the game at once, with no settlement"),
    N_("money before this settlement (the final money if no-placement)"),
    N_("sheep (○)"),
    N_("live pastures (△, not crossed out)"),
    N_("huts (■, the starting hut included)"),
    N_("money before"),
    N_("money"),
    N_("sheep"),
    N_("pastures"),
    N_("huts"),
    N_("No winner yet."),
    N_("The game ends at once: a player can no longer place any unit (no settlement)."),
    N_("units"),
)


def settle(sheep: int, pastures: int, huts: int, their_huts: int) -> dict[str, int]:
    """One player's income from one settlement, item by item."""
    over = sheep - pastures
    return {
        "sheep": SHEEP_INCOME * sheep if over <= 0 else -SHEEP_PENALTY * over,
        "pastures": PASTURE_INCOME * pastures,
        "huts": HUT_INCOME * max(0, huts - their_huts),
    }


def ends(money: int) -> bool:
    return money >= END_AT_OR_ABOVE or money < END_BELOW


def _check(data: Input, rules: Rules) -> None:
    for i, p in enumerate(data.players):
        for key in ("sheep", "pastures", "huts"):
            rules.nonnegative(("players", i, key), getattr(p, key), owned(p.name, key))
        if p.huts == 0:
            rules.error(
                "start-hut",
                ("players", i, "huts"),
                Phrase(START_HUT, name=p.name),
            )
        if ends(p.money):
            rules.error(
                "money-out-of-play",
                ("players", i, "money"),
                Phrase(MONEY_OUT, name=p.name, money=p.money, high=END_AT_OR_ABOVE, low=END_BELOW),
            )
    rules.done()


FROM_FARM = N_("{key} comes from the farm board here; give one or the other")


def _from_farm(data: Input, source: Source) -> None:
    """Count each player's units on the farm board; player 1 is the first listed (the left hut)."""
    counted = [
        source.problem(("players", i, key), Phrase(FROM_FARM, key=key))
        for i, p in enumerate(data.players)
        for key in ("sheep", "pastures", "huts")
        if key in p.model_fields_set
    ]
    if counted:
        raise InputError(counted)
    assert data.farm is not None
    loaded = linked_setup(source, ("farm",), data.farm, GAME)
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


def _check_stuck(data: Input, state: Any, source: Source) -> None:
    """`ending: no-placement` from a farm board: someone must really be unable to place a unit."""
    free = {p.name: free_cell(state, number) for number, p in enumerate(data.players, 1)}
    if all(cell is not None for cell in free.values()):
        rules = Rules(GAME, source)
        spots = [Phrase(FREE_AT, name=name, cell=str(list(cell or ()))) for name, cell in free.items()]
        rules.error("can-still-place", ("ending",), Phrase(STILL_PLACE, where=series(spots)))
        rules.done()


def _units(p: Player) -> dict[str, int | str]:
    return {"units": f"{p.sheep}○ {p.pastures}△ {p.huts}■"}


def _settlement(data: Input) -> list[PlayerScore]:
    first, second = data.players
    rows = []
    for me, them in ((first, second), (second, first)):
        breakdown = {"money before": me.money, **settle(me.sheep, me.pastures, me.huts, them.huts)}
        rows.append(PlayerScore(me.name, breakdown, info=_units(me)))
    return rows


def _no_placement(data: Input) -> list[PlayerScore]:
    """The immediate end: the money as it stands is final; the units only break a tie (sheep)."""
    return [PlayerScore(p.name, {"money": p.money}, info=_units(p)) for p in data.players]


def score(data: Input, source: Source) -> ScoreResult:
    if data.farm is not None:
        _from_farm(data, source)
    _check(data, Rules(GAME, source))
    if data.ending == NO_PLACEMENT:
        rows, finished = _no_placement(data), True
        note = "The game ends at once: a player can no longer place any unit (no settlement)."
    else:
        rows = _settlement(data)
        over = [r for r in rows if ends(int(r.total or 0))]
        finished = bool(over)
        limits = {"high": END_AT_OR_ABOVE, "low": END_BELOW}
        if over:
            note = Phrase(ENDS, why=[Phrase(HAS, name=r.name, money=r.total) for r in over], **limits)
        else:
            note = Phrase(GOES_ON, **limits)
    sheep = {p.name: p.sheep for p in data.players}
    return ScoreResult.ranked(
        GAME,
        rows,
        [TieBreak.by("sheep", sheep)],
        eligible=None if finished else [],
        notes=[note],
        details={"game_ends": finished, "ending": data.ending},
        verdict=None if finished else "No winner yet.",
    )
