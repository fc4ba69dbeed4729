"""A digest of what each planned page shows, so that `watch` draws again only the pages a change
touched (the others are played back as they were recorded) and re-renders only their PNGs.

A piece page's digest covers its layout (every placement, cut line and mark), the fingerprint of
each piece placed on it and the components named in its label; the cover's covers the inventory,
the game's header and the build's notes; and every page's covers what all pages share (the game's id
and defaults, page frame, language, duplex, back offset, stamp, fonts, pnpforge's version). A page
whose digest is unchanged draws the same calls; the options of a `watch` do not change between its
builds.
"""

from __future__ import annotations

import hashlib
from collections.abc import Collection
from typing import TYPE_CHECKING

from pnpforge import __version__
from pnpforge.drafts.identity import Printer

if TYPE_CHECKING:
    from pnpforge.build import DocPage, Plan


def page_prints(
    the_plan: Plan, only: Collection[int] | None = None, printer: Printer | None = None
) -> list[str]:
    """One digest per page of the plan (of the pages `only` names), in page order; `printer`: one
    that knows the rows of the build before (`watch`)."""
    printer = printer or Printer(the_plan.ctx)
    fonts = the_plan.ctx.fonts
    shared = repr(
        (
            __version__,
            the_plan.id,
            the_plan.loaded.spec.defaults,
            the_plan.back_offset,
            the_plan.frame,
            the_plan.page_name,
            the_plan.lang,
            the_plan.duplex,
            the_plan.stamp,
            the_plan.title,
            the_plan.cover_heading,
            printer.files.cjk(),
            sorted(fonts.names()),
        )
    )
    pages = the_plan.pages if only is None else [the_plan.pages[k] for k in sorted(only)]
    return [_digest(shared, _page(the_plan, page, printer)) for page in pages]


def _page(the_plan: Plan, page: DocPage, printer: Printer) -> str:
    if page.kind == "cover":
        fonts = the_plan.ctx.fonts
        said = (the_plan.loaded.spec.game, the_plan.inventory, the_plan.cover_notes, the_plan.sheets)
        return repr((page.kind, *said, the_plan.sheet_total, list(fonts.warnings)))
    if page.kind == "duplex-test":
        return repr((page.kind, page.side))
    pieces = page.pieces
    if page.kind == "assembly":
        first = pieces[0]
        overlap = page.component.overlap if page.component else None
        # the assembly page draws the board itself, small
        board = (page.kind, page.label, first.width, first.height, overlap, page.board_parts)
        return repr((*board, printer(first, "face")))
    placements = page.layout.placements if page.layout else []
    placed = [(printer(pieces[p.index], page.side), pieces[p.index].component.name) for p in placements]
    if page.folded is not None:  # --duplex fold: the backs beside their fronts
        placed += [(printer(pieces[p.index], "back"), "back") for p in page.folded.placements]
    component = page.component.name if page.component else ""
    where = (page.sheet, page.label, component, page.fold_across)
    return repr((page.kind, page.side, *where, page.layout, page.folded, placed))


def _digest(*parts: str) -> str:
    digest = hashlib.sha256()
    for part in parts:
        digest.update(part.encode("utf-8", "surrogatepass"))
        digest.update(b"\0")
    return digest.hexdigest()
