"""The Oracle of Delphi: the set-up file model and every set-up rule (Delphi rulebook).

Where the rulebook is open, docs/games/delphi.md, "Rules decisions", says what is decided and why.

Board facts come from tiles.yaml beside this file (the same data the printed tiles use). Checks run on
plain hex graphs, not shapely, so a full board validates in a few milliseconds (the dealer's tests
validate hundreds of boards).

The water's rule is data: game.yaml's `setup:` section (a `connected` rule, code water-disconnected),
run on the board this module builds (`_check_water` hands it the built spaces through gamekit).

The rest stays Python, and why: the board is built from turned tiles of tiles.yaml (the data rules
read a board's cells, not tiles to place), and the pieces belong to islands, colours and seats, not to
cells: one of each colour per island kind, offerings and monsters spread evenly, temples once per colour
per temple space, statues on their city, Zeus on his tile among six water spaces, the cities evenly round
the edge, the short game's removed tasks and each seat's Zeus tiles and favour. None of these is a rule
of the vocabulary's kinds (pieces on cells of a kind, counts per player, adjacency, groups).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal, NamedTuple

from pnpforge.gamekit import (
    N_,
    BaseModel,
    ConfigDict,
    Coord,
    Hex,
    InputError,
    Path_,
    Phrase,
    Report,
    Rotation,
    SetupBoard,
    SetupModel,
    SetupTable,
    Source,
    StrictBool,
    StrictInt,
    data_rules,
    folder_id,
    hex_outer_edge,
    hexgrid,
    kit,
    player_count,
    quoted,
    read_yaml,
    validate,
)
from pnpforge.gamekit import Key as Field

if TYPE_CHECKING:  # the picture's names are imported by `picture`: checking never draws
    from pnpforge.gamekit import BoardPicture

GAME = folder_id(Path(__file__).parent)  # the game's id: its folder's name
Players = Annotated[
    StrictInt, player_count(Path(__file__).parent, "The Oracle of Delphi")
]  # game.yaml's range
TILES_FILE = Path(__file__).with_name("tiles.yaml")
COLOURS: tuple[str, ...] = ("red", "yellow", "green", "blue", "pink", "black")
Colour = Literal["red", "yellow", "green", "blue", "pink", "black"]
Kind = Literal["water", "shallows", "shrine", "temple", "offering", "statue", "monster", "city"]
Task = Literal["shrine", "statue", "offering", "monster"]
TASK_ORDER: tuple[str, ...] = ("shrine", "statue", "offering", "monster")  # Zeus tiles, left to right
REMOVAL_ORDER: tuple[str, ...] = ("statue", "shrine", "monster", "offering")  # short game, Delphi rulebook
TASKS_EACH = 3
ISLAND_TILES = 12
CITY_TILES = 6
HERE = Path(__file__).parent
# island tiles come in a colour per seat (4: named by seat 1-4), as island_tiles.csv prints them
PLAYER_COLOURS = len(set(kit.column(HERE, "island_tiles.csv", "player").values))
FAVOUR_FIRST_SEAT = 3  # seats get 3, 4, 5, 6 favour tokens
SEA = ("water", "shallows")
UNEVEN_GAP = (30.0, 90.0)  # degrees between neighbouring cities (ideal 60) outside which we warn
HEX_MM = 12.0  # drawing: hex circumradius in mm (about 21 mm across the flats)

# the violations, as templates (a `Phrase` each) said in the catalogs (locale/*.po): the page's set-up
# check and `validate --lang LANG`
# (Delphi rulebook, セットアップ; the city pieces by their printed name シティ)
OVERLAP = N_("tiles {ids} overlap at {at}")
TILE_COUNT = N_("the board needs {wanted} {group} tiles, each once (got {count}{detail})")
REPEATED = N_("; placed more than once: {tiles}")
CITY_COLOURS = N_("one city tile per colour (twice: {colours})")
ZEUS_AT = N_("Zeus stands at {at}; he belongs on {where}")
ZEUS_CENTRE = N_("the Zeus tile's centre {at}")
NO_ZEUS_TILE = N_("a Zeus tile (none is placed)")
ZEUS_WATER = N_("Zeus at {at} needs six water neighbours (has {count}; not water: {missing})")
INLAND = N_("the {colour} city at {at} is not on the board's outer edge")
UNEVEN = N_("the {a} and {b} cities are {gap} degrees apart around the board (even spacing is 60)")
NOT_ON_ISLAND = N_("{plural} at {at}, which is not a {kind} island")
SAME_COLOUR = N_("the {kind} island at {at} holds two or more {colours} {plural}")
HOLDS = N_("the {kind} island at {at} holds {count} {plural}; it should hold {wanted}")
COLOUR_COUNT = N_("{colour} {count}")
EACH_COLOUR = N_("each colour needs {players} {plural} (one per player); got {shown}")
TEMPLE_OFF = N_("the {colour} temple at {at} is not on a temple space")
TEMPLES = N_(
    "one temple of each colour on each of the {count} temple spaces (colours not exactly once: {wrong}; "
    "empty temple spaces: {empty})"
)
THE_CITY = N_("the {colour} city")
STATUE_OFF = N_("{colour} statues at {at} ({what}); they belong on the {colour} city")
STATUES = N_("each colour needs {each} statues on its city; got {shown}")
ISLAND_TILE_OFF = N_("the island tile at {at} is not on a shrine space")
SEAT_COLOUR = N_("colour {player}: {count}")
ISLAND_TILES_COUNT = N_(
    "{per} face-down island tiles of each of the {colours} player colours, one per shrine space; got {shown}"
)
SHORT = N_(
    "a short game removes at most one task of each kind, and fewer than four in the order {order} "
    "(got {removed})"
)
TASKS_OF = N_("{count} {task}")
ZEUS_TILES = N_("seat {seat}: Zeus tiles must be {tiles}, in that order, the same for every player")
FAVOUR = N_("seat {seat} starts with {favour} favour tokens (got {got})")
SEATS = N_("one seat entry per player ({players}), got {count}")
# the set-up picture's title and a space with two monsters (`picture`)
PICTURE_TITLE = N_("The Oracle of Delphi: {players} players")
TWICE = N_("{what} x2")

# words said as data (set-up keys and values, kinds, labels, names of fields): marked for the
# catalogs (locale/*.po), where each language says them in the game's words
DATA_WORDS = (
    *(N_("red"), N_("blue"), N_("green"), N_("yellow"), N_("black"), N_("pink")),
    N_("shrine"),
    N_("statue"),
    N_("offering"),
    N_("monster"),
    N_("island"),
    N_("city"),
    N_("offering cubes"),
    N_("none"),
    N_("not a city"),
    N_("temple"),
    N_("Zeus"),
    N_("shallows"),
)


def _plural(plural: str) -> Phrase:
    """Monsters on islands are the monster tiles (the deal's `monsters` key says only "monsters")."""
    return Phrase.word(plural, N_("monster tiles") if plural == "monsters" else None)


def _w(word: str | None) -> Phrase:
    return Phrase.word(word if word is not None else "")


def _ws(words: Sequence[str]) -> list[Phrase]:
    return [Phrase.word(w) for w in words]


# set-up pictures (`pnpforge setup --draw`): this game's terrain colours
PICTURE_COLOURS = {
    "sea": "#9ccbe8",
    "shallows": "#cde8f5",
    "land": "#e9dcb8",
    "water": "#7fb8e0",
}


# -- the file model ----------------------------------------------------------------------------------


class Pedestal(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    side: Rotation
    colour: Colour


class TileCell(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    at: Coord
    kind: Kind
    colour: Colour | None = None
    zeus: StrictBool = False
    explore: Colour | None = None
    monsters: Annotated[StrictInt, Field(ge=1, le=2)] | None = None
    pedestals: list[Pedestal] = []


class Tile(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    id: str
    group: Literal["island", "city"]
    shape: str | None = None
    size: StrictInt | None = None
    colour: Colour | None = None
    cells: list[TileCell]


class Placement(SetupModel):
    tile: str
    at: Coord
    rotation: Rotation = 0


class Board(SetupModel):
    tiles: list[Placement]
    custom_tiles: list[Tile] = []


class ColoursOn(SetupModel):
    at: Coord
    colours: list[Colour]


class Temple(SetupModel):
    at: Coord
    colour: Colour


class Statues(SetupModel):
    at: Coord
    colour: Colour
    count: Annotated[StrictInt, Field(ge=1)] = 3


class IslandTile(SetupModel):
    at: Coord
    player: Annotated[StrictInt, Field(ge=1, le=PLAYER_COLOURS)]


class Seat(SetupModel):
    seat: Annotated[StrictInt, Field(ge=1, le=4)]
    favour: Annotated[StrictInt, Field(ge=0)]
    zeus_tiles: list[Task]


class Setup(SetupModel):
    game: str  # its game was found by it
    players: Players
    removed_tasks: list[Task] = []
    board: Board
    zeus: Coord
    offerings: list[ColoursOn] = []
    monsters: list[ColoursOn] = []
    temples: list[Temple] = []
    statues: list[Statues] = []
    island_tiles: list[IslandTile] = []
    seats: list[Seat] = []


class _TileFile(BaseModel):
    model_config = ConfigDict(extra="ignore")
    tiles: list[Tile]
    compact_layout: dict[str, Any]


@lru_cache(maxsize=1)
def bundled() -> _TileFile:
    """tiles.yaml, read once per process."""
    return validate(_TileFile, read_yaml(TILES_FILE))


# -- the board ---------------------------------------------------------------------------------------


# (a named tuple and a plain class: a dataclass costs every check ~0.3 ms to create)
class Space(NamedTuple):
    cell: Hex
    kind: str
    colour: str | None
    placement: int  # index into setup.board.tiles
    tile: str
    zeus: bool = False
    monsters: int | None = None


class Built:
    def __init__(self) -> None:
        self.spaces: dict[Hex, Space] = {}
        self.overlaps: dict[Hex, list[int]] = {}
        self.tiles: list[Tile] = []  # by placement index

    def of_kind(self, *kinds: str) -> list[Hex]:
        return sorted(c for c, s in self.spaces.items() if s.kind in kinds)


def tile_catalogue(setup: Setup, source: Source | None) -> dict[str, Tile]:
    """Bundled tiles plus the set-up's own; a custom id clashing or a cell given twice is bad input."""
    tiles = {t.id: t for t in bundled().tiles}
    problems: list[tuple[Path_, str]] = []
    for i, tile in enumerate(setup.board.custom_tiles):
        path = ("board", "custom_tiles", i)
        if tile.id in tiles:
            problems.append(
                (
                    path + ("id",),
                    Phrase(N_("tile id {tile} is already used (expected a new id)"), tile=repr(tile.id)),
                )
            )
        seen: set[Hex] = set()
        for j, cell in enumerate(tile.cells):
            if cell.at in seen:
                problems.append(
                    (
                        path + ("cells", j, "at"),
                        Phrase(
                            N_("cell {cell} given twice in tile {tile}"),
                            cell=str(list(cell.at)),
                            tile=repr(tile.id),
                        ),
                    )
                )
            seen.add(cell.at)
        tiles[tile.id] = tile
    _raise(source, problems)
    return tiles


def _raise(source: Source | None, problems: list[tuple[Path_, str]]) -> None:
    if problems:
        file = source.file if source else "<set-up>"
        if source is None:
            raise InputError.single(file, problems[0][1])
        raise InputError([source.problem(path, message) for path, message in problems])


def build(setup: Setup, source: Source | None = None) -> Built:
    """Place every tile: anchor + rotate(cell, rotation). Unknown tile ids are bad input."""
    catalogue = tile_catalogue(setup, source)
    known = sorted(catalogue)
    _raise(
        source,
        [
            (
                ("board", "tiles", i, "tile"),
                Phrase(
                    N_("unknown tile {tile} (expected one of: {known})"), tile=quoted(p.tile), known=known
                ),
            )
            for i, p in enumerate(setup.board.tiles)
            if p.tile not in catalogue
        ],
    )
    built = Built()
    for index, placement in enumerate(setup.board.tiles):
        tile = catalogue[placement.tile]
        built.tiles.append(tile)
        for cell in tile.cells:
            at = hexgrid.add(placement.at, hexgrid.rotate(cell.at, placement.rotation))
            colour = cell.colour if cell.kind != "city" else (cell.colour or tile.colour)
            space = Space(at, cell.kind, colour, index, tile.id, cell.zeus, cell.monsters)
            if at in built.spaces:
                built.overlaps.setdefault(at, [built.spaces[at].placement]).append(index)
            else:
                built.spaces[at] = space
    return built


# -- the rules ---------------------------------------------------------------------------------------


def statues_each() -> int:
    """Statues per colour, all on its city at the start: the kit's statues component, printed per colour."""
    return kit.copies(HERE, "statues")


def expected_tasks(setup: Setup) -> dict[str, int]:
    removed: Counter[str] = Counter(setup.removed_tasks)
    return {task: TASKS_EACH - removed[task] for task in TASK_ORDER}


def _cells(cells: list[Hex]) -> list[list[int]]:
    return [list(c) for c in cells]


def check(setup: Setup, source: Source | None = None) -> Report:
    report = Report(GAME)
    _check_pieces_input(setup, source)
    built = build(setup, source)
    _check_tiles(setup, built, report)
    _check_water(setup, built, report)
    _check_zeus(setup, built, report)
    _check_cities(built, report)
    _check_spread(setup, built, report, "offering")
    _check_spread(setup, built, report, "monster")
    _check_temples(setup, built, report)
    _check_statues(setup, built, report)
    _check_island_tiles(setup, built, report)
    _check_tasks(setup, report)
    return report


def _check_pieces_input(setup: Setup, source: Source | None) -> None:
    """An island or city listed twice in one list is a typo, not a rule question."""
    problems: list[tuple[Path_, str]] = []
    for key in ("offerings", "monsters", "temples", "island_tiles"):
        seen: set[Hex] = set()
        for i, entry in enumerate(getattr(setup, key)):
            if entry.at in seen:
                problems.append(
                    (
                        (key, i, "at"),
                        Phrase(
                            N_("space {cell} given twice in {key}"), cell=str(list(entry.at)), key=repr(key)
                        ),
                    )
                )
            seen.add(entry.at)
    seats = [s.seat for s in setup.seats]
    if setup.seats and seats != list(range(1, setup.players + 1)):
        problems.append(
            (
                ("seats",),
                Phrase(
                    N_("seats must be 1 to {players} in order, one per player (got {seats})"),
                    players=setup.players,
                    seats=str(seats),
                ),
            )
        )
    _raise(source, problems)


def _check_tiles(setup: Setup, built: Built, report: Report) -> None:
    for cell, placements in sorted(built.overlaps.items()):
        ids = [setup.board.tiles[i].tile for i in placements]
        report.error(
            "tile-overlap", Phrase(OVERLAP, ids=ids, at=str(list(cell))), {"cell": list(cell), "tiles": ids}
        )
    for group, wanted in (("island", ISLAND_TILES), ("city", CITY_TILES)):
        ids = [t.id for t in built.tiles if t.group == group]
        twice = sorted(i for i, n in Counter(ids).items() if n > 1)
        if len(ids) != wanted or twice:
            detail = Phrase(REPEATED, tiles=twice) if twice else _w("")
            report.error(
                "tile-count",
                Phrase(TILE_COUNT, wanted=wanted, group=_w(group), count=len(ids), detail=detail),
                {"group": group, "count": len(ids), "repeated": twice},
            )
    city_ids = [t.id for t in built.tiles if t.group == "city"]
    city_colours = Counter(t.colour for t in built.tiles if t.group == "city")
    doubled = sorted(c for c, n in city_colours.items() if n > 1 and c)
    if doubled and len(set(city_ids)) == len(city_ids):  # custom city tiles: new ids, same colour
        report.error("tile-count", Phrase(CITY_COLOURS, colours=_ws(doubled)), {"colours": doubled})


def _check_water(setup: Setup, built: Built, report: Report) -> None:
    """The water's rule of game.yaml's `setup:` (one body of water), on the built board's spaces."""
    spaces = built.spaces.items()
    board = SetupBoard({c: s.kind for c, s in spaces}, parts={c: s.tile for c, s in spaces})
    data_rules(GAME, HERE).judge(SetupTable([], board, setup.players), report)


def _check_zeus(setup: Setup, built: Built, report: Report) -> None:
    zeus_spaces = [c for c, s in built.spaces.items() if s.zeus]
    if setup.zeus not in zeus_spaces:
        where = Phrase(ZEUS_CENTRE, at=str(list(zeus_spaces[0]))) if zeus_spaces else Phrase(NO_ZEUS_TILE)
        report.error(
            "zeus-misplaced", Phrase(ZEUS_AT, at=str(list(setup.zeus)), where=where), list(setup.zeus)
        )
    water = [
        n for n in hexgrid.neighbours(setup.zeus) if n in built.spaces and built.spaces[n].kind == "water"
    ]
    if len(water) != 6:
        missing = [list(n) for n in hexgrid.neighbours(setup.zeus) if n not in water]
        report.error(
            "zeus-not-surrounded",
            Phrase(ZEUS_WATER, at=str(list(setup.zeus)), count=len(water), missing=str(missing)),
            {"zeus": list(setup.zeus), "not_water": missing},
        )


def _check_cities(built: Built, report: Report) -> None:
    cities = built.of_kind("city")
    edge = hex_outer_edge(built.spaces)
    for city in cities:
        if city not in edge:
            colour = built.spaces[city].colour
            report.error(
                "city-inland",
                Phrase(INLAND, colour=_w(colour), at=str(list(city))),
                list(city),
            )
    if len(cities) < 2:
        return
    points = [hexgrid.to_pixel(c, 1.0) for c in built.spaces]
    cx = sum(p[0] for p in points) / len(points)
    cy = sum(p[1] for p in points) / len(points)
    angles = sorted(
        (
            math.degrees(math.atan2(hexgrid.to_pixel(c, 1.0)[1] - cy, hexgrid.to_pixel(c, 1.0)[0] - cx))
            % 360,
            c,
        )
        for c in cities
    )
    for i, (angle, city) in enumerate(angles):
        after_angle, after = angles[(i + 1) % len(angles)]
        gap = (after_angle - angle) % 360 or 360.0
        if not UNEVEN_GAP[0] <= gap <= UNEVEN_GAP[1]:
            a, b = built.spaces[city].colour, built.spaces[after].colour
            report.warn(
                "cities-uneven",
                Phrase(UNEVEN, a=_w(a), b=_w(b), gap=f"{gap:.0f}"),
                {"cities": [list(city), list(after)], "degrees": round(gap, 1)},
            )


def _check_spread(setup: Setup, built: Built, report: Report, kind: str) -> None:
    """Offering cubes or monsters: one per colour per player, evenly spread, no colour twice on an island."""
    entries: list[ColoursOn] = setup.offerings if kind == "offering" else setup.monsters
    plural = f"{kind}s" if kind == "monster" else "offering cubes"
    islands = built.of_kind(kind)
    placed = {e.at: e for e in entries}
    for e in entries:
        if e.at not in built.spaces or built.spaces[e.at].kind != kind:
            message = Phrase(NOT_ON_ISLAND, plural=_plural(plural), at=str(list(e.at)), kind=_w(kind))
            report.error("piece-misplaced", message, list(e.at))
    for island in islands:
        colours = placed[island].colours if island in placed else []
        twice = sorted(c for c, n in Counter(colours).items() if n > 1)
        if twice:
            report.error(
                f"{kind}-duplicate-colour",
                Phrase(
                    SAME_COLOUR,
                    kind=_w(kind),
                    at=str(list(island)),
                    colours=_ws(twice),
                    plural=_plural(plural),
                ),
                {"at": list(island), "colours": twice},
            )
        wanted = setup.players
        if kind == "monster":
            wanted = 2 if built.spaces[island].monsters == 2 else setup.players - 1
        if len(colours) != wanted:
            report.error(
                f"{kind}-uneven",
                Phrase(
                    HOLDS,
                    kind=_w(kind),
                    at=str(list(island)),
                    count=len(colours),
                    plural=_plural(plural),
                    wanted=wanted,
                ),
                {"at": list(island), "count": len(colours), "expected": wanted},
            )
    totals: Counter[str] = Counter(c for e in entries for c in e.colours)
    wrong = {c: totals[c] for c in COLOURS if totals[c] != setup.players}
    if wrong:
        shown = [Phrase(COLOUR_COUNT, colour=_w(c), count=n) for c, n in wrong.items()]
        report.error(
            f"{kind}-count",
            Phrase(EACH_COLOUR, players=setup.players, plural=_plural(plural), shown=shown),
            wrong,
        )


def _check_temples(setup: Setup, built: Built, report: Report) -> None:
    spaces = built.of_kind("temple")
    for t in setup.temples:
        if t.at not in built.spaces or built.spaces[t.at].kind != "temple":
            report.error(
                "piece-misplaced",
                Phrase(TEMPLE_OFF, colour=_w(t.colour), at=str(list(t.at))),
                list(t.at),
            )
    colours: Counter[str] = Counter(t.colour for t in setup.temples)
    empty = [list(s) for s in spaces if s not in {t.at for t in setup.temples}]
    wrong = sorted(c for c in COLOURS if colours[c] != 1)
    if wrong or empty or len(setup.temples) != len(spaces):
        report.error(
            "temple-count",
            Phrase(
                TEMPLES,
                count=len(spaces),
                wrong=_ws(wrong) or _w("none"),
                empty=str(empty) if empty else _w("none"),
            ),
            {"colours": wrong, "empty": empty},
        )


def _check_statues(setup: Setup, built: Built, report: Report) -> None:
    for s in setup.statues:
        space = built.spaces.get(s.at)
        if space is None or space.kind != "city" or space.colour != s.colour:
            what = (
                Phrase(THE_CITY, colour=_w(space.colour))
                if space and space.kind == "city"
                else _w("not a city")
            )
            report.error(
                "statue-wrong-city",
                Phrase(STATUE_OFF, colour=_w(s.colour), at=str(list(s.at)), what=what),
                {"at": list(s.at), "colour": s.colour},
            )
    counts: Counter[str] = Counter()
    for s in setup.statues:
        counts[s.colour] += s.count
    each = statues_each()
    wrong = {c: counts[c] for c in COLOURS if counts[c] != each}
    if wrong:
        shown = [Phrase(COLOUR_COUNT, colour=_w(c), count=n) for c, n in wrong.items()]
        report.error("statue-count", Phrase(STATUES, each=each, shown=shown), wrong)


def _check_island_tiles(setup: Setup, built: Built, report: Report) -> None:
    shrines = set(built.of_kind("shrine"))
    per_colour = expected_tasks(setup)["shrine"]
    for t in setup.island_tiles:
        if t.at not in shrines:
            report.error("piece-misplaced", Phrase(ISLAND_TILE_OFF, at=str(list(t.at))), list(t.at))
    counts = Counter(t.player for t in setup.island_tiles)
    wrong = {str(p): counts[p] for p in range(1, PLAYER_COLOURS + 1) if counts[p] != per_colour}
    if wrong:
        shown = [Phrase(SEAT_COLOUR, player=p, count=n) for p, n in wrong.items()]
        message = Phrase(ISLAND_TILES_COUNT, per=per_colour, colours=PLAYER_COLOURS, shown=shown)
        report.error("island-tile-count", message, wrong)


def _check_tasks(setup: Setup, report: Report) -> None:
    removed = list(setup.removed_tasks)
    if len(removed) > len(set(removed)) or (
        len(removed) < 4 and removed != list(REMOVAL_ORDER[: len(removed)])
    ):
        report.error(
            "short-game-order",
            Phrase(SHORT, order=_ws(list(REMOVAL_ORDER)), removed=_ws(removed)),
            removed,
        )
        return
    tasks = expected_tasks(setup)
    zeus = [task for task in TASK_ORDER for _ in range(tasks[task])]
    for seat in setup.seats:
        if list(seat.zeus_tiles) != zeus:
            report.error(
                "zeus-tiles",
                Phrase(
                    ZEUS_TILES,
                    seat=seat.seat,
                    tiles=[Phrase(TASKS_OF, count=n, task=_w(t)) for t, n in tasks.items()],
                ),
                {"seat": seat.seat},
            )
        favour = FAVOUR_FIRST_SEAT + seat.seat - 1
        if seat.favour != favour:
            report.error(
                "favour-count",
                Phrase(FAVOUR, seat=seat.seat, favour=favour, got=seat.favour),
                {"seat": seat.seat, "favour": seat.favour},
            )
    if len(setup.seats) != setup.players:
        report.error("favour-count", Phrase(SEATS, players=setup.players, count=len(setup.seats)), None)


# -- the picture -------------------------------------------------------------------------------------


def picture(setup: Setup) -> BoardPicture:
    # the drawing's names, imported only when a picture is drawn (checking never draws)
    from pnpforge.gamekit import (
        BoardPicture,
        CellShape,
        HeavyEdge,
        PieceMark,
        hex_centre,
        hex_points,
        side_points,
        spread,
    )

    built = build(setup)
    pic = BoardPicture(Phrase(PICTURE_TITLE, players=setup.players), palette=PICTURE_COLOURS)
    for cell, space in sorted(built.spaces.items()):
        points = hex_points(cell, HEX_MM)
        if space.kind == "water":
            pic.cells.append(CellShape(points, space.colour or "sea", pattern="waves"))
        elif space.kind == "shallows":
            pic.cells.append(CellShape(points, "shallows", label=Phrase.word("Zeus") if space.zeus else ""))
        elif space.kind == "city":
            pic.cells.append(
                CellShape(points, space.colour or "grey", label=Phrase.word("city"), pattern="hatch")
            )
        else:
            kind = Phrase.word(space.kind)
            label = Phrase(TWICE, what=kind) if space.monsters == 2 else kind
            pic.cells.append(CellShape(points, "land", label=label))
    for cell, space in sorted(built.spaces.items()):  # tile outlines: sides between tiles or off the board
        for n in hexgrid.neighbours(cell):
            other = built.spaces.get(n)
            if other is None or (other.placement != space.placement and cell < n):
                pic.edges.append(HeavyEdge(side_points(cell, n, HEX_MM), "black", width=0.6))
    pic.pieces.append(PieceMark(hex_centre(setup.zeus, HEX_MM), "zeus", "white", size=7.0))
    for entries, icon in ((setup.offerings, "cube"), (setup.monsters, "monster")):
        for e in entries:
            for pos, colour in zip(
                spread(hex_centre(e.at, HEX_MM), len(e.colours), 4.2), e.colours, strict=True
            ):
                pic.pieces.append(PieceMark(pos, icon, colour, size=3.5))
    for t in setup.temples:
        pic.pieces.append(PieceMark(hex_centre(t.at, HEX_MM), "temple", t.colour, size=6.0))
    for s in setup.statues:
        for pos in spread(hex_centre(s.at, HEX_MM), s.count, 4.2):
            pic.pieces.append(PieceMark(pos, "statue", s.colour, size=3.5))
    for tile in setup.island_tiles:
        pic.pieces.append(PieceMark(hex_centre(tile.at, HEX_MM), "tile", "grey", str(tile.player), size=6.0))
    legend = [*((c, c) for c in COLOURS), ("land", "island"), ("shallows", "shallows")]
    pic.legend = [(colour, Phrase.word(word)) for colour, word in legend]
    return pic
