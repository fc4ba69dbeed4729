"""`build --draft`: what stands in for art not drawn yet, and the mark that says a sheet is a draft.

A missing image becomes a grey box, crossed, labelled with the file it waits for, and one warning per file
(located at the row or element that names it); every page gets a small "DRAFT" in its top margin band,
so a draft print is never mistaken for the real one.
"""

from __future__ import annotations

from collections.abc import Sequence

from pnpforge import errors
from pnpforge.components.model import ImageElement
from pnpforge.errors import Problem
from pnpforge.fonts import STANDARD, FontRegistry
from pnpforge.generator.pieces import Piece
from pnpforge.i18n import N_
from pnpforge.layouts.faces.context import Box, RenderContext
from pnpforge.layouts.marks import Say, Segment, band_label_x, draw_text
from pnpforge.layouts.text import layout_text
from pnpforge.output.canvas import Canvas
from pnpforge.output.page import PageFrame
from pnpforge.phrase import Phrase
from pnpforge.units import mm

PLACEHOLDER_FILL = (0.88, 0.88, 0.88)
PLACEHOLDER_INK = (0.35, 0.35, 0.35)
DRAFT_INK = (0.8, 0.1, 0.1)
DRAFT_SIZE = 7.0  # points
DRAFT = N_("DRAFT")


def _where(element: object, piece: Piece, ctx: RenderContext, message: str) -> Problem:
    """At the element in game.yaml when its `src` is written there (the same for every row), else the row."""
    component = piece.component
    source = ctx.spec_source
    raw = source.data.get("components") if source is not None and isinstance(source.data, dict) else None
    for side, spec in (("face", component.face), ("back", component.back)):
        if spec is None or not any(e is element for e in spec.elements) or not isinstance(raw, list):
            continue
        index = next(k for k, e in enumerate(spec.elements) if e is element)
        number = next(
            (k for k, c in enumerate(raw) if isinstance(c, dict) and c.get("name") == component.name), None
        )
        if source is not None and number is not None:
            return source.problem(
                ("components", number, *component.side_path(side), "elements", index, "src"), message
            )
    return Problem(piece.row_ref.file, piece.row_ref.line, 0, message)


def draw_placeholder(
    canvas: Canvas, box: Box, element: ImageElement, piece: Piece, ctx: RenderContext
) -> None:
    """A crossed grey box labelled with the missing file's name; warns once per file."""
    src = element.src
    missing = Phrase(N_("image {src} is missing; a placeholder is drawn (--draft)"), src=repr(src))
    found = _where(element, piece, ctx, missing)
    warning = Phrase(N_("{where}: {message}"), where=found.where, message=errors.warning(found.message))
    said = any(isinstance(w, str) and f"image {src!r} is missing" in w for w in ctx.warnings)
    ctx.warn(warning, said)  # once per file, wherever it is drawn
    corners = [(box.x, box.y), (box.x + box.w, box.y), (box.x + box.w, box.y + box.h), (box.x, box.y + box.h)]
    canvas.polygon(corners, PLACEHOLDER_FILL, PLACEHOLDER_INK, mm(0.2))
    canvas.polygon([corners[0], corners[2]], None, PLACEHOLDER_INK, mm(0.15), closed=False)
    canvas.polygon([corners[1], corners[3]], None, PLACEHOLDER_INK, mm(0.15), closed=False)
    font = STANDARD["sans"]
    inset = min(box.w, box.h) * 0.08
    layout = layout_text(
        src,
        box.x + inset,
        box.y + inset,
        box.w - 2 * inset,
        box.h - 2 * inset,
        fonts=ctx.fonts,
        font=font,
        size=8.0,
        fit="shrink",
    )
    for line in layout.lines:
        width = ctx.fonts.width(line.text, font, layout.size) + mm(1)
        canvas.rounded_rect(
            line.x - mm(0.5), line.baseline - layout.size * 0.8, width, layout.size, 0, (1, 1, 1), None, 0
        )
        for run in line.runs:
            canvas.text(run.x, line.baseline, run.text, run.font, layout.size, PLACEHOLDER_INK)


def draw_draft_mark(
    canvas: Canvas, frame: PageFrame, segments: Sequence[Segment], fonts: FontRegistry, say: Say
) -> None:
    """ "DRAFT", in the build's language, in the page's top margin band, clear of the crop marks
    (`segments`)."""
    font = STANDARD["sans-bold"]
    word = say(DRAFT)
    x, _ = band_label_x(segments, frame, fonts.width(word, font, DRAFT_SIZE), True)
    draw_text(canvas, fonts, x, frame.margin + mm(2.1), word, font, DRAFT_SIZE, DRAFT_INK)
