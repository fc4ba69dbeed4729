"""Where a component's data rows came from, and the rows themselves: the plain records that loading
(components/load.py) makes and selection (components/selection.py), expansion and drafts read.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pnpforge.sourcefile import Path_, Source

__all__ = ["DataRow", "RowRef"]


class RowRef:
    """Where a data row came from, for error messages (`file:line`).

    `RowRef.at` names a row written in a YAML file by its key path; its line is found only when a
    message asks for it, since positions cost a second, slow parse that a valid spec never needs.
    """

    __slots__ = ("_line", "_path", "_source", "file")

    def __init__(self, file: str, line: int) -> None:
        self.file = file
        self._line = line
        self._source: Source | None = None
        self._path: Path_ = ()

    @classmethod
    def at(cls, source: Source, path: Path_) -> RowRef:
        ref = cls(source.file, 0)
        ref._source, ref._path = source, path
        return ref

    @property
    def line(self) -> int:
        if self._source is not None:
            self._line = self._source.where(self._path)[0]
            self._source = None
        return self._line

    def __eq__(self, other: object) -> bool:
        return isinstance(other, RowRef) and (self.file, self.line) == (other.file, other.line)

    def __hash__(self) -> int:
        return hash(self.file)

    def __repr__(self) -> str:
        return f"RowRef({self.file!r}, {self.line})"


@dataclass(frozen=True)
class DataRow:
    """One data row of a component, with how many copies it asks for and where it was written."""

    values: dict[str, Any]
    count: int
    ref: RowRef
