"""reportlab internals the PDF canvas (output/pdf_canvas.py) uses to write text operators itself.

- `Canvas._doc`: the document a canvas writes to; standard fonts are named in it
  (`getInternalFontName`) and TrueType subsets are cut against it (`splitString`,
  `getSubsetInternalName`).
- `Font._dynamicFont`: true for a subsetting TrueType font, false for a standard Type 1 one.
- `Canvas.showPage` replaced on the instance, so a pending line of text is written before any page
  ends, whoever ends it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from reportlab.pdfgen.canvas import Canvas

__all__ = ["document", "end_pages_with", "is_subsetting", "shape_problems"]


def document(canvas: Canvas) -> Any:
    """The reportlab document behind a canvas (its fonts and resources)."""
    return canvas._doc


def is_subsetting(face: Any) -> bool:
    """True for a TrueType font written as subsets, False for a standard (Type 1) font."""
    return bool(face._dynamicFont)


def end_pages_with(canvas: Canvas, before: Callable[[], None]) -> Callable[[], None]:
    """Make every `canvas.showPage()` call `before()` first; returns reportlab's own showPage."""
    own: Callable[[], None] = canvas.showPage

    def show_page() -> None:
        before()
        own()

    canvas.showPage = show_page
    return own


def shape_problems() -> list[str]:
    """What of the above a reportlab release no longer offers, in words (empty: all there)."""
    import io

    from reportlab.pdfbase import pdfmetrics, ttfonts

    problems = []
    canvas = Canvas(io.BytesIO())
    doc = getattr(canvas, "_doc", None)
    if doc is None or not callable(getattr(doc, "getInternalFontName", None)):
        problems.append("reportlab Canvas has no _doc.getInternalFontName (standard font resource names)")
    if getattr(pdfmetrics.getFont("Helvetica"), "_dynamicFont", None) not in (0, False):
        problems.append("reportlab's standard fonts no longer say _dynamicFont = 0")
    if getattr(ttfonts.TTFont, "_dynamicFont", None) not in (1, True):
        problems.append("reportlab's TTFont no longer says _dynamicFont = 1")
    for method in ("splitString", "getSubsetInternalName"):
        if not callable(getattr(ttfonts.TTFont, method, None)):
            problems.append(f"reportlab's TTFont has no {method}(text, doc)")
    ended: list[bool] = []
    end_pages_with(canvas, lambda: ended.append(True))
    canvas.showPage()
    if ended != [True]:
        problems.append("reportlab Canvas.showPage can no longer be replaced on the instance")
    return problems
