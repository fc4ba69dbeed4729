"""Reading a deck's .xlsx: python-calamine (what pnpforge uses) beside openpyxl (what it used before).

A 60-row × 8-column deck (the size of issue 30's prototype) and a 2,000-row one, each read ROUNDS times
by `spreadsheet.read_sheet` (calamine, plus the merged-cell and unsaved-formula checks) and by openpyxl's
read-only, cached-values mode (the former reader, rows only, no checks). Aim (issue 32, "Speed"): the
pnpforge read at most half openpyxl's time. Needs openpyxl (the `test` extra).
Run: .venv/bin/python bench/bench_sheets.py
"""

from __future__ import annotations

import io
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import openpyxl

from pnpforge.components.spreadsheet import read_sheet

ROUNDS = 15
AIM = 0.5  # calamine's median time ÷ openpyxl's


def deck(rows: int) -> bytes:
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Deck"
    sheet.append(["id", "name", "name_ja", "type", "cost", "count", "text", "text_ja"])
    for n in range(rows):
        sheet.append(
            [f"c{n}", f"Card {n}", f"カード{n}", "event", n % 7, 1 + n % 3, "Gain 2 wool.", "羊毛を2得る。"]
        )
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


def median(read: Callable[[], object]) -> float:
    times = []
    for _ in range(ROUNDS):
        start = time.perf_counter()
        read()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def with_openpyxl(path: Path) -> list[tuple[object, ...]]:
    book = openpyxl.load_workbook(path, read_only=True, data_only=True)
    try:
        return list(book["Deck"].iter_rows(values_only=True))
    finally:
        book.close()


def main() -> int:
    failed = False
    with tempfile.TemporaryDirectory() as folder:
        for rows in (60, 2000):
            path = Path(folder) / f"deck{rows}.xlsx"
            path.write_bytes(deck(rows))
            ours = median(lambda path=path: read_sheet(path, path.name, "Deck"))
            theirs = median(lambda path=path: with_openpyxl(path))
            ratio = ours / theirs
            failed |= ratio > AIM
            print(
                f"{rows:>5} rows: pnpforge (calamine) {ours * 1000:7.1f} ms,"
                f" openpyxl {theirs * 1000:7.1f} ms,"
                f" ratio {ratio:.2f} (aim <= {AIM})"
            )
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
