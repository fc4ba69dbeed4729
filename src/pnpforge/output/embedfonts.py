"""Every font embedded: the standard PDF font names drawn with metric-compatible TrueType files.

Print shops and PDF/X reject a PDF that only names a font. Liberation Sans, Serif and Mono have the
advance widths of Helvetica, Times and Courier (so do Arial, Times New Roman and Courier New, the
fonts macOS and Windows carry), so every line breaks where it did and the glyphs embed as subsets.
Text is laid out with the standard names' metrics; PdfCanvas swaps the name for the embedded twin
only when it writes the text.

Where none of these files is found (a machine without fonts-liberation), the standard names stay
unembedded and `MISSING` is said once; PNPFORGE_FONT_DIR may name a folder holding the Liberation files.
"""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path

from pnpforge.errors import warning
from pnpforge.i18n import N_
from pnpforge.phrase import Phrase

ENV_FOLDER = "PNPFORGE_FONT_DIR"
FOLDERS = (
    "/usr/share/fonts/truetype/liberation",
    "/usr/share/fonts/truetype/liberation2",
    "/usr/share/fonts/liberation-sans",
    "/usr/share/fonts/liberation-serif",
    "/usr/share/fonts/liberation-mono",
    "/usr/share/fonts/liberation",
    "/usr/share/fonts/truetype/msttcorefonts",
    "/usr/local/share/fonts",
    "/Library/Fonts",
    "/System/Library/Fonts/Supplemental",
    str(Path.home() / "Library/Fonts"),
    str(Path.home() / ".local/share/fonts"),
    str(Path(os.environ.get("WINDIR", "C:/Windows")) / "Fonts"),
)
# Each standard name's stand-ins, best first: Liberation, then the Monotype twins of macOS/Windows.
TWINS = {
    "Helvetica": ("LiberationSans-Regular.ttf", "Arial.ttf", "arial.ttf"),
    "Helvetica-Bold": ("LiberationSans-Bold.ttf", "Arial Bold.ttf", "arialbd.ttf"),
    "Helvetica-Oblique": ("LiberationSans-Italic.ttf", "Arial Italic.ttf", "ariali.ttf"),
    "Helvetica-BoldOblique": ("LiberationSans-BoldItalic.ttf", "Arial Bold Italic.ttf", "arialbi.ttf"),
    "Times-Roman": ("LiberationSerif-Regular.ttf", "Times New Roman.ttf", "times.ttf"),
    "Times-Bold": ("LiberationSerif-Bold.ttf", "Times New Roman Bold.ttf", "timesbd.ttf"),
    "Times-Italic": ("LiberationSerif-Italic.ttf", "Times New Roman Italic.ttf", "timesi.ttf"),
    "Times-BoldItalic": ("LiberationSerif-BoldItalic.ttf", "Times New Roman Bold Italic.ttf", "timesbi.ttf"),
    "Courier": ("LiberationMono-Regular.ttf", "Courier New.ttf", "cour.ttf"),
    "Courier-Bold": ("LiberationMono-Bold.ttf", "Courier New Bold.ttf", "courbd.ttf"),
    "Courier-Oblique": ("LiberationMono-Italic.ttf", "Courier New Italic.ttf", "couri.ttf"),
    "Courier-BoldOblique": ("LiberationMono-BoldItalic.ttf", "Courier New Bold Italic.ttf", "courbi.ttf"),
}
MISSING = warning(
    Phrase(
        N_(
            "no Liberation fonts found, so the standard Latin fonts (Helvetica, Times, Courier) are "
            "named in the PDF, not embedded (a print shop may refuse it): install them (Debian/Ubuntu: "
            "apt install fonts-liberation; Fedora: dnf install liberation-fonts; macOS: brew install "
            "--cask font-liberation) or set {folder} to a folder holding LiberationSans-Regular.ttf etc."
        ),
        folder=ENV_FOLDER,
    )
)
PREFIX = "PnpEmbed-"


def _folders() -> list[Path]:
    extra = os.environ.get(ENV_FOLDER)
    return [Path(p) for p in ([extra] if extra else []) + list(FOLDERS)]


@cache
def twin_file(standard: str) -> Path | None:
    """The TrueType file standing in for a standard PDF font, if one is installed."""
    for name in TWINS.get(standard, ()):
        for folder in _folders():
            path = folder / name
            if path.is_file():
                return path
    return None


@cache
def embedded(font: str) -> str:
    """The registered name to write `font` with: its embedded twin for a standard name (registered on
    first use), else `font` itself (already a TrueType font, or no twin installed)."""
    if font not in TWINS:
        return font
    path = twin_file(font)
    if path is None:
        return font
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    name = PREFIX + font
    if name not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(TTFont(name, str(path)))
    return name


def all_found() -> bool:
    """True when every standard name has an embeddable twin on this machine."""
    return all(twin_file(name) is not None for name in TWINS if not name.endswith("BoldOblique"))
