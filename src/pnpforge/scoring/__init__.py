"""The score sheet engine: players, scoring items, totals, ranking with tie-breaks, and printing.

It never imports a game. A game plugs in with the `score` hook of its `GAME`, a `Scorer` (its model,
its `score` function and its questions) described in pnpforge.contract, usually built from its
`games/<id>/score.py` out of the names below (which games take from pnpforge.gamekit). Rule breaks are
`Phrase`s: `Rules.nonnegative` / `Rules.at_most` word their sentence themselves (the engine's messages);
give them `owned(name, thing)` or a noun the game marks. The table (pnpforge.table.scorefile) reads a
score file, finds its game and runs that hook.
"""

from typing import TYPE_CHECKING

from pnpforge.lazy import exports

if TYPE_CHECKING:  # each name is imported from its module when first asked for (pnpforge.lazy)
    from pnpforge.scoring.inputs import (
        Count,
        Flag,
        Name,
        PlayerEntry,
        Rules,
        RulesBroken,
        Strict,
        known_names,
        owned,
    )
    from pnpforge.scoring.prompts import Field
    from pnpforge.scoring.sheet import DRAW, Phrase, PlayerScore, ScoreResult, Table, TieBreak, rank

__getattr__, __dir__ = exports(
    __name__,
    {
        "Count": "pnpforge.scoring.inputs",
        "DRAW": "pnpforge.scoring.sheet",
        "Field": "pnpforge.scoring.prompts",
        "Flag": "pnpforge.scoring.inputs",
        "known_names": "pnpforge.scoring.inputs",
        "Name": "pnpforge.scoring.inputs",
        "owned": "pnpforge.scoring.inputs",
        "Phrase": "pnpforge.scoring.sheet",
        "PlayerEntry": "pnpforge.scoring.inputs",
        "PlayerScore": "pnpforge.scoring.sheet",
        "rank": "pnpforge.scoring.sheet",
        "Rules": "pnpforge.scoring.inputs",
        "RulesBroken": "pnpforge.scoring.inputs",
        "ScoreResult": "pnpforge.scoring.sheet",
        "Strict": "pnpforge.scoring.inputs",
        "Table": "pnpforge.scoring.sheet",
        "TieBreak": "pnpforge.scoring.sheet",
    },
)

__all__ = [
    "DRAW",
    "Count",
    "Field",
    "Flag",
    "Name",
    "Phrase",
    "PlayerEntry",
    "PlayerScore",
    "Rules",
    "RulesBroken",
    "ScoreResult",
    "Strict",
    "Table",
    "TieBreak",
    "known_names",
    "owned",
    "rank",
]
