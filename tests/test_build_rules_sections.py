"""`build` (and `preview`, `watch`) of a game.yaml with a `scoring:` or `setup:` section
says each problem of those sections as `score` and `setup` read them: one located warning line on stderr,
the cards still built (exit 0); `--strict` makes them errors (exit 2, nothing written). A sound section,
and every bundled game's, says nothing (test_mistakes.py builds every bundled game with --strict and
asserts an empty stderr). Through the real CLI on a `pnpforge new --template game` scaffold."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnpforge import catalog
from pnpforge.cli import main
from pnpforge.gamedata import has_rules, rules_problems

BOGUS = "unknown key 'bogus_key' (did you mean noun_key? expected one of the documented keys)"


def pnpforge(*args: str, cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pnpforge", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, **env},
    )


@pytest.fixture
def scaffold(tmp_path: Path) -> Path:
    made = CliRunner().invoke(main, ["new", str(tmp_path / "my-game"), "--template", "game"])
    assert made.exit_code == 0, made.output
    return tmp_path / "my-game"


def broken(folder: Path, section: str, key: str) -> str:
    """Add `key: 3` as the first key of the game.yaml's `section:`; where it is said (`LINE:COL`)."""
    spec = folder / "game.yaml"
    lines = spec.read_text(encoding="utf-8").splitlines(keepends=True)
    at = lines.index(f"{section}:\n") + 1
    lines.insert(at, f"  {key}: 3\n")
    spec.write_text("".join(lines), encoding="utf-8")
    return f"{at + 1}:{len(key) + 5}"


def test_a_broken_scoring_section_is_a_located_warning_and_the_cards_are_built(scaffold: Path) -> None:
    line = broken(scaffold, "scoring", "bogus_key")
    done = pnpforge("build", "my-game", "-o", "out", cwd=scaffold.parent)
    assert done.returncode == 0, done.stderr
    assert done.stderr.splitlines() == [f"my-game/game.yaml:{line}: warning: {BOGUS}"]
    assert (scaffold.parent / "out" / "my-game.pdf").stat().st_size > 1000
    # the same words `score` refuses the section with
    (scaffold.parent / "final.yaml").write_text("game: my-game\nplayers: []\n", encoding="utf-8")
    scored = pnpforge("score", "final.yaml", cwd=scaffold.parent, PNPFORGE_GAMES_DIR=str(scaffold.parent))
    assert scored.returncode == 2
    assert scored.stderr.splitlines() == [f"error: {scaffold / 'game.yaml'}:{line}: {BOGUS}"]


def test_a_broken_setup_section_is_a_located_warning(scaffold: Path) -> None:
    line = broken(scaffold, "setup", "nonsense")
    done = CliRunner().invoke(main, ["build", str(scaffold), "-o", str(scaffold.parent / "out")])
    assert done.exit_code == 0, done.output
    known = "(expected one of the documented keys)"
    said = f"{scaffold / 'game.yaml'}:{line}: warning: unknown key 'nonsense' {known}"
    assert done.stderr.splitlines() == [said]
    assert (scaffold.parent / "out" / "my-game.pdf").is_file()
    # played back from the kept build, the warning is said again
    again = CliRunner().invoke(main, ["build", str(scaffold), "-o", str(scaffold.parent / "out")])
    assert again.exit_code == 0 and again.stderr.splitlines() == [said]


def test_preview_says_it_too(scaffold: Path) -> None:
    line = broken(scaffold, "scoring", "bogus_key")
    done = CliRunner().invoke(main, ["preview", str(scaffold), "-o", str(scaffold.parent / "png")])
    assert done.exit_code == 0, done.output
    assert done.stderr.splitlines() == [f"{scaffold / 'game.yaml'}:{line}: warning: {BOGUS}"]


def test_watch_says_it_at_its_build(scaffold: Path) -> None:
    line = broken(scaffold, "setup", "nonsense")
    done = pnpforge("watch", "my-game", "-o", "out", "--max-builds", "1", cwd=scaffold.parent)
    assert done.returncode == 0, done.stderr
    known = "(expected one of the documented keys)"
    assert done.stderr.splitlines() == [f"my-game/game.yaml:{line}: warning: unknown key 'nonsense' {known}"]
    assert (scaffold.parent / "out" / "my-game.pdf").is_file()


def test_strict_refuses_it_and_writes_nothing(scaffold: Path) -> None:
    line = broken(scaffold, "scoring", "bogus_key")
    out = scaffold.parent / "out"
    done = pnpforge("build", "my-game", "-o", str(out), "--strict", cwd=scaffold.parent)
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        f"error: my-game/game.yaml:{line}: {BOGUS} (--strict: warnings are errors)"
    ]
    assert not out.exists()


def test_a_clean_scaffold_says_nothing(scaffold: Path) -> None:
    assert has_rules(scaffold) == (True, True)  # both sections are checked, and found sound
    done = pnpforge("build", "my-game", "-o", "out", "--strict", cwd=scaffold.parent)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert (scaffold.parent / "out" / "my-game.pdf").is_file()


def test_the_bundled_games_rules_sections_are_sound() -> None:
    """The check the build makes, for every bundled game (their --strict builds: test_mistakes.py)."""
    games = catalog.games()
    assert sum(any(has_rules(game.path)) for game in games) >= 4  # the check is not vacuous
    assert {game.id: rules_problems(game.path) for game in games} == {game.id: [] for game in games}
