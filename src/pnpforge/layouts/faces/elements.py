"""The simple element kinds, one ElementKind each: rect, circle, hex, polygon, line, text, icon and image."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pnpforge.components.model import (
    CircleElement,
    GridElement,
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
from pnpforge.layouts.faces.images import image_path, image_rect, picture_size
from pnpforge.layouts.faces.kind import ElementKind
from pnpforge.layouts.faces.patterns import draw_pattern, pattern_name
from pnpforge.layouts.faces.values import FLOOR, FaceError, length, parse_colour, pattern_ink
from pnpforge.layouts.text import MIN_SIZE, TextLayout, draw_layout, is_rich, layout_text, shown
from pnpforge.output.canvas import RGB, Canvas, Point
from pnpforge.phrase import Phrase
from pnpforge.saying import reason
from pnpforge.units import mm, to_mm


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


def hex_in(box: Box, orientation: str) -> list[Point]:
    """The corners of the largest regular hexagon of `orientation` centred in `box`."""
    cx, cy = box.centre
    pointy = orientation == "pointy"
    radius = min(box.w / SQRT3, box.h / 2) if pointy else min(box.w / 2, box.h / SQRT3)
    return shapes.hex_points(cx, cy, radius, orientation)


def _corners(box: Box) -> list[Point]:
    return [(box.x, box.y), (box.x + box.w, box.y), (box.x + box.w, box.y + box.h), (box.x, box.y + box.h)]


def _points(points: Sequence[tuple[Any, Any]], piece: Piece) -> list[Point]:
    return [(length(x, piece.width), length(y, piece.height)) for x, y in points]


def _around(points: Sequence[Point], box: Box) -> Box:
    """The upright box around `points` (the element's box when there are none)."""
    if not points:
        return box
    xs, ys = [x for x, _ in points], [y for _, y in points]
    return Box(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))


class Rect(ElementKind[RectElement]):
    model = RectElement
    bleeds = True

    def outline(self, el: RectElement, box: Box, piece: Piece, ctx: RenderContext) -> list[Point]:
        return shapes.rounded_rect_points(box.x, box.y, box.w, box.h, length(el.radius, min(box.w, box.h)))

    def draw(self, canvas: Canvas, el: RectElement, box: Box, piece: Piece, ctx: RenderContext) -> None:
        radius = length(el.radius, min(box.w, box.h))
        _, stroke_rgb, width, pattern, _ = paint(el)
        if pattern == "none":
            canvas.rounded_rect(box.x, box.y, box.w, box.h, radius, parse_colour(el.fill), stroke_rgb, width)
            return
        _shape(canvas, shapes.rounded_rect_points(box.x, box.y, box.w, box.h, radius), el)


class Circle(ElementKind[CircleElement]):
    model = CircleElement
    bleeds = True

    def outline(self, el: CircleElement, box: Box, piece: Piece, ctx: RenderContext) -> list[Point]:
        return shapes.ellipse_points(*box.centre, box.w / 2, box.h / 2)

    def draw(self, canvas: Canvas, el: CircleElement, box: Box, piece: Piece, ctx: RenderContext) -> None:
        fill_rgb, stroke_rgb, width, pattern, _ = paint(el)
        if pattern == "none":
            cx, cy = box.centre
            canvas.ellipse(cx, cy, box.w / 2, box.h / 2, fill_rgb, stroke_rgb, width)
            return
        _shape(canvas, self.outline(el, box, piece, ctx), el)


class Hex(ElementKind[HexElement]):
    model = HexElement
    bleeds = True

    def outline(self, el: HexElement, box: Box, piece: Piece, ctx: RenderContext) -> list[Point]:
        return hex_in(box, el.orientation)

    def draw(self, canvas: Canvas, el: HexElement, box: Box, piece: Piece, ctx: RenderContext) -> None:
        _shape(canvas, hex_in(box, el.orientation), el)


class Polygon(ElementKind[PolygonElement]):
    model = PolygonElement
    bleeds = True

    def outline(self, el: PolygonElement, box: Box, piece: Piece, ctx: RenderContext) -> list[Point] | None:
        return _points(el.points, piece) if el.closed else None

    def extent(self, el: PolygonElement, box: Box, piece: Piece) -> Box:
        return _around(_points(el.points, piece), box)

    def draw(self, canvas: Canvas, el: PolygonElement, box: Box, piece: Piece, ctx: RenderContext) -> None:
        points = _points(el.points, piece)
        if len(points) < 2:
            raise FaceError(Phrase.word(N_("a polygon needs at least 2 points")))
        if el.closed:
            _shape(canvas, points, el)
        else:
            _, stroke_rgb, width, _, _ = paint(el)
            canvas.polygon(points, None, stroke_rgb or (0.0, 0.0, 0.0), width, closed=False)


class Line(ElementKind[LineElement]):
    model = LineElement

    def extent(self, el: LineElement, box: Box, piece: Piece) -> Box:
        return _around(_points(el.points, piece), box)

    def draw(self, canvas: Canvas, el: LineElement, box: Box, piece: Piece, ctx: RenderContext) -> None:
        _, stroke_rgb, width, _, _ = paint(el)
        dash = [mm(d) for d in el.dash] if el.dash else None
        if dash is not None and (any(d < 0 for d in dash) or not any(dash)):
            raise FaceError(Phrase.word(N_("dash lengths must be positive millimetres, e.g. [2, 1]")))
        colour = stroke_rgb or parse_colour(el.fill) or (0.0, 0.0, 0.0)
        canvas.polygon(_points(el.points, piece), None, colour, width, closed=False, dash=dash)


def lettering(size: object, font: str, colour: str, ctx: RenderContext) -> tuple[float, str, RGB]:
    """A text's size in points, its font (registered) and its ink, each checked."""
    points = length(size)
    if points <= 0:
        raise FaceError(Phrase.word(N_("size must be positive, e.g. 9pt")))
    try:
        registered = ctx.fonts.resolve(font, ctx.spec_dir)
    except ValueError as exc:
        raise FaceError(reason(exc)) from None
    return points, registered, parse_colour(colour) or (0.0, 0.0, 0.0)


class Text(ElementKind[TextElement]):
    model = TextElement

    def draw(self, canvas: Canvas, el: TextElement, box: Box, piece: Piece, ctx: RenderContext) -> None:
        text = localise(el.text, ctx.lang)
        if not text:
            return
        size, font, colour = lettering(el.size, el.font, el.colour, ctx)
        if is_rich(text):
            from pnpforge.layouts.faces.inline import draw_rich  # rich text alone loads it (start-up speed)

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


class Icon(ElementKind[IconElement]):
    model = IconElement

    def draw(self, canvas: Canvas, el: IconElement, box: Box, piece: Piece, ctx: RenderContext) -> None:
        name = el.name.strip()
        if name in ctx.icons:  # the spec's own icon (its SVG/PNG file), square in the box like a built-in one
            side = min(box.w, box.h)
            x, y = box.x + (box.w - side) / 2, box.y + (box.h - side) / 2
            canvas.image(image_path(ctx.icons[name], ctx), x, y, side, side)
            return
        draw_icon_in(canvas, name, box, parse_colour(el.fill), parse_colour(el.stroke))


class Image(ElementKind[ImageElement]):
    model = ImageElement
    bleeds = True

    def outline(self, el: ImageElement, box: Box, piece: Piece, ctx: RenderContext) -> list[Point]:
        return _corners(image_rect(el, box, ctx))

    def draw(self, canvas: Canvas, el: ImageElement, box: Box, piece: Piece, ctx: RenderContext) -> None:
        try:
            path = image_path(el.src, ctx)
        except FaceError:
            if ctx.draft and not (ctx.spec_dir / el.src).exists():  # art not drawn yet: a labelled stand-in
                from pnpforge.layouts.draft import draw_placeholder

                draw_placeholder(canvas, box, el, piece, ctx)
                return
            raise
        iw, ih = picture_size(path, path.stat().st_mtime)
        if el.fit == "stretch" or iw <= 0 or ih <= 0:
            canvas.image(path, box.x, box.y, box.w, box.h)
            return
        ratio = (min if el.fit == "contain" else max)(box.w / iw, box.h / ih)
        w, h = iw * ratio, ih * ratio
        x, y = box.x + (box.w - w) / 2, box.y + (box.h - h) / 2
        if el.fit == "cover":
            canvas.save()
            canvas.clip(_corners(box))
            canvas.image(path, x, y, w, h)
            canvas.restore()
        else:
            canvas.image(path, x, y, w, h)


class Grid(ElementKind[GridElement]):
    model = GridElement

    def draw(self, canvas: Canvas, el: GridElement, box: Box, piece: Piece, ctx: RenderContext) -> None:
        texts = el.cell_texts()
        cells = el.columns * el.rows
        if len(texts) > cells:
            raise FaceError(
                Phrase(
                    N_("{count} texts for {cells} cells (expected at most one text a cell)"),
                    count=len(texts),
                    cells=cells,
                )
            )
        fill_rgb, stroke_rgb, width, pattern, ink = paint(el)
        stroke_rgb = stroke_rgb if el.stroke is not None else (0.0, 0.0, 0.0)
        size, font, colour = lettering(el.size, el.font, el.colour, ctx)
        cell_w, cell_h = box.w / el.columns, box.h / el.rows
        cell_boxes = [
            Box(box.x + col * cell_w, box.y + row * cell_h, cell_w, cell_h)
            for row in range(el.rows)
            for col in range(el.columns)
        ]
        for cell in cell_boxes:  # fills and patterns first, so no cell's fill hides a neighbour's stroke
            if fill_rgb is not None:
                canvas.rounded_rect(cell.x, cell.y, cell.w, cell.h, 0.0, fill_rgb, None, width)
            if pattern != "none":
                draw_pattern(canvas, _corners(cell), pattern, ink)
        for cell in cell_boxes:
            canvas.rounded_rect(cell.x, cell.y, cell.w, cell.h, 0.0, None, stroke_rgb, width)
        pad = min(cell_w, cell_h) * 0.08  # the text keeps clear of the cell's lines
        for cell, text in zip(cell_boxes, texts, strict=False):
            text = localise(text, ctx.lang)
            if not text:
                continue
            layout = layout_text(
                text,
                cell.x + pad,
                cell.y + pad,
                cell.w - 2 * pad,
                cell.h - 2 * pad,
                fonts=ctx.fonts,
                font=font,
                size=size,
            )
            if not layout.fits:
                ctx.notes.append(fit_note(text, layout, "shrink"))
            draw_layout(canvas, layout, colour)
