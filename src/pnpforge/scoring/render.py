"""Printing a `ScoreResult` for people (an aligned table) or for tools (JSON), and rule breaks.

Widths count East Asian wide characters as two columns, so Japanese names still line up. Every word
is a catalog message (pnpforge.i18n): `tr`, a game's translator (`Game.translator(lang)`), says the
sheet in the user's language; the default says it as written, in English.
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Callable, Sequence

from pnpforge.i18n import N_
from pnpforge.scoring.sheet import DRAW, Phrase, ScoreResult, Table
from pnpforge.validator.report import Report, violation_line

# the winner sentence (`verdict`); the winners and the tie-breaks tried are listed one after another
NO_WINNER = N_("No winner.")
WINNER = N_("Winner: {names} with {top}.")
DECIDED = N_("Winner: {names} (tied on {top}; decided by {tiebreak}).")
SHARED = N_("Draw: {names} share the win (tied on {top}; {tried} did not separate them).")
NO_TIEBREAK = N_("no tie-break")
WINNERS = N_("{winners} and {winner}")
TRIED = N_("{tried} and {tiebreak}")
# the sheet's headings (`text`) and the closing line of its rule breaks (`report_text`)
SCORE_SHEET = N_("score sheet")
PLAYER = N_("player")
TOTAL = N_("total")
NOT_SCORED = N_("{count} rule violation(s); nothing was scored")
# a violation's line, as `pnpforge validate` prints it too: a language may keep "error" and the code
# as they are (tools and people grep for them)


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


def _word(text: str) -> Phrase:
    return text if isinstance(text, Phrase) else Phrase.word(text)


def _listed(items: Sequence[str], template: str, first: str, then: str) -> str:
    """Items one after another ("A and B and C"), joined as the language joins them (`template`, whose
    placeholders are `first` and `then`)."""
    said = items[0]
    for item in items[1:]:
        said = Phrase(template, **{first: said, then: item})
    return said


def verdict(result: ScoreResult, tr: Callable[[str], str] = str) -> str:
    """One sentence: who won and what decided it (the names as they are, the tie-break in the game's
    words)."""
    if result.verdict:
        return tr(result.verdict)
    if not result.winners:
        return tr(NO_WINNER)
    names = _listed(result.winners, WINNERS, "winners", "winner")
    top = next(p.total for p in result.players if p.name == result.winners[0])
    if result.tiebreak is None:
        return tr(Phrase(WINNER, names=names, top=top))
    if result.tiebreak == DRAW:
        each = [_word(t) for t in result.tried]
        tried = _listed(each, TRIED, "tried", "tiebreak") if each else _word(NO_TIEBREAK)
        return tr(Phrase(SHARED, names=names, top=top, tried=tried))
    return tr(Phrase(DECIDED, names=names, top=top, tiebreak=_word(result.tiebreak)))


def text(result: ScoreResult, tr: Callable[[str], str] = str, title: str | None = None) -> str:
    """The sheet as `pnpforge score` prints it; `tr` (a game's translator) and `title` (the game's name
    in that language) put it in another language: the game's texts, the headings, the winner sentence."""
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
    heading = f"{title or result.title or result.game}: {tr(SCORE_SHEET)}"
    columns = ["#", tr(PLAYER), *map(tr, items), tr(TOTAL), *map(tr, infos)]
    lines = [heading, ""]
    lines += grid(columns, rows)
    lines += ["", verdict(result, tr)]
    lines += [tr(n) for n in result.notes]
    for table in result.tables:
        lines += ["", *table_text(table, tr)]
    return "\n".join(lines)


def _cell(value: int | str, tr: Callable[[str], str]) -> int | str:
    """A table cell: a `Phrase` (a word or sentence the game wrote) is said in the language; names and
    numbers are shown as they are."""
    return tr(value) if isinstance(value, Phrase) else value


def table_rows(table: Table, tr: Callable[[str], str] = str) -> list[list[int | str]]:
    return [[_cell(v, tr) for v in row] for row in table.rows]


def table_text(table: Table, tr: Callable[[str], str] = str) -> list[str]:
    return [tr(table.title), *grid([tr(c) for c in table.columns], table_rows(table, tr))]


def json_text(data: object) -> str:
    return json.dumps(data, ensure_ascii=False, indent=2)


def as_json(result: ScoreResult) -> str:
    return json_text(result.as_json())


def report_text(report: Report, file: str, tr: Callable[[str], str] = str) -> str:
    """Rule breaks as `pnpforge validate` prints violations: `WHERE: error [code] message`.

    WHERE is the score file's `FILE:LINE:COL` when the break is located there, else the file; `tr` (the
    game's translator) says the messages and the closing line in another language.
    """
    lines = []
    for error, found in ((True, report.errors), (False, report.warnings)):
        for v in found:
            where = v.where if isinstance(v.where, str) and v.where.startswith(file) else file
            lines.append(violation_line(v, where, tr, error))
    lines.append(f"{file}: {tr(Phrase(NOT_SCORED, count=len(report.errors)))}")
    return "\n".join(lines)
