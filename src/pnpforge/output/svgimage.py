"""SVG artwork placed on a piece: checked, then read once with svglib into reportlab vector drawings.

An SVG is a document that can reach out (entities, DOCTYPEs, links to files and URLs); only its own
shapes and embedded `data:` images are drawn, so anything that would make svglib read another file
or the network is refused first, with the SVG's file and line. An embedded picture is handed to
svglib as it reads one (a base64 PNG or JPEG: a GIF's first frame becomes a PNG, its transparency
kept); one svglib still cannot draw is refused at the SVG, never left out with a line of svglib's own.
"""

from __future__ import annotations

import io
import logging
import re
from collections.abc import Callable
from contextvars import ContextVar
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
PICTURES = ("PNG", "JPEG", "GIF")  # what an embedded picture may be, by its bytes


UNREADABLE = N_("cannot read SVG image {name}: {problem}")


def checked_svg(path: Path) -> tuple[str, bytes]:
    """The SVG's text and the bytes svglib is to read, if it refers to nothing outside itself and each
    embedded picture is a PNG, JPEG or GIF within the images' bounds (each given as a base64 PNG or
    JPEG: svglib reads only those); ValueError `FILE:LINE:COL: why` if not."""
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
    given: list[tuple[re.Match[str], str]] = []  # the pictures svglib is given otherwise than written
    for found in (*_HREF.finditer(text), *_URL.finditer(text)):
        target = found.group(found.lastindex or 1).strip()
        if not target.lower().startswith(_EMBEDDED):
            raise refuse(
                found.start(), Phrase(N_("external reference {target} refused"), target=repr(target[:60]))
            )
        if target.startswith("#"):
            continue
        if text.startswith("<use", text.rfind("<", 0, found.start())):  # svglib draws none (nor do browsers)
            said = N_("a <use> of an embedded image draws nothing: put the image in an <image> element")
            raise refuse(found.start(), Phrase.word(said))
        if ";base64," not in target[:40].lower():
            said = N_("embedded image {start} is not base64")
            raise refuse(found.start(), Phrase(said, start=repr(target[:30])))
        try:
            readable = _as_svglib_reads(target)
        except ValueError as exc:
            raise refuse(found.start(), str(exc)) from None
        if found.re is _HREF and readable != found.group(2):
            given.append((found, readable))
    if text.count("<use") > limits.SVG_USES:
        raise refuse(text.find("<use"), Phrase(N_("more than {most} <use> copies"), most=limits.SVG_USES))
    if not given:
        return text, raw
    parts, end = [], 0
    for found, uri in sorted(given, key=lambda pair: pair[0].start()):
        parts += [text[end : found.start(2)], uri]
        end = found.end(2)
    return text, "".join([*parts, text[end:]]).encode()


def _as_svglib_reads(uri: str) -> str:
    """An embedded picture's data: URI as svglib reads one: `data:image/png;base64,` or `…jpeg…` named
    by its bytes, its base64 as written; a GIF as the PNG of its first frame (its transparency kept).
    ValueError saying what is wrong, by the picture's header first (never a bomb decoded)."""
    import base64
    import binascii

    from PIL import Image

    written = uri.split(",", 1)[1]
    unreadable = ValueError(Phrase.word(N_("an embedded image that cannot be read")))
    try:
        data = base64.b64decode(written, validate=False)
        limits.image_size(io.BytesIO(data), Phrase.word(N_("an embedded image")))  # over the bound: said
    except (binascii.Error, OSError):
        raise unreadable from None
    try:
        with Image.open(io.BytesIO(data)) as picture:
            kind = picture.format
            if kind in PICTURES:
                picture.load()  # decoded now (a GIF: its first frame): a truncated picture is said here
            if kind == "GIF":
                frame = picture.convert("RGBA" if "transparency" in picture.info else "RGB")
    except Exception:  # PIL's decoders raise many kinds for a broken picture
        raise unreadable from None
    if kind not in PICTURES:
        raise ValueError(Phrase(N_("an embedded {kind} image, not a PNG, JPEG or GIF"), kind=kind))
    if kind != "GIF":
        return f"data:image/{kind.lower()};base64,{written}"
    png = io.BytesIO()
    frame.save(png, format="PNG")
    return "data:image/png;base64," + base64.b64encode(png.getvalue()).decode("ascii")


_HEARD: ContextVar[list[logging.LogRecord] | None] = ContextVar("svglib_heard", default=None)


class _PicturesHeard(logging.Filter):
    """svglib's own line of a picture it leaves out, kept for `_load` to say at the SVG, in our words,
    instead of on stderr (svglib logs it and draws on without the picture)."""

    def filter(self, record: logging.LogRecord) -> bool:
        heard = _HEARD.get()
        if heard is None or "image" not in str(record.msg).lower():
            return True
        heard.append(record)
        return False


_LISTENING = _PicturesHeard()


def _undrawn_picture(text: str, file: str) -> ValueError:
    """A picture svglib left out, said at the SVG's first embedded picture."""
    from pnpforge.errors import Problem, located
    from pnpforge.sourcefile import line_col

    found = re.search(r"<image\b|data:image/", text)
    line, col = line_col(text, found.start()) if found else (1, 1)
    why = N_("an embedded image that cannot be drawn (expected a PNG, JPEG or GIF data: image in an <image>)")
    return ValueError(located(Problem(file, line, col, Phrase.word(why))))


@lru_cache(maxsize=64)
def _load(path: Path, mtime: float) -> Drawing:
    from svglib.svglib import svg2rlg  # imported here: only specs with SVG art pay for it

    text, readable = checked_svg(path)
    logging.getLogger("svglib.svglib").addFilter(_LISTENING)  # the same filter is added once
    heard: list[logging.LogRecord] = []
    listening = _HEARD.set(heard)
    try:
        drawing = svg2rlg(io.BytesIO(readable))
    except Exception as exc:  # lxml and svglib raise many kinds for a broken file
        raise ValueError(Phrase(UNREADABLE, name=repr(path.name), problem=str(exc))) from None
    finally:
        _HEARD.reset(listening)
    if heard:
        raise _undrawn_picture(text, path.name)
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
