"""A component's parts for the inventory: its pieces counted per value of one row field.

A player checks a printed kit against the rulebook's component list ("24 temple tiles, 32 people
tiles, ..."), so the inventory splits each component by the field its `group:` names, or by the
first of `model.KIND_COLUMNS` its rows carry. A component with neither has no parts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pnpforge.components.model import KIND_COLUMNS, Component, Group
from pnpforge.components.template import localise
from pnpforge.errors import Problem
from pnpforge.generator.pieces import Piece
from pnpforge.i18n import N_
from pnpforge.phrase import Phrase
from pnpforge.sourcefile import Source


@dataclass(frozen=True)
class Part:
    """One part of a grouped component (a kind of piece): its name, title and how many are printed."""

    name: str  # the row field's value, e.g. temple
    title: str
    count: int  # pieces printed


def group_of(component: Component, first_row: dict[str, object] | None) -> Group | None:
    """The grouping a component asks for, or the first kind-like field of its rows."""
    if isinstance(component.group, Group):
        return component.group
    if isinstance(component.group, str):
        return Group(by=component.group)
    found = next((key for key in KIND_COLUMNS if first_row and key in first_row), None)
    return Group(by=found) if found else None


def parts(component: Component, pieces: Sequence[Piece], lang: str) -> tuple[Part, ...]:
    """Parts in the order their first piece comes, each with its title and number of pieces."""
    group = group_of(component, pieces[0].row if pieces else None)
    if group is None:
        return ()
    rows: dict[str, list[dict[str, Any]]] = {}
    for piece in pieces:
        rows.setdefault(str(piece.row.get(group.by, "")), []).append(piece.row)
    return tuple(
        Part(
            value,
            localise(group.titles[value], lang) if value in group.titles else _title(value, mine, lang),
            len(mine),
        )
        for value, mine in rows.items()
    )


def _title(value: str, rows: Sequence[dict[str, Any]], lang: str) -> str:
    """The name all the part's rows share (`name_<lang>`, or `name` in either form), else the value."""
    for key in (f"name_{lang}", "name"):
        names = {
            localise(row[key], lang) if isinstance(row.get(key), dict) else str(row.get(key, ""))
            for row in rows
        }
        if len(names) == 1 and (name := names.pop()):
            return name
    text = value.replace("-", " ").replace("_", " ")
    return text[:1].upper() + text[1:]


def check_groups(
    source: Source, components: Sequence[Component], pieces: Sequence[Sequence[Piece]]
) -> list[Problem]:
    """A `group:` names a field the rows have, and its titles only values that occur."""
    problems = []
    for index, (component, mine) in enumerate(zip(components, pieces, strict=True)):
        if component.group is None or not mine:
            continue
        group = group_of(component, mine[0].row)
        assert group is not None
        at = ("components", index, "group")
        if group.by not in mine[0].row:
            fields = list(mine[0].row)[:8]
            said = Phrase(
                N_("no row field {field} to group by (expected one of: {known})"),
                field=repr(group.by),
                known=fields,
            )
            problems.append(source.problem(at, said))
            continue
        values = {str(p.row.get(group.by, "")) for p in mine}
        problems += [
            source.problem(
                (*at, "titles", value),
                Phrase(
                    N_("no row has {field} = {value} (expected one of: {known})"),
                    field=group.by,
                    value=repr(value),
                    known=sorted(values),
                ),
            )
            for value in group.titles
            if value not in values
        ]
    return problems
