"""`--help` in the terminal's language (PNPFORGE_LANG): commands' and options' help said from the catalogs.

A command's help and its options' help are written as `N_("...")` where they are declared and said only
when help is shown, so the language costs nothing at start-up. Option names, metavars, choices, command
names and the example command lines inside a help text stay as written; click's own words around them
("Usage:", "Options", "[default: ...]", the help option's line) are said from our catalog too.
"""

from __future__ import annotations

import copy
import inspect
import re
from collections.abc import Callable
from typing import Any

import click

from pnpforge.i18n import N_
from pnpforge.phrase import Phrase

__all__ = ["ForgeCommand", "Translated", "command", "terminal_said"]

USAGE = N_("Usage: ")
OPTIONS = N_("Options")
COMMANDS = N_("Commands")
HELP_OPTION = N_("Show this message and exit.")  # click's own line for -h/--help, said by us
VERSION_OPTION = N_("Show the version and exit.")
DEFAULT = N_("default: {value}")
REQUIRED = N_("required")
_EXTRAS = re.compile(r"(?P<help>.*?)(?P<gap>\s*)\[(?P<extras>[^\[\]]*)\]$", re.DOTALL)


def terminal_said() -> Callable[[str], str]:
    """Texts said in the terminal's language (English: as they are, nothing looked up)."""
    from pnpforge import i18n

    return i18n.translator(i18n.terminal_language())


def _extras(text: str, say: Callable[[str], str]) -> str:
    """An option's help with click's bracket of extras ("[default: out; required]") said too."""
    found = _EXTRAS.fullmatch(text)
    if found is None:
        return text
    parts = []
    for part in found["extras"].split("; "):
        if part.startswith("default: "):
            part = say(Phrase(DEFAULT, value=part.removeprefix("default: ")))
        elif part == "required":
            part = say(Phrase.word(REQUIRED))
        parts.append(part)
    return f"{found['help']}{found['gap']}[{'; '.join(parts)}]"


class Translated(click.Command):
    """A command (or group) whose help is said in the terminal's language."""

    def get_help_option(self, ctx: click.Context) -> click.Option | None:
        option = super().get_help_option(ctx)
        if option is not None:
            option.help = HELP_OPTION
        return option

    def format_usage(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        pieces = self.collect_usage_pieces(ctx)
        formatter.write_usage(ctx.command_path, " ".join(pieces), prefix=terminal_said()(USAGE))

    def format_help_text(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        if self.help is None or self.deprecated:
            super().format_help_text(ctx, formatter)
            return
        text = inspect.cleandoc(terminal_said()(self.help)).partition("\f")[0]
        if text:
            formatter.write_paragraph()
            with formatter.indentation():
                formatter.write_text(text)

    def format_options(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        say = terminal_said()
        if say is str:  # English: click's own formatting, byte for byte
            click.Command.format_options(self, ctx, formatter)
        else:
            self._format_said_options(ctx, formatter, say)
        if isinstance(self, click.Group):  # a group lists its commands after its options, as click does
            self.format_commands(ctx, formatter)

    def _format_said_options(
        self, ctx: click.Context, formatter: click.HelpFormatter, say: Callable[[str], str]
    ) -> None:
        records = []
        for param in self.get_params(ctx):
            if isinstance(param, click.Argument):
                continue
            shown = copy.copy(param)
            if isinstance(shown, click.Option) and shown.help:
                shown.help = say(shown.help)
            record = shown.get_help_record(ctx)
            if record is not None:
                records.append((record[0], _extras(record[1], say)))
        if records:
            with formatter.section(say(OPTIONS)):
                formatter.write_dl(records)


class ForgeCommand(Translated):
    """Every pnpforge command: its help in the terminal's language."""


def command(name: str, help: str, **kwargs: Any) -> Callable[[Callable[..., Any]], click.Command]:
    """`@click.command(name)` with its help (an `N_` text) said in the terminal's language."""
    return click.command(name, cls=ForgeCommand, help=help, **kwargs)
