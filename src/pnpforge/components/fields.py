"""The `{field}`s a component's templates name, checked once against its data rows, at game.yaml's line.

A `{titel}` typo is one error at the line that holds it (with how many rows lack it and the nearest
field names), not one error per row. (`{{ expressions }}` and `when:` are checked by
components/expressions.py.)
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Any

from pnpforge.components.expressions import NONE
from pnpforge.components.model import PLACEHOLDER, Component, Side
from pnpforge.components.template import EXPRESSION
from pnpforge.errors import Problem
from pnpforge.i18n import N_
from pnpforge.phrase import Phrase
from pnpforge.sourcefile import Path_, Source
from pnpforge.suggest import did_you_mean

_WHEN_FIELD = re.compile(r"\s*\{[A-Za-z_][A-Za-z0-9_]*\}\s*")


def when_problem(value: str) -> str | None:
    """What is wrong with a `when:` written with `{field}`s, or None. Such a `when` is the filled text
    (drawn when not empty, 0 or false), so `{type} == event` would always hold: one `{field}` alone,
    or an expression without braces (components/expressions.py), is what a designer means."""
    if not _fields_named(value) or _WHEN_FIELD.fullmatch(value):
        return None
    return Phrase(
        N_(
            "when: {value} mixes a {{field}} with other text, so it always holds (expected one field, "
            "{one}, or an expression without braces, {expression})"
        ),
        value=repr(value),
        one='when: "{bonus}"',
        expression="when: \"type == 'event'\"",
    )


_SIMPLE = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")


def _fields_named(text: str) -> list[str]:
    """The plain `{field}`s of a text: `{{ expressions }}` and escaped braces left out."""
    return _SIMPLE.findall(EXPRESSION.sub("", text.replace("\\{", "").replace("\\}", "")))


def _templates(value: Any, path: Path_) -> Iterator[tuple[Path_, str]]:
    """(path, text) of every string holding a `{field}` in a value as written."""
    if isinstance(value, str):
        if PLACEHOLDER.search(value):
            yield path, value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _templates(item, (*path, key))
    elif isinstance(value, list | tuple):
        for number, item in enumerate(value):
            yield from _templates(item, (*path, number))


def _without(text: str, names: frozenset[str]) -> str:
    """`text` with its `{name}`s of `names` left out (a repeat's `{index}`: no data row's field)."""
    return _SIMPLE.sub(lambda m: "" if m.group(1) in names else m.group(0), text)


def _side_templates(side: Side, name: str) -> Iterator[tuple[Path_, str]]:
    yield from _templates(side.background, (name, "background"))
    yield from _templates(side.pattern, (name, "pattern"))
    for number, element in enumerate(side.elements):
        own: frozenset[str] = getattr(
            type(element), "cell_templated", frozenset()
        )  # filled per hex cell (or per copy), not per row
        cell_fields: frozenset[str] | None = getattr(type(element), "cell_fields", None)
        for key, value in element.model_dump(mode="python", exclude_unset=True).items():
            if key not in own:
                yield from _templates(value, (name, "elements", number, key))
            elif cell_fields is not None:  # a repeat's elements: the row's fields, beside the copy's own
                for path, text in _templates(value, (name, "elements", number, key)):
                    yield path, _without(text, cell_fields)


def _has(fields: set[str], name: str, lang: str) -> bool:
    return any(key in fields for key in (f"{name}_{lang}", name, f"{name}_en"))


def template_problems(
    component: Component,
    index: int,
    rows: Sequence[dict[str, Any]],
    source: Source,
    lang: str,
) -> list[Problem]:
    """One problem per `{field}` no row of the component has (and per bad `when:`), at its game.yaml line."""
    where = ("components", index)
    problems: list[Problem] = []
    sides = [(component.face, "face")] + ([(component.back, "back")] if component.back is not None else [])
    for side, name in sides:
        for number, element in enumerate(side.elements):
            when = getattr(element, "when", None)
            if isinstance(when, str) and (message := when_problem(when)):
                path = (*where, *component.side_path(name), "elements", number, "when")
                problems.append(source.problem(path, message))
    if not rows:
        return problems
    fields = set().union(*(row.keys() for row in rows))
    templates: list[tuple[Path_, str]] = (
        [(("size",), component.size)] if isinstance(component.size, str) else []
    )
    for side, name in sides:
        templates += [
            ((*component.side_path(name), *path[1:]), text) for path, text in _side_templates(side, name)
        ]
    said: set[str] = set()
    for path, text in templates:
        for field in _fields_named(text):
            if field in said or any(_has(set(row), field, lang) for row in rows):
                continue
            said.add(field)
            known = sorted({re.sub(r"_(en|ja)$", "", key) for key in fields})
            template = N_(
                "{placeholder}: no data row has a field {field} (none of {count} rows; {hint}fields: {known})"
            )
            if len(rows) == 1:
                template = N_(
                    "{placeholder}: no data row has a field {field} (none of 1 row; {hint}fields: {known})"
                )
            message = Phrase(
                template,
                placeholder=f"{{{field}}}",
                field=repr(field),
                count=len(rows),
                hint=did_you_mean(field, known),
                known=known or Phrase.word(NONE),
            )
            problems.append(source.problem((*where, *path), message))
    return problems
