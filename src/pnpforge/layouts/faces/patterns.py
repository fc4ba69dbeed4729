"""Background patterns: the names a face may give, and drawing one over an outline."""

from __future__ import annotations

import math
from collections.abc import Sequence

from pnpforge.layouts.faces.values import FaceError
from pnpforge.layouts.imposition.placement import bounds
from pnpforge.output.canvas import RGB, Canvas, Point
from pnpforge.units import mm

PATTERNS = ("none", "stripes", "dots", "crosshatch", "waves")


def pattern_name(value: str | None) -> str:
    name = (value or "none").strip().lower()
    if name not in PATTERNS:
        raise FaceError(f"unknown pattern {value!r} (expected one of {', '.join(PATTERNS)})")
    return name


def draw_pattern(canvas: Canvas, outline: Sequence[Point], kind: str, ink: RGB) -> None:
    """Cover `outline` with a pattern (clipped to it) so pieces differ without colour."""
    minx, miny, maxx, maxy = bounds(outline)
    w, h = maxx - minx, maxy - miny
    step = max(mm(1.2), min(mm(3.5), min(w, h) / 7))
    width = step * 0.22
    canvas.save()
    canvas.clip(outline)
    if kind == "dots":
        radius = step * 0.18
        for j in range(int(h / step) + 2):
            for i in range(int(w / step) + 2):
                offset = step / 2 if j % 2 else 0.0
                canvas.ellipse(minx + i * step + offset, miny + j * step, radius, radius, ink, None, 0)
    elif kind == "waves":
        amplitude = step * 0.22
        samples = max(8, int(w / (step / 6)) + 2)
        xs = [w * k / (samples - 1) for k in range(samples)]
        for j in range(int(h / step) + 2):
            y0 = miny + j * step
            wave = [(minx + x, y0 + amplitude * math.sin(2 * math.pi * x / (step * 1.6))) for x in xs]
            canvas.polygon(wave, None, ink, width, closed=False)
    else:
        directions = [1.0] if kind == "stripes" else [1.0, -1.0]
        for sign in directions:
            k = -h
            while k < w + h:
                if sign > 0:
                    line = [(minx + k, maxy), (minx + k + h, miny)]
                else:
                    line = [(minx + k, miny), (minx + k + h, maxy)]
                canvas.polygon(line, None, ink, width, closed=False)
                k += step * (1.0 if kind == "stripes" else 1.3)
    canvas.restore()
