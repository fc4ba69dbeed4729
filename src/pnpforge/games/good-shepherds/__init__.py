"""Good Shepherds: the game's rules as pnpforge reaches them (docs/games/good-shepherds.md).

Each hook imports its module only when a command needs it (pnpforge.contract).
"""

from __future__ import annotations

from pathlib import Path

from pnpforge.gamekit import Dealer, Game, Scorer, SetupRules, folder_id


def _setup() -> SetupRules:
    from . import checks

    return SetupRules(checks.Setup, checks.check, picture=checks.picture)


def _deal() -> Dealer:
    from . import deal

    return Dealer(
        deal.deal,
    )


def _score() -> Scorer:
    from . import score

    return Scorer(
        score.Input,
        score.score,
        score.FIELDS,
    )


HERE = Path(__file__).parent
GAME = Game(folder_id(HERE), HERE, setup=_setup, deal=_deal, score=_score)
