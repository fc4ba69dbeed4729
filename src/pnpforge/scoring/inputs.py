"""Building blocks for a game's score-file model, and the two ways an input can be wrong.

Malformed input (not a whole number, an unknown player name, a duplicate name, a player count
the game does not allow) is an `InputError`: exit 2, `FILE:LINE:COL`. Input that is well formed
but impossible under the rules (a negative count, more village cards than exist) is a rule
break: `Rules` collects `Violation`s with stable codes, and `RulesBroken` carries the report
(exit 1), the same shape `pnpforge validate` uses.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from typing import Annotated, Any

from pnpforge.errors import InputError, unknown
from pnpforge.i18n import N_
from pnpforge.lightmodel import BaseModel, BeforeValidator, ConfigDict
from pnpforge.phrase import Phrase
from pnpforge.sourcefile import Path_, Source, too_long_number
from pnpforge.validator.report import Report

# The engine's own rule-break sentences, said in every game's words; `what` is the game's noun phrase
# (a `Phrase` or a word it marks for the catalogs).
NEGATIVE = N_("{what} is {value}; a count cannot be negative")
TOO_MANY = N_("{what} is {value}, more than the {limit} the game allows")
OWNED = N_("{name}'s {thing}")  # a player's count of something: "Ann's sheep"
PLAYED_BY = N_("{game} is played by {span} players, not {count}")  # a score file's (or the page's sheet's)

MAX_COUNT = 10**18 - 1  # 18 digits, as the input layer allows in files; typed answers are held to it too


def _whole(value: Any) -> Any:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(Phrase.word(N_("expected a whole number")))
    if abs(value) > MAX_COUNT:
        raise ValueError(too_long_number())
    return value


def _flag(value: Any) -> Any:
    if not isinstance(value, bool):
        raise ValueError(Phrase.word(N_("expected true or false")))
    return value


def _name(value: Any) -> Any:
    if not isinstance(value, str) or not value.strip():
        raise ValueError(Phrase.word(N_("expected a player name (text)")))
    return value.strip()


Count = Annotated[int, BeforeValidator(_whole)]  # negatives pass here: they are rule breaks, not typos
Flag = Annotated[bool, BeforeValidator(_flag)]
Name = Annotated[str, BeforeValidator(_name)]


class Strict(BaseModel):
    """Base for every score-file model: unknown keys are errors, so a typo never scores as 0. A model
    checked by pydantic_core without pydantic's model machinery (pnpforge.lightmodel)."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)


class PlayerEntry(Strict):
    name: Name


def owned(name: str, thing: str) -> Phrase:
    """A player's count of something, "Ann's sheep": `thing` is a `Phrase` or a word the game marks (N_)."""
    return Phrase(OWNED, name=name, thing=_said(thing))


def _said(what: str) -> Phrase:
    return what if isinstance(what, Phrase) else Phrase.word(what)


class RulesBroken(Exception):
    """The input breaks the game's rules; carries every violation found, not just the first."""

    def __init__(self, report: Report) -> None:
        self.report = report
        super().__init__("; ".join(f"{v.code}: {v.message}" for v in report.errors))


class Rules:
    """Collects rule breaks, each located in the score file (`where` is `FILE:LINE:COL`)."""

    def __init__(self, game: str, source: Source) -> None:
        self.report = Report(game)
        self.source = source

    def where(self, path: Path_) -> str:
        line, col = self.source.where(path)
        return f"{self.source.file}:{line}:{col}" if line else self.source.file

    def error(self, code: str, path: Path_, message: str) -> None:
        """`message` is best a `Phrase` (its template marked N_): then it is said in every language."""
        self.report.error(code, message, self.where(path))

    def nonnegative(self, path: Path_, value: int, what: str) -> bool:
        """`what` names the count: a `Phrase` (see `owned`) or a word the game marks (N_)."""
        if value < 0:
            self.error("negative-count", path, Phrase(NEGATIVE, what=_said(what), value=value))
            return False
        return True

    def at_most(self, code: str, path: Path_, value: int, limit: int, what: str) -> bool:
        if value > limit:
            self.error(code, path, Phrase(TOO_MANY, what=_said(what), value=value, limit=limit))
            return False
        return True

    def done(self) -> None:
        """Raise `RulesBroken` if anything was found."""
        if not self.report.valid:
            raise RulesBroken(self.report)


def unique_names(source: Source, names: list[str], path: Path_ = ("players",)) -> None:
    """Every player named once; a second entry with the same name is reported where it stands."""
    seen: set[str] = set()
    problems = []
    for index, name in enumerate(names):
        if name in seen:
            problems.append(
                source.problem(
                    (*path, index, "name"), Phrase(N_("player {name} is listed twice"), name=repr(name))
                )
            )
        seen.add(name)
    if problems:
        raise InputError(problems)


def known_names(
    source: Source, refs: Iterable[tuple[Path_, str]], known: Collection[str], what: str = N_("player")
) -> None:
    """Every name used elsewhere in the file (sections, tokens, seat order) is a listed player."""
    expected = list(known) or Phrase.word(N_("none"))
    problems = [
        source.problem(path, unknown(what, name, expected)) for path, name in refs if name not in known
    ]
    if problems:
        raise InputError(problems)


def player_count(source: Source, count: int, allowed: tuple[int, int], game: str) -> None:
    low, high = allowed
    if not low <= count <= high:
        span = f"{low}" if low == high else f"{low}–{high}"
        said = Phrase(PLAYED_BY, game=game, span=span, count=count)
        raise InputError([source.problem(("players",), said)])
