"""Shared sheets: each component's block continues in the band its predecessor left free on the last sheet."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from pnpforge.layouts.imposition.placement import EPS, PageLayout, Placement, page_area
from pnpforge.output.page import PageFrame, Rect
from pnpforge.units import mm

BLOCK_GAP = mm(2)  # art to art between two components' blocks on a shared sheet
MARKED_GAP = mm(6)  # ... when a block has straight cuts: room for both blocks' crop marks between them

Lay = Callable[[Sequence[int], Rect], list[PageLayout]]


class DoesNotFit(ValueError):
    """Piece number `index` (counted across all runs) fits nowhere inside the page's margins."""

    def __init__(self, index: int) -> None:
        super().__init__(f"piece {index} does not fit inside the page's margins")
        self.index = index


@dataclass(frozen=True)
class Run:
    """One block's pieces for shared sheets, and how to lay them out.

    `lay(items, region)` places the pieces numbered `items` (placement k is items[k]) on pages, with
    trims inside `region` and the block at its top; `new_sheet` refuses the room left on the previous
    run's last sheet.
    """

    count: int
    lay: Lay
    new_sheet: bool = False


def share(runs: Sequence[Run], frame: PageFrame) -> list[PageLayout]:
    """Pages for several runs in order, each run starting in the band its predecessor left free.

    Pieces are numbered across all runs in order (run 0's pieces first), and so are the placements'
    indices. A run's pieces that fit in the band go there; the rest go on fresh pages, whose last one
    offers its own band to the next run. A page holding blocks of more than one run lists them as
    `parts`; a page of one block is that block.
    """
    full = page_area(frame)
    sheets: list[list[PageLayout]] = []
    offset = 0
    for run in runs:
        items = list(range(run.count))
        if sheets and not run.new_sheet:
            part = _in_band(run, items, sheets[-1], frame)
            if part is not None:
                sheets[-1].append(_numbered(part, items, offset))
                placed = {items[p.index] for p in part.placements}
                items = [i for i in items if i not in placed]
        if items:
            pages = run.lay(items, full)
            placed = {items[p.index] for page in pages for p in page.placements}
            if len(placed) < len(items):
                raise DoesNotFit(offset + next(i for i in items if i not in placed))
            sheets += [[_numbered(page, items, offset)] for page in pages]
        offset += run.count
    return [compose(parts) for parts in sheets]


def _in_band(run: Run, items: list[int], above: Sequence[PageLayout], frame: PageFrame) -> PageLayout | None:
    """The run's first block in the room the sheet's blocks left: the band below them, or the one beside
    them when more pieces fit there; None when nothing fits."""
    blocks = [part.block for part in above if part.block]
    marked = any(part.cuts_x or part.cuts_y for part in above)
    m, b = frame.inset, frame.bleed
    best: PageLayout | None = None
    for beside in (False, True):
        for gap in (MARKED_GAP if marked else BLOCK_GAP, MARKED_GAP):
            if beside:
                region = (max(r[2] for r in blocks) + gap + b, m, frame.width - m, frame.height - m)
            else:
                region = (m, max(r[3] for r in blocks) + gap + b, frame.width - m, frame.height - m)
            pages = run.lay(items, region) if region[2] > region[0] and region[3] > region[1] else []
            if not pages or not pages[0].placements:
                break
            part = _within_art(run, items, region, pages[0], frame)
            if gap == MARKED_GAP or not (part.cuts_x or part.cuts_y):  # marks need the wider gap
                if best is None or _pieces(part) > _pieces(best):
                    best = part
                break
    return best


def _within_art(run: Run, items: list[int], region: Rect, part: PageLayout, frame: PageFrame) -> PageLayout:
    """The band's block laid out again in a region short of the art area's edges by what its bleed
    overshoots them, when that holds as many pieces in no more room (a band cannot move its block up to
    keep the bleed; a taller block would take room from the blocks after it)."""
    if part.block is None:
        return part
    art = page_area(frame)
    over = [max(0.0, art[k] - part.block[k]) for k in (0, 1)] + [
        max(0.0, part.block[k] - art[k]) for k in (2, 3)
    ]
    if max(over) <= EPS:
        return part
    smaller = (region[0] + over[0], region[1] + over[1], region[2] - over[2], region[3] - over[3])
    pages = run.lay(items, smaller)
    if not pages or _pieces(pages[0]) != _pieces(part) or pages[0].block is None:
        return part
    again = pages[0].block
    return pages[0] if again[2] <= part.block[2] + EPS and again[3] <= part.block[3] + EPS else part


def _pieces(page: PageLayout) -> int:
    return len({p.index for p in page.placements})


def _numbered(page: PageLayout, items: Sequence[int], offset: int) -> PageLayout:
    """A run's page with each placement's index turned into the piece's number across all runs."""
    placements = [
        Placement(
            offset + items[p.index], p.x, p.y, p.width, p.height, p.quarter, p.clip, p.face, p.angle, p.pivot
        )
        for p in page.placements
    ]  # built directly: dataclasses.replace costs several times more, once per piece
    return replace(page, placements=placements)


def compose(parts: Sequence[PageLayout]) -> PageLayout:
    """One page of several blocks (or the block itself when there is one)."""
    if len(parts) == 1:
        return parts[0]
    placements = [p for part in parts for p in part.placements]
    return PageLayout(placements, parts=list(parts))
