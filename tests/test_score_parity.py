"""A game whose score sheet moved from Python to data scores as it did: the same JSON, sheet, codes and
messages, in English and Japanese, over the cases of its tests, its docs and its example score file.

`tests/data/score-parity-<game>.json` was recorded from the game's Python score.py before the move
(`python tests/test_score_parity.py record GAME`, run while the Python rules were still the game's);
these tests hold the data rules (game.yaml's `scoring:`) to every recorded outcome.
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from test_score_good_shepherds import FARM, STRIP
from test_score_quo_vadis import MAP as QV_MAP

from pnpforge.cli import main

HERE = Path(__file__).parent
REPO = HERE.parent

# a farm board (written beside the score files as farm.yaml) and a strip where Ann's hut is boxed in
# Quo Vadis: a final score needs ten cards per player; the other two players' spread
_QV_OTHERS = (
    "  - {name: Bob, generations: [5, 5, 0, 0, 0, 0]}\n  - {name: Cy, generations: [4, 3, 3, 0, 0, 0]}\n"
)
_QV_BALANCED = [
    "[10, 0, 0, 0, 0, 0]",
    "[5, 5, 0, 0, 0, 0]",
    "[4, 3, 3, 0, 0, 0]",
    "[3, 3, 2, 2, 0, 0]",
    "[1, 1, 1, 1, 6, 0]",
]
# files a game's cases name, written beside the score file
BESIDE: dict[str, dict[str, str]] = {"good-shepherds": {"farm.yaml": FARM}, "quo-vadis": {"map.yaml": QV_MAP}}

# score files: "game: gods\n" comes first; each case is a players: section (and any game-wide keys)
CASES: dict[str, list[str]] = {
    "gods": [
        # tests/test_score_gods.py
        "players:\n"
        "  - {name: Ann, villages: {red: 1, blue: 1}, vp_cards: {red: 1, blue: 1}, temples: 4, crystals: 5}\n"
        "  - {name: Bob, villages: 1, vp_cards: 3, temples: 4, crystals: 2}\n"
        "  - {name: Cy, villages: 1, vp_cards: 1, temples: 3, crystals: 12}\n",
        "players:\n  - {name: Ann, villages: 2, temples: 2, crystals: 5}\n"
        "  - {name: Bob, villages: 2, temples: 2, crystals: 4}\n",
        "players:\n  - {name: Ann, villages: 2, temples: 2, crystals: 4}\n"
        "  - {name: Bob, villages: 2, temples: 2, crystals: 4}\n",
        "players: [{name: Ann}, {name: Bob}]\n",
        "players:\n"
        + "\n".join(
            f"  - {{name: P{i}, villages: {{{c}: 2}}, vp_cards: {{{c}: 3}}, temples: 6, crystals: 12}}"
            for i, c in enumerate(["red", "blue", "green", "yellow"])
        )
        + "\n",
        "players:\n  - {name: Ann, villages: {red: 2}}\n  - {name: Bob, villages: {red: 1}}\n",
        "players:\n  - {name: Ann, vp_cards: {blue: 4}}\n  - {name: Bob}\n",
        "players:\n  - {name: Ann, villages: 5}\n  - {name: Bob, villages: 4}\n",
        "players:\n  - {name: Ann, vp_cards: 7}\n  - {name: Bob, vp_cards: 6}\n",
        "players:\n  - {name: Ann, temples: 7, crystals: 13}\n  - {name: Bob}\n",
        "players:\n  - {name: Ann, villages: -1}\n  - {name: Bob}\n",
        "players:\n  - {name: Ann}\n  - {name: Bob, crystals: 13}\n",
        "players: [{name: Ann, villages: 2.5}, {name: Bob}]\n",
        "players: [{name: Ann, villages: {purple: 1}}, {name: Bob}]\n",
        "players: [{name: Ann}, {name: Ann}]\n",
        "players: [{name: Ann}]\n",
        "players: [{name: Ann, sheep: 2}, {name: Bob}]\n",
        # tests/test_score_lang.py, tests/test_score_cli.py
        "players:\n  - {name: Ann, villages: {red: 3, blue: -1}, temples: 7}\n"
        "  - {name: Bob}\n  - {name: Cy}\n",
        "players:\n"
        "  - {name: Ann, villages: {red: 1, blue: 1}, vp_cards: 2, temples: 3, crystals: 5}\n"
        "  - {name: Bob, villages: 2, vp_cards: 2, temples: 3, crystals: 7}\n",
        # tests/test_serve.py's hand-typed sheet
        "players:\n  - {name: Ann, villages: 2, vp_cards: 1, temples: 1, crystals: 3}\n"
        "  - {name: Bob, villages: 1, vp_cards: 3, temples: 2, crystals: 1}\n"
        "  - {name: Cy, villages: 1, vp_cards: 2, temples: 2, crystals: 5}\n",
        "players:\n  - {name: Ann, villages: 7}\n  - {name: Bob}\n  - {name: Cy}\n",
        "players:\n  - {name: Ann, villages: three}\n  - {name: Bob, temples: 1.5}\n",
        # every limit and message at once, in the order they are found
        "players:\n  - {name: Ann, villages: {red: -1, blue: 2, green: 2}, vp_cards: {red: 3, green: 3},"
        " temples: -2, crystals: 14}\n  - {name: Bob, villages: {blue: 1, yellow: 2},"
        " vp_cards: {red: 1, green: -1}, temples: 9, crystals: -3}\n"
        "  - {name: Cy, villages: 6, vp_cards: 12}\n",
        "players:\n  - {name: Ann, villages: true}\n  - {name: Bob, vp_cards: {red: 1.5}}\n",
        "players:\n  - {name: Ann, villages: {}, vp_cards: {}}\n  - {name: Bob, temples: 0}\n",
        "players:\n  - {name: Ann, villages: [1]}\n  - {name: Bob, vp_cards: '2'}\n",
        "players:\n  - {name: Ann, villages: {red: 1, Red: 1}}\n  - {name: Bob}\n",
        "players:\n  - {name: Ann, temples: 3}\n  - {name: Bob, temples: 3}\n  - {name: Cy, temples: 1}\n"
        "  - {name: Dee, temples: 3, crystals: 1}\n",
        "players:\n  - {name: Ann, temples: 0}\n  - {name: Bob, temples: 1, crystals: 2}\n",
        "players:\n  - {name: Ann}\n  - {name: Bob}\n  - {name: Cy}\n  - {name: Dee}\n  - {name: Eve}\n",
        "players:\n  - {name: Ann, crystals: 12, temples: 6, villages: 5}\n"
        "  - {name: Bob, villages: {yellow: 2}}\n",
    ],
    "delphi": [
        # tests/test_score_delphi.py (DONE: every task and at Zeus)
        "players:\n  - {name: P1, shrine: 3, statue: 3, offering: 3, monster: 3, zeus: true,"
        " oracle_cards: 0}\n  - {name: P2, shrine: 3, statue: 3, offering: 3, monster: 2, oracle_cards: 5}\n",
        "players:\n"
        + "".join(
            f"  - {{name: P{i}, shrine: 3, statue: 3, offering: 3, monster: 3, zeus: true,"
            f" oracle_cards: {c}}}\n"
            for i, c in enumerate([2, 3, 3], 1)
        ),
        "players:\n"
        + "".join(
            f"  - {{name: P{i}, shrine: 3, statue: 3, offering: 3, monster: 3, zeus: true, {extra}}}\n"
            for i, extra in enumerate(["oracle_cards: 3, favour: 1", "oracle_cards: 3, favour: 4"], 1)
        ),
        "players:\n"
        + "".join(
            f"  - {{name: P{i}, shrine: 3, statue: 3, offering: 3, monster: 3, zeus: true, {extra}}}\n"
            for i, extra in enumerate(["oracle_cards: 4, favour: 0", "oracle_cards: 3, favour: 9"], 1)
        ),
        "players:\n"
        + "".join(
            f"  - {{name: P{i}, shrine: 3, statue: 3, offering: 3, monster: 3, zeus: true, {extra}}}\n"
            for i, extra in enumerate(["oracle_cards: 1, favour: 2", "oracle_cards: 1, favour: 2"], 1)
        ),
        "players:\n  - {name: P1, shrine: 1}\n  - {name: P2, monster: 3, oracle_cards: 9}\n",
        "tasks: 8\nplayers:\n  - {name: P1, shrine: 2, statue: 2, offering: 2, monster: 2, zeus: true}\n"
        "  - {name: P2, shrine: 2, statue: 2, offering: 2, monster: 1}\n",
        "tasks: 10\nplayers:\n  - {name: P1, statue: 2, shrine: 2, monster: 3, offering: 3, zeus: true}\n"
        "  - {name: P2, shrine: 1}\n",
        "players:\n"
        + "".join(
            f"  - {{name: P{i}, shrine: 3, statue: 3, offering: 3, monster: 3, zeus: true, oracle_cards: 7,"
            " favour: 6}\n"
            for i in range(1, 5)
        ),
        "players:\n  - {name: P1, shrine: 4, favour: -1}\n  - {name: P2, monster: 2, zeus: true}\n",
        "tasks: 13\nplayers:\n  - {name: P1, shrine: 1}\n  - {name: P2, shrine: 1}\n",
        "tasks: 7\nplayers:\n  - {name: P1, shrine: -1}\n  - {name: P2, shrine: 9}\n",
        "tasks: -2\nplayers:\n  - {name: P1}\n  - {name: P2}\n",
        "players:\n  - {name: P1, zeus: maybe}\n  - {name: P2, shrine: 1}\n",
        "players:\n  - {name: P1, shrine: '2'}\n  - {name: P2, shrine: 1}\n",
        "players:\n" + "".join(f"  - {{name: P{i}, shrine: 1}}\n" for i in range(1, 6)),
        # tests/test_score_lang.py, tests/test_serve.py
        "players:\n  - {name: Ann, statue: 4, zeus: true, favour: -2}\n  - {name: Bob}\n",
        "players:\n  - {name: Ann, shrine: 3, statue: 3, offering: 3, monster: 3, zeus: true,"
        " oracle_cards: 2, favour: 1}\n  - {name: Bob, shrine: 3, statue: 3, offering: 3, monster: 3,"
        " zeus: true, oracle_cards: 2, favour: 4}\n  - {name: Cy, shrine: 2, statue: 1}\n",
        # every limit and message at once
        "tasks: 9\nplayers:\n  - {name: Ann, shrine: 3, statue: 3, offering: -1, monster: 4, zeus: true,"
        " oracle_cards: -2}\n  - {name: Bob, shrine: 2, statue: 2, offering: 3, monster: 2, zeus: true}\n"
        "  - {name: Cy, statue: 3, favour: -1, oracle_cards: 3}\n",
        "tasks: 11\nplayers:\n  - {name: Ann, shrine: 3, statue: 2, offering: 3, monster: 3, zeus: true}\n"
        "  - {name: Bob, shrine: 3, statue: 3, offering: 3, monster: 3}\n",
        "tasks: 8\nplayers:\n  - {name: Ann, zeus: false, favour: 3}\n  - {name: Bob, sheep: 1}\n",
    ],
    "good-shepherds": [
        # tests/test_score_good_shepherds.py
        "players:\n  - {name: Ann, money: 10, sheep: 3, pastures: 3, huts: 1}\n"
        "  - {name: Bob, money: 10, sheep: 4, pastures: 3, huts: 1}\n",
        "players:\n  - {name: Ann, money: 20, huts: 4}\n  - {name: Bob, money: 20, huts: 1}\n",
        "players:\n  - {name: Ann, money: 9, sheep: 3, pastures: 1}\n  - {name: Bob, money: 10}\n",
        "players:\n  - {name: Ann, money: 9, sheep: 4, pastures: 1}\n  - {name: Bob, money: 10}\n",
        "players:\n  - {name: Ann, money: 88, sheep: 2, pastures: 2, huts: 1}\n  - {name: Bob, money: 50}\n",
        "players:\n  - {name: Ann, money: 87, sheep: 2, pastures: 2, huts: 1}\n  - {name: Bob, money: 50}\n",
        "players:\n  - {name: Ann, money: 95, sheep: 1, pastures: 2}\n"
        "  - {name: Bob, money: 98, sheep: 0, pastures: 4}\n",
        "players:\n  - {name: Ann, money: 99, pastures: 1}\n  - {name: Bob, money: 99, pastures: 1}\n",
        "ending: no-placement\nplayers:\n  - {name: Ann, money: 30, huts: 3}\n"
        "  - {name: Bob, money: 31, sheep: 4, pastures: 3, huts: 1}\n",
        "ending: no-placement\nplayers:\n  - {name: Ann, money: 40, sheep: 2}"
        "\n  - {name: Bob, money: 40, sheep: 1}\n",
        "ending: no-placement\nplayers:\n  - {name: Ann, money: 40, sheep: 2}"
        "\n  - {name: Bob, money: 40, sheep: 2}\n",
        "game_over: true\nplayers:\n  - {name: Ann, money: 30}\n  - {name: Bob, money: 20}\n",
        "players:\n  - {name: Ann, money: 100, sheep: -1}\n  - {name: Bob, huts: 0}\n",
        "players: [{name: Ann}, {name: Bob}]\n",
        "players: [{name: Ann}, {name: Bob}, {name: Cy}]\n",
        "farm: farm.yaml\nplayers:\n  - {name: Ann, money: 12}\n  - {name: Bob, money: 12}\n",
        "farm: {units: []}\nplayers: [{name: Ann, sheep: 2}, {name: Bob}]\n",
        "farm:\n"
        + "".join(f"  {line}\n" for line in FARM.replace(", destroyed: true", "").splitlines())
        + "players: [{name: Ann}, {name: Bob}]\n",
        "farm:\n"
        + "".join(f"  {line}\n" for line in FARM.splitlines())
        + "players: [{name: Ann, money: 12}, {name: Bob, money: 12}]\n",
        "ending: no-placement\nfarm:\n"
        + STRIP
        + "players: [{name: Ann, money: 20}, {name: Bob, money: 15}]\n",
        "ending: no-placement\nfarm:\n"
        + STRIP.replace("    - {at: [1, 0], unit: pasture, player: 2}\n", "")
        + "players: [{name: Ann, money: 20}, {name: Bob, money: 15}]\n",
        "ending: no-placement\nfarm: farm.yaml\nplayers: [{name: Ann, money: 20}, {name: Bob, money: 15}]\n",
        "farm: {game: gods, units: []}\nplayers: [{name: Ann}, {name: Bob}]\n",
        "farm: missing.yaml\nplayers: [{name: Ann}, {name: Bob}]\n",
        "farm: 3\nplayers: [{name: Ann}, {name: Bob}]\n",
        "farm: farm.yaml\nplayers: [{name: Ann, pastures: 1, huts: 2}, {name: Bob, sheep: 0}]\n",
        # tests/test_score_lang.py, tests/test_serve.py
        "players:\n  - {name: Ann, money: 120, sheep: -4, huts: 0}\n  - {name: Bob, money: 10, huts: 1}\n",
        "farm:\n  board: farm\n  units:\n    - {at: [-1, 3], unit: hut, player: 1}\n"
        "    - {at: [0, 3], unit: hut, player: 1}\n    - {at: [8, 3], unit: hut, player: 2}\n"
        "players: [{name: Ann, money: 20}, {name: Bob, money: 15}]\n",
        "players:\n  - {name: Ann, money: 95, sheep: 4, pastures: 4, huts: 3}\n"
        "  - {name: Bob, money: 61, sheep: 5, pastures: 3, huts: 1}\n",
        # generated: ties, both ends, missing fields, every rule break, malformed values
        "players:\n  - {name: Ann, money: 99, sheep: 1, pastures: 1}\n  - {name: Bob, money: 0, sheep: 9}\n",
        "players:\n  - {name: Ann, money: 96, huts: 2}"
        "\n  - {name: Bob, money: 96, huts: 1, sheep: 1, pastures: 1}\n",
        "players:\n  - {name: Ann, money: 5, sheep: 3}\n  - {name: Bob, money: 2, sheep: 3}\n",
        "players:\n  - {name: Ann, money: 0}\n  - {name: Bob, money: -1}\n",
        "players:\n  - {name: Ann, money: 99}"
        "\n  - {name: Bob, money: 100, huts: -2, pastures: -1, sheep: -3}\n",
        "ending: no-placement\nplayers:\n  - {name: Ann, money: 100}\n  - {name: Bob, money: -5, huts: 0}\n",
        "ending: no-placement\nplayers:\n  - {name: Ann}\n  - {name: Bob}\n",
        "ending: settlement\nplayers:\n  - {name: Ann, money: 90, huts: 5}"
        "\n  - {name: Bob, money: 90, huts: 2}\n",
        "ending: doubles\nplayers: [{name: Ann}, {name: Bob}]\n",
        "ending: [no-placement]\nplayers: [{name: Ann}, {name: Bob}]\n",
        "players:\n  - {name: Ann, money: 2.5, sheep: '3'}\n  - {name: Bob, huts: true}\n",
        "players:\n  - {name: Ann, goats: 3}\n  - {name: Bob}\n",
        "players:\n  - {name: Ann, villages: 3}\n  - {name: Bob}\n",
        "players: [{name: Ann}]\n",
        "players: [{name: Ann}, {name: Ann}]\n",
        "players: [{name: Ann}, {money: 3}]\n",
        "players:\n  - {name: Ann, money: 10, sheep: 2, pastures: 1, huts: 3}\n"
        "  - {name: Bob, money: 10, sheep: 1, pastures: 3, huts: 3}\n",
    ],
    "quo-vadis": [
        # tests/test_score_quo_vadis.py (BALANCED: ten cards each, one generation won by each)
        "players: [{name: Ann}, {name: Bob}, {name: Cy}]\nsettlement: {player: Ann, cards: 4, areas: 5}\n",
        *(
            f"players:\n  - {{name: Ann, territory: {areas}, generations: [10, 0, 0, 0, 0, 0]}}\n{_QV_OTHERS}"
            for areas in (0, 3, 4, 5, 6, 7, 9)
        ),
        "start_player: Bob\nplayers:\n"
        "  - {name: Ann, vp: 40, towns: 2, aptitude_workers: 3, territory: 4, generations: [3, 2,"
        " 2, 2, 1, 0]}\n"
        "  - {name: Bob, vp: 41, towns: 2, aptitude_workers: 3, territory: 4, generations: [3, 3,"
        " 2, 1, 1, 0]}\n"
        "  - {name: Cy, vp: 30, towns: 1, aptitude_workers: 3, territory: 7, generations: [1, 1, 1, 1, 1, 5],"
        " skills: 2}\n",
        *(
            f"{start}players:\n  - {{name: Ann, vp: 10, generations: [10, 0, 0, 0, 0, 0]}}\n"
            "  - {name: Bob, vp: 12, generations: [5, 5, 0, 0, 0, 0]}\n"
            "  - {name: Cy, vp: 12, generations: [4, 3, 3, 0, 0, 0]}\n"
            for start in ("", "start_player: Cy\n", "start_player: Ann\n")
        ),
        "players: [{name: Ann}, {name: Bob}, {name: Cy}, {name: Di}, {name: Ed}]\n",
        "players:\n"
        + "".join(
            f"  - {{name: {n}, generations: {g}}}\n"
            for n, g in zip(["Ann", "Bob", "Cy", "Di", "Ed"], _QV_BALANCED, strict=True)
        ),
        "players:\n  - {name: Ann, towns: 6, aptitude_workers: 11, territory: 11, generations: [2,"
        " 0, 1, 0, 0, 0]}\n"
        "  - {name: Bob, vp: -1, generations: [3, 3, 3, 2, 0, 0]}\n  - {name: Cy, generations: [4,"
        " 3, 3, 0, 0, 0]}\n",
        "players: [{name: Ann, generations: [1, 2]}, {name: Bob}, {name: Cy}]\n",
        "start_player: Zed\nplayers: [{name: Ann}, {name: Bob}, {name: Cy}]\n",
        "players: [{name: Ann}, {name: Bob}]\n",
        "players: [{name: Ann}, {name: Bob}, {name: Cy}]\nsettlement: {player: Ann, cards: 4}\n",
        "players: [{name: Ann, crystals: 2}, {name: Bob}, {name: Cy}]\n",
        "map: map.yaml\nterrain_tokens: {a2-5: plains}\nplayers:\n"
        "  - {name: Ann, race: plains, workers: [a2-5.0, a2-5.1, a3-5.0, a3-5.1, a4-5.0, a4-5.2, a3-4.0,"
        " a3-4.1], towns: [a2-4.0], generations: [10, 0, 0, 0, 0, 0]}\n"
        "  - {name: Bob, race: sea, workers: [a1-2.0, a1-2.1, a1-3.0], generations: [5, 5, 0, 0, 0, 0]}\n"
        "  - {name: Cy, generations: [4, 3, 3, 0, 0, 0]}\n",
        "map: map.yaml\nsettlement: {player: Ann, cards: 4}\nplayers:\n"
        "  - {name: Ann, workers: [a2-5.0, a2-5.1], towns: [a1-3.0],"
        " race: sea}\n  - {name: Bob}\n  - {name: Cy}\n",
        "map: map.yaml\nplayers:\n"
        "  - {name: Ann, race: plains, workers: [a9-9.0], territory: 3}\n  - {name: Bob}\n  - {name: Cy}\n",
        "map: map.yaml\nplayers:\n"
        "  - {name: Ann, race: plains, workers: [a2-5.0, a2-5.0], towns: [a2-4.0]}\n"
        "  - {name: Bob, towns: [a2-4.0]}\n  - {name: Cy}\n",
        f"players:\n  - {{name: Ann, generations: [9, 0, 0, 0, 0, 0]}}\n{_QV_OTHERS}",
        f"players:\n  - {{name: Ann, generations: [6, 5, 0, 0, 0, 0]}}\n{_QV_OTHERS}",
        "players: [{name: Ann}, {name: Bob}, {name: Cy}]\nsettlement: {player: Ann, cards: 2, areas: 1}\n",
        "players:\n  - {name: Ann, towns: 2, destroyed_towns: 3, generations: [10, 0, 0, 0, 0, 0]}\n"
        + _QV_OTHERS,
        "players:\n  - {name: Ann, towns: 3, destroyed_towns: 3, generations: [10, 0, 0, 0, 0, 0]}\n"
        + _QV_OTHERS,
        "map: map.yaml\nplayers:\n"
        "  - {name: Ann, race: sea, workers: [a2-5.0, a2-5.1], towns: [a2-4.0], destroyed_towns: [a1-3.0],"
        " generations: [10, 0, 0, 0, 0, 0]}\n" + _QV_OTHERS,
        "map: map.yaml\nplayers:\n"
        "  - {name: Ann, race: sea, workers: [a1-3.0], destroyed_towns: [a1-3.0, a2-4.0],"
        " generations: [10, 0, 0, 0, 0, 0]}\n"
        "  - {name: Bob, towns: [a2-4.0], generations: [5, 5, 0, 0, 0, 0]}\n"
        "  - {name: Cy, generations: [4, 3, 3, 0, 0, 0]}\n",
        # tests/test_score_lang.py, tests/test_serve.py
        "players:\n  - {name: Ann, towns: 5, destroyed_towns: 2, generations: [1, 0, 9, 0, 0, 0]}\n"
        "  - {name: Bob, generations: [10, 0, 0, 0, 0, 0], skills: -1}\n"
        "  - {name: Cy, generations: [10, 0, 0, 0, 0, 0]}\n",
        "players:\n  - {name: Ann}\n  - {name: Bob}\n  - {name: Cy}\n",
        "start_player: Bob\nplayers:\n"
        "  - {name: Ann, vp: 20, towns: 2, territory: 5, generations: [3, 2, 2, 2, 1, 0]}\n"
        "  - {name: Bob, vp: 18, towns: 3, aptitude_workers: 2, generations: [2, 2, 2, 2, 2, 0]}\n"
        "  - {name: Cy, vp: 25, skills: 2, generations: [4, 3, 2, 1, 0, 0]}\n",
        "map:\n  - {tile: a2-5, at: [0, 0], rotation: 0}\n  - {tile: a3-5, at: [0, 0], rotation: 3}\n"
        "players: [{name: Ann}, {name: Bob}, {name: Cy}]\n",
        # generated: ties in every generation, the start player's turn order, map-only keys without a map,
        # malformed values, settlement limits
        "start_player: Cy\nplayers:\n"
        + "".join(
            f"  - {{name: {n}, generations: [2, 2, 2, 2, 1, 1]}}\n" for n in ("Ann", "Bob", "Cy", "Di")
        ),
        "start_player: Bob\nplayers:\n"
        + "".join(
            f"  - {{name: {n}, vp: 5, generations: [5, 5, 0, 0, 0, 0]}}\n" for n in ("Ann", "Bob", "Cy")
        ),
        "players:\n  - {name: Ann, towns: [a1-1.0], workers: [a1-1.0], generations: [10, 0, 0, 0, 0, 0]}\n"
        + _QV_OTHERS,
        "players:\n  - {name: Ann, destroyed_towns: [a1-1.0], generations: [10, 0, 0, 0, 0, 0]}\n"
        + _QV_OTHERS,
        "players:\n  - {name: Ann, generations: [0, 0, 10, 0, 0, 0], territory: 13}\n" + _QV_OTHERS,
        "players:\n  - {name: Ann, generations: [11, -1, 0, 0, 0, 0], vp: 2.5}\n" + _QV_OTHERS,
        "players:\n  - {name: Ann, generations: [10, 0, 0, 0, 0, 0], race: plains}\n" + _QV_OTHERS,
        "players:\n  - {name: Ann, generations: 10}\n" + _QV_OTHERS,
        "players: [{name: Ann}, {name: Bob}, {name: Cy}]\nsettlement: {player: Ann, cards: -1, areas: 11}\n",
        "players: [{name: Ann}, {name: Bob}, {name: Cy}]\nsettlement: {player: Ann, cards: 11, areas: -2}\n",
        "players: [{name: Ann}, {name: Bob}, {name: Cy}]\nsettlement: {player: Zed, cards: 1, areas: 1}\n",
        "players: [{name: Ann}, {name: Bob}, {name: Cy}, {name: Di}]\nsettlement: {player: Di,"
        " cards: 3, areas: 12}\n",
        "players: [{name: Ann}, {name: Bob}, {name: Cy}]\nsettlement: {player: Ann, cards: 3,"
        " areas: 2, vp: 1}\n",
        "terrain_tokens: {a2-5: plains}\nplayers:\n  - {name: Ann, generations: [10, 0, 0, 0, 0, 0]}\n"
        + _QV_OTHERS,
        "map: map.yaml\nterrain_tokens: {a9-9: plains, a2-5: lava}\nplayers:\n"
        "  - {name: Ann, race: elves, workers: [a2-5.0], generations: [10, 0, 0, 0, 0, 0]}\n"
        "  - {name: Bob, workers: [a1-2.0], generations: [5, 5, 0, 0, 0, 0]}\n"
        "  - {name: Cy, generations: [4, 3, 3, 0, 0, 0]}\n",
        "map: map.yaml\nsettlement: {player: Bob, cards: 3, areas: 2}\nplayers: [{name: Ann},"
        " {name: Bob}, {name: Cy}]\n",
    ],
}
# piped answers to `score GAME --interactive` (docs/scoring.md, tests/test_score_lang.py)
ANSWERS: dict[str, list[str]] = {
    "delphi": [
        "2\n12\nAnn\n3\n3\n3\n3\ny\n2\n4\nBob\n3\n3\n3\n2\nn\n5\n1\n",
        "3\n8\nA\n2\n2\n2\n2\ny\n0\n0\nB\n2\n2\n2\n2\ny\n1\n0\nC\n0\n0\n0\n0\nn\n0\n0\n",
        "2\n12\nAnn\n4\n0\n0\n0\ny\n0\n0\nBob\n0\n0\n0\n0\nn\n0\n0\n",
    ],
    "good-shepherds": [
        "settlement\nAnn\n88\n4\n4\n3\nBob\n61\n5\n3\n1\n",
        "no-placement\nAnn\n47\n2\n3\n4\nBob\n52\n3\n3\n1\n",
        "settlement\nAnn\n10\n0\n0\n0\nBob\n10\n-1\n0\n1\n",
        "\nAnn\n\n\n\n\nBob\n\n\n\n\n",
    ],
    "quo-vadis": [
        "3\nAnn\n40\n2\n0\n3\n4\n3 2 2 2 1 0\n0\nBob\n41\n2\n0\n3\n4\n3 3 2 1 1 0\n0\n"
        "Cy\n30\n1\n0\n3\n7\n1 1 1 1 1 5\n2\n",
        "3\nAnn\n0\n0\n\n0\n0\n1 0 0 0 0 0\n0\nBob\n0\n0\n\n0\n0\n10 0 0 0 0 0\n0\n"
        "Cy\n0\n0\n\n0\n0\n10 0 0 0 0 0\n0\n",
        "3\nAnn\n",
    ],
    "gods": [
        "2\nAnn\n2\n3\n4\n5\nBob\n2\n2\n4\n3\n",
        "2\nAnn\n2\n1\n3\n5\nBob\n1\n1\n2\n4\n",
        "2\nAnn\n9\n0\n0\n0\nBob\n0\n0\n0\n0\n",
    ],
}
# whole score files: the game's example (games/<id>/example-score.yaml) and the docs' examples
FILES: dict[str, list[Path]] = {
    game: [REPO / "src" / "pnpforge" / "games" / game / "example-score.yaml"]
    for game in ("delphi", "gods", "good-shepherds", "quo-vadis")
}


def _docs_files(game: str) -> list[str]:
    """The docs' complete score files of the game (```yaml blocks starting `game: <id>`)."""
    text = (REPO / "docs" / "scoring.md").read_text(encoding="utf-8")
    blocks = text.split("```yaml\n")[1:]
    return [b.split("```")[0] for b in blocks if b.startswith(f"game: {game}\n")]


def _run(args: list[str], stdin: str | None = None) -> dict[str, Any]:
    result = CliRunner().invoke(main, args, input=stdin)
    return {"exit": result.exit_code, "stdout": result.stdout, "stderr": result.stderr}


def outcomes(game: str) -> dict[str, dict[str, Any]]:
    """Every case's `score --json`, `score` and `score --lang ja` (exit code, standard output and error)."""
    texts = [f"game: {game}\n" + case for case in CASES[game]]
    texts += _docs_files(game) + [p.read_text(encoding="utf-8") for p in FILES[game]]
    found: dict[str, dict[str, Any]] = {}
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "final.yaml"
        for name, text in BESIDE.get(game, {}).items():
            (Path(folder) / name).write_text(text, encoding="utf-8")
        if game == "quo-vadis":  # the docs' map: the set-up file `setup quo-vadis --players 3 --seed 1` deals
            _run(
                [
                    "setup",
                    "quo-vadis",
                    "--players",
                    "3",
                    "--seed",
                    "1",
                    "-o",
                    str(Path(folder) / "qv-map.yaml"),
                ]
            )
        for text in texts:
            path.write_text(text, encoding="utf-8")
            for extra in (["--json"], [], ["--lang", "ja"]):
                said = _run(["score", str(path), *extra])
                found[f"{text}|{' '.join(extra)}"] = {
                    k: str(v).replace(folder, "<dir>") for k, v in said.items()
                }
    for answers in ANSWERS[game]:
        for extra in (["--json"], [], ["--lang", "ja"]):
            found[f"-i {answers!r}|{' '.join(extra)}"] = _run(["score", game, "-i", *extra], answers)
    return found


def _golden(game: str) -> Path:
    return HERE / "data" / f"score-parity-{game}.json"


@pytest.mark.parametrize("game", sorted(CASES))
def test_the_data_sheet_scores_as_the_python_rules_did(game: str) -> None:
    recorded = json.loads(_golden(game).read_text(encoding="utf-8"))
    now = outcomes(game)
    assert set(now) == set(recorded)
    for key, was in recorded.items():
        assert now[key] == was, key


if __name__ == "__main__":  # python tests/test_score_parity.py record GAME
    _, action, game_id = sys.argv
    assert action == "record"
    _golden(game_id).parent.mkdir(exist_ok=True)
    _golden(game_id).write_text(
        json.dumps(outcomes(game_id), ensure_ascii=False, indent=1) + "\n", encoding="utf-8"
    )
