"""Plays: finished score sheets kept for their history and statistics.

A play is made from what `pnpforge score` computed (`ScoreResult.as_json()`) and the score file's data:
the game and its version (a designer's draft: the spec's `version:`), the date, each seat in order (its
name, faction where the game has one, every scoring item, total, place, whether it won), the winners and
the tie-break that decided. The same play is exported as JSON, read back by `import_plays` (the whole file
checked before anything is written, then written in one transaction) and as CSV (a row per seat).
"""

from __future__ import annotations

import csv
import io
import json
import sqlite3
from dataclasses import asdict, dataclass, field
from typing import Any

from pnpforge.store.db import transaction

__all__ = ["Play", "Seat", "delete", "from_result", "get", "insert", "listed", "record"]

FORMAT = "pnpforge-plays"  # the export's `format`, checked on import
FORMAT_VERSION = 1


@dataclass
class Seat:
    seat: int  # 1-based, the order of the score file's players
    name: str
    total: int | None
    place: int | None
    won: bool
    faction: str | None = None
    items: dict[str, int] = field(default_factory=dict)


@dataclass
class Play:
    game: str
    played: str  # YYYY-MM-DD
    winners: list[str]
    tiebreak: str | None
    seats: list[Seat]
    version: str | None = None
    source: str = ""
    data: dict[str, Any] = field(default_factory=dict)  # the score file's data, as scored
    id: int | None = None

    def as_json(self) -> dict[str, Any]:
        out = asdict(self)
        out["seats"] = [asdict(s) for s in self.seats]
        return out


def from_result(
    result: dict[str, Any],
    data: dict[str, Any],
    played: str,
    version: str | None = None,
    source: str = "",
    factions: dict[str, str] | None = None,
) -> Play:
    """A play from `score --json`'s result, the score file's `data`, and each player's faction by name."""
    places = result.get("places") or {}
    winners = [str(w) for w in result.get("winners", [])]
    seats = []
    for index, player in enumerate(result.get("players", [])):
        name = str(player["name"])
        seats.append(
            Seat(
                index + 1,
                name,
                player.get("total"),
                places.get(name),
                name in winners,
                (factions or {}).get(name),
                {str(k): int(v) for k, v in player.get("breakdown", {}).items()},
            )
        )
    return Play(str(result["game"]), played, winners, result.get("tiebreak"), seats, version, source, data)


def insert(db: sqlite3.Connection, play: Play) -> int:
    """Write `play` inside the caller's transaction; its new id."""
    cursor = db.execute(
        "INSERT INTO plays (game, game_version, played, winners, tiebreak, source, data) "
        "VALUES (?, ?, ?, ?, ?, ?, ?)",
        (
            play.game,
            play.version,
            play.played,
            json.dumps(play.winners, ensure_ascii=False),
            play.tiebreak,
            play.source,
            json.dumps(play.data, ensure_ascii=False, sort_keys=True),
        ),
    )
    play_id = int(cursor.lastrowid or 0)
    for seat in play.seats:
        db.execute(
            "INSERT INTO seats (play, seat, name, faction, total, place, won) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (play_id, seat.seat, seat.name, seat.faction, seat.total, seat.place, int(seat.won)),
        )
        db.executemany(
            "INSERT INTO items (play, seat, item, value) VALUES (?, ?, ?, ?)",
            [(play_id, seat.seat, item, value) for item, value in seat.items.items()],
        )
    return play_id


def record(db: sqlite3.Connection, play: Play) -> int:
    """Write `play` in one transaction; its id."""
    with transaction(db):
        return insert(db, play)


def _plays(db: sqlite3.Connection, where: str, args: tuple[Any, ...]) -> list[Play]:
    rows = db.execute(
        "SELECT id, game, game_version, played, winners, tiebreak, source, data FROM plays "
        f"{where} ORDER BY id",
        args,
    ).fetchall()
    if not rows:
        return []
    ids = [r[0] for r in rows]
    marks = ",".join("?" * len(ids))
    seats: dict[int, list[Seat]] = {i: [] for i in ids}
    by_key: dict[tuple[int, int], Seat] = {}
    for play_id, seat, name, faction, total, place, won in db.execute(
        f"SELECT play, seat, name, faction, total, place, won FROM seats WHERE play IN ({marks}) "
        "ORDER BY play, seat",
        ids,
    ):
        one = Seat(seat, name, total, place, bool(won), faction)
        seats[play_id].append(one)
        by_key[(play_id, seat)] = one
    for play_id, seat, item, value in db.execute(
        f"SELECT play, seat, item, value FROM items WHERE play IN ({marks}) ORDER BY play, seat, rowid", ids
    ):
        by_key[(play_id, seat)].items[item] = value
    return [
        Play(game, played, json.loads(winners), tiebreak, seats[pid], version, source, json.loads(data), pid)
        for pid, game, version, played, winners, tiebreak, source, data in rows
    ]


def listed(db: sqlite3.Connection, game: str | None = None, version: str | None = None) -> list[Play]:
    """Every play (of `game`, of its `version`), oldest first."""
    where, args = [], []
    if game is not None:
        where.append("game = ?")
        args.append(game)
    if version is not None:
        where.append("game_version = ?")
        args.append(version)
    return _plays(db, ("WHERE " + " AND ".join(where)) if where else "", tuple(args))


def get(db: sqlite3.Connection, play_id: int) -> Play | None:
    found = _plays(db, "WHERE id = ?", (play_id,))
    return found[0] if found else None


def delete(db: sqlite3.Connection, play_id: int) -> bool:
    with transaction(db):
        return db.execute("DELETE FROM plays WHERE id = ?", (play_id,)).rowcount > 0


def export_json(plays: list[Play]) -> str:
    body = {"format": FORMAT, "version": FORMAT_VERSION, "plays": [p.as_json() for p in plays]}
    return json.dumps(body, ensure_ascii=False, indent=2) + "\n"  # items keep their order


def export_csv(plays: list[Play]) -> str:
    """A row per seat; one column per scoring item met in any play (in first-seen order)."""
    items: dict[str, None] = {}
    for play in plays:
        for seat in play.seats:
            items.update(dict.fromkeys(seat.items))
    head = [
        "play",
        "game",
        "version",
        "played",
        "seat",
        "name",
        "faction",
        "total",
        "place",
        "won",
        "tiebreak",
    ]
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([*head, *items])
    for play in plays:
        for seat in play.seats:
            writer.writerow(
                [
                    play.id,
                    play.game,
                    play.version or "",
                    play.played,
                    seat.seat,
                    seat.name,
                    seat.faction or "",
                    "" if seat.total is None else seat.total,
                    "" if seat.place is None else seat.place,
                    int(seat.won),
                    play.tiebreak or "",
                    *(seat.items.get(i, "") for i in items),
                ]
            )
    return out.getvalue()


# -- import ------------------------------------------------------------------------------------------

MAX_IMPORTED = 100_000  # plays one import file may hold
MAX_SEATS = 20  # a play's seats, a value's range (not a work bound)
NOT_A_WINNER = "winner {name} is not one of the seats"
SEATS_IN_ORDER = "seats must be numbered 1, 2, 3, … in order (expected {expected}, got {got})"


def _import_models() -> Any:
    """The export's pydantic models (built when an import runs: nothing else pays for them)."""
    from typing import Annotated, Literal

    from pydantic import BaseModel, ConfigDict, Field, StringConstraints

    text = Annotated[str, StringConstraints(min_length=1, max_length=200)]

    class Strict(BaseModel):
        model_config = ConfigDict(extra="forbid", strict=True, allow_inf_nan=False)

    class SeatIn(Strict):
        seat: Annotated[int, Field(ge=1, le=MAX_SEATS)]
        name: text
        total: int | None
        place: Annotated[int, Field(ge=1, le=MAX_SEATS)] | None
        won: bool
        faction: text | None = None
        items: dict[text, int] = {}

    class PlayIn(Strict):
        game: Annotated[str, StringConstraints(pattern=r"^[a-z0-9][a-z0-9_-]{0,63}$")]
        played: Annotated[str, StringConstraints(pattern=r"^\d{4}-\d{2}-\d{2}$")]
        winners: list[text]
        tiebreak: text | None
        seats: Annotated[list[SeatIn], Field(min_length=1, max_length=MAX_SEATS)]
        version: text | None = None
        source: Annotated[str, StringConstraints(max_length=200)] = ""
        data: dict[str, Any] = {}
        id: int | None = None  # the exporting database's id: a new one is given

    class Export(Strict):
        format: Literal["pnpforge-plays"]
        version: Literal[1]
        plays: Annotated[list[PlayIn], Field(max_length=MAX_IMPORTED)]

    return Export


def read_export(text: str, file: str) -> list[Play]:
    """The plays of an export file, every one checked (InputError, located, naming the field) before
    any is returned: a damaged file gives nothing."""
    from pnpforge.errors import InputError
    from pnpforge.phrase import Phrase
    from pnpforge.sourcefile import read_yaml_text, validate

    source = read_yaml_text(text, file)
    export = validate(_import_models(), source)
    problems = []
    plays = []
    for p, given in enumerate(export.plays):
        names = [s.name for s in given.seats]
        for k, seat in enumerate(given.seats):
            if seat.seat != k + 1:
                said = Phrase(SEATS_IN_ORDER, expected=k + 1, got=seat.seat)
                problems.append(source.problem(("plays", p, "seats", k, "seat"), said))
        for w, winner in enumerate(given.winners):
            if winner not in names:
                problems.append(
                    source.problem(("plays", p, "winners", w), Phrase(NOT_A_WINNER, name=repr(winner)))
                )
        seats = [Seat(s.seat, s.name, s.total, s.place, s.won, s.faction, dict(s.items)) for s in given.seats]
        plays.append(
            Play(
                given.game,
                given.played,
                list(given.winners),
                given.tiebreak,
                seats,
                given.version,
                given.source,
                dict(given.data),
            )
        )
    if problems:
        raise InputError(problems)
    return plays


def import_plays(db: sqlite3.Connection, plays: list[Play]) -> list[int]:
    """Write every play in one transaction: all of them, or (on any error) none."""
    with transaction(db):
        return [insert(db, play) for play in plays]
