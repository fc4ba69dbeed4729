"""Data rows from a spreadsheet: `csv: cards.xlsx` or `cards.ods`, with `sheet: NAME` (default the first).

The sheet's table starts at A1 with its header row; each following row is one data row. Formulas give the
value the spreadsheet last computed (saved in the file; pnpforge never computes a formula), numbers stay
numbers (a whole number as an int, so `{cost}` prints 3 and not 3.0), dates become ISO text, and empty rows
are skipped (a sheet often has blank rows below its table). Problems are located the way a spreadsheet
user reads them: `cards.xlsx[Cards]!B7`.

What would print wrong without a word is refused, each at its cell: a merged range (it keeps its value in
its first cell only, blanking the others) and, in an .xlsx, a formula with no saved value (as a script or
a headless office writes one: there is nothing to print, and pnpforge does not compute formulas).

Both formats are read by python-calamine (a maintained binding of the Rust calamine reader: values and
merged ranges, without pandas; several times faster than openpyxl on a deck, see bench/bench_sheets.py).
Formulas without a saved value are found in the sheet's own XML (calamine shows them as empty cells),
read only when the sheet has a formula at all. Both files are zip archives: their unpacked size is
bounded before either is opened, so a small file cannot unpack into gigabytes.
"""

from __future__ import annotations

import datetime as dt
import io
import posixpath
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pnpforge import limits
from pnpforge.errors import InputError, Problem
from pnpforge.i18n import N_
from pnpforge.phrase import Phrase
from pnpforge.sourcefile import read_bytes
from pnpforge.suggest import did_you_mean

SPREADSHEET_TYPES = (".xlsx", ".ods")


def is_spreadsheet(name: str) -> bool:
    return Path(name).suffix.lower() in SPREADSHEET_TYPES


def column_letters(index: int) -> str:
    """0 -> A, 25 -> Z, 26 -> AA."""
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters


def cell_name(file: str, sheet: str, row: int, column: int = 0) -> str:
    """`cards.xlsx[Cards]!B7` for row 7 (1-based) and column 1 (0-based)."""
    return f"{file}[{sheet}]!{column_letters(column)}{row}"


@dataclass
class SheetTable:
    """A sheet's data rows as dicts, with where each row is (`cards.xlsx[Cards]!A7`) and its columns."""

    file: str
    sheet: str
    header: list[str]
    rows: list[dict[str, Any]]
    numbers: list[int]  # the sheet's row number of each data row

    def cell(self, row_number: int, column: str | None = None) -> str:
        index = self.header.index(column) if column in self.header else 0
        return cell_name(self.file, self.sheet, row_number, index)


UNREADABLE = N_("cannot read the spreadsheet ({reason})")
MERGED = N_(
    "merged cells: only the first keeps its value, the others read as empty "
    "(expected each cell on its own: unmerge them and write the value in each)"
)
UNSAVED = N_(
    "a formula with no saved value (expected a value: open and save it in a spreadsheet, or write the value)"
)


def _problem(where: str, message: str) -> InputError:
    return InputError([Problem(where, 0, 0, message)])


def _check_zip(data: bytes, file: str) -> None:
    import zipfile  # imported here: a build from CSV never opens a zip (start-up speed)

    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            unpacked = sum(info.file_size for info in archive.infolist())
    except zipfile.BadZipFile:
        raise _problem(
            file, Phrase.word(N_("not a spreadsheet file (expected an .xlsx or .ods saved by a spreadsheet)"))
        ) from None
    if unpacked > limits.XLSX_UNPACKED:
        raise _problem(
            file,
            Phrase(
                N_("unpacks to more than {size} MB (expected a smaller sheet)"),
                size=limits.XLSX_UNPACKED // 2**20,
            ),
        )


def _value(value: Any) -> Any:
    """A cell as a data value: text stripped of nothing, whole floats as ints, dates as ISO text."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e18:
        return int(value)
    if isinstance(value, dt.datetime) and value.time() == dt.time(0):
        return value.date().isoformat()
    if isinstance(value, dt.date | dt.datetime | dt.time):
        return value.isoformat()
    if isinstance(value, dt.timedelta):
        return str(value)
    return value


def _calamine(data: bytes, file: str, sheet: str | None) -> tuple[str, list[list[Any]], list[str]]:
    """The sheet's name, its cells (from A1) and its merged ranges (`B3:C3`)."""
    from python_calamine import CalamineWorkbook

    try:
        book = CalamineWorkbook.from_filelike(io.BytesIO(data))
        name = _sheet_name(file, list(book.sheet_names), sheet)
        found = book.get_sheet_by_name(name)
        rows = [list(row) for row in found.to_python(skip_empty_area=False)]
        merged = [
            f"{column_letters(c0)}{r0 + 1}:{column_letters(c1)}{r1 + 1}"
            for (r0, c0), (r1, c1) in (found.merged_cell_ranges or [])
        ]
    except InputError:
        raise
    except Exception as exc:  # calamine's errors for a broken file
        raise _problem(file, Phrase(UNREADABLE, reason=exc)) from None
    return name, rows, merged


_MAIN = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
_RELATION = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}id"
_HAS_FORMULA = re.compile(rb"<(?:\w+:)?f[\s/>]")


def _unsaved_formulas(data: bytes, sheet: str) -> list[str]:
    """The cells (`C7`) of an .xlsx sheet holding a formula with no saved value."""
    import zipfile  # imported here, as ElementTree: a build from CSV never loads them (start-up speed)
    from xml.etree import ElementTree

    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            book = ElementTree.fromstring(archive.read("xl/workbook.xml"))
            relation = next(
                (s.get(_RELATION) for s in book.iter(f"{_MAIN}sheet") if s.get("name") == sheet), None
            )
            links = ElementTree.fromstring(archive.read("xl/_rels/workbook.xml.rels"))
            target = next((r.get("Target", "") for r in links if r.get("Id") == relation), "")
            path = target.lstrip("/") if target.startswith("/") else posixpath.normpath(f"xl/{target}")
            raw = archive.read(path)
    except (KeyError, ElementTree.ParseError, zipfile.BadZipFile):
        return []  # calamine read the sheet; a part laid out otherwise is not second-guessed
    if not _HAS_FORMULA.search(raw):
        return []
    unsaved: list[str] = []
    for _, cell in ElementTree.iterparse(io.BytesIO(raw)):
        if cell.tag != f"{_MAIN}c":
            continue
        value = cell.find(f"{_MAIN}v")
        if cell.find(f"{_MAIN}f") is not None and (value is None or not value.text):
            unsaved.append(cell.get("r", "?"))
        cell.clear()
    return unsaved


class NoSheet(InputError):
    """`sheet:` names no sheet of the workbook: said at the spec's `sheet:` line by whoever knows it."""


def _sheet_name(file: str, names: list[str], sheet: str | None) -> str:
    if not names:
        raise _problem(file, Phrase.word(N_("the spreadsheet has no sheets")))
    if sheet is None:
        return names[0]
    if sheet not in names:
        said = Phrase(
            N_("no sheet {sheet} in {file} ({hint}expected one of: {known})"),
            sheet=repr(sheet),
            file=Path(file).name,
            hint=did_you_mean(sheet, names),
            known=names,
        )
        raise NoSheet([Problem(file, 0, 0, said)])
    return sheet


def read_sheet(path: Path, shown_as: str, sheet: str | None) -> SheetTable:
    """The table of one sheet (header in row 1); raises InputError located at the sheet's cells."""
    data = read_bytes(path, shown_as)
    _check_zip(data, shown_as)
    name, grid, merged = _calamine(data, shown_as, sheet)
    unsaved = _unsaved_formulas(data, name) if path.suffix.lower() == ".xlsx" else []
    if sum(len(row) for row in grid) > limits.XLSX_CELLS:
        too_many = Phrase(N_("more than {count} cells (expected a smaller table)"), count=limits.XLSX_CELLS)
        raise _problem(f"{shown_as}[{name}]", too_many)
    if not grid or not any(v not in (None, "") for v in grid[0]):
        raise _problem(
            cell_name(shown_as, name, 1), Phrase.word(N_("no header row (expected column names in row 1)"))
        )
    problems: list[Problem] = [
        Problem(f"{shown_as}[{name}]!{cells}", 0, 0, Phrase.word(MERGED)) for cells in merged
    ]
    problems += [Problem(f"{shown_as}[{name}]!{cell}", 0, 0, Phrase.word(UNSAVED)) for cell in unsaved]
    header_cells = [_value(v) for v in grid[0]]
    header = [str(v).strip() for v in header_cells]
    while header and not header[-1]:
        header.pop()
    seen: dict[str, int] = {}
    for index, title in enumerate(header):
        where = cell_name(shown_as, name, 1, index)
        if not title:
            problems.append(
                Problem(where, 0, 0, Phrase.word(N_("a column without a name (expected a header in row 1)")))
            )
        elif title in seen:
            first = column_letters(seen[title])
            problems.append(
                Problem(
                    where,
                    0,
                    0,
                    Phrase(
                        N_("column {title} repeats column {first} (expected unique names)"),
                        title=repr(title),
                        first=first,
                    ),
                )
            )
        seen.setdefault(title, index)
    rows: list[dict[str, Any]] = []
    numbers: list[int] = []
    for number, cells in enumerate(grid[1:], start=2):
        values = [_value(v) for v in cells]
        if all(v == "" for v in values):
            continue  # blank rows, above all the trailing ones a sheet keeps below its table
        for index in range(len(header), len(values)):
            if values[index] != "":
                problems.append(
                    Problem(
                        cell_name(shown_as, name, number, index),
                        0,
                        0,
                        Phrase.word(N_("a value in a column without a name (expected a header in row 1)")),
                    )
                )
                break
        values += [""] * (len(header) - len(values))
        rows.append(dict(zip(header, values[: len(header)], strict=True)))
        numbers.append(number)
    if problems:
        raise InputError(problems)
    return SheetTable(shown_as, name, header, rows, numbers)
