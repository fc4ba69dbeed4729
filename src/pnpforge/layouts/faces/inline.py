"""Drawing a rich text (layouts/richtext.py): its runs in their fonts, inline icons at the text's size."""

from __future__ import annotations

from pnpforge.components.model import TextElement
from pnpforge.i18n import N_
from pnpforge.layouts.faces.context import Box, RenderContext
from pnpforge.layouts.faces.images import image_path
from pnpforge.layouts.faces.values import FLOOR, FaceError, length
from pnpforge.layouts.richtext import ICON_EM, layout_rich, parse
from pnpforge.layouts.text import MIN_SIZE, shown
from pnpforge.output.canvas import RGB, Canvas
from pnpforge.phrase import Phrase


def draw_rich(
    canvas: Canvas,
    text: str,
    el: TextElement,
    box: Box,
    font: str,
    size: float,
    colour: RGB,
    ctx: RenderContext,
) -> None:
    """`**bold**`, `*italic*` and `:icon:` drawn in the box, fitted as the element's `fit` says."""
    from pnpforge.layouts.icons import ICON_NAMES, draw_icon

    def known(name: str) -> bool:
        return name in ctx.icons or name in ICON_NAMES

    try:
        styled = parse(text, known)
    except ValueError as exc:
        from difflib import get_close_matches  # only for an unknown icon: a good face never loads it (speed)

        name = str(exc)
        near = get_close_matches(name, [*ctx.icons, *ICON_NAMES], n=1)
        hint = Phrase(N_("did you mean {names}? "), names=f":{near[0]}:") if near else ""
        raise FaceError(
            Phrase(
                N_(
                    "no icon {name} for {icon} ({hint}expected a built-in icon, listed in docs/elements.md, "
                    "or one declared under `icons:`; write \\: for a literal colon)"
                ),
                name=repr(name),
                icon=f":{name}:",
                hint=hint,
            )
        ) from None
    floor = MIN_SIZE if el.min_size is None else length(el.min_size)
    layout = layout_rich(
        styled,
        box.x,
        box.y,
        box.w,
        box.h,
        ctx.fonts,
        font,
        size,
        el.align,
        el.valign,
        el.fit,
        el.leading,
        floor,
    )
    if not layout.fits:  # said as a plain text's misfit is (elements.fit_note): never cut without a word
        at_floor = Phrase(FLOOR, size=f"{layout.size:g}") if el.fit == "shrink" else ""
        ctx.notes.append(
            Phrase(
                N_(
                    "text {text} does not fit: it runs past its box{floor} (expected a larger box, "
                    "less text or min_size)"
                ),
                text=repr(shown(text)),
                floor=at_floor,
            )
        )
    side = ICON_EM * layout.size
    for line in layout.lines:
        for piece in line.pieces:
            if not piece.icon:
                canvas.text(piece.x, line.baseline, piece.text, piece.font, layout.size, colour)
            elif piece.icon in ctx.icons:  # the spec's own art keeps its colours
                canvas.image(
                    image_path(ctx.icons[piece.icon], ctx), piece.x, line.baseline - side, side, side
                )
            else:
                draw_icon(canvas, piece.icon, piece.x, line.baseline - side, side, side, colour, None)
