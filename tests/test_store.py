"""The database (pnpforge/store): a real SQLite file on disk, its migrations, tables and plays, and a
process killed with SIGKILL in the middle of writes."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pnpforge.errors import InputError
from pnpforge.store import db, plays, stats, tables
from pnpforge.store.recording import play_of


def test_a_new_file_is_wal_at_the_current_schema(tmp_path: Path) -> None:
    conn = db.connect(tmp_path / "sub" / "x.db")
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("PRAGMA user_version").fetchone()[0] == db.SCHEMA_VERSION
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def test_an_old_file_is_migrated_and_keeps_its_rows(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    old = db.connect(path, upto=1)  # what the first release wrote
    assert old.execute("PRAGMA user_version").fetchone()[0] == 1
    old.execute(
        "INSERT INTO plays (game, played, winners, tiebreak, data) VALUES ('gods', '2026-01-02', "
        "'[\"Ann\"]', NULL, '{}')"
    )
    old.execute("INSERT INTO seats (play, seat, name, total, place, won) VALUES (1, 1, 'Ann', 9, 1, 1)")
    old.close()
    conn = db.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == db.SCHEMA_VERSION
    (kept,) = plays.listed(conn, "gods")
    assert kept.winners == ["Ann"] and kept.version is None and kept.seats[0].faction is None
    assert plays.record(conn, play_of(_result(), {}, "test", "2026-01-03")) == 2  # the new columns work


def test_a_newer_file_is_refused_and_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "new.db"
    db.connect(path).close()
    raw = sqlite3.connect(path)
    raw.execute(f"PRAGMA user_version = {db.SCHEMA_VERSION + 1}")
    raw.close()
    before = path.read_bytes()
    with pytest.raises(InputError) as error:
        db.connect(path)
    said = str(error.value.problems[0])
    assert str(path) in said and "newer pnpforge" in said and f"schema {db.SCHEMA_VERSION + 1}" in said
    assert path.read_bytes() == before


def test_a_file_that_is_not_a_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "notes.db"
    path.write_text("shopping list\n" * 100)
    with pytest.raises(InputError, match="not a pnpforge database"):
        db.connect(path)


def test_edits_versions_conflicts_and_undo(tmp_path: Path) -> None:
    conn = db.connect(tmp_path / "t.db")
    table = tables.create(conn, "gods", {"count": "2", "p0:name": "Ann"})
    assert tables.is_code(table.code) and table.version == 0
    first = tables.apply(conn, table.code, {"p0:villages": "3"}, base=0)  # phone A
    assert first.version == 1 and first.conflicts == {}
    second = tables.apply(conn, table.code, {"p0:villages": "4"}, base=0)  # phone B had not seen A's
    assert second.version == 2 and second.conflicts == {"p0:villages": "3"}  # B is told what it replaced
    same = tables.apply(conn, table.code, {"p0:villages": "4"}, base=0)
    assert same.version == 2 and same.conflicts == {}  # nothing changed: no new version
    assert tables.changes_since(conn, table.code, 1) == (2, {"p0:villages": "4"}, False)
    undone = tables.undo(conn, table.code)
    assert undone.version == 3 and tables.get(conn, table.code).values["p0:villages"] == "3"  # type: ignore[union-attr]
    tables.undo(conn, table.code)
    assert "p0:villages" not in tables.get(conn, table.code).values  # type: ignore[union-attr]
    assert tables.undo(conn, table.code).changed == {}  # nothing left to undo
    tables.close(conn, table.code, None)
    with pytest.raises(tables.Closed):
        tables.apply(conn, table.code, {"p0:villages": "9"})


def _result() -> dict[str, object]:
    return {
        "game": "ankh",
        "players": [
            {"name": "Isis", "total": 7, "breakdown": {"before": 6, "region 1": 1}},
            {"name": "アムン", "total": 7, "breakdown": {"before": 4, "region 1": 3}},
        ],
        "winners": ["アムン"],
        "tiebreak": "stack order on the devotion track",
        "places": {"Isis": 2, "アムン": 1},
    }


def test_a_play_keeps_seats_factions_items_and_the_game_s_version(tmp_path: Path) -> None:
    conn = db.connect(tmp_path / "p.db")
    play_id = plays.record(conn, play_of(_result(), {"game": "ankh"}, "cli", "2026-11-01"))
    play = plays.get(conn, play_id)
    assert play is not None and play.version == "pnp-1"  # ankh's game.yaml `version:`
    assert [(s.seat, s.name, s.faction, s.won, s.place) for s in play.seats] == [
        (1, "Isis", "Isis", False, 2),
        (2, "アムン", "Amun", True, 1),  # a god named in Japanese is the same faction
    ]
    assert play.seats[1].items == {"before": 4, "region 1": 3} and play.tiebreak.startswith("stack")


def test_export_import_round_trip_and_stats(tmp_path: Path) -> None:
    conn = db.connect(tmp_path / "a.db")
    for day in ("2026-11-01", "2026-11-02"):
        plays.record(conn, play_of(_result(), {"game": "ankh"}, "cli", day))
    text = plays.export_json(plays.listed(conn))
    other = db.connect(tmp_path / "b.db")
    assert plays.import_plays(other, plays.read_export(text, "plays.json")) == [1, 2]
    assert plays.export_json(plays.listed(other)) == text
    summary = stats.compute("ankh", plays.listed(other))
    assert summary.plays == 2 and [(r.label, r.wins, r.plays) for r in summary.by_seat] == [
        ("1", 0, 2),
        ("2", 2, 2),
    ]
    assert [(r.label, r.rate) for r in summary.by_faction] == [("Amun", 1.0), ("Isis", 0.0)]
    assert summary.margin.values == [0, 0] and summary.totals.mean == 7
    assert plays.export_csv(plays.listed(other)).splitlines()[0].endswith("tiebreak,before,region 1")


@pytest.mark.parametrize(
    ("damage", "where"),
    [
        (lambda t: t[: len(t) // 2], "plays.json:"),  # cut in the middle
        (lambda t: t.replace('"won": true', '"won": "yes"', 1), "valid boolean"),
        (lambda t: t.replace('"winners": [\n        "アムン"', '"winners": [\n        "Bob"', 1), "Bob"),
        (lambda t: t.replace('"seat": 2', '"seat": 7', 1), "seat"),
        (lambda t: t.replace('"pnpforge-plays"', '"other"', 1), "'pnpforge-plays'"),
        (lambda t: t.replace('"total": 7', '"total": 1' + "0" * 40, 1), "too large"),
        (lambda t: "[" * 5000, "plays.json"),
    ],
)
def test_a_damaged_import_is_refused_whole_and_located(tmp_path: Path, damage: object, where: str) -> None:
    source = db.connect(tmp_path / "a.db")
    for day in ("2026-11-01", "2026-11-02"):
        plays.record(source, play_of(_result(), {"game": "ankh"}, "cli", day))
    text = plays.export_json(plays.listed(source))
    target = db.connect(tmp_path / "b.db")
    plays.record(target, play_of(_result(), {"game": "ankh"}, "cli", "2026-10-01"))
    before = plays.export_json(plays.listed(target))
    with pytest.raises(InputError) as error:
        plays.import_plays(target, plays.read_export(damage(text), "plays.json"))  # type: ignore[operator]
    said = "\n".join(str(p) for p in error.value.problems)
    assert where in said and "plays.json:" in said
    assert plays.export_json(plays.listed(target)) == before


WRITER = """
import sys
from pnpforge.store import db, plays, tables
from pnpforge.store.recording import play_of
conn = db.connect(sys.argv[1])
table = tables.create(conn, "gods", {"count": "2"})
result = {"game": "gods", "players": [{"name": "Ann", "total": 3, "breakdown": {"villages": 3}},
          {"name": "Bob", "total": 2, "breakdown": {"villages": 2}}], "winners": ["Ann"], "tiebreak": None,
          "places": {"Ann": 1, "Bob": 2}}
n = 0
while True:
    n += 1
    tables.apply(conn, table.code, {"p0:villages": str(n), "p1:villages": str(n + 1)})
    plays.record(conn, play_of(result, {"game": "gods"}, "crash", "2026-11-28"))
    if n == 1:
        print("ready", flush=True)  # one table change and one play written whole: now it can be killed
"""


def test_kill_9_during_writes_leaves_the_file_consistent(tmp_path: Path) -> None:
    path = tmp_path / "crash.db"
    for round_ in range(3):
        writer = subprocess.Popen(
            [sys.executable, "-c", WRITER, str(path)], stdout=subprocess.PIPE, text=True
        )
        assert writer.stdout is not None and writer.stdout.readline().strip() == "ready"
        time.sleep(0.3 + 0.2 * round_)  # hundreds of transactions in, killed in the middle of one
        os.kill(writer.pid, signal.SIGKILL)
        writer.wait(10)
        conn = db.connect(path)
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
        for play in plays.listed(conn, "gods"):  # every play whole: its two seats and their items
            assert [s.name for s in play.seats] == ["Ann", "Bob"] and play.seats[0].items == {"villages": 3}
        for table in conn.execute("SELECT code, version FROM score_tables").fetchall():
            last = conn.execute("SELECT max(version) FROM changes WHERE code = ?", (table[0],)).fetchone()[0]
            assert last == table[1] or (last is None and table[1] == 0)  # state and history agree
        conn.close()
    assert len(plays.listed(db.connect(path))) >= 3  # each round wrote at least one play before its kill
