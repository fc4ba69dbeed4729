"""`--to cutfile`: print-and-cut files for Cricut / Silhouette style cutters.

The pieces are laid out as `build` lays them, with the printer margin widened so three registration
marks fit in the corners: a filled square top-left, corner angles top-right and bottom-left (the
layout Silhouette Studio and most print-and-cut tools read). `<id>-print.pdf` is the sheets to print
(marks on every front sheet); `<id>-pNNN-cut.svg` is the cut file of page NNN: the same marks and
each piece's cut line, in millimetres on the page, so the cutter's optical eye lines them up.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from pnpforge import i18n
from pnpforge.build import DocPage, Plan, drawing_setup, plan
from pnpforge.draw import draw_page
from pnpforge.errors import InputError
from pnpforge.export import CLI, Prepared, build_options_of
from pnpforge.files import write_atomic
from pnpforge.i18n import N_
from pnpforge.layouts.imposition.placement import fits, pages_that_fit, to_page
from pnpforge.layouts.shapes import trim_outline
from pnpforge.output.canvas import Canvas, Point
from pnpforge.phrase import Phrase
from pnpforge.units import mm, parse_length, to_mm

MARK_INSET = mm(10)  # from the paper's edge to the marks (within every home printer's margin)
MARK_SIZE = mm(5)  # the square's side
ANGLE_LENGTH = mm(20)  # each arm of a corner angle
ANGLE_WIDTH = mm(0.5)
MARK_GAP = mm(3)  # between the marks and the nearest piece
BLACK = (0.0, 0.0, 0.0)
CUT_COLOUR = "#ff0000"


def registration_marks(width: float, height: float) -> list[list[Point]]:
    """The marks as filled polygons on a page of `width` × `height` points (y down)."""
    i, s, a, t = MARK_INSET, MARK_SIZE, ANGLE_LENGTH, ANGLE_WIDTH
    square = [(i, i), (i + s, i), (i + s, i + s), (i, i + s)]
    right = width - i  # top-right angle: arms along the top and down the right side
    top_right = [
        (right - a, i),
        (right, i),
        (right, i + a),
        (right - t, i + a),
        (right - t, i + t),
        (right - a, i + t),
    ]
    bottom = height - i  # bottom-left angle: arms up the left side and along the bottom
    bottom_left = [
        (i, bottom - a),
        (i + t, bottom - a),
        (i + t, bottom - t),
        (i + a, bottom - t),
        (i + a, bottom),
        (i, bottom),
    ]
    return [square, top_right, bottom_left]


def cut_lines(page: DocPage) -> list[list[Point]]:
    """Every piece's cut line on a sheet, in page points (y down)."""
    assert page.layout is not None
    lines = []
    for placement in page.layout.placements:
        piece = page.pieces[placement.index]
        lines.append(to_page(placement, trim_outline(piece), (piece.width, piece.height)))
    return lines


def _svg(page: DocPage, width: float, height: float) -> str:
    def path(points: list[Point]) -> str:
        return "M " + " L ".join(f"{x:.3f},{y:.3f}" for x, y in points) + " Z"

    marks = "\n".join(f'    <path d="{path(m)}"/>' for m in registration_marks(width, height))
    cuts = "\n".join(f'    <path d="{path(line)}"/>' for line in cut_lines(page))
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{to_mm(width):.3f}mm" '
        f'height="{to_mm(height):.3f}mm" '
        f'viewBox="0 0 {width:.3f} {height:.3f}">\n'
        f'  <g id="registration" fill="#000000" stroke="none">\n{marks}\n  </g>\n'
        f'  <g id="cut" fill="none" stroke="{CUT_COLOUR}" stroke-width="0.25">\n{cuts}\n  </g>\n'
        "</svg>\n"
    )


def cut_plan(prepared: Prepared) -> Plan:
    """The build's layout with the margin widened past the marks (and no duplex test page).

    Boards larger than the page are cut in parts, as the build cuts them. A card, tile, token or sheet
    that no longer fits inside the marks is left out of the cut files, with a note saying so and how
    to bring it in (`--page a3`): a print-and-cut sheet must hold its marks."""
    options = build_options_of(prepared.options)
    margin = parse_length(prepared.loaded.spec.defaults.margin)
    room = max(margin, MARK_INSET + MARK_SIZE + MARK_GAP)
    options = dataclasses.replace(options, margin=f"{to_mm(room):.2f}mm", duplex_test=False)
    frame, page_name, _ = drawing_setup(prepared.loaded, options)
    kept, left = [], []
    for group in prepared.groups:
        if not group.pieces:
            continue
        large = [p for p in group.pieces if not fits(p.width, p.height, frame)]
        if large and group.component.kind not in ("board", "die"):  # a board is cut in parts
            left.append((group, large[0]))
        else:
            kept.append(group.component.name)
    for group, piece in left:
        better = pages_that_fit(piece.width, piece.height, frame.margin)
        prepared.notes.append(
            Phrase(
                N_(
                    "{where}: note: {component} ({size} mm) does not fit inside the cut marks on {page} "
                    "paper: left out of the cut files (print it from the build{hint})"
                ),
                where=f"{piece.row_ref.file}:{piece.row_ref.line}",
                component=group.component.name,
                size=f"{to_mm(piece.width):g} × {to_mm(piece.height):g}",
                page=page_name,
                hint=Phrase(N_(", or cut it with --page {page}"), page=better[0]) if better else "",
            )
        )
    if not kept:
        raise InputError.single(
            CLI, Phrase(N_("--to cutfile: no piece fits a {page} sheet inside the cut marks"), page=page_name)
        )
    if left:
        wanted = set(kept)
        only = tuple(o for o in options.only if o.partition(":")[0].strip() in wanted) or tuple(kept)
        options = dataclasses.replace(options, only=only)
    return plan(prepared.loaded, options, prepared.ctx.fonts)  # its fonts' warnings are the export's


def export_cutfile(prepared: Prepared) -> list[Path]:
    from pnpforge.output import pdf

    out = prepared.out("cutfile")
    the_plan = cut_plan(prepared)
    frame = the_plan.frame
    pages = [page for page in the_plan.pages if page.kind == "pieces"]
    marked = [page.layout is not None and page.side == "face" for page in pages]

    def draw(canvas: Canvas, page: DocPage) -> None:
        draw_page(canvas, the_plan, page)
        if page.layout is not None and page.side == "face":
            for mark in registration_marks(frame.width, frame.height):
                canvas.polygon(mark, BLACK, None)

    # the PDF's own title, in the build's language
    title = i18n.said(the_plan.lang, N_("{title}: print and cut"), title=the_plan.title)
    data = prepared.drawn(lambda: pdf.render(pages, frame, draw, title))
    for warning in the_plan.ctx.warnings:  # its own layout's and drawing's, said as the build says them
        prepared.ctx.warn(warning)
    outputs = [(out / f"{the_plan.id}-print.pdf", data)]
    for number, (page, cut) in enumerate(zip(pages, marked, strict=True), start=1):
        if cut:
            outputs.append(
                (out / f"{the_plan.id}-p{number:03d}-cut.svg", _svg(page, frame.width, frame.height).encode())
            )
    for path, payload in outputs:
        write_atomic(path, payload)
    return [path for path, _ in outputs]
