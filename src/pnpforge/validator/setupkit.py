"""What a game's set-up checks and dealer build on: the set-up file's base model and field types, the
player-count check, and the dealer's `--option` helpers (games reach them through pnpforge.gamekit).

Reading, checking, dealing and writing set-up files for any game is pnpforge.table.setupfile's; the hooks
a game gives it are described in pnpforge.contract.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Annotated

from pnpforge import catalog, limits
from pnpforge.errors import InputError
from pnpforge.i18n import N_
from pnpforge.lightmodel import AfterValidator, BaseModel, ConfigDict, Key, StrictInt
from pnpforge.parsecache import derived
from pnpforge.phrase import Phrase

__all__ = [
    "COMMAND_LINE",
    "option_bool",
    "option_int",
    "player_count",
    "players_range",
    "reject_unknown_options",
    "Coord",
    "Rotation",
    "SetupModel",
    "Side",
]

COMMAND_LINE = "<command line>"

Axial = Annotated[StrictInt, Key(ge=-limits.CELL_COORD, le=limits.CELL_COORD)]
Coord = tuple[Axial, Axial]  # an axial hex [q, r]; 1.5 or "1" is an error, not a silent cast
Side = tuple[Coord, Coord]  # the hex side between two neighbouring cells, e.g. [[6, 3], [5, 4]]
Rotation = Annotated[StrictInt, Key(ge=0, le=5)]  # steps of 60 degrees clockwise


def players_range(folder: Path) -> tuple[int, int]:
    """`catalog.players_range` of the game in `folder`, kept beside its game.yaml as a fact
    (parsecache.derived): a game's checks read it as they are imported, and its header parsed costs
    more than the rest of a small set-up's reading."""
    spec = folder / catalog.SPEC_NAME
    try:
        stamp = spec.stat().st_mtime_ns
    except OSError:
        stamp = None
    return _range(folder, stamp)


@cache
def _range(folder: Path, stamp: int | None) -> tuple[int, int]:  # once per version of the game.yaml
    found = catalog.GameFolder(folder.name, folder, bundled=True)
    low, high = derived(found.spec_file, "players", lambda: list(catalog.players_range(found)))
    return int(low), int(high)


def player_count(folder: Path, title: str) -> AfterValidator:
    """The check of a game's `players` field: a whole number within its game.yaml's range, as in
    `Players = Annotated[StrictInt, player_count(HERE, "Gods")]`."""
    low, high = players_range(folder)
    span = f"{low}" if low == high else Phrase(N_("{low}-{high}"), low=low, high=high)

    def within(count: int) -> int:
        if not low <= count <= high:
            said = Phrase(N_("{game} is for {span} players, not {count}"), game=title, span=span, count=count)
            raise ValueError(said)
        return count

    return AfterValidator(within)


class SetupModel(BaseModel):
    """Base of every game's `Setup`: unknown keys are errors, so a typo never passes silently. A model
    checked by pydantic_core without pydantic's model machinery (pnpforge.lightmodel)."""

    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)


def option_bool(options: dict[str, str], key: str, default: bool = False) -> bool:
    if key not in options:
        return default
    value = options[key].lower()
    if value in ("true", "yes", "1", "on"):
        return True
    if value in ("false", "no", "0", "off"):
        return False
    raise InputError.single(
        COMMAND_LINE,
        Phrase(N_("--option {key}={value}: expected true or false"), key=key, value=repr(options[key])),
    )


def option_int(options: dict[str, str], key: str, default: int, low: int, high: int) -> int:
    if key not in options:
        return default
    try:
        value = int(options[key])
    except ValueError:
        value = low - 1
    if not low <= value <= high:
        raise InputError.single(
            COMMAND_LINE,
            Phrase(
                N_("--option {key}={value}: expected a whole number from {low} to {high}"),
                key=key,
                value=repr(options[key]),
                low=low,
                high=high,
            ),
        )
    return value


def reject_unknown_options(options: dict[str, str], known: tuple[str, ...]) -> None:
    unknown = sorted(set(options) - set(known))
    if unknown:
        allowed = list(known) or Phrase.word(N_("none"))
        said = Phrase(
            N_("unknown --option {key} (expected one of: {known})"), key=repr(unknown[0]), known=allowed
        )
        raise InputError.single(COMMAND_LINE, said)
