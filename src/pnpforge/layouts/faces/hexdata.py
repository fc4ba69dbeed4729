"""Hex cells for hex maps, read from the spec's YAML data files (each parsed once per build)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pnpforge import limits
from pnpforge.components.model import CellSource
from pnpforge.components.template import fill
from pnpforge.errors import InputError
from pnpforge.i18n import N_
from pnpforge.layouts.faces.values import FaceError
from pnpforge.phrase import Phrase
from pnpforge.saying import reason
from pnpforge.sourcefile import FileRefError, Source, named_file, read_yaml

_data_cache: dict[tuple[Path, int], Source] = {}


def load_data(folder: Path, name: str, allow_outside: bool = False) -> Source:
    """A YAML data file of the spec, parsed once per build (keyed by path and modification time)."""
    try:
        path = named_file(folder, name, "data file", allow_outside=allow_outside)
        key = (path, path.stat().st_mtime_ns)
    except (FileRefError, OSError) as exc:
        raise FaceError(reason(exc)) from None
    source = _data_cache.get(key)
    if source is None:
        source = read_yaml(path)
        _data_cache[key] = source
    return source


def _dig(source: Source, dotted: str) -> tuple[Any, tuple[str | int, ...]]:
    data: Any = source.data
    path: tuple[str | int, ...] = ()
    for part in dotted.split(".") if dotted else []:
        if not isinstance(data, dict) or part not in data:
            raise InputError(
                [
                    source.problem(
                        path,
                        Phrase(N_("no key {key} here (expected the list the spec names)"), key=repr(dotted)),
                    )
                ]
            )
        data = data[part]
        path = (*path, part)
    return data, path


@dataclass(frozen=True)
class Cell:
    """One cell of a hex map: its axial (q, r) and its data fields."""

    at: tuple[int, int]
    fields: Mapping[str, Any]


def cells_from(
    source_spec: CellSource,
    spec_dir: Path,
    row: Mapping[str, Any] | None = None,
    lang: str = "en",
    *,
    allow_none: bool = False,
    allow_outside: bool = False,
) -> list[Cell]:
    """The hex cells a CellSource picks from its data file (`match` values may hold {field})."""
    source = load_data(spec_dir, source_spec.data, allow_outside)
    items, path = _dig(source, source_spec.list)
    if not isinstance(items, list):
        raise InputError(
            [
                source.problem(
                    path,
                    Phrase(N_("{key} is not a list (expected a list of items)"), key=repr(source_spec.list)),
                )
            ]
        )
    wanted = {k: (fill(v, row, lang) if row is not None else v) for k, v in source_spec.match.items()}
    cells: list[Cell] = []
    matched = 0
    for index, item in enumerate(items):
        if not isinstance(item, dict) or any(str(item.get(k)) != v for k, v in wanted.items()):
            continue
        matched += 1
        if source_spec.cells:
            entries = item.get(source_spec.cells)
            where: tuple[str | int, ...] = (*path, index, source_spec.cells)
            if not isinstance(entries, list):
                raise InputError(
                    [
                        source.problem(
                            (*path, index),
                            Phrase(N_("item has no list {key} of cells"), key=repr(source_spec.cells)),
                        )
                    ]
                )
        else:
            entries, where = [item], (*path, index)
        for number, entry in enumerate(entries):
            at = limits.axial(entry.get("at")) if isinstance(entry, dict) else None
            if at is None:
                spot = where if not source_spec.cells else (*where, number)
                said = Phrase(
                    N_("a cell needs `at: [q, r]` (two whole numbers, ±{most})"), most=limits.CELL_COORD
                )
                raise InputError([source.problem(spot, said)])
            cells.append(Cell(at, entry))
    if not matched and not allow_none:
        shown = ", ".join(f"{k}={v}" for k, v in wanted.items()) or Phrase.word(N_("any item"))
        said = Phrase(N_("no item in {key} matches {match}"), key=repr(source_spec.list), match=shown)
        raise InputError([source.problem(path, said)])
    return cells


def edges(source: Source, dotted: str) -> list[tuple[tuple[int, int], int]]:
    """The hex sides listed at `dotted` in a data file: (cell, direction 0-5) each."""
    data, path = _dig(source, dotted)
    if not isinstance(data, list):
        raise InputError(
            [source.problem(path, Phrase(N_("{key} is not a list of hex sides"), key=repr(dotted)))]
        )
    out = []
    for index, item in enumerate(data):
        if isinstance(item, dict) and "cell" in item and "dir" in item:
            cell, direction = item["cell"], item["dir"]
        elif isinstance(item, list) and len(item) == 3:
            cell, direction = item[:2], item[2]
        else:
            cell, direction = None, None
        at = limits.axial(cell)
        if at is None or not (isinstance(direction, int) and 0 <= direction < 6):
            raise InputError(
                [
                    source.problem(
                        (*path, index),
                        Phrase.word(N_("a hex side is {cell: [q, r], dir: 0-5} or [q, r, dir]")),
                    )
                ]
            )
        out.append((at, direction))
    return out
