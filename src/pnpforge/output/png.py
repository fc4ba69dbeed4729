"""PNG previews: each page of the finished PDF rendered by pdfium at a chosen DPI.

Rendering the PDF itself (rather than drawing again) shows exactly what will be printed. A page is
drawn onto an RGB bitmap of exactly its size and its rows compressed straight from it (pngfile.rgb_png):
about 3 bytes a pixel at the peak, the bitmap alone, which `limits.DECODED_PIXELS` is sized by. Pages
come one at a time, so a caller can write each before the next is drawn.
"""

from __future__ import annotations

import io
import math
from collections.abc import Callable, Iterable, Iterator
from functools import partial
from typing import Any, BinaryIO

from pnpforge.output.pngfile import Band, write_rgb_png

BAND_PIXELS = 8_000_000  # pixels drawn at once: a larger page is drawn in bands of rows (24 MB each)


def page_name(game_id: str, number: int, suffix: str) -> str:
    """`<id>-p001.png` for page 1: zero-padded so files sort in page order."""
    return f"{game_id}-p{number:03d}.{suffix}"


def page_png(document: Any, index: int, width: int, height: int, dpi: float) -> bytes:
    """Page `index` of an open pdfium document as PNG bytes (write_page)."""
    buffer = io.BytesIO()
    write_page(buffer, document, index, width, height, dpi)
    return buffer.getvalue()


def write_page(out: BinaryIO, document: Any, index: int, width: int, height: int, dpi: float) -> None:
    """Write page `index` of an open pdfium document, drawn onto white, exactly `width` × `height` px,
    to `out` as a PNG tagged with `dpi` and the sRGB profile. A large page is drawn in bands of rows
    (BAND_PIXELS each), every band the same page placed higher, and each band compressed and written
    before the next is drawn: a page holds a band's pixels, never the whole page's, nor its PNG."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as pdfium_c

    page = document[index]
    rows = max(1, min(height, BAND_PIXELS // width))
    bitmap = pdfium.PdfBitmap.new_native(width, rows, pdfium_c.FPDFBitmap_BGR)
    flags = pdfium_c.FPDF_ANNOT | pdfium_c.FPDF_REVERSE_BYTE_ORDER  # RGB order, as PNG stores it

    def bands() -> Iterator[Band]:
        for top in range(0, height, rows):
            bitmap.fill_rect((255, 255, 255, 255), 0, 0, width, rows)
            pdfium_c.FPDF_RenderPageBitmap(bitmap.raw, page.raw, 0, -top, width, height, 0, flags)
            yield bitmap.buffer, min(rows, height - top), bitmap.stride

    try:
        write_rgb_png(out, bands(), width, height, dpi)
    finally:
        bitmap.close()
        page.close()


def size_at(width_pt: float, height_pt: float, dpi: float) -> tuple[int, int]:
    """A page's pixel size at `dpi`: each side rounded up, as pdfium's own render sizes it."""
    scale = dpi / 72.0
    return math.ceil(width_pt * scale), math.ceil(height_pt * scale)


def writers(
    pdf_bytes: bytes, dpi: int, pages: Iterable[int] | None = None
) -> Iterator[Callable[[BinaryIO], None]]:
    """What writes each page (0-based indexes; all pages when None) at `dpi` as a PNG file, one page
    at a time: each is to be called before the next is asked for."""
    import pypdfium2 as pdfium  # imported here: page_name serves PDF-only builds too

    document = pdfium.PdfDocument(pdf_bytes)
    try:
        for index in range(len(document)) if pages is None else pages:
            width_pt, height_pt = document.get_page_size(index)
            width, height = size_at(width_pt, height_pt, dpi)
            yield partial(write_page, document=document, index=index, width=width, height=height, dpi=dpi)
    finally:
        document.close()


def render(pdf_bytes: bytes, dpi: int, pages: Iterable[int] | None = None) -> Iterator[bytes]:
    """PNG bytes of each page (0-based indexes; all pages when None) at `dpi`, one page at a time."""
    for write in writers(pdf_bytes, dpi, pages):
        buffer = io.BytesIO()
        write(buffer)
        yield buffer.getvalue()
