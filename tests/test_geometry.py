"""The geometry core: hex arithmetic, polygon cells, adjacency by shared edge, outer edge, splits."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st
from shapely.geometry import Polygon

from pnpforge.geometry import hexgrid
from pnpforge.geometry.cells import (
    adjacency,
    components,
    enclosed_gaps,
    hex_adjacency,
    hex_outer_edge,
    hex_polygons,
    on_outer_edge,
    outer_rings,
    parts,
    polygon_cell,
    union,
)
from pnpforge.geometry.split import side_path, sides_line, split_cells, walls

coords = st.tuples(st.integers(-50, 50), st.integers(-50, 50))


@st.composite
def connected_cells(draw: st.DrawFn, max_size: int = 40) -> set[hexgrid.Hex]:
    """A connected set grown from the origin, one random neighbour at a time."""
    seed = draw(st.integers(0, 10**6))
    size = draw(st.integers(1, max_size))
    rng = random.Random(seed)
    cells = {(0, 0)}
    while len(cells) < size:
        cells.add(hexgrid.neighbour(rng.choice(sorted(cells)), rng.randrange(6)))
    return cells


@given(coords, st.integers(0, 5))
def test_six_rotations_are_the_identity(cell: hexgrid.Hex, k: int) -> None:
    assert hexgrid.rotate(cell, 6) == cell
    assert hexgrid.rotate(hexgrid.rotate(cell, k), 6 - k) == cell
    assert hexgrid.distance(hexgrid.rotate(cell, k), (0, 0)) == hexgrid.distance(cell, (0, 0))


def test_rotation_and_directions_follow_the_rulings() -> None:
    # one clockwise step: E -> SE -> SW -> W -> NW -> NE -> E
    assert [hexgrid.rotate((1, 0), k) for k in range(6)] == [
        (1, 0),
        (0, 1),
        (-1, 1),
        (-1, 0),
        (0, -1),
        (1, -1),
    ]
    assert hexgrid.DIRECTIONS[:2] == ((1, 0), (1, -1))
    assert hexgrid.place([(1, 0)], (5, 5), 1) == [(5, 6)]
    assert hexgrid.line((0, 0), 0, 3) == [(1, 0), (2, 0), (3, 0)]
    assert len(hexgrid.ring((2, -1), 3)) == 18
    assert all(hexgrid.distance(c, (2, -1)) == 3 for c in hexgrid.ring((2, -1), 3))


@given(coords)
def test_corner_ids_are_shared_exactly(cell: hexgrid.Hex) -> None:
    for d in range(6):
        other = hexgrid.neighbour(cell, d)
        assert set(hexgrid.side_vertices(cell, d)) == set(hexgrid.side_vertices(other, (d + 3) % 6))
    for v in hexgrid.vertex_ids(cell):
        assert cell in hexgrid.vertex_cells(v) and len(hexgrid.vertex_cells(v)) == 3


@settings(max_examples=40, deadline=None)
@given(connected_cells(), st.sampled_from([1.0, 7.3, 12.7]))
def test_union_of_connected_cells_is_one_polygon(cells: set[hexgrid.Hex], size: float) -> None:
    shape = union(hex_polygons(cells, size).values())
    assert isinstance(shape, Polygon)
    one = hex_polygons([(0, 0)], size)[(0, 0)].area
    assert abs(shape.area - len(cells) * one) < 1e-5 * len(cells) * one  # snapping moves corners by 1e-6


@settings(max_examples=30, deadline=None)
@given(connected_cells(30), connected_cells(30))
def test_separate_groups_stay_separate(a: set[hexgrid.Hex], b: set[hexgrid.Hex]) -> None:
    moved = {(q + 100, r) for q, r in b}
    cells = a | moved
    assert len(parts(union(hex_polygons(cells, 3.3).values()))) == 2
    groups = components(cells, hex_adjacency(cells))
    assert sorted(len(g) for g in groups) == sorted([len(a), len(moved)])


@settings(max_examples=25, deadline=None)
@given(connected_cells(25))
def test_shapely_adjacency_equals_axial_adjacency(cells: set[hexgrid.Hex]) -> None:
    assert adjacency(hex_polygons(cells, 4.1)) == hex_adjacency(cells)


def test_touching_at_a_corner_is_not_adjacency() -> None:
    cells = {
        "a": polygon_cell([(0, 0), (1, 0), (1, 1), (0, 1)]),
        "b": polygon_cell([(1, 1), (2, 1), (2, 2), (1, 2)]),  # corner of a only
        "c": polygon_cell([(1, 0), (2, 0), (2, 0.5), (1, 0.5)]),  # half of a's right side
    }
    assert adjacency(cells) == {"a": {"c"}, "b": set(), "c": {"a"}}
    assert len(components(cells, adjacency(cells))) == 2


def test_rhombus_cells_meet_across_tiles() -> None:
    """Quo Vadis-style tiles: a hexagon cut into 3 rhombi meeting at its centre."""

    def rhombi(tile: hexgrid.Hex) -> dict[str, Polygon]:
        cx, cy = hexgrid.to_pixel(tile, 10.0)
        c = hexgrid.corners(tile, 10.0)
        return {
            f"{tile}-{k}": polygon_cell([(cx, cy), c[2 * k], c[2 * k + 1], c[(2 * k + 2) % 6]])
            for k in range(3)
        }

    cells = rhombi((0, 0)) | rhombi((1, 0))
    adj = adjacency(cells)
    inside = [k for k in cells if k.startswith("(0, 0)")]
    assert all(set(inside) - {k} <= adj[k] for k in inside)  # the three rhombi of one tile touch pairwise
    across = {(a, b) for a in adj for b in adj[a] if a[:6] != b[:6]}
    assert len(across) == 2  # exactly one rhombus pair shares the tiles' common side
    assert isinstance(union(cells.values()), Polygon)


def test_outer_edge_ignores_enclosed_holes() -> None:
    ring = set(hexgrid.ring((0, 0), 1)) | set(hexgrid.ring((0, 0), 2))
    assert enclosed_gaps(ring) == {(0, 0)}
    assert hex_outer_edge(ring) == set(hexgrid.ring((0, 0), 2))
    assert on_outer_edge(hex_polygons(ring, 5.0)) == hex_outer_edge(ring)
    assert len(outer_rings(hex_polygons(ring, 5.0).values())) == 1


def test_side_paths() -> None:
    straight = [((0, 0), (0, 1)), ((1, 0), (0, 1)), ((1, 0), (1, 1))]
    path = side_path(straight)
    assert path is not None and len(path) == 4
    assert side_path([straight[0], straight[2]]) is None  # a gap
    around = [((0, 0), n) for n in hexgrid.neighbours((0, 0))]
    assert side_path(around) is None  # a closed loop has no ends
    assert side_path(around[:3]) is not None
    branch = [((0, 0), (1, 0)), ((0, 0), (1, -1)), ((1, -1), (1, 0))]  # three sides meeting at one corner
    assert side_path(branch) is None
    assert side_path(straight + straight[:1]) is None  # a side twice


@settings(max_examples=25, deadline=None)
@given(st.integers(2, 5), st.integers(-1, 1), st.integers(0, 10**6))
def test_a_split_conserves_cells_and_agrees_with_graph_search(radius: int, row: int, seed: int) -> None:
    """Cut a hexagonal board along the zigzag between two rows: shapely and the graph agree."""
    rng = random.Random(seed)
    cells = set(hexgrid.spiral((0, 0), radius))
    rim = sorted(c for c in hexgrid.ring((0, 0), radius) if c[1] not in (row, row + 1))
    cells -= set(rng.sample(rim, min(radius, len(rim))))  # a ragged edge away from the cut, still connected
    sides = sorted(
        hexgrid.edge_key(a, b)
        for a in cells
        for b in hexgrid.neighbours(a)
        if b in cells and a[1] == row and b[1] == row + 1
    )
    graph = components(cells, hex_adjacency(cells), walls(sides))
    line = sides_line(sides, 6.0)
    assert line is not None
    pieces = split_cells(hex_polygons(cells, 6.0), line)
    assert sum(len(p) for p in pieces) == len(cells)
    assert sorted(map(sorted, pieces)) == sorted(map(sorted, graph))
    assert {len(p) for p in graph} == {
        len([c for c in cells if c[1] <= row]),
        len([c for c in cells if c[1] > row]),
    }
