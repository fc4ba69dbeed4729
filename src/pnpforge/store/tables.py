"""Live score sheets ("tables"): one row per table, its sheet as the page's form fields, and each change.

A table's state is the score sheet's form (`p0:villages` → "3", `count` → "3"), with the version at
which each field last changed (its stamp). A change sets some fields at once (a cell; "+ Player" sets
`count`; a new round sets every carried total and `round`) and raises the table's version by one.
An edit says which version its phone had seen (`base`): a field changed since by another phone is
still overwritten (the later edit wins) but the answer names it, with the value it replaced, so the
phone can say so; nothing is overwritten silently. Undo restores what the last change replaced, as a
new change (so every phone follows it). Closing a table ("game over") keeps it, read-only, with the
play it became; tables are never deleted for being old.
"""

from __future__ import annotations

import json
import secrets
import sqlite3
import time
from dataclasses import dataclass, field

from pnpforge.store.db import transaction
from pnpforge.store.plays import Play, insert

__all__ = ["Applied", "Table", "apply", "changes_since", "close", "create", "get", "undo"]

ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"  # no 0/o, 1/l/i: read aloud across a table
CODE_LENGTH = 6
MAX_FIELDS = 2000  # fields one table's sheet may hold (a sheet has a few hundred at most)
MAX_VALUE = 200  # characters of one field's value


class Closed(Exception):
    """The table is closed: its sheet no longer changes."""


@dataclass
class Table:
    code: str
    game: str
    version: int
    values: dict[str, str]
    stamps: dict[str, int]  # field → the version at which it last changed
    closed: bool = False
    play: int | None = None
    created: float = 0.0
    touched: float = 0.0


@dataclass
class Applied:
    """What one change did: the table's new version, and the fields it overwrote that another phone
    had changed after the editing phone's `base` (field → the value replaced)."""

    version: int
    changed: dict[str, str] = field(default_factory=dict)
    conflicts: dict[str, str] = field(default_factory=dict)


def new_code() -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))


def is_code(text: str) -> bool:
    return len(text) == CODE_LENGTH and all(c in ALPHABET for c in text)


def _clean(values: dict[str, str]) -> dict[str, str]:
    """Only text fields, bounded in number and size (a request decides what is in them); the carried
    rest of a loaded score file (`rest`, JSON) is kept whole: the request's body limit bounds it."""
    items = list(values.items())[:MAX_FIELDS]
    return {str(k)[:MAX_VALUE]: str(v) if k == "rest" else str(v)[:MAX_VALUE] for k, v in items}


def create(db: sqlite3.Connection, game: str, values: dict[str, str] | None = None) -> Table:
    """A new table for `game`, its sheet filled with `values` (version 0)."""
    now = time.time()
    values = _clean(values or {})
    state = json.dumps({"values": values, "stamps": dict.fromkeys(values, 0)}, sort_keys=True)
    with transaction(db):
        while True:
            code = new_code()
            if db.execute("SELECT 1 FROM score_tables WHERE code = ?", (code,)).fetchone() is None:
                break
        db.execute(
            "INSERT INTO score_tables (code, game, created, touched, version, state) "
            "VALUES (?, ?, ?, ?, 0, ?)",
            (code, game, now, now, state),
        )
    found = get(db, code)
    assert found is not None
    return found


def get(db: sqlite3.Connection, code: str) -> Table | None:
    row = db.execute(
        "SELECT code, game, version, state, closed, play, created, touched FROM score_tables WHERE code = ?",
        (code,),
    ).fetchone()
    if row is None:
        return None
    state = json.loads(row[3])
    return Table(
        row[0],
        row[1],
        row[2],
        state.get("values", {}),
        state.get("stamps", {}),
        bool(row[4]),
        row[5],
        *row[6:],
    )


def _save(
    db: sqlite3.Connection,
    table: Table,
    before: dict[str, str | None],
    after: dict[str, str | None],
    undoes: int | None = None,
) -> None:
    now = time.time()
    state = json.dumps({"values": table.values, "stamps": table.stamps}, sort_keys=True)
    db.execute(
        "UPDATE score_tables SET version = ?, state = ?, touched = ? WHERE code = ?",
        (table.version, state, now, table.code),
    )
    db.execute(
        "INSERT INTO changes (code, version, before, after, at, undoes) VALUES (?, ?, ?, ?, ?, ?)",
        (
            table.code,
            table.version,
            json.dumps(before, sort_keys=True),
            json.dumps(after, sort_keys=True),
            now,
            undoes,
        ),
    )


def _set(table: Table, values: dict[str, str | None]) -> tuple[dict[str, str | None], dict[str, str | None]]:
    """Apply `values` (None: the field is removed) to `table` in memory; what each changed field held
    before and holds after (unchanged fields left out)."""
    before: dict[str, str | None] = {}
    after: dict[str, str | None] = {}
    for key, value in values.items():
        old = table.values.get(key)
        if old == value:
            continue
        before[key], after[key] = old, value
    if not after:
        return before, after
    table.version += 1
    for key, value in after.items():
        if value is None:
            table.values.pop(key, None)
        else:
            table.values[key] = value
        table.stamps[key] = table.version
    return before, after


def apply(db: sqlite3.Connection, code: str, values: dict[str, str], base: int | None = None) -> Applied:
    """Set `values` on table `code` in one short transaction; `base`: the version the editing phone had
    seen (None: the whole sheet was submitted from the page, which had seen what it shows).

    KeyError when there is no such table, Closed when it is closed."""
    values = _clean(values)
    with transaction(db):
        table = get(db, code)
        if table is None:
            raise KeyError(code)
        if table.closed:
            raise Closed(code)
        seen = table.version if base is None else base
        conflicts = {
            key: table.values.get(key, "")
            for key, value in values.items()
            if table.stamps.get(key, 0) > seen and table.values.get(key) != value
        }
        if len(table.values.keys() | values.keys()) > MAX_FIELDS:
            values = {k: v for k, v in values.items() if k in table.values}
        before, after = _set(table, dict(values))
        if after:
            _save(db, table, before, after)
    return Applied(table.version, {k: v or "" for k, v in after.items()}, conflicts)


def undo(db: sqlite3.Connection, code: str) -> Applied:
    """Restore what the last change not yet undone replaced (a new change); nothing to undo: the
    version unchanged and nothing changed."""
    with transaction(db):
        table = get(db, code)
        if table is None:
            raise KeyError(code)
        if table.closed:
            raise Closed(code)
        row = db.execute(
            "SELECT version, before FROM changes WHERE code = ? AND undoes IS NULL AND version NOT IN "
            "(SELECT undoes FROM changes WHERE code = ? AND undoes IS NOT NULL) "
            "ORDER BY version DESC LIMIT 1",
            (code, code),
        ).fetchone()
        if row is None:
            return Applied(table.version)
        before, after = _set(table, json.loads(row[1]))
        _save(db, table, before, after, undoes=row[0])
    return Applied(table.version, {k: v or "" for k, v in after.items()})


def changes_since(db: sqlite3.Connection, code: str, since: int) -> tuple[int, dict[str, str], bool]:
    """The table's version, every field changed after version `since` with its value now ("" for a
    field removed), and whether the table is closed. KeyError when there is no such table."""
    table = get(db, code)
    if table is None:
        raise KeyError(code)
    changed = {k: table.values.get(k, "") for k, v in table.stamps.items() if v > since}
    return table.version, changed, table.closed


def close(db: sqlite3.Connection, code: str, play: Play | None) -> int | None:
    """Game over: `play` recorded and the table closed, in one transaction (the table is kept,
    read-only, with the play it became); the play's id."""
    with transaction(db):
        play_id = insert(db, play) if play is not None else None
        db.execute(
            "UPDATE score_tables SET closed = 1, play = ?, touched = ? WHERE code = ?",
            (play_id, time.time(), code),
        )
    return play_id
