"""The database file: where it lives, how it is opened (WAL, foreign keys), and its schema's migrations.

One SQLite file holds the tables (live score sheets) and the plays (finished games). Its schema version
is SQLite's `user_version`; `connect` runs every migration the file has not had yet, each in its own
transaction, so a file of an older pnpforge is brought up to date at start-up and a file written by a
newer pnpforge (a version this one does not know) is refused with a clear message, never changed.
Writes are short transactions; a process killed during one leaves the file as it was before it (WAL).
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from pnpforge.errors import InputError
from pnpforge.i18n import N_
from pnpforge.phrase import Phrase

__all__ = ["MIGRATIONS", "SCHEMA_VERSION", "connect", "default_path", "transaction"]

ENV = "PNPFORGE_DB"  # the database file when no --db is given (before the user's data folder)
FILE_NAME = "pnpforge.db"
BUSY_MS = 5000  # how long a write waits for another writer before it gives up
FUTURE = N_(
    "this database was written by a newer pnpforge (schema {found}; this one knows up to {known}): "
    "upgrade pnpforge to open it"
)
NOT_A_DATABASE = N_("not a pnpforge database: {reason}")

# Each entry brings the schema from version i to i + 1. Never edit one that has shipped: add another.
MIGRATIONS: tuple[str, ...] = (
    # 1: live tables and the plays recorded from them
    """
    CREATE TABLE score_tables (
        code TEXT PRIMARY KEY,
        game TEXT NOT NULL,
        created REAL NOT NULL,
        touched REAL NOT NULL,
        version INTEGER NOT NULL DEFAULT 0,
        state TEXT NOT NULL DEFAULT '{}',
        closed INTEGER NOT NULL DEFAULT 0
    );
    CREATE TABLE changes (
        code TEXT NOT NULL REFERENCES score_tables(code) ON DELETE CASCADE,
        version INTEGER NOT NULL,
        before TEXT NOT NULL,
        after TEXT NOT NULL,
        at REAL NOT NULL,
        undoes INTEGER,
        PRIMARY KEY (code, version)
    );
    CREATE TABLE plays (
        id INTEGER PRIMARY KEY,
        game TEXT NOT NULL,
        played TEXT NOT NULL,
        winners TEXT NOT NULL,
        tiebreak TEXT,
        data TEXT NOT NULL
    );
    CREATE TABLE seats (
        play INTEGER NOT NULL REFERENCES plays(id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        name TEXT NOT NULL,
        total INTEGER,
        place INTEGER,
        won INTEGER NOT NULL,
        PRIMARY KEY (play, seat)
    );
    CREATE TABLE items (
        play INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        item TEXT NOT NULL,
        value INTEGER NOT NULL,
        PRIMARY KEY (play, seat, item),
        FOREIGN KEY (play, seat) REFERENCES seats(play, seat) ON DELETE CASCADE
    );
    """,
    # 2: a play keeps the game's version (a designer's draft) and each seat its faction; a table keeps
    # the play it became
    """
    ALTER TABLE plays ADD COLUMN game_version TEXT;
    ALTER TABLE plays ADD COLUMN source TEXT NOT NULL DEFAULT '';
    ALTER TABLE seats ADD COLUMN faction TEXT;
    ALTER TABLE score_tables ADD COLUMN play INTEGER REFERENCES plays(id) ON DELETE SET NULL;
    CREATE INDEX plays_by_game ON plays(game, game_version);
    """,
)
SCHEMA_VERSION = len(MIGRATIONS)


def default_path() -> Path:
    """$PNPFORGE_DB, else pnpforge.db in the user's data folder (platformdirs)."""
    if os.environ.get(ENV):
        return Path(os.environ[ENV])
    import platformdirs

    return Path(platformdirs.user_data_dir("pnpforge", appauthor=False)) / FILE_NAME


def connect(path: str | Path | None = None, upto: int = SCHEMA_VERSION) -> sqlite3.Connection:
    """The database at `path` (created with its folder when missing), migrated to `upto`.

    A newer schema than this pnpforge knows, or a file that is not a database, is an InputError naming
    the file."""
    where = Path(path) if path is not None else default_path()
    where.parent.mkdir(parents=True, exist_ok=True)
    db = sqlite3.connect(where, timeout=BUSY_MS / 1000, isolation_level=None, check_same_thread=False)
    try:
        db.execute(f"PRAGMA busy_timeout = {BUSY_MS}")
        db.execute("PRAGMA journal_mode = WAL")
        db.execute("PRAGMA synchronous = NORMAL")  # WAL: durable at checkpoints, never inconsistent
        db.execute("PRAGMA foreign_keys = ON")
        _migrate(db, str(where), upto)
    except sqlite3.DatabaseError as error:
        db.close()
        raise InputError.single(str(where), Phrase(NOT_A_DATABASE, reason=str(error))) from None
    except BaseException:
        db.close()
        raise
    return db


def _version(db: sqlite3.Connection) -> int:
    return int(db.execute("PRAGMA user_version").fetchone()[0])


def _migrate(db: sqlite3.Connection, where: str, upto: int) -> None:
    """Each missing migration in its own transaction (another process migrating at the same time waits,
    then finds the work done)."""
    found = _version(db)
    if found > SCHEMA_VERSION:
        raise InputError.single(where, Phrase(FUTURE, found=found, known=SCHEMA_VERSION))
    while found < upto:
        with transaction(db):
            found = _version(db)  # read again inside the write lock
            if found >= upto:
                break
            for statement in MIGRATIONS[found].split(";"):
                if statement.strip():
                    db.execute(statement)
            db.execute(f"PRAGMA user_version = {found + 1}")
        found = _version(db)


@contextmanager
def transaction(db: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """One short write transaction: BEGIN IMMEDIATE (the write lock at once), COMMIT, or ROLLBACK on
    any error."""
    db.execute("BEGIN IMMEDIATE")
    try:
        yield db
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")
