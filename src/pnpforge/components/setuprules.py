"""The `setup:` section of a game.yaml (set-up rules as data): its models, its words, its checks.

Apart from components/gamerules.py (the `scoring:` section) so that scoring never builds these models
nor a set-up check the score sheet's. docs/setups.md describes the vocabulary; validator/rulebook.py runs it.
"""

from typing import Annotated, Any, Literal

from pnpforge.components.sections import (
    Lang,
    LocalText,
    Said,
    Strict,
    Text,
    Word,
    english,
    message_problems,
)
from pnpforge.errors import Problem
from pnpforge.i18n import N_
from pnpforge.lightmodel import Key as Field
from pnpforge.lightmodel import StrictBool, StrictInt
from pnpforge.phrase import Phrase
from pnpforge.sourcefile import Path_, Source

__all__ = [
    "BOARD_NAMES",
    "RULE_KINDS",
    "Board",
    "PieceSpec",
    "RuleSpec",
    "SetupSection",
    "setup_problems",
    "setup_texts",
]

# names a set-up rule's message may say, by rule kind (docs/setups.md lists them)
BOARD_NAMES = ("players",)


RULE_KINDS = (
    "count",
    "on-terrain",
    "not-adjacent",
    "adjacent-required",
    "max-group",
    "connected",
    "regions-at-least",
    "fixed",
    "one-per-cell",
)
Selector = Word | list[Word]
KeyPart = Literal["terrains", "pieces", "players"]
KEY_PARTS: tuple[KeyPart, ...] = ("terrains", "pieces", "players")  # what a set-up picture's key lists


class PieceSpec(Strict):
    label: LocalText
    mark: Literal["token", "cube", "pyramid", "disc", "ring", "cylinder"] = "token"
    counts: dict[Annotated[str, Field(pattern=r"^[0-9]{1,2}$")], StrictInt] = Field(
        default_factory=dict, description="player count -> pieces each player has (none: any number)"
    )


class Placed(Strict):
    piece: Word
    at: tuple[StrictInt, StrictInt]
    player: StrictInt | None = None


class RuleSpec(Strict):
    """One rule of the vocabulary; each kind reads only its own parameters (docs/setups.md)."""

    kind: str
    code: Word
    message: LocalText
    pieces: Selector | None = None
    to: Selector | None = None
    terrain: Word | list[Word] | None = None
    most: StrictInt | None = None
    least: StrictInt | None = None
    at_least: StrictInt | None = None
    placed: list[Placed] | None = None
    crossed: StrictBool | None = Field(None, description="only the pieces crossed out (true) or not (false)")
    per: Literal["pair", "piece"] | None = Field(
        None, description="not-adjacent: one break per pair or per piece"
    )
    spots: Word | None = Field(None, description="fixed: the board's list of printed spots {at, player}")
    each: LocalText | None = Field(None, description="connected: how {bodies} says each group")
    marks: Literal["apart", "groups"] | None = Field(None, description="connected: what the break marks")


class Board(Strict):
    """The board's cells: the spec's own `hexmap` element (`hexmap: COMPONENT`, its cells as it prints
    them), or a YAML data file of the game read the way a hexmap's `source` reads one."""

    hexmap: str | None = Field(None, description="a component of this game.yaml holding a `hexmap` element")
    built: StrictBool = Field(False, description="the game's own code builds the board and hands it over")
    data: str | None = Field(None, description="YAML file beside game.yaml, e.g. farm.yaml")
    list: str = Field("cells", description="Dotted key of the list of items")
    match: dict[str, str] = Field(default_factory=dict, description="Pick items with these fields")
    cells: str = Field("", description="Key of the cell list in each item; '' (default) if items are cells")
    terrain: str = Field("terrain", description="Key of a cell's terrain in each item")


class SetupSection(Strict):
    board: Board
    pieces: dict[Word, PieceSpec] = Field(default_factory=dict, max_length=50)
    rules: list[RuleSpec] = Field(default_factory=list, max_length=100)
    title: LocalText = ""
    key: LocalText = ""
    terrain_colours: dict[Word, str] = Field(default_factory=dict)
    player_colours: list[str] = Field(default_factory=lambda: ["red", "blue", "green", "yellow", "black"])
    words: list[Text] | dict[Text, dict[Lang, str]] = Field(
        default_factory=dict, description="words said as data (the terrains on the picture's key), translated"
    )
    cell_mm: float = Field(9.0, gt=2, le=40)
    legend: list[KeyPart] = Field(
        default_factory=lambda: list(KEY_PARTS),
        description="what the picture's key lists before its `key` line",
    )
    key_colour: str = Field("white", description="the swatch beside the `key` line: a terrain or a colour")


# the parameters each rule kind takes (required ones first, then optional)
RULE_PARAMETERS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "count": (("pieces",), ("most", "least", "crossed")),
    "on-terrain": (("pieces", "terrain"), ("crossed",)),
    "not-adjacent": (("pieces",), ("to", "crossed", "per")),
    "adjacent-required": (("pieces", "to"), ("crossed",)),
    "max-group": (("pieces", "most"), ("crossed",)),
    "connected": (("terrain",), ("each", "marks")),
    "regions-at-least": (("pieces", "at_least"), ("crossed",)),
    "fixed": ((), ("placed", "spots", "pieces")),  # `placed`, or `spots` with one of `pieces`
    "one-per-cell": ((), ()),
}
# the `{names}` each rule kind's message may use
RULE_NAMES: dict[str, tuple[str, ...]] = {
    "count": ("player", "piece", "count", "most", "least"),
    "on-terrain": ("cell", "piece", "terrain", "player"),
    "not-adjacent": ("a", "b", "piece", "other"),  # per piece: {b} is the first `to` piece beside it
    "adjacent-required": ("cell", "piece", "to"),
    "max-group": ("cells", "count", "most"),
    "connected": ("terrain", "groups", "cells", "bodies"),
    "regions-at-least": ("cells", "count", "least"),
    "fixed": ("cell", "piece", "player"),
    "one-per-cell": ("cell", "count", "what"),
}
# the `{names}` a `connected` rule's `each` may use (one group of its cells)
EACH_NAMES = ("number", "size", "parts", "cells")
PARAMETERS = (
    "pieces",
    "to",
    "terrain",
    "most",
    "least",
    "at_least",
    "placed",
    "crossed",
    "per",
    "spots",
    "each",
    "marks",
)


def setup_texts(section: SetupSection) -> Said:
    """Every text set-up rules say, by its English: pieces, rule messages, the picture's title and key."""
    said: Said = [(name, spec.label) for name, spec in section.pieces.items()]
    said += [(english(spec.label), spec.label) for spec in section.pieces.values()]
    said += [(english(rule.message), rule.message) for rule in section.rules]
    said += [(english(rule.each), rule.each) for rule in section.rules if rule.each is not None]
    said += [(english(text), text) for text in (section.title, section.key) if english(text)]
    said += [(terrain, None) for terrain in section.terrain_colours]
    given = section.words if isinstance(section.words, dict) else dict.fromkeys(section.words, {})
    said += [(word, {"en": word, **said_as}) for word, said_as in given.items()]
    return said


def _selector_problems(source: Source, path: Path_, selector: Any, pieces: set[str]) -> list[Problem]:
    for index, name in enumerate([selector] if isinstance(selector, str) else selector):
        if name not in pieces:
            at = path if isinstance(selector, str) else (*path, index)
            said = Phrase(
                N_("unknown piece {name} (expected one of: {known})"), name=repr(name), known=sorted(pieces)
            )
            return [source.problem(at, said)]
    return []


def _keys(source: Source, at: Path_) -> set[str]:
    node = source.data
    for part in at:
        node = node.get(part) if isinstance(node, dict) and isinstance(part, str) else None
    return set(node) if isinstance(node, dict) else set()


def _fixed_problems(source: Source, here: Path_, rule: RuleSpec) -> Problem | None:
    """A `fixed` rule lists its pieces (`placed`) or names the board's spots and their one piece."""
    if (rule.placed is None) == (rule.spots is None):
        said = Phrase.word(
            N_("rule fixed needs `placed: [...]` or `spots: LIST` with `pieces: PIECE` (one of them)")
        )
        return source.problem(here, said)
    if rule.spots is not None and not isinstance(rule.pieces, str):
        said = Phrase.word(N_("rule fixed with `spots` needs `pieces: PIECE`, the one piece printed there"))
        return source.problem((*here, "pieces") if rule.pieces is not None else here, said)
    if rule.placed is not None and rule.pieces is not None:
        said = Phrase(
            N_("rule {kind} takes no {name} (it takes: {known})"),
            kind=rule.kind,
            name=repr("pieces"),
            known=["placed"],
        )
        return source.problem((*here, "pieces"), said)
    return None


def setup_problems(section: SetupSection, source: Source, at: Path_ = ("setup",)) -> list[Problem]:
    """What a type cannot say about set-up rules: rule kinds, their parameters, pieces, messages."""
    problems: list[Problem] = []
    pieces = set(section.pieces)
    named = bool(pieces) or section.board.built  # no pieces (not a built board) is the one problem said
    board = section.board
    if (board.hexmap is not None) + (board.data is not None) + board.built != 1:
        said = Phrase.word(
            N_("expected the board as `hexmap: COMPONENT`, `data: FILE` or `built: true` (one of them)")
        )
        problems.append(source.problem((*at, "board"), said))
    if not section.pieces and not board.built:  # a set-up file of the game lists pieces of these kinds
        said = Phrase.word(
            N_("expected at least one piece under `pieces` (only a built board's rules need none)")
        )
        problems.append(source.problem((*at, "pieces") if "pieces" in _keys(source, at) else at, said))
    for index, rule in enumerate(section.rules):
        here = (*at, "rules", index)
        if rule.kind not in RULE_PARAMETERS:
            said = Phrase(
                N_("unknown rule kind {kind} (expected one of: {known})"),
                kind=repr(rule.kind),
                known=list(RULE_KINDS),
            )
            problems.append(source.problem((*here, "kind"), said))
            continue
        required, optional = RULE_PARAMETERS[rule.kind]
        given = [p for p in PARAMETERS if getattr(rule, p) is not None]
        missing = [p for p in required if p not in given]
        extra = [p for p in given if p not in required and p not in optional]
        if missing:
            said = Phrase(N_("rule {kind} needs {names}"), kind=rule.kind, names=missing)
            problems.append(source.problem(here, said))
            continue
        if extra:
            said = Phrase(
                N_("rule {kind} takes no {name} (it takes: {known})"),
                kind=rule.kind,
                name=repr(extra[0]),
                known=[*required, *optional],
            )
            problems.append(source.problem((*here, extra[0]), said))
            continue
        if rule.kind == "fixed":
            fixed = _fixed_problems(source, here, rule)
            if fixed:
                problems.append(fixed)
                continue
        if rule.each is not None:
            problems.extend(message_problems(source, (*here, "each"), rule.each, EACH_NAMES))
        for key in ("pieces", "to"):
            value = getattr(rule, key)
            if value is not None and named:
                problems.extend(_selector_problems(source, (*here, key), value, pieces))
        for p_index, placed in enumerate(rule.placed or [] if named else []):
            problems.extend(
                _selector_problems(source, (*here, "placed", p_index, "piece"), placed.piece, pieces)
            )
        problems.extend(message_problems(source, (*here, "message"), rule.message, RULE_NAMES[rule.kind]))
    return problems
