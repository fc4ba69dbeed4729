"""Data rows from a spreadsheet: `csv: cards.xlsx` or `cards.ods`, with `sheet: NAME` (default the first).

The sheet's table starts at A1 with its header row; each following row is one data row. Formulas give the
value the spreadsheet last computed (saved in the file; pnpforge never computes a formula), numbers stay
numbers (a whole number as an int, so `{cost}` prints 3 and not 3.0), dates become ISO text, and empty rows
are skipped (a sheet often has blank rows below its table). Problems are located the way a spreadsheet
user reads them: `cards.xlsx[Cards]!B7`.

xlsx is read by openpyxl (the reference reader of the format, pure Python); ods by python-calamine (a
maintained binding of the Rust calamine reader: the one well-kept ods reader that needs neither pandas nor
odfpy's slow DOM). Both files are zip archives: their unpacked size is bounded before either reader opens
them, so a small file cannot unpack into gigabytes.
"""

from __future__ import annotations

import datetime as dt
import io
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pnpforge.errors import InputError, Problem
from pnpforge.i18n import N_
from pnpforge.phrase import Phrase
from pnpforge.sourcefile import read_bytes

SPREADSHEET_TYPES = (".xlsx", ".ods")
MAX_UNPACKED_BYTES = 100 * 1024 * 1024  # what the zip may unpack to
MAX_CELLS = 1_000_000  # rows × columns of the table read


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


def _problem(where: str, message: str) -> InputError:
    return InputError([Problem(where, 0, 0, message)])


def _check_zip(data: bytes, file: str) -> None:
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            unpacked = sum(info.file_size for info in archive.infolist())
    except zipfile.BadZipFile:
        raise _problem(
            file, Phrase.word(N_("not a spreadsheet file (expected an .xlsx or .ods saved by a spreadsheet)"))
        ) from None
    if unpacked > MAX_UNPACKED_BYTES:
        raise _problem(
            file,
            Phrase(
                N_("unpacks to more than {size} MB (expected a smaller sheet)"),
                size=MAX_UNPACKED_BYTES // 2**20,
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


def _xlsx(data: bytes, file: str, sheet: str | None) -> tuple[str, list[list[Any]]]:
    import openpyxl

    try:
        book = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except Exception as exc:  # openpyxl raises many kinds for a broken file
        raise _problem(file, Phrase(UNREADABLE, reason=exc)) from None
    try:
        names = book.sheetnames
        name = _sheet_name(file, names, sheet)
        rows = [list(row) for row in book[name].iter_rows(min_row=1, min_col=1, values_only=True)]
    finally:
        book.close()
    return name, rows


def _ods(data: bytes, file: str, sheet: str | None) -> tuple[str, list[list[Any]]]:
    from python_calamine import CalamineWorkbook

    try:
        book = CalamineWorkbook.from_filelike(io.BytesIO(data))
        name = _sheet_name(file, list(book.sheet_names), sheet)
        found = book.get_sheet_by_name(name)
        rows = [list(row) for row in found.to_python(skip_empty_area=False)]
    except InputError:
        raise
    except Exception as exc:  # calamine's errors for a broken file
        raise _problem(file, Phrase(UNREADABLE, reason=exc)) from None
    return name, rows


def _sheet_name(file: str, names: list[str], sheet: str | None) -> str:
    if not names:
        raise _problem(file, Phrase.word(N_("the spreadsheet has no sheets")))
    if sheet is None:
        return names[0]
    if sheet not in names:
        raise _problem(
            file, Phrase(N_("no sheet {sheet} (expected one of: {known})"), sheet=repr(sheet), known=names)
        )
    return sheet


def read_sheet(path: Path, shown_as: str, sheet: str | None) -> SheetTable:
    """The table of one sheet (header in row 1); raises InputError located at the sheet's cells."""
    data = read_bytes(path, shown_as)
    _check_zip(data, shown_as)
    reader = _ods if path.suffix.lower() == ".ods" else _xlsx
    name, grid = reader(data, shown_as, sheet)
    if sum(len(row) for row in grid) > MAX_CELLS:
        too_many = Phrase(N_("more than {count} cells (expected a smaller table)"), count=MAX_CELLS)
        raise _problem(f"{shown_as}[{name}]", too_many)
    if not grid or not any(v not in (None, "") for v in grid[0]):
        raise _problem(
            cell_name(shown_as, name, 1), Phrase.word(N_("no header row (expected column names in row 1)"))
        )
    header_cells = [_value(v) for v in grid[0]]
    header = [str(v).strip() for v in header_cells]
    while header and not header[-1]:
        header.pop()
    problems: list[Problem] = []
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
