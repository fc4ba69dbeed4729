"""What a game's rules read from its printed kit: the data files and counts its game.yaml prints.

A check or a score that takes a number from the components (how many cards, what a card is worth,
which colours exist) reads it here, from the very files `pnpforge build` prints, so the rules and
the kit cannot drift apart. Nothing falls back: a missing file, a missing column, an empty or
non-numeric cell, a component the game.yaml does not have is an `InputError` naming the file (and
line) and what the rules expected there. Every read is recorded (`reads`), so a test can hold each
game's rules to its inventory.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any, NamedTuple

from pnpforge.errors import InputError
from pnpforge.parsecache import derived
from pnpforge.sourcefile import read_csv, read_yaml

__all__ = ["Column", "column", "copies", "numbers", "reads", "rows"]


class Column(NamedTuple):  # (a named tuple: a dataclass costs every check ~0.3 ms to create)
    """One column of a kit data file as the rules read it: each row's value with its line."""

    file: str
    name: str
    values: tuple[str, ...]
    lines: tuple[int, ...]


_reads: set[tuple[str, str, str]] = set()  # (game folder, file, column or "component:<name>")


def reads() -> set[tuple[str, str, str]]:
    """Every (folder, file, column) the rules have read so far in this process."""
    return set(_reads)


def _file(folder: Path, name: str) -> Path:
    path = folder / name
    if not path.is_file():
        present = ", ".join(sorted(p.name for p in folder.glob("*.csv"))) or "none"
        raise InputError.single(
            str(path), f"the rules read this kit file, which is missing (the kit's CSV files: {present})"
        )
    return path


@cache
def _table(path: Path, stamp: float) -> tuple[str, tuple[dict[str, str], ...], tuple[int, ...]]:
    table = read_csv(path)
    return table.file, tuple(table.rows), tuple(table.lines)


def rows(folder: Path, name: str, *needed: str) -> list[tuple[dict[str, str], int]]:
    """Every row of a kit data file with its line; each `needed` column must be in the header and filled."""
    path = _file(folder, name)
    file, table, lines = _table(path, path.stat().st_mtime)
    if not table:
        raise InputError.single(file, "the rules read this kit file, which has no rows")
    for column_name in needed:
        _reads.add((str(folder), name, column_name))
        if column_name not in table[0]:
            header = ", ".join(table[0])
            raise InputError.single(
                file, f"the rules read column {column_name!r}, which is missing (columns: {header})", 1, 1
            )
        for row, line in zip(table, lines, strict=True):
            if not row[column_name]:
                raise InputError.single(file, f"column {column_name!r} is empty (the rules read it)", line, 1)
    return list(zip(table, lines, strict=True))


def column(folder: Path, name: str, column_name: str) -> Column:
    found = rows(folder, name, column_name)
    return Column(name, column_name, tuple(r[column_name] for r, _ in found), tuple(n for _, n in found))


def numbers(folder: Path, name: str, column_name: str) -> list[int]:
    """A column of whole numbers, e.g. what each card is worth."""
    found = column(folder, name, column_name)
    out = []
    for value, line in zip(found.values, found.lines, strict=True):
        if not value.isdigit():
            raise InputError.single(
                str(folder / name),
                f"{column_name} {value!r} is not a whole number (the rules read it)",
                line,
                1,
            )
        out.append(int(value))
    return out


def _counts(spec: Path) -> dict[str, Any]:
    """Each component's `count:` (1 when unset) by its name, in the game.yaml's order."""
    data = read_yaml(spec).data
    listed = data.get("components", []) if isinstance(data, dict) else []
    named = [c for c in listed if isinstance(c, dict) and isinstance(c.get("name"), str)]
    return {c["name"]: c.get("count", 1) for c in named}


@cache
def _components(spec: Path, stamp: float) -> dict[str, Any]:
    # a fact of the game.yaml kept beside it (parsecache.derived): a check reading one count reads a few
    # bytes, not the whole spec (Delphi's statues: 1 ms less)
    found: dict[str, Any] = derived(spec, "counts", lambda: _counts(spec))
    return found


def copies(folder: Path, component: str) -> int:
    """How many copies of each row the game.yaml prints of a component (its `count:`, 1 when unset)."""
    spec = folder / "game.yaml"
    _reads.add((str(folder), "game.yaml", f"component:{component}"))
    found = _components(spec, spec.stat().st_mtime)
    if component not in found:
        known = ", ".join(found) or "none"
        raise InputError.single(
            str(spec), f"the rules read component {component!r}, which is missing (components: {known})"
        )
    count = found[component]
    if not isinstance(count, int) or isinstance(count, bool) or count < 1:
        raise InputError.single(str(spec), f"component {component!r}: count {count!r} is not a whole number")
    return count
