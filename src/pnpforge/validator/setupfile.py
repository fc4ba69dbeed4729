"""Set-up files: reading, checking and writing them, for any game, through the game's own plug-in.

How a game plugs in: its folder's `__init__.py` exports `GAME` (pnpforge.games), whose hooks are

`SetupRules` (usually from the game's checks.py)
  - `model`: a pydantic model of the set-up file. Derive it from `SetupModel` (extra keys forbidden) and
    declare `game: Literal["<id>"]`. Use the field types below (`Coord`, `Side`, `Rotation`) so bad
    coordinates or rotations are located errors for free, and `players: Annotated[StrictInt,
    player_count(HERE, title)]` so the player count is held to the range in the game's game.yaml.
  - `check(setup, source) -> Report`: every rule violation, not just the first (`Report.error(code, msg,
    where)`; `Report.warn` for warnings). Semantic bad input (an unknown tile id, a cell given twice, a
    player number above the player count) is not a violation: raise
    `InputError([source.problem(("board", "tiles", 3, "tile"), "unknown tile 'x' (expected one of ...)")])`.
    `source.problem(path, msg)` points at the line and column of that key in the file.
  - optional `picture(setup) -> BoardPicture` (validator/picture.py): what `setup --draw` renders.

`Dealer` (usually from the game's deal.py)
  - (the player-count range is the game's own: `players` in its game.yaml)
  - `deal(players: int, seed: int, options: dict[str, str]) -> dict`: a random legal set-up as plain
    data in the set-up file format (the same dict `validate` accepts), using only `random.Random(seed)`.
    Build dicts in the order the keys should appear: `dump_yaml` keeps that order. Unknown or bad
    options: raise `InputError.single(COMMAND_LINE, "...")`; `option_bool`/`option_int` help.

`Caravans` (Ankh only, but generic): `find(setup, source) -> list[dict]` and
`describe(caravan: dict) -> str`, for `pnpforge caravans FILE`.

The CLI (cli/check_cmds.py) calls only `check_file`, `deal_setup`, `load_setup` and `dump_yaml` below.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StrictInt

from pnpforge import catalog, games, limits
from pnpforge.errors import InputError
from pnpforge.games import Game, SetupRules
from pnpforge.i18n import N_
from pnpforge.phrase import Phrase
from pnpforge.sourcefile import Path_, Source, read_yaml, read_yaml_text, validate
from pnpforge.validator.report import Report

__all__ = [
    "COMMAND_LINE",
    "check_file",
    "check_loaded",
    "check_text",
    "deal_setup",
    "dump_yaml",
    "load_setup",
    "load_source",
    "option_bool",
    "option_int",
    "parse_options",
    "player_count",
    "reject_unknown_options",
    "Coord",
    "LoadedSetup",
    "Rotation",
    "SetupModel",
    "Side",
]

COMMAND_LINE = "<command line>"

MAX_COORD = 200  # far beyond any table; keeps board-wide searches (holes, outer edge) small
Axial = Annotated[StrictInt, Field(ge=-MAX_COORD, le=MAX_COORD)]
Coord = tuple[Axial, Axial]  # an axial hex [q, r]; 1.5 or "1" is an error, not a silent cast
Side = tuple[Coord, Coord]  # the hex side between two neighbouring cells, e.g. [[6, 3], [5, 4]]
Rotation = Annotated[StrictInt, Field(ge=0, le=5)]  # steps of 60 degrees clockwise
Seat = Annotated[StrictInt, Field(ge=1, le=99)]  # a seat number; no table seats 100


def player_count(folder: Path, title: str) -> AfterValidator:
    """The check of a game's `players` field: a whole number within its game.yaml's range, as in
    `Players = Annotated[StrictInt, player_count(HERE, "Gods")]`."""
    low, high = catalog.players_range(catalog.GameFolder(folder.name, folder, bundled=True))
    span = f"{low}" if low == high else Phrase(N_("{low}-{high}"), low=low, high=high)

    def within(count: int) -> int:
        if not low <= count <= high:
            said = Phrase(N_("{game} is for {span} players, not {count}"), game=title, span=span, count=count)
            raise ValueError(said)
        return count

    return AfterValidator(within)


class SetupModel(BaseModel):
    """Base of every game's `Setup`: unknown keys are errors, so a typo never passes silently."""

    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)


@dataclass
class LoadedSetup:
    game: Game
    rules: SetupRules[Any]
    setup: Any  # the game's own `Setup` model
    source: Source


def _long_list(data: Any, path: Path_ = ()) -> Path_ | None:
    """The path of the first list holding more than `limits.SETUP_LIST` entries, walking without recursion."""
    stack: list[tuple[Any, Path_]] = [(data, path)]
    while stack:
        node, at = stack.pop()
        if isinstance(node, list):
            if len(node) > limits.SETUP_LIST:
                return at
            stack.extend(((item, (*at, k)) for k, item in enumerate(node)))
        elif isinstance(node, dict):
            stack.extend(((value, (*at, key)) for key, value in node.items()))
    return None


def load_source(source: Source) -> LoadedSetup:
    found = catalog.game_of(source, "set-up file")
    game = games.of(found)
    rules = game.rules(source.file)
    long = _long_list(source.data)
    if long is not None:  # every game's checks then work on a board of bounded size
        size = len(_at(source.data, long))
        raise InputError(
            [
                source.problem(
                    (*long, limits.SETUP_LIST),
                    Phrase(
                        N_(
                            "{size} entries in one list (expected at most {most}; "
                            "see Work bounds in docs/spec.md)"
                        ),
                        size=size,
                        most=limits.SETUP_LIST,
                    ),
                )
            ]
        )
    with game.speaking():
        setup = validate(rules.model, source)
    return LoadedSetup(game, rules, setup, source)


def _at(data: Any, path: Path_) -> Any:
    for part in path:
        data = data[part]
    return data


def load_setup(path: str | Path) -> LoadedSetup:
    """Read and type-check a set-up file; any malformed input is an InputError located in the file."""
    return load_source(read_yaml(path, "setup"))


def check_loaded(loaded: LoadedSetup) -> Report:
    with loaded.game.speaking():
        return loaded.rules.check(loaded.setup, loaded.source)


def check_file(path: str | Path) -> Report:
    """Every rule violation of a set-up file (InputError when it cannot be read as one)."""
    return check_loaded(load_setup(path))


def check_text(text: str, file: str = "<set-up>") -> Report:
    return check_loaded(load_source(read_yaml_text(text, file, "setup")))


# -- dealing -----------------------------------------------------------------------------------------


def parse_options(pairs: tuple[str, ...] | list[str]) -> dict[str, str]:
    """`KEY=VALUE` strings from the command line; a pair without '=' or given twice is bad input."""
    options: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise InputError.single(
                COMMAND_LINE,
                Phrase(N_("--option {pair} is not KEY=VALUE (e.g. short=true)"), pair=repr(pair)),
            )
        if key.strip() in options:
            raise InputError.single(
                COMMAND_LINE, Phrase(N_("--option {key} given twice"), key=repr(key.strip()))
            )
        options[key.strip()] = value.strip()
    return options


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


def deal_setup(game_id: str, players: int, seed: int, options: dict[str, str]) -> dict[str, Any]:
    """A random legal set-up for `game_id` as plain data, the same for the same arguments."""
    found = catalog.find_game(game_id)
    dealer = games.of(found).dealer()
    low, high = catalog.players_range(found)
    if not low <= players <= high:
        raise InputError.single(
            COMMAND_LINE,
            Phrase(
                N_("{game} is for {low} to {high} players (got --players {players})"),
                game=found.id,
                low=low,
                high=high,
                players=players,
            ),
        )
    with games.of(found).speaking():
        return dealer.deal(players, seed, options)


# -- writing -----------------------------------------------------------------------------------------

_PLAIN = re.compile(r"^[A-Za-z_][A-Za-z0-9_.\-]*$")
_RESERVED = {"true", "false", "yes", "no", "on", "off", "null", "y", "n", "~"}
WIDTH = 110


def _scalar(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    text = str(value)
    if _PLAIN.match(text) and text.lower() not in _RESERVED:
        return text
    return json.dumps(text, ensure_ascii=False)  # a JSON string is a valid YAML double-quoted scalar


def _is_scalar(value: Any) -> bool:
    return value is None or isinstance(value, bool | int | float | str)


def _depth(value: Any) -> int:
    """List nesting: 0 scalar, 1 [q, r], 2 cells or a side, 3 a line of sides; -1 anything else."""
    if _is_scalar(value):
        return 0
    if isinstance(value, list | tuple):
        inner = [_depth(v) for v in value]
        return -1 if -1 in inner else 1 + max(inner, default=0)
    return -1


def _always_flow(value: Any) -> bool:
    """Scalar lists, cells, lists of cells and lines of sides stay on one line however long."""
    return isinstance(value, list | tuple) and 0 < _depth(value) <= 3


def _flow(value: Any) -> str:
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_scalar(k)}: {_flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_flow(v) for v in value) + "]"
    return _scalar(value)


def _flowable(value: Any, room: int) -> bool:
    if _is_scalar(value) or _always_flow(value):
        return True
    if isinstance(value, list | tuple) and _depth(value) > 0:
        return len(_flow(value)) <= room
    if isinstance(value, dict):
        return all(_is_scalar(v) or _always_flow(v) or isinstance(v, dict) for v in value.values()) and (
            len(_flow(value)) <= room
        )
    return False


def _emit(value: Any, indent: int, out: list[str]) -> None:
    pad = " " * indent
    if isinstance(value, dict):
        for key, item in value.items():
            head = f"{pad}{_scalar(key)}:"
            if _flowable(item, WIDTH - len(head) - 1):
                out.append(f"{head} {_flow(item)}")
            else:
                out.append(head)
                _emit(item, indent + 2, out)
    elif isinstance(value, list | tuple):
        for item in value:
            if _flowable(item, WIDTH - indent - 2):
                out.append(f"{pad}- {_flow(item)}")
            elif isinstance(item, dict):
                inner: list[str] = []
                _emit(item, indent + 2, inner)
                inner[0] = f"{pad}- {inner[0][indent + 2 :]}"
                out.extend(inner)
            else:
                out.append(f"{pad}-")
                _emit(item, indent + 2, out)
    else:
        out.append(f"{pad}{_scalar(value)}")


def dump_yaml(data: dict[str, Any], comment: str = "") -> str:
    """Deterministic YAML: keys in the dict's order, coordinate pairs in compact flow style."""
    lines = [f"# {line}" for line in comment.splitlines()] if comment else []
    _emit(data, 0, lines)
    return "\n".join(lines) + "\n"
