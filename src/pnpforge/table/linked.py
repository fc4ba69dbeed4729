"""A set-up file used inside a score file: a board state or a map to count from.

A score file may name a set-up file (`map: my-map.yaml`, a path relative to the score file, inside its
folder: a score file someone else wrote never makes pnpforge read other files of yours) or hold one
inline (a mapping in the set-up format, `game:` optional). Either way it is read and type-checked by
the game's own set-up plug-in (pnpforge.table.setupfile), and every error points at the right line of
the right file.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pnpforge.errors import InputError
from pnpforge.i18n import N_
from pnpforge.phrase import Phrase
from pnpforge.sourcefile import FileRefError, Path_, Source, named_file
from pnpforge.table.setupfile import LoadedSetup, load_setup, load_source

__all__ = ["linked_setup"]

OUTSIDE = N_(
    "set-up file {name} is outside this score file's folder (expected a path inside it, or the set-up "
    "written inline)"
)


def _inner(source: Source, at: Path_, data: dict[str, Any], game: str) -> Source:
    """The part of `source` under `at` as a file of its own, positions kept."""
    positions = {path[len(at) :]: pos for path, pos in source.positions.items() if path[: len(at)] == at}
    positions.setdefault((), source.where(at))
    return Source(source.file, {"game": game, **data}, positions)


def linked_setup(source: Source, at: Path_, value: str | dict[str, Any], game: str) -> LoadedSetup:
    """Load the set-up named (or held) at `at` in a score file; it must be a `game` set-up."""
    if isinstance(value, dict):
        if value.get("game", game) != game:
            said = Phrase(N_("expected a {game} set-up here"), game=game)
            raise InputError([source.problem((*at, "game"), said)])
        return load_source(_inner(source, at, {k: v for k, v in value.items() if k != "game"}, game))
    folder = Path(source.file).parent
    try:  # the name usable and the file there (looked up, not opened), then within the folder
        path = named_file(folder, value, "set-up file", allow_outside=True)
    except FileRefError as exc:
        said = Phrase(
            N_("{reason} (paths are relative to this file)"), reason=exc.args[0] if exc.args else str(exc)
        )
        raise InputError([source.problem(at, said)]) from None
    if not path.is_relative_to(folder.resolve()):
        raise InputError([source.problem(at, Phrase(OUTSIDE, name=repr(value)))])
    loaded = load_setup(path)
    if loaded.game.id != game:
        template = N_("{file} is a {game} set-up, expected {expected}")
        said = Phrase(template, file=repr(str(path)), game=loaded.game.id, expected=game)
        raise InputError([source.problem(at, said)])
    return loaded
