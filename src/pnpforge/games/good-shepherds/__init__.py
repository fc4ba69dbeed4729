"""Good Shepherds: the game's rules as pnpforge reaches them (docs/games/good-shepherds.md).

Each hook imports its module only when a command needs it (pnpforge.contract). The score sheet is data:
game.yaml's `scoring:` (docs/scoring.md), and so are the set-up rules and picture: its `setup:`
(docs/setups.md). What stays Python and why: reading a set-up file and the dealer (checks.py, deal.py:
the file's own `units` format, said in their docstrings), and board.py, which counts the units from a
farm-board state given instead of the counts (`farm:`) and, for the immediate end, looks for a free
cell beside a live unit — geometry on a board, which the score sheet's vocabulary cannot say.
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


def _setup() -> SetupRules:
    from . import checks

    return SetupRules(checks.Setup, checks.check, picture=checks.picture)


def _deal() -> Dealer:
    from . import deal

    return Dealer(
        deal.deal,
    )


def _count_farm(data: Any, source: Source, tables: Mapping[str, Any]) -> list[Any]:
    from . import board

    board.count(data, source)
    return []


HERE = Path(__file__).parent
FARM = BoardCounts("farm", _count_farm)  # a farm-board state given instead of the counts: board.py
ID = folder_id(HERE)
# the rules are data: game.yaml's `scoring:` and `setup:`; its words there come first
GAME = Game(
    ID, HERE, setup=_setup, deal=_deal, score=data_scorer(ID, HERE, board=FARM), names=data_names(ID, HERE)
)
