"""The `{field}`s a component's templates name, checked once against its data rows, at game.yaml's line.

A `{titel}` typo is one error at the line that holds it (with how many rows lack it and the nearest
field names), not one error per row. (`{{ expressions }}` and `when:` are checked by
components/expressions.py.)
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Any

from pnpforge.components.expressions import NONE, names_read
from pnpforge.components.model import PLACEHOLDER, Component, Side
from pnpforge.components.template import EXPRESSION
from pnpforge.errors import Problem
from pnpforge.i18n import N_
from pnpforge.phrase import Phrase
from pnpforge.sourcefile import Path_, Source
from pnpforge.suggest import did_you_mean

_WHEN_FIELD = re.compile(r"\s*\{[^\W\d]\w*\}\s*")


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


_SIMPLE = re.compile(r"\{([^\W\d]\w*)\}")


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


def _sides(component: Component) -> Iterator[tuple[Side, Path_]]:
    """Each side a component may draw, with where it is written under the component: its face and
    back, or every face of `face_by`/`back_by` (and their default)."""
    for key in ("face", "back"):
        by = component.face_by if key == "face" else component.back_by
        if by is not None:
            for name, chosen in by.faces.items():
                if isinstance(chosen, Side):  # not `none` (rows without a back)
                    yield chosen, (f"{key}_by", "faces", name)
            if isinstance(by.default, Side):
                yield by.default, (f"{key}_by", "default")
            continue
        side = component.face if key == "face" else component.back
        if side is not None:
            yield side, component.side_path(key)


def _expressions(side: Side, path: Path_) -> Iterator[tuple[Path_, str]]:
    """(path, expression) of each element's `when:` written as an expression and each `{{ }}`."""
    for number, element in enumerate(side.elements):
        when = getattr(element, "when", None)
        if isinstance(when, str) and not _fields_named(when):
            yield (*path, "elements", number, "when"), when
    for where, text in _side_templates(side, ""):
        for found in EXPRESSION.finditer(text):
            yield (*path, *where[1:]), found.group(1)


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
    sides = list(_sides(component))
    for side, side_path in sides:
        for number, element in enumerate(side.elements):
            when = getattr(element, "when", None)
            if isinstance(when, str) and (message := when_problem(when)):
                path = (*where, *side_path, "elements", number, "when")
                problems.append(source.problem(path, message))
    if not rows:
        return problems
    fields = set().union(*(row.keys() for row in rows))
    templates: list[tuple[Path_, str]] = (
        [(("size",), component.size)] if isinstance(component.size, str) else []
    )
    for side, side_path in sides:
        templates += [((*side_path, *path[1:]), text) for path, text in _side_templates(side, "")]
    said: set[str] = set()
    named = [(path, text, field) for path, text in templates for field in _fields_named(text)]
    for side, side_path in sides:  # the fields read by `when:` and `{{ }}` expressions
        named += [
            (path, text, name) for path, text in _expressions(side, side_path) for name in names_read(text)
        ]
    for path, text, field in named:
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
            placeholder=f"{{{field}}}" if f"{{{field}}}" in text else text.strip(),
            field=repr(field),
            count=len(rows),
            hint=did_you_mean(field, known),
            known=known or Phrase.word(NONE),
        )
        problems.append(source.problem((*where, *path), message))
    return problems
