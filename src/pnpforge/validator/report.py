"""Rule violations as data: a stable code, a message, and where on the board.

A game's `checks.py` returns a `Report`; the CLI prints it for people or as JSON for tools.
Codes are a contract (documented in docs/setups.md): never rename one, only add.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

__all__ = ["Report", "Violation"]


@dataclass(frozen=True)
class Violation:
    code: str  # stable, kebab-case, e.g. "water-disconnected"
    message: str  # one sentence a player understands
    where: Any = None  # cells, tile ids, edges, a file line: whatever locates it, JSON-serialisable

    def as_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class Report:
    game: str
    errors: list[Violation] = field(default_factory=list)
    warnings: list[Violation] = field(default_factory=list)

    @property
    def valid(self) -> bool:
        return not self.errors

    def error(self, code: str, message: str, where: Any = None) -> None:
        self.errors.append(Violation(code, message, where))

    def warn(self, code: str, message: str, where: Any = None) -> None:
        self.warnings.append(Violation(code, message, where))

    def codes(self) -> set[str]:
        return {v.code for v in self.errors}

    def as_json(self) -> dict[str, Any]:
        return {
            "valid": self.valid,
            "game": self.game,
            "errors": [v.as_json() for v in self.errors],
            "warnings": [v.as_json() for v in self.warnings],
        }
