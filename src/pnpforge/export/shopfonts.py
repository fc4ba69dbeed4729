"""Embedded fonts for print shops: the standard PDF fonts swapped for metric-compatible TrueType ones.

Shops reject PDFs that only name a font. Liberation Sans, Serif and Mono have the advance widths of
Helvetica, Times and Courier, so every line breaks where it does on the home sheet, and they embed.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from pnpforge.fonts import FontRegistry

FOLDERS = (
    "/usr/share/fonts/truetype/liberation",
    "/usr/share/fonts/truetype/liberation2",
    "/usr/share/fonts/liberation-sans",
    "/usr/share/fonts/liberation",
    "/Library/Fonts",
)
LIBERATION = {
    "Helvetica": "LiberationSans-Regular.ttf",
    "Helvetica-Bold": "LiberationSans-Bold.ttf",
    "Helvetica-Oblique": "LiberationSans-Italic.ttf",
    "Times-Roman": "LiberationSerif-Regular.ttf",
    "Times-Bold": "LiberationSerif-Bold.ttf",
    "Times-Italic": "LiberationSerif-Italic.ttf",
    "Courier": "LiberationMono-Regular.ttf",
    "Courier-Bold": "LiberationMono-Bold.ttf",
}
MISSING = (
    "warning: no Liberation fonts found (install fonts-liberation); the print-shop PDF names the "
    "standard Latin fonts without embedding them"
)


@cache
def liberation(standard: str) -> Path | None:
    """The TrueType file standing in for a standard PDF font, if installed."""
    name = LIBERATION.get(standard)
    if name is None:
        return None
    for folder in FOLDERS:
        path = Path(folder) / name
        if path.is_file():
            return path
    return None


class EmbeddingFonts(FontRegistry):
    """A FontRegistry whose standard fonts are embedded TrueType files."""

    def resolve(self, font: str, spec_dir: Path | None = None) -> str:
        name = super().resolve(font, spec_dir)
        path = liberation(name)
        if path is None:
            if name in LIBERATION and MISSING not in self.warnings:
                self.warnings.append(MISSING)
            return name
        return self._register(path, "PnpEmbed-" + path.stem)
