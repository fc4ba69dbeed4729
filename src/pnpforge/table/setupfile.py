"""Set-up files for any game: reading and type-checking one through its game's `SetupRules`, checking
it, dealing one with its game's `Dealer`, and writing one (deterministic YAML).

A game reaches this only through its hooks (pnpforge.contract); what those hooks build on is
pnpforge.validator.setupkit. The CLI (cli/check_cmds.py) and the page (web/board.py) call `check_file`,
`deal_setup`, `load_setup`, `load_source`, `check_loaded` and `dump_yaml` below.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, NamedTuple

from pnpforge import catalog, contract, limits
from pnpforge.contract import Game, SetupRules
from pnpforge.errors import InputError
from pnpforge.i18n import N_
from pnpforge.phrase import Phrase
from pnpforge.sourcefile import Path_, Source, read_yaml, read_yaml_text, validate
from pnpforge.validator.report import Report
from pnpforge.validator.setupkit import COMMAND_LINE, players_range

__all__ = [
    "check_file",
    "check_loaded",
    "check_text",
    "deal_setup",
    "dump_yaml",
    "load_setup",
    "load_source",
    "parse_options",
    "LoadedSetup",
]


class LoadedSetup(NamedTuple):
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
    game = contract.of(found)
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


def deal_setup(game_id: str, players: int, seed: int, options: dict[str, str]) -> dict[str, Any]:
    """A random legal set-up for `game_id` as plain data, the same for the same arguments."""
    found = catalog.find_game(game_id)
    dealer = contract.of(found).dealer()
    low, high = players_range(found.path)
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
    with contract.of(found).speaking():
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
