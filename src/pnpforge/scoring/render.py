"""Printing a `ScoreResult` for people (an aligned table) or for tools (JSON), and rule breaks.

Widths count East Asian wide characters as two columns, so Japanese names still line up.
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Callable, Mapping, Sequence

from pnpforge.scoring.sheet import DRAW, Phrase, ScoreResult, Table
from pnpforge.validator.report import Report


def _width(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _pad(text: str, width: int, right: bool) -> str:
    gap = " " * max(0, width - _width(text))
    return gap + text if right else text + gap


def grid(columns: Sequence[str], rows: Sequence[Sequence[int | str]]) -> list[str]:
    """Aligned lines: text columns to the left, numbers to the right."""
    cells = [[str(c) for c in columns], *[[str(v) for v in row] for row in rows]]
    numeric = [all(isinstance(row[i], int) for row in rows) and bool(rows) for i in range(len(columns))]
    widths = [max(_width(line[i]) for line in cells) for i in range(len(columns))]
    lines = []
    for line in cells:
        parts = [_pad(v, widths[i], numeric[i]) for i, v in enumerate(line)]
        lines.append("  ".join(parts).rstrip())
    return lines


def verdict(result: ScoreResult) -> str:
    """One sentence: who won and what decided it."""
    names = " and ".join(result.winners)
    if result.verdict:
        return result.verdict
    if not result.winners:
        return "No winner."
    top = next(p.total for p in result.players if p.name == result.winners[0])
    if result.tiebreak is None:
        return f"Winner: {names} with {top}."
    if result.tiebreak == DRAW:
        tried = " and ".join(result.tried) or "no tie-break"
        return f"Draw: {names} share the win (tied on {top}; {tried} did not separate them)."
    return f"Winner: {names} (tied on {top}; decided by {result.tiebreak})."


def _same(english: str) -> str:
    return english


def text(
    result: ScoreResult,
    tr: Callable[[str], str] = _same,
    words: Mapping[str, str] | None = None,
    said: str | None = None,
    title: str | None = None,
) -> str:
    """The sheet as `pnpforge score` prints it; `tr`, `words`, `said` and `title` put it in another
    language (scoring/lang.py): the game's texts, the headings, the winner sentence and the game's name."""
    word = words or {}
    items: list[str] = []
    infos: list[str] = []
    for player in result.players:
        items += [k for k in player.breakdown if k not in items]
        infos += [k for k in player.info if k not in infos]
    order = sorted(result.players, key=lambda p: result.places.get(p.name, 0))
    rows: list[list[int | str]] = []
    for player in order:
        row: list[int | str] = [result.places.get(player.name, ""), player.name]
        row += [player.breakdown.get(k, "") for k in items]
        row += [int(player.total or 0)]
        row += [_cell(player.info.get(k, ""), tr) for k in infos]
        rows.append(row)
    heading = f"{title or result.title or result.game}: {word.get('score sheet', 'score sheet')}"
    columns = [
        "#",
        word.get("player", "player"),
        *map(tr, items),
        word.get("total", "total"),
        *map(tr, infos),
    ]
    lines = [heading, ""]
    lines += grid(columns, rows)
    lines += ["", said if said is not None else verdict(result)]
    lines += [tr(n) for n in result.notes]
    for table in result.tables:
        lines += ["", *table_text(table, tr)]
    return "\n".join(lines)


def _cell(value: int | str, tr: Callable[[str], str]) -> int | str:
    """A table cell: a `Phrase` (a word or sentence the game wrote) is said in the language; names and
    numbers are shown as they are."""
    return tr(value) if isinstance(value, Phrase) else value


def table_rows(table: Table, tr: Callable[[str], str] = _same) -> list[list[int | str]]:
    return [[_cell(v, tr) for v in row] for row in table.rows]


def table_text(table: Table, tr: Callable[[str], str] = _same) -> list[str]:
    return [tr(table.title), *grid([tr(c) for c in table.columns], table_rows(table, tr))]


def json_text(data: object) -> str:
    return json.dumps(data, ensure_ascii=False, indent=2)


def as_json(result: ScoreResult) -> str:
    return json_text(result.as_json())


def report_text(
    report: Report, file: str, tr: Callable[[str], str] = _same, words: Mapping[str, str] | None = None
) -> str:
    """Rule breaks as `pnpforge validate` prints violations: `WHERE: error [code] message`.

    WHERE is the score file's `FILE:LINE:COL` when the break is located there, else the file;
    `tr` and `words` say the messages and the closing line in another language (scoring/lang.py).
    """
    lines = []
    for level, found in (("error", report.errors), ("warning", report.warnings)):
        for v in found:
            where = v.where if isinstance(v.where, str) and v.where.startswith(file) else file
            lines.append(f"{where}: {level} [{v.code}] {tr(v.message)}")
    closing = (words or {}).get("not scored", "{count} rule violation(s); nothing was scored")
    lines.append(f"{file}: {closing.format(count=len(report.errors))}")
    return "\n".join(lines)
