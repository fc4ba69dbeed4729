"""CLI commands for the score job: `pnpforge score FILE` and `pnpforge score GAME --interactive`."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from pnpforge import catalog, contract
from pnpforge.cli import lang_option
from pnpforge.cli.helptext import command, terminal_said
from pnpforge.errors import InputError
from pnpforge.i18n import N_
from pnpforge.phrase import Phrase
from pnpforge.scoring import render
from pnpforge.scoring.inputs import RulesBroken
from pnpforge.table.scorefile import score_file, score_interactive, sheet_text

EXIT_RULES_BROKEN = 1
RECORDED = N_("Recorded as play {id}.")
GAME_NOT_FILE = N_("this is a game id, not a file: add --interactive to type the numbers in")


@command(
    "score",
    N_("""Count the score of a game from what players counted at the table.

    FILE is YAML (or JSON) with `game: <id>` and each player's numbers (see docs/scoring.md).
    Prints a row per player, a column per scoring item, the total, then the winner(s) and the
    tie-break that decided. Exit 0 when scored, 1 when the numbers break a rule (e.g. more
    village cards than exist), 2 when the file is malformed. --lang ja prints the same sheet
    in Japanese (headings, items, notes, the winner sentence; the --interactive questions too), and
    so does any language with a catalog; names, numbers and the values typed stay as given.

    \b
    Example:
      pnpforge score final.yaml
      pnpforge score final.yaml --json
      pnpforge score final.yaml --lang ja
      pnpforge score gods --interactive
      printf '2\\nAnn\\n2\\n1\\n3\\n5\\nBob\\n1\\n1\\n2\\n4\\n' | pnpforge score gods -i
      pnpforge score gods -i --lang ja
      pnpforge score final.yaml --record
      pnpforge score final.yaml --record --db plays.db --date 2026-11-28 --faction Ann=red

    --record keeps the scored game as a play (docs/plays.md): `pnpforge plays` lists it. A file that
    breaks a rule is not recorded.
    """),
)
@click.argument("target", metavar="FILE|GAME")
@click.option(
    "--interactive",
    "-i",
    is_flag=True,
    help=N_("GAME given: ask each player's numbers in turn (questions on stderr)."),
)
@click.option("--json", "as_json", is_flag=True, help=N_("Print JSON for tools instead of the table."))
@lang_option(N_("Language of the printed sheet, in each game's rulebook terms (--json output is unchanged)."))
@click.option(
    "--record", is_flag=True, help=N_("Also record the scored game as a play (see `pnpforge plays`).")
)
@click.option(
    "--db",
    "db_path",
    type=click.Path(dir_okay=False),
    help=N_("With --record: the database file (default: $PNPFORGE_DB, else the user's data folder)."),
)
@click.option(
    "--date", "played", help=N_("With --record: the day it was played, YYYY-MM-DD (default: today).")
)
@click.option(
    "--faction",
    multiple=True,
    metavar="NAME=FACTION",
    help=N_("With --record: a player's faction (e.g. Gods' colour); Ankh's gods are known by name."),
)
def score(
    target: str,
    interactive: bool,
    as_json: bool,
    lang: str,
    record: bool,
    db_path: str | None,
    played: str | None,
    faction: tuple[str, ...],
) -> None:
    # its help: the N_ text of @command above (said in the terminal's language)
    if not interactive and not Path(target).exists() and target in {g.id for g in catalog.games()}:
        raise InputError.single(target, Phrase(GAME_NOT_FILE))
    try:
        result = score_interactive(target, lang) if interactive else score_file(target)
    except RulesBroken as broken:
        if as_json:
            click.echo(render.json_text(broken.report.as_json()))
        else:
            file = "<interactive>" if interactive else target
            click.echo(
                render.report_text(broken.report, file, contract.load(broken.report.game).translator(lang))
            )
        sys.exit(EXIT_RULES_BROKEN)
    if record:  # checked before anything is printed: a bad --date or --faction records nothing
        from pnpforge.cli.plays_cmds import record_play

        play_id = record_play(result, None if interactive else target, db_path, played, faction)
    click.echo(render.as_json(result) if as_json else sheet_text(result, lang))
    if record:
        click.echo(terminal_said()(Phrase(RECORDED, id=play_id)), err=True)
