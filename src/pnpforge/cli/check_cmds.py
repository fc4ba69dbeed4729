"""CLI commands for the check job: `validate`, `setup` (deal) and `caravans`.

Thin shells over pnpforge.table.setupfile: every game-specific part comes from the game's own folder.
"""

from __future__ import annotations

import json
import os
import shlex
from collections.abc import Callable

import click

from pnpforge import i18n
from pnpforge.cli import lang_option
from pnpforge.cli.helptext import command
from pnpforge.errors import InputError
from pnpforge.i18n import N_
from pnpforge.phrase import Phrase
from pnpforge.sourcefile import read_yaml_text
from pnpforge.table import setupfile
from pnpforge.validator.report import Report, violation_line

EXIT_VIOLATIONS = 1
DRAW_SUFFIXES = (".pdf", ".svg", ".png")


# the closing lines of `validate`
LEGAL = N_("legal {game} set-up")
WARNINGS = N_(" ({count} warning(s))")
VIOLATIONS = N_("{count} rule violation(s)")
UNLISTED = N_("{count} more violation(s) not listed (the first {shown} are)")
# what `setup` and `caravans` say in the terminal (its language: PNPFORGE_LANG)
WROTE = N_("wrote {file} (seed {seed})")
DREW = N_("drew {file}")
CARAVANS = N_("{count} legal caravan(s)")
NOT_A_PICTURE = N_("--draw {file}: expected a .pdf, .svg or .png file")
NO_PICTURE = N_("game {game} cannot draw its board")
DEALER_BUG = N_("internal error: the dealt set-up breaks the rules ({codes})")


def _terminal() -> Callable[[str], str]:
    return i18n.translator(i18n.terminal_language())


def _print_report(report: Report, file: str, lang: str = "en") -> None:
    from pnpforge import contract

    game = contract.load(report.game)
    tr = game.translator(lang)
    # the closing line names the game for people (game.yaml's title), in English as the file does
    title = report.game if lang == "en" else game.title(lang)
    for v in report.errors:
        click.echo(violation_line(v, file, tr))
    if report.unlisted:
        click.echo(f"{file}: {tr(Phrase(UNLISTED, count=report.unlisted, shown=len(report.errors)))}")
    for v in report.warnings:
        click.echo(violation_line(v, file, tr, error=False))
    if report.valid:
        extra = tr(Phrase(WARNINGS, count=len(report.warnings))) if report.warnings else ""
        click.echo(f"{file}: {tr(Phrase(LEGAL, game=title))}{extra}")
    else:
        click.echo(f"{file}: {tr(Phrase(VIOLATIONS, count=report.error_count))}")


@command(
    "validate",
    N_("""Check a board set-up file against its game's rules.

    Exit status: 0 legal, 1 rule violations (each one listed), 2 unreadable or malformed file
    (reported as FILE:LINE:COL). The file names its game with `game: <id>`; docs/setups.md lists
    every field and every violation code.

    \b
    Example:
      pnpforge setup delphi --players 3 --seed 7 -o board.yaml
      pnpforge validate board.yaml
      pnpforge validate board.yaml --json
      pnpforge validate board.yaml --lang ja
    """),
)
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help=N_("Print the report as JSON."))
@lang_option(N_("Language of the violation messages (codes and JSON stay English)."))
@click.pass_context
def validate_cmd(ctx: click.Context, file: str, as_json: bool, lang: str) -> None:
    # its help: the N_ text of @command above (said in the terminal's language)
    report = setupfile.check_file(file)
    if as_json:
        click.echo(json.dumps(report.as_json(), ensure_ascii=False, indent=2))
    else:
        _print_report(report, file, lang)
    ctx.exit(0 if report.valid else EXIT_VIOLATIONS)


@command(
    "setup",
    N_("""Deal a random legal set-up for GAME as a set-up file that `validate` accepts.

    The deal follows the game's set-up procedure; the seed used is written at the top of the file so
    any deal can be repeated. Options are per game (docs/setups.md), e.g. delphi: short=true, remove=N;
    ankh: scenario=OldKingdom|MiddleKingdom; gods: variant=bag, gods=red,blue.

    \b
    Example:
      pnpforge setup delphi --players 3 --seed 7 -o board.yaml --draw board.pdf
      pnpforge setup delphi --players 2 --option short=true
      pnpforge setup ankh --players 4 --seed 1 --draw ankh.png
      pnpforge setup gods --players 3 --draw gods.png --lang ja
    """),
)
@click.argument("game")
@click.option("--players", "-p", type=int, required=True, help=N_("Number of players."))
@click.option(
    "--seed", type=int, default=None, help=N_("Seed for the deal (same seed, same file). Default: random.")
)
@click.option(
    "--option", "options", multiple=True, metavar="KEY=VALUE", help=N_("Game option, e.g. short=true.")
)
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False),
    help=N_("Write the set-up file here (default: stdout)."),
)
@click.option(
    "--draw", type=click.Path(dir_okay=False), help=N_("Also draw the board to FILE.pdf, .svg or .png.")
)
@lang_option(N_("Language of the --draw picture's title and legend (the set-up file stays as it is)."))
def setup_cmd(
    game: str,
    players: int,
    seed: int | None,
    options: tuple[str, ...],
    output: str | None,
    draw: str | None,
    lang: str,
) -> None:
    # its help: the N_ text of @command above (said in the terminal's language)
    if draw and not draw.lower().endswith(DRAW_SUFFIXES):
        raise InputError.single(setupfile.COMMAND_LINE, Phrase(NOT_A_PICTURE, file=repr(draw)))
    if seed is None:
        # a fresh seed from the OS (not the global random; `secrets` costs 5 ms of start-up), shown
        seed = int.from_bytes(os.urandom(8), "big") % 10**9
    data = setupfile.deal_setup(game, players, seed, setupfile.parse_options(options))
    replay = ["pnpforge", "setup", game, "--players", str(players), "--seed", str(seed)]
    replay += [word for option in options for word in ("--option", option)]
    comment = "dealt by: " + shlex.join(replay)  # quoted, so the line pastes back into a shell
    text = setupfile.dump_yaml(data, comment)
    loaded = setupfile.load_source(read_yaml_text(text, output or "<dealt set-up>"))
    report = setupfile.check_loaded(loaded)
    if not report.valid:  # a dealer bug, never the user's input
        codes = ", ".join(sorted(report.codes()))
        raise click.ClickException(_terminal()(Phrase(DEALER_BUG, codes=codes)))
    if output:
        from pnpforge.files import write_atomic  # only when writing: validate and printing never need it

        write_atomic(output, text)
        click.echo(_terminal()(Phrase(WROTE, file=output, seed=seed)), err=True)
    else:
        click.echo(text, nl=False)
    if draw:
        picture = loaded.rules.picture
        if picture is None:
            raise InputError.single(setupfile.COMMAND_LINE, Phrase(NO_PICTURE, game=repr(game)))
        from pnpforge.layouts import boardpic
        from pnpforge.validator.picture import said

        pic = said(picture(loaded.setup), loaded.game.translator(lang))
        boardpic.render(pic, draw)
        click.echo(_terminal()(Phrase(DREW, file=draw)), err=True)


@command(
    "caravans",
    N_("""List every legal camel caravan (1 to 6 camels) on an Ankh set-up.

    For each: its camels (the hex sides they stand on, as pairs of cells), the region it splits and
    the sizes of the two new regions (land spaces). Caravans already in the file count as walls and
    as anchors.

    \b
    Example:
      pnpforge setup ankh --players 2 --seed 1 -o ankh.yaml
      pnpforge caravans ankh.yaml
      pnpforge caravans ankh.yaml --json
    """),
)
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help=N_("Print the caravans as JSON."))
def caravans_cmd(file: str, as_json: bool) -> None:
    # its help: the N_ text of @command above (said in the terminal's language)
    loaded = setupfile.load_setup(file)
    finder = loaded.game.caravan_finder(file)
    found = finder.find(loaded.setup, loaded.source)
    if as_json:
        click.echo(json.dumps({"game": loaded.game.id, "count": len(found), "caravans": found}, indent=1))
        return
    tr = loaded.game.translator(i18n.terminal_language())
    for caravan in found:
        click.echo(tr(finder.describe(caravan)))
    click.echo(tr(Phrase(CARAVANS, count=len(found))))
