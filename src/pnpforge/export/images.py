"""`--to images`: one PNG per piece side with its bleed, and a CSV manifest of them all."""

from __future__ import annotations

import csv
import io
from pathlib import Path

from pnpforge.export import Prepared, check_pixels
from pnpforge.export.pages import render, side_page
from pnpforge.export.raster import Shot, pixels, write_pngs
from pnpforge.export.sides import Side, sides
from pnpforge.files import write_atomic
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
    for index, (side, page) in enumerate(zip(chosen, pages, strict=True)):
        shot = Shot(index, pixels(page.width, dpi), pixels(page.height, dpi), out / f"{side.stem}.png")
        check_pixels(shot.width, shot.height, shot.path.name, dpi)
        shots.append(shot)
    if not pages:
        return b"", shots
    pdf = prepared.drawn(lambda: render(pages, prepared.title))
    return pdf, shots


def manifest(chosen: list[Side], shots: list[Shot], bleed: float) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(COLUMNS)
    for side, shot in zip(chosen, shots, strict=True):
        w, h = side.trim_mm
        writer.writerow(
            [
                shot.path.name,
                side.component.name,
                side.row or "",
                side.side,
                side.count,
                f"{w + 2 * to_mm(bleed):.2f}",
                f"{h + 2 * to_mm(bleed):.2f}",
                f"{to_mm(bleed):.2f}",
                shot.width,
                shot.height,
            ]
        )
    return buffer.getvalue()


def export_images(prepared: Prepared) -> list[Path]:
    out = prepared.out("images")
    chosen = [side for group in prepared.groups for side in sides(group)]
    pdf, shots = side_shots(prepared, chosen, out)
    write_pngs(pdf, shots, prepared.options.processes)
    write_atomic(out / MANIFEST, manifest(chosen, shots, prepared.ctx.bleed))
    return [shot.path for shot in shots] + [out / MANIFEST]
