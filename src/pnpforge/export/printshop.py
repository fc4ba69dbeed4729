"""`--to print-shop`: per component, one piece side per page in the order shops ask (front, back, ...).

Each page is the trim plus the bleed (the bleed outline's extent for shapes), with /TrimBox and
/BleedBox set, one page pair per piece (a row's copies reuse one drawing). The PDF is 1.6 with an sRGB
OutputIntent; shaped pieces carry their cut line in the CutContour spot colour; `--black k` writes
black as pure K; fonts are embedded (output/embedfonts.py). `--shop NAME` sets a shop's card sizes and
bleed (shops.py) and gives cards without a back a plain one. With `--format png` the same sides are
written as images, a back after every front, with the images manifest.
"""

from __future__ import annotations

import dataclasses
from functools import partial
from pathlib import Path

from pnpforge.export import Prepared
from pnpforge.export.images import MANIFEST, manifest, side_shots
from pnpforge.export.pages import Page, ShopStyle, render, side_page
from pnpforge.export.raster import write_pngs
from pnpforge.export.sides import Side, has_back, shared_back
from pnpforge.files import write_atomic


def _plain(page: Page) -> Page:
    """A white back of the same size and boxes (nothing drawn), for a shop that prints backs."""
    return dataclasses.replace(page, draw=lambda canvas: None)


def _pages(prepared: Prepared, chosen: list[Side]) -> list[Page]:
    """Every copy's pages: a row's front then its back, as many times as the row counts."""
    plain_backs = prepared.options.shop is not None
    pages = []
    for side in chosen:
        key = f"{side.component.name}-back" if side.side == "back" and shared_back(side.component) else None
        page = side_page(side, prepared.ctx, reuse=True, key=key)
        if side.side != "back":  # a front starts the next copy; its back (if any) follows it
            pages.append([page])
            if plain_backs and side.component.kind == "card" and not has_back(side.component):
                pages[-1].append(_plain(page))
        else:
            pages[-1].append(page)
    rows = [
        group
        for side, group in zip([s for s in chosen if s.side != "back"], pages, strict=True)
        for _ in range(side.count)
    ]
    return [page for group in rows for page in group]


def _with_plain_backs(prepared: Prepared, chosen: list[Side]) -> list[Side]:
    """For images: cards without a back get a blank back side after each front (drawn as nothing)."""
    if prepared.options.shop is None:
        return chosen
    out = []
    for side in chosen:
        out.append(side)
        if side.side == "front" and side.component.kind == "card" and not has_back(side.component):
            out.append(dataclasses.replace(side, side="back", drawn="back"))  # no back spec: draws nothing
    return out


def export_print_shop(prepared: Prepared) -> list[Path]:
    out = prepared.out("print-shop")
    if prepared.options.format == "png":
        chosen = [side for group in prepared.groups for side in prepared.sides(group, every_back=True)]
        chosen = _with_plain_backs(prepared, chosen)
        pdf, shots = side_shots(prepared, chosen, out)
        write_pngs(pdf, shots, prepared.options.processes)
        write_atomic(out / MANIFEST, manifest(chosen, shots, prepared.ctx.bleed))
        return [shot.path for shot in shots] + [out / MANIFEST]
    documents = []
    assert prepared.profile is not None  # prepare() found it (or refused) for a print-shop PDF
    for group in prepared.groups:
        chosen = prepared.sides(group, every_back=True)
        if not chosen:
            continue
        pages = _pages(prepared, chosen)
        info = prepared.metadata(group.component.name)
        style = ShopStyle(prepared.standard, prepared.profile, info, black_k=prepared.options.black == "k")
        data = prepared.drawn(partial(render, pages, info.title, style))
        documents.append((out / f"{group.component.name}.pdf", data))
    for path, data in documents:
        write_atomic(path, data)
    return [path for path, _ in documents]
