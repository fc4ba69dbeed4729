"""Expanding a loaded spec into pieces: component count × data rows × each row's own count.

A polyhex tile's hexes come from a YAML data file of the game (`cells:`): without data rows, each
matched item becomes one row (its plain fields are the row's fields); with data rows, the source's
`match` is filled from each row and must pick exactly one item. Problems found in rows (a field a
template names but the row lacks, a size that is not a length) are collected, located at the row.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from pnpforge import limits
from pnpforge.components.fields import template_problems
from pnpforge.components.load import DataRow, LoadedSpec, RowRef
from pnpforge.components.model import CellSource, Component, templated
from pnpforge.components.sidechoice import NoSide, variant_for
from pnpforge.components.template import FILL_ERRORS, fill
from pnpforge.errors import InputError, Problem
from pnpforge.generator.pieces import Piece
from pnpforge.generator.sizes import piece_size
from pnpforge.geometry.cells import components, hex_adjacency
from pnpforge.i18n import N_
from pnpforge.phrase import Phrase
from pnpforge.saying import reason
from pnpforge.sourcefile import FileRefError, Source, named_file, read_yaml
from pnpforge.suggest import did_you_mean

Cells = tuple[tuple[int, int], ...]
RowCheck = Callable[[Piece], list[Problem]]  # checks one piece per data row (faces, images)


@dataclass
class ComponentPieces:
    """One component and the pieces made from its rows."""

    component: Component
    pieces: list[Piece]


OF = N_("{component}: {problem}")  # a problem of one of a component's rows


def select(loaded: LoadedSpec, only: Iterable[str] = ()) -> list[Component]:
    """The components to build: all, or those named by --only (an unknown name is an error)."""
    wanted = list(only)
    names = [c.name for c in loaded.spec.components]
    unknown = [n for n in wanted if n not in names]
    if unknown:
        raise InputError.single(
            "<command line>",
            Phrase(
                N_("--only {names}: no such component ({hint}expected one of: {known})"),
                names=", ".join(unknown),
                hint=did_you_mean(unknown[0], names),
                known=names,
            ),
        )
    return [c for c in loaded.spec.components if not wanted or c.name in wanted]


def expand(
    loaded: LoadedSpec,
    lang: str,
    page_area: tuple[float, float],
    only: Iterable[str] = (),
    check_row: RowCheck | None = None,
    fields: Mapping[str, Any] | None = None,
) -> list[ComponentPieces]:
    """Every piece to print, component by component in spec order; raises InputError with all problems.

    `fields` are given to every row (the build's `version`); a row's own column of that name wins."""
    problems: list[Problem] = list(loaded.problems)
    out = []
    sources: dict[str, Source] = {}
    for component in select(loaded, only):
        pieces: list[Piece] = []
        rows = _rows_with_cells(loaded, component, lang, sources, problems)
        given = dict(fields or {})  # the build's own fields (version) are every row's too
        found = _template_problems(loaded, component, [{**given, **row.values} for row, _ in rows], lang)
        problems += found
        if found:  # said once at game.yaml's line: not again at every row
            out.append(ComponentPieces(component, pieces))
            continue
        alike = component.shape != "polyhex" and not templated(component.size)  # one size for every row
        size: tuple[float, float] | None = None
        for row, cells in rows:
            try:
                if size is None or not alike:
                    size = piece_size(component, cells, row=row.values, lang=lang, page=page_area)
                width, height = size
                if width <= 0 or height <= 0:  # a {field} size filled from this row
                    raise ValueError(
                        Phrase.word(N_("the size must be positive (expected e.g. 63x88mm or 20mm)"))
                    )
            except (ValueError, *FILL_ERRORS) as exc:
                problems.append(
                    Problem(
                        row.ref.file,
                        row.ref.line,
                        1,
                        Phrase(OF, component=component.name, problem=reason(exc)),
                    )
                )
                continue
            try:
                drawn = variant_for(component, row.values, lang)  # face_by / back_by pick its sides
            except NoSide as exc:
                problems.append(
                    Problem(
                        row.ref.file,
                        row.ref.line,
                        1,
                        Phrase(OF, component=component.name, problem=reason(exc)),
                    )
                )
                continue
            copies = row.count * component.copies
            values = {**fields, **row.values} if fields else row.values
            made = [Piece(drawn, values, row.ref, k, width, height, cells) for k in range(copies)]
            if check_row is not None and made:
                problems += check_row(made[0])
            pieces += made
        out.append(ComponentPieces(component, pieces))
    if problems:
        raise InputError(_unique(problems))
    return out


DIE_FIELDS = {"face": 1, "value": 1}  # filled for each face of a die (build.die_face)
_FACE_FIELD = re.compile(r"face\d+_(.+)")


def _face_fields(row: dict[str, Any]) -> dict[str, Any]:
    return {f"value_{m.group(1)}": "" for key in row if (m := _FACE_FIELD.fullmatch(key))}


def _template_problems(
    loaded: LoadedSpec, component: Component, rows: list[dict[str, Any]], lang: str
) -> list[Problem]:
    if component.kind == "die":  # each face's own: {face}, {value} and {value_x} from columns face<n>_x
        rows = [{**DIE_FIELDS, **_face_fields(row), **row} for row in rows]
    index = loaded.spec.components.index(component)
    return template_problems(component, index, rows, loaded.source, lang)


def _unique(problems: list[Problem]) -> list[Problem]:
    return list(dict.fromkeys(problems))  # each once, in the order first said


def _rows_with_cells(
    loaded: LoadedSpec,
    component: Component,
    lang: str,
    sources: dict[str, Source],
    problems: list[Problem],
) -> list[tuple[DataRow, Cells]]:
    rows = loaded.rows[component.name]
    source_spec = component.cells
    if source_spec is None:
        return [(row, ()) for row in rows]
    index = loaded.spec.components.index(component)
    where = ("components", index, "cells")
    data = _cell_file(loaded, source_spec, where, sources, problems)
    if data is None:
        return []
    items = _items(data, source_spec, where, loaded, problems)
    if items is None:
        return []
    has_rows = any(x is not None for x in (component.rows, component.csv, component.rows_from))
    out: list[tuple[DataRow, Cells]] = []
    if not has_rows:
        picked = [(item, path) for item, path in items if _matches(item, source_spec.match)]
        if not picked:
            problems.append(
                loaded.source.problem((*where, "match"), "no item matches (expected at least one)")
            )
        if source_spec.cells == "":
            cells = _cells_of([item for item, _ in picked], data, problems)
            return [(DataRow({}, 1, RowRef.at(loaded.source, where)), cells)] if cells else []
        for item, path in picked:
            cells = _cells_of(item.get(source_spec.cells) or [], data, problems, (*path, source_spec.cells))
            values = {k: v for k, v in item.items() if not isinstance(v, dict | list)}
            out.append((DataRow(values, 1, RowRef.at(data, path)), cells))
        return out
    for row in rows:
        try:
            match = {k: fill(str(v), row.values, lang) for k, v in source_spec.match.items()}
        except FILL_ERRORS as exc:
            said = Phrase(
                N_("{component}: cells match: {problem}"), component=component.name, problem=reason(exc)
            )
            problems.append(Problem(row.ref.file, row.ref.line, 1, said))
            continue
        picked = [(item, path) for item, path in items if _matches(item, match)]
        if len(picked) != 1:
            problems.append(
                Problem(
                    row.ref.file,
                    row.ref.line,
                    1,
                    Phrase(
                        N_(
                            "{component}: cells match {match} picks {count} items of {file} "
                            "(expected exactly one)"
                        ),
                        component=component.name,
                        match=match,
                        count=len(picked),
                        file=source_spec.data,
                    ),
                )
            )
            continue
        item, path = picked[0]
        cells = _cells_of(item.get(source_spec.cells) or [], data, problems, (*path, source_spec.cells))
        out.append((row, cells))
    return out


def _cell_file(
    loaded: LoadedSpec,
    source_spec: CellSource,
    where: tuple[str | int, ...],
    sources: dict[str, Source],
    problems: list[Problem],
) -> Source | None:
    name = source_spec.data
    if name not in sources:
        try:
            path = named_file(loaded.folder, name, "data file", allow_outside=loaded.allow_outside)
        except FileRefError as exc:
            problems.append(loaded.source.problem((*where, "data"), reason(exc)))
            return None
        try:
            sources[name] = read_yaml(path)
        except InputError as error:
            problems.extend(error.problems)
            return None
    return sources[name]


def _items(
    data: Source,
    source_spec: CellSource,
    where: tuple[str | int, ...],
    loaded: LoadedSpec,
    problems: list[Problem],
) -> list[tuple[dict[str, Any], tuple[str | int, ...]]] | None:
    node: Any = data.data
    path: tuple[str | int, ...] = ()
    for key in source_spec.list.split("."):
        if not isinstance(node, dict) or key not in node:
            problems.append(
                loaded.source.problem(
                    (*where, "list"),
                    Phrase(N_("no list {key} in {file}"), key=repr(source_spec.list), file=source_spec.data),
                )
            )
            return None
        node, path = node[key], (*path, key)
    if not isinstance(node, list):
        not_list = Phrase(N_("{key} is not a list"), key=repr(source_spec.list))
        problems.append(loaded.source.problem((*where, "list"), not_list))
        return None
    return [(item, (*path, k)) for k, item in enumerate(node) if isinstance(item, dict)]


def _matches(item: dict[str, Any], match: dict[str, str]) -> bool:
    return all(str(item.get(key)) == str(value) for key, value in match.items())


def _cells_of(
    raw: list[Any], data: Source, problems: list[Problem], path: tuple[str | int, ...] = ()
) -> Cells:
    """Axial (q, r) of each cell: `at: [q, r]`, `[q, r]`, or `q:`/`r:` keys."""
    cells: list[tuple[int, int]] = []
    if not isinstance(raw, list):
        problems.append(
            data.problem(
                path, Phrase(N_("cells {value} are not a list (expected [[q, r], ...])"), value=repr(raw))
            )
        )
        return tuple(cells)
    for k, cell in enumerate(raw):
        at = cell.get("at") if isinstance(cell, dict) else cell
        if isinstance(cell, dict) and at is None and "q" in cell:
            at = [cell.get("q"), cell.get("r")]
        cell_at = limits.axial(at)
        if cell_at is None:
            problems.append(
                data.problem(
                    (*path, k),
                    Phrase(
                        N_("cell {value} is not [q, r] (expected two whole numbers, ±{most})"),
                        value=repr(at),
                        most=limits.CELL_COORD,
                    ),
                )
            )
            continue
        cells.append(cell_at)
    if len(cells) > limits.POLYHEX_CELLS:
        problems.append(
            data.problem(
                (*path, limits.POLYHEX_CELLS),
                Phrase(
                    N_(
                        "{count} cells in one tile (expected at most {most}; see Work bounds in docs/spec.md)"
                    ),
                    count=len(cells),
                    most=limits.POLYHEX_CELLS,
                ),
            )
        )
        return ()
    parts = components(cells, hex_adjacency(cells))
    if len(parts) > 1:  # found here in a moment, rather than after every tile's outline is drawn
        stray = min(parts[1])
        problems.append(
            data.problem(
                (*path, cells.index(stray)),
                Phrase(
                    N_(
                        "cell {cell} is not next to the tile's other cells (expected connected "
                        "cells: they form {count} pieces)"
                    ),
                    cell=str(list(stray)),
                    count=len(parts),
                ),
            )
        )
        return ()
    return tuple(cells)
