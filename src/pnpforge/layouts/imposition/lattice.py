"""Pieces on a triangular lattice: pointy or flat hexes in a honeycomb, round tokens hex-packed."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace

from pnpforge.geometry.hexgrid import SQRT3
from pnpforge.layouts.imposition.clipping import clip_to_neighbours
from pnpforge.layouts.imposition.placement import (
    EPS,
    PageLayout,
    Placement,
    Point,
    bounds,
    grown,
    settle,
    trim_area,
)
from pnpforge.output.page import PageFrame, Rect


def lattice(
    count: int,
    width: float,
    height: float,
    frame: PageFrame,
    gap: float,
    flat: bool = False,
    bleed_outline: Sequence[Point] | None = None,
    shared_edges: bool = False,
    region: Rect | None = None,
) -> list[PageLayout]:
    """Pieces on a triangular lattice: pointy hexes in a honeycomb, or circles hex-packed.

    Centres are `pitch = width + gap` apart along a row and rows are `pitch·√3/2` apart, odd rows
    shifted by half a pitch, so the gap between neighbours is `gap` all round. Flat hexes are laid out
    as pointy ones with x and y exchanged. Centred on the page, or at the top of `region`.
    """
    top = region is not None
    region = trim_area(region, frame)  # every piece keeps its whole bleed inside the art area
    if flat:
        swapped = PageFrame(frame.height, frame.width, frame.margin, frame.bleed)
        outline = [(v, u) for u, v in bleed_outline] if bleed_outline else None
        area = (region[1], region[0], region[3], region[2])
        pages = _lattice(count, height, width, swapped, gap, outline, shared_edges, area, (top, False))
        pages = [_transpose(page) for page in pages]
    else:
        pages = _lattice(count, width, height, frame, gap, bleed_outline, shared_edges, region, (False, top))
    return [settle(page, region, frame) for page in pages]


def _lattice(
    count: int,
    width: float,
    height: float,
    frame: PageFrame,
    gap: float,
    bleed_outline: Sequence[Point] | None,
    shared_edges: bool,
    region: Rect,
    at_start: tuple[bool, bool],
) -> list[PageLayout]:
    """Pointy lattice pages; `at_start` says, per axis, whether the block sits at the region's start."""
    rx0, ry0, rx1, ry1 = region
    aw, ah = rx1 - rx0, ry1 - ry0
    pitch = width + gap
    row_pitch = pitch * SQRT3 / 2
    even = math.floor((aw - width + EPS) / pitch) + 1 if aw + EPS >= width else 0
    odd = math.floor((aw - width - pitch / 2 + EPS) / pitch) + 1 if aw + EPS >= width + pitch / 2 else 0
    rows = math.floor((ah - height + EPS) / row_pitch) + 1 if ah + EPS >= height else 0
    if even == 0 or rows == 0:
        return []
    slots = [(c, r) for r in range(rows) for c in range(even if r % 2 == 0 else odd)]
    outline = tuple(bleed_outline) if bleed_outline else grown(width, height, frame)
    ox0, oy0, ox1, oy1 = bounds(outline)
    used_w = width + (even - 1) * pitch if odd < even else width + (odd - 1) * pitch + pitch / 2
    pages = []
    for start in range(0, count, len(slots)):
        n = min(len(slots), count - start)
        used_rows = slots[n - 1][1] + 1
        used_h = height + (used_rows - 1) * row_pitch
        x0 = rx0 if at_start[0] else (rx0 + rx1 - used_w) / 2
        y0 = ry0 if at_start[1] else (ry0 + ry1 - (height + (rows - 1) * row_pitch)) / 2
        placements = [
            Placement(
                start + k, x0 + c * pitch + (pitch / 2 if r % 2 else 0), y0 + r * row_pitch, width, height
            )
            for k, (c, r) in enumerate(slots[:n])
        ]
        placements = clip_to_neighbours(placements, outline, frame.bleed)
        right = max(p.x for p in placements) + width  # a page's last row may be short
        block = (x0 + ox0, y0 + oy0, right + ox1 - width, y0 + used_h + oy1 - height)
        pages.append(PageLayout(placements, (), (), block, outlines=True, shared_edges=shared_edges))
    return pages


def _transpose(page: PageLayout) -> PageLayout:
    placements = [
        replace(
            p,
            x=p.y,
            y=p.x,
            width=p.height,
            height=p.width,
            clip=tuple((v, u) for u, v in p.clip) if p.clip else None,
        )
        for p in page.placements
    ]
    block = (page.block[1], page.block[0], page.block[3], page.block[2]) if page.block else None
    return replace(page, placements=placements, cuts_x=page.cuts_y, cuts_y=page.cuts_x, block=block)
