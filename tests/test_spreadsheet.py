"""Decks kept in spreadsheets: `csv: cards.xlsx` / `cards.ods` with `sheet:`, built for real: cached formula
values, numbers as numbers, blank trailing rows ignored, problems located as `cards.xlsx[Cards]!B7`."""

from __future__ import annotations

import io
import re
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import SpecMaker
from pypdf import PdfReader

from pnpforge.cli import main

SPEC = """\
game: {id: sheets, title: Sheets}
components:
  - name: deck
    kind: card
    size: poker
    csv: CARDS
    SHEET
    face:
      elements:
        - {type: text, text: "{name} {{ cost * 2 }}", x: 3mm, y: 3mm, w: 57mm, h: 10mm}
"""


def xlsx(rows: list[list[object]], formula_cell: str | None = None, cached: str = "2") -> bytes:
    """An .xlsx with sheets Notes (empty) and Cards; `formula_cell` holds =1+1, `cached` its saved value
    (openpyxl writes formulas without values, so the value a spreadsheet would save is put in by hand)."""
    import openpyxl

    book = openpyxl.Workbook()
    book.active.title = "Notes"
    sheet = book.create_sheet("Cards")
    for row in rows:
        sheet.append(row)
    if formula_cell:
        sheet[formula_cell] = "=1+1"
    buffer = io.BytesIO()
    book.save(buffer)
    if not formula_cell:
        return buffer.getvalue()
    out = io.BytesIO()
    with zipfile.ZipFile(buffer) as source, zipfile.ZipFile(out, "w") as target:
        for info in source.infolist():
            data = source.read(info.filename)
            if info.filename == "xl/worksheets/sheet2.xml":
                data = re.sub(
                    rb"<f>1\+1</f><v\s*/>|<f>1\+1</f><v></v>|<f>1\+1</f>",
                    b"<f>1+1</f><v>" + cached.encode() + b"</v>",
                    data,
                )
            target.writestr(info, data)
    return out.getvalue()


def ods(rows: list[list[object]], sheet: str = "Cards") -> bytes:
    """A minimal OpenDocument spreadsheet (what LibreOffice saves, without its styles)."""
    cells = []
    for row in rows:
        out = []
        for value in row:
            if isinstance(value, tuple):  # (formula, cached value)
                formula, value = value
                attributes = f'table:formula="of:={formula}" office:value-type="float" office:value="{value}"'
            elif isinstance(value, int | float):
                attributes = f'office:value-type="float" office:value="{value}"'
            else:
                attributes = 'office:value-type="string"'
            out.append(f"<table:table-cell {attributes}><text:p>{value}</text:p></table:table-cell>")
        cells.append("<table:table-row>" + "".join(out) + "</table:table-row>")
    content = (
        '<?xml version="1.0" encoding="UTF-8"?><office:document-content '
        'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
        'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
        'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.2">'
        f'<office:body><office:spreadsheet><table:table table:name="{sheet}">'
        + "".join(cells)
        + "</table:table></office:spreadsheet></office:body></office:document-content>"
    )
    manifest = (
        '<?xml version="1.0" encoding="UTF-8"?><manifest:manifest '
        'xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2">'
        '<manifest:file-entry manifest:full-path="/" '
        'manifest:media-type="application/vnd.oasis.opendocument.spreadsheet"/>'
        '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>'
        "</manifest:manifest>"
    )
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr(zipfile.ZipInfo("mimetype"), "application/vnd.oasis.opendocument.spreadsheet")
        archive.writestr("META-INF/manifest.xml", manifest)
        archive.writestr("content.xml", content)
    return buffer.getvalue()


def build(runner: CliRunner, folder: Path, out: Path) -> tuple[int, str, str]:
    result = runner.invoke(main, ["build", str(folder), "-o", str(out)])
    assert "Traceback" not in result.output
    if result.exit_code:
        return result.exit_code, result.output, ""
    pages = PdfReader(out / "sheets.pdf").pages
    return 0, result.output, "\n".join(p.extract_text() for p in pages)


def spec(name: str, sheet: str | None) -> str:
    return SPEC.replace("CARDS", name).replace("SHEET", f"sheet: {sheet}" if sheet else "")


ROWS: list[list[object]] = [
    ["name", "cost", "count"],
    ["Storm", 3, 1],
    ["Knight", 2.5, 1],
    ["Giant", 10, 1],
]


def test_xlsx_with_cached_formula(make_spec: SpecMaker, runner: CliRunner, tmp_path: Path) -> None:
    data = xlsx([*ROWS, [None, None, None], [None, None, None]], formula_cell="C3")
    folder = make_spec(spec("cards.xlsx", "Cards"), cards__xlsx=data)
    code, output, text = build(runner, folder, tmp_path / "out")
    assert code == 0, output
    assert text.count("Storm 6") == 1 and text.count("Knight 5") == 2 and text.count("Giant 20") == 1


def test_xlsx_errors_located_at_cells(make_spec: SpecMaker, runner: CliRunner, tmp_path: Path) -> None:
    rows = [*ROWS[:3], ["Giant", 10, "lots"]]
    folder = make_spec(spec("cards.xlsx", "Cards"), cards__xlsx=xlsx(rows))
    code, output, _ = build(runner, folder, tmp_path / "out")
    assert code == 2 and "cards.xlsx[Cards]!C4: count 'lots' is not a whole number" in output
    folder = make_spec(spec("cards.xlsx", "Kards"), folder="other", cards__xlsx=xlsx(ROWS))
    code, output, _ = build(runner, folder, tmp_path / "out2")
    assert (
        code == 2
        and "game.yaml:7:12: no sheet 'Kards' in cards.xlsx (did you mean Cards? expected one of: Notes, "
        "Cards)"
        in output
    ), output


def test_xlsx_default_sheet_is_the_first(make_spec: SpecMaker, runner: CliRunner, tmp_path: Path) -> None:
    folder = make_spec(spec("cards.xlsx", None), cards__xlsx=xlsx(ROWS))
    code, output, _ = build(runner, folder, tmp_path / "out")
    assert code == 2 and "cards.xlsx[Notes]!A1: no header row" in output


def test_row_evaluation_error_at_sheet_row(make_spec: SpecMaker, runner: CliRunner, tmp_path: Path) -> None:
    rows = [*ROWS[:3], ["Giant", "ten", 1]]
    text = spec("cards.xlsx", "Cards").replace("cost * 2", "cost - 2")  # text minus a number
    folder = make_spec(text, cards__xlsx=xlsx(rows))
    code, output, _ = build(runner, folder, tmp_path / "out")
    assert code == 2 and "cards.xlsx[Cards]!A4:" in output


def test_ods(make_spec: SpecMaker, runner: CliRunner, tmp_path: Path) -> None:
    rows: list[list[object]] = [["name", "cost", "count"], ["Storm", 3, 1], ["Knight", 2.5, ("1+1", 2)], [""]]
    folder = make_spec(spec("cards.ods", "Cards"), cards__ods=ods(rows))
    code, output, text = build(runner, folder, tmp_path / "out")
    assert code == 0, output
    assert text.count("Storm 6") == 1 and text.count("Knight 5") == 2


def test_ods_error_located(make_spec: SpecMaker, runner: CliRunner, tmp_path: Path) -> None:
    rows: list[list[object]] = [["name", "cost", "count"], ["Storm", 3, 1], ["Knight", 2.5, -2]]
    folder = make_spec(spec("cards.ods", "Cards"), cards__ods=ods(rows))
    code, output, _ = build(runner, folder, tmp_path / "out")
    assert code == 2 and "cards.ods[Cards]!C3: count -2 is not positive" in output


@pytest.mark.parametrize("name", ["cards.xlsx", "cards.ods"])
def test_not_a_spreadsheet(make_spec: SpecMaker, runner: CliRunner, tmp_path: Path, name: str) -> None:
    folder = make_spec(spec(name, None), **{name.replace(".", "__"): b"name,cost\nA,1\n"})
    code, output, _ = build(runner, folder, tmp_path / "out")
    assert code == 2 and "not a spreadsheet file" in output


def test_two_type_deck_from_xlsx(runner: CliRunner, tmp_path: Path) -> None:
    """The issue's deck: two card types (face_by, when:, styles, bold, inline icons) from an .xlsx."""
    import csv

    folder = tmp_path / "deck"
    assert runner.invoke(main, ["new", str(folder), "--template", "cards"]).exit_code == 0
    with (folder / "cards.csv").open(encoding="utf-8") as handle:
        table = list(csv.reader(handle))
    rows = [table[0]] + [[int(v) if v.isdigit() else v for v in row] for row in table[1:]]
    (folder / "cards.xlsx").write_bytes(xlsx(rows))
    (folder / "cards.csv").unlink()
    spec = folder / "game.yaml"
    spec.write_text(
        spec.read_text(encoding="utf-8").replace("csv: cards.csv", "csv: cards.xlsx\n    sheet: Cards")
    )
    result = runner.invoke(main, ["build", str(folder), "-o", str(tmp_path / "out")])
    assert result.exit_code == 0 and "warning" not in result.output.lower(), result.output
    page = PdfReader(tmp_path / "out" / "deck.pdf").pages[1]
    text = page.extract_text()
    assert text.count("EVENT") == 3 and "worth 8" in text and "Harvest" in text
    fonts = {str(f["/BaseFont"]).partition("+")[2] for f in page["/Resources"]["/Font"].values()}
    assert "LiberationSans-Bold" in fonts and "LiberationSans-Italic" in fonts  # Helvetica's embedded twins


@pytest.mark.parametrize(
    ("csv_name", "sheet", "message"),
    [
        ("cards.csv", "Cards", "`sheet` names a sheet of a spreadsheet"),
        ("cards.xls", None, "save the spreadsheet as .xlsx or .ods"),
    ],
)
def test_sheet_key_misuse(
    make_spec: SpecMaker, runner: CliRunner, tmp_path: Path, csv_name: str, sheet: str | None, message: str
) -> None:
    folder = make_spec(spec(csv_name, sheet), cards__csv="name,cost\nA,1\n")
    code, output, _ = build(runner, folder, tmp_path / "out")
    assert code == 2 and "game.yaml:3:" in output and message in output, output


def deck_xlsx(rows: list[list[object]], merge: str | None = None, formula: str | None = None) -> bytes:
    """An .xlsx as openpyxl writes it: a `formula` cell (=1+1) has no saved value, as a script's has."""
    import openpyxl

    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Cards"
    for row in rows:
        sheet.append(row)
    if formula:
        sheet[formula] = "=1+1"
    if merge:
        sheet.merge_cells(merge)
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


CLEAN: list[list[object]] = [["id", "name", "cost", "count"], ["s", "Storm", 3, 1], ["k", "Knight", 2, 2]]


def test_clean_xlsx_builds_without_warning(make_spec: SpecMaker, runner: CliRunner, tmp_path: Path) -> None:
    folder = make_spec(spec("cards.xlsx", "Cards"), cards__xlsx=deck_xlsx(CLEAN))
    code, output, text = build(runner, folder, tmp_path / "out")
    assert code == 0 and "warning" not in output, output
    assert text.count("Storm 6") == 1 and text.count("Knight 4") == 2


@pytest.mark.parametrize(
    ("rows", "merge", "formula", "said"),
    [
        (  # an empty count cell: refused at the cell (one copy is written 1)
            [*CLEAN, ["g", "Giant", 10, None, "x"][:3] + [None]],
            None,
            None,
            "cards.xlsx[Cards]!D4: count is empty (expected a positive whole number: write 1 for one copy)",
        ),
        (  # a formula with no saved value
            CLEAN,
            None,
            "D3",
            "cards.xlsx[Cards]!D3: a formula with no saved value (expected a value: open and save it in a "
            "spreadsheet, or write the value)",
        ),
        (  # merged cells: the range named
            [*CLEAN, ["g", "Giant", 10, 1]],
            "B3:B4",
            None,
            "cards.xlsx[Cards]!B3:B4: merged cells: only the first keeps its value",
        ),
        (  # a repeated id, as a CSV's is refused
            [*CLEAN, ["s", "Squall", 4, 1]],
            None,
            None,
            "cards.xlsx[Cards]!A4: id=s repeats the row at cards.xlsx[Cards]!A2 (expected each id once)",
        ),
    ],
    ids=["empty-count", "unsaved-formula", "merged", "repeated-id"],
)
def test_silent_sheet_mistakes_said_at_their_cell(
    make_spec: SpecMaker,
    runner: CliRunner,
    tmp_path: Path,
    rows: list[list[object]],
    merge: str | None,
    formula: str | None,
    said: str,
) -> None:
    folder = make_spec(spec("cards.xlsx", "Cards"), cards__xlsx=deck_xlsx(rows, merge, formula))
    code, output, _ = build(runner, folder, tmp_path / "out")
    assert code == 2 and said in output and ":0" not in output, output
    assert not (tmp_path / "out" / "sheets.pdf").exists()


def test_repeated_id_refused_in_every_source(make_spec: SpecMaker, runner: CliRunner, tmp_path: Path) -> None:
    rows: list[list[object]] = [*CLEAN, ["s", "Squall", 4, 1]]
    folder = make_spec(spec("cards.ods", "Cards"), cards__ods=ods(rows))
    code, output, _ = build(runner, folder, tmp_path / "out")
    assert code == 2 and "cards.ods[Cards]!A4: id=s repeats the row at cards.ods[Cards]!A2" in output, output
    table = "\n".join(",".join(str(v) for v in row) for row in rows) + "\n"
    folder = make_spec(spec("cards.csv", None), folder="csv", cards__csv=table)
    code, output, _ = build(runner, folder, tmp_path / "out2")
    assert code == 2 and "cards.csv:4:1: id=s repeats the row at cards.csv:2" in output, output


def test_empty_count_in_a_csv(make_spec: SpecMaker, runner: CliRunner, tmp_path: Path) -> None:
    folder = make_spec(spec("cards.csv", None), cards__csv="name,cost,count\nStorm,3,1\nKnight,2,\n")
    code, output, _ = build(runner, folder, tmp_path / "out")
    assert code == 2 and "cards.csv:3:" in output and "count is empty" in output, output
