"""Loading a spec folder: game.yaml validated into a `Spec`, plus every component's data rows.

Every problem found (schema errors, missing or unsafe CSV files, bad row counts) is collected and
raised together as one InputError, each located at FILE:LINE:COL. Nothing here draws or writes.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from pathlib import Path
from typing import Any

from pnpforge import catalog, limits
from pnpforge.catalog import SPEC_NAME
from pnpforge.components.expressions import NONE
from pnpforge.components.model import MAX_PIECES, Component, Lookup, RowSource, Spec
from pnpforge.components.rows import DataRow, RowRef
from pnpforge.components.selection import expression_problems, select_rows
from pnpforge.components.spreadsheet import NoSheet, is_spreadsheet, read_sheet
from pnpforge.components.styles import apply_styles
from pnpforge.errors import InputError, Problem
from pnpforge.i18n import N_, languages
from pnpforge.phrase import Phrase
from pnpforge.saying import reason
from pnpforge.sourcefile import (
    FileRefError,
    Source,
    hidden_by_comment,
    named_file,
    read_csv,
    read_yaml,
    validate,
)

UNIQUE_NAMES = "component names must be unique"  # the model's own message, said at the line instead
_WHOLE = re.compile(r"^\s*[+-]?\d+\s*$")


@dataclass
class LoadedSpec:
    """A validated spec and its rows; `folder` is the spec folder as the user named it."""

    spec: Spec
    folder: Path
    file: str
    source: Source
    rows: dict[str, list[DataRow]] = field(default_factory=dict)
    bundled: bool = False
    allow_outside: bool = False  # --allow-outside-files: files the spec names may lie anywhere
    problems: list[Problem] = field(default_factory=list)  # row problems; expand() reports them with its own

    @property
    def id(self) -> str:
        return self.spec.game.id

    def component(self, name: str) -> Component:
        for component in self.spec.components:
            if component.name == name:
                return component
        raise KeyError(name)

    def piece_total(self, component: Component) -> int:
        return sum(row.count for row in self.rows[component.name]) * component.copies


def spec_path(target: str | Path) -> Path:
    """game.yaml for a folder, or the file itself."""
    path = Path(target)
    return path / SPEC_NAME if path.is_dir() else path


def load_target(target: str | Path, allow_outside: bool = False) -> LoadedSpec:
    """A bundled (or --games-dir) game id, a spec folder, or a game.yaml path, loaded and checked."""
    path = Path(target)
    if path.exists():
        return load_spec(path, allow_outside)
    text = str(target)
    if "/" not in text and "\\" not in text and not text.endswith((".yaml", ".yml")):
        game = catalog.find_game(text)
        loaded = load_spec(game.spec_file, allow_outside)
        loaded.bundled = game.bundled
        return loaded
    raise InputError.single(
        text, Phrase.word(N_("no such spec folder or file (expected a game id, a folder or a game.yaml)"))
    )


def load_spec(target: str | Path, allow_outside: bool = False) -> LoadedSpec:
    """Read and check a spec; raises InputError listing every problem found in game.yaml.

    Problems in data rows (a bad `count`) are kept in `problems` instead, so that expansion can add
    the problems of the rows' faces and report everything at once.
    """
    file_path = spec_path(target)
    folder = file_path.parent
    source = read_yaml(file_path)
    if not isinstance(source.data, dict):
        not_mapping = Phrase.word(N_("a spec must be a mapping (expected keys game, components)"))
        raise InputError([source.problem((), not_mapping)])
    hidden = hidden_by_comment(source)  # on the text as written, before styles copy keys in
    source, problems = apply_styles(source)  # styled elements are checked as if their keys were written out
    problems = hidden + problems
    if problems:
        raise InputError(problems)
    try:
        spec = validate(Spec, source)
    except InputError as error:
        named = _duplicate_names(source)
        problems.extend(named)
        problems.extend(
            _clearer(p, source) for p in error.problems if not (named and UNIQUE_NAMES in p.message)
        )
        problems.extend(_raw_csv_problems(source, folder, allow_outside))
        problems.extend(expression_problems(source))
        raise InputError(problems) from None
    bad_expressions = expression_problems(source)
    if bad_expressions:  # rows are not read: each would only repeat the expression's problem
        raise InputError(bad_expressions)
    if spec.defaults.lang not in languages():  # a language of the spec's texts pnpforge cannot speak
        unspoken = Phrase(
            N_("pnpforge has no catalog for language {lang} (expected one of: {known})"),
            lang=repr(spec.defaults.lang),
            known=list(languages()),
        )
        raise InputError([source.problem(("defaults", "lang"), unspoken)])
    loaded = LoadedSpec(spec, folder, str(file_path), source, allow_outside=allow_outside)
    problems.extend(_icon_problems(spec, source, folder, allow_outside))
    too_many: list[Problem] = []  # work bounds (docs/spec.md): refused before any piece is made
    for index, component in enumerate(spec.components):
        rows, found = _component_rows(component, index, source, folder, allow_outside, spec.defaults.lang)
        problems.extend(found)
        loaded.rows[component.name] = rows
        if not found and loaded.piece_total(component) > MAX_PIECES:
            too_many.append(
                source.problem(
                    ("components", index, "count"),
                    Phrase(
                        N_("component {name} would make {count} pieces (expected at most {most})"),
                        name=repr(component.name),
                        count=loaded.piece_total(component),
                        most=MAX_PIECES,
                    ),
                )
            )
    too_many = too_many or _total_problems(loaded)
    if too_many:  # refused now: the other problems wait for no piece to be made
        raise InputError(problems + too_many)
    loaded.problems = problems
    return loaded


ICON_TYPES = (".svg", ".png", ".jpg", ".jpeg")


def _icon_problems(spec: Spec, source: Source, folder: Path, allow_outside: bool) -> list[Problem]:
    """The spec's own icons (`icons: {gem: art/gem.svg}`): each file present, inside the folder and a
    picture, said at its line when the spec is read, not when a text first draws it."""
    problems: list[Problem] = []
    for name, file in spec.icons.items():
        if Path(file).suffix.lower() not in ICON_TYPES:
            said = Phrase(
                N_("icon {name}: {file} is not an SVG, PNG or JPEG file (expected e.g. art/gem.svg)"),
                name=repr(name),
                file=repr(file),
            )
            problems.append(source.problem(("icons", name), said))
            continue
        try:
            named_file(folder, file, "icon", allow_outside=allow_outside)
        except FileRefError as exc:
            problems.append(source.problem(("icons", name), reason(exc)))
    return problems


TOO_MANY_PIECES = N_(
    "component {name} brings the spec to {count} pieces "
    "(expected at most {most} in all; see Work bounds in docs/spec.md)"
)
TOO_MANY_TILES = N_(
    "component {name} brings the spec to {count} polyhex tiles "
    "(expected at most {most} in all; see Work bounds in docs/spec.md)"
)


def _total_problems(loaded: LoadedSpec) -> list[Problem]:
    """The spec's pieces all together within `limits.PIECES_TOTAL`, and its polyhex tiles (nested one by
    one) within `limits.NESTED_PIECES`, said at the component that passes the bound."""
    total = nested = 0
    for index, component in enumerate(loaded.spec.components):
        count = loaded.piece_total(component)
        total += count
        nested += count if component.shape == "polyhex" else 0
        for value, bound, template in (
            (total, limits.PIECES_TOTAL, TOO_MANY_PIECES),
            (nested, limits.NESTED_PIECES, TOO_MANY_TILES),
        ):
            if value > bound:
                message = Phrase(template, name=repr(component.name), count=value, most=bound)
                return [loaded.source.problem(("components", index, "count"), message)]
    return []


def _duplicate_names(source: Source) -> list[Problem]:
    """A component name used twice, at the second one's `name:` (naming the first one's line)."""
    components = source.data.get("components") if isinstance(source.data, dict) else None
    problems: list[Problem] = []
    first: dict[str, int] = {}
    for index, raw in enumerate(components if isinstance(components, list) else []):
        name = raw.get("name") if isinstance(raw, dict) else None
        if not isinstance(name, str):
            continue
        if name in first:
            line = source.where(("components", first[name], "name"))[0]
            problems.append(
                source.problem(
                    ("components", index, "name"),
                    Phrase(
                        N_(
                            "component name {name} is used twice (first at line {line}; expected "
                            "each name once)"
                        ),
                        name=repr(name),
                        line=line,
                    ),
                )
            )
        else:
            first[name] = index
    return problems


_EXPECTED = (  # pydantic's wording -> what the spec expects
    ("unable to parse string as an integer", Phrase.word(N_("expected a whole number"))),
    ("valid integer", Phrase.word(N_("expected a whole number"))),
    ("greater than or equal to 1", Phrase.word(N_("expected a positive whole number"))),
    (
        f"less than or equal to {MAX_PIECES}",
        Phrase(N_("expected at most {most}; see MAX_PIECES in docs/spec.md"), most=MAX_PIECES),
    ),
    ("valid string", Phrase.word(N_("expected text"))),
    ("valid list", Phrase.word(N_("expected a list"))),
    ("valid dictionary", Phrase.word(N_("expected a mapping of keys to values"))),
    ("valid number", Phrase.word(N_("expected a number"))),
    ("valid boolean", Phrase.word(N_("expected true or false"))),
)


def _clearer(problem: Problem, source: Source) -> Problem:
    """Say what was expected where pydantic does not, and put size errors on the `size` key."""
    message = problem.message
    if "expected" not in message:
        for wording, expected in _EXPECTED:
            if wording in message:
                message = Phrase(N_("{message} ({expected})"), message=message, expected=expected)
                break
    line, col = problem.line, problem.col
    components = source.data.get("components") if isinstance(source.data, dict) else None
    if "size" in message and isinstance(components, list):
        for index in range(len(components)):
            raw = components[index]
            if source.where(("components", index)) == (line, col) and isinstance(raw, dict) and "size" in raw:
                line, col = source.where(("components", index, "size"))
    return Problem(problem.file, line, col, message)


def _raw_csv_problems(source: Source, folder: Path, allow_outside: bool) -> list[Problem]:
    """CSV files named by a spec that failed validation are still checked, so all problems show at once."""
    problems: list[Problem] = []
    components = source.data.get("components") if isinstance(source.data, dict) else None
    if not isinstance(components, list):
        return problems
    for index, raw in enumerate(components):
        name = raw.get("csv") if isinstance(raw, dict) else None
        if isinstance(name, str):
            problems.extend(
                _csv_file_problems(name, ("components", index, "csv"), source, folder, allow_outside)
            )
    return problems


def _csv_file_problems(
    name: str, where: tuple[str | int, ...], source: Source, folder: Path, allow_outside: bool
) -> list[Problem]:
    try:
        named_file(
            folder, name, "spreadsheet" if is_spreadsheet(name) else "CSV file", allow_outside=allow_outside
        )
    except FileRefError as exc:
        return [source.problem(where, reason(exc))]
    return []


def _component_rows(
    component: Component, index: int, source: Source, folder: Path, allow_outside: bool, lang: str
) -> tuple[list[DataRow], list[Problem]]:
    rows, problems = _own_rows(component, index, source, folder, allow_outside)
    if rows and not problems:
        names = sorted({key for row in rows for key in row.values})  # lookups match the rows' own fields
        for number, lookup in enumerate(component.lookup):
            where = ("components", index, "lookup", number)
            problems += _apply_lookup(component, lookup, where, rows, names, source, folder, allow_outside)
    if rows and not problems and (component.where is not None or isinstance(component.count, str)):
        total = len(rows)
        rows, problems = select_rows(component, rows, lang)
        if not rows and not problems:  # an empty component would print nothing without a word
            key = "where" if component.where is not None else "count"
            problems.append(
                source.problem(
                    ("components", index, key),
                    Phrase(
                        N_("{key}: leaves out all {count} rows (expected at least one kept)"),
                        key=key,
                        count=total,
                    ),
                )
            )
    return rows, problems


def _own_rows(
    component: Component, index: int, source: Source, folder: Path, allow_outside: bool
) -> tuple[list[DataRow], list[Problem]]:
    base = ("components", index)
    if component.rows_from is not None:
        return _yaml_rows(component.rows_from, (*base, "rows_from"), source, folder, allow_outside)
    if component.csv is not None:
        found = _csv_file_problems(component.csv, (*base, "csv"), source, folder, allow_outside)
        if found:
            return [], found
        if is_spreadsheet(component.csv):
            try:
                return _sheet_rows(component, folder / component.csv)
            except NoSheet as error:  # said at `sheet:` in game.yaml, where it is written
                return [], [source.problem((*base, "sheet"), p.message) for p in error.problems]
        try:
            table = read_csv(folder / component.csv, shown_as=str(folder / component.csv))
        except InputError as error:
            return [], error.problems
        rows, problems = [], []
        text: list[str] = []  # the file's lines, read once for all the bad counts' columns
        for values, line in zip(table.rows, table.lines, strict=True):
            ref = RowRef(table.file, line)
            count, problem = _row_count(values)
            if problem:
                text = text or _lines(folder / component.csv)
                problems.append(
                    Problem(table.file, line, _csv_col(text, line, "count", table.delimiter), problem)
                )
            rows.append(DataRow(values, count, ref))
        if not table.rows:
            problems.append(
                Problem(
                    table.file,
                    1,
                    1,
                    Phrase.word(N_("no data rows (expected a header line and at least one row)")),
                )
            )
        csv_path = folder / component.csv
        problems += _repeated_keys(
            component,
            rows,
            lambda row, name: (
                row.ref.file,
                row.ref.line,
                _csv_col(_lines(csv_path), row.ref.line, name, table.delimiter),
            ),
        )
        return rows, problems
    if component.rows is not None:
        rows, problems = [], []
        for number, values in enumerate(component.rows):
            count, problem = _row_count(values)
            if problem:
                problems.append(source.problem((*base, "rows", number, "count"), problem))
            rows.append(
                DataRow(_flatten_languages(values), count, RowRef.at(source, (*base, "rows", number)))
            )
        problems += _repeated_keys(component, rows)
        return rows, problems
    return [DataRow({}, 1, RowRef.at(source, base))], []


def _sheet_rows(component: Component, path: Path) -> tuple[list[DataRow], list[Problem]]:
    """One row per non-empty row of a spreadsheet's sheet, located as `cards.xlsx[Cards]!A7`; a row
    whose `id` (or `key:`) repeats another's is refused as a CSV's is, at its cell."""
    try:
        table = read_sheet(path, str(path), component.sheet)
    except NoSheet:
        raise
    except InputError as error:
        return [], error.problems
    rows, problems = [], []
    for values, number in zip(table.rows, table.numbers, strict=True):
        count, problem = _row_count(values)
        if problem:
            problems.append(Problem(table.cell(number, "count"), 0, 0, problem))
        rows.append(DataRow(values, count, RowRef(table.cell(number), 0)))
    if not table.rows:
        problems.append(
            Problem(
                table.cell(1),
                0,
                0,
                Phrase.word(N_("no data rows (expected a header row and at least one row)")),
            )
        )
    numbers = {id(row): number for row, number in zip(rows, table.numbers, strict=True)}
    problems += _repeated_keys(
        component, rows, lambda row, field: (table.cell(numbers[id(row)], field), 0, 0)
    )
    return rows, problems


def row_key(component: Component, rows: list[DataRow]) -> list[str]:
    """The fields that name each row once: the component's `key:`, else `id` when the rows have it."""
    if component.key is not None:
        return [component.key] if isinstance(component.key, str) else list(component.key)
    return ["id"] if rows and all("id" in row.values for row in rows) else []


def _repeated_keys(
    component: Component,
    rows: list[DataRow],
    at: Callable[[DataRow, str], tuple[str, int, int]] | None = None,
) -> list[Problem]:
    """A row whose key repeats an earlier row's, at the second row's key (naming the first): `at` says
    where a row's field is written (file, line, column), else the row's line."""
    fields = row_key(component, rows)
    if not fields:
        return []
    problems: list[Problem] = []
    missing = [f for f in fields if not any(f in row.values for row in rows)]
    if missing:
        fields_found = sorted({k for row in rows for k in row.values})
        said = Phrase(
            N_("key field {field} is in no row (fields: {known})"), field=repr(missing[0]), known=fields_found
        )
        return [Problem(rows[0].ref.file, 1, 1, said)]
    first: dict[tuple[str, ...], DataRow] = {}
    for row in rows:
        value = tuple(str(row.values.get(f, "")) for f in fields)
        if not any(value):
            continue
        if value in first:
            earlier = first[value]
            shown = ", ".join(f"{f}={v}" for f, v in zip(fields, value, strict=True))
            file, line, col = at(row, fields[0]) if at is not None else (row.ref.file, row.ref.line, 1)
            there, there_line, _ = at(earlier, fields[0]) if at is not None else (earlier.ref.file, 0, 0)
            there_line = there_line or earlier.ref.line
            said = Phrase(
                N_("{values} repeats the row at {where} (expected each {key} once)"),
                values=shown,
                where=Path(there).name + (f":{there_line}" if there_line else ""),
                key="+".join(fields),
            )
            problems.append(Problem(file, line, col, said))
        else:
            first[value] = row
    return problems


def _data_file(
    name: str, where: tuple[str | int, ...], source: Source, folder: Path, allow_outside: bool
) -> tuple[Source | None, list[Problem]]:
    """A YAML data file the spec names (rows_from, lookup): inside the folder, present and readable."""
    try:
        named_file(folder, name, "data file", allow_outside=allow_outside)
    except FileRefError as exc:
        return None, [source.problem(where, reason(exc))]
    try:
        return read_yaml(folder / name), []
    except InputError as error:
        return None, error.problems


def _dig(data: Source, dotted: str) -> tuple[Any, tuple[str | int, ...]] | None:
    node: Any = data.data
    path: tuple[str | int, ...] = ()
    for key in dotted.split("."):
        if not isinstance(node, dict) or key not in node:
            return None
        node, path = node[key], (*path, key)
    return node, path


def _yaml_rows(
    spec: RowSource, where: tuple[str | int, ...], source: Source, folder: Path, allow_outside: bool
) -> tuple[list[DataRow], list[Problem]]:
    """One row per item of a list in a YAML data file; nested lists and maps become flat fields."""
    data, problems = _data_file(spec.data, (*where, "data"), source, folder, allow_outside)
    if data is None:
        return [], problems
    found = _dig(data, spec.list)
    if found is None:
        return [], [
            source.problem(
                (*where, "list"),
                Phrase(
                    N_("no key {key} in {file} (expected a list of items)"),
                    key=repr(spec.list),
                    file=spec.data,
                ),
            )
        ]
    items, path = found
    if not isinstance(items, list):
        not_list = Phrase(N_("{key} is not a list (expected one item per row)"), key=repr(spec.list))
        return [], [data.problem(path, not_list)]
    rows: list[DataRow] = []
    for number, item in enumerate(items):
        if not isinstance(item, dict):
            problems.append(
                data.problem(
                    (*path, number),
                    Phrase.word(N_("an item is not a mapping (expected `key: value` fields)")),
                )
            )
            continue
        if any(str(item.get(key)) != str(value) for key, value in spec.match.items()):
            continue
        count, problem = _row_count(item)
        if problem:
            problems.append(data.problem((*path, number, "count"), problem))
        rows.append(DataRow(flatten(item), count, RowRef.at(data, (*path, number))))
    if not rows and not problems:
        shown = ", ".join(f"{k}={v}" for k, v in spec.match.items()) or Phrase.word(N_("any item"))
        said = Phrase(
            N_("no item of {key} in {file} matches {match} (expected at least one)"),
            key=repr(spec.list),
            file=spec.data,
            match=shown,
        )
        problems.append(source.problem(where, said))
    return rows, problems


def flatten(values: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """Nested maps and lists as flat fields: `{n: [1, 2]}` -> n_0, n_1; `{t: {en, ja}}` -> t_en, t_ja."""
    out: dict[str, Any] = {}
    for key, value in values.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict):
            out.update(flatten(value, f"{name}_"))
        elif isinstance(value, list):
            out.update(flatten({str(k): v for k, v in enumerate(value)}, f"{name}_"))
        else:
            out[name] = value
    return out


def _apply_lookup(
    component: Component,
    lookup: Lookup,
    where: tuple[str | int, ...],
    rows: list[DataRow],
    names: list[str],
    source: Source,
    folder: Path,
    allow_outside: bool,
) -> list[Problem]:
    """Add each looked-up entry's fields to the rows (`<field>_<key>`); a row's own fields win."""
    table, problems = _lookup_table(lookup, where, source, folder, allow_outside)
    if table is None:
        return problems
    fields = [n for n in names if any(fnmatchcase(n, pattern) for pattern in lookup.fields)]
    if not fields:
        said = Phrase(
            N_("{fields} names no field of the rows (fields: {known})"),
            fields=", ".join(lookup.fields),
            known=names or Phrase.word(NONE),
        )
        return [source.problem((*where, "fields"), said)]
    for row in rows:
        for name in fields:
            value = row.values.get(name)
            if value is None or value == "":
                continue
            entry = table.get(str(value))
            if entry is None:
                said = Phrase(
                    N_("{component}: {field} {value} is not in the lookup table (expected one of: {known})"),
                    component=component.name,
                    field=name,
                    value=repr(value),
                    known=sorted(table),
                )
                problems.append(Problem(row.ref.file, row.ref.line, 1, said))
                continue
            for key, extra in entry.items():
                row.values.setdefault(f"{name}_{key}", extra)
    return problems


def _lookup_table(
    lookup: Lookup, where: tuple[str | int, ...], source: Source, folder: Path, allow_outside: bool
) -> tuple[dict[str, dict[str, Any]] | None, list[Problem]]:
    """value -> flat fields, from the spec itself or from a mapping in a data file."""
    if lookup.table is not None:
        raw, owner, path = lookup.table, source, (*where, "table")
    else:
        assert lookup.data is not None and lookup.map is not None
        data, problems = _data_file(lookup.data, (*where, "data"), source, folder, allow_outside)
        if data is None:
            return None, problems
        found = _dig(data, lookup.map)
        if found is None:
            return None, [
                source.problem(
                    (*where, "map"),
                    Phrase(
                        N_("no key {key} in {file} (expected a table)"),
                        key=repr(lookup.map),
                        file=lookup.data,
                    ),
                )
            ]
        raw, path = found
        owner = data
        if not isinstance(raw, dict):
            return None, [
                data.problem(
                    path,
                    Phrase(
                        N_("{key} is not a mapping (expected value: {{field: ...}})"), key=repr(lookup.map)
                    ),
                )
            ]
    table: dict[str, dict[str, Any]] = {}
    problems = []
    for value, entry in raw.items():
        if not isinstance(entry, dict):
            problems.append(
                owner.problem(
                    (*path, value),
                    Phrase(N_("entry {value} is not a mapping (expected its fields)"), value=repr(value)),
                )
            )
            continue
        table[str(value)] = flatten(entry)
    return (None if problems else table), problems


def _flatten_languages(values: dict[str, Any]) -> dict[str, Any]:
    """An inline `{en: ..., ja: ...}` value becomes `name_en`/`name_ja` fields, as a CSV would write them."""
    out: dict[str, Any] = {}
    for key, value in values.items():
        if isinstance(value, dict) and value and set(value) <= {"en", "ja"}:
            out.update({f"{key}_{lang}": text for lang, text in value.items()})
        else:
            out[key] = value
    return out


def _row_count(values: Mapping[str, Any]) -> tuple[int, str | None]:
    """A row's own `count`: absent (no such column or key) means 1; otherwise a positive whole number.
    An empty count cell is refused: it is a copy count left out, not a 1 (a designer who means one
    copy writes 1)."""
    if "count" not in values:
        return 1, None
    value = values["count"]
    if value is None or (isinstance(value, str) and not value.strip()):
        return 1, Phrase.word(EMPTY_COUNT)
    if isinstance(value, bool) or not (
        isinstance(value, int) or (isinstance(value, str) and _WHOLE.match(value))
    ):
        return 1, Phrase(
            N_("count {value} is not a whole number (expected a positive whole number)"), value=repr(value)
        )
    if isinstance(value, str) and len(value.strip().lstrip("+-").lstrip("0")) > len(str(MAX_PIECES)):
        return 1, Phrase(
            N_("count {value}… is too large (expected at most {most})"),
            value=value.strip()[:20],
            most=MAX_PIECES,
        )
    number = int(value)
    if number < 1:
        return 1, Phrase(N_("count {value} is not positive (expected a positive whole number)"), value=number)
    if number > MAX_PIECES:
        return 1, Phrase(
            N_("count {value} is too large (expected at most {most})"), value=number, most=MAX_PIECES
        )
    return number, None


EMPTY_COUNT = N_("count is empty (expected a positive whole number: write 1 for one copy)")


def _lines(path: Path) -> list[str]:
    try:
        return path.read_text(encoding="utf-8-sig").splitlines()
    except (OSError, ValueError):
        return []


def _csv_col(lines: list[str], line: int, column: str, delimiter: str = ",") -> int:
    """Character column of a named cell on a CSV line (for simple unquoted lines; else 1)."""
    try:
        header = [h.strip() for h in lines[0].split(delimiter)]
        cells = lines[line - 1].split(delimiter)
        position = header.index(column)
    except (OSError, ValueError, IndexError):
        return 1
    if '"' in lines[line - 1] or position >= len(cells):
        return 1
    return sum(len(cell) + 1 for cell in cells[:position]) + 1
