"""Rule violations as data: a stable code, a message, and where on the board.

A game's `checks.py` returns a `Report`; the CLI prints it for people or as JSON for tools.
Codes are a contract (documented in docs/setups.md): never rename one, only add.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from pnpforge import limits
from pnpforge.i18n import N_
from pnpforge.phrase import Phrase

__all__ = ["Report", "Violation", "violation_line"]

ERROR_LINE = N_("{where}: error [{code}] {message}")
WARNING_LINE = N_("{where}: warning [{code}] {message}")


class Violation(NamedTuple):  # (a named tuple: every set-up check loads this, a dataclass is slower made)
    code: str  # stable, kebab-case, e.g. "water-disconnected"
    message: str  # one sentence a player understands
    where: Any = None  # cells, tile ids, edges, a file line: whatever locates it, JSON-serialisable

    def as_json(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, "where": self.where}


@dataclass
class Report:
    """The first `limits.VIOLATIONS` errors and warnings, listed; `error_count` counts every error.

    A hostile board can break a rule thousands of times; listing the first hundred says as much as
    listing them all, and keeps the report (and the page showing it) small.
    """

    game: str
    errors: list[Violation] = field(default_factory=list)
    warnings: list[Violation] = field(default_factory=list)
    error_count: int = -1  # -1: as many as listed

    def __post_init__(self) -> None:
        self.error_count = max(self.error_count, len(self.errors))

    @property
    def valid(self) -> bool:
        return not self.errors

    def error(self, code: str, message: str, where: Any = None) -> None:
        self.error_count += 1
        if len(self.errors) < limits.VIOLATIONS:
            self.errors.append(Violation(code, message, where))

    def warn(self, code: str, message: str, where: Any = None) -> None:
        if len(self.warnings) < limits.VIOLATIONS:
            self.warnings.append(Violation(code, message, where))

    @property
    def unlisted(self) -> int:
        """Errors counted but not listed."""
        return self.error_count - len(self.errors)

    def said(self, tr: Callable[[str], str]) -> Report:
        """The same report with every message said by `tr` (a game's translator); codes and places
        unchanged."""
        return Report(
            self.game,
            [Violation(v.code, tr(v.message), v.where) for v in self.errors],
            [Violation(v.code, tr(v.message), v.where) for v in self.warnings],
            self.error_count,
        )

    def codes(self) -> set[str]:
        return {v.code for v in self.errors}

    def as_json(self) -> dict[str, Any]:
        out = {
            "valid": self.valid,
            "game": self.game,
            "errors": [v.as_json() for v in self.errors],
            "warnings": [v.as_json() for v in self.warnings],
        }
        if self.unlisted:  # only a report past the limit says so: every other report keeps its shape
            out["unlisted_errors"] = self.unlisted
        return out


def violation_line(v: Violation, where: str, tr: Callable[[str], str] = str, error: bool = True) -> str:
    """`WHERE: error [code] message` (or `warning`), the message said by `tr` (`validate` prints these,
    and `score` its rule breaks)."""
    return tr(Phrase(ERROR_LINE if error else WARNING_LINE, where=where, code=v.code, message=tr(v.message)))
