"""Each game's page says what the build does: the sheets column of its "What prints" table and its list
of shared sheets are what `pnpforge inventory --json` gives (a page once said Delphi's island tiles
take 4 sheets where the build takes 3, and Ankh's that no two components share a sheet)."""

from __future__ import annotations

import json
import re
from collections import defaultdict
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnpforge import catalog
from pnpforge.cli import main

DOCS = Path(__file__).resolve().parents[1] / "docs" / "games"
BUNDLED = [g.id for g in catalog.games() if g.bundled]
SHARED = "Sheets that components share (tested against `pnpforge inventory`):"


def _inventory(game: str) -> list[dict[str, object]]:
    result = CliRunner().invoke(main, ["inventory", game, "--json"])
    assert result.exit_code == 0, result.output
    rows: list[dict[str, object]] = json.loads(result.stdout)
    return rows


def _what_prints(text: str) -> list[list[str]]:
    section = text.split("\n## What prints\n", 1)[1].split("\n## ", 1)[0]
    lines = [line for line in section.splitlines() if line.startswith("|")]
    return [[cell.strip() for cell in line.strip("|").split("|")] for line in lines]


@pytest.mark.parametrize("game", BUNDLED)
def test_the_pages_sheet_counts_and_shared_sheets_are_the_inventorys(game: str) -> None:
    text = (DOCS / f"{game}.md").read_text(encoding="utf-8")
    rows = _inventory(game)
    by_sheet: dict[int, list[str]] = defaultdict(list)
    for row in rows:
        for number in row["sheet_numbers"]:  # type: ignore[attr-defined]
            by_sheet[number].append(str(row["name"]))
    shared = [(n, names) for n, names in sorted(by_sheet.items()) if len(names) > 1]
    said = " ".join(text.split(SHARED, 1)[1].split("\n\n", 1)[0].split())
    expected = "; ".join(f"{n} (" + ", ".join(f"`{name}`" for name in names) + ")" for n, names in shared)
    assert said == (expected or "none") + ".", f"{game}: the page's shared sheets are not the build's"
    table = _what_prints(text)
    header = [cell.lower() for cell in table[0]]
    if "sheets" not in header:  # a page without the column says only the print counts (tested elsewhere)
        return
    column = header.index("sheets")
    sheets = {str(r["name"]): r["sheets"] for r in rows}
    checked = 0
    for cells in table[2:]:
        name = re.match(r"`([^`]+)`", cells[0])
        assert name, cells
        count = re.match(r"(\d+)", cells[column])
        assert count, cells
        assert int(count.group(1)) == sheets[name.group(1)], f"{game}: {name.group(1)} says {cells[column]}"
        checked += 1
    assert checked == len(rows)
