"""Every font embedded: the standard PDF font names drawn with metric-compatible TrueType files.

Print shops and PDF/X reject a PDF that only names a font. Liberation Sans, Serif and Mono have the
advance widths of Helvetica, Times and Courier (so do Arial, Times New Roman and Courier New, the
fonts macOS and Windows carry), so every line breaks where it did and the glyphs embed as subsets.
Text is laid out with the standard names' metrics; PdfCanvas swaps the name for the embedded twin
only when it writes the text.

Where none of these files is found (a machine without fonts-liberation), the standard names stay
unembedded; fonts.py finds the files (`twin_file`) and says `MISSING_TWINS` once.
"""

from __future__ import annotations

from functools import cache

from pnpforge.fonts import TWINS, twin_file

PREFIX = "PnpEmbed-"


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
