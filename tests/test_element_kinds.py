"""The face's building blocks: one drawing interface, one class per element kind, one hex core."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any, get_args

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pnpforge.components.model import Element
from pnpforge.geometry import hexgrid
from pnpforge.layouts.faces import render  # noqa: F401  # loads every element kind
from pnpforge.layouts.faces.kind import KINDS, kind_of
from pnpforge.output.canvas import CALLS, Canvas, NullCanvas
from pnpforge.output.pdf_canvas import PdfCanvas
from pnpforge.output.recording import Recorder, Recording, replay
from pnpforge.output.svg_canvas import SvgCanvas


def test_every_element_model_has_exactly_one_kind_and_the_painted_ones_bleed() -> None:
    models = get_args(get_args(Element)[0])
    assert set(KINDS) == set(models)
    bleeding = {model.model_fields["type"].annotation.__args__[0] for model in models if KINDS[model].bleeds}
    assert bleeding == {"rect", "circle", "hex", "polygon", "image"}
    rect = models[0].model_validate({"type": "rect"})
    assert kind_of(rect) is KINDS[type(rect)]


def test_the_calls_are_listed_once_in_the_protocol_and_every_canvas_has_them() -> None:
    listed = {name for name in vars(Canvas) if not name.startswith("_")}
    assert listed == CALLS and "polygon" in CALLS and "begin_reuse" in CALLS
    for cls in (PdfCanvas, SvgCanvas, Recorder):
        assert Canvas in cls.__mro__  # named as the base: the type checker holds it to every call
        assert all(getattr(cls, name) is not getattr(Canvas, name) for name in CALLS), cls


def test_the_null_canvas_answers_every_call_and_nothing_else() -> None:
    null = NullCanvas()
    null.polygon([(0, 0), (1, 1)], None, (0, 0, 0), 1.0, closed=False)
    null.text(0, 0, "x", "sans", 9, (0, 0, 0))
    assert null.begin_reuse("back") is True
    with pytest.raises(AttributeError):
        null.paint_everything  # type: ignore[attr-defined]  # noqa: B018


def test_a_recording_plays_back_to_the_same_svg() -> None:
    def draw(canvas: Canvas) -> None:
        canvas.save()
        canvas.polygon([(0, 0), (10, 0), (5, 8)], (1, 0, 0), None)
        canvas.polygon([(0, 0), (10, 10)], None, (0, 0, 0), 2, False, [1.0, 2.0])
        canvas.ellipse(5, 5, 3, 2, None, (0, 0, 1), 0.5)
        canvas.rounded_rect(1, 1, 8, 8, 2, (0, 1, 0), None, 0.3)
        canvas.restore()

    direct, recorded, again = SvgCanvas(20, 20), SvgCanvas(20, 20), SvgCanvas(20, 20)
    draw(direct)
    recording = Recording()
    draw(recording.page(recorded))
    replay(again, recording.pages[0])
    assert direct.tostring() == recorded.tostring() == again.tostring()


# the hex core ------------------------------------------------------------------------------------
cells = st.tuples(st.integers(-20, 20), st.integers(-20, 20))


@given(cells, st.sampled_from([hexgrid.POINTY, hexgrid.FLAT]), st.floats(1, 50))
def test_neighbours_sit_one_flat_to_flat_apart_and_share_two_corners(
    cell: hexgrid.Hex, orient: hexgrid.Orientation, size: float
) -> None:
    layout = hexgrid.Layout(orient, size, (3.0, -7.0))
    x, y = layout.to_pixel(cell)
    mine = layout.corners(cell)
    for other in hexgrid.neighbours(cell):
        ox, oy = layout.to_pixel(other)
        assert math.hypot(ox - x, oy - y) == pytest.approx(size * math.sqrt(3))
        theirs = layout.corners(other)
        shared = [p for p in mine if any(math.dist(p, q) < 1e-6 * size for q in theirs)]
        assert len(shared) == 2


def test_pointy_and_flat_start_where_they_should() -> None:
    pointy = hexgrid.Layout(hexgrid.POINTY, 1.0).corners((0, 0))
    flat = hexgrid.Layout(hexgrid.FLAT, 1.0).corners((0, 0))
    assert min(y for _, y in pointy) == pytest.approx(-1.0)  # a tip at the top
    assert min(x for x, _ in flat) == pytest.approx(-1.0)  # a tip at the left
    assert flat[0] == pytest.approx((1.0, 0.0))
    assert hexgrid.to_pixel((1, 1), 2.0) == pytest.approx((3 * math.sqrt(3), 3.0))


@given(st.integers(1, 12), st.integers(1, 12), st.sampled_from([hexgrid.POINTY, hexgrid.FLAT]))
def test_an_offset_grid_is_rectangular_and_its_extent_is_its_corners(
    cols: int, rows: int, orient: hexgrid.Orientation
) -> None:
    layout = hexgrid.Layout(orient, 1.0)
    centres = {
        (col, row): layout.to_pixel(hexgrid.from_offset(col, row, orient))
        for col in range(cols)
        for row in range(rows)
    }
    for (col, row), (x, y) in centres.items():  # rows (pointy) or columns (flat) stay straight lines
        if orient is hexgrid.POINTY:
            assert y == pytest.approx(centres[(0, row)][1])
            assert x == pytest.approx(centres[(0, row)][0] + col * math.sqrt(3))
        else:
            assert x == pytest.approx(centres[(col, 0)][0])
            assert y == pytest.approx(centres[(col, 0)][1] + row * math.sqrt(3))
    corners = [p for col, row in centres for p in layout.corners(hexgrid.from_offset(col, row, orient))]
    width = max(x for x, _ in corners) - min(x for x, _ in corners)
    height = max(y for _, y in corners) - min(y for _, y in corners)
    assert hexgrid.offset_extent(cols, rows, orient) == pytest.approx((width, height))


def test_a_flat_hexgrid_fills_its_box(tmp_path: Path) -> None:
    from pnpforge.components.load import RowRef
    from pnpforge.components.model import Component
    from pnpforge.fonts import FontRegistry
    from pnpforge.generator.pieces import Piece
    from pnpforge.generator.sizes import piece_size
    from pnpforge.layouts.faces.context import RenderContext
    from pnpforge.layouts.faces.render import draw_side

    grid: dict[str, Any] = {"type": "hexgrid", "cols": 5, "rows": 3, "orientation": "flat", "w": "100%"}
    comp = Component.model_validate(
        {"name": "c", "kind": "card", "size": "100x60mm", "face": {"background": "none", "elements": [grid]}}
    )
    w, h = piece_size(comp)
    seen: list[list[tuple[float, float]]] = []

    class Outlines(SvgCanvas):
        def polygon(self, points, fill, stroke, width=0.5, closed=True, dash=None):  # type: ignore[no-untyped-def]
            if stroke is not None:
                seen.append(list(points))

    draw_side(
        Outlines(w, h),
        Piece(comp, {}, RowRef("x", 1), 0, w, h, ()),
        "face",
        RenderContext(fonts=FontRegistry()),
    )
    assert len(seen) == 15
    xs = [x for outline in seen for x, _ in outline]
    ys = [y for outline in seen for _, y in outline]
    assert min(ys) == pytest.approx(0, abs=1e-6) and max(ys) == pytest.approx(h)  # limited by its height
    assert (min(xs) + max(xs)) / 2 == pytest.approx(w / 2)  # centred across
    assert seen[0][0][1] == pytest.approx(seen[0][3][1])  # flat: corners 0 and 3 level (E and W tips)
