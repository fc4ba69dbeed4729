"""Writing the document as one PDF: reportlab in invariant mode (no dates, fixed ID), so the same
input gives byte-identical files; written atomically, so a failure leaves any old file as it was.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TypeVar

from reportlab import rl_config
from reportlab.pdfgen.canvas import Canvas as RLCanvas

from pnpforge import __version__
from pnpforge.files import write_atomic
from pnpforge.internals import reportlab_private
from pnpforge.output.canvas import Canvas
from pnpforge.output.embedfonts import embedded
from pnpforge.output.encodecache import remember_streams
from pnpforge.output.info import Metadata
from pnpforge.output.page import PageFrame
from pnpforge.output.pdf_canvas import PdfCanvas

T = TypeVar("T")


def render(
    pages: Sequence[T],
    frame: PageFrame,
    draw: Callable[[Canvas, T], None],
    title: str | Metadata,
    progress: Callable[[int], None] | None = None,
) -> bytes:
    """Draw every page with `draw` and return the PDF's bytes (nothing is written here)."""
    buffer = io.BytesIO()
    remember_streams()  # a page drawn as before (watch) is not compressed again
    with binary_streams():
        rl = new_document(buffer, (frame.width, frame.height), title)
        canvas = PdfCanvas(rl, frame.height)
        for number, page in enumerate(pages):
            if number:
                canvas.show_page()
            draw(canvas, page)
            if progress is not None:
                progress(1)
        rl.showPage()
        rl.save()
    return buffer.getvalue()


@contextmanager
def binary_streams() -> Iterator[None]:
    """Binary page streams while drawing: ASCII85 costs a quarter of the build time and 25 % of the size."""
    saved = rl_config.useA85
    rl_config.useA85 = 0
    try:
        yield
    finally:
        rl_config.useA85 = saved


def new_document(
    buffer: io.BytesIO,
    size: tuple[float, float],
    title: str | Metadata,
    font: str | None = None,
    pdf_version: tuple[int, int] | None = None,
) -> RLCanvas:
    """A reportlab canvas in invariant mode (no dates, fixed ID) with pnpforge as creator and producer.

    `title` may carry the author and subject too (else reportlab's placeholders stay). `font` replaces
    Helvetica (its embedded twin) as the font reportlab names at the top of every page."""
    initial = font or embedded("Helvetica")
    rl = RLCanvas(
        buffer, pagesize=size, invariant=1, pageCompression=1, initialFontName=initial, pdfVersion=pdf_version
    )
    info = title if isinstance(title, Metadata) else Metadata(title)
    rl.setTitle(info.title)
    if isinstance(title, Metadata):  # a build's document: no placeholder author or subject
        rl.setAuthor(info.author)
        rl.setSubject(info.subject)
    rl.setCreator(f"pnpforge {__version__}")
    rl.setProducer(f"pnpforge {__version__}")
    unique_subset_tags(rl)
    return rl


def _tag(number: int) -> bytes:
    """A font subset tag: six capitals, `number` in base 26 (AAAAAA, AAAAAB, ...)."""
    letters = []
    for _ in range(6):
        number, digit = divmod(number, 26)
        letters.append(chr(ord("A") + digit))
    return "".join(reversed(letters)).encode("ascii")


def unique_subset_tags(rl: RLCanvas) -> None:
    """Give every embedded font subset of `rl`'s document its own tag when it is saved.

    reportlab tags each font's first subset AAAAAA+, so three fonts share it; preflight tools and PDF/X
    want a tag per subset. Tags are counted in the order fonts are written: same input, same bytes."""
    save = rl.save

    def tagged_save() -> None:
        count = iter(range(1 << 30))  # n is counted per font by reportlab: count across the file
        with reportlab_private.subset_tags_by(lambda n: _tag(next(count))):
            save()

    rl.save = tagged_save


def write(path: Path, data: bytes) -> None:
    write_atomic(path, data)
