"""Ankh: Gods of Egypt: the set-up file model, camel caravans and piece placement (Ankh rulebook).

Where the rulebook is open, docs/games/ankh.md, "Rules decisions", says what is decided and why.

Regions are land spaces joined across sides that hold neither river nor camel; water spaces belong to
every region they touch and never count towards a region's size. Camels lie on hex sides; a caravan
is one unbroken line of at most 6 camels whose two ends each meet a river, a water space, another
camel line or the map's outer edge, and it cuts one region into two of at least 6 land spaces each.
Caravans in a file are placed in order, so a later one may end on an earlier one.

Stays Python, not game.yaml's `setup:` (docs/setups.md, "Set-up rules as data"): the board is the map
file's regions, rivers as hex sides and scenario pieces, and a camel line must end on a river, water,
another line or the edge; the data rules check pieces on one board's cells (their `regions-at-least`
says the split into regions, not the line's ends).
"""

from __future__ import annotations

from collections import Counter, deque
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pnpforge.gamekit import (
    N_,
    BaseModel,
    ConfigDict,
    Coord,
    Discriminator,
    Hex,
    InputError,
    Path_,
    Phrase,
    Report,
    SetupModel,
    Side,
    Source,
    StrictInt,
    Tag,
    Vertex,
    components,
    folder_id,
    hex_outer_edge,
    hexgrid,
    kit,
    player_count,
    quoted,
    read_yaml,
    side_path,
    side_vertices,
    validate,
)
from pnpforge.gamekit import Key as Field

if TYPE_CHECKING:  # the picture's names are imported by `picture`: checking never draws
    from pnpforge.gamekit import BoardPicture

GAME = folder_id(Path(__file__).parent)  # the game's id: its folder's name
Players = Annotated[StrictInt, player_count(Path(__file__).parent, "Ankh")]  # game.yaml's range
HERE = Path(__file__).parent
MAP_FILE = HERE / "map.yaml"
MAX_CAMELS = 6
MIN_REGION = 6
FIGURES = ("warrior", "god")
HEX_MM = 14.0  # drawing: hex circumradius in mm
PLAYER_COLOURS = ("#c0392b", "#2471a3", "#229954", "#d4ac0d", "#7d3c98")
Terrain = Literal["fertile", "desert", "water"]
PieceKind = Literal["temple", "pyramid", "obelisk", "warrior", "god"]
Player = Annotated[StrictInt, Field(ge=1, le=5)]

# set-up pictures (`pnpforge setup --draw`): this game's terrain colours
PICTURE_COLOURS = {
    "fertile": "#9fcf7a",
    "desert": "#f0d98c",
    "water": "#7fb8e0",
    "river": "#1f5fae",
    "camel": "#8a5a2b",
}


# -- the file model ----------------------------------------------------------------------------------


class MapCell(SetupModel):
    at: Coord
    terrain: Terrain


class InlineMap(SetupModel):
    cells: list[MapCell]
    river: list[Side] = []


# a string can only mean the bundled map and a mapping only an inline one: one error, not two
MapChoice = Annotated[
    Annotated[Literal["bundled"], Tag("bundled")] | Annotated[InlineMap, Tag("inline")],
    Discriminator(lambda value: "bundled" if isinstance(value, str) else "inline"),
]


class Piece(SetupModel):
    piece: PieceKind
    at: Coord
    player: Player | None = None  # None: an unclaimed monument


class ConflictToken(SetupModel):
    token: Annotated[StrictInt, Field(ge=1)]
    region: Coord  # any land space of the region the token marks


class SeatGod(SetupModel):
    seat: Player
    god: str


class Setup(SetupModel):
    game: str  # its game was found by it
    players: Players
    scenario: str | None = None
    map: MapChoice = "bundled"
    seats: list[SeatGod] = []
    guardians: list[str] = []
    caravans: list[list[Side]] = []
    conflict_order: list[ConflictToken] = []
    pieces: list[Piece] = []


class _MapFileCell(BaseModel):
    model_config = ConfigDict(extra="ignore")
    at: Coord
    terrain: Terrain
    region: str | None = None


class _MapFileSide(BaseModel):
    model_config = ConfigDict(extra="ignore")
    cell: Coord
    other: Coord


class _MapFileRiver(BaseModel):
    model_config = ConfigDict(extra="ignore")
    edges: list[_MapFileSide]


class _MapFile(BaseModel):
    model_config = ConfigDict(extra="ignore")
    cells: list[_MapFileCell]
    river: _MapFileRiver


class _ScenarioFile(BaseModel):
    model_config = ConfigDict(extra="ignore")
    scenarios: dict[str, Any]


@lru_cache(maxsize=1)
def _map_source() -> Source:
    """The map file, read once a run (and parsed once an install: pnpforge.parsecache)."""
    return read_yaml(MAP_FILE)


@lru_cache(maxsize=1)
def map_file() -> _MapFile:
    return validate(_MapFile, _map_source())


@lru_cache(maxsize=1)
def scenarios() -> dict[str, list[dict[str, Any]]]:
    """The map file's scenario sets by name (its `note` is not one)."""
    found = validate(_ScenarioFile, _map_source()).scenarios
    return {k: v for k, v in found.items() if isinstance(v, list)}


def _csv_ids(name: str, column: str) -> dict[str, dict[str, str]]:
    """Rows of a kit data file beside this file by id (pnpforge.kit: a missing file or column fails)."""
    return {row[column]: row for row, _ in kit.rows(HERE, name, column)}


@lru_cache(maxsize=1)
def gods() -> dict[str, dict[str, str]]:
    return _csv_ids("gods.csv", "god")


@lru_cache(maxsize=1)
def guardians() -> dict[str, dict[str, str]]:
    return _csv_ids("guardians.csv", "guardian")


# the violations, as templates (a `Phrase` each) said in the catalogs (locale/*.po), the gods by the
# names gods.csv prints (`names`): the page's set-up check and `validate --lang LANG` (Ankh rulebook,
# コンポーネント, セットアップ, 地域, ラクダの隊商)
CARAVAN = N_("caravan {number}")
CAMELS = N_("{caravan} has {count} camels; a caravan has at most {most}")
NO_CAMELS = N_("{caravan} has no camels")
ON_RIVER = N_("{caravan}: the camel on {side} stands on the river")
ON_WATER = N_("{caravan}: the camel on {side} touches a water space")
BROKEN = N_("{caravan} is not one unbroken line along hex sides")
CORNER = N_("the corner of {cells}")
UNANCHORED = N_("{caravan}: its end at {corner} meets no river, water space, camel line or map edge")
BETWEEN = N_("{caravan} runs between regions instead of across one")
NO_SPLIT = N_("{caravan} {what}; a caravan splits one region into exactly two")
CUTS = N_("cuts its region into {parts} parts")
TOO_SMALL = N_("{caravan} leaves a region of {size} land spaces; each new region needs at least {least}")
ON_WATER_PIECE = N_("the {piece} at {at} stands on water")
OCCUPIED = N_("{at} holds {count} pieces ({names}); a space holds one figure or monument")
ORDER = N_(
    "each of the {count} regions takes one conflict order token, numbered 1 to {count} "
    "(got {numbers}; regions without exactly one: {bare})"
)
GOD_TWICE = N_("each god is played by one player ({gods} chosen twice)")
SEATS = N_("one god per player: {players} seats expected, got {count}")
LEVELS = N_("one guardian of each level 1, 2 and 3 (got levels {levels})")
# the set-up picture's texts (`picture`)
PICTURE_TITLE = N_("Ankh: Gods of Egypt: {players} players")
SEAT_GOD = N_("{seat}: {god}")
PLAYER = N_("player {seat}")
LEGEND_WORDS = (
    ("fertile", "fertile"),
    ("desert", "desert"),
    ("water", "water"),
    ("river", "river"),
    ("camel", "camels"),
)

# words said as data (set-up keys and values, kinds, labels, names of fields): marked for the
# catalogs (locale/*.po), where each language says them in the game's words
DATA_WORDS = (
    N_("does not cut its region"),
    N_("none"),
    N_("warrior"),
    N_("obelisk"),
    N_("temple"),
    N_("pyramid"),
    N_("water"),
    N_("river"),
    N_("camels"),
)
# words said here in another sense than on the score sheet (where `god` asks whether a region holds
# the god figure, and `desert` counts the figures there): looked up under these ids
PIECE_TERMS = {"god": N_("god figure")}
TERRAIN_TERMS = {"fertile": N_("fertile land"), "desert": N_("desert land")}


def _piece(kind: str) -> Phrase:
    return Phrase.word(kind, PIECE_TERMS.get(kind))


def names(lang: str) -> dict[str, str]:
    """What the kit prints for the gods, guardians and battle cards in `lang` (gods.csv, guardians.csv,
    battle_cards.csv `name_<lang>`), keyed by id and by English name; {} for a language it lacks."""
    column = f"name_{lang}"
    said = {}
    for key, row in {**gods(), **guardians()}.items():
        if row.get(column):
            said[key] = said[row["name_en"]] = row[column]
    for row, _ in kit.rows(HERE, "battle_cards.csv", "name_en"):
        if row.get(column):
            said[row["name_en"]] = row[column]
    return said


# -- the map -----------------------------------------------------------------------------------------


@dataclass
class Map:
    terrain: dict[Hex, str]
    river: set[frozenset[Hex]]
    names: dict[Hex, str] = field(default_factory=dict)  # printed region names of the bundled map
    around: Counter[Vertex] = field(default_factory=Counter)  # map cells meeting at each corner
    water_corners: set[Vertex] = field(default_factory=set)
    river_corners: set[Vertex] = field(default_factory=set)
    outer: set[Hex] = field(default_factory=set)

    def __post_init__(self) -> None:
        for cell, terrain in self.terrain.items():
            for v in hexgrid.vertex_ids(cell):
                self.around[v] += 1
                if terrain == "water":
                    self.water_corners.add(v)
        for a, b in (tuple(s) for s in self.river):
            self.river_corners.update(side_vertices(a, b))
        self.outer = hex_outer_edge(self.terrain)

    def land(self) -> list[Hex]:
        return sorted(c for c, t in self.terrain.items() if t != "water")

    def is_land(self, cell: Hex) -> bool:
        return self.terrain.get(cell, "water") != "water"

    def on_map_edge(self, vertex: Vertex) -> bool:
        """A corner of the outer boundary: fewer than three map spaces meet there."""
        return self.around[vertex] < 3

    def neighbours(self, cell: Hex) -> list[Hex]:
        return [n for n in hexgrid.neighbours(cell) if n in self.terrain]


@lru_cache(maxsize=1)
def bundled_map() -> Map:
    data = map_file()
    return Map(
        {c.at: c.terrain for c in data.cells},
        {frozenset((s.cell, s.other)) for s in data.river.edges},
        {c.at: c.region for c in data.cells if c.region},
    )


# the set-up file's own mistakes (bad input, exit 2), said in the game's words
NOT_A_SPACE = N_("{cell} is not a space of the map")
UNKNOWN_GOD = N_("unknown god {god} (expected one of: {known})")
UNKNOWN_SCENARIO = N_("unknown scenario {name} (expected one of: {known})")


def _raise(source: Source | None, problems: list[tuple[Path_, str]]) -> None:
    if not problems:
        return
    if source is None:
        raise InputError.single("<set-up>", problems[0][1])
    raise InputError([source.problem(path, message) for path, message in problems])


def board(setup: Setup, source: Source | None = None) -> Map:
    """The map the set-up plays on; an inline map's own mistakes are bad input."""
    if setup.map == "bundled":
        return bundled_map()
    problems: list[tuple[Path_, str]] = []
    terrain: dict[Hex, str] = {}
    for i, cell in enumerate(setup.map.cells):
        if cell.at in terrain:
            problems.append(
                (("map", "cells", i, "at"), Phrase(N_("cell {cell} given twice"), cell=str(list(cell.at))))
            )
        terrain[cell.at] = cell.terrain
    river = set()
    for i, side in enumerate(setup.map.river):
        problems += _side_problems(side, terrain, ("map", "river", i))
        river.add(frozenset(side))
    _raise(source, problems)
    return Map(terrain, river)


def _side_problems(side: Side, terrain: dict[Hex, str], path: Path_) -> list[tuple[Path_, str]]:
    a, b = side
    for k, cell in enumerate(side):
        if cell not in terrain:
            return [((*path, k), Phrase(NOT_A_SPACE, cell=str(list(cell))))]
    if hexgrid.direction_between(a, b) is None:
        return [
            (
                path,
                Phrase(
                    N_("{a} and {b} are not neighbours, so no side lies between them"),
                    a=str(list(a)),
                    b=str(list(b)),
                ),
            )
        ]
    return []


def check_input(setup: Setup, m: Map, source: Source | None) -> None:
    problems: list[tuple[Path_, str]] = []
    seen: set[frozenset[Hex]] = set()
    for i, caravan in enumerate(setup.caravans):
        for j, side in enumerate(caravan):
            here = _side_problems(side, m.terrain, ("caravans", i, j))
            problems += here
            if not here and frozenset(side) in seen:
                problems.append(
                    (
                        ("caravans", i, j),
                        Phrase(N_("the side {side} holds a camel twice"), side=str([list(c) for c in side])),
                    )
                )
            seen.add(frozenset(side))
    for i, piece in enumerate(setup.pieces):
        if piece.at not in m.terrain:
            problems.append((("pieces", i, "at"), Phrase(NOT_A_SPACE, cell=str(list(piece.at)))))
        if piece.player is not None and piece.player > setup.players:
            problems.append(
                (
                    ("pieces", i, "player"),
                    Phrase(
                        N_("player {player}, but the set-up has {players}"),
                        player=piece.player,
                        players=setup.players,
                    ),
                )
            )
        if piece.piece in FIGURES and piece.player is None:
            problems.append(
                (
                    ("pieces", i, "player"),
                    Phrase(
                        N_("a {piece} belongs to a player (expected player: 1-5)"), piece=_piece(piece.piece)
                    ),
                )
            )
    for i, token in enumerate(setup.conflict_order):
        if not m.is_land(token.region):
            problems.append(
                (
                    ("conflict_order", i, "region"),
                    Phrase(N_("{cell} is not a land space"), cell=str(list(token.region))),
                )
            )
    known_gods, known_guardians = gods(), guardians()
    for i, seat in enumerate(setup.seats):
        if seat.seat != i + 1 or seat.seat > setup.players:
            problems.append(
                (
                    ("seats", i, "seat"),
                    Phrase(N_("seats must be 1 to {players} in order"), players=setup.players),
                )
            )
        if known_gods and seat.god not in known_gods:
            problems.append(
                (("seats", i, "god"), Phrase(UNKNOWN_GOD, god=quoted(seat.god), known=sorted(known_gods)))
            )
    for i, name in enumerate(setup.guardians):
        if known_guardians and name not in known_guardians:
            said = Phrase(
                N_("unknown guardian {name} (expected one of: {known})"),
                name=quoted(name),
                known=sorted(known_guardians),
            )
            problems.append((("guardians", i), said))
    named = setup.scenario
    if named is not None and setup.map == "bundled" and named not in scenarios():
        said = Phrase(UNKNOWN_SCENARIO, name=quoted(setup.scenario), known=list(scenarios()))
        problems.append((("scenario",), said))
    _raise(source, problems)


# -- the rules ---------------------------------------------------------------------------------------


def regions(m: Map, walls: set[frozenset[Hex]]) -> list[set[Hex]]:
    """Land spaces joined across sides that hold no wall (river or camel)."""
    land = set(m.land())
    return components(land, lambda c: (n for n in hexgrid.neighbours(c) if n in land), walls)


def _corner_text(vertex: Vertex) -> Phrase:
    return Phrase(CORNER, cells=[str(list(c)) for c in hexgrid.vertex_cells(vertex)])


def anchored(m: Map, vertex: Vertex, camel_corners: set[Vertex]) -> bool:
    return (
        vertex in m.river_corners
        or vertex in m.water_corners
        or vertex in camel_corners
        or m.on_map_edge(vertex)
    )


def _sides_json(sides: list[Side]) -> list[list[list[int]]]:
    return [[list(a), list(b)] for a, b in sides]


class Regions:
    """The board's regions as walls are added one caravan at a time, each found once.

    The regions are computed once; a caravan's walls split only the region they lie in, found by a flood
    from each cut side's cells at once, one step each in turn, that stops when all floods but one have
    run out (or met): the parts that ran out are relabelled, the largest is never walked. So each caravan
    costs about the smaller parts it makes, and a whole set-up is linear in cells plus caravans (up to
    a log factor for caravans that do split)."""

    def __init__(self, m: Map, walls: set[frozenset[Hex]]) -> None:
        self.walls = walls
        self.cells: dict[int, set[Hex]] = dict(enumerate(regions(m, walls)))
        self.of = {c: i for i, region in self.cells.items() for c in region}
        self._next = len(self.cells)

    def _steps(self, cell: Hex) -> list[Hex]:
        here = self.of[cell]
        return [
            n
            for n in hexgrid.neighbours(cell)
            if self.of.get(n) == here and frozenset((cell, n)) not in self.walls
        ]

    def cut(self, sides: list[tuple[Hex, Hex]]) -> dict[int, list[set[Hex]]]:
        """Add walls on `sides` (land sides); each region a new wall lies in is split as the walls split
        it. Returns, for each such region (by its id before the cut), its parts, largest first (the
        largest keeps the region's id and set)."""
        new = [frozenset(s) for s in sides if frozenset(s) not in self.walls]
        self.walls.update(new)
        inside: dict[int, list[Hex]] = {}
        for wall in new:
            a, b = sorted(wall)
            if a in self.of and self.of.get(a) == self.of.get(b):
                inside.setdefault(self.of[a], []).extend((a, b))
        return {region: self._split(region, seeds) for region, seeds in inside.items()}

    def _split(self, region: int, seeds: list[Hex]) -> list[set[Hex]]:
        owner: dict[Hex, int] = {}
        root = list(range(len(seeds)))

        def find(i: int) -> int:
            while root[i] != i:
                root[i] = root[root[i]]
                i = root[i]
            return i

        grown: dict[int, set[Hex]] = {}
        frontier: dict[int, deque[Hex]] = {}
        for i, cell in enumerate(seeds):
            if cell in owner:
                root[i] = find(owner[cell])
                continue
            owner[cell] = i
            grown[i], frontier[i] = {cell}, deque([cell])
        done: list[set[Hex]] = []
        while len(frontier) > 1:
            for i in list(frontier):
                if i not in frontier:  # merged into another flood this round
                    continue
                if not frontier[i]:
                    done.append(grown.pop(i))
                    del frontier[i]
                    if len(frontier) == 1:
                        break
                    continue
                here, cur = frontier[i].popleft(), i
                for nxt in self._steps(here):
                    other = owner.get(nxt)
                    if other is None:
                        owner[nxt] = cur
                        grown[cur].add(nxt)
                        frontier[cur].append(nxt)
                    elif (j := find(other)) != cur:  # two floods met: one part, the smaller joins
                        big, small = (cur, j) if len(grown[cur]) >= len(grown[j]) else (j, cur)
                        root[small] = big
                        grown[big] |= grown.pop(small)
                        frontier[big].extend(frontier.pop(small))
                        cur = big
        rest = self.cells[region]
        for part in done:
            rest -= part
            self.cells[self._next] = part
            for cell in part:
                self.of[cell] = self._next
            self._next += 1
        if not done:
            return [rest]
        return sorted([rest, *done], key=lambda p: (-len(p), min(p)))


def check(setup: Setup, source: Source | None = None) -> Report:
    report = Report(GAME)
    m = board(setup, source)
    check_input(setup, m, source)
    walls = set(m.river)
    found = Regions(m, walls)
    camel_corners: set[Vertex] = set()
    for number, caravan in enumerate(setup.caravans, 1):
        land_sides = [(a, b) for a, b in caravan if m.is_land(a) and m.is_land(b)]
        land_sides = [(a, b) for a, b in land_sides if frozenset((a, b)) not in m.river]
        before = {c: found.of[c] for side in land_sides for c in side}
        parts = found.cut(land_sides)
        _check_caravan(m, number, caravan, (land_sides, before, parts), camel_corners, report)
        walls |= {frozenset(s) for s in caravan}
        camel_corners |= {v for a, b in caravan for v in side_vertices(a, b)}
    _check_pieces(setup, m, report)
    _check_conflict_order(setup, m, walls, report)
    _check_seats(setup, report)
    return report


Cut = tuple[list[tuple[Hex, Hex]], dict[Hex, int], dict[int, list[set[Hex]]]]


def _check_caravan(
    m: Map,
    number: int,
    caravan: list[Side],
    cut: Cut,
    camel_corners: set[Vertex],
    report: Report,
) -> None:
    """One caravan's faults; `cut`: its land sides, their cells' regions before it, and the parts of each
    region it lies in after it (Regions.cut)."""
    land_sides, region_of, split = cut
    name = Phrase(CARAVAN, number=number)
    where = _sides_json(caravan)
    if len(caravan) > MAX_CAMELS:
        report.error("camel-count", Phrase(CAMELS, caravan=name, count=len(caravan), most=MAX_CAMELS), where)
    if not caravan:
        report.error("camel-count", Phrase(NO_CAMELS, caravan=name), where)
        return
    for a, b in caravan:
        side = [list(a), list(b)]
        if frozenset((a, b)) in m.river:
            report.error("camel-on-river", Phrase(ON_RIVER, caravan=name, side=str(side)), side)
        if not (m.is_land(a) and m.is_land(b)):
            report.error("camel-on-water", Phrase(ON_WATER, caravan=name, side=str(side)), side)
    path = side_path(caravan)
    if path is None:
        report.error("camel-broken", Phrase(BROKEN, caravan=name), where)
        return
    for end in (path[0], path[-1]):
        if not anchored(m, end, camel_corners):
            report.error(
                "camel-unanchored",
                Phrase(UNANCHORED, caravan=name, corner=_corner_text(end)),
                [list(c) for c in hexgrid.vertex_cells(end)],
            )
    if not land_sides:
        return
    touched = set(region_of.values())
    if len(touched) > 1 or any(region_of[a] != region_of[b] for a, b in land_sides):
        report.error("camel-no-split", Phrase(BETWEEN, caravan=name), where)
        return
    after = split.get(touched.pop(), [])
    if len(after) != 2:
        what = Phrase.word("does not cut its region") if len(after) <= 1 else Phrase(CUTS, parts=len(after))
        report.error("camel-no-split", Phrase(NO_SPLIT, caravan=name, what=what), where)
        return
    for part in after:
        if len(part) < MIN_REGION:
            report.error(
                "region-too-small",
                Phrase(TOO_SMALL, caravan=name, size=len(part), least=MIN_REGION),
                {"caravan": number, "size": len(part), "cells": [list(c) for c in sorted(part)]},
            )


def _check_pieces(setup: Setup, m: Map, report: Report) -> None:
    by_space: dict[Hex, list[str]] = {}
    for piece in setup.pieces:
        by_space.setdefault(piece.at, []).append(piece.piece)
        if m.terrain[piece.at] == "water":
            message = Phrase(ON_WATER_PIECE, piece=_piece(piece.piece), at=str(list(piece.at)))
            report.error("piece-on-water", message, list(piece.at))
    for cell, names in sorted(by_space.items()):
        if len(names) > 1:
            report.error(
                "space-occupied",
                Phrase(OCCUPIED, at=str(list(cell)), count=len(names), names=[_piece(n) for n in names]),
                list(cell),
            )


def _check_conflict_order(setup: Setup, m: Map, walls: set[frozenset[Hex]], report: Report) -> None:
    if not setup.conflict_order:
        return
    final = regions(m, walls)
    region_of = {c: i for i, region in enumerate(final) for c in region}
    held = Counter(region_of[t.region] for t in setup.conflict_order)
    numbers = sorted(t.token for t in setup.conflict_order)
    bare = [sorted(final[i])[0] for i in range(len(final)) if held[i] != 1]
    if bare or numbers != list(range(1, len(final) + 1)):
        report.error(
            "conflict-order",
            Phrase(
                ORDER,
                count=len(final),
                numbers=str(numbers),
                bare=str([list(c) for c in bare]) if bare else Phrase.word("none"),
            ),
            [list(c) for c in bare],
        )


def _check_seats(setup: Setup, report: Report) -> None:
    chosen = Counter(s.god for s in setup.seats)
    twice = sorted(g for g, n in chosen.items() if n > 1)
    if twice:
        report.error("god-twice", Phrase(GOD_TWICE, gods=[Phrase.word(g) for g in twice]), twice)
    if setup.seats and len(setup.seats) != setup.players:
        report.error("seat-count", Phrase(SEATS, players=setup.players, count=len(setup.seats)))
    levels = sorted(int(guardians()[g]["level"]) for g in setup.guardians if g in guardians())
    if setup.guardians and guardians() and levels != [1, 2, 3]:
        report.error("guardian-levels", Phrase(LEVELS, levels=str(levels)), levels)


# -- the picture -------------------------------------------------------------------------------------


BOARD_TURN = (
    30.0  # the printed board (game.yaml's hexmap `rotate: 30`) turns map.yaml's pointy hexes flat-top
)
MONUMENTS = ("temple", "pyramid", "obelisk")  # icons of pnpforge.layouts.icons, as the board's pieces


def picture(setup: Setup) -> BoardPicture:
    """The set-up as it looks on the table: the printed board's orientation (flat-top), each seat in its
    god's printed colour, monuments as their icons, and a legend of gods and monuments."""
    # the drawing's names, imported only when a picture is drawn (checking never draws)
    from pnpforge.gamekit import (
        BoardPicture,
        CellShape,
        HeavyEdge,
        PieceMark,
        hex_centre,
        hex_points,
        side_points,
    )

    m = board(setup)
    known = gods()
    seat_god = {seat.seat: seat.god for seat in setup.seats if seat.god in known}
    palette = dict(PICTURE_COLOURS)
    for god in seat_god.values():
        palette[god] = known[god]["colour"]
    pic = BoardPicture(Phrase(PICTURE_TITLE, players=setup.players), palette=palette)
    for cell, terrain in sorted(m.terrain.items()):
        pattern = "waves" if terrain == "water" else ("dots" if terrain == "desert" else None)
        pic.cells.append(CellShape(hex_points(cell, HEX_MM), terrain, pattern=pattern))
    for side in sorted(tuple(sorted(s)) for s in m.river):
        pic.edges.append(HeavyEdge(side_points(side[0], side[1], HEX_MM), "river", width=2.0))
    for caravan in setup.caravans:
        for a, b in caravan:
            pic.edges.append(HeavyEdge(side_points(a, b, HEX_MM), "camel", width=1.6, dash=True))
    for piece in setup.pieces:
        colour = _seat_colour(piece.player, seat_god) if piece.player else "white"
        label = str(piece.player) if piece.player and piece.piece not in MONUMENTS else ""
        pic.pieces.append(PieceMark(hex_centre(piece.at, HEX_MM), piece.piece, colour, label, size=8.0))
    tokens = {t.token: t.region for t in setup.conflict_order}
    for number, cell in sorted(tokens.items()):
        x, y = hex_centre(cell, HEX_MM)
        pic.pieces.append(PieceMark((x + 7.0, y - 7.0), "token", "white", str(number), size=5.0))
    pic.turn(BOARD_TURN)
    pic.legend = [
        *[(_seat_colour(n, seat_god), _seat_name(n, seat_god, known)) for n in range(1, setup.players + 1)],
        *[("white", Phrase.word(kind), kind) for kind in MONUMENTS],
        *[(key, Phrase.word(word, TERRAIN_TERMS.get(word))) for key, word in LEGEND_WORDS],
    ]
    return pic


def _seat_colour(seat: int, seat_god: dict[int, str]) -> str:
    """A seat's god's printed colour (its name in the picture's palette), else a plain player colour."""
    return seat_god.get(seat) or PLAYER_COLOURS[seat - 1]


def _seat_name(seat: int, seat_god: dict[int, str], known: dict[str, dict[str, str]]) -> str:
    if seat not in seat_god:
        return Phrase(PLAYER, seat=seat)
    return Phrase(SEAT_GOD, seat=seat, god=Phrase.word(known[seat_god[seat]]["name_en"], seat_god[seat]))
