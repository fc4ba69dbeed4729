"""The simple element kinds: rect, circle, hex, polygon, line, text, icon and image."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from pnpforge import limits
from pnpforge.components.model import (
    CircleElement,
    HexElement,
    IconElement,
    ImageElement,
    LineElement,
    Paint,
    PolygonElement,
    RectElement,
    TextElement,
)
from pnpforge.components.template import localise
from pnpforge.generator.pieces import Piece
from pnpforge.geometry.hexgrid import SQRT3
from pnpforge.i18n import N_
from pnpforge.layouts import shapes
from pnpforge.layouts.faces.context import Box, RenderContext
from pnpforge.layouts.faces.inline import draw_rich, shown
from pnpforge.layouts.faces.patterns import draw_pattern, pattern_name
from pnpforge.layouts.faces.values import FLOOR, FaceError, length, parse_colour, pattern_ink
from pnpforge.layouts.richtext import is_rich
from pnpforge.layouts.text import MIN_SIZE, TextLayout, draw_layout, layout_text
from pnpforge.output.canvas import RGB, Canvas, Point
from pnpforge.output.svgimage import svg_size
from pnpforge.phrase import Phrase
from pnpforge.saying import reason
from pnpforge.sourcefile import FileRefError, named_file
from pnpforge.units import mm, to_mm

IMAGE_TYPES = (".png", ".jpg", ".jpeg", ".svg")


def paint(element: Paint) -> tuple[RGB | None, RGB | None, float, str, RGB]:
    """The element's fill, stroke, stroke width, pattern name and pattern ink, each parsed."""
    fill_rgb = parse_colour(element.fill)
    stroke_rgb = parse_colour(element.stroke)
    width = length(element.stroke_width)
    pattern = pattern_name(element.pattern)
    ink = parse_colour(element.pattern_colour) or pattern_ink(fill_rgb)
    return fill_rgb, stroke_rgb, width, pattern, ink


def _shape(canvas: Canvas, outline: Sequence[Point], element: Paint) -> None:
    """Fill, pattern over the fill, then the stroke on top (so the pattern never hides the edge)."""
    fill_rgb, stroke_rgb, width, pattern, ink = paint(element)
    canvas.polygon(outline, fill_rgb, None)
    if pattern != "none":
        draw_pattern(canvas, outline, pattern, ink)
    canvas.polygon(outline, None, stroke_rgb, width)


def _draw_rect(canvas: Canvas, el: RectElement, box: Box, piece: Piece, ctx: RenderContext) -> None:
    radius = length(el.radius, min(box.w, box.h))
    _, stroke_rgb, width, pattern, _ = paint(el)
    if pattern == "none":
        canvas.rounded_rect(box.x, box.y, box.w, box.h, radius, parse_colour(el.fill), stroke_rgb, width)
        return
    _shape(canvas, shapes.rounded_rect_points(box.x, box.y, box.w, box.h, radius), el)


def _draw_circle(canvas: Canvas, el: CircleElement, box: Box, piece: Piece, ctx: RenderContext) -> None:
    cx, cy = box.centre
    fill_rgb, stroke_rgb, width, pattern, _ = paint(el)
    if pattern == "none":
        canvas.ellipse(cx, cy, box.w / 2, box.h / 2, fill_rgb, stroke_rgb, width)
        return
    _shape(canvas, shapes.ellipse_points(cx, cy, box.w / 2, box.h / 2), el)


def _draw_hex(canvas: Canvas, el: HexElement, box: Box, piece: Piece, ctx: RenderContext) -> None:
    cx, cy = box.centre
    pointy = el.orientation == "pointy"
    radius = min(box.w / SQRT3, box.h / 2) if pointy else min(box.w / 2, box.h / SQRT3)
    _shape(canvas, shapes.hex_points(cx, cy, radius, el.orientation), el)


def _points(points: Sequence[tuple[Any, Any]], piece: Piece) -> list[Point]:
    return [(length(x, piece.width), length(y, piece.height)) for x, y in points]


def _draw_polygon(canvas: Canvas, el: PolygonElement, box: Box, piece: Piece, ctx: RenderContext) -> None:
    points = _points(el.points, piece)
    if len(points) < 2:
        raise FaceError(Phrase.word(N_("a polygon needs at least 2 points")))
    if el.closed:
        _shape(canvas, points, el)
    else:
        _, stroke_rgb, width, _, _ = paint(el)
        canvas.polygon(points, None, stroke_rgb or (0.0, 0.0, 0.0), width, closed=False)


def _draw_line(canvas: Canvas, el: LineElement, box: Box, piece: Piece, ctx: RenderContext) -> None:
    _, stroke_rgb, width, _, _ = paint(el)
    dash = [mm(d) for d in el.dash] if el.dash else None
    if dash is not None and (any(d < 0 for d in dash) or not any(dash)):
        raise FaceError(Phrase.word(N_("dash lengths must be positive millimetres, e.g. [2, 1]")))
    colour = stroke_rgb or parse_colour(el.fill) or (0.0, 0.0, 0.0)
    canvas.polygon(_points(el.points, piece), None, colour, width, closed=False, dash=dash)


def _draw_text(canvas: Canvas, el: TextElement, box: Box, piece: Piece, ctx: RenderContext) -> None:
    text = localise(el.text, ctx.lang)
    if not text:
        return
    size = length(el.size)
    if size <= 0:
        raise FaceError(Phrase.word(N_("size must be positive, e.g. 9pt")))
    try:
        font = ctx.fonts.resolve(el.font, ctx.spec_dir)
    except ValueError as exc:
        raise FaceError(reason(exc)) from None
    colour = parse_colour(el.colour) or (0.0, 0.0, 0.0)
    if is_rich(text):
        draw_rich(canvas, text, el, box, font, size, colour, ctx)
        return
    layout = layout_text(
        text,
        box.x,
        box.y,
        box.w,
        box.h,
        fonts=ctx.fonts,
        font=font,
        size=size,
        align=el.align,
        valign=el.valign,
        fit=el.fit,
        leading=el.leading,
        min_size=MIN_SIZE if el.min_size is None else length(el.min_size),
        within=ctx.backdrop,
    )
    if not layout.fits:
        ctx.notes.append(fit_note(text, layout, el.fit))
    draw_layout(canvas, layout, colour)


NOT_IMAGE = N_("image {src} is not a PNG, JPEG or SVG file")


def fit_note(text: str, layout: TextLayout, fit: str) -> str:
    """What a text that does not fit its box does instead, in the designer's terms."""
    lines, past = layout.overflow()
    size, length_ = f"{layout.size:g}", f"{to_mm(past):.1f}"
    if layout.split:
        what = Phrase.word(N_("a word is broken in two"))
        if fit == "shrink":
            what = Phrase(N_("a word is broken in two at the {size} pt floor"), size=size)
    elif lines:
        template = N_("{count} lines ({length} mm) run below its box")
        if lines == 1:
            template = N_("{count} line ({length} mm) run below its box")
        what = Phrase(template, count=lines, length=length_)
    else:
        what = Phrase(N_("runs {length} mm past its box"), length=length_)
    floor = Phrase(FLOOR, size=size) if fit == "shrink" and not layout.split else ""
    return Phrase(
        N_("text {text} does not fit: {what}{floor} (expected a larger box, less text or min_size)"),
        text=repr(shown(text)),
        what=what,
        floor=floor,
    )


def draw_icon_in(canvas: Canvas, name: str, box: Box, fill_rgb: RGB | None, stroke_rgb: RGB | None) -> None:
    """The built-in icon `name` fitted in `box`; an unknown name is a FaceError with the nearest names."""
    from pnpforge.layouts.icons import ICON_NAMES, draw_icon, unknown_icon  # the table is built on import

    if name not in ICON_NAMES:
        raise FaceError(unknown_icon(name))
    draw_icon(canvas, name, box.x, box.y, box.w, box.h, fill_rgb, stroke_rgb)


def _draw_icon(canvas: Canvas, el: IconElement, box: Box, piece: Piece, ctx: RenderContext) -> None:
    name = el.name.strip()
    if name in ctx.icons:  # the spec's own icon (its SVG/PNG file), square in the box like a built-in one
        side = min(box.w, box.h)
        x, y = box.x + (box.w - side) / 2, box.y + (box.h - side) / 2
        canvas.image(image_path(ctx.icons[name], ctx), x, y, side, side)
        return
    draw_icon_in(canvas, name, box, parse_colour(el.fill), parse_colour(el.stroke))


@lru_cache(maxsize=256)
def _image_size(path: Path, mtime: float) -> tuple[float, float]:
    from reportlab.lib.utils import ImageReader

    try:
        if path.suffix.lower() == ".svg":
            return svg_size(path)
        from PIL import Image

        limits.image_size(str(path), Phrase.word(N_("it")))  # the header first: never decode a bomb
        with Image.open(path) as image:
            image.load()  # decode it all now: a truncated file must fail here, not halfway through the PDF
        return ImageReader(str(path)).getSize()
    except Exception as exc:  # reportlab/PIL raise many kinds for a broken image
        raise FaceError(
            Phrase(N_("cannot read image {name}: {problem}"), name=repr(path.name), problem=reason(exc))
        ) from None


def image_path(src: str, ctx: RenderContext) -> Path:
    """The image file for `src`, checked: exists, PNG, JPEG or SVG, inside the spec folder unless allowed."""
    if Path(src).suffix.lower() not in IMAGE_TYPES:
        raise FaceError(Phrase(NOT_IMAGE, src=repr(src)))
    try:
        outside = ctx.allow_outside_files or ctx.allow_outside_images
        path = named_file(ctx.spec_dir, src, "image", allow_outside=outside)
    except FileRefError as exc:
        raise FaceError(reason(exc)) from None
    if path.suffix.lower() not in IMAGE_TYPES:  # a link named .png may point at any file
        raise FaceError(Phrase(NOT_IMAGE, src=repr(src)))
    return path


def image_rect(el: ImageElement, box: Box, ctx: RenderContext) -> Box:
    """Where the picture is painted: the box (stretch, and cover, which is clipped to it), else the
    largest rectangle of the picture's shape centred in it (contain)."""
    path = image_path(el.src, ctx)
    iw, ih = _image_size(path, path.stat().st_mtime)
    if el.fit != "contain" or iw <= 0 or ih <= 0:
        return box
    ratio = min(box.w / iw, box.h / ih)
    w, h = iw * ratio, ih * ratio
    return Box(box.x + (box.w - w) / 2, box.y + (box.h - h) / 2, w, h)


def _draw_image(canvas: Canvas, el: ImageElement, box: Box, piece: Piece, ctx: RenderContext) -> None:
    try:
        path = image_path(el.src, ctx)
    except FaceError:
        if ctx.draft and not (ctx.spec_dir / el.src).exists():  # art not drawn yet: a labelled stand-in
            from pnpforge.layouts.draft import draw_placeholder

            draw_placeholder(canvas, box, el, piece, ctx)
            return
        raise
    iw, ih = _image_size(path, path.stat().st_mtime)
    if el.fit == "stretch" or iw <= 0 or ih <= 0:
        canvas.image(path, box.x, box.y, box.w, box.h)
        return
    ratio = (min if el.fit == "contain" else max)(box.w / iw, box.h / ih)
    w, h = iw * ratio, ih * ratio
    x, y = box.x + (box.w - w) / 2, box.y + (box.h - h) / 2
    if el.fit == "cover":
        canvas.save()
        canvas.clip(
            [(box.x, box.y), (box.x + box.w, box.y), (box.x + box.w, box.y + box.h), (box.x, box.y + box.h)]
        )
        canvas.image(path, x, y, w, h)
        canvas.restore()
    else:
        canvas.image(path, x, y, w, h)


SIMPLE_DRAWERS: dict[type, Any] = {
    RectElement: _draw_rect,
    CircleElement: _draw_circle,
    HexElement: _draw_hex,
    PolygonElement: _draw_polygon,
    LineElement: _draw_line,
    TextElement: _draw_text,
    IconElement: _draw_icon,
    ImageElement: _draw_image,
}
