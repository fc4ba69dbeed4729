"""Good Shepherds: the game's rules as pnpforge reaches them (docs/games/good-shepherds.md).

Each hook imports its module only when a command needs it (pnpforge.contract).
"""

from __future__ import annotations

from pathlib import Path

from pnpforge.gamekit import Dealer, Game, Scorer, SetupRules, data_names, folder_id


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
ID = folder_id(HERE)
# the set-up rules are data: game.yaml's `setup:` (docs/setups.md); its words there come first
GAME = Game(ID, HERE, setup=_setup, deal=_deal, score=_score, names=data_names(ID, HERE))
