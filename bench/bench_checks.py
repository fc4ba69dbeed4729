"""Set-up checks, dealers, caravans and scores: prints timings (not a test; run with `make bench`).

Targets (issue "Board geometry, set-up validators and set-up dealers"): validate a full Delphi set-up
< 20 ms; list every legal caravan on the bundled Ankh map < 2 s; deal 1,000 Delphi set-ups < 10 s.
Rules as data (issue "A game is data"): `pnpforge score` and `pnpforge validate` of a game whose rules
are game.yaml sections (the score sheets of Gods, Delphi, Good Shepherds and Quo Vadis, Good Shepherds'
set-up rules, Delphi's water, the `new --template game` scaffold; Ankh's rules are Python) take the same
whole-process time as a game whose rules are Python, within 10 ms.
"""

from __future__ import annotations

import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pnpforge import contract
from pnpforge.table.setupfile import check_text, dump_yaml

REPO = Path(__file__).resolve().parents[1]


def best_of(runs: int, job: Callable[[], Any]) -> float:
    """The fastest of `runs` timings in seconds (the least disturbed by other work on the machine)."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        job()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    delphi_checks: Any = contract.load("delphi").module("checks")
    delphi_deal: Any = contract.load("delphi").module("deal")
    ankh_checks: Any = contract.load("ankh").module("checks")
    ankh_caravans: Any = contract.load("ankh").module("caravans")

    data = delphi_deal.deal(4, 1, {})
    text = dump_yaml(data)
    setup = delphi_checks.Setup.model_validate(data)
    delphi_checks.check(setup)  # warm the tile cache
    check_ms = best_of(50, lambda: delphi_checks.check(setup)) * 1000
    file_ms = best_of(10, lambda: check_text(text)) * 1000
    print(f"delphi: check a full 4-player set-up      {check_ms:8.2f} ms   (target < 20 ms)")
    print(f"delphi: read YAML + model + check         {file_ms:8.2f} ms   (most of it is YAML parsing)")

    deal_s = best_of(1, lambda: [delphi_deal.deal(2 + seed % 3, seed, {}) for seed in range(1000)])
    print(f"delphi: deal 1,000 set-ups                {deal_s:8.2f} s    (target < 10 s)")

    base = ankh_checks.Setup.model_validate(
        contract.load("ankh").module("deal").deal(2, 1, {"scenario": "OldKingdom"})
    )
    caravan_s = best_of(3, lambda: ankh_caravans.caravans(base))
    count = len(ankh_caravans.caravans(base))
    print(f"ankh:   list every legal caravan          {caravan_s:8.2f} s    ({count} found; target < 2 s)")
    ankh_ms = best_of(20, lambda: ankh_checks.check(base)) * 1000
    print(f"ankh:   check a 2-player set-up           {ankh_ms:8.2f} ms")
    crowded = crowded_ankh()
    crowded_s = best_of(3, lambda: check_text(crowded))
    print(
        f"ankh:   read + check 1,000 cells, 1,500 one-camel caravans ({len(crowded) // 1000} kB) "
        f"{crowded_s:6.2f} s    (target < 1 s: linear in cells + caravans)"
    )

    data_beside_python()


def crowded_ankh(width: int = 40, height: int = 25, caravans: int = 1_500) -> str:
    """An Ankh set-up on an inline board of width × height fertile cells with `caravans` one-camel
    caravans along its rows: the most caravans a set-up route's body holds (63 kB)."""
    lines = ["game: ankh", "players: 2", "map:", "  cells:"]
    lines += [f"    - {{at: [{q}, {r}], terrain: fertile}}" for r in range(height) for q in range(width)]
    lines += ["  river: []", "caravans:"]
    sides = [(q, r) for r in range(height) for q in range(width - 1)][:caravans]
    lines += [f"  - [[[{q}, {r}], [{q + 1}, {r}]]]" for q, r in sides]
    return "\n".join(lines) + "\n"


AIM_MS = 10  # issue "A game is data": a data game's whole process within 10 ms of a Python game's


def verdict(added_ms: float) -> str:
    """`ok`, or `OVER AIM` (what bench/run_all.py lists in its summary) for a figure over AIM_MS."""
    return "ok" if added_ms <= AIM_MS else "OVER AIM"


def process_ms(*args: str) -> tuple[float, float]:
    """The fastest of 7 whole `python -m pnpforge ...` runs, in ms (start-up, reading, rules, printing):
    wall-clock time, and CPU time (user + system, less disturbed by other work on a loaded machine)."""
    command = [sys.executable, "-m", "pnpforge", *args]
    subprocess.run(command, capture_output=True, check=False)  # warm the disk cache and the .pyc files
    walls, cpus = [], []
    for _ in range(7):
        used = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(command, capture_output=True, check=False)
        walls.append(time.perf_counter() - start)
        done = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(done.ru_utime - used.ru_utime + done.ru_stime - used.ru_stime)
    return min(walls) * 1000, min(cpus) * 1000


def data_beside_python() -> None:
    """`score` and `validate` of rules written as data beside rules written in Python, whole processes."""
    with tempfile.TemporaryDirectory() as folder:
        game = Path(folder) / "my-game"
        subprocess.run([sys.executable, "-m", "pnpforge", "new", str(game), "--template", "game"], check=True,
                       capture_output=True)  # fmt: skip
        games = REPO / "src" / "pnpforge" / "games"
        dealt = {}
        for name, players in (("good-shepherds", 2), ("delphi", 4), ("gods", 4)):
            dealt[name] = Path(folder) / f"{name}.yaml"
            dealt[name].write_text(
                dump_yaml(contract.load(name).dealer().deal(players, 1, {})), encoding="utf-8"
            )
        copied = Path(folder) / "ankh-score.yaml"  # a player's own file, read as the scaffold's is
        copied.write_bytes((games / "ankh" / "example-score.yaml").read_bytes())
        rows = [
            ("score", "gods (data)", process_ms("score", str(games / "gods" / "example-score.yaml"))),
            ("score", "delphi (data)", process_ms("score", str(games / "delphi" / "example-score.yaml"))),
            ("score", "scaffold (data)", process_ms("score", str(game / "score.yaml"))),
            (
                "score",
                "quo-vadis (data)",
                process_ms("score", str(games / "quo-vadis" / "example-score.yaml")),
            ),
            (
                "score",
                "good-shepherds (data)",
                process_ms("score", str(games / "good-shepherds" / "example-score.yaml")),
            ),
            ("score", "ankh (Python)", process_ms("score", str(games / "ankh" / "example-score.yaml"))),
            ("score", "ankh (Python), own file", process_ms("score", str(copied))),
            ("validate", "scaffold (data)", process_ms("validate", str(game / "setup.yaml"))),
            # Good Shepherds' rules are all data, read by its Python; Delphi's water is data
            ("validate", "good-shepherds (data)", process_ms("validate", str(dealt["good-shepherds"]))),
            ("validate", "delphi (water data)", process_ms("validate", str(dealt["delphi"]))),
            ("validate", "gods (Python)", process_ms("validate", str(dealt["gods"]))),
        ]
    # A file in the package is read from its parsed copy (pnpforge.parsecache), a user's own file is
    # parsed (ruamel.yaml, ~8 ms to import): each data game is set beside a Python game whose file lies
    # where its own does (the scaffold's score file and every set-up here are the user's own files).
    own = {"scaffold (data)", "ankh (Python), own file"}
    python = {
        (kind, mine): min(
            ms[1] for k, name, ms in rows if k == kind and "Python" in name and (name in own) == mine
        )
        for kind, mine in (("score", False), ("score", True), ("validate", False))
    }
    for kind, name, (wall, cpu) in rows:
        gap = ""
        if "data" in name:
            over = cpu - python[kind, name in own and kind == "score"]
            beside = (
                "a Python game's own file" if name in own and kind == "score" else "the fastest Python game"
            )
            gap = f"{over:+6.1f} ms CPU beside {beside} (aim: {AIM_MS} ms): {verdict(over)}"
        print(f"{kind:8s} {name:24s} whole process {wall:7.1f} ms, CPU {cpu:7.1f} ms  {gap}")
    print(f"(aim: a data game within {AIM_MS} ms of a Python one)")
    data_rules_cost()


COST = """
import time
from pnpforge import catalog, contract
from pnpforge.validator.report import Report
from pnpforge.gamekit import data_rules
from pnpforge.sourcefile import read_yaml_text
found = catalog.find_game("{game}")
contract.of(found).rules("x.yaml").model  # what validate loads anyway: the game's checks and model,
read_yaml_text("game: {game}", "x.yaml")  # the YAML reader,
import pydantic_core  # and the validator the set-up file is checked by (light models import no more)
start = time.process_time()
from pnpforge.validator.rulebook import Board, Table
book = data_rules(found.id, found.path)
book.judge(Table([], Board({{(0, 0): "water"}}), 2), Report(found.id))
print((time.process_time() - start) * 1000)
"""


def data_rules_cost() -> None:
    """What the rules as data add to one whole `validate` of Good Shepherds and Delphi (their Python
    rules cost nothing to load, being in checks.py): importing the engine, reading and typing the
    game.yaml's `setup:` section, one judgement; CPU ms, the fastest of 7 fresh processes."""
    for game in ("good-shepherds", "delphi"):
        command = [sys.executable, "-c", COST.format(game=game)]
        runs = [
            float(subprocess.run(command, capture_output=True, text=True, check=True).stdout)
            for _ in range(7)
        ]
        added = f"{min(runs):5.1f} ms CPU to a process  (aim: < {AIM_MS} ms): {verdict(min(runs))}"
        print(f"validate {game:24s} its setup: rules as data add {added}")


if __name__ == "__main__":
    main()
