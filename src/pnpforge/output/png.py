"""PNG previews: each page of the finished PDF rendered by pdfium at a chosen DPI.

Rendering the PDF itself (rather than drawing again) shows exactly what will be printed. Pages are
rendered to bytes first; the caller writes them once everything has succeeded.
"""

from __future__ import annotations

import io
from collections.abc import Iterable

from pnpforge.output.colour import png_options


def page_name(game_id: str, number: int, suffix: str) -> str:
    """`<id>-p001.png` for page 1: zero-padded so files sort in page order."""
    return f"{game_id}-p{number:03d}.{suffix}"


def render(pdf_bytes: bytes, dpi: int, pages: Iterable[int] | None = None) -> list[bytes]:
    """PNG bytes of each page (0-based indexes; all pages when None) at `dpi`."""
    import pypdfium2 as pdfium  # imported here: page_name serves PDF-only builds too

    document = pdfium.PdfDocument(pdf_bytes)
    images: list[bytes] = []
    try:
        for index in range(len(document)) if pages is None else pages:
            page = document[index]
            bitmap = page.render(scale=dpi / 72.0)
            buffer = io.BytesIO()
            bitmap.to_pil().save(buffer, format="PNG", **png_options(dpi))
            images.append(buffer.getvalue())
            bitmap.close()
            page.close()
    finally:
        document.close()
    return images
