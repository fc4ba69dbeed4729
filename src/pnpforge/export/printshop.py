"""`--to print-shop`: per component, one piece side per page in the order shops ask (front, back, ...).

Each page is the trim plus the spec's bleed, with /TrimBox and /BleedBox set, one page pair per piece
(a row's copies reuse one drawing); fonts are embedded (output/embedfonts.py). With `--format png` the same
sides are written as images, a back after every front, with the images manifest.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path

from pnpforge.export import Prepared
from pnpforge.export.images import MANIFEST, manifest, side_shots
from pnpforge.export.pages import Page, render, side_page
from pnpforge.export.raster import write_pngs
from pnpforge.export.sides import Side, shared_back
from pnpforge.files import write_atomic


def _pages(prepared: Prepared, chosen: list[Side]) -> list[Page]:
    """Every copy's pages: a row's front then its back, as many times as the row counts."""
    pages = []
    for side in chosen:
        key = f"{side.component.name}-back" if side.side == "back" and shared_back(side.component) else None
        page = side_page(side, prepared.ctx, reuse=True, key=key)
        if side.side != "back":  # a front starts the next copy; its back (if any) follows it
            pages.append([page])
        else:
            pages[-1].append(page)
    rows = [
        group
        for side, group in zip([s for s in chosen if s.side != "back"], pages, strict=True)
        for _ in range(side.count)
    ]
    return [page for group in rows for page in group]


def export_print_shop(prepared: Prepared) -> list[Path]:
    out = prepared.out("print-shop")
    if prepared.options.format == "png":
        chosen = [side for group in prepared.groups for side in prepared.sides(group, every_back=True)]
        pdf, shots = side_shots(prepared, chosen, out)
        write_pngs(pdf, shots, prepared.options.processes)
        write_atomic(out / MANIFEST, manifest(chosen, shots, prepared.ctx.bleed))
        return [shot.path for shot in shots] + [out / MANIFEST]
    documents = []
    for group in prepared.groups:
        chosen = prepared.sides(group, every_back=True)
        if not chosen:
            continue
        pages = _pages(prepared, chosen)
        title = f"{prepared.title}: {group.component.name}"
        data = prepared.drawn(partial(render, pages, title))
        documents.append((out / f"{group.component.name}.pdf", data))
    for path, data in documents:
        write_atomic(path, data)
    return [path for path, _ in documents]
