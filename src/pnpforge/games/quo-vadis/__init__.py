"""Quo Vadis: the game's rules as pnpforge reaches them (docs/games/quo-vadis.md).

Each hook imports its module only when a command needs it (pnpforge.contract). The score sheet is data:
game.yaml's `scoring:` (docs/scoring.md), which the designer edits with the design. What stays Python and
why: the set-up checks and the dealer (checks.py, deal.py), and board.py, which reads control, territory
and aptitude workers from a map given instead of the counts (`map:`, its keys typed in mapkeys.py) —
geometry on the map's turned tiles, which the score sheet's vocabulary of counts and expressions cannot
say.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pnpforge.gamekit import (
    BoardCounts,
    Dealer,
    Game,
    SetupRules,
    Source,
    data_names,
    data_scorer,
    folder_id,
)


def _names(lang: str) -> Mapping[str, str]:
    from . import checks

    return checks.names(lang)


def _setup() -> SetupRules:
    from . import checks

    return SetupRules(checks.Setup, checks.check, picture=checks.picture)


def _deal() -> Dealer:
    from . import deal

    return Dealer(
        deal.deal,
    )


def _count_map(data: Any, source: Source, tables: Mapping[str, Any]) -> list[Any]:
    from . import board

    return list(board.count(data, source, tables))


def _map() -> BoardCounts:
    """The keys a map gives meaning to are typed by mapkeys.py; board.py loads only with a map."""
    from . import mapkeys

    return BoardCounts("map", _count_map, mapkeys.shape, mapkeys.PLAYER_FIELDS, mapkeys.GAME_FIELDS)


HERE = Path(__file__).parent
ID = folder_id(HERE)
GAME = Game(
    ID,
    HERE,
    setup=_setup,
    deal=_deal,
    score=data_scorer(ID, HERE, board=_map),
    names=data_names(ID, HERE, _names),
)
