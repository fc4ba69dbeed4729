"""Quo Vadis (draft 32): the map set-up file, its checks, and the map as real polygon spaces.

The map is area tiles on a hex grid of tiles; each tile is three rhombus spaces (areas.yaml says how they
are cut and numbered). Spaces are real polygons and adjacency is "shares an edge of positive length"
(geometry/cells.py), so overlaps, touching and connectivity all come from the geometry itself. Rhombi cut
from hex corners lie on a triangular lattice, so geometry/lattice.py finds those facts exactly by integer
corners; shapely is used only for a cut off the lattice and for drawing.

Set-up file: `players`, `map` (each entry `tile` id, tile-grid cell `at: [q, r]`, `rotation` 0-5),
optional `centre` (the base's centre tile; derived when absent) and optional `areas` (inline tile
definitions in the areas.yaml format, for custom tiles; they replace bundled tiles of the same id).

Codes: tile-overlap, map-tile-count, doubles-in-base, tile-detached, map-disconnected, plus
tile-repeated, doubles-count and base-incomplete.

For scoring: `build_map(setup)` gives every space (id `<tile>.<k>`, e.g. `a2-4.0`, its terrain and
polygon), `adjacent_areas(setup)` which areas touch, `space_adjacency` which spaces touch.

Stays Python, not game.yaml's `setup:` (docs/setups.md): the map is rhombus tiles turned and placed,
not hex cells of one board.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache, cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

from pnpforge.gamekit import (
    N_,
    Coord,
    Hex,
    InputError,
    LatticeCell,
    Phrase,
    Report,
    Rotation,
    SetupModel,
    Source,
    StrictInt,
    Triangle,
    adjacency,
    components,
    folder_id,
    hex_lattice,
    hexgrid,
    lattice_adjacency,
    player_count,
    polygon_cell,
    quoted,
    read_yaml,
    series,
    validate,
)
from pnpforge.gamekit import Key as Field

if TYPE_CHECKING:  # shapely is imported only for a polygon operation the lattice cannot answer
    from shapely.geometry import Polygon

    from pnpforge.gamekit import BoardPicture  # (drawn by `picture` only: imported there)

GAME = folder_id(Path(__file__).parent)  # the game's id: its folder's name
Players = Annotated[StrictInt, player_count(Path(__file__).parent, "Quo Vadis")]  # game.yaml's range
AREAS_FILE = Path(__file__).parent / "areas.yaml"
TILE_MM = 20.0  # drawn tile circumradius
OVERLAP_AREA = 1e-6  # in tile units squared: more than float noise, far less than any real overlap
AreaNumber = Annotated[StrictInt, Field(ge=1, le=5)]

# set-up pictures (`pnpforge setup --draw`): this game's terrain colours
PICTURE_COLOURS = {"sea": "#9ccbe8"}


class SpaceCut(SetupModel):
    space: StrictInt
    corners: tuple[StrictInt, StrictInt, StrictInt]
    faces: tuple[StrictInt, StrictInt]


class Geometry(SetupModel, extra="allow"):
    spaces: tuple[SpaceCut, SpaceCut, SpaceCut]


class SetupRules(SetupModel):
    base: dict[str, StrictInt]
    extra_tiles: StrictInt
    doubles_by_players: dict[int, StrictInt]


class Terrain(SetupModel):
    colour: str
    en: str
    ja: str


class AreaTile(SetupModel):
    """One area tile: `id`, the two area `numbers` (low, high) and the terrain of each of its 3 spaces."""

    id: str
    numbers: tuple[AreaNumber, AreaNumber]
    spaces: tuple[str, str, str]

    @property
    def double(self) -> bool:
        return self.numbers[0] == self.numbers[1]

    @property
    def label(self) -> str:
        return f"{self.numbers[0]}-{self.numbers[1]}"


class AreasFile(SetupModel):
    geometry: Geometry
    terrains: dict[str, Terrain]
    tiles: list[AreaTile]
    setup: SetupRules


@cache
def load_areas(path: Path = AREAS_FILE) -> AreasFile:
    """areas.yaml, type-checked; a designer's typo there is a located InputError like any other."""
    source = read_yaml(path)
    areas = validate(AreasFile, source)
    problems = []
    seen: set[str] = set()
    for index, tile in enumerate(areas.tiles):
        if tile.id in seen:
            problems.append(source.problem(("tiles", index, "id"), Phrase(DEFINED_TWICE, tile=repr(tile.id))))
        seen.add(tile.id)
        for k, terrain in enumerate(tile.spaces):
            if terrain not in areas.terrains:
                problems.append(
                    source.problem(("tiles", index, "spaces", k), _unknown_terrain(terrain, areas))
                )
    if problems:
        raise InputError(problems)
    return areas


# the area files' and set-up files' own mistakes (bad input, exit 2)
DEFINED_TWICE = N_("tile {tile} defined twice")
UNKNOWN_TERRAIN = N_("unknown terrain {terrain} (expected one of: {known})")


def _unknown_terrain(terrain: str, areas: AreasFile) -> str:
    return Phrase(UNKNOWN_TERRAIN, terrain=quoted(terrain), known=list(areas.terrains))


class PlacedArea(SetupModel):
    tile: str
    at: Coord
    rotation: Rotation = 0


class Setup(SetupModel):
    game: str  # its game was found by it
    players: Players
    centre: Coord | None = None
    areas: list[AreaTile] = []
    map: list[PlacedArea]


def tile_set(setup: Setup) -> dict[str, AreaTile]:
    """The bundled tiles by id, with the file's inline `areas` replacing or adding to them."""
    tiles = {t.id: t for t in load_areas().tiles}
    return tiles | {t.id: t for t in setup.areas}


def _input_problems(setup: Setup, source: Source) -> None:
    areas = load_areas()
    problems = []
    seen: set[str] = set()
    for index, tile in enumerate(setup.areas):
        if tile.id in seen:
            problems.append(source.problem(("areas", index, "id"), Phrase(DEFINED_TWICE, tile=repr(tile.id))))
        seen.add(tile.id)
        for k, terrain in enumerate(tile.spaces):
            if terrain not in areas.terrains:
                problems.append(
                    source.problem(("areas", index, "spaces", k), _unknown_terrain(terrain, areas))
                )
    known = tile_set(setup)
    for index, placed in enumerate(setup.map):
        if placed.tile not in known:
            message = Phrase(
                N_("unknown area tile {tile} (expected one of: {known})"),
                tile=repr(placed.tile),
                known=list(known),
            )
            problems.append(source.problem(("map", index, "tile"), message))
    if setup.centre is not None and setup.centre not in {p.at for p in setup.map}:
        message = Phrase(
            N_("centre {cell} holds no tile of the map (expected one of the map's `at` cells)"),
            cell=str(list(setup.centre)),
        )
        problems.append(source.problem(("centre",), message))
    if problems:
        raise InputError(problems)


# -- the map as polygons -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Space:
    id: str  # "<tile id>.<k>"
    tile: str
    index: int  # which rhombus of the tile (areas.yaml geometry.spaces)
    terrain: str
    corners: tuple[tuple[float, float], ...]  # in tile units (tile circumradius 1), y down
    cell: LatticeCell | None  # the same rhombus as lattice triangles; None for a cut off the lattice

    @cached_property
    def polygon(self) -> Polygon:
        return polygon_cell(self.corners)


@dataclass
class QvMap:
    """The placed map: spaces as polygons, keyed by map index so even a repeated tile stays separate.

    A tile overlapping an earlier one is `covered` (map index → the first earlier tile it overlaps):
    it is reported as an overlap and left out of `touching`, so a pile of copies on one cell costs
    work in proportion to the copies, not to their pairs.
    """

    placed: list[PlacedArea]
    tiles: list[AreaTile]
    spaces: dict[tuple[int, int], Space] = field(default_factory=dict)
    touching: dict[tuple[int, int], set[tuple[int, int]]] = field(default_factory=dict)
    covered: dict[int, int] = field(default_factory=dict)

    def tile_neighbours(self) -> dict[int, set[int]]:
        """Map index → the map indices of tiles sharing an edge with it (uncovered tiles only)."""
        out: dict[int, set[int]] = {i: set() for i in range(len(self.placed)) if i not in self.covered}
        for (i, _), others in self.touching.items():
            out[i] |= {j for j, _ in others if j != i}
        return out

    def laid(self) -> dict[tuple[int, int], Space]:
        """The spaces of the tiles no earlier tile lies under."""
        return {key: space for key, space in self.spaces.items() if key[0] not in self.covered}


LATTICE = hex_lattice(1.0)


def space_corners(at: Hex, rotation: int, corners: tuple[int, int, int]) -> tuple[tuple[float, float], ...]:
    """The rhombus of a tile at tile-grid cell `at`: its centre and three consecutive corners, rotated."""
    points = hexgrid.corners(at, 1.0)
    return (hexgrid.to_pixel(at, 1.0), *(points[(c + rotation) % 6] for c in corners))


def build_map(setup: Setup) -> QvMap:
    """Every space of the map as a polygon, and which spaces share an edge."""
    cuts = load_areas().geometry.spaces
    known = tile_set(setup)
    qv = QvMap(setup.map, [known[p.tile] for p in setup.map])
    for i, (placed, tile) in enumerate(zip(setup.map, qv.tiles, strict=True)):
        for cut in cuts:
            corners = space_corners(placed.at, placed.rotation, cut.corners)
            qv.spaces[(i, cut.space)] = Space(
                f"{tile.id}.{cut.space}",
                tile.id,
                cut.space,
                tile.spaces[cut.space],
                corners,
                LATTICE.cell(corners),
            )
    lattice = _lattice_cells(qv)
    qv.covered = _overlapping_tiles(qv) if lattice is None else _covered_on_lattice(qv, lattice)
    laid = qv.laid()
    if lattice is not None:
        qv.touching = lattice_adjacency({key: lattice[key] for key in laid})
    else:
        qv.touching = adjacency({key: s.polygon for key, s in laid.items()})
    return qv


def _covered_on_lattice(qv: QvMap, lattice: dict[tuple[int, int], LatticeCell]) -> dict[int, int]:
    """Each tile sharing a triangle with an earlier uncovered tile → the first such tile, in one pass."""
    owner: dict[Triangle, int] = {}
    covered: dict[int, int] = {}
    for i in range(len(qv.placed)):
        triangles = [t for k in range(3) if (i, k) in lattice for t in lattice[(i, k)].triangles]
        under = [owner[t] for t in triangles if t in owner]
        if under:
            covered[i] = min(under)
        else:
            owner.update(dict.fromkeys(triangles, i))
    return covered


def _lattice_cells(qv: QvMap) -> dict[tuple[int, int], LatticeCell] | None:
    """Every space as lattice triangles, or None when any space is off the lattice (shapely decides then)."""
    cells = {key: s.cell for key, s in qv.spaces.items() if s.cell is not None}
    return cells if len(cells) == len(qv.spaces) else None


def space_adjacency(setup: Setup) -> dict[str, set[str]]:
    """Space id → ids of the spaces sharing an edge with it (the three spaces of one tile all touch)."""
    qv = build_map(setup)
    return {qv.spaces[k].id: {qv.spaces[o].id for o in others} for k, others in qv.touching.items()}


def adjacent_areas(setup: Setup) -> dict[str, set[str]]:
    """Area (tile id) → the areas it is adjacent to: some space of each shares an edge with the other's.

    This is the adjacency of the final scoring's territory bonus (areas you control, connected through
    adjacent areas).
    """
    qv = build_map(setup)
    out: dict[str, set[str]] = {t.id: set() for t in qv.tiles}
    for i, others in qv.tile_neighbours().items():
        out[qv.tiles[i].id] |= {qv.tiles[j].id for j in others if qv.tiles[j].id != qv.tiles[i].id}
    return out


# -- the checks ----------------------------------------------------------------------------------------


# the violations, as templates (a `Phrase` each) said in the catalogs (locale/*.po): the page's set-up
# check and `validate --lang LANG` (Quo Vadis rulebook, コンポーネント, ゲームの準備 1 天地開闢)
TILE_AT = N_("{tile} at {at}")
GROUP = N_("{tiles}")  # tiles cut off together, said one by one
REPEATED = N_("area tile {tile} is placed {count} times; there is one")
TILE_COUNT = N_("{count} area tiles for {players} players (expected {wanted})")
DOUBLES_COUNT = N_("{count} double tiles for {players} players (expected {wanted})")
DISCONNECTED = N_("the map falls into {parts} separate parts ({sizes} tiles); cut off: {cut_off}")
OVERLAP = N_("tiles {a} and {b} overlap")
CENTRE_OPEN = N_("the centre tile at {at} does not have six tiles around it (the base)")
NO_BASE = N_("no tile has six tiles around it: the base is one centre tile with six around it")
DOUBLE_IN_BASE = N_("double {tile} is in the base ({role}); doubles only join outside the base")
DETACHED = N_("{tile} does not touch the ring around the centre {centre}")
# the set-up picture's title and the doubles' badge (`picture`)
PICTURE_TITLE = N_("Quo Vadis: the map for {players} players")
DOUBLE = N_("double (4-5 players)")

# words said as data (set-up keys and values, kinds, labels, names of fields): marked for the
# catalogs (locale/*.po), where each language says them in the game's words
DATA_WORDS = (
    N_("centre"),
    N_("ring"),
)


def names(lang: str) -> dict[str, str]:
    """The terrains by the names areas.yaml gives them in `lang` (`ja:`), keyed by the English name the
    picture shows; {} for a language the file does not name them in."""
    said = {terrain.en: getattr(terrain, lang, None) for terrain in load_areas().terrains.values()}
    return {english: name for english, name in said.items() if isinstance(name, str) and name}


def _name(qv: QvMap, i: int) -> Phrase:
    return Phrase(TILE_AT, tile=qv.tiles[i].id, at=str(list(qv.placed[i].at)))


def check(setup: Setup, source: Source) -> Report:
    """Every way the map breaks the rulebook's set-up (ゲームの準備 1, 天地開闢)."""
    _input_problems(setup, source)
    report = Report(GAME)
    qv = build_map(setup)
    rules = load_areas().setup
    _check_overlap(qv, report)
    cells_of: dict[str, list[list[int]]] = {}
    for placed in setup.map:
        cells_of.setdefault(placed.tile, []).append(list(placed.at))
    for tile_id, where in sorted(cells_of.items()):
        if len(where) > 1:
            report.error("tile-repeated", Phrase(REPEATED, tile=tile_id, count=len(where)), where)
    wanted_doubles = rules.doubles_by_players.get(setup.players, 0)
    wanted = 1 + rules.base.get("ring", 6) + rules.extra_tiles + wanted_doubles
    if len(setup.map) != wanted:
        message = Phrase(TILE_COUNT, count=len(setup.map), players=setup.players, wanted=wanted)
        report.error("map-tile-count", message)
    doubles = [i for i, t in enumerate(qv.tiles) if t.double]
    if len(doubles) != wanted_doubles:
        report.error(
            "doubles-count",
            Phrase(DOUBLES_COUNT, count=len(doubles), players=setup.players, wanted=wanted_doubles),
            [list(qv.placed[i].at) for i in doubles],
        )
    _check_base(setup, qv, report)
    groups = components(qv.laid(), qv.touching)
    if len(groups) > 1:
        tiles = [sorted({i for i, _ in g}) for g in groups]
        sizes = " + ".join(str(len(t)) for t in tiles)
        cut_off = series([Phrase(GROUP, tiles=[_name(qv, i) for i in t]) for t in tiles[1:]])
        message = Phrase(DISCONNECTED, parts=len(groups), sizes=sizes, cut_off=cut_off)
        report.error("map-disconnected", message, [[list(qv.placed[i].at) for i in t] for t in tiles])
    return report


def _check_overlap(qv: QvMap, report: Report) -> None:
    for j, i in sorted(qv.covered.items(), key=lambda pair: (pair[1], pair[0])):
        message = Phrase(OVERLAP, a=_name(qv, i), b=_name(qv, j))
        report.error("tile-overlap", message, [list(qv.placed[i].at), list(qv.placed[j].at)])


def _overlapping_tiles(qv: QvMap) -> dict[int, int]:
    """`_covered_on_lattice` for spaces off the lattice, by shapely (overlap: positive-area intersection)."""
    from shapely.strtree import STRtree

    keys = list(qv.spaces)
    polygons = [qv.spaces[k].polygon for k in keys]
    tree = STRtree(polygons)
    covered: dict[int, int] = {}
    for a, polygon in enumerate(polygons):
        i = keys[a][0]
        for b in tree.query(polygon, predicate="intersects"):
            j, other = keys[int(b)][0], polygons[int(b)]
            if j >= i or j in covered or (i in covered and covered[i] <= j):
                continue
            # neighbours only touch; the area test keeps float noise from counting as an overlap
            if not polygon.touches(other) and polygon.intersection(other).area > OVERLAP_AREA:
                covered[i] = j
    return covered


def _check_base(setup: Setup, qv: QvMap, report: Report) -> None:
    """The base (a centre tile and the six around it) holds no double; every other tile touches its ring."""
    neighbours = qv.tile_neighbours()
    full = [i for i, n in neighbours.items() if len({qv.placed[j].at for j in n}) >= 6]
    if setup.centre is not None:
        chosen = [i for i, p in enumerate(qv.placed) if p.at == setup.centre]
        full = [i for i in chosen if i in full]
        if not full:
            message = Phrase(CENTRE_OPEN, at=str(list(setup.centre)))
            report.error("base-incomplete", message, [list(setup.centre)])
            return
    if not full:
        message = Phrase(NO_BASE)
        report.error("base-incomplete", message)
        return
    # Several tiles may be surrounded: judge the map by the reading with the fewest violations.
    readings = [_base_violations(qv, centre, neighbours) for centre in full]
    best = min(readings, key=len)
    for code, message, where in best:
        report.error(code, message, where)


def _base_violations(
    qv: QvMap, centre: int, neighbours: dict[int, set[int]]
) -> list[tuple[str, Phrase, list]]:
    ring = neighbours[centre] - {centre}
    base = ring | {centre}
    found: list[tuple[str, Phrase, list]] = []
    for i in sorted(base):
        if qv.tiles[i].double:
            role = "centre" if i == centre else "ring"
            message = Phrase(DOUBLE_IN_BASE, tile=_name(qv, i), role=Phrase.word(role))
            found.append(("doubles-in-base", message, [list(qv.placed[i].at)]))
    for i in sorted(neighbours):
        if i not in base and not neighbours[i] & ring:
            message = Phrase(DETACHED, tile=_name(qv, i), centre=_name(qv, centre))
            found.append(("tile-detached", message, [list(qv.placed[i].at)]))
    return found


# -- the picture ---------------------------------------------------------------------------------------


def picture(setup: Setup) -> BoardPicture:
    """The map as drawn by `pnpforge setup quo-vadis --draw`: spaces in terrain colours, numbers in badges."""
    # the drawing's names, imported only when a picture is drawn (checking never draws)
    from pnpforge.gamekit import BoardPicture, CellShape, PieceMark, legend_of

    areas = load_areas()
    qv = build_map(setup)
    pic = BoardPicture(Phrase(PICTURE_TITLE, players=setup.players), palette=PICTURE_COLOURS)
    pic.grid = TILE_MM  # a violation names tiles by their `at`: hexes of this size, drawn as spaces
    patterns = {"sea": "dots", "mountain": "hatch"}  # tells terrains apart in grey print too
    for space in qv.spaces.values():
        points = [(x * TILE_MM, y * TILE_MM) for x, y in list(space.polygon.exterior.coords)[:-1]]
        colour = areas.terrains[space.terrain].colour
        pic.cells.append(CellShape(points, colour, pattern=patterns.get(space.terrain)))
        pic.legend.append((colour, areas.terrains[space.terrain].en))
    for placed, tile in zip(qv.placed, qv.tiles, strict=True):
        x, y = hexgrid.to_pixel(placed.at, TILE_MM)
        badge = "black" if tile.double else "white"
        pic.pieces.append(PieceMark((x, y), "badge", badge, tile.label, size=TILE_MM * 0.45))
    pic.legend.append(("black", Phrase.word(DOUBLE)))
    pic.legend = legend_of(pic.legend)
    return pic
