"""Background patterns: the names a face may give, and drawing one over an outline."""

from __future__ import annotations

import math
from collections.abc import Sequence

from pnpforge.i18n import N_
from pnpforge.layouts.faces.values import FaceError
from pnpforge.layouts.imposition.placement import bounds
from pnpforge.output.canvas import RGB, Canvas, Point
from pnpforge.phrase import Phrase
from pnpforge.units import mm

PATTERNS = ("none", "stripes", "dots", "crosshatch", "waves")


def pattern_name(value: str | None) -> str:
    name = (value or "none").strip().lower()
    if name not in PATTERNS:
        raise FaceError(
            Phrase(
                N_("unknown pattern {value} (expected one of {known})"),
                value=repr(value),
                known=list(PATTERNS),
            )
        )
    return name


def draw_pattern(
    canvas: Canvas, outline: Sequence[Point], kind: str, ink: RGB, area: Sequence[Point] | None = None
) -> None:
    """Cover `outline` with a pattern (clipped to it) so pieces differ without colour.

    With `area`, the same pattern (its spacing and phase set by `outline`) covers `area` instead: the
    bleed beyond an element carries on its stripes without a jump (bleed.py)."""
    minx, miny, maxx, maxy = bounds(outline)
    w, h = maxx - minx, maxy - miny
    step = max(mm(1.2), min(mm(3.5), min(w, h) / 7))
    width = step * 0.22
    # the cells to cover, counted from the outline's corner: 0.. for the outline, more for an area
    first_i, first_j, last_x, last_y = 0, 0, maxx, maxy
    if area is not None:
        ax0, ay0, last_x, last_y = bounds(area)
        first_i, first_j = math.floor((ax0 - minx) / step) - 1, math.floor((ay0 - miny) / step) - 1
    columns = range(first_i, int((last_x - minx) / step) + 2)
    rows = range(first_j, int((last_y - miny) / step) + 2)
    canvas.save()
    canvas.clip(area if area is not None else outline)
    if kind == "dots":
        radius = step * 0.18
        for j in rows:
            for i in columns:
                offset = step / 2 if j % 2 else 0.0
                canvas.ellipse(minx + i * step + offset, miny + j * step, radius, radius, ink, None, 0)
    elif kind == "waves":
        amplitude = step * 0.22
        x0 = minx + first_i * step
        span = last_x - x0 + step
        samples = max(8, int(span / (step / 6)) + 2)
        xs = [x0 - minx + span * k / (samples - 1) for k in range(samples)] if area is not None else None
        if xs is None:
            samples = max(8, int(w / (step / 6)) + 2)
            xs = [w * k / (samples - 1) for k in range(samples)]
        for j in rows:
            y0 = miny + j * step
            wave = [(minx + x, y0 + amplitude * math.sin(2 * math.pi * x / (step * 1.6))) for x in xs]
            canvas.polygon(wave, None, ink, width, closed=False)
    else:
        directions = [1.0] if kind == "stripes" else [1.0, -1.0]
        gap = step * (1.0 if kind == "stripes" else 1.3)
        for sign in directions:
            if area is None:
                k, top, bottom, end = -h, miny, maxy, w + h
            else:  # lines of the outline's family, long enough to cross the area
                ax0, ay0, ax1, ay1 = bounds(area)
                top, bottom = min(miny, ay0), max(maxy, ay1)
                reach = (ax1 - ax0) + (bottom - top) + (maxx - minx) + abs(ax0 - minx) + abs(ax1 - maxx)
                k = -h - math.ceil(reach / gap) * gap
                end = w + h + reach
            tall = bottom - top
            while k < end:
                # the line through (minx + k, maxy) going up-right at 45 degrees, as on the outline
                if sign > 0:
                    base = minx + k + (maxy - bottom)
                    line = [(base, bottom), (base + tall, top)]
                else:
                    base = minx + k - (miny - top)
                    line = [(base, top), (base + tall, bottom)]
                canvas.polygon(line, None, ink, width, closed=False)
                k += gap
    canvas.restore()
