"""Click's own error lines (a mistyped option, a missing argument, a bad choice) in the terminal's language.

Click says these in English (its gettext domain, which pnpforge does not ship). This adapter gives the
exception click raises a `show` that prints the same lines through our catalog: the usage line (already
ours, cli/helptext.py), "Try '... --help' for help." and "Error: ...", whose message is matched against
click's own wording below and said as our message only when it reads exactly so; anything else stays
click's English. It uses click's public names only (ClickException, its `ctx`, `format_message`,
`exit_code`); tests/test_pseudo_cli.py fails if click changes its wording of these.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache
from typing import IO, Any

import click

from pnpforge.cli.helptext import terminal_said
from pnpforge.i18n import N_
from pnpforge.phrase import Phrase

__all__ = ["said_by_us"]

ERROR = N_("Error: {message}")
TRY = N_("Try {command} for help.")

WORDING = (  # click's sentences (their {name!r} written {name}: the value comes quoted), most specific first
    N_("No such command {name}. Did you mean {possibility}?"),
    N_("No such command {name}. (Did you mean one of: {possibilities}?)"),
    N_("No such command {name}."),
    N_("No such option {name}. Did you mean {possibility}?"),
    N_("No such option {name}. (Did you mean one of: {possibilities}?)"),
    N_("No such option {name}."),
    N_("Missing argument {param}."),
    N_("Missing option {param}."),
    N_("Missing command."),
    N_("Invalid value for {param}: {message}"),
    N_("Invalid value: {message}"),
    N_("Option {name} requires an argument."),
    N_("Option {name} requires {count} arguments."),
    N_("Option {name} does not take a value."),
    N_("Got unexpected extra argument ({args})"),
    N_("Got unexpected extra arguments ({args})"),
    N_("{value} is not one of {choices}."),
    N_("{value} is not a valid integer."),
    N_("{value} is not a valid integer range."),
    N_("{value} is not a valid float."),
    N_("{value} is not a valid float range."),
    N_("{value} is not a valid boolean. Recognized values: {states}"),
    N_("{value} is not in the range {range}."),
    N_("File {name} does not exist."),
    N_("Directory {name} does not exist."),
    N_("Path {name} does not exist."),
    N_("File {name} is a directory."),
    N_("Directory {name} is a file."),
    N_("{value} is not {choice}."),  # one choice only; after the sentences above it would also match
)


@cache
def _patterns() -> tuple[tuple[re.Pattern[str], str], ...]:
    def pattern(template: str) -> re.Pattern[str]:
        parts = re.split(r"\{(\w+)\}", template)
        text = "".join(re.escape(p) if i % 2 == 0 else f"(?P<{p}>.+?)" for i, p in enumerate(parts))
        return re.compile(text, re.DOTALL)

    return tuple((pattern(template), template) for template in WORDING)


def ours(message: str) -> str:
    """Click's `message` as our Phrase when it reads exactly as one of click's sentences (an inner
    message, after "Invalid value for ...:", said the same way); else as click said it."""
    for pattern, template in _patterns():
        found = pattern.fullmatch(message)
        if found is None:
            continue
        values = {k: (ours(v) if k == "message" else v) for k, v in found.groupdict().items()}
        said = Phrase(template, **values)
        if said == message:
            return said
    return message


def _show(error: click.ClickException, file: IO[Any] | None = None) -> None:
    """What click's own `show` prints, said in the terminal's language."""
    say = terminal_said()
    ctx = getattr(error, "ctx", None)
    if isinstance(error, click.UsageError) and ctx is not None:
        hint = ""
        if ctx.command.get_help_option(ctx) is not None:
            option = max(ctx.command.get_help_option_names(ctx), key=len)
            hint = say(Phrase(TRY, command=repr(f"{ctx.command_path} {option}"))) + "\n"
        click.echo(f"{ctx.get_usage()}\n{hint}", file=file, err=file is None, color=ctx.color)
    message = Phrase(ERROR, message=ours(error.format_message()))
    click.echo(say(message), file=file, err=file is None)


def said_by_us(error: click.ClickException) -> click.ClickException:
    """`error`, shown in the terminal's language when click shows it (English: as click's own show)."""
    if terminal_said() is not str:
        shown: Callable[..., None] = lambda file=None: _show(error, file)  # noqa: E731
        error.show = shown  # type: ignore[method-assign]
    return error
