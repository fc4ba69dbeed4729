"""A scored sheet made into a play: its game's version (the spec's `version:`) and each seat's faction
(a game whose players go by names it knows, as Ankh's gods: the name given, canonical; or one given)."""

from __future__ import annotations

import datetime
from typing import Any

from pnpforge import catalog, contract
from pnpforge.store.plays import Play, from_result

__all__ = ["play_of", "today"]


def today() -> str:
    return datetime.date.today().isoformat()


def factions_of(game_id: str, names: list[str], given: dict[str, str] | None = None) -> dict[str, str]:
    """Each player's faction: `given` first, else the game's own name for the seat when the player goes
    by it (Ankh: `amun`, `Amun` and `アムン` are all Amun)."""
    out = dict(given or {})
    from pnpforge import i18n

    rules = contract.of(catalog.find_game(game_id))
    known = list(rules.scorer().player_names()) if rules.score is not None else []
    by_spelling = {}
    for lang in i18n.languages():  # a seat's name in any language the game speaks (アムン is Amun)
        said = rules.translator(lang)
        by_spelling.update({said(k).casefold(): k for k in known})
    by_spelling.update({k.casefold(): k for k in known})
    for name in names:
        if name not in out and name.casefold() in by_spelling:
            out[name] = by_spelling[name.casefold()]
    return out


def play_of(
    result: dict[str, Any],
    data: dict[str, Any],
    source: str,
    played: str | None = None,
    factions: dict[str, str] | None = None,
) -> Play:
    """The play of `score --json`'s `result` for the score file `data`."""
    game = str(result["game"])
    info = catalog.game_info(catalog.find_game(game))
    version = info.get("version")
    names = [str(p["name"]) for p in result.get("players", [])]
    return from_result(
        result,
        data,
        played or today(),
        None if version is None else str(version),
        source,
        factions_of(game, names, factions),
    )
