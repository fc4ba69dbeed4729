"""Ankh: Gods of Egypt: the game's rules as pnpforge reaches them (docs/games/ankh.md).

Each hook imports its module only when a command needs it (pnpforge.contract).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from pnpforge.gamekit import Caravans, Dealer, Game, Scorer, SetupRules, folder_id


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
        values=deal.VALUES,
        terms=deal.TERMS,
    )


def _score() -> Scorer:
    from . import score

    return Scorer(
        score.Input,
        score.score,
        score.FIELDS,
        player_names=score.player_names,
    )


def _caravans() -> Caravans:
    from . import caravans

    return Caravans(caravans.caravans, caravans.describe)


HERE = Path(__file__).parent
GAME = Game(folder_id(HERE), HERE, setup=_setup, deal=_deal, score=_score, caravans=_caravans, names=_names)
