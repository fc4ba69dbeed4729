"""The Canvas protocol on a reportlab canvas: y-down points, reused drawings as PDF form XObjects.

The page's user space is flipped once (translate to the top, scale y by -1), so every later call
is in y-down coordinates; text and images flip back locally so they read upright. After
`show_page()` the flip is set up again for the next page.

Runs of text that continue each other on one baseline (a line set in two fonts) are written as
one PDF text object, so text extraction and search see one line, not a word per font change.
The pending text object is written before any other drawing and before the page ends.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.canvas import Canvas as RLCanvas

from pnpforge.output.canvas import RGB, Point

FORM_EXTENT = 14400.0  # a reused drawing may reach this far from its origin (PDF's user-unit limit)


@dataclass
class _PendingText:
    text: Any  # reportlab PDFTextObject
    baseline: float
    end: float
    colour: RGB


def _form_name(key: str) -> str:
    """A PDF name for a reuse key (reportlab names forms in the document's XObject dictionary)."""
    return "PnpForm" + "".join(ch if ch.isalnum() else f"_{ord(ch):x}" for ch in key)


class PdfCanvas:
    """Draws on `rl_canvas` with the origin at the page's top-left and y growing down."""

    def __init__(self, rl_canvas: RLCanvas, page_height: float) -> None:
        self.c = rl_canvas
        self.page_height = page_height
        self._recording = 0
        self._pending: _PendingText | None = None
        self._page_end: Callable[[], None] = rl_canvas.showPage
        rl_canvas.showPage = self._end_page  # type: ignore[method-assign]  # never lose a pending line
        self._flip()

    def _end_page(self) -> None:
        self.flush()
        self._page_end()

    def flush(self) -> None:
        """Write the pending line of text (called by every other drawing call)."""
        if self._pending is not None:
            self.c.drawText(self._pending.text)
            self._pending = None

    def _flip(self) -> None:
        self.c.translate(0, self.page_height)
        self.c.scale(1, -1)

    def show_page(self) -> None:
        """End this page and start the next, keeping the y-down coordinates."""
        self._end_page()
        self._flip()

    # transforms -------------------------------------------------------------------------------
    def save(self) -> None:
        self.flush()
        self.c.saveState()

    def restore(self) -> None:
        self.flush()
        self.c.restoreState()

    def translate(self, x: float, y: float) -> None:
        self.flush()
        self.c.translate(x, y)

    def rotate(self, degrees: float) -> None:
        self.flush()
        self.c.rotate(degrees)  # anticlockwise in flipped user space = clockwise on the page

    def scale(self, sx: float, sy: float) -> None:
        self.flush()
        self.c.scale(sx, sy)

    def clip(self, outline: Sequence[Point]) -> None:
        self.flush()
        path = self._path(outline, closed=True)
        self.c.clipPath(path, stroke=0, fill=0)

    # shapes -----------------------------------------------------------------------------------
    def _path(self, points: Sequence[Point], closed: bool):  # type: ignore[no-untyped-def]
        path = self.c.beginPath()
        path.moveTo(*points[0])
        for x, y in points[1:]:
            path.lineTo(x, y)
        if closed:
            path.close()
        return path

    def _paint(self, fill: RGB | None, stroke: RGB | None, width: float) -> tuple[int, int]:
        if fill is not None:
            self.c.setFillColorRGB(*fill)
        if stroke is not None:
            self.c.setStrokeColorRGB(*stroke)
            self.c.setLineWidth(width)
        return int(fill is not None), int(stroke is not None)

    def polygon(
        self,
        points: Sequence[Point],
        fill: RGB | None,
        stroke: RGB | None,
        width: float = 0.5,
        closed: bool = True,
        dash: Sequence[float] | None = None,
    ) -> None:
        self.flush()
        if len(points) < 2 or (fill is None and stroke is None):
            return
        do_fill, do_stroke = self._paint(fill if closed else None, stroke, width)
        if not (do_fill or do_stroke):
            return
        self.c.setLineJoin(1 if not closed else 0)
        if dash:
            self.c.saveState()
            self.c.setDash(list(dash), 0)
        self.c.drawPath(self._path(points, closed), stroke=do_stroke, fill=do_fill)
        if dash:
            self.c.restoreState()

    def ellipse(
        self, cx: float, cy: float, rx: float, ry: float, fill: RGB | None, stroke: RGB | None, width: float
    ) -> None:
        self.flush()
        do_fill, do_stroke = self._paint(fill, stroke, width)
        if do_fill or do_stroke:
            self.c.ellipse(cx - rx, cy - ry, cx + rx, cy + ry, stroke=do_stroke, fill=do_fill)

    def rounded_rect(
        self,
        x: float,
        y: float,
        w: float,
        h: float,
        radius: float,
        fill: RGB | None,
        stroke: RGB | None,
        width: float,
    ) -> None:
        self.flush()
        do_fill, do_stroke = self._paint(fill, stroke, width)
        if not (do_fill or do_stroke):
            return
        if radius > 0:
            self.c.roundRect(x, y, w, h, min(radius, w / 2, h / 2), stroke=do_stroke, fill=do_fill)
        else:
            self.c.rect(x, y, w, h, stroke=do_stroke, fill=do_fill)

    def text(self, x: float, baseline: float, text: str, font: str, size: float, colour: RGB) -> None:
        pending = self._pending
        if (
            pending is not None
            and abs(pending.baseline - baseline) < 1e-6
            and abs(pending.end - x) < 0.01
            and pending.colour == colour
        ):
            pending.text.setFont(font, size)
            pending.text.textOut(text)
        else:
            self.flush()
            obj = self.c.beginText()
            obj.setTextTransform(1, 0, 0, -1, x, baseline)  # upright glyphs in the flipped user space
            obj.setFillColorRGB(*colour)
            obj.setFont(font, size)
            obj.textOut(text)
            pending = self._pending = _PendingText(obj, baseline, x, colour)
        pending.end = x + pdfmetrics.stringWidth(text, font, size)

    def image(self, path: Path, x: float, y: float, w: float, h: float) -> None:
        self.flush()
        self.c.saveState()
        self.c.translate(x, y + h)
        self.c.scale(1, -1)
        self.c.drawImage(str(path), 0, 0, w, h, mask="auto")
        self.c.restoreState()

    # reuse ------------------------------------------------------------------------------------
    def begin_reuse(self, key: str) -> bool:
        """Record into a form XObject; call end_reuse() only when this returned True."""
        self.flush()
        name = _form_name(key)
        if self.c.hasForm(name):
            return False
        extent = FORM_EXTENT
        self.c.beginForm(name, -extent, -extent, extent, extent)
        self._recording += 1
        return True

    def end_reuse(self) -> None:
        self.flush()
        self.c.endForm()
        self._recording -= 1

    def reuse(self, key: str) -> None:
        self.flush()
        self.c.doForm(_form_name(key))
