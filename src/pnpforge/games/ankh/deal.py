"""Ankh: Gods of Egypt: deal a set-up following the Ankh rulebook's set-up steps.

Gods are drawn for the seats, one guardian card of each level is drawn, and the scenario for the player
count (from the map file's OldKingdom or MiddleKingdom set, chosen at random unless `scenario=` is given)
places the monuments, camels, conflict order tokens and figures, player #1 being the first player.
"""

from __future__ import annotations

import random
from typing import Any

from pnpforge.errors import InputError
from pnpforge.validator.setupfile import COMMAND_LINE, reject_unknown_options

from . import checks as _checks

OPTIONS = ("scenario",)


def option_choices() -> dict[str, list[str]]:
    """The values an option may take, for pickers (the table page): the map file's scenarios."""
    return {"scenario": sorted(_checks.scenarios())}  # read on demand: dealing needs them anyway


# the set-up file's words on the Japanese table page's "What goes where" (Ankh rulebook, コンポーネント,
# セットアップ); the scenario sets are named as the two eras are in Japanese (the rulebook names none)
JA_WORDS = {
    "players": "プレイヤー数",
    "scenario": "シナリオ",
    "OldKingdom": "古王国",
    "MiddleKingdom": "中王国",
    "map": "マップ",
    "bundled": "同梱のマップ",
    "seats": "席順",
    "seat": "席",
    "god": "神",
    "guardians": "ガーディアン",
    "caravans": "ラクダの隊商",
    "conflict_order": "紛争順序トークン",
    "token": "トークン",
    "region": "地域",
    "pieces": "コマ",
    "piece": "コマ",
    "at": "位置",
    "player": "プレイヤー",
    "warrior": "戦士",
    "obelisk": "オベリスク",
    "temple": "神殿",
    "pyramid": "ピラミッド",
    "ankh": "アンクトークン",
}


def ja() -> dict[str, str]:
    """The set-up's words in Japanese; the gods and guardians by their Japanese names (gods.csv,
    guardians.csv)."""
    return {**JA_WORDS, **_checks.ja()}


def _side(edge: dict[str, Any]) -> list[list[int]]:
    return [list(edge["cell"]), list(edge["other"])]


def deal(players: int, seed: int, options: dict[str, str]) -> dict[str, Any]:
    reject_unknown_options(options, OPTIONS)
    rng = random.Random(seed)
    sets = _checks.scenarios()
    name = options.get("scenario") or rng.choice(sorted(sets))
    if name not in sets:
        raise InputError.single(
            COMMAND_LINE, f"unknown scenario {name!r} (expected one of: {', '.join(sets)})"
        )
    scenario = next(s for s in sets[name] if s["players"] == players)
    gods = sorted(_checks.gods())
    by_level: dict[int, list[str]] = {}
    for guardian, row in sorted(_checks.guardians().items()):
        by_level.setdefault(int(row["level"]), []).append(guardian)
    data: dict[str, Any] = {"game": "ankh", "players": players, "scenario": name, "map": "bundled"}
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
