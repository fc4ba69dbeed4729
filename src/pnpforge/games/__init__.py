"""The game contract: one typed `Game` per game folder, and `load(game_id)` to reach it.

A game is a folder holding `game.yaml` (its printed components, built by the print engine alone) and,
when it has rules pnpforge can check, deal or score, an `__init__.py` exporting `GAME = Game(...)`.
The engines, the CLI and the web page reach a game's rules only through its `GAME`; no engine imports a
game. A game folder without `__init__.py` (a designer's print-only game) is a `Game` with no hooks.

Each hook is a function taking no argument that imports the game's module for it and returns a small
typed record (`SetupRules`, `Dealer`, `Scorer`, `Caravans`): a command that only scores never imports
the set-up checks, so start-up stays fast. A game's words are in the message catalogs (pnpforge.i18n):
everything it marks with `N_` under its folder has its id as catalog domain (`Game.domain`), and
`Game.translator(lang)` says its texts in a language, with the names its own data files print for its
ids in that language (`names`, e.g. a `name_ja` column). Inside a game folder, its modules import each other
relatively (`from . import checks`) and import from the engine only the names in its modules' `__all__`.

Example (`games/<id>/__init__.py`):

    from pathlib import Path

    from pnpforge.games import Dealer, Game, Scorer, SetupRules

    def _setup() -> SetupRules:
        from . import checks
        return SetupRules(checks.Setup, checks.check, picture=checks.picture)

    GAME = Game("my-game", Path(__file__).parent, setup=_setup)
"""

from __future__ import annotations

import importlib.util
import re
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from pnpforge.phrase import Phrase

if TYPE_CHECKING:
    from pnpforge.catalog import GameFolder
    from pnpforge.scoring.prompts import Field
    from pnpforge.scoring.sheet import ScoreResult
    from pnpforge.sourcefile import Source
    from pnpforge.validator.picture import BoardPicture
    from pnpforge.validator.report import Report

__all__ = ["Caravans", "Dealer", "Game", "Scorer", "SetupRules", "load", "of", "package_name"]

COMMAND_LINE = "<command line>"
Names = Callable[[str], Mapping[str, str]]  # a language -> the game's data's names for its ids in it


S = TypeVar("S")  # a game's typed set-up (its pydantic `Setup`)
I = TypeVar("I")  # noqa: E741  # a game's typed score file (its pydantic `Input`)


@dataclass(frozen=True)
class SetupRules(Generic[S]):
    """What `validate`, `setup --draw` and the page's set-up check use (the game's checks.py).

    `model` types a set-up file (derive it from validator.setupfile.SetupModel); `check` returns every
    rule violation; `picture` draws the board. Their texts are `Phrase`s of the game's catalog domain.
    """

    model: type[S]
    check: Callable[[S, Source], Report]
    picture: Callable[[S], BoardPicture] | None = None


@dataclass(frozen=True)
class Dealer:
    """What `setup GAME` and the page's deal use (the game's deal.py).

    `deal(players, seed, options)` is a legal set-up as plain data; `options` are the `--option` keys it
    takes and `choices()` the values each may take (for pickers; a key not there is free text). The
    set-up file's keys and word values are messages of the game's catalog domain (the page's "What goes
    where" says them); `terms` names the msgid of a word the set-up file means differently from the
    game's other texts (Ankh's seat `god` is the god, a region's `god` on the score sheet its figure).
    """

    deal: Callable[[int, int, dict[str, str]], dict[str, Any]]
    options: tuple[str, ...] = ()
    choices: Callable[[], Mapping[str, Sequence[str]]] = dict
    terms: Mapping[str, str] = field(default_factory=dict)

    def word(self, text: str) -> Phrase:
        """A key or word value of the set-up file, to be said in a language (it reads as `text`)."""
        return Phrase.word(text, self.terms.get(text))


@dataclass(frozen=True)
class Scorer(Generic[I]):
    """What `score` and the page's score sheet use (the game's score.py).

    `model` types a score file (derive it from scoring.Strict); `score` counts it; `fields` are the
    questions `score GAME --interactive` and the page ask; `player_names()` what players go by when the
    game names them (Ankh's gods; empty: people's own names). The sheet's texts are messages of the
    game's catalog domain.
    """

    model: type[I]
    score: Callable[[I, Source], ScoreResult]
    fields: Sequence[Field]
    player_names: Callable[[], Sequence[str]] = tuple


@dataclass(frozen=True)
class Caravans:
    """`pnpforge caravans FILE` (Ankh): every legal caravan of a set-up, and one said as a line."""

    find: Callable[[Any, Source], list[dict[str, Any]]]
    describe: Callable[[dict[str, Any]], str]


H = TypeVar("H")


@dataclass(frozen=True)
class Game:
    """One game: its id (the folder's name), its folder (game.yaml and data), and its optional hooks.

    `names(lang)` are the names the game's data files print for its ids in `lang` (its gods, its tiles),
    which its texts say in that language instead of a catalog message; {} for a language they lack.
    """

    id: str
    folder: Path
    setup: Callable[[], SetupRules[Any]] | None = None
    deal: Callable[[], Dealer] | None = None
    score: Callable[[], Scorer[Any]] | None = None
    caravans: Callable[[], Caravans] | None = None
    names: Names | None = None
    _cache: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    @property
    def domain(self) -> str:
        """The game's catalog domain: the msgctxt of every message marked under its folder."""
        return self.id

    def translator(self, lang: str) -> Callable[[str], str]:
        """The game's texts (checks, picture, deal, sheet) said in `lang`: its own catalog words first,
        then the engine's; English as written."""
        if lang == i18n.SOURCE:
            return str
        return i18n.translator(lang, self.domain, self.names(lang) if self.names else None)

    @contextmanager
    def speaking(self) -> Iterator[None]:
        """Around a call into the game's rules: an InputError they raise carries the game's catalog
        domain, so the edge says its messages in the game's words."""
        try:
            yield
        except InputError as error:
            error.domain = error.domain or self.domain
            raise

    def title(self, lang: str) -> str:
        """The game's name for people in `lang` (game.yaml's `title`, English when it lacks `lang`)."""
        from pnpforge import catalog

        name = catalog.game_info(catalog.find_game(self.id)).get("title", self.id)
        return str(name.get(lang) or name.get("en", self.id)) if isinstance(name, dict) else str(name)

    def _hook(self, name: str, loader: Callable[[], H] | None, what: str, file: str) -> H:
        if loader is None:
            raise InputError.single(file, f"game {self.id!r} has no {what}")
        if name not in self._cache:
            from pnpforge.longlived import long_lived

            with long_lived():  # a game module builds its pydantic models as it is imported
                self._cache[name] = loader()
        hook: H = self._cache[name]
        return hook

    def rules(self, file: str = COMMAND_LINE) -> SetupRules[Any]:
        """The set-up checks (InputError naming `file` when the game has none)."""
        return self._hook("setup", self.setup, "set-up checks", file)

    def dealer(self, file: str = COMMAND_LINE) -> Dealer:
        return self._hook("deal", self.deal, "set-up dealer", file)

    def scorer(self, file: str = COMMAND_LINE) -> Scorer[Any]:
        return self._hook("score", self.score, "score calculator", file)

    def caravan_finder(self, file: str = COMMAND_LINE) -> Caravans:
        return self._hook("caravans", self.caravans, "camel caravans", file)

    def module(self, name: str) -> ModuleType:
        """One of the game folder's own modules (e.g. "checks"), for tests of the game's internals;
        the engines use the hooks only."""
        import importlib

        return importlib.import_module(f"{package_name(self.id)}.{name}")


# imported after the classes: pnpforge.errors and i18n are light, and the hooks' types stay lazy
from pnpforge import i18n  # noqa: E402
from pnpforge.errors import InputError  # noqa: E402

_loaded: dict[Path, Game] = {}
DATA_GAMES = "pnpforge.gamedata"  # builds a Game from a game.yaml's `scoring:` and `setup:` sections


def package_name(game_id: str) -> str:
    """The import name a game folder is loaded under (ids may hold '-', which names cannot)."""
    return "pnpforge_game_" + re.sub(r"[^A-Za-z0-9]", lambda m: f"_{ord(m.group()):x}_", game_id)


def _import_folder(game_id: str, folder: Path) -> Any:
    name = package_name(game_id)
    if name in sys.modules:
        return sys.modules[name]
    init = folder / "__init__.py"
    spec = importlib.util.spec_from_file_location(name, init, submodule_search_locations=[str(folder)])
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    return module


def of(found: GameFolder) -> Game:
    """The `Game` of a game folder: its `__init__.py`'s `GAME`, or a print-only game when it has none."""
    game_id, folder = found.id, found.path.resolve()
    if folder in _loaded:
        return _loaded[folder]
    init = folder / "__init__.py"
    if not init.is_file():  # no Python: the rules sections of its game.yaml, if any (a plug-in, named
        # so the contract never imports the engines that run those sections)
        game = importlib.import_module(DATA_GAMES).game(game_id, folder)
    else:
        exported = getattr(_import_folder(game_id, folder), "GAME", None)
        if not isinstance(exported, Game):
            raise InputError.single(str(init), "a game's __init__.py must set GAME = Game(...)")
        game = exported
        if game.id != game_id:
            raise InputError.single(str(init), f"GAME's id is {game.id!r}; its folder says {game_id!r}")
    _loaded[folder] = game
    return game


def load(game_id: str, file: str = COMMAND_LINE) -> Game:
    """The game with this id (bundled, or in a --games-dir), or an InputError naming the ids there are."""
    from pnpforge import catalog

    return of(catalog.find_game(game_id, file))
