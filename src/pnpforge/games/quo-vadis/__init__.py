"""Quo Vadis: the game's rules as pnpforge reaches them (docs/games/quo-vadis.md).

Each hook imports its module only when a command needs it (pnpforge.contract).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from pnpforge.gamekit import Dealer, Game, Scorer, SetupRules, folder_id


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


def _score() -> Scorer:
    from . import score

    return Scorer(
        score.Input,
        score.score,
        score.FIELDS,
    )


HERE = Path(__file__).parent
GAME = Game(folder_id(HERE), HERE, setup=_setup, deal=_deal, score=_score, names=_names)
