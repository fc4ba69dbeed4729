"""`pnpforge score GAME --interactive`: ask for each number a game's `FIELDS` describe.

The answers become the same plain data a score file holds, so typed and piped answers go
through the very same checks and calculator. Works with answers piped on standard input;
questions go to standard error so `--json` output stays clean.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import click

from pnpforge.errors import InputError
from pnpforge.i18n import N_
from pnpforge.phrase import Phrase


@dataclass(frozen=True)
class Field:
    """One question: where the answer goes in the score file, and the rule it feeds.

    `key` is a dotted path inside a player entry (or inside the file when `per_player` is
    false; `after` asks it once the players are named). `kind` is int, bool, text, choice (one
    of `choices`), ints (`size` numbers) or names (a comma-separated list). A blank text or
    names answer leaves the key out of the file.
    """

    key: str
    label: str
    rule: str
    kind: str = "int"
    default: Any = None
    size: int = 0
    choices: tuple[str, ...] = ()
    per_player: bool = True
    after: bool = False


# the interview's own words, said in the game's translator's language (`pnpforge score GAME -i --lang`)
INTRO = N_("Scoring {title}. Each rule is shown with its first question.")
PLAYERS = N_("Players ({low}-{high})")
NAME = N_("Player {number} name")
PLAYER = N_("Player {number}")
NUMBERS = N_("{size} numbers")
NOT_NUMBERS = N_("expected {size} whole numbers separated by spaces")
HOW_MANY = N_("expected {size} numbers, got {count}")
ENDED = N_("the answers ended before every question was answered (expected one per line)")


def _numbers(size: int, tr: Callable[[str], str]) -> Any:
    def convert(text: str) -> list[int]:
        parts = text.replace(",", " ").split()
        try:
            numbers = [int(p) for p in parts]
        except ValueError:
            raise click.BadParameter(tr(Phrase(NOT_NUMBERS, size=size))) from None
        if len(numbers) != size:
            raise click.BadParameter(tr(Phrase(HOW_MANY, size=size, count=len(numbers))))
        return numbers

    return convert


def _ask(field: Field, who: str, explain: bool, tr: Callable[[str], str] = str) -> Any:
    text = f"{who}{tr(field.label)}" + (f" ({tr(field.rule)})" if explain and field.rule else "")
    if field.kind == "bool":
        return click.confirm(text, default=bool(field.default), err=True)
    if field.kind == "ints":
        return click.prompt(
            f"{text} ({tr(Phrase(NUMBERS, size=field.size))})",
            default=field.default,
            value_proc=_numbers(field.size, tr),
            err=True,
        )
    if field.kind == "choice":
        return click.prompt(text, type=click.Choice(field.choices), default=field.default, err=True)
    if field.kind in ("text", "names"):
        answer = click.prompt(text, default=field.default or "", show_default=False, err=True).strip()
        if field.kind == "names":
            return [name.strip() for name in answer.split(",") if name.strip()]
        return answer
    return click.prompt(text, type=int, default=field.default, err=True)


def _put(target: dict[str, Any], key: str, value: Any) -> None:
    if value in ("", []):
        return
    *parents, last = key.split(".")
    for part in parents:
        target = target.setdefault(part, {})
    target[last] = value


def interview(
    game: str,
    title: str,
    players: tuple[int, int],
    fields: Sequence[Field],
    tr: Callable[[str], str] = str,
) -> dict[str, Any]:
    """Ask the player count, the game-wide fields, then each player's name and numbers in turn.

    `tr` (the game's translator) puts the questions in another language; the answers (choices too) stay
    the same."""
    try:
        click.echo(tr(Phrase(INTRO, title=title)), err=True)
        low, high = players
        count = (
            low
            if low == high
            else click.prompt(
                tr(Phrase(PLAYERS, low=low, high=high)), type=click.IntRange(low, high), err=True
            )
        )
        data: dict[str, Any] = {"game": game}
        for field in fields:
            if not field.per_player and not field.after:
                _put(data, field.key, _ask(field, "", True, tr))
        entries = []
        for index in range(count):
            number = index + 1
            default = tr(Phrase(PLAYER, number=number))
            name = click.prompt(tr(Phrase(NAME, number=number)), default=default, err=True)
            entry: dict[str, Any] = {"name": name}
            for field in fields:
                if field.per_player:
                    _put(entry, field.key, _ask(field, f"{name}: ", index == 0, tr))
            entries.append(entry)
        data["players"] = entries
        for field in fields:
            if not field.per_player and field.after:
                _put(data, field.key, _ask(field, "", True, tr))
        return data
    except click.Abort:
        raise InputError.single("<stdin>", Phrase(ENDED)) from None
