"""Drawing the planned pages (build.py plans them) and writing the files: the cover, a duplex test, a
board's assembly page, and the sheets of pieces with their marks and labels, drawn through a Canvas into
the PDF (and SVG/PNG pages). building.py runs `write` for every build.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pnpforge import __version__, limits
from pnpforge.build import DocPage, Plan, RowPlace, back_of, components_on, die_face, plan
from pnpforge.buildoptions import BuildOptions
from pnpforge.components.template import localise
from pnpforge.errors import InputError, Problem, strict_error
from pnpforge.files import atomic_writer, staged, write_atomic
from pnpforge.fonts import STANDARD
from pnpforge.generator.pieces import Piece
from pnpforge.i18n import N_
from pnpforge.layouts import marks
from pnpforge.layouts.cover import draw_assembly, draw_cover, sheet_list
from pnpforge.layouts.draft import draw_draft_mark
from pnpforge.layouts.faces.render import draw_side, side_is_shared
from pnpforge.layouts.imposition.placement import PageLayout, Placement, page_area, to_page
from pnpforge.layouts.imposition.sharing import compose
from pnpforge.layouts.shapes import trim_outline
from pnpforge.output import info as pdf_info
from pnpforge.output.canvas import Canvas
from pnpforge.output.recording import PageDrawing, Recording
from pnpforge.phrase import Phrase
from pnpforge.saying import reason
from pnpforge.units import to_mm


def _place(canvas: Canvas, placement: Placement, piece: Piece) -> None:
    """Move the origin to the placed piece's trim top-left, turned `quarter` times clockwise (or by
    `angle` about its centre)."""
    if placement.pivot is not None:
        canvas.translate(*placement.pivot)
        canvas.rotate(placement.angle)
        canvas.translate(-piece.width / 2, -piece.height / 2)
        return
    canvas.translate(placement.x, placement.y)
    quarter = placement.quarter % 4
    if quarter == 1:
        canvas.translate(placement.width, 0)
    elif quarter == 2:
        canvas.translate(placement.width, placement.height)
    elif quarter == 3:
        canvas.translate(0, placement.height)
    if quarter:
        canvas.rotate(90 * quarter)


def draw_page(canvas: Canvas, plan_: Plan, page: DocPage) -> None:
    """Draw one planned page (any Canvas: PDF or SVG); a back page moved by --back-offset; with --draft,
    marked DRAFT."""
    dx, dy = plan_.back_offset
    moved = page.side == "back" and (dx or dy)
    if moved:
        canvas.save()
        canvas.translate(dx, dy)
    _draw_page(canvas, plan_, page)
    if moved:
        canvas.restore()
    if plan_.ctx.draft:
        segments = marks.crop_mark_segments(page.layout, plan_.frame) if page.layout else []
        draw_draft_mark(canvas, plan_.frame, segments, plan_.ctx.fonts, plan_.say)


def _draw_page(canvas: Canvas, plan_: Plan, page: DocPage) -> None:
    frame, fonts = plan_.frame, plan_.ctx.fonts
    label_font = STANDARD["sans"]
    fonts.context = Phrase(
        PAGE_CONTEXT.get(page.kind, N_("{game} {kind} page")), game=plan_.id, kind=page.kind
    )
    if page.kind == "cover":
        notes = _cover_notes(plan_)
        subtitle = _subtitle(plan_)
        title = f"{plan_.title} · {plan_.cover_heading}" if plan_.cover_heading else plan_.title
        draw_cover(canvas, frame, fonts, title, subtitle, plan_.inventory, notes, plan_.lang)
        return
    if page.kind == "duplex-test":
        flip = plan_.duplex if plan_.duplex in ("long", "short") else "long"
        marks.draw_duplex_test(canvas, frame, page.side == "back", flip, label_font, fonts, plan_.say)
        return
    if page.kind == "assembly":
        assert page.component is not None
        board_piece = page.pieces[0]
        title = localise(page.component.title, plan_.lang) if page.component.title else page.component.name

        def draw_board(target: Canvas) -> None:
            draw_side(target, board_piece, "face", plan_.ctx)

        draw_assembly(
            canvas, frame, fonts, title, page.board_parts, plan_.lang, draw_board, page.component.kind
        )
        _page_label(canvas, plan_, page, label_font)  # which draft of which board, as its parts say
        return
    assert page.layout is not None and page.component is not None
    layout = page.layout
    layers = [(layout, page.side)]
    if page.folded is not None:
        layers.append((page.folded, "back"))
        layout = compose([*layout.blocks, *page.folded.blocks])
    for layer, side in layers:
        _draw_pieces(canvas, plan_, page.pieces, layer, side)
    fonts.context = Phrase(N_("{game} sheet {sheet} labels"), game=plan_.id, sheet=page.sheet)
    outlines = []
    for layer, side in layers:
        for block in layer.blocks:
            for placement in block.placements if block.outlines else ():
                piece = page.pieces[placement.index]
                piece = back_of(piece) if side == "back" else piece
                outlines.append(to_page(placement, trim_outline(piece), (piece.width, piece.height)))
    marks.draw_cut_outlines(canvas, outlines)
    marks.draw_crop_marks(canvas, layout, frame)
    marks.draw_die_guides(canvas, layout)
    _draw_kite_nets(canvas, layout)
    marks.draw_board_marks(canvas, layout, frame, label_font, fonts)
    fold = (
        marks.draw_fold_line(canvas, frame, label_font, fonts, plan_.say, page.fold_across)
        if page.folded is not None
        else []
    )
    _page_label(canvas, plan_, page, label_font, fold)  # every page: its game, draft and components


def _draw_pieces(
    canvas: Canvas, plan_: Plan, pieces: Sequence[Piece], layout: PageLayout, side: Literal["face", "back"]
) -> None:
    """One side of the pieces of a page, each clipped to its art area."""
    fonts = plan_.ctx.fonts
    x0, y0, x1, y1 = page_area(plan_.frame)
    art_area = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]  # bleed stops short of the marks' band
    reused: dict[int, tuple[bool, str]] = {}  # by component: its side drawn once? under which name
    for placement in layout.placements:
        piece = pieces[placement.index]
        component = piece.component
        fonts.context = RowPlace(piece)
        found = reused.get(id(component))
        if found is None:
            shared = side_is_shared(component, side) and component.kind != "die"
            found = reused[id(component)] = (shared, f"{component.reuse_name}:{side}")
        shared, key = found
        if placement.face:
            piece = die_face(piece, placement.face - (component.faces == 10))
        if side == "back":
            piece = back_of(piece)
        canvas.save()
        canvas.clip(art_area)
        if placement.clip:
            canvas.clip(placement.clip)
        _place(canvas, placement, piece)
        if shared:
            if canvas.begin_reuse(key):
                draw_side(canvas, piece, side, plan_.ctx)
                canvas.end_reuse()
            canvas.reuse(key)
        else:
            draw_side(canvas, piece, side, plan_.ctx)
        canvas.restore()


def _draw_kite_nets(canvas: Canvas, layout: PageLayout) -> None:
    """d10 nets as marks draws cube nets: grey glue tabs, the cut outline, dashed folds."""
    for net in layout.kite_nets:
        for tab in net.tabs:
            canvas.polygon(list(tab), (0.92, 0.92, 0.92), marks.MARK, marks.HAIRLINE)
        canvas.polygon(list(net.outline), None, marks.MARK, marks.HAIRLINE)
        for a, b in net.folds:
            canvas.polygon([a, b], None, marks.GUIDE, marks.HAIRLINE, closed=False, dash=(2, 2))


SHEET = N_("sheet {number}")  # a sheet's number in its label, as the cover lists it
SIDE_WORDS = {"face": N_("front"), "back": N_("back"), "fold": N_("front + back, fold")}  # a sheet's side(s)


def _page_label(
    canvas: Canvas, plan_: Plan, page: DocPage, font: str, fold: Sequence[marks.Segment] = ()
) -> None:
    assert page.component is not None
    say = plan_.say
    names = ", ".join(components_on(page)) or page.component.name
    stamp = f" · {plan_.stamp}" if plan_.stamp else ""
    head = f"{plan_.id}{stamp}"
    # the sheet number is kept when the word "sheet" is not, and then when the draft's stamp is not
    keep: tuple[str, ...] = (head,)
    if page.sheet:
        sheet = say(Phrase(SHEET, number=page.sheet))
        keep = (f"{head} · {sheet}", f"{head} · {page.sheet}", f"{plan_.id} · {page.sheet}")
    side = f" · {say(SIDE_WORDS['fold' if page.folded else page.side])}" if page.kind == "pieces" else ""
    layout = (
        compose([*page.layout.blocks, *page.folded.blocks]) if page.layout and page.folded else page.layout
    )
    segments = [*(marks.crop_mark_segments(layout, plan_.frame) if layout else []), *fold]
    marks.draw_band_label(
        canvas,
        plan_.frame,
        segments,
        f" · {names}",
        font,
        top=False,
        fonts=plan_.ctx.fonts,
        tail=side,
        keep=keep,
    )


PLAYERS = (N_("{count} player"), N_("{count} players"))  # the cover's player count: up to one, more


def _subtitle(plan_: Plan) -> str:
    game = plan_.loaded.spec.game
    low, high = game.players
    count = str(low) if low == high else f"{low}–{high}"
    players = plan_.say(Phrase(PLAYERS[high != 1], count=count))
    other = localise(game.title, "ja" if plan_.lang == "en" else "en")
    parts = [
        p
        for p in (
            other if other != plan_.title else "",
            players,
            plan_.stamp,
            game.designer or "",
            f"pnpforge {__version__}",
        )
        if p
    ]
    return " · ".join(parts)


DUPLEX_NOTES = {  # the cover's notes: how to print the backs (by --duplex), then the page, offset, cutting
    "long": N_("Backs follow their fronts: print double-sided, flip on the long edge."),
    "short": N_("Backs follow their fronts: print double-sided, flip on the short edge."),
    "fold": N_(
        "Fronts and their backs share each page, either side of the dashed fold line through its centre: "
        "print single-sided, fold along the line, glue the halves together, then cut."
    ),
    "none": N_("Backs are not printed (--duplex none)."),
    "offset": N_("Back pages moved {x} mm right and {y} mm down (--back-offset)."),
    "page": N_(
        "Page {page} ({size}); bleed {bleed} mm; printer margin {margin} mm (every mark and label lies "
        "inside it)."
    ),
    "cut": N_(
        "Cut along the crop marks outside each sheet's art; hexes and tokens along their thin outlines."
    ),
    "sheets": N_(
        "This file holds sheets {sheets} of {total} (--sheets); their numbers are the full build's."
    ),
}


def _cover_notes(plan_: Plan) -> list[str]:
    f, say = plan_.frame, plan_.say
    size = f"{to_mm(f.width):g} × {to_mm(f.height):g} mm"
    bleed, margin = f"{to_mm(f.bleed):g}", f"{to_mm(f.margin):g}"
    page = say(Phrase(DUPLEX_NOTES["page"], page=plan_.page_name, size=size, bleed=bleed, margin=margin))
    chosen = []
    if plan_.sheets:
        shown = Phrase(DUPLEX_NOTES["sheets"], sheets=sheet_list(plan_.sheets), total=plan_.sheet_total)
        chosen = [say(shown)]
    dx, dy = (to_mm(v) for v in plan_.back_offset)
    offset = [say(Phrase(DUPLEX_NOTES["offset"], x=f"{dx:g}", y=f"{dy:g}"))] if dx or dy else []
    fonts = [say(w) for w in plan_.ctx.fonts.warnings]  # a missing font, said like the rest of the cover
    notes = [page, say(DUPLEX_NOTES[plan_.duplex]), *offset, say(DUPLEX_NOTES["cut"]), *fonts]
    return [*plan_.cover_notes, *chosen, *notes]


# ---- writing ---------------------------------------------------------------------------------------


def metadata(the_plan: Plan) -> pdf_info.Metadata:
    """What the PDF says of itself: the game's title in the build's language, its designer, and the
    game with the draft it is (so a file found later still says which draft it prints)."""
    game = the_plan.loaded.spec.game
    title, stamp = the_plan.title, the_plan.stamp
    subject = f"{title} — {stamp}" if stamp and stamp not in title else title
    return pdf_info.Metadata(title, game.designer or "", subject)


PAGE_CONTEXT = {  # a page as a glyph warning names it ("gods cover page: no embedded font has ...")
    "cover": N_("{game} cover page"),
    "duplex-test": N_("{game} duplex-test page"),
    "assembly": N_("{game} assembly page"),
    "pieces": N_("{game} pieces page"),
}


@dataclass
class Drawing:
    """How `write` draws, beyond what the options say (building.py fills it in for `watch` and the kept
    build): `progress` is told of each page drawn; `recording`, when given, receives every PDF page's
    canvas calls (compiled.py keeps them for the next build), and `recording.quiet` says of each page
    whether drawing it warned of nothing; `kept(k)`, with a recording, may give page k as a build
    before drew it (`watch`: the page's digest is unchanged and it warned of nothing): it is played
    back instead of drawn, when the reused drawings it names fit; `png_pages`, asked once the pages
    are drawn, names the only pages (0-based) to render to PNG (`watch`: the pages a change touched).
    """

    progress: Callable[[int], None] | None = None
    recording: Recording | None = None
    kept: Callable[[int], PageDrawing | None] | None = None
    png_pages: Callable[[], Collection[int]] | None = None


def write(the_plan: Plan, options: BuildOptions, how: Drawing | None = None) -> list[Path]:
    """Draw the planned pages, then write `<out>/<id>.pdf` (and SVG/PNG per page); returns the paths.

    Everything is drawn in memory first, so a problem found while drawing leaves every file as it was.
    Such a problem stops the drawing at once; the spec is then checked in full so that the error
    lists every problem, not only the first.
    """
    from pnpforge.output import pdf, png

    how = how or Drawing()
    recording, kept = how.recording, how.kept
    out = Path(options.out_dir)
    stem = options.name or the_plan.id
    defined: set[str] = set()  # the forms (reused drawings) the pages so far defined

    def draw(canvas: Canvas, page: DocPage) -> None:
        draw_page(canvas, the_plan, page)

    def draw_recorded(canvas: Canvas, indexed: tuple[int, DocPage]) -> None:
        index, page = indexed
        if recording is None:
            draw_page(canvas, the_plan, page)
            return
        before = kept(index) if kept is not None else None
        if before is not None and before.fits(defined):
            recording.again(canvas, before)
            recording.quiet.append(True)
        else:
            recording.quiet.append(
                _drawn_quietly(the_plan, lambda: draw_page(recording.page(canvas), the_plan, page))
            )
        defined.update(key for key, here in recording.forms[-1] if here)

    outputs: list[tuple[Path, bytes]] = []
    try:
        pages = list(enumerate(the_plan.pages))
        data = pdf.render(pages, the_plan.frame, draw_recorded, metadata(the_plan), how.progress)
        if "pdf" in options.formats:
            outputs.append((out / f"{stem}.pdf", data))
        if "svg" in options.formats:
            from pnpforge.output import svg

            drawings = svg.render(the_plan.pages, the_plan.frame, the_plan.ctx.fonts, draw)
            outputs += [(out / png.page_name(stem, k + 1, "svg"), d) for k, d in enumerate(drawings)]
    except InputError:
        plan(the_plan.loaded, options, the_plan.ctx.fonts, check=True)  # raises with every problem
        raise
    except limits.OverImageBytes as exc:  # a page played back from a kept build embedded the picture
        raise InputError.single(the_plan.loaded.file, reason(exc)) from None
    if options.strict and (found := warnings(the_plan)):
        raise strict_error(found, the_plan.loaded.file)
    chosen: Sequence[int] = ()
    if "png" in options.formats:
        chosen = range(len(the_plan.pages)) if how.png_pages is None else sorted(how.png_pages())
    pictures = [out / png.page_name(stem, k + 1, "png") for k in chosen]
    with staged(out):  # all moved into place together: a killed build leaves no mix of old and new
        for path, payload in outputs:
            write_atomic(path, payload)
        for path, write_png in zip(
            pictures, png.writers(data, options.dpi, chosen) if pictures else (), strict=True
        ):
            with atomic_writer(path) as handle:  # written as drawn, band by band: no page held whole
                write_png(handle)
    return [path for path, _ in outputs] + pictures


def _drawn_quietly(the_plan: Plan, draw: Callable[[], None]) -> bool:
    """Run `draw` and say whether it warned of nothing (a warning said once already counts too)."""
    ctx = the_plan.ctx
    given, lacking = ctx.warned, ctx.fonts.lacking
    draw()
    return ctx.warned == given and ctx.fonts.lacking == lacking


def warnings(the_plan: Plan) -> list[Problem | str]:
    """What the drawn pages show differently from the spec (RenderContext.shown_differently)."""
    return the_plan.ctx.shown_differently()
