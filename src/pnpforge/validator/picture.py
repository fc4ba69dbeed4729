"""A board set-up as a picture description, independent of the output format.

A game's `checks.picture(setup)` fills a `BoardPicture` in millimetres (y grows down); `layouts/boardpic.py`
draws it to PDF at physical scale, SVG or PNG. Colours are names (the picture's own `palette`, then
`PALETTE`) or `#rrggbb`; icons are names the renderer knows (unknown names fall back to a plain disc,
so a game never breaks drawing).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace

from pnpforge.geometry import hexgrid
from pnpforge.geometry.hexgrid import Hex

__all__ = [
    "centroid",
    "hex_centre",
    "hex_points",
    "legend_of",
    "rgb",
    "said",
    "side_points",
    "spread",
    "BoardPicture",
    "CellShape",
    "HeavyEdge",
    "PieceMark",
]

Point = tuple[float, float]

PALETTE: dict[str, str] = {  # colour names every game may use; a game adds its own (terrain...) per picture
    "red": "#d43d2f",
    "yellow": "#f2c530",
    "green": "#3f9a45",
    "blue": "#2f6fc4",
    "pink": "#e68bb8",
    "black": "#2b2b2b",
    "white": "#f7f7f2",
    "grey": "#9a9a9a",
    "outline": "#555555",
}


def rgb(colour: str, palette: dict[str, str] | None = None) -> tuple[float, float, float]:
    """A name (the game's `palette`, then `PALETTE`) or `#rrggbb` as 0..1 floats; unknown names draw grey."""
    value = (palette or {}).get(colour) or PALETTE.get(colour, colour)
    if not (isinstance(value, str) and value.startswith("#") and len(value) == 7):
        value = PALETTE["grey"]
    return (int(value[1:3], 16) / 255.0, int(value[3:5], 16) / 255.0, int(value[5:7], 16) / 255.0)


@dataclass
class CellShape:
    points: list[Point]
    fill: str
    label: str = ""
    pattern: str | None = None  # "hatch" or "dots": tells cells apart without colour
    icon: str | None = None  # drawn at the cell's centre
    icon_colour: str = "black"
    stroke: str = "outline"


@dataclass
class HeavyEdge:
    points: list[Point]
    colour: str
    width: float = 1.2  # mm
    dash: bool = False


@dataclass
class PieceMark:
    at: Point
    icon: str  # e.g. "cube", "monster", "temple", "statue", "tile", "camel", "warrior", "god", "obelisk"
    colour: str
    label: str = ""
    size: float = 4.0  # mm across


@dataclass
class BoardPicture:
    title: str
    cells: list[CellShape] = field(default_factory=list)
    edges: list[HeavyEdge] = field(default_factory=list)
    pieces: list[PieceMark] = field(default_factory=list)
    legend: list[tuple[str, ...]] = field(default_factory=list)  # (colour, text) or (colour, text, icon)
    palette: dict[str, str] = field(default_factory=dict)  # the game's own colour names, e.g. terrain
    turned: float = 0.0  # degrees the board was turned (`turn`): what is laid over it turns the same
    grid: float = 0.0  # the hex size (mm) of the cells a check names, when the drawn cells are not hexes

    def turn(self, degrees: float) -> None:
        """Turn every cell, edge and piece `degrees` clockwise (y grows down) about the origin: e.g. 30 for
        a board of pointy-top hexes printed flat-top."""
        self.turned += degrees
        cos, sin = math.cos(math.radians(degrees)), math.sin(math.radians(degrees))

        def turned(p: Point) -> Point:
            return (round(p[0] * cos - p[1] * sin, 4), round(p[0] * sin + p[1] * cos, 4))

        for cell in self.cells:
            cell.points = [turned(p) for p in cell.points]
        for edge in self.edges:
            edge.points = [turned(p) for p in edge.points]
        for piece in self.pieces:
            piece.at = turned(piece.at)

    def place(self, p: Point) -> Point:
        """A point of the unturned grid (e.g. `hex_centre`) where it lies on this picture."""
        if not self.turned:
            return p
        cos, sin = math.cos(math.radians(self.turned)), math.sin(math.radians(self.turned))
        return (p[0] * cos - p[1] * sin, p[0] * sin + p[1] * cos)

    def bounds(self) -> tuple[float, float, float, float]:
        xs = [x for c in self.cells for x, _ in c.points] or [0.0]
        ys = [y for c in self.cells for _, y in c.points] or [0.0]
        return (min(xs), min(ys), max(xs), max(ys))


def said(pic: BoardPicture, tr: Callable[[str], str]) -> BoardPicture:
    """The same picture with every text a person reads (title, legend, cell and piece labels) said by `tr`
    (a game's translator, `Game.translator(lang)`); shapes, colours and icons unchanged."""
    return replace(
        pic,
        title=tr(pic.title),
        cells=[replace(c, label=tr(c.label)) if c.label else c for c in pic.cells],
        pieces=[replace(p, label=tr(p.label)) if p.label else p for p in pic.pieces],
        legend=[(colour, tr(text), *icon) for colour, text, *icon in pic.legend],
    )


def hex_points(cell: Hex, size: float) -> list[Point]:
    return [(round(x, 4), round(y, 4)) for x, y in hexgrid.corners(cell, size)]


def hex_centre(cell: Hex, size: float) -> Point:
    return hexgrid.to_pixel(cell, size)


def side_points(a: Hex, b: Hex, size: float) -> list[Point]:
    """The two ends of the side between neighbouring hexes, in mm."""
    direction = hexgrid.direction_between(a, b)
    if direction is None:
        return []
    return [hexgrid.vertex_to_pixel(v, size) for v in hexgrid.side_vertices(a, direction)]


def spread(centre: Point, count: int, radius: float) -> list[Point]:
    """`count` positions around `centre` so several pieces on one space stay visible."""
    if count <= 1:
        return [centre] * count
    return [
        (
            centre[0] + radius * math.cos(math.radians(-90 + 360 * i / count)),
            centre[1] + radius * math.sin(math.radians(-90 + 360 * i / count)),
        )
        for i in range(count)
    ]


def legend_of(entries: Iterable[tuple[str, ...]]) -> list[tuple[str, ...]]:
    """Legend entries in first-seen order, each once."""
    return list(dict.fromkeys(entries))


def centroid(points: Sequence[Point]) -> Point:
    return (sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points))
