"""The game contract: what a game gives pnpforge (`Game` and its hooks) and how pnpforge finds it.

A game is a folder holding `game.yaml` (its printed components, built by the print engine alone) and,
when it has rules pnpforge can check, deal or score, an `__init__.py` exporting `GAME = Game(...)`.
The engines, the CLI and the web page reach a game's rules only through its `GAME` (`load(id)`,
`of(folder)`); no engine imports a game, and a game imports only pnpforge.gamekit (docs/adding-a-game.md).
A game folder without `__init__.py` (a designer's print-only game) is a `Game` with no hooks.

Each hook is a function taking no argument that imports the game's module for it and returns a small
typed record (`SetupRules`, `Dealer`, `Scorer`, `Caravans`): a command that only scores never imports
the set-up checks, so start-up stays fast. The functions in those records are typed by the protocols
below (`Check`, `Picture`, `Deal`, `Score`), each saying what the engine expects of it.

A game's words are in the message catalogs (pnpforge.i18n): everything it marks with `N_` under its
folder has its id as catalog domain (`Game.domain`), and `Game.translator(lang)` says its texts in a
language, with the names its own data files print for its ids in that language (`names`, e.g. a
`name_ja` column). A game's id is its folder's name: a game that takes it from there (`folder_id`)
can be copied under another id and work unchanged.

Example (`games/<id>/__init__.py`):

    from pathlib import Path

    from pnpforge.gamekit import Game, SetupRules, folder_id

    def _setup() -> SetupRules:
        from . import checks
        return SetupRules(checks.Setup, checks.check, picture=checks.picture)

    HERE = Path(__file__).parent
    GAME = Game(folder_id(HERE), HERE, setup=_setup)
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
from typing import TYPE_CHECKING, Any, Generic, NamedTuple, Protocol, TypeVar

from pnpforge import catalog, i18n
from pnpforge.errors import InputError
from pnpforge.longlived import long_lived
from pnpforge.phrase import Phrase

if TYPE_CHECKING:  # the hooks' result types: their modules (and pydantic) load with the hook, not before
    from pnpforge.scoring.prompts import Field
    from pnpforge.scoring.sheet import ScoreResult
    from pnpforge.sourcefile import Source
    from pnpforge.validator.picture import BoardPicture
    from pnpforge.validator.report import Report

__all__ = [
    "BoardCounts",
    "Caravans",
    "Check",
    "Deal",
    "Dealer",
    "Game",
    "Picture",
    "Score",
    "Scorer",
    "SetupRules",
    "folder_id",
    "load",
    "of",
    "package_name",
]

COMMAND_LINE = "<command line>"
Names = Callable[[str], Mapping[str, str]]  # a language -> the game's data's names for its ids in it


S = TypeVar("S")  # a game's typed set-up (its pydantic `Setup`)
I = TypeVar("I")  # noqa: E741  # a game's typed score file (its pydantic `Input`)
S_in = TypeVar("S_in", contravariant=True)
I_in = TypeVar("I_in", contravariant=True)


class Check(Protocol[S_in]):
    """`check(setup, source) -> Report`: every rule violation of a typed set-up, not just the first.

    `Report.error(code, message, where)` for a violation, `Report.warn` for a warning; codes are stable.
    Semantic bad input (an unknown tile id, a cell given twice, a player number above the player count)
    is not a violation: raise `InputError([source.problem(("board", "tiles", 3, "tile"), message)])`;
    `source.problem(path, message)` points at the line and column of that key in the file.
    """

    def __call__(self, setup: S_in, source: Source, /) -> Report: ...


class Picture(Protocol[S_in]):
    """`picture(setup) -> BoardPicture`: the board as `setup --draw` and the page draw it, with the
    pieces and the marks of the violations (validator/picture.py)."""

    def __call__(self, setup: S_in, /) -> BoardPicture: ...


class Deal(Protocol):
    """`deal(players, seed, options) -> dict`: a random legal set-up as plain data in the set-up file
    format (the same dict `validate` accepts), using only `random.Random(seed)`: the same arguments
    give the same set-up. Build dicts in the order the keys should appear (`dump_yaml` keeps it).
    Unknown or bad options: `InputError.single(COMMAND_LINE, ...)`; `option_bool`, `option_int` and
    `reject_unknown_options` help. The player count is already within the game's range."""

    def __call__(self, players: int, seed: int, options: dict[str, str], /) -> dict[str, Any]: ...


class Score(Protocol[I_in]):
    """`score(data, source) -> ScoreResult`: count a typed score file.

    Check names used in other sections (`known_names`: InputError, exit 2), check the rules (`Rules`:
    stable codes, located; `Rules.done()` raises `RulesBroken`, exit 1), then fill a `PlayerScore` per
    player and build the result with `ScoreResult.ranked(...)`, giving the game's tie-breaks in order
    (`TieBreak.by(name, values)`). Before it runs, the engine has checked the game id, the `Input`
    model, player names given once, and a player count the game allows."""

    def __call__(self, data: I_in, source: Source, /) -> ScoreResult: ...


# The plain hook records are named tuples (BoardCounts, whose `count` a tuple's method would hide, a plain
# class): this module loads with every table command, and a dataclass costs it ~0.3 ms to create (its
# methods compiled from source), a named tuple a fifth of that.


class SetupRules(NamedTuple, Generic[S]):
    """What `validate`, `setup --draw` and the page's set-up check use (usually the game's checks.py).

    `model` types a set-up file: derive it from `SetupModel` (extra keys are errors), with `game: str`
    and field types such as `Coord`, `Side`, `Rotation` (a bad coordinate or rotation is a located
    error for free) and `players: Annotated[StrictInt, player_count(HERE, title)]` (the player count
    held to the range in the game's game.yaml). `check` and `picture`: see `Check` and `Picture`. Their
    texts are `Phrase`s of the game's catalog domain.
    """

    model: type[S]
    check: Check[S]
    picture: Picture[S] | None = None


@dataclass(frozen=True)
class Dealer:
    """What `setup GAME` and the page's deal use (usually the game's deal.py).

    `deal`: see `Deal`; `options` are the `--option` keys it takes and `choices()` the values each may
    take (for pickers; a key not there is free text); `labels` the words the page's deal form says for
    each key, messages of the game's catalog domain (`{"short": N_("Short game")}`; a key not there is
    said as itself, made readable); `values` the words it says for an option's values, by key and value
    (`{"short": {"true": N_("Yes (8 tasks)")}}`; a value not there is said as the game's word for it):
    a picker shows them while its `value=` stays the key, and a typed option's listed values are shown
    beside it with the key to type. The set-up file's keys and word values are
    messages of the game's catalog domain (the page's "What goes where" says them); `terms` names the
    msgid of a word the set-up file means differently from the game's other texts (Ankh's seat `god`
    is the god, a region's `god` on the score sheet its figure). `seats` are options given one of
    their `choices()` per seat, in seat order and comma-joined (Gods' `gods=red,blue`): the page offers
    a picker per seat.
    """

    deal: Deal
    options: tuple[str, ...] = ()
    choices: Callable[[], Mapping[str, Sequence[str]]] = dict
    terms: Mapping[str, str] = field(default_factory=dict)
    labels: Mapping[str, str] = field(default_factory=dict)
    values: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    seats: tuple[str, ...] = ()

    def word(self, text: str) -> Phrase:
        """A key or word value of the set-up file, to be said in a language (it reads as `text`)."""
        return Phrase.word(text, self.terms.get(text))


class Scorer(NamedTuple, Generic[I]):
    """What `score` and the page's score sheet use (usually the game's score.py).

    `model` types a score file: derive it from `Strict` (unknown keys are errors), with `game: str` and
    `players: list[...]` whose entries have a `name`; `Count` for counts (a non-whole number is
    malformed input, a negative one left for the rules to refuse), `Name`, `Flag`. `score`: see `Score`.
    `fields` are the questions `score GAME --interactive` and the page ask, each with its rule as help;
    `player_names()` what players go by when the game names them (Ankh's gods; empty: people's own
    names). Every English text of the sheet (labels, rules, choice values, breakdown keys, tie-breaks,
    notes, table titles and columns) is a message of the game's catalog domain, marked `N_("...")`; a
    `Phrase` (a sentence with numbers or names inside) is said by its template. The player-count range
    is `players` in the game's game.yaml.
    """

    model: type[I]
    score: Score[I]
    fields: Sequence[Field]
    player_names: Callable[[], Sequence[str]] = tuple


class BoardCounts:
    """Counts a score sheet written as data reads from a board state, when the counting is geometry the
    data vocabulary cannot say (Good Shepherds' farm board, Quo Vadis' map): given to
    `data_scorer(..., board=...)`.

    `key` is the score file's key holding the board (a set-up file's path, or the set-up inline: typed
    `str | dict`); `count(data, source, tables)` runs when the file gives it, before any rule is checked:
    it sets the fields it counts on `data` (the section's `tables:` at hand) and returns the tables to show
    under the sheet, raising `InputError` (exit 2) or `RulesBroken` (exit 1) itself, located in `source`.
    `shape(data, source)`, when given, runs when the file gives no board (what needs one is malformed).
    `fields` adds score-file keys only a board gives meaning to, or retypes a field (`{"workers":
    (list[Name], [])}`; `players` keys, and `game:` for the file's own). Import the game's module inside
    the functions: a score without a board never loads it."""

    __slots__ = ("count", "fields", "game_fields", "key", "shape")  # (a plain class: see SetupRules)

    def __init__(
        self,
        key: str,
        count: Callable[[Any, Source, Mapping[str, Any]], Sequence[Any]],
        shape: Callable[[Any, Source], None] | None = None,
        fields: Mapping[str, tuple[Any, Any]] | None = None,
        game_fields: Mapping[str, tuple[Any, Any]] | None = None,
    ) -> None:
        self.key = key
        self.count = count
        self.shape = shape
        self.fields: Mapping[str, tuple[Any, Any]] = fields or {}
        self.game_fields: Mapping[str, tuple[Any, Any]] = game_fields or {}


class Caravans(NamedTuple):
    """`pnpforge caravans FILE` (Ankh's, but generic): every legal caravan of a typed set-up, and one
    said as a line."""

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
        name = catalog.game_info(catalog.find_game(self.id)).get("title", self.id)
        return str(name.get(lang) or name.get("en", self.id)) if isinstance(name, dict) else str(name)

    def _hook(self, name: str, loader: Callable[[], H] | None, what: str, file: str) -> H:
        if loader is None:
            raise InputError.single(file, f"game {self.id!r} has no {what}")
        if name not in self._cache:
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
        return importlib.import_module(f"{package_name(self.id)}.{name}")


_loaded: dict[Path, Game] = {}
DATA_GAMES = "pnpforge.gamedata"  # builds a Game from a game.yaml's `scoring:` and `setup:` sections


def folder_id(folder: Path) -> str:
    """A game's id: the name of its folder (`GAME = Game(folder_id(HERE), HERE, ...)`)."""
    return folder.name


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


def of(found: catalog.GameFolder) -> Game:
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
    return of(catalog.find_game(game_id, file))
