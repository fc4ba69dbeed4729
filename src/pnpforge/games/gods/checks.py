"""Gods: the set-up file and its rule checks (Gods rulebook, settled by docs/games/gods.md, Rules decisions).

A set-up file lists the tiles on the table (`board`, each a hex cell), the players' gods in seat order and
the draw pile: an ordered `stack` (top first) or, for the rulebook's bag variant, an unordered `bag`.
`stage: opening` (the default) means the board must be exactly the opening layout and the pile complete;
`stage: play` describes a game under way: only what any position must obey is checked.

Codes: tile-overlap, tiles-disconnected, opening-layout, end-tile-position, god-marker, tile-count,
tile-not-placeable. Tile ids, colours and counts come from the print spec's tiles.csv and
tokens.csv beside this file (the rulebook's counts stand in where they are missing).

Stays Python, not game.yaml's `setup:` (docs/setups.md): a set-up places whole tiles in layouts and
stacks, which the data rules (pieces on one board's cells) do not describe. Its score sheet is data.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import cache
from itertools import combinations
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Literal

from pnpforge.gamekit import (
    N_,
    Coord,
    Hex,
    InputError,
    Phrase,
    Report,
    SetupModel,
    Source,
    StrictInt,
    components,
    field_validator,
    folder_id,
    hex_adjacency,
    hexgrid,
    kit,
    player_count,
    series,
    unknown,
)

if TYPE_CHECKING:  # the picture's names are imported by `picture`: checking never draws
    from pnpforge.gamekit import BoardPicture

GAME = folder_id(Path(__file__).parent)  # the game's id: its folder's name
Players = Annotated[StrictInt, player_count(Path(__file__).parent, "Gods")]  # game.yaml's range
HERE = Path(__file__).parent
# The rulebook's component list (内容), used only where the print spec's CSVs are missing: kind -> count
# per colour (temple, people) or in all.
END_TILE = "game-end"
END_ZONE = 3  # the game-end tile is shuffled into the bottom three of the stack
NOT_ON_BOARD = ("storm", "extra-action", "game-end")  # storm is discarded, extra action kept, end ends

# the violations, as templates (a `Phrase` each) said in the catalogs (locale/*.po): the
# page's set-up check and `validate --lang ja` (Gods rulebook, 内容, ゲームの準備, 民族を配置する,
# 神殿を配置する)
OVERLAP = N_("{count} tiles on cell {cell}: {names}")
APART = N_("the tiles form {count} separate groups (sizes {sizes})")
NOT_PLACED = N_("a {tile} tile is never placed on the board")
TEMPLES = N_("the opening has temples {found}; expected one of each player's god: {gods}")
OTHERS = N_("the {players}-player opening has {wanted} besides the temples; found {found}")
SHAPE = N_("the {players}-player opening is {shape}")
FOUR = N_(
    "the 4-player opening is two adjacent pairs of temples that do not touch, with the wilderness "
    "touching both pairs"
)
MARKERS = N_("{count} {colour} god markers on the board; only {limit} exist")
NOT_PEOPLE = N_("a god marker on a {tile} tile: only people tiles carry them")
NO_SUCH_GOD = N_("a {marker} marker at {at}, but no player is the {marker} god")
ONLY = N_("the people at {at} touch only {only} temples, so they carry the {only} marker (found {found})")
SEVERAL = N_("the people at {at} touch {near} temples: their marker is one of those or none (found {marker})")
AND = N_("{text} and {more}")
UNREACHED = N_(
    "the {marker} marker at {at} cannot have spread there: no chain of touching people tiles leads to "
    "a {marker} temple"
)
UNUSED_GOD = N_("no player is the {colour} god, so its temples stay in the box")
TEMPLE_COUNT = N_("{count} {colour} temples on the board; each god has {most}")
TEMPLE_IN_PILE = N_("{count} {tile} in the draw pile: temples are each player's own supply")
TILE_COUNT = N_("{total} {tile} tiles on the {where}; the game has {count}")
BAG_END = N_("the bag variant is played without the game-end tile")
END_MISSING = N_("the game-end tile is missing: it lies in the bottom {zone} of the stack")
END_TWICE = N_("{count} game-end tiles in the stack; the game has 1")
END_HIGH = N_(
    "the game-end tile is number {number} from the bottom of the stack (expected within the bottom {zone})"
)
# the set-up picture's title and pile line (`picture`), as templates
PICTURE_TITLE = N_("Gods: {players} players ({gods}), {stage}")
PILE = N_("{count} tiles in the {pile}")

# words said as data (set-up keys and values, kinds, labels, names of fields): marked for the
# catalogs (locale/*.po), where each language says them in the game's words
DATA_WORDS = (
    N_("one wilderness tile"),
    N_("no other tiles"),
    N_("none"),
    N_("two adjacent temples"),
    N_("three temples each touching the other two"),
    N_("board and draw pile"),
    N_("board"),
    N_("play"),
    N_("solid: temple"),
    N_("hatched: people"),
    N_("people"),
    N_("disc: god marker"),
    *(N_("red"), N_("blue"), N_("green"), N_("yellow")),
)
# the stage and the pile on the picture, looked up under these ids: the set-up file's `opening` and the
# score sheet's `stack` and `bag` are said in other words
STAGE_TERMS = {"opening": N_("opening board")}
PILE_TERMS = {"stack": N_("tile stack"), "bag": N_("tile bag")}


def names(lang: str) -> dict[str, str]:
    """Each tile id (`temple-red`, `wilderness`) → the name tiles.csv prints for it in `lang`
    (`name_<lang>`); {} for a language it lacks."""
    rows = [row for row, _ in kit.rows(HERE, "tiles.csv", "kind")]
    column = f"name_{lang}"
    return {"-".join(p for p in (r["kind"], r["colour"]) if p): r[column] for r in rows if r.get(column)}


def _w(word: str) -> Phrase:
    return Phrase.word(word)


# set-up pictures (`pnpforge setup --draw`): this game's terrain colours
PICTURE_COLOURS = {"land": "#e9dcb8"}


@dataclass(frozen=True)
class TileKind:
    id: str  # "temple-red", "wilderness", ...
    kind: str  # "temple", "people", "wilderness", "storm", "extra-action", "game-end"
    colour: str  # "" for uncoloured kinds
    count: int


@cache
def tile_kinds() -> dict[str, TileKind]:
    """Every tile id and how many exist: the kit's tiles.csv (kind, colour, count), no fallback."""
    out: dict[str, TileKind] = {}
    counts = kit.numbers(HERE, "tiles.csv", "count")
    for (row, _), count in zip(kit.rows(HERE, "tiles.csv", "kind"), counts, strict=True):
        kind, colour = row["kind"], row.get("colour", "")
        tile_id = f"{kind}-{colour}" if colour else kind
        out[tile_id] = TileKind(tile_id, kind, colour, count)
    return out


def tile_counts() -> dict[str, int]:
    return {k.id: k.count for k in tile_kinds().values()}


@cache
def colours() -> tuple[str, ...]:
    """The god colours: the colours temples come in (people colours are the same: a rules decision)."""
    return tuple(k.colour for k in tile_kinds().values() if k.kind == "temple")


@cache
def marker_limit() -> dict[str, int]:
    """God markers per colour: a god_markers.csv row per colour, each printed as often as game.yaml's
    god-markers component says (pnpforge.kit: no fallback)."""
    each = kit.copies(HERE, "god-markers")
    return dict.fromkeys(kit.column(HERE, "god_markers.csv", "colour").values, each)


def _known_tile(value: str) -> str:
    if value not in tile_kinds():
        raise ValueError(unknown(N_("tile"), value, ", ".join(tile_kinds())))
    return value


def _known_colour(value: str) -> str:
    if value not in colours():
        raise ValueError(unknown(N_("colour"), value, ", ".join(colours())))
    return value


class Placed(SetupModel):
    """One tile on the table: `tile` id, hex cell `at: [q, r]`, and the god marker on a people tile."""

    tile: str
    at: Coord
    marker: str | None = None

    _tile = field_validator("tile")(_known_tile)

    @field_validator("marker")
    @classmethod
    def _marker(cls, value: str | None) -> str | None:
        return None if value is None else _known_colour(value)


class Setup(SetupModel):
    game: str  # its game was found by it
    players: Players
    gods: list[str]
    variant: Literal["stack", "bag"] = "stack"
    stage: Literal["opening", "play"] = "opening"
    board: list[Placed]
    stack: list[str] | None = None
    bag: list[str] | None = None

    @field_validator("gods")
    @classmethod
    def _gods(cls, value: list[str]) -> list[str]:
        return [_known_colour(v) for v in value]

    @field_validator("stack", "bag")
    @classmethod
    def _pile(cls, value: list[str] | None) -> list[str] | None:
        return None if value is None else [_known_tile(v) for v in value]


def _input_problems(setup: Setup, source: Source) -> None:
    """Things a file can be wrong about that the model cannot see alone; all raised together."""
    problems = []
    if len(setup.gods) != setup.players:
        problems.append(
            source.problem(
                ("gods",),
                Phrase(
                    N_("{count} gods for {players} players (expected one each)"),
                    count=len(setup.gods),
                    players=setup.players,
                ),
            )
        )
    for index, colour in enumerate(setup.gods):
        if colour in setup.gods[:index]:
            problems.append(
                source.problem(
                    ("gods", index),
                    Phrase(N_("god {colour} chosen twice (expected each once)"), colour=repr(colour)),
                )
            )
    if setup.variant == "stack" and setup.bag is not None:
        problems.append(
            source.problem(("bag",), Phrase(N_("a bag belongs to `variant: bag` (expected `stack:`)")))
        )
    if setup.variant == "bag" and setup.stack is not None:
        problems.append(
            source.problem(("stack",), Phrase(N_("the bag variant draws from `bag:` (expected no `stack:`)")))
        )
    if problems:
        raise InputError(problems)


def _cell(h: Hex) -> list[int]:
    return [h[0], h[1]]


def _kind(tile: str) -> str:
    return tile_kinds()[tile].kind


def _colour(tile: str) -> str:
    return tile_kinds()[tile].colour


def check(setup: Setup, source: Source) -> Report:
    """Every rule a Gods set-up (or position, with `stage: play`) breaks."""
    _input_problems(setup, source)
    report = Report(GAME)
    occupied: dict[Hex, list[Placed]] = {}
    for placed in setup.board:
        occupied.setdefault(placed.at, []).append(placed)
    for cell, tiles in occupied.items():
        if len(tiles) > 1:
            message = Phrase(
                OVERLAP, count=len(tiles), cell=str(_cell(cell)), names=[_w(t.tile) for t in tiles]
            )
            report.error("tile-overlap", message, [_cell(cell)])
    groups = components(occupied, hex_adjacency(occupied))
    if len(groups) > 1:
        sizes = ", ".join(str(len(g)) for g in groups)
        where = {"groups": [sorted(_cell(c) for c in g) for g in groups]}  # the groups' cells, not sides
        report.error("tiles-disconnected", Phrase(APART, count=len(groups), sizes=sizes), where)
    for placed in setup.board:
        if placed.tile in NOT_ON_BOARD:
            report.error("tile-not-placeable", Phrase(NOT_PLACED, tile=_w(placed.tile)), [_cell(placed.at)])
    if setup.stage == "opening":
        _check_opening(setup, report)
    _check_markers(setup, occupied, report)
    _check_counts(setup, report)
    _check_end_tile(setup, report)
    return report


def _check_opening(setup: Setup, report: Report) -> None:
    """The rulebook's openings: 2 adjacent temples; 3 mutually adjacent; 4 as two pairs and a wilderness."""
    temples = [p for p in setup.board if _kind(p.tile) == "temple"]
    others = [p for p in setup.board if _kind(p.tile) != "temple"]
    wanted_others = ["wilderness"] if setup.players == 4 else []
    ok = True
    if Counter(_colour(t.tile) for t in temples) != Counter(setup.gods):
        found = [_w(c) for c in sorted(_colour(t.tile) for t in temples)] or _w("none")
        report.error(
            "opening-layout",
            Phrase(TEMPLES, found=found, gods=[_w(g) for g in setup.gods]),
            [_cell(t.at) for t in temples],
        )
        ok = False
    if sorted(p.tile for p in others) != wanted_others:
        wanted = "one wilderness tile" if wanted_others else "no other tiles"
        found = [_w(p.tile) for p in others] or _w("none")
        message = Phrase(OTHERS, players=setup.players, wanted=_w(wanted), found=found)
        report.error("opening-layout", message, [_cell(p.at) for p in others])
        ok = False
    if not ok:
        return
    cells = [t.at for t in temples]
    where = [_cell(c) for c in cells]
    if setup.players in (2, 3):
        apart = [(a, b) for a, b in combinations(cells, 2) if hexgrid.distance(a, b) != 1]
        if apart:
            shape = (
                "two adjacent temples" if setup.players == 2 else "three temples each touching the other two"
            )
            report.error("opening-layout", Phrase(SHAPE, players=setup.players, shape=_w(shape)), where)
        return
    wild = others[0].at
    if not any(_is_four_player_opening(pair, cells, wild) for pair in combinations(cells, 2)):
        report.error("opening-layout", Phrase(FOUR), [*where, _cell(wild)])


def _is_four_player_opening(pair: tuple[Hex, Hex], cells: list[Hex], wild: Hex) -> bool:
    other = tuple(c for c in cells if c not in pair)
    if len(other) != 2 or hexgrid.distance(*pair) != 1 or hexgrid.distance(*other) != 1:
        return False
    if any(hexgrid.distance(a, b) == 1 for a in pair for b in other):
        return False
    return all(any(hexgrid.distance(wild, c) == 1 for c in side) for side in (pair, other))


def _check_markers(setup: Setup, occupied: dict[Hex, list[Placed]], report: Report) -> None:
    """Markers the placement rules could not have produced, judged from the board as it stands.

    People and temples never leave the board, so a people tile next to temples of one god only must carry
    that god's marker; next to several, none or one of theirs; next to none, none or a god whose temple is
    reachable through a chain of touching people tiles (markers only spread along such chains).
    """
    people = {c: t[0] for c, t in occupied.items() if _kind(t[0].tile) == "people" and len(t) == 1}
    temples_by_cell = {c: _colour(t[0].tile) for c, t in occupied.items() if _kind(t[0].tile) == "temple"}
    in_use = Counter(p.marker for p in setup.board if p.marker)
    for colour, count in sorted(in_use.items()):
        limit = marker_limit().get(colour, 0)
        if count > limit:
            report.error("god-marker", Phrase(MARKERS, count=count, colour=_w(colour), limit=limit))
    reach = _reachable_gods(people, temples_by_cell)
    for placed in setup.board:
        if placed.marker is None and _kind(placed.tile) != "people":
            continue
        where = [_cell(placed.at)]
        if _kind(placed.tile) != "people":
            report.error("god-marker", Phrase(NOT_PEOPLE, tile=_w(placed.tile)), where)
            continue
        marker = placed.marker
        if marker is not None and marker not in setup.gods:
            report.error("god-marker", Phrase(NO_SUCH_GOD, marker=_w(marker), at=str(where[0])), where)
            continue
        near = sorted({temples_by_cell[n] for n in hexgrid.neighbours(placed.at) if n in temples_by_cell})
        if len(near) == 1:
            only = near[0]
            ran_out = marker is None and in_use[only] >= marker_limit().get(only, 0)
            if marker != only and not ran_out:
                message = Phrase(ONLY, at=str(where[0]), only=_w(only), found=_w(marker or "none"))
                report.error("god-marker", message, where)
        elif near and marker is not None and marker not in near:
            shown = series([_w(c) for c in near], AND)
            report.error(
                "god-marker", Phrase(SEVERAL, at=str(where[0]), near=shown, marker=_w(marker)), where
            )
        elif not near and marker is not None and marker not in reach.get(placed.at, set()):
            report.error("god-marker", Phrase(UNREACHED, marker=_w(marker), at=str(where[0])), where)


def _reachable_gods(people: dict[Hex, Placed], temples: dict[Hex, str]) -> dict[Hex, set[str]]:
    """For each people cell, the gods whose temples touch a chain of people tiles through it."""
    reach: dict[Hex, set[str]] = {c: set() for c in people}
    for group in components(people, hex_adjacency(people)):
        gods = {temples[n] for c in group for n in hexgrid.neighbours(c) if n in temples}
        for c in group:
            reach[c] = gods
    return reach


def _pile(setup: Setup) -> list[str] | None:
    return setup.stack if setup.variant == "stack" else setup.bag


def _check_counts(setup: Setup, report: Report) -> None:
    """Never more tiles than the box holds; at the opening, the whole draw pile is there."""
    on_board = Counter(p.tile for p in setup.board)
    pile = _pile(setup)
    in_pile = Counter(pile or [])
    temples = [k for k in tile_kinds().values() if k.kind == "temple"]
    for temple in temples:
        name, colour = temple.id, temple.colour
        if on_board[name] and colour not in setup.gods:
            report.error("tile-count", Phrase(UNUSED_GOD, colour=_w(colour)))
        if on_board[name] > temple.count:
            message = Phrase(TEMPLE_COUNT, count=on_board[name], colour=_w(colour), most=temple.count)
            report.error("tile-count", message)
        if in_pile[name]:
            report.error("tile-count", Phrase(TEMPLE_IN_PILE, count=in_pile[name], tile=_w(name)))
    complete = setup.stage == "opening" and pile is not None
    for name, count in tile_counts().items():
        if _kind(name) == "temple" or name == END_TILE:
            continue
        total = on_board[name] + in_pile[name]
        if total > count or (complete and total != count):
            where = "board and draw pile" if pile is not None else "board"
            message = Phrase(TILE_COUNT, total=total, tile=_w(name), where=_w(where), count=count)
            report.error("tile-count", message)


def _check_end_tile(setup: Setup, report: Report) -> None:
    pile = _pile(setup)
    if pile is None:
        return
    positions = [i for i, tile in enumerate(pile) if tile == END_TILE]
    if setup.variant == "bag":
        if positions:
            report.error("end-tile-position", Phrase(BAG_END))
        return
    if not positions:
        report.error("end-tile-position", Phrase(END_MISSING, zone=END_ZONE))
        return
    if len(positions) > 1:
        report.error("tile-count", Phrase(END_TWICE, count=len(positions)))
    for index in positions:
        from_bottom = len(pile) - index
        if from_bottom > END_ZONE:
            message = Phrase(END_HIGH, number=from_bottom, zone=END_ZONE)
            report.error("end-tile-position", message, {"stack_index": index})


TILE_MM = 12.0  # drawn tile circumradius: about the printed tile's size, so a PDF picture is to scale


def picture(setup: Setup) -> BoardPicture:
    """The board as drawn by `pnpforge setup gods --draw`: temples solid, people hatched, markers as discs."""
    # the drawing's names, imported only when a picture is drawn (checking never draws)
    from pnpforge.gamekit import (
        BoardPicture,
        CellShape,
        PieceMark,
        hex_centre,
        hex_points,
        legend_of,
    )

    gods = [_w(god) for god in setup.gods]
    title = Phrase(
        PICTURE_TITLE,
        players=setup.players,
        gods=gods,
        stage=Phrase.word(setup.stage, STAGE_TERMS.get(setup.stage)),
    )
    pic = BoardPicture(title, palette=PICTURE_COLOURS)
    for placed in setup.board:
        kind = _kind(placed.tile)
        points = hex_points(placed.at, TILE_MM)
        if kind == "temple":
            pic.cells.append(CellShape(points, _colour(placed.tile), icon="temple", icon_colour="white"))
            pic.legend.append(("grey", _w("solid: temple")))
        elif kind == "people":
            pic.cells.append(CellShape(points, _colour(placed.tile), label=_w("people"), pattern="hatch"))
            pic.legend.append(("grey", _w("hatched: people")))
        else:
            pic.cells.append(CellShape(points, "land", label=placed.tile))
        if placed.marker:
            centre = hex_centre(placed.at, TILE_MM)
            initial = Phrase.word(placed.marker[0].upper(), placed.marker)  # said as the colour's word
            pic.pieces.append(PieceMark(centre, "god", placed.marker, initial))
            pic.legend.append(("white", _w("disc: god marker")))
    pile = _pile(setup)
    if pile is not None:
        pic.legend.append(
            (
                "land",
                Phrase(PILE, count=len(pile), pile=Phrase.word(setup.variant, PILE_TERMS.get(setup.variant))),
            )
        )
    pic.legend = legend_of(pic.legend)
    return pic
