"""The `pnpforge` command: a Click group whose commands are thin shells over the library.

Commands live beside this file by job (print, check, score). Every InputError raised below is
printed as one `FILE:LINE:COL: message` line per problem, with exit code 2 and no traceback.
Anything else that escapes a command is a bug: one `internal error` line and exit code 3
(the traceback only with --debug).
"""

from __future__ import annotations

import sys
from typing import Any

import click

from pnpforge import __version__, catalog
from pnpforge.errors import InputError

EXIT_BAD_INPUT = 2
EXIT_INTERNAL = 3


def report_problems(error: InputError) -> None:
    for problem in error.problems:
        click.echo(f"error: {problem}", err=True)
    if len(error.problems) > 1:
        click.echo(f"{len(error.problems)} problems.", err=True)


class ForgeGroup(click.Group):
    """Turns bad input into readable messages and exit code 2, wherever it is found."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except InputError as error:
            report_problems(error)
            sys.exit(EXIT_BAD_INPUT)
        except (click.exceptions.Exit, click.ClickException, click.Abort, EOFError):
            raise  # click's own ways out: usage errors, ctx.exit, Ctrl-C
        except OSError as error:
            if error.filename is None or ctx.params.get("debug"):
                return self._internal(ctx, error)
            # the system refused a path the user gave (too long, a loop of links, no permission)
            report_problems(InputError.single(error.filename, f"cannot use this path: {error.strerror}"))
            sys.exit(EXIT_BAD_INPUT)
        except (Exception, RecursionError, MemoryError) as error:
            return self._internal(ctx, error)

    @staticmethod
    def _internal(ctx: click.Context, error: BaseException) -> Any:
        """A bug, not bad input: one line and exit 3; the traceback only with --debug."""
        if ctx.params.get("debug"):
            raise error
        what = f"{type(error).__name__}: {error}".splitlines()[0][:300]
        click.echo(f"internal error: {what} (please report; --debug shows where)", err=True)
        sys.exit(EXIT_INTERNAL)


@click.group(cls=ForgeGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="pnpforge")
@click.option(
    "--games-dir",
    type=click.Path(file_okay=False, exists=True),
    multiple=True,
    help="Also look for games (folders holding game.yaml) in DIR.",
)
@click.option("--debug", is_flag=True, help="Show the traceback of an internal error (for bug reports).")
def main(games_dir: tuple[str, ...], debug: bool) -> None:
    """Print-and-play sheets, set-up checks and score calculators for board games.

    \b
    Examples:
      pnpforge games
      pnpforge build gods --page letter --lang ja
      pnpforge validate my-delphi-setup.yaml
      pnpforge score final.yaml
      pnpforge --debug build my-game/    # an internal error's traceback, for a bug report
    """
    for folder in games_dir:
        catalog.add_games_dir(folder)


def _register() -> None:
    from pnpforge.cli import check_cmds, print_cmds, score_cmds

    for module in (print_cmds, check_cmds, score_cmds):
        for command in module.COMMANDS:
            main.add_command(command)


_register()
