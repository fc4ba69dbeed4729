"""The built-in icons' table: each name's recipe of shapes (polygons, ellipses, strokes) in a unit box.

Each icon is a list of primitives in a unit box (0..1, y down), fitted square and centred in the
box it is drawn in. Details that must read as holes ("knock-outs") are flagged `knock`, since a Canvas
polygon has no holes.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from pnpforge.output.canvas import Point


@dataclass(frozen=True)
class Poly:
    points: tuple[Point, ...]
    knock: bool = False


@dataclass(frozen=True)
class Ellipse:
    cx: float
    cy: float
    rx: float
    ry: float
    knock: bool = False


@dataclass(frozen=True)
class Stroke:
    """A thick line (or closed ring when `closed`) in the icon's colour; width in unit-box terms."""

    points: tuple[Point, ...]
    width: float
    knock: bool = False
    closed: bool = False


Shape = Poly | Ellipse | Stroke


def _p(*points: Point, knock: bool = False) -> Poly:
    return Poly(tuple(points), knock)


def _rect(x0: float, y0: float, x1: float, y1: float, knock: bool = False) -> Poly:
    return Poly(((x0, y0), (x1, y0), (x1, y1), (x0, y1)), knock)


def _e(cx: float, cy: float, rx: float, ry: float | None = None, knock: bool = False) -> Ellipse:
    return Ellipse(cx, cy, rx, rx if ry is None else ry, knock)


def _arc(
    cx: float, cy: float, rx: float, ry: float, start: float, end: float, steps: int = 16
) -> list[Point]:
    """Points on an elliptical arc from `start` to `end` degrees (0 = east, clockwise as y is down)."""
    return [
        (
            cx + rx * math.cos(math.radians(start + (end - start) * k / steps)),
            cy + ry * math.sin(math.radians(start + (end - start) * k / steps)),
        )
        for k in range(steps + 1)
    ]


def _knocked(poly: Poly) -> Poly:
    return Poly(poly.points, knock=True)


def _star(cx: float, cy: float, outer: float, inner: float, points: int) -> Poly:
    out = []
    for k in range(points * 2):
        radius = outer if k % 2 == 0 else inner
        angle = math.radians(-90 + 180 * k / points)
        out.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
    return Poly(tuple(out))


def _regular(cx: float, cy: float, radius: float, sides: int, start: float) -> Poly:
    angles = [math.radians(start + 360 * k / sides) for k in range(sides)]
    return Poly(tuple((cx + radius * math.cos(a), cy + radius * math.sin(a)) for a in angles))


def _pips(count: int) -> list[Shape]:
    lo, mid, hi, r = 0.24, 0.5, 0.76, 0.095
    spots = {
        1: [(mid, mid)],
        2: [(lo, lo), (hi, hi)],
        3: [(lo, lo), (mid, mid), (hi, hi)],
        4: [(lo, lo), (hi, lo), (lo, hi), (hi, hi)],
        5: [(lo, lo), (hi, lo), (mid, mid), (lo, hi), (hi, hi)],
        6: [(lo, lo), (hi, lo), (lo, mid), (hi, mid), (lo, hi), (hi, hi)],
    }[count]
    return [_e(x, y, r) for x, y in spots]


def _temple() -> list[Shape]:
    columns = [_rect(x - 0.055, 0.44, x + 0.055, 0.8) for x in (0.2, 0.4, 0.6, 0.8)]
    return [
        _p((0.06, 0.32), (0.5, 0.07), (0.94, 0.32)),
        _rect(0.1, 0.34, 0.9, 0.42),
        *columns,
        _rect(0.08, 0.82, 0.92, 0.88),
        _rect(0.03, 0.9, 0.97, 0.96),
    ]


def _person() -> list[Shape]:
    return [
        _e(0.5, 0.19, 0.14),
        _p(
            (0.37, 0.35), (0.63, 0.35), (0.68, 0.41), (0.93, 0.49), (0.95, 0.61), (0.69, 0.6), (0.71, 0.71),
            (0.87, 0.95), (0.58, 0.95), (0.5, 0.8), (0.42, 0.95), (0.13, 0.95), (0.29, 0.71), (0.31, 0.6),
            (0.05, 0.61), (0.07, 0.49), (0.32, 0.41),
        ),
    ]  # fmt: skip


def _crystal() -> list[Shape]:
    return [
        _p((0.5, 0.03), (0.8, 0.3), (0.72, 0.84), (0.5, 0.97), (0.28, 0.84), (0.2, 0.3)),
        Stroke(((0.2, 0.3), (0.5, 0.44), (0.8, 0.3)), 0.035, knock=True),
        Stroke(((0.5, 0.44), (0.5, 0.97)), 0.035, knock=True),
        Stroke(((0.5, 0.03), (0.38, 0.37)), 0.025, knock=True),
    ]


def _crown() -> list[Shape]:
    return [
        _p((0.08, 0.3), (0.3, 0.56), (0.5, 0.2), (0.7, 0.56), (0.92, 0.3), (0.84, 0.76), (0.16, 0.76)),
        _rect(0.16, 0.8, 0.84, 0.91),
        _e(0.08, 0.25, 0.065),
        _e(0.5, 0.15, 0.065),
        _e(0.92, 0.25, 0.065),
        _e(0.5, 0.62, 0.055, knock=True),
    ]


def _sheep() -> list[Shape]:
    wool = [(0.28, 0.42), (0.42, 0.33), (0.58, 0.33), (0.7, 0.42), (0.28, 0.6), (0.44, 0.66), (0.6, 0.64)]
    return [
        _rect(0.3, 0.6, 0.37, 0.9),
        _rect(0.56, 0.6, 0.63, 0.9),
        _e(0.48, 0.5, 0.3, 0.18),
        *[_e(x, y, 0.13) for x, y in wool],
        _e(0.17, 0.5, 0.08, 0.1),
        _e(0.8, 0.42, 0.11, 0.09),
        _p((0.74, 0.36), (0.68, 0.26), (0.78, 0.33)),
        _e(0.84, 0.4, 0.022, knock=True),
    ]


def _pasture() -> list[Shape]:
    blades = [
        _p((0.08, 0.84), (0.14, 0.5), (0.22, 0.84)),
        _p((0.18, 0.84), (0.3, 0.28), (0.38, 0.84)),
        _p((0.34, 0.84), (0.5, 0.12), (0.6, 0.84)),
        _p((0.56, 0.84), (0.72, 0.3), (0.76, 0.84)),
        _p((0.72, 0.84), (0.88, 0.48), (0.92, 0.84)),
    ]
    return [*blades, _rect(0.04, 0.84, 0.96, 0.93)]


def _hut() -> list[Shape]:
    return [
        _p((0.04, 0.5), (0.5, 0.08), (0.96, 0.5)),
        _rect(0.17, 0.46, 0.83, 0.92),
        _rect(0.41, 0.62, 0.59, 0.92, knock=True),
    ]


def _ship() -> list[Shape]:
    return [
        _p((0.04, 0.63), (0.96, 0.63), (0.8, 0.87), (0.2, 0.87)),
        _rect(0.475, 0.08, 0.525, 0.63),
        _p((0.56, 0.1), (0.9, 0.58), (0.56, 0.58)),
        _p((0.44, 0.2), (0.44, 0.58), (0.16, 0.58)),
        _p((0.5, 0.04), (0.66, 0.08), (0.5, 0.12)),
    ]


def _monster() -> list[Shape]:
    teeth = [
        (0.3, 0.7),
        (0.7, 0.7),
        (0.66, 0.8),
        (0.6, 0.72),
        (0.55, 0.82),
        (0.5, 0.72),
        (0.45, 0.82),
        (0.4, 0.72),
    ]
    return [
        _p((0.24, 0.42), (0.1, 0.06), (0.4, 0.3)),
        _p((0.76, 0.42), (0.9, 0.06), (0.6, 0.3)),
        _e(0.5, 0.58, 0.38, 0.34),
        _e(0.36, 0.5, 0.085, knock=True),
        _e(0.64, 0.5, 0.085, knock=True),
        _e(0.37, 0.52, 0.04),
        _e(0.63, 0.52, 0.04),
        _p(*teeth, (0.34, 0.8), knock=True),
    ]


def _camel() -> list[Shape]:
    return [
        _e(0.46, 0.5, 0.29, 0.15),
        _e(0.42, 0.38, 0.17, 0.16),
        _p(
            (0.64, 0.44),
            (0.74, 0.3),
            (0.8, 0.18),
            (0.92, 0.18),
            (0.96, 0.25),
            (0.86, 0.28),
            (0.78, 0.56),
            (0.64, 0.6),
        ),
        _rect(0.24, 0.55, 0.3, 0.93),
        _rect(0.34, 0.58, 0.4, 0.93),
        _rect(0.56, 0.58, 0.62, 0.93),
        _rect(0.66, 0.55, 0.72, 0.93),
        Stroke(((0.19, 0.46), (0.12, 0.64)), 0.035),
    ]


def _pyramid() -> list[Shape]:
    return [
        _p((0.04, 0.86), (0.5, 0.12), (0.96, 0.86)),
        Stroke(((0.5, 0.12), (0.62, 0.86)), 0.03, knock=True),
        Stroke(((0.25, 0.52), (0.56, 0.52)), 0.025, knock=True),
        Stroke(((0.15, 0.7), (0.59, 0.7)), 0.025, knock=True),
        _rect(0.0, 0.89, 1.0, 0.94),
    ]


def _obelisk() -> list[Shape]:
    return [
        _p((0.39, 0.88), (0.43, 0.17), (0.5, 0.05), (0.57, 0.17), (0.61, 0.88)),
        _rect(0.28, 0.89, 0.72, 0.96),
    ]


def _ankh() -> list[Shape]:
    loop = tuple(_arc(0.5, 0.25, 0.14, 0.18, 0, 360, 32)[:-1])
    return [
        Stroke(loop, 0.09, closed=True),
        _rect(0.16, 0.43, 0.84, 0.53),
        _p((0.45, 0.5), (0.55, 0.5), (0.59, 0.96), (0.41, 0.96)),
    ]


def _shield() -> list[Shape]:
    return [
        _p(
            (0.14, 0.08), (0.5, 0.02), (0.86, 0.08), (0.86, 0.46), (0.83, 0.62), (0.74, 0.76),
            (0.62, 0.87), (0.5, 0.96), (0.38, 0.87), (0.26, 0.76), (0.17, 0.62), (0.14, 0.46),
        ),
        Stroke(((0.5, 0.14), (0.5, 0.84)), 0.05, knock=True),
        Stroke(((0.24, 0.38), (0.76, 0.38)), 0.05, knock=True),
    ]  # fmt: skip


def _heart() -> list[Shape]:
    points = []
    for k in range(48):
        t = 2 * math.pi * k / 48
        x = 16 * math.sin(t) ** 3
        y = 13 * math.cos(t) - 5 * math.cos(2 * t) - 2 * math.cos(3 * t) - math.cos(4 * t)
        points.append((0.5 + x / 36, 0.46 - y / 36))
    return [Poly(tuple(points))]


def _sword() -> list[Shape]:
    return [
        _p((0.445, 0.14), (0.5, 0.03), (0.555, 0.14), (0.555, 0.66), (0.445, 0.66)),
        Stroke(((0.5, 0.14), (0.5, 0.62)), 0.018, knock=True),
        _rect(0.28, 0.66, 0.72, 0.72),
        _rect(0.46, 0.72, 0.54, 0.88),
        _e(0.5, 0.91, 0.065),
    ]


def _scroll() -> list[Shape]:
    lines = [Stroke(((0.3, y), (0.7, y)), 0.035, knock=True) for y in (0.38, 0.5, 0.62)]
    return [
        _rect(0.2, 0.18, 0.8, 0.82),
        _e(0.5, 0.17, 0.38, 0.08),
        _e(0.5, 0.83, 0.38, 0.08),
        _e(0.5, 0.17, 0.3, 0.03, knock=True),
        *lines,
    ]


def _cube() -> list[Shape]:
    return [
        _p((0.5, 0.06), (0.9, 0.27), (0.5, 0.48), (0.1, 0.27)),
        _p((0.08, 0.32), (0.47, 0.53), (0.47, 0.96), (0.08, 0.75)),
        _p((0.53, 0.53), (0.92, 0.32), (0.92, 0.75), (0.53, 0.96)),
    ]


def _statue() -> list[Shape]:
    return [
        _e(0.5, 0.14, 0.075),
        _p((0.4, 0.25), (0.6, 0.25), (0.63, 0.48), (0.59, 0.7), (0.41, 0.7), (0.37, 0.48)),
        _p((0.58, 0.27), (0.76, 0.06), (0.81, 0.1), (0.64, 0.36)),
        _p((0.41, 0.27), (0.3, 0.5), (0.35, 0.52), (0.44, 0.36)),
        _rect(0.34, 0.72, 0.66, 0.78),
        _rect(0.38, 0.78, 0.62, 0.88),
        _rect(0.28, 0.88, 0.72, 0.95),
    ]


def _shrine() -> list[Shape]:
    dome = _arc(0.5, 0.42, 0.3, 0.3, 180, 360)
    columns = [_rect(x - 0.05, 0.5, x + 0.05, 0.84) for x in (0.25, 0.5, 0.75)]
    return [
        Poly(tuple(dome)),
        _rect(0.47, 0.04, 0.53, 0.14),
        _rect(0.14, 0.42, 0.86, 0.48),
        *columns,
        _rect(0.1, 0.86, 0.9, 0.94),
    ]


def _wave() -> list[Shape]:
    out: list[Shape] = []
    for y0 in (0.28, 0.5, 0.72):
        wave = tuple((0.06 + 0.88 * k / 32, y0 + 0.07 * math.sin(2 * math.pi * k / 16)) for k in range(33))
        out.append(Stroke(wave, 0.085))
    return out


def _mountain() -> list[Shape]:
    return [
        _p((0.02, 0.88), (0.33, 0.36), (0.45, 0.54), (0.64, 0.16), (0.98, 0.88)),
        _p((0.64, 0.16), (0.55, 0.34), (0.6, 0.31), (0.64, 0.37), (0.69, 0.31), (0.74, 0.35), knock=True),
    ]


def _sun() -> list[Shape]:
    rays: list[Shape] = []
    for k in range(8):
        a = math.radians(45 * k)
        tip = (0.5 + 0.47 * math.cos(a), 0.5 + 0.47 * math.sin(a))
        left = (0.5 + 0.3 * math.cos(a - 0.22), 0.5 + 0.3 * math.sin(a - 0.22))
        right = (0.5 + 0.3 * math.cos(a + 0.22), 0.5 + 0.3 * math.sin(a + 0.22))
        rays.append(_p(left, tip, right))
    return [*rays, _e(0.5, 0.5, 0.24)]


def _eye() -> list[Shape]:
    upper = _arc(0.5, 0.9, 0.62, 0.62, 216, 324)
    lower = _arc(0.5, 0.1, 0.62, 0.62, 36, 144)
    return [Poly(tuple(upper + lower)), _e(0.5, 0.5, 0.17, knock=True), _e(0.5, 0.5, 0.09)]


def _scorpion() -> list[Shape]:
    tail = ((0.5, 0.5), (0.5, 0.3), (0.54, 0.17), (0.63, 0.09), (0.74, 0.1), (0.8, 0.18))
    legs: list[Shape] = []
    for y in (0.56, 0.64, 0.72):
        legs.append(Stroke(((0.44, y), (0.26, y + 0.03), (0.18, y + 0.1)), 0.03))
        legs.append(Stroke(((0.56, y), (0.74, y + 0.03), (0.82, y + 0.1)), 0.03))
    return [
        Stroke(tail, 0.07),
        _p((0.76, 0.16), (0.88, 0.22), (0.78, 0.27)),
        *legs,
        _e(0.5, 0.66, 0.1, 0.16),
        _e(0.5, 0.46, 0.07, 0.07),
        Stroke(((0.44, 0.78), (0.3, 0.86), (0.22, 0.86)), 0.045),
        Stroke(((0.56, 0.78), (0.7, 0.86), (0.78, 0.86)), 0.045),
        _p((0.14, 0.82), (0.24, 0.8), (0.26, 0.92), (0.12, 0.95)),
        _p((0.86, 0.82), (0.76, 0.8), (0.74, 0.92), (0.88, 0.95)),
    ]


def _skull() -> list[Shape]:
    teeth = [Stroke(((x, 0.78), (x, 0.9)), 0.025, knock=True) for x in (0.42, 0.5, 0.58)]
    return [
        _e(0.5, 0.42, 0.36, 0.34),
        _p((0.3, 0.62), (0.7, 0.62), (0.68, 0.92), (0.32, 0.92)),
        _e(0.36, 0.46, 0.1, 0.11, knock=True),
        _e(0.64, 0.46, 0.1, 0.11, knock=True),
        _p((0.5, 0.57), (0.45, 0.68), (0.55, 0.68), knock=True),
        *teeth,
    ]


def _coin() -> list[Shape]:
    ring = tuple(_arc(0.5, 0.5, 0.33, 0.33, 0, 360, 40)[:-1])
    return [
        _e(0.5, 0.5, 0.45),
        Stroke(ring, 0.03, knock=True, closed=True),
        _knocked(_star(0.5, 0.53, 0.22, 0.09, 5)),
    ]


def _tree() -> list[Shape]:
    return [
        _rect(0.44, 0.62, 0.56, 0.95),
        _e(0.5, 0.38, 0.3, 0.28),
        _e(0.32, 0.52, 0.18, 0.15),
        _e(0.68, 0.52, 0.18, 0.15),
    ]


def _flag() -> list[Shape]:
    return [_rect(0.18, 0.05, 0.24, 0.95), _p((0.24, 0.08), (0.86, 0.24), (0.24, 0.46))]


def _tower() -> list[Shape]:
    merlons = [_rect(x, 0.06, x + 0.12, 0.2) for x in (0.22, 0.44, 0.66)]
    return [
        *merlons,
        _rect(0.22, 0.2, 0.78, 0.3),
        _rect(0.28, 0.3, 0.72, 0.94),
        _rect(0.42, 0.68, 0.58, 0.94, True),
    ]


def _lightning() -> list[Shape]:
    return [_p((0.56, 0.03), (0.2, 0.56), (0.46, 0.56), (0.36, 0.97), (0.8, 0.4), (0.53, 0.4), (0.68, 0.03))]


def _moon() -> list[Shape]:
    outer = _arc(0.5, 0.5, 0.42, 0.42, 60, 300, 24)
    inner = _arc(0.82, 0.5, 0.376, 0.376, 253, 107, 24)
    return [Poly(tuple(outer + inner))]


def _amphora() -> list[Shape]:
    return [
        Stroke(((0.42, 0.2), (0.24, 0.22), (0.28, 0.44)), 0.05),
        Stroke(((0.58, 0.2), (0.76, 0.22), (0.72, 0.44)), 0.05),
        _rect(0.41, 0.12, 0.59, 0.36),
        _rect(0.34, 0.07, 0.66, 0.13),
        _e(0.5, 0.6, 0.27, 0.3),
        _p((0.42, 0.88), (0.58, 0.88), (0.62, 0.96), (0.38, 0.96)),
    ]


def _arrow() -> list[Shape]:
    return [_p((0.05, 0.4), (0.58, 0.4), (0.58, 0.18), (0.96, 0.5), (0.58, 0.82), (0.58, 0.6), (0.05, 0.6))]


def _check() -> list[Shape]:
    return [_p((0.06, 0.54), (0.2, 0.4), (0.4, 0.6), (0.82, 0.14), (0.96, 0.28), (0.4, 0.88))]


def _warrior() -> list[Shape]:
    return [
        _rect(0.8, 0.04, 0.85, 0.96),
        _p((0.775, 0.1), (0.825, 0.0), (0.875, 0.1)),
        *_person_shapes(0.02),
        _p((0.1, 0.42), (0.38, 0.42), (0.38, 0.72), (0.24, 0.84), (0.1, 0.72)),
    ]


def _person_shapes(dx: float) -> list[Shape]:
    return [
        _e(0.5 + dx, 0.17, 0.12),
        _p(
            (0.39 + dx, 0.31), (0.61 + dx, 0.31), (0.78 + dx, 0.42), (0.78 + dx, 0.52), (0.66 + dx, 0.48),
            (0.66 + dx, 0.7), (0.74 + dx, 0.96), (0.56 + dx, 0.96), (0.5 + dx, 0.78), (0.44 + dx, 0.96),
            (0.26 + dx, 0.96), (0.34 + dx, 0.7), (0.34 + dx, 0.48),
        ),
    ]  # fmt: skip


def _helmet() -> list[Shape]:
    dome = _arc(0.5, 0.5, 0.34, 0.4, 180, 360)
    return [
        _p((0.3, 0.12), (0.5, 0.02), (0.74, 0.1), (0.62, 0.2), (0.4, 0.2)),
        Poly(tuple([*dome, (0.84, 0.94), (0.6, 0.94), (0.6, 0.66), (0.4, 0.66), (0.4, 0.94), (0.16, 0.94)])),
        _rect(0.3, 0.44, 0.7, 0.52, knock=True),
        _rect(0.46, 0.52, 0.54, 0.66, knock=True),
    ]


def _equipment() -> list[Shape]:
    return [
        Stroke(tuple(_arc(0.5, 0.3, 0.2, 0.2, 180, 360, 12)), 0.07),
        _p((0.14, 0.3), (0.86, 0.3), (0.9, 0.9), (0.1, 0.9)),
        _p((0.14, 0.3), (0.86, 0.3), (0.8, 0.56), (0.2, 0.56), knock=True),
        _p((0.18, 0.33), (0.82, 0.33), (0.77, 0.52), (0.23, 0.52)),
        _rect(0.44, 0.5, 0.56, 0.64, knock=True),
    ]


def _injury() -> list[Shape]:
    drop = _arc(0.5, 0.62, 0.3, 0.3, -30, 210, 20)
    return [Poly(tuple([(0.5, 0.04), *drop])), _e(0.4, 0.64, 0.06, 0.1, knock=True)]


def _island() -> list[Shape]:
    hill = _arc(0.5, 0.86, 0.4, 0.22, 180, 360, 20)
    return [
        Poly(tuple(hill)),
        Stroke(((0.5, 0.7), (0.52, 0.45), (0.5, 0.26)), 0.05),
        _p((0.5, 0.24), (0.22, 0.3), (0.3, 0.18)),
        _p((0.5, 0.24), (0.78, 0.3), (0.7, 0.18)),
        _p((0.5, 0.24), (0.36, 0.08), (0.56, 0.12)),
        _p((0.5, 0.24), (0.68, 0.08), (0.6, 0.2)),
        *_wave_lines((0.93,), 0.05, 0.04),
    ]


def _locust() -> list[Shape]:
    return [
        _e(0.48, 0.52, 0.3, 0.1),
        _e(0.82, 0.46, 0.1, 0.09),
        _p((0.3, 0.46), (0.7, 0.42), (0.2, 0.28), knock=False),
        Stroke(((0.62, 0.55), (0.44, 0.78), (0.36, 0.9)), 0.04),
        Stroke(((0.44, 0.6), (0.36, 0.78)), 0.03),
        Stroke(((0.7, 0.58), (0.72, 0.8)), 0.03),
        Stroke(((0.86, 0.38), (0.96, 0.16)), 0.02),
        _e(0.85, 0.44, 0.02, knock=True),
    ]


def _scales() -> list[Shape]:
    left = _arc(0.2, 0.56, 0.16, 0.14, 0, 180, 10)
    right = _arc(0.8, 0.56, 0.16, 0.14, 0, 180, 10)
    return [
        _rect(0.47, 0.12, 0.53, 0.88),
        _rect(0.3, 0.88, 0.7, 0.95),
        _rect(0.12, 0.18, 0.88, 0.23),
        _e(0.5, 0.12, 0.06),
        Stroke(((0.2, 0.2), (0.06, 0.56), (0.34, 0.56), (0.2, 0.2)), 0.02),
        Stroke(((0.8, 0.2), (0.66, 0.56), (0.94, 0.56), (0.8, 0.2)), 0.02),
        Poly(tuple(left)),
        Poly(tuple(right)),
    ]


def _cloud() -> list[Shape]:
    return [_e(0.34, 0.36, 0.18), _e(0.56, 0.28, 0.22), _e(0.76, 0.4, 0.16), _rect(0.2, 0.36, 0.8, 0.52)]


def _storm() -> list[Shape]:
    bolt = _p((0.5, 0.5), (0.34, 0.76), (0.48, 0.76), (0.4, 0.98), (0.66, 0.66), (0.52, 0.66), (0.62, 0.5))
    return [*_cloud(), bolt]


def _town() -> list[Shape]:
    return [
        _rect(0.06, 0.5, 0.36, 0.94),
        _p((0.02, 0.52), (0.21, 0.32), (0.4, 0.52)),
        _rect(0.4, 0.2, 0.64, 0.94),
        _p((0.38, 0.22), (0.52, 0.04), (0.66, 0.22)),
        _rect(0.68, 0.44, 0.96, 0.94),
        _p((0.64, 0.46), (0.82, 0.28), (0.99, 0.46)),
        _rect(0.47, 0.34, 0.57, 0.46, knock=True),
        _rect(0.16, 0.72, 0.26, 0.94, knock=True),
        _rect(0.77, 0.62, 0.87, 0.74, knock=True),
    ]


def _city() -> list[Shape]:
    merlons = [_rect(x, 0.36, x + 0.07, 0.44) for x in (0.3, 0.46, 0.62)]
    return [
        *merlons,
        _rect(0.2, 0.44, 0.8, 0.94),
        _rect(0.04, 0.22, 0.26, 0.94),
        _rect(0.74, 0.22, 0.96, 0.94),
        _p((0.02, 0.24), (0.15, 0.04), (0.28, 0.24)),
        _p((0.72, 0.24), (0.85, 0.04), (0.98, 0.24)),
        _rect(0.4, 0.66, 0.6, 0.94, knock=True),
        _e(0.5, 0.66, 0.1, 0.08, knock=True),
    ]


def _wave_lines(rows: tuple[float, ...], amplitude: float, width: float) -> list[Shape]:
    out: list[Shape] = []
    for y0 in rows:
        wave = tuple(
            (0.06 + 0.88 * k / 32, y0 + amplitude * math.sin(2 * math.pi * k / 16)) for k in range(33)
        )
        out.append(Stroke(wave, width))
    return out


def _wheat() -> list[Shape]:
    grains: list[Shape] = [Stroke(((0.5, 0.96), (0.5, 0.1)), 0.04)]
    for k in range(4):
        y = 0.22 + k * 0.15
        grains.append(_e(0.38, y + 0.04, 0.08, 0.05))
        grains.append(_e(0.62, y + 0.04, 0.08, 0.05))
    grains.append(_e(0.5, 0.1, 0.05, 0.08))
    return grains


def _wilderness() -> list[Shape]:
    def pine(cx: float, top: float, half: float, bottom: float) -> list[Shape]:
        mid = top + (bottom - top) * 0.45
        return [
            _rect(cx - 0.03, bottom - 0.02, cx + 0.03, 0.95),
            _p((cx, top), (cx + half * 0.7, mid), (cx - half * 0.7, mid)),
            _p((cx, top + 0.12), (cx + half, bottom), (cx - half, bottom)),
        ]

    return [*pine(0.32, 0.06, 0.26, 0.82), *pine(0.72, 0.3, 0.2, 0.86)]


def _zeus() -> list[Shape]:
    return [
        _e(0.5, 0.5, 0.46),
        _p(
            (0.56, 0.1),
            (0.28, 0.54),
            (0.47, 0.54),
            (0.38, 0.92),
            (0.74, 0.42),
            (0.54, 0.42),
            (0.66, 0.1),
            knock=True,
        ),
    ]


def _cycle() -> list[Shape]:
    top = tuple(_arc(0.5, 0.5, 0.34, 0.34, 200, 330, 14))
    bottom = tuple(_arc(0.5, 0.5, 0.34, 0.34, 20, 150, 14))
    return [
        Stroke(top, 0.09),
        Stroke(bottom, 0.09),
        _p((0.72, 0.2), (0.92, 0.42), (0.64, 0.44)),
        _p((0.28, 0.8), (0.08, 0.58), (0.36, 0.56)),
    ]


def _dunes() -> list[Shape]:
    return [
        _p((0.3, 0.7), (0.55, 0.4), (0.68, 0.34), (0.82, 0.42), (0.98, 0.6), (0.98, 0.72)),
        _p(
            (0.02, 0.92),
            (0.02, 0.74),
            (0.22, 0.54),
            (0.36, 0.5),
            (0.52, 0.62),
            (0.72, 0.78),
            (0.98, 0.8),
            (0.98, 0.92),
        ),
        _e(0.22, 0.24, 0.1),
    ]


_BUILDERS: dict[str, Callable[[], list[Shape]]] = {
    "temple": _temple,
    "person": _person,
    "crystal": _crystal,
    "crown": _crown,
    "sheep": _sheep,
    "pasture": _pasture,
    "hut": _hut,
    "ship": _ship,
    "monster": _monster,
    "camel": _camel,
    "pyramid": _pyramid,
    "obelisk": _obelisk,
    "ankh": _ankh,
    "star": lambda: [_star(0.5, 0.54, 0.48, 0.2, 5)],
    "shield": _shield,
    **{f"pip{n}": (lambda n=n: _pips(n)) for n in range(1, 7)},  # type: ignore[misc]
    "cross": lambda: [Stroke(((0.14, 0.14), (0.86, 0.86)), 0.16), Stroke(((0.86, 0.14), (0.14, 0.86)), 0.16)],
    "plus": lambda: [_rect(0.4, 0.1, 0.6, 0.9), _rect(0.1, 0.4, 0.9, 0.6)],
    "check": _check,
    "circle": lambda: [_e(0.5, 0.5, 0.42)],
    "triangle": lambda: [_p((0.5, 0.08), (0.94, 0.86), (0.06, 0.86))],
    "square": lambda: [_rect(0.12, 0.12, 0.88, 0.88)],
    "hexagon": lambda: [_regular(0.5, 0.5, 0.46, 6, -90)],
    "heart": _heart,
    "sword": _sword,
    "scroll": _scroll,
    "cube": _cube,
    "statue": _statue,
    "shrine": _shrine,
    "wave": _wave,
    "mountain": _mountain,
    "sun": _sun,
    "moon": _moon,
    "eye": _eye,
    "scorpion": _scorpion,
    "skull": _skull,
    "arrow": _arrow,
    "coin": _coin,
    "tree": _tree,
    "flag": _flag,
    "tower": _tower,
    "lightning": _lightning,
    "amphora": _amphora,
    "offering": _amphora,
    "warrior": _warrior,
    "helmet": _helmet,
    "equipment": _equipment,
    "injury": _injury,
    "island": _island,
    "locust": _locust,
    "scales": _scales,
    "cloud": _cloud,
    "storm": _storm,
    "town": _town,
    "city": _city,
    "waves": _wave,
    "flash": _lightning,
    "wheat": _wheat,
    "wilderness": _wilderness,
    "zeus": _zeus,
    "cycle": _cycle,
    "dunes": _dunes,
}
ICONS: dict[str, tuple[Shape, ...]] = {name: tuple(build()) for name, build in _BUILDERS.items()}
ICON_NAMES: tuple[str, ...] = tuple(ICONS)
