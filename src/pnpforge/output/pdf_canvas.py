"""The Canvas protocol on a reportlab canvas: y-down points, reused drawings as PDF form XObjects.

The page's user space is flipped once (translate to the top, scale y by -1), so every later call
is in y-down coordinates; text and images flip back locally so they read upright. After
`show_page()` the flip is set up again for the next page.

Runs of text that continue each other on one baseline (a line set in two fonts) are written as
one PDF text object, so text extraction and search see one line, not a word per font change.
The pending text object is written before any other drawing and before the page ends. Text
operators are written directly (one text matrix per line, fonts chosen with Tf) rather than through
reportlab's text object, which sets an origin, a leading and a font state nobody here reads.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Protocol

from reportlab.lib.rl_accel import escapePDF, fp_str, unicode2T1
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.canvas import Canvas as RLCanvas

from pnpforge import limits
from pnpforge.internals import reportlab_private
from pnpforge.output.canvas import RGB, Canvas, Point
from pnpforge.output.embedfonts import embedded
from pnpforge.output.encodecache import pictures_encoded_once

FORM_EXTENT = 14400.0  # a reused drawing may reach this far from its origin (PDF's user-unit limit)
KAPPA = 4 * (math.sqrt(2) - 1) / 3  # Bézier handle length of a quarter circle, per unit radius
SHOWN_KEPT = 20_000  # distinct strings whose text operators are kept per document
OPS_KEPT = 20_000  # distinct transforms and paths whose operators are kept per document


class ColourHook(Protocol):
    """How a print shop's file writes colours: operators for a colour, images and SVG drawings as
    converted (output/shopcolour.py)."""

    def operator(self, colour: RGB, stroke: bool) -> str: ...

    def image(self, path: Path) -> tuple[Any, Any]: ...

    def drawing(self, drawing: Any) -> Any: ...


@dataclass
class _PendingText:
    """Text not yet written: a run that carries on from its end, on its baseline, in its colour, joins it."""

    ops: list[str]  # PDF operators after BT
    baseline: float
    end: float
    colour: RGB

    def getCode(self) -> str:  # noqa: N802  # the name reportlab's drawText calls
        return "BT " + " ".join(self.ops) + " ET"


@lru_cache(maxsize=1024)
def _form_name(key: str) -> str:
    """A PDF name for a reuse key (reportlab names forms in the document's XObject dictionary). Only ASCII
    letters and digits stay as they are: reportlab writes a name's bytes raw, and pdfium finds no form
    under a name holding UTF-8 (a Japanese title in an export's key left every front blank)."""
    return "PnpForm" + "".join(ch if ch.isascii() and ch.isalnum() else f"_{ord(ch):x}" for ch in key)


def _rounded_rect_path(x: float, y: float, w: float, h: float, r: float) -> str:
    """A rectangle with quarter-circle (Bézier) corners of radius r; a plain `re` when r <= 0."""
    if r <= 0:
        return f"n {fp_str(x, y, w, h)} re"
    k = r * KAPPA
    right, bottom = x + w, y + h
    return (
        f"n {fp_str(x + r, y)} m {fp_str(right - r, y)} l "
        f"{fp_str(right - r + k, y, right, y + r - k, right, y + r)} c {fp_str(right, bottom - r)} l "
        f"{fp_str(right, bottom - r + k, right - r + k, bottom, right - r, bottom)} c "
        f"{fp_str(x + r, bottom)} l "
        f"{fp_str(x + r - k, bottom, x, bottom - r + k, x, bottom - r)} c {fp_str(x, y + r)} l "
        f"{fp_str(x, y + r - k, x + r - k, y, x + r, y)} c h"
    )


class PdfCanvas(Canvas):
    """Draws on `rl_canvas` with the origin at the page's top-left and y growing down."""

    def __init__(self, rl_canvas: RLCanvas, page_height: float) -> None:
        self.c = rl_canvas
        self.page_height = page_height
        self._recording = 0
        self._pending: _PendingText | None = None
        self._emit: Callable[[str], None] = rl_canvas.addLiteral  # operators straight into the stream
        self._fonts: dict[str, tuple[Any, str]] = {}  # reportlab name -> (font, PDF resource name or "")
        self._shown: dict[tuple[str, str, float], tuple[str, float]] = {}  # -> (Tf/Tj operators, width)
        self._fills: dict[RGB, str] = {}
        self._strokes: dict[RGB, str] = {}
        self._ops: dict[tuple[Any, ...], str] = {}  # operator strings by geometry: pieces repeat theirs
        self.colours: ColourHook | None = None  # a print shop's colours (output/shopcolour.py)
        self.image_bytes = 0  # the pictures' bytes embedded so far (limits.IMAGE_BYTES)
        # whoever ends a page, the pending line of text is written first
        reportlab_private.end_pages_with(rl_canvas, self.flush)
        self._flip()

    def flush(self) -> None:
        """Write the pending line of text (called by every other drawing call)."""
        if self._pending is not None:
            self.c.drawText(self._pending)  # any object with getCode()
            self._pending = None

    def _flip(self) -> None:
        self.c.translate(0, self.page_height)
        self.c.scale(1, -1)

    def show_page(self) -> None:
        """End this page and start the next, keeping the y-down coordinates."""
        self.c.showPage()  # writes the pending line first (end_pages_with)
        self._flip()

    # transforms -------------------------------------------------------------------------------
    def save(self) -> None:
        self.flush()
        self._emit("q")  # reportlab's own state stack is not needed: nothing here reads it back

    def restore(self) -> None:
        self.flush()
        self._emit("Q")

    def translate(self, x: float, y: float) -> None:
        self.flush()
        key = ("cm", x, y)
        op = self._ops.get(key)
        if op is None:
            op = self._keep(key, f"1 0 0 1 {fp_str(x, y)} cm")
        self._emit(op)

    def rotate(self, degrees: float) -> None:
        self.flush()
        self.c.rotate(degrees)  # anticlockwise in flipped user space = clockwise on the page

    def scale(self, sx: float, sy: float) -> None:
        self.flush()
        self.c.scale(sx, sy)

    def clip(self, outline: Sequence[Point]) -> None:
        self.flush()
        self._emit(self._path(outline, True) + " W* n")

    # shapes -----------------------------------------------------------------------------------
    def _keep(self, key: tuple[Any, ...], op: str) -> str:
        if len(self._ops) >= OPS_KEPT:
            self._ops.clear()
        self._ops[key] = op
        return op

    def _path(self, points: Sequence[Point], closed: bool) -> str:
        """Path construction operators (even-odd filling, as reportlab's default)."""
        try:
            key = ("path", tuple(points), closed)
            op = self._ops.get(key)
        except TypeError:  # points given as lists: not hashable, so not cached
            key, op = None, None
        if op is None:
            parts = ["n", fp_str(*points[0]), "m"]
            for point in points[1:]:
                parts += (fp_str(*point), "l")
            if closed:
                parts.append("h")
            op = " ".join(parts)
            if key is not None:
                self._keep(key, op)
        return op

    def _colour(self, colour: RGB, operator: str) -> str:
        return f"{fp_str(*colour)} {operator}"

    def _fill(self, colour: RGB) -> str:
        if self.colours is not None:
            return self.colours.operator(colour, False)
        try:
            op = self._fills.get(colour)
        except TypeError:  # a list, not a tuple: write it, uncached
            return self._colour(colour, "rg")
        if op is None:
            op = self._fills[colour] = self._colour(colour, "rg")
        return op

    def _stroke(self, colour: RGB, width: float) -> str:
        if self.colours is not None:
            return f"{self.colours.operator(colour, True)} {fp_str(width)} w"
        try:
            op = self._strokes.get(colour)
        except TypeError:
            op = self._colour(colour, "RG")
        if op is None:
            op = self._strokes[colour] = self._colour(colour, "RG")
        return f"{op} {fp_str(width)} w"

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
        if not closed:
            fill = None
        if len(points) < 2 or (fill is None and stroke is None):
            return
        join = "0 j " if closed else "1 j "  # round joins for polylines (lines, waves)
        path = join + self._path(points, closed)
        if dash:
            self._emit(f"q [{fp_str(*dash)}] 0 d {self._painted(path, fill, stroke, width)} Q")
        else:
            self._emit(self._painted(path, fill, stroke, width))

    def ellipse(
        self, cx: float, cy: float, rx: float, ry: float, fill: RGB | None, stroke: RGB | None, width: float
    ) -> None:
        self.flush()
        if fill is None and stroke is None:
            return
        key = ("ellipse", cx, cy, rx, ry)
        path = self._ops.get(key)
        if path is None:
            kx, ky = rx * KAPPA, ry * KAPPA
            path = self._keep(
                key,
                f"n {fp_str(cx + rx, cy)} m "
                f"{fp_str(cx + rx, cy + ky, cx + kx, cy + ry, cx, cy + ry)} c "
                f"{fp_str(cx - kx, cy + ry, cx - rx, cy + ky, cx - rx, cy)} c "
                f"{fp_str(cx - rx, cy - ky, cx - kx, cy - ry, cx, cy - ry)} c "
                f"{fp_str(cx + kx, cy - ry, cx + rx, cy - ky, cx + rx, cy)} c h",
            )
        self._emit(self._painted(path, fill, stroke, width))

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
        if fill is None and stroke is None:
            return
        key = ("rect", x, y, w, h, radius)
        path = self._ops.get(key)
        if path is None:
            path = self._keep(key, _rounded_rect_path(x, y, w, h, min(radius, w / 2, h / 2)))
        self._emit(self._painted(path, fill, stroke, width))

    def _painted(self, path: str, fill: RGB | None, stroke: RGB | None, width: float) -> str:
        """Colour operators, the path, then fill and/or stroke it (even-odd, as reportlab's default)."""
        if stroke is None:
            return f"{self._fill(fill)} {path} f*"  # type: ignore[arg-type]  # one of them is set
        if fill is None:
            return f"{self._stroke(stroke, width)} {path} S"
        return f"{self._fill(fill)} {self._stroke(stroke, width)} {path} B*"

    def text(self, x: float, baseline: float, text: str, font: str, size: float, colour: RGB) -> None:
        key = (text, font, size)
        found = self._shown.get(key)
        if found is None:
            if len(self._shown) >= SHOWN_KEPT:
                self._shown.clear()
            found = (self._show(text, font, size), pdfmetrics.stringWidth(text, font, size))
            self._shown[key] = found
        shown, width = found
        pending = self._pending
        if (
            pending is not None
            and abs(pending.baseline - baseline) < 1e-6
            and abs(pending.end - x) < 0.01
            and pending.colour == colour
        ):
            pending.ops.append(shown)
        else:
            self.flush()
            matrix_key = ("Tm", x, baseline)
            matrix = self._ops.get(matrix_key)
            if matrix is None:  # the text matrix flips y back: glyphs stand upright in flipped user space
                matrix = self._keep(matrix_key, f"1 0 0 -1 {fp_str(x, baseline)} Tm")
            pending = self._pending = _PendingText([matrix, self._fill(colour), shown], baseline, x, colour)
        pending.end = x + width

    def _show(self, text: str, font: str, size: float) -> str:
        """Tf and Tj operators for `text` in `font`: TrueType fonts by subset, standard ones re-encoded.

        Cached per string by `text`: a TrueType character keeps the subset code it got on first use.
        A standard font is written with its embedded metric twin (output/embedfonts.py)."""
        entry = self._fonts.get(font)
        if entry is None:
            face = pdfmetrics.getFont(embedded(font))
            subsetting = reportlab_private.is_subsetting(face)
            entry = self._fonts[font] = (face, "" if subsetting else self._resource(face))
        face, resource = entry
        doc = reportlab_private.document(self.c)
        points = fp_str(size)
        if not resource:
            return " ".join(
                f"{face.getSubsetInternalName(subset, doc)} {points} Tf ({escapePDF(chunk)}) Tj"
                for subset, chunk in face.splitString(text, doc)
            )
        parts = unicode2T1(text, [face, *face.substitutionFonts])
        if len(parts) == 1 and parts[0][0] is face:
            return f"{resource} {points} Tf ({escapePDF(parts[0][1])}) Tj"
        return " ".join(f"{self._resource(f)} {points} Tf ({escapePDF(chunk)}) Tj" for f, chunk in parts)

    def _resource(self, face: Any) -> str:
        """The page resource name of a standard font (reportlab adds it to the document on first use)."""
        name: str = reportlab_private.document(self.c).getInternalFontName(face.fontName)
        return name

    def image(self, path: Path, x: float, y: float, w: float, h: float) -> None:
        self.flush()
        self.c.saveState()
        self.c.translate(x, y + h)
        self.c.scale(1, -1)
        made: list[Any] = []
        with pictures_encoded_once(made.append):  # a picture's pixels compressed once, not in every build
            if path.suffix.lower() == ".svg":  # stays vector art; a picture inside is embedded as a PNG's is
                from pnpforge.output.svgimage import draw_svg  # SVG art alone loads it (start-up speed)

                draw_svg(self.c, path, w, h, self.colours.drawing if self.colours else None)
            else:
                source, mask = self.colours.image(path) if self.colours else (str(path), "auto")
                self.c.drawImage(source, 0, 0, w, h, mask=mask)
        for image in made:  # new to this PDF: its bytes stay in memory until the PDF is written
            added = reportlab_private.embedded_bytes(image)
            self.image_bytes = limits.count_image_bytes(self.image_bytes, added, path.name)
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
