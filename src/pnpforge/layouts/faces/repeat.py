"""The repeat element: its elements drawn `count` times, each copy's cell moved by a step, `{index}` the
copy's number (a score track, pips, a row of boxes to tick)."""

from __future__ import annotations

from dataclasses import replace

from pnpforge.components.model import RepeatElement
from pnpforge.generator.pieces import Piece
from pnpforge.i18n import N_
from pnpforge.layouts.faces.context import Box, RenderContext
from pnpforge.layouts.faces.draw import box_of, check_on_sheet, draw_kind, outside, shown, wanted
from pnpforge.layouts.faces.kind import ElementKind
from pnpforge.layouts.faces.templates import resolve
from pnpforge.layouts.faces.values import length
from pnpforge.output.canvas import Canvas
from pnpforge.phrase import Phrase


def cells(el: RepeatElement, box: Box, piece: Piece) -> list[Box]:
    """Each copy's cell: the element's box moved by `step` per copy, by `line_step` per line of `wrap`."""
    step_x, step_y = (box.w, 0.0) if el.step is None else _pair(el.step, piece)
    line_x, line_y = (0.0, box.h) if el.line_step is None else _pair(el.line_step, piece)
    per_line = el.wrap or el.count
    return [
        Box(
            box.x + (n % per_line) * step_x + (n // per_line) * line_x,
            box.y + (n % per_line) * step_y + (n // per_line) * line_y,
            box.w,
            box.h,
        )
        for n in range(el.count)
    ]


def _pair(values: tuple[object, object], piece: Piece) -> tuple[float, float]:
    return length(values[0], piece.width), length(values[1], piece.height)


class Repeat(ElementKind[RepeatElement]):
    model = RepeatElement

    def extent(self, el: RepeatElement, box: Box, piece: Piece) -> Box:
        spots = cells(el, box, piece)
        left, top = min(c.x for c in spots), min(c.y for c in spots)
        return Box(left, top, max(c.x + c.w for c in spots) - left, max(c.y + c.h for c in spots) - top)

    def draw(self, canvas: Canvas, el: RepeatElement, box: Box, piece: Piece, ctx: RenderContext) -> None:
        """Each copy drawn in its cell: the elements' lengths and percentages are of the cell, and their
        `{index}` (and `when:`) see the copy's number. Copies carry nothing into the bleed."""
        lost = []
        for n, cell in enumerate(cells(el, box, piece)):
            if piece.component.kind == "sheet":
                check_on_sheet(cell, piece)
            index = el.start + n
            if outside(cell, piece, ctx.bleed):
                lost.append(index)
                continue
            copy = replace(piece, row={**piece.row, "index": index}, width=cell.w, height=cell.h)
            canvas.save()
            canvas.translate(cell.x, cell.y)
            for element in el.elements:
                if not wanted(element.when, copy.row, ctx.lang):
                    continue
                filled = resolve(element, copy.row, ctx.lang)
                if shown(filled.when):
                    draw_kind(canvas, filled, box_of(filled, copy), copy, ctx)
            canvas.restore()
        if lost and len(lost) < el.count:  # all of them: the whole element's note says so
            ctx.notes.append(
                Phrase(
                    N_("copies {first} to {last} lie wholly outside the piece (expected every copy on it)"),
                    first=lost[0],
                    last=lost[-1],
                )
            )
