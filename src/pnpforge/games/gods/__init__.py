"""Gods: the game's rules as pnpforge reaches them (docs/games/gods.md).

Each hook imports its module only when a command needs it (pnpforge.contract).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from pnpforge.gamekit import Dealer, Game, SetupRules, data_names, data_scorer, folder_id


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
        options=deal.OPTIONS,
        choices=deal.option_choices,
        labels=deal.LABELS,
        values=deal.option_words(),
        terms=deal.TERMS,
        seats=deal.SEATS,
    )


HERE = Path(__file__).parent
ID = folder_id(HERE)
# the score sheet is data: game.yaml's `scoring:` (docs/scoring.md); its words there come first
GAME = Game(
    ID, HERE, setup=_setup, deal=_deal, score=data_scorer(ID, HERE), names=data_names(ID, HERE, _names)
)
