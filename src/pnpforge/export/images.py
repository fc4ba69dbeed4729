"""`--to images`: one PNG per piece side with its bleed, and a CSV manifest of them all."""

from __future__ import annotations

import csv
import io
from collections import Counter
from pathlib import Path

from pnpforge.export import Prepared, check_pixels
from pnpforge.export.pages import margins, render, side_page
from pnpforge.export.raster import Shot, write_pngs
from pnpforge.export.sides import Side
from pnpforge.files import write_atomic
from pnpforge.limits import pixels
from pnpforge.units import to_mm

MANIFEST = "manifest.csv"
COLUMNS = (
    "file",
    "component",
    "row",
    "side",
    "count",
    "width_mm",
    "height_mm",
    "bleed_mm",
    "width_px",
    "height_px",
)


def side_shots(prepared: Prepared, chosen: list[Side], out: Path) -> tuple[bytes, list[Shot]]:
    """The PDF of the sides (each on a page of trim + bleed) and where each page's PNG goes."""
    dpi = prepared.options.dpi
    pages = [side_page(side, prepared.ctx) for side in chosen]
    shots = []
    stems = unique_stems(chosen)
    for index, (stem, page) in enumerate(zip(stems, pages, strict=True)):
        shot = Shot(index, pixels(page.width, dpi), pixels(page.height, dpi), out / f"{stem}.png", dpi)
        check_pixels(shot.width, shot.height, shot.path.name, dpi)
        shots.append(shot)
    if not pages:
        return b"", shots
    pdf = prepared.drawn(lambda: render(pages, prepared.title))
    return pdf, shots


def unique_stems(chosen: list[Side]) -> list[str]:
    """Each side's file stem; where two components' rows share an id, both are named with their
    component first (`cards-c07-strike-front`)."""
    counts = Counter(side.stem for side in chosen)
    return [f"{side.component.name}-{side.stem}" if counts[side.stem] > 1 else side.stem for side in chosen]


def manifest(chosen: list[Side], shots: list[Shot], bleed: float) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(COLUMNS)
    for side, shot in zip(chosen, shots, strict=True):
        w, h = side.trim_mm
        left, top, right, bottom = (to_mm(m) for m in margins(side.piece, bleed))
        writer.writerow(
            [
                shot.path.name,
                side.component.name,
                side.row or "",
                side.side,
                side.count,
                f"{w + left + right:.2f}",
                f"{h + top + bottom:.2f}",
                f"{to_mm(bleed):.2f}",
                shot.width,
                shot.height,
            ]
        )
    return buffer.getvalue()


def export_images(prepared: Prepared) -> list[Path]:
    out = prepared.out("images")
    chosen = [side for group in prepared.groups for side in prepared.sides(group)]
    pdf, shots = side_shots(prepared, chosen, out)
    write_pngs(pdf, shots, prepared.options.processes)
    write_atomic(out / MANIFEST, manifest(chosen, shots, prepared.ctx.bleed))
    return [shot.path for shot in shots] + [out / MANIFEST]
