"""Drawing or checking one side of a piece: the background, then each element by its kind."""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

from pnpforge.components.model import (
    PLACEHOLDER,
    CellSource,
    CircleElement,
    Component,
    HexElement,
    HexGridElement,
    HexMapElement,
    HexMapMark,
    IconElement,
    ImageElement,
    LineElement,
    Paint,
    PolygonElement,
    RectElement,
    Side,
    TextElement,
)
from pnpforge.components.template import MissingField, fill, localise
from pnpforge.errors import InputError, Problem
from pnpforge.generator.pieces import Piece
from pnpforge.geometry import hexgrid
from pnpforge.layouts import shapes
from pnpforge.layouts.faces.context import Box, RenderContext
from pnpforge.layouts.faces.patterns import draw_pattern, pattern_name
from pnpforge.layouts.faces.templates import has_placeholder, holds_placeholder, resolve
from pnpforge.layouts.faces.values import FaceError, contrast, length, parse_colour, pattern_ink
from pnpforge.layouts.text import layout_text
from pnpforge.output.canvas import RGB, Canvas, Point
from pnpforge.output.svgimage import svg_size
from pnpforge.sourcefile import FileRefError, Source, named_file, read_yaml
from pnpforge.units import mm, to_mm

SideName = Literal["face", "back"]
IMAGE_TYPES = (".png", ".jpg", ".jpeg", ".svg")
FALSY = ("", "0", "false")
SQRT3 = math.sqrt(3.0)
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


def side_spec(component: Component, side: SideName) -> Side | None:
    return component.face if side == "face" else component.back


def side_is_shared(component: Component, side: SideName) -> bool:
    """True when the side looks the same on every piece, so it is drawn once and reused."""
    spec = side_spec(component, side)
    if spec is None:
        return True
    if component.shape == "polyhex" or (
        isinstance(component.size, str) and PLACEHOLDER.search(component.size)
    ):
        return False  # the outline itself differs from piece to piece
    if holds_placeholder(spec.background) or holds_placeholder(spec.pattern):
        return False
    return not any(has_placeholder(element) for element in spec.elements)  # each element knows its own


# the drawing surface used by checks --------------------------------------------------------------
class NullCanvas:
    """A Canvas that draws nothing: check_side runs the drawing code on it."""

    def save(self) -> None: ...
    def restore(self) -> None: ...
    def translate(self, x: float, y: float) -> None: ...
    def rotate(self, degrees: float) -> None: ...
    def scale(self, sx: float, sy: float) -> None: ...
    def clip(self, outline: Sequence[Point]) -> None: ...
    def polygon(
        self,
        points: Sequence[Point],
        fill: RGB | None,
        stroke: RGB | None,
        width: float = 0.5,
        closed: bool = True,
        dash: Sequence[float] | None = None,
    ) -> None: ...
    def ellipse(
        self, cx: float, cy: float, rx: float, ry: float, fill: RGB | None, stroke: RGB | None, width: float
    ) -> None: ...
    def rounded_rect(
        self,
        x: float,
        y: float,
        w: float,
        h: float,
        radius: float,
        fill: RGB | None,
        stroke: RGB | None,
        width: float,
    ) -> None: ...
    def text(self, x: float, baseline: float, text: str, font: str, size: float, colour: RGB) -> None: ...
    def image(self, path: Path, x: float, y: float, w: float, h: float) -> None: ...

    def begin_reuse(self, key: str) -> bool:
        return True

    def end_reuse(self) -> None: ...
    def reuse(self, key: str) -> None: ...


# the side ----------------------------------------------------------------------------------------
def draw_side(canvas: Canvas, piece: Piece, side: SideName, ctx: RenderContext) -> None:
    """Draw `side` of `piece` with its trim top-left at (0, 0). Raises InputError on a bad value."""
    problems = list(_render(canvas, piece, side, ctx, stop=True))
    if problems:
        raise InputError(problems)


def check_side(piece: Piece, side: SideName, ctx: RenderContext) -> list[Problem]:
    """Every problem drawing `side` of `piece` would hit, located at the piece's data row (or, for a value
    written in game.yaml without `{field}`, there when `ctx.spec_source` is given); draws nothing."""
    return list(_render(NullCanvas(), piece, side, ctx, stop=False))


def _render(
    canvas: Canvas, piece: Piece, side: SideName, ctx: RenderContext, stop: bool
) -> Iterator[Problem]:
    spec = side_spec(piece.component, side)
    if spec is None:
        return
    where = f"{piece.component.name} {side}"
    try:
        outline = shapes.bleed_outline(piece, ctx.bleed)
    except ValueError as exc:  # a bad size or a split polyhex
        yield _problem(piece, f"{where}: {exc}")
        return
    try:
        background = parse_colour(_fill_text(spec.background, piece.row, ctx.lang))
    except FaceError as exc:
        fixed = not holds_placeholder(spec.background)
        yield _located(piece, ctx, (side, "background") if fixed else None, f"{where}: {exc}")
        return
    try:
        pattern = pattern_name(_fill_text(spec.pattern, piece.row, ctx.lang))
    except FaceError as exc:
        fixed = not holds_placeholder(spec.pattern)
        yield _located(piece, ctx, (side, "pattern") if fixed else None, f"{where}: {exc}")
        return
    canvas.save()
    canvas.clip(outline)
    if background is not None:
        canvas.polygon(outline, background, None)
    if pattern != "none":
        draw_pattern(canvas, outline, pattern, pattern_ink(background))
    for index, element in enumerate(spec.elements, start=1):
        try:
            draw_element(canvas, resolve(element, piece.row, ctx.lang), piece, ctx)
        except (FaceError, MissingField) as exc:
            path = None if has_placeholder(element) else (side, "elements", index - 1)
            yield _located(piece, ctx, path, f"{where} element {index} ({element.type}): {exc}")
            if stop:
                break
        except InputError as exc:  # a data file of the spec is broken: its own file and line
            yield from exc.problems
            if stop:
                break
    canvas.restore()


def _problem(piece: Piece, message: str) -> Problem:
    return Problem(piece.row_ref.file, piece.row_ref.line, 0, message)


def _located(piece: Piece, ctx: RenderContext, path: tuple[str | int, ...] | None, message: str) -> Problem:
    """A problem of a value written in game.yaml (`path` under the component) is located there: it is the
    same for every row, so it is reported once; a value filled from a row is located at that row."""
    source = ctx.spec_source
    raw = source.data.get("components") if source is not None and isinstance(source.data, dict) else None
    if path is None or source is None or not isinstance(raw, list):
        return _problem(piece, message)
    for index, item in enumerate(raw):
        if isinstance(item, dict) and item.get("name") == piece.component.name:
            return source.problem(("components", index, *path), message)
    return _problem(piece, message)


def _fill_text(value: str | None, row: Mapping[str, Any], lang: str) -> str | None:
    if value is None:
        return None
    try:
        return fill(value, row, lang)
    except MissingField as exc:
        raise FaceError(str(exc)) from None


def _shown(when: str | None) -> bool:
    return when is None or when.strip().lower() not in FALSY


def _box(element: Any, piece: Piece) -> Box:
    return _box_of(element.x, element.y, element.w, element.h, piece.width, piece.height)


@lru_cache(maxsize=4096, typed=True)
def _box_of(x: object, y: object, w: object, h: object, width: float, height: float) -> Box:
    box = Box(length(x, width), length(y, height), length(w, width), length(h, height))
    if box.w < 0 or box.h < 0:
        raise FaceError("w and h must not be negative")
    return box


def draw_element(canvas: Canvas, element: Any, piece: Piece, ctx: RenderContext) -> None:
    """Draw one (already filled) element; raises FaceError with what is wrong and what is expected."""
    if not _shown(element.when):
        return
    box = _box(element, piece)
    if piece.component.kind == "sheet":
        _check_on_sheet(box, piece)
    drawer = _DRAWERS[type(element)]
    if element.rotate:
        cx, cy = box.centre
        canvas.save()
        canvas.translate(cx, cy)
        canvas.rotate(element.rotate)
        canvas.translate(-cx, -cy)
        drawer(canvas, element, box, piece, ctx)
        canvas.restore()
    else:
        drawer(canvas, element, box, piece, ctx)


SHEET_SLACK = mm(0.5)  # an element may overrun a sheet by this much (stroke, rounding)


def _check_on_sheet(box: Box, piece: Piece) -> None:
    """A sheet is not cut, so nothing on it may run off it: refuse instead of clipping it silently."""
    right, bottom = box.x + box.w, box.y + box.h
    if (
        box.x < -SHEET_SLACK
        or box.y < -SHEET_SLACK
        or right > piece.width + SHEET_SLACK
        or bottom > (piece.height + SHEET_SLACK)
    ):
        raise FaceError(
            f"runs to {to_mm(right):.0f} × {to_mm(bottom):.0f} mm, past the "
            f"{to_mm(piece.width):.0f} × {to_mm(piece.height):.0f} mm sheet (expected it inside; give the "
            "sheet a size, or print on a page large enough)"
        )


def _paint(element: Paint) -> tuple[RGB | None, RGB | None, float, str, RGB | None]:
    fill_rgb = parse_colour(element.fill)
    stroke_rgb = parse_colour(element.stroke)
    width = length(element.stroke_width)
    pattern = pattern_name(element.pattern)
    ink = parse_colour(element.pattern_colour) or pattern_ink(fill_rgb)
    return fill_rgb, stroke_rgb, width, pattern, ink


def _shape(canvas: Canvas, outline: Sequence[Point], element: Paint) -> None:
    """Fill, pattern over the fill, then the stroke on top (so the pattern never hides the edge)."""
    fill_rgb, stroke_rgb, width, pattern, ink = _paint(element)
    canvas.polygon(outline, fill_rgb, None)
    if pattern != "none":
        draw_pattern(canvas, outline, pattern, ink)
    canvas.polygon(outline, None, stroke_rgb, width)


def _draw_rect(canvas: Canvas, el: RectElement, box: Box, piece: Piece, ctx: RenderContext) -> None:
    radius = length(el.radius, min(box.w, box.h))
    _, stroke_rgb, width, pattern, _ = _paint(el)
    if pattern == "none":
        canvas.rounded_rect(box.x, box.y, box.w, box.h, radius, parse_colour(el.fill), stroke_rgb, width)
        return
    _shape(canvas, shapes.rounded_rect_points(box.x, box.y, box.w, box.h, radius), el)


def _draw_circle(canvas: Canvas, el: CircleElement, box: Box, piece: Piece, ctx: RenderContext) -> None:
    cx, cy = box.centre
    fill_rgb, stroke_rgb, width, pattern, _ = _paint(el)
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
        raise FaceError("a polygon needs at least 2 points")
    if el.closed:
        _shape(canvas, points, el)
    else:
        _, stroke_rgb, width, _, _ = _paint(el)
        canvas.polygon(points, None, stroke_rgb or (0.0, 0.0, 0.0), width, closed=False)


def _draw_line(canvas: Canvas, el: LineElement, box: Box, piece: Piece, ctx: RenderContext) -> None:
    _, stroke_rgb, width, _, _ = _paint(el)
    dash = [mm(d) for d in el.dash] if el.dash else None
    if dash is not None and (any(d < 0 for d in dash) or not any(dash)):
        raise FaceError("dash lengths must be positive millimetres, e.g. [2, 1]")
    colour = stroke_rgb or parse_colour(el.fill) or (0.0, 0.0, 0.0)
    canvas.polygon(_points(el.points, piece), None, colour, width, closed=False, dash=dash)


def _draw_text(canvas: Canvas, el: TextElement, box: Box, piece: Piece, ctx: RenderContext) -> None:
    text = localise(el.text, ctx.lang)
    if not text:
        return
    size = length(el.size)
    if size <= 0:
        raise FaceError("size must be positive, e.g. 9pt")
    try:
        font = ctx.fonts.resolve(el.font, ctx.spec_dir)
    except ValueError as exc:
        raise FaceError(str(exc)) from None
    colour = parse_colour(el.colour) or (0.0, 0.0, 0.0)
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
    )
    for line in layout.lines:
        for run in line.runs:
            canvas.text(run.x, line.baseline, run.text, run.font, layout.size, colour)


def _icon(canvas: Canvas, name: str, box: Box, fill_rgb: RGB | None, stroke_rgb: RGB | None) -> None:
    from pnpforge.layouts.icons import ICON_NAMES, draw_icon, unknown_icon  # the table is built on import

    if name not in ICON_NAMES:
        raise FaceError(unknown_icon(name))
    draw_icon(canvas, name, box.x, box.y, box.w, box.h, fill_rgb, stroke_rgb)


def _draw_icon(canvas: Canvas, el: IconElement, box: Box, piece: Piece, ctx: RenderContext) -> None:
    _icon(canvas, el.name.strip(), box, parse_colour(el.fill), parse_colour(el.stroke))


@lru_cache(maxsize=256)
def _image_size(path: Path, mtime: float) -> tuple[float, float]:
    from reportlab.lib.utils import ImageReader

    try:
        if path.suffix.lower() == ".svg":
            return svg_size(path)
        from PIL import Image

        with Image.open(path) as image:
            image.load()  # decode it all now: a truncated file must fail here, not halfway through the PDF
        return ImageReader(str(path)).getSize()
    except Exception as exc:  # reportlab/PIL raise many kinds for a broken image
        raise FaceError(f"cannot read image {path.name!r}: {exc}") from None


def image_path(src: str, ctx: RenderContext) -> Path:
    """The image file for `src`, checked: exists, PNG, JPEG or SVG, inside the spec folder unless allowed."""
    if Path(src).suffix.lower() not in IMAGE_TYPES:
        raise FaceError(f"image {src!r} is not a PNG, JPEG or SVG file")
    try:
        path = named_file(ctx.spec_dir, src, "image", allow_outside=ctx.allow_outside_files)
    except FileRefError as exc:
        raise FaceError(str(exc)) from None
    if path.suffix.lower() not in IMAGE_TYPES:  # a link named .png may point at any file
        raise FaceError(f"image {src!r} is not a PNG, JPEG or SVG file")
    return path


def _draw_image(canvas: Canvas, el: ImageElement, box: Box, piece: Piece, ctx: RenderContext) -> None:
    path = image_path(el.src, ctx)
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


# hex grids ---------------------------------------------------------------------------------------
def _cell_text(
    canvas: Canvas, text: str, cx: float, cy: float, radius: float, ink: RGB, ctx: RenderContext
) -> None:
    font = ctx.fonts.resolve("sans-bold")
    layout = layout_text(
        text,
        cx - radius * 0.75,
        cy - radius * 0.5,
        radius * 1.5,
        radius,
        fonts=ctx.fonts,
        font=font,
        size=radius * 0.7,
    )
    for line in layout.lines:
        for run in line.runs:
            canvas.text(run.x, line.baseline, run.text, run.font, layout.size, ink)


def _draw_hexgrid(canvas: Canvas, el: HexGridElement, box: Box, piece: Piece, ctx: RenderContext) -> None:
    fill_rgb, stroke_rgb, width, pattern, ink = _paint(el)
    stroke_rgb = stroke_rgb if el.stroke is not None else (0.0, 0.0, 0.0)
    cols, rows, pointy = el.cols, el.rows, el.orientation == "pointy"
    if pointy:  # odd rows shift right by half a hex
        radius = min(box.w / (SQRT3 * (cols + (0.5 if rows > 1 else 0))), box.h / (2 + 1.5 * (rows - 1)))
        grid_w, grid_h = SQRT3 * radius * (cols + (0.5 if rows > 1 else 0)), radius * (2 + 1.5 * (rows - 1))
    else:  # odd columns shift down by half a hex
        radius = min(box.w / (2 + 1.5 * (cols - 1)), box.h / (SQRT3 * (rows + (0.5 if cols > 1 else 0))))
        grid_w, grid_h = radius * (2 + 1.5 * (cols - 1)), SQRT3 * radius * (rows + (0.5 if cols > 1 else 0))
    left, top = box.x + (box.w - grid_w) / 2, box.y + (box.h - grid_h) / 2

    def centre(col: int, row: int) -> Point:
        if pointy:
            return (left + SQRT3 * radius * (col + 0.5 + 0.5 * (row % 2)), top + radius * (1 + 1.5 * row))
        return (left + radius * (1 + 1.5 * col), top + SQRT3 * radius * (0.5 + row + 0.5 * (col % 2)))

    special: dict[tuple[int, int], Any] = {}
    for cell in el.cells:
        col, row = cell.at
        if not (0 <= col < cols and 0 <= row < rows):
            raise FaceError(
                f"cell at {list(cell.at)} is outside the {cols}x{rows} grid (expected [col, row] from 0)"
            )
        special[(col, row)] = cell
    for row in range(rows):
        for col in range(cols):
            cx, cy = centre(col, row)
            outline = shapes.hex_points(cx, cy, radius, el.orientation)
            cell = special.get((col, row))
            cell_fill = parse_colour(cell.fill) if cell is not None and cell.fill else fill_rgb
            canvas.polygon(outline, cell_fill, None)
            if pattern != "none":
                draw_pattern(canvas, outline, pattern, ink)
            canvas.polygon(outline, None, stroke_rgb, width)
            if cell is None:
                continue
            mark = contrast(cell_fill)
            if cell.icon:
                side = radius * 1.1
                _icon(canvas, cell.icon, Box(cx - side / 2, cy - side / 2, side, side), mark, None)
            if cell.text:
                _cell_text(canvas, localise(cell.text, ctx.lang), cx, cy, radius, mark, ctx)


# data files for hex maps ---------------------------------------------------------------------------
_data_cache: dict[tuple[Path, int], Source] = {}


def load_data(folder: Path, name: str, allow_outside: bool = False) -> Source:
    """A YAML data file of the spec, parsed once per build (keyed by path and modification time)."""
    try:
        path = named_file(folder, name, "data file", allow_outside=allow_outside)
        key = (path, path.stat().st_mtime_ns)
    except (FileRefError, OSError) as exc:
        raise FaceError(str(exc)) from None
    source = _data_cache.get(key)
    if source is None:
        source = read_yaml(path)
        _data_cache[key] = source
    return source


def _dig(source: Source, dotted: str) -> tuple[Any, tuple[str | int, ...]]:
    data: Any = source.data
    path: tuple[str | int, ...] = ()
    for part in dotted.split(".") if dotted else []:
        if not isinstance(data, dict) or part not in data:
            raise InputError(
                [source.problem(path, f"no key {dotted!r} here (expected the list the spec names)")]
            )
        data = data[part]
        path = (*path, part)
    return data, path


@dataclass(frozen=True)
class Cell:
    at: tuple[int, int]
    fields: Mapping[str, Any]


def cells_from(
    source_spec: CellSource,
    spec_dir: Path,
    row: Mapping[str, Any] | None = None,
    lang: str = "en",
    *,
    allow_none: bool = False,
    allow_outside: bool = False,
) -> list[Cell]:
    """The hex cells a CellSource picks from its data file (`match` values may hold {field})."""
    source = load_data(spec_dir, source_spec.data, allow_outside)
    items, path = _dig(source, source_spec.list)
    if not isinstance(items, list):
        raise InputError(
            [source.problem(path, f"{source_spec.list!r} is not a list (expected a list of items)")]
        )
    wanted = {k: (fill(v, row, lang) if row is not None else v) for k, v in source_spec.match.items()}
    cells: list[Cell] = []
    matched = 0
    for index, item in enumerate(items):
        if not isinstance(item, dict) or any(str(item.get(k)) != v for k, v in wanted.items()):
            continue
        matched += 1
        if source_spec.cells:
            entries = item.get(source_spec.cells)
            where: tuple[str | int, ...] = (*path, index, source_spec.cells)
            if not isinstance(entries, list):
                raise InputError(
                    [source.problem((*path, index), f"item has no list {source_spec.cells!r} of cells")]
                )
        else:
            entries, where = [item], (*path, index)
        for number, entry in enumerate(entries):
            at = entry.get("at") if isinstance(entry, dict) else None
            if not (isinstance(at, list) and len(at) == 2 and all(isinstance(v, int) for v in at)):
                spot = where if not source_spec.cells else (*where, number)
                raise InputError([source.problem(spot, "a cell needs `at: [q, r]` (two whole numbers)")])
            cells.append(Cell((at[0], at[1]), entry))
    if not matched and not allow_none:
        shown = ", ".join(f"{k}={v}" for k, v in wanted.items()) or "any item"
        raise InputError([source.problem(path, f"no item in {source_spec.list!r} matches {shown}")])
    return cells


def _edges(source: Source, dotted: str) -> list[tuple[tuple[int, int], int]]:
    data, path = _dig(source, dotted)
    if not isinstance(data, list):
        raise InputError([source.problem(path, f"{dotted!r} is not a list of hex sides")])
    out = []
    for index, item in enumerate(data):
        if isinstance(item, dict) and "cell" in item and "dir" in item:
            cell, direction = item["cell"], item["dir"]
        elif isinstance(item, list) and len(item) == 3:
            cell, direction = item[:2], item[2]
        else:
            cell, direction = None, None
        if not (
            isinstance(cell, list) and len(cell) == 2 and isinstance(direction, int) and 0 <= direction < 6
        ):
            raise InputError(
                [source.problem((*path, index), "a hex side is {cell: [q, r], dir: 0-5} or [q, r, dir]")]
            )
        out.append(((int(cell[0]), int(cell[1])), direction))
    return out


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


def _draw_hexmap(canvas: Canvas, el: HexMapElement, box: Box, piece: Piece, ctx: RenderContext) -> None:
    from pnpforge.layouts.icons import ICON_NAMES, unknown_icon

    cells = cells_from(el.source, ctx.spec_dir, allow_outside=ctx.allow_outside_files)
    stroke_rgb = parse_colour(el.stroke)
    for name in [*el.icons.values(), *(m.icon for m in el.marks if m.icon)]:
        if name not in ICON_NAMES:
            raise FaceError("icons: " + unknown_icon(name))
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
            _icon(canvas, icon, Box(spot.cx - half, spot.cy - half, icon_side, icon_side), ink, None)
        for key in el.dots_by:
            _draw_dots(canvas, cell, key, spot, colour, el, ctx)
        for key, least in el.badges.items():
            _draw_badge(canvas, cell, key, least, spot, ctx)
        label = _cell_label(cell, el, ctx.lang)
        if label:
            ink = parse_colour(el.label_colour) if el.label_colour is not None else contrast(colour)
            size = length(el.label_size, hex_width)
            offset = {"bottom": 0.625, "centre": 0.0, "top": -0.625}[el.label_at] * radius
            _small_text(canvas, label, spot.cx, spot.cy + offset, radius * 1.2, size, ink, ctx)
    if el.edges:
        source = load_data(ctx.spec_dir, el.source.data, ctx.allow_outside_files)
        edge_rgb, edge_width = parse_colour(el.edge_colour), length(el.edge_width)
        for at, direction in _edges(source, el.edges):
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
    for line in layout.lines:
        for run in line.runs:
            canvas.text(run.x, line.baseline, run.text, run.font, layout.size, ink)


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
    where = f"cell {list(cell.at)}: {key}"
    if not isinstance(items, list):
        raise FaceError(f"{where} is not a list (expected a list of colours or of {{colour, side}})")
    r = spot.radius
    dot = r * 0.19
    loose = sum(1 for item in items if not (isinstance(item, dict) and item.get("side") is not None))
    placed = 0  # dots without a side placed so far
    for number, item in enumerate(items):
        fields = item if isinstance(item, dict) else {"colour": item}
        value = next((fields[k] for k in (*el.fill_by, "colour") if fields.get(k) is not None), None)
        colour = _colour_of(value, el) if value is not None else FaceError("no colour")
        if isinstance(colour, FaceError):
            raise FaceError(f"{where} item {number + 1}: {colour} (expected a colour value)")
        side = fields.get("side")
        if side is not None:
            if not (isinstance(side, int) and not isinstance(side, bool) and 0 <= side < 6):
                raise FaceError(f"{where} item {number + 1}: side {side!r} (expected a whole number 0-5)")
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
        raise FaceError(f"cell {list(cell.at)}: {key} {value!r} is not a whole number") from None
    if number < least:
        return
    r = spot.radius
    x, y = spot.cx + r * 0.5, spot.cy - r * 0.5
    size = r * 0.2
    canvas.ellipse(x, y, size, size, (1.0, 1.0, 1.0), (0.0, 0.0, 0.0), max(r * 0.025, 0.3))
    _small_text(canvas, str(number), x, y, size * 1.8, size * 1.35, (0.0, 0.0, 0.0), ctx)


_DRAWERS: dict[type, Any] = {
    RectElement: _draw_rect,
    CircleElement: _draw_circle,
    HexElement: _draw_hex,
    PolygonElement: _draw_polygon,
    LineElement: _draw_line,
    TextElement: _draw_text,
    IconElement: _draw_icon,
    ImageElement: _draw_image,
    HexGridElement: _draw_hexgrid,
    HexMapElement: _draw_hexmap,
}
