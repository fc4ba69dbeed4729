"""Whole-process speed, as a user feels it: the installed `pnpforge` command timed from start to exit.

Every figure is the median of ROUNDS runs; within a round the commands run one after the other, so a
busy spell of the machine slows them alike. Aims (issue "Whole-process speed"):
- `--help`, `games`: each <= 0.15 s;
- the table commands, `score FILE`, `validate FILE` and `setup GAME` of every game: each <= the floor
  + 20 ms, the floor being Python importing click, pydantic and ruamel.yaml (`import click, pydantic,
  ruamel.yaml`), timed in the same rounds as the commands (paired);
- `build` of the 900-card bench spec (bench_cards.py's) beside plain reportlab drawing the same cards
  (`plain_cards.py --write FILE`), paired in one run: cold <= 1.5x, warm (the plan kept by the build
  before) <= 1.2x, with peak memory < 100 MB;
- building all five bundled games, one process each, cold (--no-cache): < 5 s in total.
Run: .venv/bin/python bench/bench_startup.py [--rounds N] [--table]  (--table: start-up figures only)
"""

from __future__ import annotations

import compileall
import json
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_cards import pnpforge_command, run, whole_process  # noqa: E402

from pnpforge import catalog  # noqa: E402

ROUNDS = 7
GAME_ROUNDS = 3  # the five-game total takes seconds a round
START_AIM, GAMES_AIM = 0.15, 5.0
TABLE_AIM = 0.020  # a table command's aim: at most this much over the floor below
FLOOR = "import click, pydantic, ruamel.yaml"  # what a table command stands on
TABLE_COMMANDS = ("score", "validate", "setup")


# what every checking command must import, as pnpforge imports it (collector paused, plugins off, so
# pydantic's plugin loader without importlib.metadata: pnpforge/internals/pydantic_plugins.py)
LIBRARIES = """
import gc, os
os.environ["PYDANTIC_DISABLE_PLUGINS"] = "__all__"
from pnpforge.internals import pydantic_plugins
pydantic_plugins.skip_plugin_scan()
gc.disable()
import click, ruamel.yaml
from pydantic import BaseModel
class Model(BaseModel):
    count: int
"""


@dataclass
class Figures:
    """One command's medians: wall seconds (the aim), CPU seconds (steadier on a shared machine)."""

    wall: float
    cpu: float
    peak_mb: float


def medians(commands: dict[str, list[str]], rounds: int) -> dict[str, Figures]:
    """Median seconds and the highest peak MB of each command, the commands taking turns each round."""
    runs: dict[str, list[tuple[float, float, float]]] = {name: [] for name in commands}
    for _ in range(rounds):
        for name, command in commands.items():
            runs[name].append(run(command))
    return {
        name: Figures(
            statistics.median(r[0] for r in found),
            statistics.median(r[1] for r in found),
            max(r[2] for r in found),
        )
        for name, found in runs.items()
    }


def verdict(ok: bool) -> str:
    return "ok" if ok else "OVER AIM"


def startup(tmp: Path, cli: list[str], rounds: int) -> None:
    """`--help` and `games` against their aim; each game's table commands beside the floor, paired."""
    commands: dict[str, list[str]] = {"floor": [sys.executable, "-c", FLOOR]}
    commands["one model"] = [sys.executable, "-c", LIBRARIES]  # the floor, and pydantic building a model
    commands |= {"--help": [*cli, "--help"], "games": [*cli, "games"]}
    ids = []
    for game in catalog.games():
        if not game.bundled:
            continue
        setup_file = tmp / f"{game.id}-setup.yaml"
        players = str(catalog.players_range(game)[0])
        dealt = subprocess.run([*cli, "setup", game.id, "-p", players, "--seed", "1", "-o", str(setup_file)],
                               capture_output=True)  # fmt: skip
        if dealt.returncode == 0:  # a game without a dealer has no set-up to time
            commands[f"setup {game.id}"] = [*cli, "setup", game.id, "-p", players, "--seed", "1"]
            commands[f"validate {game.id}"] = [*cli, "validate", str(setup_file)]
        score_file = game.path / "example-score.yaml"
        if score_file.exists():
            commands[f"score {game.id}"] = [*cli, "score", str(score_file)]
        ids.append(game.id)
    found = medians(commands, rounds)
    print(f"start-up, whole process, median of {rounds} (aim <= {START_AIM:.2f} s each):")
    for name in ("--help", "games"):
        figures = found[name]
        print(f"  pnpforge {name:<8} {figures.wall:6.3f} s  (cpu {figures.cpu:.3f} s)  "
              f"{verdict(figures.wall <= START_AIM)}")  # fmt: skip
    floor = found["floor"]
    aim = floor.wall + TABLE_AIM
    print(f"table commands, whole process, median of {rounds}, paired with the floor ({FLOOR}):")
    print(f"  floor {floor.wall:.3f} s (cpu {floor.cpu:.3f} s); "
          f"aim: floor + {TABLE_AIM * 1000:.0f} ms = {aim:.3f} s")  # fmt: skip
    model = found["one model"]
    print(f"  the floor with pydantic building one model: {model.wall:.3f} s "
          f"(+{(model.wall - floor.wall) * 1000:.0f} ms, cpu {model.cpu:.3f} s)")  # fmt: skip
    print(f"  {'game':<16}" + "".join(f"{command:>22}" for command in TABLE_COMMANDS))
    over = []
    for game in ids:
        cells = []
        for command in TABLE_COMMANDS:
            figures = found.get(f"{command} {game}")
            if figures is None:
                cells.append(f"{'-':>22}")
                continue
            added = (figures.wall - floor.wall) * 1000
            cells.append(f"{figures.wall:8.3f} s (+{added:4.0f} ms){'' if figures.wall <= aim else '!':1}")
            if figures.wall > aim:
                over.append(f"{command} {game}")
        print(f"  {game:<16}" + "".join(f"{cell:>22}" for cell in cells))
    print(f"  the same, CPU over the floor's {floor.cpu * 1000:.0f} ms (steadier on a busy machine):")
    for game in ids:
        cells = []
        for command in TABLE_COMMANDS:
            figures = found.get(f"{command} {game}")
            cells.append(f"{'-' if figures is None else f'+{(figures.cpu - floor.cpu) * 1000:.0f} ms':>22}")
        print(f"  {game:<16}" + "".join(cells))
    aim_said = f"floor + {TABLE_AIM * 1000:.0f} ms"
    if over:
        print(f"  OVER AIM ({aim_said}): {len(over)} of them, marked !: " + ", ".join(over))
    else:
        print(f"  ok: all within {aim_said}")


def cards(tmp: Path, rounds: int) -> None:
    """bench_cards.py's figures: the build cold and warm beside plain reportlab, whole processes."""
    whole_process(tmp, rounds)


def build_stages(tmp: Path, rounds: int) -> None:
    """Where the card build's CPU goes, stage by stage (fewest ms of ROUNDS fresh interpreters each)."""
    spec = tmp / "spec"  # written by cards()
    runs = []
    for _ in range(rounds):
        done = subprocess.run([sys.executable, str(HERE / "build_stages.py"), str(spec), str(tmp / "staged")],
                              capture_output=True, text=True, check=True)  # fmt: skip
        runs.append(json.loads(done.stdout.splitlines()[-1]))
    print(f"  where its CPU goes, in-process (least of {rounds}; * the plain script does it too):")
    for stage in runs[0]:
        least = min(run[stage] for run in runs)
        shared = "*" if stage.startswith(("import reportlab", "find and load", "draw and")) else " "
        indent = "    " if stage.startswith(("plan", "draw and", "load the spec")) else ""
        indent = "        " if stage.startswith("find and load") else indent  # within plan
        print(f"   {shared} {indent}{stage:<{62 - len(indent)}} {least:6.1f} ms")


def games(tmp: Path, cli: list[str], rounds: int) -> None:
    ids = [game.id for game in catalog.games() if game.bundled]
    # cold, as a first build is: nothing kept from the round before
    commands = {game: [*cli, "build", game, "-o", str(tmp / "games"), "--no-cache"] for game in ids}
    found = medians(commands, rounds)
    total = sum(figures.wall for figures in found.values())
    print(f"bundled games, one process each, median of {rounds}:")
    for game, figures in found.items():
        print(f"  pnpforge build {game:<16} {figures.wall:6.3f} s  (cpu {figures.cpu:.3f} s)  "
              f"peak {figures.peak_mb:5.1f} MB")  # fmt: skip
    cpu = sum(figures.cpu for figures in found.values())
    print(f"  total {total:.2f} s, cpu {cpu:.2f} s (aim < {GAMES_AIM:.0f} s): {verdict(total < GAMES_AIM)}")


def main() -> None:
    rounds = int(sys.argv[sys.argv.index("--rounds") + 1]) if "--rounds" in sys.argv else ROUNDS
    cli = pnpforge_command()
    started = time.perf_counter()
    # bytecode as a regular install has it (pip compiles; an editable install under
    # PYTHONDONTWRITEBYTECODE would compile every module at every start)
    compileall.compile_dir(HERE.parent / "src" / "pnpforge", quiet=1)
    subprocess.run([sys.executable, "-c", "pass"], check=True)  # warm the disk cache for the first command
    bare = min(run([sys.executable, "-c", "pass"])[0] for _ in range(rounds))
    print(f"python -c pass: {bare:.3f} s (the floor of any command)")
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        startup(tmp, cli, rounds)
        if "--table" in sys.argv:  # the table commands only
            return
        cards(tmp, rounds)
        build_stages(tmp, rounds)
        games(tmp, cli, min(rounds, GAME_ROUNDS))
    print(f"(benchmark took {time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
