"""`pnpforge score --record` and `pnpforge plays …`: the real CLI on a real database file."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import REPO

from pnpforge.cli import main

GAMES = REPO / "src" / "pnpforge" / "games"  # each bundled game's example score file is in its folder


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pnpforge", *args], input=stdin, capture_output=True, text=True
    )


@pytest.fixture
def recorded(tmp_path: Path) -> Path:
    db = tmp_path / "plays.db"
    for day, game in (("2026-11-01", "gods"), ("2026-11-02", "ankh"), ("2026-11-03", "gods")):
        done = run(
            "score", str(GAMES / game / "example-score.yaml"), "--record", "--db", str(db), "--date", day
        )
        assert done.returncode == 0 and "Recorded as play" in done.stderr, done.stderr
    return db


def test_record_list_show(recorded: Path) -> None:
    listed = run("plays", "--db", str(recorded))
    lines = listed.stdout.splitlines()
    assert lines[0].split()[:3] == ["ID", "date", "game"] and len(lines) == 4
    assert "Ann 16, Bob 14, Cy 9" in lines[1] and lines[1].rstrip().endswith("Ann")
    assert len(run("plays", "gods", "--db", str(recorded)).stdout.splitlines()) == 3
    shown = run("plays", "show", "2", "--db", str(recorded)).stdout
    assert "Amun *" in shown and "faction" in shown and "decided by: stack order" in shown
    as_json = json.loads(run("plays", "show", "2", "--json", "--db", str(recorded)).stdout)
    assert as_json["version"] == "pnp-1" and [s["faction"] for s in as_json["seats"]] == [
        "Isis",
        "Amun",
        "Ra",
    ]


def test_stats_table_and_charts(recorded: Path, tmp_path: Path) -> None:
    out = run("plays", "stats", "gods", "--db", str(recorded), "--plot", str(tmp_path / "g.svg"))
    assert out.returncode == 0, out.stderr
    assert "gods" in out.stdout and "plays: 2" in out.stdout
    assert "seat 1            2      2     100%" in out.stdout  # Ann, seat 1, won both
    assert "winning margin  2.00" in out.stdout
    svg = (tmp_path / "g.svg").read_text()
    assert svg.startswith("<svg") and "Win rate by seat" in svg and "100% (2/2)" in svg
    out = run("plays", "stats", "gods", "--db", str(recorded), "--plot", str(tmp_path / "g.png"))
    from PIL import Image

    with Image.open(tmp_path / "g.png") as image:
        assert image.format == "PNG" and image.width == 720
        assert image.getpixel((200 * 2, 34 * 2)) != (255, 255, 255)  # seat 1's bar is drawn
    assert (
        "gods pnp-0 · plays: 0"
        in run("plays", "stats", "gods", "--version", "pnp-0", "--db", str(recorded)).stdout
    )
    version = run("plays", "show", "1", "--json", "--db", str(recorded)).stdout
    kept = json.loads(version)["version"]
    assert "plays: 2" in run("plays", "stats", "gods", "--version", kept, "--db", str(recorded)).stdout
    bad = run("plays", "stats", "gods", "--db", str(recorded), "--plot", str(tmp_path / "g.pdf"))
    assert bad.returncode == 2 and "--plot writes .svg or .png, not '.pdf'" in bad.stderr


def test_export_import_round_trip(recorded: Path, tmp_path: Path) -> None:
    exported = tmp_path / "plays.json"
    assert run("plays", "export", "--json", "-o", str(exported), "--db", str(recorded)).returncode == 0
    other = tmp_path / "other.db"
    done = run("plays", "import", str(exported), "--db", str(other))
    assert done.returncode == 0 and "Imported 3 play(s)" in done.stdout
    again = run("plays", "export", "--json", "--db", str(other)).stdout
    assert again == exported.read_text()
    csv = run("plays", "export", "--csv", "--db", str(other)).stdout.splitlines()
    assert csv[0].startswith("play,game,version,played,seat,name,faction,total") and len(csv) == 10


def test_a_truncated_or_hostile_import_changes_nothing(recorded: Path, tmp_path: Path) -> None:
    text = run("plays", "export", "--json", "--db", str(recorded)).stdout
    before = run("plays", "export", "--json", "--db", str(recorded)).stdout
    for n, bad in enumerate(
        [text[: len(text) // 3], text.replace('"seat": 3', '"seat": 2', 1), "&a [*a, *a, *a]\n", "\x00\x01"]
    ):
        path = tmp_path / f"bad{n}.json"
        path.write_text(bad)
        done = run("plays", "import", str(path), "--db", str(recorded))
        assert done.returncode == 2 and f"bad{n}.json:" in done.stderr and "Traceback" not in done.stderr
        assert run("plays", "export", "--json", "--db", str(recorded)).stdout == before


def test_delete_asks(recorded: Path) -> None:
    kept = run("plays", "delete", "1", "--db", str(recorded), stdin="n\n")
    assert kept.returncode == 1 and "Delete play 1 (gods, 2026-11-01: Ann, Bob, Cy)?" in kept.stderr
    assert "Nothing deleted." in kept.stderr
    gone = run("plays", "delete", "1", "--yes", "--db", str(recorded))
    assert gone.returncode == 0 and "Deleted play 1." in gone.stdout
    missing = run("plays", "show", "1", "--db", str(recorded))
    assert missing.returncode == 2 and "no play 1 in" in missing.stderr


def test_a_rule_break_is_not_recorded_and_bad_options_record_nothing(tmp_path: Path) -> None:
    db = tmp_path / "x.db"
    broken = tmp_path / "broken.yaml"
    broken.write_text("game: gods\nplayers:\n  - {name: Ann, villages: 9}\n  - {name: Bob}\n")
    assert run("score", str(broken), "--record", "--db", str(db)).returncode == 1
    bad = run(
        "score",
        str(GAMES / "gods" / "example-score.yaml"),
        "--record",
        "--db",
        str(db),
        "--faction",
        "Zed=red",
    )
    assert bad.returncode == 2 and "--faction: expected NAME=FACTION" in bad.stderr
    assert run("plays", "--db", str(db)).stdout.strip() == "No plays recorded yet."
    ok = run(
        "score",
        str(GAMES / "gods" / "example-score.yaml"),
        "--record",
        "--db",
        str(db),
        "--faction",
        "Ann=red",
    )
    assert ok.returncode == 0
    assert "red" in run("plays", "show", "1", "--db", str(db)).stdout


def test_a_newer_database_is_refused_in_one_line(tmp_path: Path) -> None:
    db = tmp_path / "new.db"
    raw = sqlite3.connect(db)
    raw.execute("PRAGMA user_version = 99")
    raw.close()
    done = run("plays", "--db", str(db))
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "newer pnpforge" in done.stderr
    served = run("serve", "--port", "0", "--db", str(db))
    assert served.returncode == 2 and "newer pnpforge" in served.stderr


def test_score_without_record_imports_no_database_module(tmp_path: Path) -> None:
    probe = (
        "import sys\nfrom pnpforge.cli import main\nsys.argv = ['pnpforge', 'score', sys.argv[1]]\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "db = [m for m in sys.modules if m == 'sqlite3' or m.startswith('pnpforge.store')]\n"
        "print(sorted(db), file=sys.stderr)"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe, str(GAMES / "gods" / "example-score.yaml")],
        capture_output=True,
        text=True,
    )
    assert done.stderr.strip().splitlines()[-1] == "[]"


@pytest.mark.parametrize("command", ["list", "show", "export", "import", "delete", "stats"])
def test_every_plays_command_has_an_example(command: str) -> None:
    result = CliRunner().invoke(main, ["plays", command, "--help"])
    assert (
        result.exit_code == 0 and "Example:" in result.output and f"pnpforge plays {command}" in result.output
    )


def test_plays_help_lists_its_commands() -> None:
    result = CliRunner().invoke(main, ["plays", "--help"])
    assert result.exit_code == 0 and all(c in result.output for c in ("stats", "import", "export", "delete"))
