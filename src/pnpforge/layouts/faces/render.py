"""Drawing or checking one side of a piece: the background, then each element by its kind."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any, Literal

from pnpforge import limits
from pnpforge.components.expressions import ExpressionError
from pnpforge.components.model import (
    PLACEHOLDER,
    CircleElement,
    Component,
    HexElement,
    Side,
    TextElement,
)
from pnpforge.components.template import FILL_ERRORS, MissingField, fill, lookup
from pnpforge.errors import InputError, Problem
from pnpforge.generator.pieces import Piece
from pnpforge.geometry.hexgrid import SQRT3
from pnpforge.i18n import N_
from pnpforge.layouts import shapes
from pnpforge.layouts.faces import elements, hexmaps, repeat  # noqa: F401  # their kinds register on import
from pnpforge.layouts.faces.context import RenderContext
from pnpforge.layouts.faces.draw import box_of, draw_alike, shown, wanted
from pnpforge.layouts.faces.patterns import draw_pattern, pattern_name
from pnpforge.layouts.faces.templates import has_placeholder, holds_placeholder, resolve
from pnpforge.layouts.faces.values import FaceError, length, parse_colour, pattern_ink
from pnpforge.output.canvas import Canvas, NullCanvas
from pnpforge.phrase import Phrase
from pnpforge.saying import reason
from pnpforge.units import mm

SideName = Literal["face", "back"]


def side_spec(component: Component, side: SideName) -> Side | None:
    return component.face if side == "face" else component.back


def side_is_shared(component: Component, side: SideName) -> bool:
    """True when the side looks the same on every piece, so it is drawn once and reused."""
    spec = side_spec(component, side)
    if spec is None:
        return True
    if (component.face_by if side == "face" else component.back_by) is not None:
        return False  # a side picked per row (each row's copy of the component knows its own)
    if component.shape == "polyhex" or (
        isinstance(component.size, str) and PLACEHOLDER.search(component.size)
    ):
        return False  # the outline itself differs from piece to piece
    if holds_placeholder(spec.background) or holds_placeholder(spec.pattern):
        return False
    return not any(has_placeholder(element) for element in spec.elements)  # each element knows its own


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
        yield _problem(piece, Phrase(AT, where=where, problem=reason(exc)))
        return
    background, problem = _side_value(parse_colour, "background", spec, piece, side, ctx, where)
    if problem is None:
        pattern, problem = _side_value(pattern_name, "pattern", spec, piece, side, ctx, where)
    if problem is not None:
        yield problem
        return
    canvas.save()
    canvas.clip(outline)
    if background is not None:
        canvas.polygon(outline, background, None)
    if pattern != "none":
        draw_pattern(canvas, outline, pattern, pattern_ink(background))
    discs = Backdrops(piece)
    for index, element in enumerate(spec.elements, start=1):
        try:
            if not wanted(element.when, piece.row, ctx.lang):
                continue
            filled = resolve(element, piece.row, ctx.lang)
            ctx.backdrop = discs.behind(filled) if isinstance(filled, TextElement) else None
            ctx.notes.clear()
            draw_alike(canvas, filled, piece, ctx)
            discs.add(filled)
            for note in ctx.notes:
                place = (
                    None
                    if has_placeholder(element)
                    else (*piece.component.side_path(side), "elements", index - 1)
                )
                ctx.warn(
                    _located(
                        piece,
                        ctx,
                        place,
                        Phrase(
                            N_("{where} element {index}: {note}"),
                            where=_named(where, piece, ctx.lang),
                            index=index,
                            note=note,
                        ),
                    )
                )
        except (FaceError, limits.OverImageBytes, *FILL_ERRORS) as exc:
            per_row = has_placeholder(element) or isinstance(exc, ExpressionError)  # evaluated on this row
            path = None if per_row else (*piece.component.side_path(side), "elements", index - 1)
            said = Phrase(
                N_("{where} element {index} ({type}): {problem}"),
                where=where,
                index=index,
                type=element.type,
                problem=reason(exc),
            )
            yield _located(piece, ctx, path, said)
            if stop:
                break
        except InputError as exc:  # a data file of the spec is broken: its own file and line
            yield from exc.problems
            if stop:
                break
    canvas.restore()


class Backdrops:
    """The discs and hexes drawn so far on a side (and the piece's own outline, when round or a hex):
    a text whose box centre lies on one is fitted inside the smallest such shape, not only its box."""

    POINTS = 48  # a circle's polygon for fitting: within 0.2 % of its radius, inside it
    PADDING = mm(0.3)  # text keeps this clear of a shape's edge (inside its stroke)

    def __init__(self, piece: Piece) -> None:
        self.piece = piece
        self.shapes: list[tuple[float, tuple[tuple[float, float], ...]]] = []
        component = piece.component
        if component.shape == "circle":
            w, h = piece.width, piece.height
            self.shapes.append((w * h, tuple(shapes.ellipse_points(w / 2, h / 2, w / 2, h / 2, self.POINTS))))
        elif component.shape == "hex":
            self.shapes.append((piece.width * piece.height, tuple(shapes.trim_outline(piece))))

    def add(self, element: Any) -> None:
        if not isinstance(element, CircleElement | HexElement) or element.rotate or not shown(element.when):
            return
        box = box_of(element, self.piece)
        if box.w <= 0 or box.h <= 0:
            return
        cx, cy = box.centre
        inset = self.PADDING + (length(element.stroke_width) / 2 if element.stroke is not None else 0.0)
        if isinstance(element, CircleElement):
            rx, ry = max(box.w / 2 - inset, 0.0), max(box.h / 2 - inset, 0.0)
            outline = shapes.ellipse_points(cx, cy, rx, ry, self.POINTS)
        else:
            pointy = element.orientation == "pointy"
            radius = min(box.w / SQRT3, box.h / 2) if pointy else min(box.w / 2, box.h / SQRT3)
            outline = shapes.hex_points(cx, cy, max(radius - inset * 2 / SQRT3, 0.0), element.orientation)
        self.shapes.append((box.w * box.h, tuple(outline)))

    def behind(self, element: Any) -> tuple[tuple[float, float], ...] | None:
        """The smallest shape under the centre of the element's box; None: only the box bounds it."""
        if element.rotate:
            return None
        box = box_of(element, self.piece)
        cx, cy = box.centre
        under = [(area, outline) for area, outline in self.shapes if _inside(outline, cx, cy)]
        return min(under, key=lambda item: item[0])[1] if under else None


def _inside(outline: tuple[tuple[float, float], ...], x: float, y: float) -> bool:
    """Whether (x, y) lies in the convex `outline` (every edge turns the same way around it)."""
    signs = set()
    for (x1, y1), (x2, y2) in zip(outline, outline[1:] + outline[:1], strict=True):
        cross = (x2 - x1) * (y - y1) - (y2 - y1) * (x - x1)
        if abs(cross) > 1e-9:
            signs.add(cross > 0)
    return len(signs) <= 1


def _named(where: str, piece: Piece, lang: str) -> str:
    """`cards face`, with the piece's own name (its title, name or id field) when it has one."""
    for field_name in ("title", "name", "id"):
        try:
            value = lookup(piece.row, field_name, lang)
        except MissingField:
            continue
        if str(value).strip():
            return f"{where} {str(value).strip()!r}"
    return where


def _side_value(
    parse: Callable[[str | None], Any],
    key: str,
    spec: Side,
    piece: Piece,
    side: SideName,
    ctx: RenderContext,
    where: str,
) -> tuple[Any, Problem | None]:
    """A side's `background` or `pattern`, filled from the row and parsed; or the located problem
    (at the key in game.yaml when the value holds no `{field}`, else at the piece's row)."""
    raw = getattr(spec, key)
    try:
        return parse(_fill_text(raw, piece.row, ctx.lang)), None
    except FaceError as exc:
        path = None if holds_placeholder(raw) else (*piece.component.side_path(side), key)
        return None, _located(piece, ctx, path, Phrase(AT, where=where, problem=reason(exc)))


AT = N_("{where}: {problem}")


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
    except FILL_ERRORS as exc:
        raise FaceError(reason(exc)) from None
