"""The finished score table as a PDF page or a PNG image, for sharing in the group's chat.

The text is `render.text` (what `pnpforge score` prints), set in a monospaced font so its columns
line up; Japanese names are set in the machine's CJK font when there is one.
"""

from __future__ import annotations

import io

from pnpforge.fonts import find_cjk_font, is_cjk
from pnpforge.output.embedfonts import embedded

FONT_SIZE = 10.0
LINE = 13.0
MARGIN = 28.0
CHAR = 6.0  # Courier's advance at 10 pt
PNG_DPI = 144


def table_pdf(table: str) -> bytes:
    """One page just large enough for the table."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont
    from reportlab.pdfgen.canvas import Canvas

    from pnpforge.output.pdf import unique_subset_tags

    lines = table.splitlines()
    cjk = find_cjk_font() if any(is_cjk(ch) for ch in table) else None
    if cjk is not None and "PnpforgeShareCJK" not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(TTFont("PnpforgeShareCJK", str(cjk)))
    columns = max((sum(2 if is_cjk(ch) else 1 for ch in line) for line in lines), default=1)
    width = columns * CHAR + 2 * MARGIN
    height = len(lines) * LINE + 2 * MARGIN
    buffer = io.BytesIO()
    mono = embedded("Courier")  # embedded, with Courier's widths: the columns still line up
    canvas = Canvas(buffer, pagesize=(width, height), invariant=1, initialFontName=mono)
    unique_subset_tags(canvas)
    canvas.setFillColorRGB(1, 1, 1)
    canvas.rect(0, 0, width, height, stroke=0, fill=1)
    canvas.setFillColorRGB(0, 0, 0)
    for row, line in enumerate(lines):
        y = height - MARGIN - (row + 1) * LINE + 3
        x = MARGIN
        for wide, run in _runs(line):  # wide characters take two columns, as render.text counts them
            canvas.setFont("PnpforgeShareCJK" if wide and cjk is not None else mono, FONT_SIZE)
            if wide:
                for ch in run:
                    canvas.drawString(x, y, ch)
                    x += 2 * CHAR
            else:
                canvas.drawString(x, y, run)
                x += CHAR * len(run)
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def _runs(line: str) -> list[tuple[bool, str]]:
    runs: list[tuple[bool, str]] = []
    for ch in line:
        wide = is_cjk(ch)
        if runs and runs[-1][0] == wide:
            runs[-1] = (wide, runs[-1][1] + ch)
        else:
            runs.append((wide, ch))
    return runs


def png_of(pdf: bytes) -> bytes:
    from pnpforge.output import png

    return next(png.render(pdf, PNG_DPI))
