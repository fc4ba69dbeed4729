"""Ankh: Gods of Egypt: deal a set-up following the Ankh rulebook's set-up steps.

Gods are drawn for the seats, one guardian card of each level is drawn, and the scenario for the player
count (from the map file's OldKingdom or MiddleKingdom set, chosen at random unless `scenario=` is given)
places the monuments, camels, conflict order tokens and figures, player #1 being the first player.

Stays Python: dealing is a procedure (draws, a scenario's placements), not a rule a set-up is checked by.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from pnpforge.gamekit import COMMAND_LINE, N_, InputError, Phrase, folder_id, quoted, reject_unknown_options

from . import checks as _checks

GAME = folder_id(Path(__file__).parent)  # the game's id: its folder's name

OPTIONS = ("scenario",)
LABELS = {"scenario": N_("Scenario")}  # the page's deal form says it so (Ankh rulebook, セットアップ)
# and the bundled map's scenario sets, named for the two eras (a map's other sets: its names as they are)
VALUES = {"scenario": {"OldKingdom": N_("Old Kingdom"), "MiddleKingdom": N_("Middle Kingdom")}}


def option_choices() -> dict[str, list[str]]:
    """The values an option may take, for pickers (the table page): the map file's scenarios."""
    return {"scenario": sorted(_checks.scenarios())}  # read on demand: dealing needs them anyway


# the set-up file's words, as the table page's "What goes where" says them (Ankh rulebook, コンポーネント,
# セットアップ; the scenario sets are named for the two eras, the rulebook names none): marked for the
# catalogs (locale/*.po); the gods and guardians by the names their data files print (GAME.names)
DATA_WORDS = (
    N_("players"),
    N_("scenario"),
    N_("OldKingdom"),
    N_("MiddleKingdom"),
    N_("map"),
    N_("bundled"),
    N_("seats"),
    N_("seat"),
    N_("guardians"),
    N_("caravans"),
    N_("conflict_order"),
    N_("token"),
    N_("region"),
    N_("pieces"),
    N_("piece"),
    N_("at"),
    N_("player"),
    N_("warrior"),
    N_("obelisk"),
    N_("temple"),
    N_("pyramid"),
    N_("ankh"),
)
# a seat's `god` is the god itself (on the score sheet a region's `god` asks for its figure)
TERMS = {"god": N_("the seat's god")}


def _side(edge: dict[str, Any]) -> list[list[int]]:
    return [list(edge["cell"]), list(edge["other"])]


def deal(players: int, seed: int, options: dict[str, str]) -> dict[str, Any]:
    reject_unknown_options(options, OPTIONS)
    rng = random.Random(seed)
    sets = _checks.scenarios()
    name = options.get("scenario") or rng.choice(sorted(sets))
    if name not in sets:
        raise InputError.single(
            COMMAND_LINE, Phrase(_checks.UNKNOWN_SCENARIO, name=quoted(name), known=list(sets))
        )
    scenario = next(s for s in sets[name] if s["players"] == players)
    gods = sorted(_checks.gods())
    by_level: dict[int, list[str]] = {}
    for guardian, row in sorted(_checks.guardians().items()):
        by_level.setdefault(int(row["level"]), []).append(guardian)
    data: dict[str, Any] = {"game": GAME, "players": players, "scenario": name, "map": "bundled"}
    if len(gods) >= players:
        data["seats"] = [{"seat": i, "god": g} for i, g in enumerate(rng.sample(gods, players), 1)]
    if by_level:
        data["guardians"] = [rng.choice(by_level[level]) for level in sorted(by_level)]
    data["caravans"] = [[_side(e) for e in split["edges"]] for split in scenario["camel_splits"]]
    data["conflict_order"] = [
        {"token": r["id"], "region": list(min(tuple(c) for c in r["cells"]))}
        for r in sorted(scenario["regions"], key=lambda r: r["id"])
    ]
    data["pieces"] = [
        {"piece": p["piece"], "at": list(p["at"]), "player": p["player"]} for p in scenario["places"]
    ]
    return data
