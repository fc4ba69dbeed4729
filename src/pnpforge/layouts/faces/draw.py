"""Drawing one (filled) element on a piece: whether it is shown, its box, the sheet and bleed around it,
its rotation, then its kind's own drawing. Used by a side's drawing loop (render.py) and by elements that
hold elements (a repeat's copies)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from pnpforge.components.expressions import evaluate, truth
from pnpforge.components.model import (
    CircleElement,
    HexElement,
    LineElement,
    PolygonElement,
    RectElement,
    TextElement,
)
from pnpforge.generator.pieces import Piece
from pnpforge.i18n import N_
from pnpforge.layouts.faces.bleed import carry_into_bleed
from pnpforge.layouts.faces.context import Box, RenderContext
from pnpforge.layouts.faces.kind import kind_of
from pnpforge.layouts.faces.templates import holds_placeholder
from pnpforge.layouts.faces.values import FaceError, length
from pnpforge.output.canvas import Canvas, NullCanvas
from pnpforge.output.recording import Call, Recording, play
from pnpforge.phrase import Phrase
from pnpforge.units import mm, to_mm

FALSY = ("", "0", "false")


def shown(when: str | None) -> bool:
    return when is None or when.strip().lower() not in FALSY


def wanted(when: str | None, row: Mapping[str, Any], lang: str) -> bool:
    """An element's `when:` as an expression over the row (`type == 'event'`). A `when` holding `{field}`s
    keeps its older meaning, the filled text not empty, `0` or `false`, which draw_element tests."""
    if when is None or _holds_fields(when):
        return True
    return truth(evaluate(when, row, lang))


@lru_cache(maxsize=1024)
def _holds_fields(when: str) -> bool:
    return holds_placeholder(when)


def box_of(element: Any, piece: Piece) -> Box:
    return _box_of(element.x, element.y, element.w, element.h, piece.width, piece.height)


@lru_cache(maxsize=4096, typed=True)
def _box_of(x: object, y: object, w: object, h: object, width: float, height: float) -> Box:
    box = Box(length(x, width), length(y, height), length(w, width), length(h, height))
    if box.w < 0 or box.h < 0:
        raise FaceError(Phrase.word(N_("w and h must not be negative")))
    return box


def draw_element(canvas: Canvas, element: Any, piece: Piece, ctx: RenderContext) -> None:
    """Draw one (already filled) element; raises FaceError with what is wrong and what is expected. One
    that lies wholly outside the piece and its bleed (so prints nothing) leaves a note saying so."""
    if not shown(element.when):
        return
    box = box_of(element, piece)
    if piece.component.kind == "sheet":
        check_on_sheet(box, piece)
    if not isinstance(canvas, NullCanvas):
        carry_into_bleed(canvas, element, box, piece, ctx)
    draw_kind(canvas, element, box, piece, ctx)
    reach = kind_of(element).extent(element, box, piece)
    if element.rotate:
        reach = _turned(reach, box.centre, element.rotate)
    if outside(reach, piece, ctx.bleed):
        ctx.notes.append(
            Phrase(
                N_(
                    "lies wholly outside the piece, at {at} mm (expected on the {size} mm piece; "
                    "nothing of it is printed)"
                ),
                at=f"{to_mm(reach.x):.1f}, {to_mm(reach.y):.1f}",
                size=f"{to_mm(piece.width):.0f} × {to_mm(piece.height):.0f}",
            )
        )


# kinds whose drawing depends on nothing but the filled element, the piece's size and shape, the text's
# backdrop and the build's context (pictures and icons read files; a repeat and a hex map read the row)
ALIKE = (TextElement, RectElement, CircleElement, HexElement, PolygonElement, LineElement)
DRAWN_KEPT = 4096  # elements met per build whose drawing may be kept (a deck repeats its bands and rules)
CALLS_KEPT = 64  # a drawing of more canvas calls (a patterned board) is drawn each time, not kept
_UNKEPT: list[Call] = []  # the mark of an element met again whose drawing is not kept


def draw_alike(canvas: Canvas, element: Any, piece: Piece, ctx: RenderContext) -> None:
    """`draw_element`, its canvas calls kept and played back for the pieces that draw the very same
    element (a deck's frame, its rules texts filled alike) on a piece of the same component and size.

    An element is drawn as it is when first met (most of a deck's are met once: its titles); met again,
    its drawing is kept, unless it is long (`CALLS_KEPT`) or it noted anything, warned, or met a
    character no font has (those are said per piece), and played back from then on. Elements are kept
    by identity (models are unhashable; a filled one is shared by the rows that fill it alike:
    templates.resolve)."""
    component = piece.component
    if not isinstance(element, ALIKE) or isinstance(canvas, NullCanvas) or component.shape == "polyhex":
        draw_element(canvas, element, piece, ctx)
        return
    key = (id(element), id(component), piece.width, piece.height, ctx.backdrop)
    hit = ctx.drawn.get(key)
    if hit is None or hit[0] is not element or hit[1] is not component:
        draw_element(canvas, element, piece, ctx)
        _remember(ctx, key, (element, component, None))
        return
    calls = hit[2]
    if calls is _UNKEPT:
        draw_element(canvas, element, piece, ctx)
    elif calls is not None:
        play(canvas, calls)
    else:  # met a second time: kept now, when it may be
        warned, lacking = ctx.warned, ctx.fonts.lacking
        recording = Recording()
        draw_element(recording.page(canvas), element, piece, ctx)
        drawn = recording.pages[0]
        quiet = not ctx.notes and ctx.warned == warned and ctx.fonts.lacking == lacking
        _remember(ctx, key, (element, component, drawn if quiet and len(drawn) <= CALLS_KEPT else _UNKEPT))


def _remember(ctx: RenderContext, key: tuple[Any, ...], kept: tuple[Any, Any, list[Call] | None]) -> None:
    if len(ctx.drawn) >= DRAWN_KEPT and key not in ctx.drawn:
        ctx.drawn.clear()
    ctx.drawn[key] = kept


def draw_kind(canvas: Canvas, element: Any, box: Box, piece: Piece, ctx: RenderContext) -> None:
    """The element's kind draws it in `box`, turned by its `rotate` about the box's centre."""
    kind = kind_of(element)
    if element.rotate:
        cx, cy = box.centre
        canvas.save()
        canvas.translate(cx, cy)
        canvas.rotate(element.rotate)
        canvas.translate(-cx, -cy)
        kind.draw(canvas, element, box, piece, ctx)
        canvas.restore()
    else:
        kind.draw(canvas, element, box, piece, ctx)


def outside(reach: Box, piece: Piece, bleed: float) -> bool:
    """Whether `reach` lies wholly outside the piece's trim box grown by the bleed (touching is inside)."""
    return (
        reach.x > piece.width + bleed
        or reach.y > piece.height + bleed
        or reach.x + reach.w < -bleed
        or reach.y + reach.h < -bleed
    )


def _turned(reach: Box, centre: tuple[float, float], degrees: float) -> Box:
    """The upright box around `reach` turned by `degrees` about `centre`."""
    cx, cy = centre
    a = math.radians(degrees)
    cos, sin = math.cos(a), math.sin(a)
    corners = [(reach.x, reach.y), (reach.x + reach.w, reach.y), (reach.x, reach.y + reach.h)]
    corners.append((reach.x + reach.w, reach.y + reach.h))
    xs = [cx + (x - cx) * cos - (y - cy) * sin for x, y in corners]
    ys = [cy + (x - cx) * sin + (y - cy) * cos for x, y in corners]
    return Box(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))


SHEET_SLACK = mm(0.5)  # an element may overrun a sheet by this much (stroke, rounding)


def check_on_sheet(box: Box, piece: Piece) -> None:
    """A sheet is not cut, so nothing on it may run off it: refuse instead of clipping it silently."""
    right, bottom = box.x + box.w, box.y + box.h
    if (
        box.x < -SHEET_SLACK
        or box.y < -SHEET_SLACK
        or right > piece.width + SHEET_SLACK
        or bottom > (piece.height + SHEET_SLACK)
    ):
        raise FaceError(
            Phrase(
                N_(
                    "runs to {reach} mm, past the {size} mm sheet (expected it inside; give the "
                    "sheet a size, or print on a page large enough)"
                ),
                reach=f"{to_mm(right):.0f} × {to_mm(bottom):.0f}",
                size=f"{to_mm(piece.width):.0f} × {to_mm(piece.height):.0f}",
            )
        )
