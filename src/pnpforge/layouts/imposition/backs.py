"""Backs: a page as printed on the other side of the sheet, for long- or short-edge duplex."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import lru_cache

from pnpforge.layouts.imposition.clipping import clip_to_neighbours
from pnpforge.layouts.imposition.placement import PageLayout, Placement, Point, grown
from pnpforge.layouts.imposition.sharing import compose
from pnpforge.output.page import PageFrame


def backs(
    page: PageLayout, frame: PageFrame, duplex: str, keep: Callable[[int], bool] | None = None
) -> PageLayout:
    """The page printed on the other side: each placement where its front lies once the sheet is flipped.

    Long-edge flip mirrors left-right (column order reversed); short-edge flip mirrors top-bottom. Each
    back is turned so that it stands upright when its piece is turned over about its own upright axis.
    Only placements whose index `keep` accepts are kept (pieces without a back leave their spot blank);
    a block with none of them left is dropped, with its marks.
    """
    if page.parts:
        parts = [backs(part, frame, duplex, keep) for part in page.parts]
        return compose([part for part in parts if part.placements] or parts[:1])

    def fx(x: float) -> float:
        return frame.width - x if duplex == "long" else x

    def fy(y: float) -> float:
        return frame.height - y if duplex == "short" else y

    def point(p: Point) -> Point:
        return (fx(p[0]), fy(p[1]))

    placements = []
    for p in page.placements:
        if keep is not None and not keep(p.index):
            continue
        x = fx(p.x + p.width) if duplex == "long" else p.x
        y = fy(p.y + p.height) if duplex == "short" else p.y
        clip = _mirrored(p.clip, frame.width, frame.height, duplex) if p.clip else None
        quarter = (-p.quarter) % 4 if duplex == "long" else (2 - p.quarter) % 4
        angle, pivot = p.angle, p.pivot
        if pivot is not None:  # turned about its centre instead of in quarters
            quarter, pivot = 0, point(pivot)
            angle = (-angle) % 360.0 if duplex == "long" else (180.0 - angle) % 360.0
        placements.append(
            Placement(p.index, x, y, p.width, p.height, quarter, clip, p.face, angle, pivot)
        )  # built directly: dataclasses.replace costs several times more, once per piece
    if len(placements) < len(page.placements) and any(p.clip for p in placements):
        placements = _reclipped(placements, frame)
    block = None
    if page.block:
        x0, y0, x1, y1 = page.block
        xs, ys = sorted((fx(x0), fx(x1))), sorted((fy(y0), fy(y1)))
        block = (xs[0], ys[0], xs[1], ys[1])
    return replace(
        page,
        placements=placements,
        cuts_x=tuple(sorted(fx(v) for v in page.cuts_x)),
        cuts_y=tuple(sorted(fy(v) for v in page.cuts_y)),
        block=block,
        nets=[],  # dice have no backs
        kite_nets=[],
    )


@lru_cache(maxsize=1024)  # a deck's pages repeat their pieces' clips: each mirrored once
def _mirrored(clip: tuple[Point, ...], width: float, height: float, duplex: str) -> tuple[Point, ...]:
    """A placement's clip as it lies on the back (its points in reverse, so it turns the same way)."""
    if duplex == "long":
        return tuple((width - x, y) for x, y in reversed(clip))
    if duplex == "short":
        return tuple((x, height - y) for x, y in reversed(clip))
    return tuple(reversed(clip))


def _reclipped(placements: list[Placement], frame: PageFrame) -> list[Placement]:
    """The backs' clips cut again between the backs that are left: a front whose neighbour has no back
    keeps its whole bleed on that side instead of stopping at their bisector, over blank paper.

    A block's clipped pieces are of one size; their box grown by the bleed bounds what each may paint
    (each piece's drawing stops at its own bleed outline)."""
    first = placements[0]
    bare = [replace(p, clip=None) for p in placements]
    return clip_to_neighbours(bare, grown(first.width, first.height, frame), frame.bleed)
