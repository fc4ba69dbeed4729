"""SVG artwork placed on a piece: checked, then read once with svglib into reportlab vector drawings.

An SVG is a document that can reach out (entities, DOCTYPEs, links to files and URLs); only its own
shapes and embedded `data:` images are drawn, so anything that would make svglib read another file
or the network is refused first, with the SVG's file and line.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pnpforge import limits
from pnpforge.i18n import N_
from pnpforge.phrase import Phrase

if TYPE_CHECKING:  # reportlab.graphics and svglib load only when a spec has SVG artwork
    from reportlab.graphics.shapes import Drawing
    from reportlab.pdfgen.canvas import Canvas as RlCanvas

_DOCTYPE = re.compile(r"<!DOCTYPE[^>\[]*\[|<!ENTITY|<\?xml-stylesheet|@import", re.I)
_HREF = re.compile(r"""(?:xlink:)?href\s*=\s*(["'])\s*(.*?)\1""", re.I | re.S)
_URL = re.compile(r"""url\(\s*["']?\s*([^)"'\s]*)""", re.I)
_ENTITY = re.compile(r"&(?!(?:amp|lt|gt|quot|apos|#[0-9]+|#x[0-9a-fA-F]+);)[A-Za-z_][\w.-]*;")
_EMBEDDED = ("#", "data:image/png", "data:image/jpeg", "data:image/jpg", "data:image/gif")


UNREADABLE = N_("cannot read SVG image {name}: {problem}")


def checked_svg(path: Path) -> bytes:
    """The SVG's bytes if it refers to nothing outside itself; ValueError `FILE:LINE:COL: why` if not."""
    from pnpforge.errors import InputError, located
    from pnpforge.sourcefile import decode_utf8, line_col, read_bytes

    file = path.name
    try:
        raw = read_bytes(path, file)
        text = decode_utf8(raw, file)
    except InputError as error:
        raise ValueError(located(error.problems[0])) from None

    def refuse(index: int, why: str) -> ValueError:
        line, col = line_col(text, index)
        said = N_("{where}: {why} (expected only shapes and embedded data: images)")
        return ValueError(Phrase(said, where=f"{file}:{line}:{col}", why=why))

    if found := _DOCTYPE.search(text):
        what = found.group().strip("<![ ").split()[0]
        raise refuse(
            found.start(), Phrase(N_("SVG with {what} refused: it can pull in other files"), what=repr(what))
        )
    if found := _ENTITY.search(text):
        raise refuse(found.start(), Phrase(N_("entity {entity} refused"), entity=repr(found.group())))
    for found in (*_HREF.finditer(text), *_URL.finditer(text)):
        target = found.group(found.lastindex or 1).strip()
        if not target.lower().startswith(_EMBEDDED):
            raise refuse(
                found.start(), Phrase(N_("external reference {target} refused"), target=repr(target[:60]))
            )
        embedded = target.lower().startswith("data:image/") and ";base64," in target[:40].lower()
        if embedded and (why := _embedded_problem(target)):
            raise refuse(found.start(), why)
    if text.count("<use") > limits.SVG_USES:
        raise refuse(text.find("<use"), Phrase(N_("more than {most} <use> copies"), most=limits.SVG_USES))
    return raw


def _embedded_problem(uri: str) -> str | None:
    """What is wrong with an embedded image, by its header (svglib would decode it whole, however large)."""
    import base64
    import binascii

    from pnpforge import limits

    try:
        data = base64.b64decode(uri.split(",", 1)[1], validate=False)
        limits.image_size(io.BytesIO(data), Phrase.word(N_("an embedded image")))
    except ValueError as exc:
        return str(exc)
    except (binascii.Error, OSError):
        return Phrase.word(N_("an embedded image that cannot be read"))
    return None


@lru_cache(maxsize=64)
def _load(path: Path, mtime: float) -> Drawing:
    from svglib.svglib import svg2rlg  # imported here: only specs with SVG art pay for it

    raw = checked_svg(path)
    try:
        drawing = svg2rlg(io.BytesIO(raw))
    except Exception as exc:  # lxml and svglib raise many kinds for a broken file
        raise ValueError(Phrase(UNREADABLE, name=repr(path.name), problem=str(exc))) from None
    if drawing is None or drawing.width <= 0 or drawing.height <= 0:
        no_size = Phrase.word(N_("it has no size (expected width and height)"))
        raise ValueError(Phrase(UNREADABLE, name=repr(path.name), problem=no_size))
    _keep_pictures_encoded(drawing)
    return drawing


def _keep_pictures_encoded(drawing: Drawing) -> None:
    """Each embedded picture kept as its file's bytes, not the PIL image svglib opened on them: a JPEG
    goes into the PDF as it is (as JPEG art does), and the drawing kept in the cache holds no decoded
    pixels."""
    from reportlab.graphics.shapes import Image as GraphicsImage

    stack: list[object] = [drawing]
    while stack:
        node = stack.pop()
        stack.extend(getattr(node, "contents", None) or [])
        opened = getattr(getattr(node, "path", None), "fp", None)
        if isinstance(node, GraphicsImage) and isinstance(opened, io.BytesIO):
            node.path = opened.getvalue()  # svglib read only its header: the data: image's bytes


def svg_drawing(path: Path) -> Drawing:
    """The parsed SVG (cached while the file is unchanged); ValueError when it cannot be read."""
    return _load(path.resolve(), path.stat().st_mtime)


def svg_size(path: Path) -> tuple[float, float]:
    drawing = svg_drawing(path)
    return float(drawing.width), float(drawing.height)


def draw_svg(
    canvas: RlCanvas, path: Path, w: float, h: float, recolour: Callable[[Drawing], Drawing] | None = None
) -> None:
    """Draw the SVG into the box (0, 0)-(w, h) of a y-up reportlab canvas, stretched to fill it;
    `recolour` gives the drawing as a print shop's file writes it (CMYK for PDF/X-1a)."""
    drawing = svg_drawing(path)
    if recolour is not None:
        try:
            drawing = recolour(drawing)
        except ValueError as exc:  # what the shop's file cannot hold: said at the SVG
            from pnpforge.errors import InputError

            raise InputError.single(path.name, str(exc), 1, 1) from None
    from pnpforge.internals import reportlab_private

    canvas.saveState()
    canvas.scale(w / drawing.width, h / drawing.height)
    reportlab_private.draw_graphics(drawing, canvas, lambda *placed: _picture(canvas, *placed))
    canvas.restoreState()


def _picture(canvas: RlCanvas, image: Any, x: float, y: float, w: float, h: float) -> None:
    """An embedded picture of the SVG, drawn as PNG and JPEG art are: an image XObject named by its
    pixels (reportlab's drawImage), so the PDF holds it once however many pieces draw the SVG, and
    its transparency kept as a soft mask."""
    from reportlab.lib.utils import ImageReader

    source = ImageReader(io.BytesIO(image) if isinstance(image, bytes) else image)
    canvas.drawImage(source, x, y, w, h, mask="auto")
