"""The hex board elements: hexgrid, and hexmap with its fills, icons, dots, badges, labels and edges."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from pnpforge.components.model import (
    PLACEHOLDER,
    CellSource,
    HexGridCell,
    HexGridElement,
    HexMapElement,
    HexMapMark,
)
from pnpforge.components.template import MissingField, fill, localise
from pnpforge.generator.pieces import Piece
from pnpforge.geometry import hexgrid
from pnpforge.geometry.hexgrid import SQRT3
from pnpforge.i18n import N_
from pnpforge.layouts import shapes
from pnpforge.layouts.faces.context import Box, RenderContext
from pnpforge.layouts.faces.elements import draw_icon_in, fit_note, paint
from pnpforge.layouts.faces.hexdata import Cell, cells_from, edges, load_data
from pnpforge.layouts.faces.kind import ElementKind
from pnpforge.layouts.faces.patterns import draw_pattern
from pnpforge.layouts.faces.values import FaceError, contrast, length, parse_colour
from pnpforge.layouts.text import draw_layout, layout_text
from pnpforge.output.canvas import RGB, Canvas, Point
from pnpforge.phrase import Phrase
from pnpforge.saying import reason

DEFAULT_PALETTE: dict[str, str] = {  # hexmap fills when the spec's palette does not name a value
    "water": "#8ec9ec",
    "sea": "#8ec9ec",
    "shallows": "#c9e7f6",
    "fertile": "#8cc46c",
    "desert": "#ecd68e",
    "land": "#d9c9a3",
    "red": "#e36b5d",
    "yellow": "#f4d54a",
    "green": "#6cbf5b",
    "blue": "#5d8fdc",
    "pink": "#f3a5c9",
    "black": "#5a5a5a",
}
UNKNOWN_FILL = "#e4e4e4"


def _cell_text(canvas: Canvas, text: str, area: Box, size: float, ink: RGB, ctx: RenderContext) -> None:
    font = ctx.fonts.resolve("sans-bold")
    layout = layout_text(text, area.x, area.y, area.w, area.h, fonts=ctx.fonts, font=font, size=size)
    if not layout.fits:
        ctx.notes.append(fit_note(text, layout, "shrink"))
    draw_layout(canvas, layout, ink)


def cell_parts(cx: float, cy: float, radius: float, icon: bool, text: bool) -> tuple[Box, Box]:
    """Where a marked cell's icon and text go, inside its hex: each alone in the middle; both, the icon
    above the centre and the text below it, so they never overlap."""
    if icon and text:
        side = radius * 0.8
        return (
            Box(cx - side / 2, cy - radius * 0.82, side, side),
            Box(cx - radius * 0.6, cy + radius * 0.05, radius * 1.2, radius * 0.55),
        )
    side = radius * 1.1
    return Box(cx - side / 2, cy - side / 2, side, side), Box(
        cx - radius * 0.75, cy - radius * 0.5, radius * 1.5, radius
    )


class HexGrid(ElementKind[HexGridElement]):
    model = HexGridElement

    def draw(self, canvas: Canvas, el: HexGridElement, box: Box, piece: Piece, ctx: RenderContext) -> None:
        _draw_hexgrid(canvas, el, box, ctx)


def _draw_hexgrid(canvas: Canvas, el: HexGridElement, box: Box, ctx: RenderContext) -> None:
    fill_rgb, stroke_rgb, width, pattern, ink = paint(el)
    stroke_rgb = stroke_rgb if el.stroke is not None else (0.0, 0.0, 0.0)
    cols, rows, orient = el.cols, el.rows, hexgrid.orientation(el.orientation)
    unit_w, unit_h = hexgrid.offset_extent(cols, rows, orient)
    radius = min(box.w / unit_w, box.h / unit_h)
    left, top = box.x + (box.w - unit_w * radius) / 2, box.y + (box.h - unit_h * radius) / 2
    first = hexgrid.Layout(orient, radius).corners((0, 0))  # hex [0, 0] touches the grid's top and left
    layout = hexgrid.Layout(orient, radius, (left - min(x for x, _ in first), top - min(y for _, y in first)))

    def centre(col: int, row: int) -> Point:
        return layout.to_pixel(hexgrid.from_offset(col, row, orient))

    special: dict[tuple[int, int], HexGridCell] = {}
    for cell in el.cells:
        col, row = cell.at
        if not (0 <= col < cols and 0 <= row < rows):
            raise FaceError(
                Phrase(
                    N_("cell at {cell} is outside the {grid} grid (expected [col, row] from 0)"),
                    cell=str(list(cell.at)),
                    grid=f"{cols}x{rows}",
                )
            )
        special[(col, row)] = cell
    for row in range(rows):
        for col in range(cols):
            cx, cy = centre(col, row)
            outline = shapes.hex_points(cx, cy, radius, el.orientation)
            marked = special.get((col, row))
            cell_fill = parse_colour(marked.fill) if marked is not None and marked.fill else fill_rgb
            canvas.polygon(outline, cell_fill, None)
            if pattern != "none":
                draw_pattern(canvas, outline, pattern, ink)
            canvas.polygon(outline, None, stroke_rgb, width)
            if marked is None:
                continue
            mark = contrast(cell_fill)
            icon_at, text_at = cell_parts(cx, cy, radius, bool(marked.icon), bool(marked.text))
            if marked.icon:
                draw_icon_in(canvas, marked.icon, icon_at, mark, None)
            if marked.text:
                size = radius * (0.45 if marked.icon else 0.7)
                _cell_text(canvas, localise(marked.text, ctx.lang), text_at, size, mark, ctx)


def _colour_of(value: object, el: HexMapElement) -> RGB | None | FaceError:
    """A value named by the palette, the default palette or as a colour; else the FaceError saying so."""
    name = str(value)
    if name in el.palette:
        return parse_colour(el.palette[name])
    if name in DEFAULT_PALETTE:
        return parse_colour(DEFAULT_PALETTE[name])
    try:
        return parse_colour(name)
    except FaceError as exc:
        return exc


def _cell_fill(cell: Cell, el: HexMapElement) -> RGB | None:
    for key in el.fill_by:
        value = cell.fields.get(key)
        if value is None:
            continue
        colour = _colour_of(value, el)
        if not isinstance(colour, FaceError):
            return colour
    return parse_colour(el.default_fill if el.default_fill is not None else UNKNOWN_FILL)


@dataclass(frozen=True)
class _Hex:
    """Where one cell is drawn: centre, circumradius and its corners on the piece."""

    cx: float
    cy: float
    radius: float
    corners: list[Point]


class HexMap(ElementKind[HexMapElement]):
    model = HexMapElement

    def draw(self, canvas: Canvas, el: HexMapElement, box: Box, piece: Piece, ctx: RenderContext) -> None:
        _draw_hexmap(canvas, el, box, piece, ctx)


def _draw_hexmap(canvas: Canvas, el: HexMapElement, box: Box, piece: Piece, ctx: RenderContext) -> None:
    from pnpforge.layouts.icons import ICON_NAMES, unknown_icon

    cells = cells_from(el.source, ctx.spec_dir, allow_outside=ctx.allow_outside_files)
    stroke_rgb = parse_colour(el.stroke)
    for name in [*el.icons.values(), *(m.icon for m in el.marks if m.icon)]:
        if name not in ICON_NAMES:
            raise FaceError(Phrase(N_("icons: {problem}"), problem=unknown_icon(name)))
    marked = _marked(el, ctx)
    known = {c.at for c in cells}
    cells += [Cell(at, {}) for at in marked if at not in known]  # a mark off the map is drawn all the same
    unit = [hexgrid.corners(c.at, 1.0) for c in cells]
    xs = [x for corners in unit for x, _ in corners]
    ys = [y for corners in unit for _, y in corners]
    span_w, span_h = max(xs) - min(xs), max(ys) - min(ys)
    if str(el.hex).strip().lower() == "fit":
        radius = min(box.w / span_w, box.h / span_h)
    else:
        radius = length(el.hex) / SQRT3
    left = box.x + (box.w - span_w * radius) / 2 - min(xs) * radius
    top = box.y + (box.h - span_h * radius) / 2 - min(ys) * radius

    def place(at: tuple[int, int]) -> _Hex:
        cx, cy = hexgrid.to_pixel(at, radius)
        return _Hex(
            left + cx, top + cy, radius, [(left + x, top + y) for x, y in hexgrid.corners(at, radius)]
        )

    hexes = [place(c.at) for c in cells]
    fills = []
    for cell in cells:
        mark = marked.get(cell.at)
        fills.append(parse_colour(mark.fill) if mark is not None and mark.fill else _cell_fill(cell, el))
    if ctx.bleed > 0 and piece.component.shape in (
        "hex",
        "polyhex",
    ):  # border cells' colour runs into the bleed
        grow = radius + ctx.bleed * 2 / SQRT3
        for spot, colour in zip(hexes, fills, strict=True):
            canvas.polygon(shapes.hex_points(spot.cx, spot.cy, grow), colour, None)
    for spot, colour in zip(hexes, fills, strict=True):
        canvas.polygon(spot.corners, colour, stroke_rgb, max(radius * 0.03, 0.3))
    hex_width = radius * SQRT3  # flat to flat: what the percentages of icon_size and label_size are of
    icon_side = length(el.icon_size, hex_width)
    icon_ink = parse_colour(el.icon_colour) if el.icon_colour is not None else None
    for cell, spot, colour in zip(cells, hexes, fills, strict=True):
        mark = marked.get(cell.at)
        icon = mark.icon if mark is not None and mark.icon else _field_icon(cell, el)
        if icon:
            ink = (
                parse_colour(mark.colour)
                if mark is not None and mark.colour
                else icon_ink or contrast(colour)
            )
            half = icon_side / 2
            draw_icon_in(canvas, icon, Box(spot.cx - half, spot.cy - half, icon_side, icon_side), ink, None)
        for key in el.dots_by:
            _draw_dots(canvas, cell, key, spot, colour, el, ctx)
        for key, least in el.badges.items():
            _draw_badge(canvas, cell, key, least, spot, ctx)
        label = _cell_label(cell, el, ctx.lang)
        if label:
            ink = parse_colour(el.label_colour) if el.label_colour is not None else contrast(colour)
            size = length(el.label_size, hex_width)
            offset = {"bottom": 0.625, "centre": 0.0, "top": -0.625}[el.label_at] * radius
            if ink is not None:  # label_colour: none draws no label
                _small_text(canvas, label, spot.cx, spot.cy + offset, radius * 1.2, size, ink, ctx)
    if el.edges:
        source = load_data(ctx.spec_dir, el.source.data, ctx.allow_outside_files)
        edge_rgb, edge_width = parse_colour(el.edge_colour), length(el.edge_width)
        for at, direction in edges(source, el.edges):
            a, b = hexgrid.edge_corners(direction)
            points = place(at).corners
            canvas.polygon([points[a], points[b]], None, edge_rgb, edge_width, closed=False)


def _marked(el: HexMapElement, ctx: RenderContext) -> dict[tuple[int, int], HexMapMark]:
    """Cell -> the last mark naming it."""
    out: dict[tuple[int, int], HexMapMark] = {}
    for mark in el.marks:
        spec = CellSource(data=el.source.data, list=mark.list, match=mark.match, cells=mark.cells)
        for cell in cells_from(spec, ctx.spec_dir, allow_none=True, allow_outside=ctx.allow_outside_files):
            out[cell.at] = mark
    return out


def _field_icon(cell: Cell, el: HexMapElement) -> str | None:
    return next((el.icons[str(v)] for k, v in cell.fields.items() if k != "at" and str(v) in el.icons), None)


def _cell_label(cell: Cell, el: HexMapElement, lang: str) -> str:
    """The cell's label: `label_by` (a field, the first field present of a list, or a `{field}` text)."""
    if el.label_by is None:
        if not el.labels:
            return ""
        return str(cell.fields.get("label", cell.fields.get("id", f"{cell.at[0]},{cell.at[1]}")))
    if isinstance(el.label_by, str) and PLACEHOLDER.search(el.label_by):
        try:
            value: Any = fill(el.label_by, cell.fields, lang)
        except MissingField:  # cells without the field carry no label
            return ""
    else:
        keys = [el.label_by] if isinstance(el.label_by, str) else el.label_by
        value = next((cell.fields[k] for k in keys if cell.fields.get(k) is not None), "")
    text = str(value)
    return localise(el.label_map[text], lang) if text in el.label_map else text


def _small_text(
    canvas: Canvas, text: str, cx: float, cy: float, width: float, size: float, ink: RGB, ctx: RenderContext
) -> None:
    """One short line centred on (cx, cy), shrunk to `width` if it is wider."""
    font = ctx.fonts.resolve("sans-bold")
    height = size * 1.3
    layout = layout_text(
        text, cx - width / 2, cy - height / 2, width, height, fonts=ctx.fonts, font=font, size=size
    )
    if not layout.fits:
        ctx.notes.append(fit_note(text, layout, "shrink"))
    draw_layout(canvas, layout, ink)


def _draw_dots(
    canvas: Canvas,
    cell: Cell,
    key: str,
    spot: _Hex,
    fill_rgb: RGB | None,
    el: HexMapElement,
    ctx: RenderContext,
) -> None:
    """A list-valued field as small dots: an item is a colour value, or a mapping with its colour (its first
    `fill_by` field, else `colour`) and optionally `side` (0-5), which puts the dot toward that side."""
    items = cell.fields.get(key)
    if items is None:
        return
    where = Phrase(N_("cell {cell}: {key}"), cell=str(list(cell.at)), key=key)
    if not isinstance(items, list):
        raise FaceError(
            Phrase(
                N_("{where} is not a list (expected a list of colours or of {{colour, side}})"), where=where
            )
        )
    r = spot.radius
    dot = r * 0.19
    loose = sum(1 for item in items if not (isinstance(item, dict) and item.get("side") is not None))
    placed = 0  # dots without a side placed so far
    for number, item in enumerate(items):
        fields = item if isinstance(item, dict) else {"colour": item}
        value = next((fields[k] for k in (*el.fill_by, "colour") if fields.get(k) is not None), None)
        colour = _colour_of(value, el) if value is not None else FaceError(Phrase.word(N_("no colour")))
        if isinstance(colour, FaceError):
            raise FaceError(
                Phrase(
                    N_("{where} item {number}: {problem} (expected a colour value)"),
                    where=where,
                    number=number + 1,
                    problem=reason(colour),
                )
            )
        side = fields.get("side")
        if side is not None:
            if not (isinstance(side, int) and not isinstance(side, bool) and 0 <= side < 6):
                raise FaceError(
                    Phrase(
                        N_("{where} item {number}: side {side} (expected a whole number 0-5)"),
                        where=where,
                        number=number + 1,
                        side=repr(side),
                    )
                )
            dx, dy = hexgrid.to_pixel(hexgrid.DIRECTIONS[side], 1.0)
            scale = r * 0.62 / math.hypot(dx, dy)
            x, y = spot.cx + dx * scale, spot.cy + dy * scale
        else:  # in a row across the top of the cell
            x = spot.cx + (placed - (loose - 1) / 2) * dot * 2.3
            y = spot.cy - r * 0.55
            placed += 1
        canvas.ellipse(x, y, dot, dot, colour, contrast(fill_rgb), max(r * 0.025, 0.3))
        text = str(value)
        if text in el.label_map:
            _small_text(
                canvas,
                localise(el.label_map[text], ctx.lang),
                x,
                y,
                dot * 1.7,
                dot * 1.1,
                contrast(colour),
                ctx,
            )


def _draw_badge(canvas: Canvas, cell: Cell, key: str, least: int, spot: _Hex, ctx: RenderContext) -> None:
    """A numeric field as a number in a white disc at the cell's upper right, when it is at least `least`."""
    value = cell.fields.get(key)
    if value is None:
        return
    try:
        number = int(str(value).strip())
    except ValueError:
        raise FaceError(
            Phrase(
                N_("cell {cell}: {key} {value} is not a whole number"),
                cell=str(list(cell.at)),
                key=key,
                value=repr(value),
            )
        ) from None
    if number < least:
        return
    r = spot.radius
    x, y = spot.cx + r * 0.5, spot.cy - r * 0.5
    size = r * 0.2
    canvas.ellipse(x, y, size, size, (1.0, 1.0, 1.0), (0.0, 0.0, 0.0), max(r * 0.025, 0.3))
    _small_text(canvas, str(number), x, y, size * 1.8, size * 1.35, (0.0, 0.0, 0.0), ctx)
