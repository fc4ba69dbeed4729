"""Problems with user input, reported as `FILE:LINE:COL: message (expected ...)`.

Every bad-input path in pnpforge raises `InputError` carrying one `Problem` per thing that is wrong;
the CLI prints them all and exits with code 2. Nothing here knows about any particular file format.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

__all__ = ["InputError", "Problem"]


@dataclass(frozen=True)
class Problem:
    """One thing wrong with one input file; line and column are 1-based, 0 when unknown."""

    file: str
    line: int
    col: int
    message: str

    def __str__(self) -> str:
        where = self.file
        if self.line:
            where += f":{self.line}:{self.col or 1}"
        return f"{where}: {self.message}"


class InputError(Exception):
    """The user's input cannot be used; carries every problem found, not just the first."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))

    def __reduce__(self) -> tuple[type[InputError], tuple[list[Problem]]]:
        """Pickled with its problems, so it crosses from a worker process to the server as itself."""
        return (type(self), (self.problems,))

    @classmethod
    def single(cls, file: str | Path, message: str, line: int = 0, col: int = 0) -> InputError:
        return cls([Problem(str(file), line, col, message)])
