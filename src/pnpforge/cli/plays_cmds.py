"""CLI commands for the play history: `pnpforge plays [GAME]`, `plays show|export|import|delete|stats`.

Plays are recorded by `pnpforge score FILE --record` and by closing a table on the page (`serve`); they
live in the same SQLite file (`--db PATH`, else $PNPFORGE_DB, else the user's data folder).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from pnpforge.cli.helptext import COMMANDS, Translated, terminal_said
from pnpforge.errors import InputError
from pnpforge.i18n import N_
from pnpforge.phrase import Phrase

NO_PLAY = N_("no play {id} in {db}")
NO_PLAYS = N_("No plays recorded yet.")
DELETE_ASK = N_("Delete play {id} ({game}, {played}: {names})?")
DELETED = N_("Deleted play {id}.")
KEPT = N_("Nothing deleted.")
IMPORTED = N_("Imported {count} play(s) into {db}.")
PLOT_KIND = N_("--plot writes .svg or .png, not {suffix}")
WROTE = N_("Wrote {path}.")
EXPORT_KIND = N_("give --csv or --json")


def _say() -> Callable[[str], str]:
    from pnpforge.store.stats import WORDS

    said = terminal_said()
    return lambda key: said(WORDS.get(key, key))


def db_option(function: Callable[..., Any]) -> Callable[..., Any]:
    return click.option(
        "--db",
        "db_path",
        type=click.Path(dir_okay=False),
        default=None,
        help=N_("The database file (default: $PNPFORGE_DB, else pnpforge.db in the user's data folder)."),
    )(function)


def open_db(path: str | None) -> Any:
    from pnpforge.store import db

    return db.connect(path)


def _db_name(path: str | None) -> str:
    from pnpforge.store import db

    return str(path or db.default_path())


def table(rows: list[list[str]]) -> str:
    """Columns padded to their widest cell (a wide character counts as two)."""
    from pnpforge.fonts import is_cjk

    def width(text: str) -> int:
        return sum(2 if is_cjk(ch) else 1 for ch in text)

    widths = [max(width(r[i]) for r in rows) for i in range(len(rows[0]))]
    return "\n".join(
        "  ".join(cell + " " * (w - width(cell)) for cell, w in zip(row, widths, strict=True)).rstrip()
        for row in rows
    )


class PlaysGroup(Translated, click.Group):
    """`plays` alone or with a GAME lists plays (`plays list`); a known word runs its command."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if not args or (args[0] not in self.commands and args[0] not in ("-h", "--help")):
            args = ["list", *args]
        return super().parse_args(ctx, args)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """Its commands, each with the first sentence of its help in the terminal's language."""
        say = terminal_said()
        rows = []
        for name in self.list_commands(ctx):
            command = self.commands[name]
            if command.hidden:
                continue
            rows.append((name, say(command.short_help or "")))  # its own line, said whole
        with formatter.section(say(COMMANDS)):
            formatter.write_dl(rows)


@click.group(
    "plays",
    cls=PlaysGroup,
    help=N_("""List, show, export, import, delete and summarise recorded plays.

    A play is a finished score sheet: recorded by `pnpforge score FILE --record` or by closing a table
    ("Game over") on the page `pnpforge serve` shows. See docs/plays.md.

    \b
    Example:
      pnpforge plays
      pnpforge plays gods
      pnpforge plays show 3
      pnpforge plays export --json -o plays.json
      pnpforge plays import plays.json
      pnpforge plays delete 3 --yes
      pnpforge plays stats gods --plot gods.svg
    """),
)
def plays_cmd() -> None:
    """The group; its commands below."""


@plays_cmd.command(
    "list",
    cls=Translated,
    short_help=N_("List recorded plays, oldest first (of GAME when given)."),
    help=N_("""List recorded plays, oldest first (of GAME when given).

    \b
    Example:
      pnpforge plays list gods
      pnpforge plays gods --version 0.3
    """),
)
@click.argument("game", required=False)
@click.option("--version", "version", default=None, help=N_("Only plays of this version of the game."))
@db_option
def list_cmd(game: str | None, version: str | None, db_path: str | None) -> None:
    from pnpforge.store import plays

    found = plays.listed(open_db(db_path), game, version)
    say = _say()
    if not found:
        click.echo(terminal_said()(NO_PLAYS))
        return
    rows = [[say(k) for k in ("id", "date", "game", "version", "players", "winners")]]
    for play in found:
        names = ", ".join(f"{s.name} {'' if s.total is None else s.total}".strip() for s in play.seats)
        rows.append(
            [str(play.id), play.played, play.game, play.version or "", names, ", ".join(play.winners) or "—"]
        )
    click.echo(table(rows))


@plays_cmd.command(
    "show",
    cls=Translated,
    short_help=N_("Show one play: each seat's scoring items, total and place, the winners, the tie-break."),
    help=N_("""Show one play: every seat's scoring items, total and place, the winners and the tie-break.

    \b
    Example:
      pnpforge plays show 3
      pnpforge plays show 3 --json
    """),
)
@click.argument("play_id", metavar="ID", type=int)
@click.option("--json", "as_json", is_flag=True, help=N_("Print the play as JSON (the export's format)."))
@db_option
def show_cmd(play_id: int, as_json: bool, db_path: str | None) -> None:
    import json

    from pnpforge.store import plays

    play = plays.get(open_db(db_path), play_id)
    if play is None:
        raise InputError.single("<command line>", Phrase(NO_PLAY, id=play_id, db=_db_name(db_path)))
    if as_json:
        click.echo(json.dumps(play.as_json(), ensure_ascii=False, indent=2, sort_keys=True))
        return
    say = _say()
    head = f"#{play.id} {play.game}" + (f" {play.version}" if play.version else "") + f" · {play.played}"
    click.echo(head + (f" · {say('source')}: {play.source}" if play.source else ""))
    items = list(dict.fromkeys(i for s in play.seats for i in s.items))
    rows = [[say("seat"), say("name"), say("faction"), *items, say("total"), say("place")]]
    for s in play.seats:
        rows.append(
            [
                str(s.seat),
                s.name + (" *" if s.won else ""),
                s.faction or "",
                *(str(s.items.get(i, "")) for i in items),
                "" if s.total is None else str(s.total),
                "" if s.place is None else str(s.place),
            ]
        )
    click.echo(table(rows))
    click.echo(f"{say('winners')}: {', '.join(play.winners) or '—'}")
    if play.tiebreak:
        click.echo(f"{say('tiebreak')}: {say(play.tiebreak) if play.tiebreak == 'draw' else play.tiebreak}")


@plays_cmd.command(
    "export",
    cls=Translated,
    short_help=N_("Write every play (of GAME when given) as JSON or CSV."),
    help=N_("""Write every play (of GAME when given) as JSON (what `plays import` reads) or CSV.

    CSV has a row per seat and a column per scoring item. Without -o it is printed.

    \b
    Example:
      pnpforge plays export --json -o plays.json
      pnpforge plays export gods --csv -o gods.csv
    """),
)
@click.argument("game", required=False)
@click.option("--json", "kind", flag_value="json", help=N_("JSON, as `plays import` reads it."))
@click.option("--csv", "kind", flag_value="csv", help=N_("CSV: a row per seat."))
@click.option("-o", "--output", type=click.Path(dir_okay=False), help=N_("Write to this file (atomically)."))
@db_option
def export_cmd(game: str | None, kind: str | None, output: str | None, db_path: str | None) -> None:
    from pnpforge.store import plays

    if kind is None:
        raise InputError.single("<command line>", Phrase.word(EXPORT_KIND))
    found = plays.listed(open_db(db_path), game)
    text = plays.export_json(found) if kind == "json" else plays.export_csv(found)
    if output is None:
        click.echo(text, nl=False)
        return
    _write(Path(output), text.encode("utf-8"))
    click.echo(terminal_said()(Phrase(WROTE, path=output)), err=True)


def _write(path: Path, data: bytes) -> None:
    from pnpforge.files import write_atomic

    write_atomic(path, data)


@plays_cmd.command(
    "import",
    cls=Translated,
    short_help=N_("Add the plays of FILE (JSON written by `plays export --json`)."),
    help=N_("""Add the plays of FILE (JSON written by `plays export --json`).

    The whole file is checked first: a damaged one is refused with the place of each problem and nothing
    is added; a sound one is added in one transaction (each play gets a new ID).

    \b
    Example:
      pnpforge plays import plays.json
    """),
)
@click.argument("file", type=click.Path(dir_okay=False))
@db_option
def import_cmd(file: str, db_path: str | None) -> None:
    from pnpforge.sourcefile import decode_utf8, read_bytes
    from pnpforge.store import plays

    found = plays.read_export(decode_utf8(read_bytes(file, file), file), file)
    added = plays.import_plays(open_db(db_path), found)
    click.echo(terminal_said()(Phrase(IMPORTED, count=len(added), db=_db_name(db_path))))


@plays_cmd.command(
    "delete",
    cls=Translated,
    short_help=N_("Delete play ID (asks first; --yes does not ask)."),
    help=N_("""Delete play ID (asks first; --yes does not ask).

    \b
    Example:
      pnpforge plays delete 3
      pnpforge plays delete 3 --yes
    """),
)
@click.argument("play_id", metavar="ID", type=int)
@click.option("--yes", "-y", is_flag=True, help=N_("Delete without asking."))
@db_option
def delete_cmd(play_id: int, yes: bool, db_path: str | None) -> None:
    from pnpforge.store import plays

    db = open_db(db_path)
    play = plays.get(db, play_id)
    if play is None:
        raise InputError.single("<command line>", Phrase(NO_PLAY, id=play_id, db=_db_name(db_path)))
    said = terminal_said()
    names = ", ".join(s.name for s in play.seats)
    question = said(Phrase(DELETE_ASK, id=play_id, game=play.game, played=play.played, names=names))
    if not yes and not click.confirm(question, default=False, err=True):
        click.echo(said(KEPT), err=True)
        sys.exit(1)
    plays.delete(db, play_id)
    click.echo(said(Phrase(DELETED, id=play_id)))


def stats_text(stats: Any, say: Callable[[str], str]) -> str:
    """The statistics as tables: win rates by seat, faction, player count; mean and spread per item."""
    out = [
        f"{stats.game}" + (f" {stats.version}" if stats.version else "") + f" · {say('plays')}: {stats.plays}"
    ]

    def rates(title: str, rows: list[Any], label: Callable[[str], str]) -> None:
        if not rows:
            return
        body = [[title, say("plays"), say("wins"), say("rate")]]
        body += [[label(r.label), str(r.plays), str(r.wins), f"{r.rate:.0%}"] for r in rows]
        out.extend(["", table(body)])

    rates(say("by_seat"), stats.by_seat, lambda s: f"{say('seat')} {s}")
    rates(say("by_faction"), stats.by_faction, str)
    rates(
        say("by_count"),
        stats.by_count,
        lambda s: f"{s.split(':')[0]}{say('p')} · {say('seat')} {s.split(':')[1]}",
    )
    body = [[say("item"), say("mean"), say("spread")]]
    for s in [stats.totals, stats.margin, *stats.items]:
        label = say(s.label) if s in (stats.totals, stats.margin) else s.label
        body.append([label, f"{s.mean:.2f}", f"{s.sd:.2f}"])
    out.extend(["", say("items"), table(body)])
    return "\n".join(out)


@plays_cmd.command(
    "stats",
    cls=Translated,
    short_help=N_("Summarise GAME's plays: win rates, and the mean and spread of every score."),
    help=N_("""Summarise GAME's plays: win rate by seat, by faction and by player count, and the mean and
    spread of totals, of the winning margin and of each scoring item.

    --version keeps one version of the game (a designer's draft). --plot also draws the charts, as SVG
    or PNG by the file's suffix.

    \b
    Example:
      pnpforge plays stats gods
      pnpforge plays stats my-game --version 0.3 --plot draft-0.3.svg
      pnpforge plays stats ankh --plot ankh.png
    """),
)
@click.argument("game")
@click.option("--version", "version", default=None, help=N_("Only plays of this version of the game."))
@click.option(
    "--plot", type=click.Path(dir_okay=False), help=N_("Draw the charts into FILE.svg or FILE.png.")
)
@db_option
def stats_cmd(game: str, version: str | None, plot: str | None, db_path: str | None) -> None:
    from pnpforge.store import charts, plays, stats

    if plot is not None and Path(plot).suffix.lower() not in (".svg", ".png"):
        raise InputError.single("<command line>", Phrase(PLOT_KIND, suffix=repr(Path(plot).suffix)))
    found = stats.compute(game, plays.listed(open_db(db_path), game, version), version)
    say = _say()
    click.echo(stats_text(found, say))
    if plot is not None:
        panels = charts.panels(found, say)
        data = charts.png(panels) if plot.lower().endswith(".png") else charts.svg(panels).encode("utf-8")
        _write(Path(plot), data)
        click.echo(terminal_said()(Phrase(WROTE, path=plot)), err=True)


BAD_DATE = N_("--date: expected a day as YYYY-MM-DD (got {value})")
BAD_FACTION = N_("--faction: expected NAME=FACTION with NAME one of the players {names} (got {value})")


def record_play(
    result: Any, file: str | None, db_path: str | None, played: str | None, faction: tuple[str, ...]
) -> int:
    """`score --record`: the scored result kept as a play; its id."""
    import datetime

    from pnpforge.sourcefile import read_yaml
    from pnpforge.store import plays, recording

    if played is not None:
        try:
            played = datetime.date.fromisoformat(played).isoformat()
        except ValueError:
            raise InputError.single("<command line>", Phrase(BAD_DATE, value=repr(played))) from None
    names = [p.name for p in result.players]
    factions = {}
    for given in faction:
        name, sep, value = given.partition("=")
        if not sep or name not in names or not value.strip():
            said = Phrase(BAD_FACTION, names=names, value=repr(given))
            raise InputError.single("<command line>", said)
        factions[name] = value.strip()
    data = read_yaml(file).data if file is not None else {}
    play = recording.play_of(result.as_json() | {"places": result.places}, data, file or "", played, factions)
    return plays.record(open_db(db_path), play)
