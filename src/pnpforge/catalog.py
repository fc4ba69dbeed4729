"""Finding games: a game is a folder holding `game.yaml`, bundled under `pnpforge/games/` or elsewhere.

This module finds game folders and reads their game.yaml header; the engines reach a game's own
code (set-up checks, dealer, score calculator) only through its `GAME` (pnpforge.contract).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from pnpforge import parsecache
from pnpforge.errors import InputError, unknown
from pnpforge.i18n import N_
from pnpforge.phrase import Phrase
from pnpforge.sourcefile import Source, decode_utf8, read_bytes, read_yaml_text

SPEC_NAME = "game.yaml"  # the file that makes a folder a game
BUNDLED_DIR = Path(__file__).parent / "games"
GAMES_DIR_ENV = "PNPFORGE_GAMES_DIR"
FILE_KINDS = (N_("set-up file"), N_("score file"))  # the user files that name their game


@dataclass(frozen=True)
class GameFolder:
    """A folder holding a game.yaml: its id, where it is, and whether pnpforge bundles it."""

    id: str
    path: Path
    bundled: bool

    @property
    def spec_file(self) -> Path:
        return self.path / SPEC_NAME


_extra_dirs: list[Path] = []
_found: dict[tuple[object, ...], GameFolder] = {}  # find_game's answers, by the folders' state


def _stamp(path: Path) -> int | None:
    try:
        return path.stat().st_mtime_ns
    except (OSError, ValueError):  # none there, or a name no file can have (a NUL in a file's game:)
        return None


def add_games_dir(path: str | Path) -> None:
    """Look for games in `path` too (its subfolders holding a game.yaml), after the bundled ones."""
    _extra_dirs.append(Path(path))


def _search_dirs() -> list[tuple[Path, bool]]:
    dirs = [(BUNDLED_DIR, True)]
    env = os.environ.get(GAMES_DIR_ENV)
    if env:
        dirs += [(Path(p), False) for p in env.split(os.pathsep) if p]
    dirs += [(p, False) for p in _extra_dirs]
    return dirs


def games() -> list[GameFolder]:
    """Every game found, bundled first, each id once (a bundled id is never shadowed)."""
    found: dict[str, GameFolder] = {}
    for folder, bundled in _search_dirs():
        if not folder.is_dir():
            continue
        for child in sorted(folder.iterdir()):
            if (child / SPEC_NAME).is_file() and child.name not in found:
                found[child.name] = GameFolder(child.name, child, bundled)
    return list(found.values())


def find_game(game_id: str, file: str = "<command line>") -> GameFolder:
    """The game with this id, or an InputError naming the ids there are.

    A game found is kept while every search folder's entry of that name is unchanged (its modification
    time: a game.yaml added or removed there, the folder itself added or removed) and its game.yaml is
    still there: the page asks for the same game on every request without listing the folders."""
    stamp = (game_id, *((str(folder), _stamp(folder / game_id)) for folder, _ in _search_dirs()))
    kept = _found.get(stamp)
    if kept is not None and kept.spec_file.is_file():
        return kept
    for game in games():
        if game.id == game_id:
            if len(_found) >= 256:
                _found.clear()
            _found[stamp] = game
            return game
    known = ", ".join(g.id for g in games()) or "none"
    raise InputError.single(file, unknown(N_("game"), game_id, known))


def game_of(source: Source, what: str) -> GameFolder:
    """The game a user file names in its `game:` key (`what` says which kind of file, for messages: one
    of `FILE_KINDS`)."""
    data = source.data
    if not isinstance(data, dict):
        said = Phrase(N_("a {what} must be a mapping starting with 'game: <id>'"), what=Phrase.word(what))
        raise InputError([source.problem((), said)])
    if "game" not in data:
        raise InputError([source.problem((), N_("missing key 'game' (expected e.g. 'game: gods')"))])
    game_id = data["game"]
    if not isinstance(game_id, str):
        said = Phrase(N_("'game' must be a game id (got {value})"), value=repr(game_id))
        raise InputError([source.problem(("game",), said)])
    try:
        return find_game(game_id, source.file)
    except InputError as error:
        beside = _spec_folder_beside(source.file, game_id)
        if beside is not None:
            return beside
        raise InputError([source.problem(("game",), p.message) for p in error.problems]) from None


def _spec_folder_beside(file: str, game_id: str) -> GameFolder | None:
    """A designer's spec folder named by a file kept in it or beside it (`my-game/score.yaml` or
    `my-game/../score.yaml` naming `game: my-game`): its parent becomes a games folder, as --games-dir."""
    here = Path(file).parent
    for folder in (here, here / game_id):
        if folder.name == game_id and (folder / SPEC_NAME).is_file():
            add_games_dir(folder.parent)
            return GameFolder(game_id, folder, False)
    return None


@cache
def _lines(path: Path, stamp: float) -> list[str]:
    """A game.yaml's lines (read once per version of the file)."""
    return decode_utf8(read_bytes(path, str(path)), str(path)).splitlines()


def _start(lines: list[str], key: str) -> int | None:
    return next((i for i, line in enumerate(lines) if line.startswith(f"{key}:")), None)


@cache
def _block(path: Path, stamp: float, key: str) -> Source | None:
    """One top-level block (`key:`) of a game.yaml, parsed alone, its lines numbered as in the file:
    specs run to many pages, the blocks a command needs to a few lines. None when the file has none.
    A bundled game's block is parsed once per version of its game.yaml, then read from the parse cache
    (pnpforge.parsecache) with its text, as the package's own data files are."""

    def parse() -> Source | None:
        text = _block_text(path, stamp, key)
        return None if text is None else read_yaml_text(text, str(path))

    if parsecache.cache_file(path) is None:  # a designer's game.yaml: parsed each time
        return parse()

    def parsed() -> dict[str, Any] | None:
        text = _block_text(path, stamp, key)
        return None if text is None else {"text": text, "data": read_yaml_text(text, str(path)).data}

    kept = parsecache.derived(path, f"{key}-block-text", parsed)
    if kept is None:
        return None
    if not isinstance(kept, dict) or not isinstance(kept.get("text"), str) or "data" not in kept:
        return parse()  # not what `parsed` keeps: parsed here instead
    return Source(str(path), kept["data"], None, kept["text"])  # (positions found from the text if asked)


def _block_text(path: Path, stamp: float, key: str) -> str | None:
    """The block's lines, after as many blank lines as precede it in the file (so that a problem in the
    block is reported at its line in the file); None when the file has no such block."""
    lines = _lines(path, stamp)
    start = _start(lines, key)
    if start is None:
        return None
    end = next((i for i in range(start + 1, len(lines)) if lines[i][:1] not in ("", " ", "#")), len(lines))
    return "\n" * start + "\n".join(lines[start:end]) + "\n"


def _header(path: Path, stamp: float) -> dict[str, Any]:
    """The `game:` block of a game.yaml."""
    source = _block(path, stamp, "game")
    block = source.data.get("game") if source is not None and isinstance(source.data, dict) else None
    return block if isinstance(block, dict) else {}


def spec_block(game: GameFolder, key: str) -> Source | None:
    """A top-level block of the game's game.yaml (`scoring`, `setup`) as a Source whose data is
    `{key: ...}`, or None when the game.yaml has no such block (or no game.yaml)."""
    try:
        stamp = game.spec_file.stat().st_mtime
    except OSError:
        return None
    return _block(game.spec_file, stamp, key)


def has_block(game: GameFolder, key: str) -> bool:
    """Whether the game's game.yaml has a top-level block `key:` (a line that starts so), read but not
    parsed: `validate` of a game with a score sheet never parses its `scoring:` section."""
    try:
        stamp = game.spec_file.stat().st_mtime
    except OSError:
        return False
    return _start(_lines(game.spec_file, stamp), key) is not None


def game_info(game: GameFolder) -> dict[str, Any]:
    """A game's id, title and players from its game.yaml, or {} when that cannot be read.

    The one place the player-count range lives: set-up dealing, set-up checks and scoring read it here.
    """
    try:
        return _header(game.spec_file, game.spec_file.stat().st_mtime)
    except (InputError, OSError):
        return {}


def players_range(game: GameFolder) -> tuple[int, int]:
    """The lowest and highest player count in the game's game.yaml (1-99 when it names none)."""
    players = game_info(game).get("players")
    if isinstance(players, list) and len(players) == 2 and all(isinstance(n, int) for n in players):
        return players[0], players[1]
    return 1, 99
