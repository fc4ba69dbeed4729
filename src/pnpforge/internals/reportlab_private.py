"""reportlab internals the PDF canvas (output/pdf_canvas.py) uses to write text operators itself.

- `Canvas._doc`: the document a canvas writes to; standard fonts are named in it
  (`getInternalFontName`) and TrueType subsets are cut against it (`splitString`,
  `getSubsetInternalName`).
- `Font._dynamicFont`: true for a subsetting TrueType font, false for a standard Type 1 one.
- `Canvas.showPage` replaced on the instance, so a pending line of text is written before any page
  ends, whoever ends it.
- `ttfonts.SUBSETN`: the module function naming font subsets (AAAAAA+ for every font's first one),
  swapped while a document is saved so each subset gets its own tag (output/pdf.py).
- `PDFCatalog.__NoDefault__`: the optional keys the catalog writes; `OutputIntents` is added to it on
  one document's catalog (output/shopcolour.py).
- `pdfdoc.PDFImageXObject`: the class `Canvas.drawImage` makes an image's XObject with, swapped while
  a picture is drawn so an image already encoded is not decoded and compressed again; its encoded
  state (`streamContent`, `_filters`, `_smask`, ...) kept and given back (output/imagecache.py).
- `renderPDF._PDFRenderer`: the renderer `renderPDF.draw` draws a drawing (SVG art, read by svglib) with,
  its `drawImage` replaced so a raster picture inside is an image XObject, embedded once in a document,
  instead of an inline image written into the page's stream again at every drawing (output/svgimage.py).
- `pdfdoc.PDFZCompress.encode`: the one Flate filter every stream is compressed with, given a memory
  of what it compressed (output/imagecache.py), so `watch` does not compress an unchanged page again.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from reportlab.pdfgen.canvas import Canvas

__all__ = [
    "IMAGE_STATE",
    "add_catalog_entry",
    "add_colour_space_everywhere",
    "add_info_entry",
    "creation_date",
    "document",
    "draw_graphics",
    "end_pages_with",
    "flate_encoder",
    "embedded_bytes",
    "image_from_state",
    "image_state",
    "images_made_by",
    "is_subsetting",
    "set_flate_encoder",
    "shape_problems",
    "subset_tags_by",
]


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


_TAGS_LOCK = threading.Lock()  # SUBSETN is one module global: one document swaps it at a time


@contextmanager
def subset_tags_by(tag: Callable[[int], bytes]) -> Iterator[None]:
    """While inside, reportlab names each TrueType subset it writes `tag(n)` (n: the subset's number
    within its font) instead of its own per-font AAAAAA, AAAAAB, ..."""
    from reportlab.pdfbase import ttfonts

    with _TAGS_LOCK:
        original = ttfonts.SUBSETN
        ttfonts.SUBSETN = lambda n, *_: tag(n)
        try:
            yield
        finally:
            ttfonts.SUBSETN = original


_IMAGES_LOCK = threading.Lock()  # PDFImageXObject is one module global: one picture swaps it at a time
# what an image XObject holds once encoded (all plain data), as PDFImageXObject.format writes it
IMAGE_STATE = ("width", "height", "bitsPerComponent", "colorSpace", "_filters", "streamContent", "mask")
IMAGE_EXTRA = ("_decode", "_dotrans")  # set on some images only (a soft mask, a CMYK JPEG)


@contextmanager
def images_made_by(factory: Callable[[Callable[..., Any], str, Any, Any], Any]) -> Iterator[None]:
    """While inside, `Canvas.drawImage` makes a new image's XObject with `factory(made, name, source,
    mask)`, `made` being reportlab's own class (for what the factory does not keep)."""
    from reportlab.pdfbase import pdfdoc

    with _IMAGES_LOCK:
        original = pdfdoc.PDFImageXObject

        def make(name: str, source: Any = None, mask: Any = None) -> Any:
            return factory(original, name, source, mask)

        pdfdoc.PDFImageXObject = make
        try:
            yield
        finally:
            pdfdoc.PDFImageXObject = original


Picture = Callable[[Any, float, float, float, float], None]  # (image, x, y, width, height)


def draw_graphics(drawing: Any, canvas: Canvas, picture: Picture) -> None:
    """Draw a reportlab drawing on `canvas` at (0, 0) as `renderPDF.draw` does, except each raster image
    in it: `picture(image, x, y, width, height)` draws that (`image`: the Image shape's `path`)."""
    from reportlab.graphics import renderPDF

    class Renderer(renderPDF._PDFRenderer):
        def drawImage(self, image: Any) -> None:  # noqa: N802  (reportlab's name)
            picture(image.path, image.x, image.y, image.width, image.height)

    Renderer().draw(renderPDF.renderScaledDrawing(drawing), canvas, 0, 0)


def image_state(image: Any) -> dict[str, Any]:
    """An encoded image XObject as plain data: its own state and its soft mask's (`smask`, or None)."""
    state = {key: getattr(image, key) for key in IMAGE_STATE}
    state.update({key: getattr(image, key) for key in IMAGE_EXTRA if hasattr(image, key)})
    smask = getattr(image, "_smask", None)
    state["smask"] = None if smask is None else (smask.name, image_state(smask))
    return state


def embedded_bytes(image: Any) -> int:
    """The bytes an image XObject writes into the PDF: its stream and its soft mask's."""
    smask = getattr(image, "_smask", None)
    return len(image.streamContent or b"") + (0 if smask is None else embedded_bytes(smask))


def image_from_state(made: Callable[..., Any], name: str, state: dict[str, Any]) -> Any:
    """The image XObject `image_state` described, named `name`, without decoding anything: `made` is
    reportlab's class (`images_made_by` gives it to its factory), made as its placeholder, then given
    the state."""
    image = made(name, None, mask=None)
    for key, value in state.items():
        if key != "smask":
            setattr(image, key, value)
    if state["smask"] is not None:
        smask_name, smask_state = state["smask"]
        image._smask = image_from_state(made, smask_name, smask_state)
    return image


def flate_encoder() -> Callable[[bytes | str], bytes]:
    """The function reportlab compresses every stream with (its Flate filter's `encode`)."""
    from reportlab.pdfbase import pdfdoc

    encode: Callable[[bytes | str], bytes] = pdfdoc.PDFZCompress.encode
    return encode


def set_flate_encoder(encode: Callable[[bytes | str], bytes]) -> None:
    """Compress every stream with `encode` from now on (it must give zlib.compress's very bytes)."""
    from reportlab.pdfbase import pdfdoc

    pdfdoc.PDFZCompress.encode = encode


def add_catalog_entry(canvas: Canvas, key: str, value: Any) -> None:
    """Write `/key value` into the document catalog of `canvas` (reportlab writes only its own keys)."""
    catalog = canvas._doc.Catalog
    catalog.__NoDefault__ = [*catalog.__NoDefault__, key]
    setattr(catalog, key, value)


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
    if not callable(getattr(ttfonts, "SUBSETN", None)):
        problems.append("reportlab's ttfonts has no SUBSETN(n) naming font subsets")
    catalog = getattr(doc, "Catalog", None)
    if not isinstance(getattr(catalog, "__NoDefault__", None), list):
        problems.append("reportlab's PDFCatalog has no __NoDefault__ list of the keys it writes")
    from reportlab.pdfbase import pdfdoc

    placeholder = pdfdoc.PDFImageXObject("probe")
    missing = [key for key in IMAGE_STATE if not hasattr(placeholder, key)]
    if missing:
        problems.append(f"reportlab's PDFImageXObject no longer has {', '.join(missing)}")
    from reportlab.graphics import renderPDF

    renderer = getattr(renderPDF, "_PDFRenderer", None)
    if not callable(getattr(renderer, "drawImage", None)) or not callable(getattr(renderer, "draw", None)):
        problems.append("reportlab's renderPDF has no _PDFRenderer with draw and drawImage")
    if not callable(getattr(pdfdoc.PDFZCompress, "encode", None)):
        problems.append("reportlab's pdfdoc has no PDFZCompress.encode (the Flate filter)")
    ended: list[bool] = []
    end_pages_with(canvas, lambda: ended.append(True))
    canvas.showPage()
    if ended != [True]:
        problems.append("reportlab Canvas.showPage can no longer be replaced on the instance")
    return problems


def add_info_entry(canvas: Canvas, key: str, value: Any) -> None:
    """Write `/key value` into the document information dictionary too (reportlab writes a fixed set)."""
    info = canvas._doc.info
    own = info.format

    def format_with(document: Any) -> Any:
        from reportlab.pdfbase.pdfdoc import PDFDictionary

        written = own(document)  # b"<< ... >>": reportlab's entries, then ours before the closing >>
        extra = PDFDictionary({key: value}).format(document)
        return written.rstrip()[:-2] + extra.strip()[2:]

    info.format = format_with


def creation_date(canvas: Canvas) -> str:
    """The document's creation (and modification) date as XMP writes it, e.g. 2000-01-01T00:00:00+00:00."""
    stamp = canvas._doc._timeStamp
    year, month, day, hour, minute, second = stamp.YMDhms
    zone = f"{stamp.dhh:+03d}:{stamp.dmm:02d}"
    return f"{year:04d}-{month:02d}-{day:02d}T{hour:02d}:{minute:02d}:{second:02d}{zone}"


def add_colour_space_everywhere(canvas: Canvas, reference: str, resource: str) -> None:
    """Name the document object `reference` as colour space `resource` in every page's and form's
    resources (as `DefaultRGB`, it makes every DeviceRGB colour and image ICC-based).

    reportlab writes a page's colour spaces but never a form's: a form gets its resources here, made
    as reportlab makes them (its fonts, procedure sets and XObjects) plus the colour spaces."""
    from reportlab.pdfbase.pdfdoc import PDFFormXObject, PDFResourceDictionary

    own = canvas._setColorSpace

    def set_colour_spaces(obj: Any) -> None:
        canvas._colorsUsed[reference] = resource
        own(obj)
        if not isinstance(obj, PDFFormXObject):
            return
        form_format = obj.format

        def format_form(document: Any) -> Any:
            if not obj.Resources:
                resources = PDFResourceDictionary()
                resources.basicFonts()
                resources.allProcs()
                if obj.XObjects:
                    resources.XObject = obj.XObjects
                resources.setColorSpace(obj._colorsUsed)
                obj.Resources = resources
            return form_format(document)

        obj.format = format_form

    canvas._setColorSpace = set_colour_spaces
