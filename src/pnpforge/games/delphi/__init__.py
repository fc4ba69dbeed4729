"""The Oracle of Delphi: the game's rules as pnpforge reaches them (docs/games/delphi.md).

Each hook imports its module only when a command needs it (pnpforge.contract).
"""

from __future__ import annotations

from pathlib import Path

from pnpforge.gamekit import Dealer, Game, SetupRules, data_names, data_scorer, folder_id


def _setup() -> SetupRules:
    from . import checks

    return SetupRules(checks.Setup, checks.check, picture=checks.picture)


def _deal() -> Dealer:
    from . import deal

    return Dealer(
        deal.deal,
        options=deal.OPTIONS,
        choices=lambda: deal.OPTION_CHOICES,
        labels=deal.LABELS,
        values=deal.VALUES,
    )


HERE = Path(__file__).parent
ID = folder_id(HERE)
# the score sheet is data: game.yaml's `scoring:` (docs/scoring.md); its words there come first
GAME = Game(ID, HERE, setup=_setup, deal=_deal, score=data_scorer(ID, HERE), names=data_names(ID, HERE))
