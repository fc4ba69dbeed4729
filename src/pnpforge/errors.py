"""Problems with user input, reported as `FILE:LINE:COL: message (expected ...)`.

Every bad-input path in pnpforge raises `InputError` carrying one `Problem` per thing that is wrong;
the CLI prints them all and exits with code 2. Nothing here knows about any particular file format.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pnpforge.i18n import N_
from pnpforge.phrase import Phrase

__all__ = ["InputError", "Problem", "quoted", "unknown", "warning"]


@dataclass(frozen=True)
class Problem:
    """One thing wrong with one input file; line and column are 1-based, 0 when unknown."""

    file: str
    line: int
    col: int
    message: str  # often a `Phrase`: the CLI prints its English, the page says it in the page's language

    @property
    def where(self) -> str:
        """`FILE:LINE:COL`, or `FILE` when the line is unknown."""
        return self.file + (f":{self.line}:{self.col or 1}" if self.line else "")

    def __str__(self) -> str:
        return f"{self.where}: {self.message}"


class InputError(Exception):
    """The user's input cannot be used; carries every problem found, not just the first."""

    def __init__(self, problems: list[Problem], domain: str | None = None) -> None:
        self.problems = problems
        # whose words the messages are: a game's catalog domain (its id) when its rules found them, so
        # they are said in its words (`i18n.translator(lang, error.domain)`); None: the engine's
        self.domain = domain
        super().__init__("\n".join(str(p) for p in problems))

    def __reduce__(self) -> tuple[type[InputError], tuple[list[Problem], str | None]]:
        """Pickled with its problems, so it crosses from a worker process to the server as itself."""
        return (type(self), (self.problems, self.domain))

    @classmethod
    def single(cls, file: str | Path, message: str, line: int = 0, col: int = 0) -> InputError:
        return cls([Problem(str(file), line, col, message)])


def quoted(value: object) -> str:
    """`repr(value)`, as the CLI shows a value it refuses ('x'); text in plain single quotes is a
    `Phrase`, so another language can quote it its own way (「x」)."""
    shown = repr(value)
    if isinstance(value, str) and shown.startswith("'"):
        return Phrase(QUOTED, text=shown[1:-1])
    return shown


def unknown(what: str, value: object, known: object) -> Phrase:
    """ "unknown god 'Ra' (expected one of: Amun, Isis)": `what` is a noun marked with N_ where it is
    written (a game's in its folder), `known` the choices as the CLI lists them (or a list, joined as the
    language joins one)."""
    return Phrase(UNKNOWN, what=Phrase.word(what), value=quoted(value), known=known)


UNKNOWN = N_("unknown {what} {value} (expected one of: {known})")
QUOTED = N_("'{text}'")
MORE_ROW = N_("{message} (and {count} more row: {file}:{span})")
MORE_ROWS = N_("{message} (and {count} more rows: {file}:{span})")
STRICT = N_("{message} (--strict: warnings are errors)")
WARNING = N_("warning: {message}")  # an unlocated warning, as printed
ROW_FILES = (".csv", ".tsv")  # data tables: one row a line, where one mistake repeats row after row


def collapse(problems: list[Problem]) -> list[Problem]:
    """The same message at many rows of one data table said once: the first, then "(and 34 more rows:
    cards.csv:3–36)". Order is kept. Problems in other files (each key of a spec is its own place) and
    a problem said once are left as they are."""
    groups: dict[tuple[str, str], list[Problem]] = {}
    for problem in problems:
        if problem.file.endswith(ROW_FILES):
            groups.setdefault((problem.file, problem.message), []).append(problem)
    out: list[Problem] = []
    for problem in problems:
        key = (problem.file, problem.message)
        if not problem.file.endswith(ROW_FILES):
            out.append(problem)
            continue
        group = groups.pop(key, None)
        if group is None:
            continue  # said already with the first of its group
        rest = sorted({p.line for p in group[1:] if p.line and p.line != problem.line})
        if not rest:
            out.append(problem)
            continue
        span = f"{rest[0]}" if len(rest) == 1 else f"{rest[0]}–{rest[-1]}"
        template = MORE_ROW if len(rest) == 1 else MORE_ROWS
        more = Phrase(
            template, message=problem.message, count=len(rest), file=Path(problem.file).name, span=span
        )
        out.append(Problem(problem.file, problem.line, problem.col, more))
    return out


def warning_line(problem: Problem | str) -> str:
    """A warning as printed: `FILE:LINE:COL: warning: message` (a located one), or as it was written."""
    if isinstance(problem, str):
        return problem
    return Phrase(N_("{where}: warning: {message}"), where=problem.where, message=problem.message)


def strict_error(warnings: list[Problem | str], file: str) -> InputError:
    """--strict: the build's warnings as its errors (a located one where it was found, else at `file`)."""
    problems = [w if isinstance(w, Problem) else Problem(file, 0, 0, unwarned(w)) for w in warnings]
    return InputError(
        [Problem(p.file, p.line, p.col, Phrase(STRICT, message=p.message)) for p in collapse(problems)]
    )


def located(problem: Problem) -> Phrase:
    """`FILE:LINE:COL: message` as one text that keeps its message's Phrase (str(problem) would not)."""
    return Phrase(N_("{where}: {message}"), where=problem.where, message=problem.message)


def warning(message: str) -> Phrase:
    """An unlocated warning as printed: "warning: message" (the message said in the language too)."""
    return Phrase(WARNING, message=message)


def unwarned(line: str) -> str:
    """A warning line's message without its "warning: " (a Phrase made by `warning` gives its own)."""
    if isinstance(line, Phrase) and line.template == WARNING:
        message: str = line.values["message"]
        return message
    return line.removeprefix("warning: ")
