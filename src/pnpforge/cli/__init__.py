"""The `pnpforge` command: a Click group whose commands are thin shells over the library.

Commands live beside this file by job (print, check, score) and are registered by name in
`_register()`, one `add(name, "module:attribute", first sentence of its help)` line each: a command's
module is imported only when that command runs, so every command starts fast and `--help` lists them
all from their registered lines (tests/test_imports.py checks each line against the command's help).
Every InputError raised below is printed as one `FILE:LINE:COL: message` line per problem, with exit
code 2 and no traceback. Anything else that escapes a command is a bug: one `internal error`
line and exit code 3 (the traceback only with --debug).
"""

from __future__ import annotations

import importlib
import os
import sys
import types
from collections.abc import Sequence
from typing import Any

from pnpforge.internals import pydantic_plugins


def _without_pydantic_plugins() -> None:
    """pnpforge uses no pydantic plugin: pydantic's documented switch turns off its entry-point scan,
    unless the user set PYDANTIC_DISABLE_PLUGINS; then pydantic's plugin loader needs no
    importlib.metadata (internals/pydantic_plugins.py)."""
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    pydantic_plugins.skip_plugin_scan()


_without_pydantic_plugins()

from pnpforge import longlived  # noqa: E402
from pnpforge.internals import quickexit  # noqa: E402

_collecting = longlived.pause()  # click and this module are long-lived: settled at the end of the file

import click  # noqa: E402

from pnpforge import __version__  # noqa: E402
from pnpforge.cli.clickwords import said_by_us  # noqa: E402
from pnpforge.cli.helptext import COMMANDS, VERSION_OPTION, Translated, terminal_said  # noqa: E402
from pnpforge.errors import InputError, Problem, collapse, warning_line  # noqa: E402
from pnpforge.i18n import N_  # noqa: E402
from pnpforge.phrase import Phrase  # noqa: E402

EXIT_BAD_INPUT = 2
EXIT_INTERNAL = 3


def say(text: str, domain: str | None = None) -> None:
    """One line on stderr in the terminal's language (PNPFORGE_LANG); `FILE:LINE:COL`, names and values
    as they are. `domain`: the game whose words the line holds (its own first, then the engine's)."""
    from pnpforge import i18n

    click.echo(i18n.translator(i18n.terminal_language(), domain)(text), err=True)


COMMAND_LINE = N_("<command line>")  # where a problem with an option's value is


def _where(problem: Problem) -> str:
    """`FILE:LINE:COL`, the command line said in the terminal's language."""
    return Phrase.word(COMMAND_LINE) if problem.file == COMMAND_LINE else problem.where


def report_problems(error: InputError) -> None:
    """Each problem on its own line; the same message at many rows once, with the rows it holds for."""
    from pnpforge import limits

    said = collapse(error.problems)
    for problem in said[: limits.VIOLATIONS]:
        line = Phrase(N_("error: {where}: {message}"), where=_where(problem), message=problem.message)
        say(line, error.domain)  # a game's rules found it: said in that game's words
    unlisted = len(said) - limits.VIOLATIONS
    if unlisted > 0:
        shown = limits.VIOLATIONS
        say(
            Phrase(
                N_("{count} more problem(s) not listed (the first {shown} are)."), count=unlisted, shown=shown
            )
        )
    if len(error.problems) > 1:
        say(Phrase(N_("{count} problems."), count=len(error.problems)))


def report_warnings(warnings: list[Problem | str]) -> None:
    """Warnings (the output was written): one located line each on stderr, repeated ones collapsed."""
    located = collapse([w for w in warnings if isinstance(w, Problem)])
    lines: list[Problem | str] = [*(w for w in warnings if isinstance(w, str)), *located]
    for line in lines:
        say(warning_line(line))


class Language(click.Choice):
    """A language pnpforge has a catalog for (i18n.languages()), looked up each time it is asked (click
    copies a Choice's list when the command is made): a new .po, or PNPFORGE_LOCALE_DIR's catalogs, is a
    new choice without touching the commands."""

    def __init__(self) -> None:
        super().__init__(())

    @property  # type: ignore[override]
    def choices(self) -> Sequence[str]:
        from pnpforge import i18n

        return i18n.languages()

    @choices.setter
    def choices(self, _: Sequence[str]) -> None:
        """click sets the list it was given; the languages are looked up instead."""


def lang_option(help: str) -> Any:
    """`--lang LANG` (default en, choices: every language with a catalog), as `score`, `validate` and
    `setup` take it."""
    return click.option("--lang", type=Language(), default="en", show_default=True, help=help)


def import_long_lived(name: str) -> types.ModuleType:
    """Import a command's module as long-lived objects (pnpforge.longlived)."""
    with longlived.long_lived():
        return importlib.import_module(name)


class ForgeGroup(Translated, click.Group):
    """Turns bad input into readable messages and exit code 2, wherever it is found.

    Commands are added lazily (`add_lazy`): by name, where they live and their one-line help.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lazy: dict[str, tuple[str, str]] = {}  # name -> ("module:attribute", first sentence of help)

    def add_lazy(self, name: str, where: str, short_help: str) -> None:
        """Register command `name`, found at `where` ("module:attribute" in pnpforge.cli) when run."""
        self.lazy[name] = (where, short_help)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*self.commands, *self.lazy})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in self.lazy:
            module, _, attribute = self.lazy[cmd_name][0].partition(":")
            self.add_command(getattr(import_long_lived(f"{__name__}.{module}"), attribute), cmd_name)
        return self.commands.get(cmd_name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The command list from the registered lines: `--help` imports no command module."""
        say = terminal_said()
        rows: list[tuple[str, click.Command]] = []
        for name in self.list_commands(ctx):
            loaded = self.commands.get(name)
            if say is not str:  # another language: the registered line said whole (no English cut-off)
                loaded = click.Command(
                    name, short_help=say(self.lazy[name][1]), hidden=bool(loaded and loaded.hidden)
                )
            command = loaded or click.Command(name, help=self.lazy[name][1])
            if not command.hidden:
                rows.append((name, command))
        if rows:
            limit = formatter.width - 6 - max(len(name) for name, _ in rows)
            with formatter.section(say(COMMANDS)):
                formatter.write_dl([(name, command.get_short_help_str(limit)) for name, command in rows])

    def make_context(
        self, info_name: str | None, args: list[str], parent: click.Context | None = None, **extra: Any
    ) -> click.Context:
        try:
            return super().make_context(info_name, args, parent, **extra)
        except click.ClickException as error:  # pnpforge's own options: said as a command's are
            raise said_by_us(error) from None

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except InputError as error:
            report_problems(error)
            sys.exit(EXIT_BAD_INPUT)
        except click.ClickException as error:
            raise said_by_us(error) from None  # a usage error, in the terminal's language
        except click.exceptions.Exit:
            raise  # click's own way out: ctx.exit
        # Ctrl-C: click's own "Aborted!" and exit 1, said in the terminal's language
        except (click.Abort, KeyboardInterrupt, EOFError):
            click.echo(err=True)
            say(N_("Aborted!"))
            sys.exit(1)
        except BrokenPipeError:  # the reader left (`pnpforge games | head -1`): nothing more to say
            quiet = os.open(os.devnull, os.O_WRONLY)
            os.dup2(quiet, sys.stdout.fileno())  # so the final flush of stdout says nothing either
            os.close(quiet)
            sys.exit(1)
        except OSError as error:
            if error.filename is None or ctx.params.get("debug"):
                return self._internal(ctx, error)
            # the system refused a path the user gave (too long, a loop of links, no permission)
            refused = Phrase(N_("cannot use this path: {reason}"), reason=error.strerror)
            report_problems(InputError.single(error.filename, refused))
            sys.exit(EXIT_BAD_INPUT)
        except (Exception, RecursionError, MemoryError) as error:
            return self._internal(ctx, error)

    @staticmethod
    def _internal(ctx: click.Context, error: BaseException) -> Any:
        """A bug, not bad input: one line and exit 3; the traceback only with --debug."""
        if ctx.params.get("debug"):
            raise error
        what = f"{type(error).__name__}: {error}".splitlines()[0][:300]
        say(Phrase(N_("internal error: {what} (please report; --debug shows where)"), what=what))
        sys.exit(EXIT_INTERNAL)


def _show_version(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    """`pnpforge --version`: click's own line, said in the terminal's language."""
    if value and not ctx.resilient_parsing:
        click.echo(
            terminal_said()(
                Phrase(N_("{program}, version {version}"), program="pnpforge", version=__version__)
            )
        )
        ctx.exit()


@click.group(
    cls=ForgeGroup,
    context_settings={"help_option_names": ["-h", "--help"]},
    help=N_(
        """Print-and-play sheets, set-up checks and score calculators for board games.

    \b
    Examples:
      pnpforge games
      pnpforge build gods --page letter --lang ja
      pnpforge validate my-delphi-setup.yaml
      pnpforge score final.yaml
      pnpforge --debug build my-game/    # an internal error's traceback, for a bug report
    """
    ),
)
@click.option(
    "--version", is_flag=True, expose_value=False, is_eager=True, callback=_show_version, help=VERSION_OPTION
)
@click.option(
    "--games-dir",
    type=click.Path(file_okay=False, exists=True),
    multiple=True,
    help=N_("Also look for games (folders holding game.yaml) in DIR."),
)
@click.option("--debug", is_flag=True, help=N_("Show the traceback of an internal error (for bug reports)."))
def main(games_dir: tuple[str, ...], debug: bool) -> None:
    # the help above (`pnpforge --help`) is said in the terminal's language
    from pnpforge import catalog

    for folder in games_dir:
        catalog.add_games_dir(folder)


def _register() -> None:
    """One line per command: its name, where it lives, and the first sentence of its help."""
    add = main.add_lazy
    add(
        "build",
        "print_cmds:build_cmd",
        N_("Build print-ready sheets for TARGET: a bundled game id, a spec folder or a game.yaml."),
    )
    add("caravans", "check_cmds:caravans_cmd",
        N_("List every legal camel caravan (1 to 6 camels) on an Ankh set-up."))  # fmt: skip
    add(
        "diff",
        "draft_cmds:diff_cmd",
        N_("List the pieces added, removed and changed from draft OLD to draft NEW, per component."),
    )
    add("export", "export_cmd:export_cmd",
        N_("Export TARGET's pieces for a print shop or a virtual tabletop."))  # fmt: skip
    add("games", "print_cmds:games_cmd",
        N_("List the games pnpforge knows: bundled ones and any in --games-dir."))  # fmt: skip
    add(
        "inventory",
        "print_cmds:inventory_cmd",
        N_("List each component of TARGET: name, kind, shape, count, sides and sheets on the page."),
    )
    add("new", "print_cmds:new_cmd",
        N_("Create a spec folder NAME (game.yaml and its data) that builds at once."))  # fmt: skip
    add("plays", "plays_cmds:plays_cmd",
        N_("List, show, export, import, delete and summarise recorded plays."))  # fmt: skip
    add("preview", "print_cmds:preview_cmd",
        N_("Render each page of TARGET to a PNG (DIR/<id>-pNNN.png), without writing the PDF."))  # fmt: skip
    add("schema", "print_cmds:schema_cmd",
        N_("Print the JSON Schema of game.yaml (point an editor's YAML plug-in at it)."))  # fmt: skip
    add("score", "score_cmds:score",
        N_("Count the score of a game from what players counted at the table."))  # fmt: skip
    add("serve", "serve_cmd:serve_cmd",
        N_("Serve the table page: set-ups, scores and prints on the players' phones."))  # fmt: skip
    add("setup", "check_cmds:setup_cmd",
        N_("Deal a random legal set-up for GAME as a set-up file that `validate` accepts."))  # fmt: skip
    add("validate", "check_cmds:validate_cmd",
        N_("Check a board set-up file against its game's rules."))  # fmt: skip
    add("watch", "print_cmds:watch_cmd",
        N_("Build TARGET, then rebuild whenever a file in its folder changes (Ctrl-C stops)."))  # fmt: skip


_register()
longlived.settle(_collecting)


_one_command = False  # set by run(): this process ends when its command returns


def process_ends_with_command() -> bool:
    """True in the installed `pnpforge` command (run()), whose process ends when its one command returns;
    False where main() is called within a longer process (click's test runner)."""
    return _one_command


def run() -> None:
    """The installed `pnpforge` command: `main`, then a quick way out of the process.

    When a command returns, every file it wrote is closed; tearing the interpreter down afterwards
    (freeing each module and object in turn) would add ~10 ms to a 0.14 s command for nothing, so the
    process flushes its output and leaves at once, as mypy does. A run that leaves other threads or
    exit handlers that matter behind (`serve`, SVG artwork's logging) exits the ordinary way
    (internals/quickexit.py).
    """
    global _one_command
    _one_command = True
    try:
        main()
        code: str | int | None = 0
    except SystemExit as leaving:
        code = leaving.code
    quickexit.leave(code)
