"""Which piece is which: a data row's key, and `--only component:rowids` picking rows by it.

A row's key is its `id` field when every row of its component has a distinct, non-empty one
(`c07`); else its 1-based row number (`#7`). `--only cards:c07,c12` keeps those rows' pieces;
a row may also be named by its number (`cards:7` or `cards:#7`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from pnpforge.components.template import MissingField, localise, lookup
from pnpforge.errors import InputError
from pnpforge.generator.expand import ComponentPieces
from pnpforge.generator.pieces import Piece
from pnpforge.i18n import N_
from pnpforge.phrase import Phrase

ID_FIELD = "id"
TITLE_FIELDS = ("title", "name")  # the row fields that name a piece, first found wins
CLI = "<command line>"
SHOWN_KEYS = 6  # keys named in a message about an unknown one


def rows_of(pieces: Sequence[Piece]) -> list[list[Piece]]:
    """A component's pieces by data row (copies of a row follow each other)."""
    out: list[list[Piece]] = []
    for piece in pieces:
        if piece.copy == 0 or not out:
            out.append([])
        out[-1].append(piece)
    return out


def row_keys(rows: Sequence[Sequence[Piece]]) -> list[str]:
    """Each row's `id` when all rows have distinct, non-empty ones; else each row's number `#n`."""
    ids = [str(r[0].row.get(ID_FIELD, "")).strip() for r in rows]
    if all(ids) and len(set(ids)) == len(ids):
        return ids
    return [f"#{n}" for n in range(1, len(rows) + 1)]


def row_title(piece: Piece, lang: str) -> str:
    """The row's name: its `title` or `name` field (in `lang`, else plain, else English), or ''."""
    for name in TITLE_FIELDS:
        try:
            value = lookup(piece.row, name, lang)
        except MissingField:
            continue
        text = (localise(value, lang) if isinstance(value, dict) else str(value)).strip()
        if text:
            return text
    return ""


def split_only(only: Iterable[str]) -> tuple[list[str], dict[str, list[str]]]:
    """`--only` values as component names, and the row ids asked of each (`cards:c07,c12`)."""
    names: list[str] = []
    rows: dict[str, list[str]] = {}
    for value in only:
        name, colon, ids = value.partition(":")
        name = name.strip()
        names.append(name)
        if colon:
            wanted = [i.strip() for i in ids.split(",") if i.strip()]
            if not wanted:
                raise InputError.single(
                    CLI,
                    Phrase(
                        N_("--only {value}: no row ids after ':' (expected e.g. {name}:c07,c12 or {name}:3)"),
                        value=value,
                        name=name,
                    ),
                )
            rows.setdefault(name, []).extend(wanted)
    return list(dict.fromkeys(names)), rows


def chosen_rows(groups: Sequence[ComponentPieces], only: Iterable[str]) -> dict[str, set[int]]:
    """The 1-based row numbers `--only component:ids` keeps, per component it names with ids."""
    _, wanted = split_only(only)
    out: dict[str, set[int]] = {}
    for group in groups:
        ids = wanted.get(group.component.name)
        if ids is None:
            continue
        keys = row_keys(rows_of(group.pieces))
        chosen = out.setdefault(group.component.name, set())
        for asked in ids:
            index = _row_index(asked, keys)
            if index is None:
                shown = ", ".join(keys[:SHOWN_KEYS]) + (", …" if len(keys) > SHOWN_KEYS else "")
                raise InputError.single(
                    CLI,
                    Phrase(
                        N_(
                            "--only {name}:{asked}: no such row in {name} (expected an id or a row "
                            "number: {shown})"
                        ),
                        name=group.component.name,
                        asked=asked,
                        shown=shown or Phrase.word(N_("it has no rows")),
                    ),
                )
            chosen.add(index + 1)
    return out


def pick_rows(groups: list[ComponentPieces], only: Iterable[str]) -> list[ComponentPieces]:
    """Only the rows `--only component:ids` names (components named without ids keep every row)."""
    chosen = chosen_rows(groups, only)
    if not chosen:
        return groups
    out = []
    for group in groups:
        numbers = chosen.get(group.component.name)
        if numbers is None:
            out.append(group)
            continue
        rows = rows_of(group.pieces)
        out.append(ComponentPieces(group.component, [p for n in sorted(numbers) for p in rows[n - 1]]))
    return out


def _row_index(asked: str, keys: Sequence[str]) -> int | None:
    if asked in keys:
        return keys.index(asked)
    number = asked.removeprefix("#")
    if number.isdigit() and 1 <= int(number) <= len(keys):
        return int(number) - 1
    return None
