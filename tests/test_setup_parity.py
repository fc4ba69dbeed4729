"""A game whose set-up rules moved from Python to data checks as it did: the same report (codes,
messages in English and Japanese, places), the same input errors and the same set-up picture.

`tests/data/setup-parity-<game>.json` was recorded from the game's Python checks.py before the move
(`python tests/test_setup_parity.py record GAME set-ups.jsonl`, run while the Python rules were still
the game's). The cases: every set-up file the game's tests, the docs examples and the score sheets'
linked farms checked (gathered by running those tests with a passing hook in
`table.setupfile.load_source` that wrote each file's data as a line of set-ups.jsonl, `{"game", "data"}`;
the parity file keeps them as the cases' `input`, and a new recording keeps them too), the dealt set-ups
for seeds 1-200 at every player count, and broken variants of those (random units, tiles moved away,
turned or dropped), made from a seeded random generator so they are the same every run.
"""

from __future__ import annotations

import copy
import dataclasses
import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest

from pnpforge import catalog
from pnpforge.errors import InputError
from pnpforge.sourcefile import read_yaml_text
from pnpforge.table import setupfile
from pnpforge.validator.picture import said

HERE = Path(__file__).parent
GAMES = ("good-shepherds", "delphi")
SEEDS = range(1, 201)
DIGESTED = ("delphi",)
FARM = [
    [q, r]
    for r, (first, count) in enumerate([(0, 11), (0, 10), (-1, 11), (-1, 10), (-2, 11), (-2, 10), (-3, 11)])
    for q in range(first, first + count)
]


def _file(game: str) -> Path:
    return HERE / "data" / f"setup-parity-{game}.json"


def _players(game: str) -> range:
    low, high = catalog.players_range(catalog.find_game(game))
    return range(low, high + 1)


def _farm_variant(base: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    data = copy.deepcopy(base)
    units = data["units"]
    if rng.random() < 0.15:
        units.pop(rng.randrange(len(units)))
    for _ in range(rng.randint(1, 14)):
        at = rng.choice(FARM) if rng.random() < 0.97 else [20, 20]
        kind = rng.choice(["sheep", "pasture", "pasture", "hut"])
        unit: dict[str, Any] = {"at": at, "unit": kind, "player": rng.choice([1, 2])}
        if (kind == "pasture" and rng.random() < 0.4) or rng.random() < 0.02:
            unit["destroyed"] = True
        units.insert(rng.randint(0, len(units)), unit)
    if rng.random() < 0.1:  # an inline board: the farm's cells, the huts moved
        huts = [{"player": 1, "at": rng.choice(FARM)}, {"player": 2, "at": rng.choice(FARM)}]
        data["board"] = {"start_huts": huts, "cells": [{"at": c} for c in FARM]}
    return data


def _delphi_variant(base: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    data = copy.deepcopy(base)
    tiles = data["board"]["tiles"]
    for _ in range(rng.randint(1, 3)):
        tile = rng.choice(tiles)
        change = rng.choice(["turn", "move", "away", "drop"])
        if change == "turn":
            tile["rotation"] = (tile.get("rotation", 0) + rng.randint(1, 5)) % 6
        elif change == "move":
            tile["at"] = [tile["at"][0] + rng.randint(-2, 2), tile["at"][1] + rng.randint(-2, 2)]
        elif change == "away":
            tile["at"] = [tile["at"][0] + rng.choice([-12, 12]), tile["at"][1] + rng.randint(-3, 3)]
        elif len(tiles) > 1:
            tiles.remove(tile)
    return data


def cases(game: str) -> dict[str, dict[str, Any]]:
    """Every case of a game by name: its set-up data (plain YAML data, `game:` first)."""
    recorded = json.loads(_file(game).read_text(encoding="utf-8")) if _file(game).exists() else {}
    found: dict[str, dict[str, Any]] = {
        name: case["input"] for name, case in recorded.items() if name.startswith("file ")
    }
    vary = _farm_variant if game == "good-shepherds" else _delphi_variant
    for players in _players(game):
        for seed in SEEDS:
            dealt = setupfile.deal_setup(game, players, seed, {})
            found[f"deal {players} {seed}"] = dealt
            rng = random.Random(seed * 10 + players)
            found[f"broken {players} {seed}"] = vary(dealt, rng)
    return found


def outcome(data: dict[str, Any], drawn: bool = True) -> dict[str, Any]:
    """What validate, --lang ja and (when `drawn`) the set-up picture say of one set-up."""
    text = setupfile.dump_yaml(data)
    try:
        loaded = setupfile.load_source(read_yaml_text(text, "case.yaml", "setup"))
        report = setupfile.check_loaded(loaded)
    except InputError as error:
        return {"input-error": [str(p) for p in error.problems]}
    ja = report.said(loaded.game.translator("ja"))
    out: dict[str, Any] = {
        "report": report.as_json(),
        "ja": [v.message for v in ja.errors + ja.warnings],
    }
    picture = loaded.rules.picture
    if picture is not None and drawn:
        pics = [said(picture(loaded.setup), loaded.game.translator(lang)) for lang in ("en", "ja")]
        shown = json.dumps([dataclasses.asdict(p) for p in pics], sort_keys=True, default=str)
        out["picture"] = hashlib.sha256(shown.encode()).hexdigest()
    return out


def expected(game: str, name: str, data: dict[str, Any]) -> dict[str, Any]:
    """A case's outcome as the parity file keeps it: whole, or (a dealt or broken Delphi set-up, whose
    picture no rule here draws) its codes and a digest of the whole, so the file stays small."""
    if name.startswith("file ") or game not in DIGESTED:
        return outcome(data)
    whole = outcome(data, drawn=False)
    codes = [v["code"] for v in whole["report"]["errors"]] if "report" in whole else ["input-error"]
    digest = hashlib.sha256(json.dumps(whole, sort_keys=True).encode()).hexdigest()
    return {"codes": codes, "digest": digest}


def record(game: str, inputs: list[dict[str, Any]]) -> None:
    """Write the parity file from the game's current rules: `inputs` are set-up files the tests checked."""
    found = {name: data for name, data in cases(game).items() if name.startswith("file ")}  # kept
    for data in inputs:
        key = "file " + hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:16]
        found[key] = data
    found.update({k: v for k, v in cases(game).items() if not k.startswith("file ")})
    out = {
        name: {"input": data, **expected(game, name, data)}
        if name.startswith("file ")
        else expected(game, name, data)
        for name, data in sorted(found.items())
    }
    _file(game).write_text(json.dumps(out, ensure_ascii=False, indent=0) + "\n", encoding="utf-8")


@pytest.mark.parametrize("game", GAMES)
def test_every_case_checks_as_recorded(game: str) -> None:
    recorded = json.loads(_file(game).read_text(encoding="utf-8"))
    found = cases(game)
    assert sorted(found) == sorted(recorded)
    broken = 0
    for name, data in found.items():
        want = {k: v for k, v in recorded[name].items() if k != "input"}
        assert expected(game, name, data) == want, name
        broken += (
            bool(want.get("codes")) or "input-error" in want or not want.get("report", {}).get("valid", 1)
        )
    assert broken > 100  # the broken variants break rules (the parity covers the messages, not just "valid")


if __name__ == "__main__":  # python tests/test_setup_parity.py record GAME [RECORDED.jsonl]
    if len(sys.argv) < 3 or sys.argv[1] != "record":
        sys.exit("usage: python tests/test_setup_parity.py record GAME [set-ups.jsonl]")
    lines = Path(sys.argv[3]).read_text().splitlines() if len(sys.argv) > 3 else []
    chosen = [json.loads(line) for line in lines]
    record(sys.argv[2], [c["data"] for c in chosen if c["game"] == sys.argv[2]])
