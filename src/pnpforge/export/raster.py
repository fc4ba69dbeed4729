"""Rasterising export pages with pdfium to PNG files of exact pixel sizes, on every core.

Each page is rendered onto a bitmap of the asked size (so 69 × 94 mm at 300 dpi is 815 × 1110 px,
never a pixel more from rounding up), encoded by Pillow and written atomically. Large batches are split
over a process pool (pdfium is not thread-safe); each worker opens the PDF once.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, replace
from functools import partial
from multiprocessing import get_context
from pathlib import Path
from typing import Any, BinaryIO

from pnpforge import limits
from pnpforge.files import destination, write_all_atomic
from pnpforge.output import png

POOL_FROM = 20_000_000  # px: less renders in this process (about 25 poker cards at 300 dpi)
TASKS_PER_WORKER = 6  # tasks of about equal pixels: balanced workers, few round trips
BYTES_PER_PIXEL = 3  # a worker's page bitmap, per pixel (RGB), at most a band of png.BAND_PIXELS
WORKER_BYTES = 50_000_000  # a worker's interpreter, pdfium and Pillow before any page (measured: ~49 MB)
DECODED_IMAGE = 4  # bytes a pixel of an image pdfium decodes to draw a page (BGRA)

_document: Any = None  # the worker's open PDF


@dataclass(frozen=True)
class Shot:
    """Page `page` (0-based) rendered to `width` × `height` px and written to `path`, tagged with
    `dpi` (the resolution it was rendered at) and the sRGB profile."""

    page: int
    width: int
    height: int
    path: Path
    dpi: float


def png_writer(document: Any, shot: Shot) -> Callable[[BinaryIO], None]:
    """What writes the shot's page, drawn onto white at exactly the shot's size, as a PNG file."""
    return partial(
        png.write_page, document=document, index=shot.page, width=shot.width, height=shot.height, dpi=shot.dpi
    )


def _open(pdf: bytes) -> None:
    global _document
    import pypdfium2 as pdfium

    _document = pdfium.PdfDocument(pdf)


def _work(shots: Sequence[Shot]) -> int:
    write_all_atomic((shot.path, png_writer(_document, shot)) for shot in shots)
    return len(shots)


def workers(asked: int | None = None) -> int:
    """How many processes rasterise: `asked`, else every core this process may use."""
    if asked:
        return asked
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def memory_workers(shots: Sequence[Shot], pdf: bytes) -> int:
    """Workers that fit `limits.IMAGE_MEMORY` together, whatever the cores or --jobs: each holds its
    interpreter and pdfium, a copy of the PDF, the bitmap of its largest page (a band at most) and,
    when the PDF has images, one decoded (at most `limits.IMAGE_PIXELS`)."""
    largest = max(shot.width * shot.height for shot in shots)
    images = limits.IMAGE_PIXELS * DECODED_IMAGE if b"/Subtype /Image" in pdf else 0
    each = WORKER_BYTES + len(pdf) + min(largest, png.BAND_PIXELS) * BYTES_PER_PIXEL + images
    return max(1, limits.IMAGE_MEMORY // each)


def _chunks(shots: Sequence[Shot], count: int) -> list[list[Shot]]:
    """Consecutive runs of shots with about equal pixels each, `count` runs at most."""
    share = sum(shot.width * shot.height for shot in shots) / count
    chunks: list[list[Shot]] = [[]]
    filled = 0.0
    for shot in shots:
        if chunks[-1] and filled >= share:
            chunks.append([])
            filled = 0.0
        chunks[-1].append(shot)
        filled += shot.width * shot.height
    return chunks


def write_pngs(pdf: bytes, shots: Sequence[Shot], processes: int | None = None) -> None:
    """Render and write every shot: over a process pool when there is much to render (or when
    `processes` > 1 is asked), else in this process."""
    if not shots:
        return
    count = min(workers(processes), len(shots), memory_workers(shots, pdf))
    pixels_ = sum(shot.width * shot.height for shot in shots)
    if count < 2 or (processes is None and pixels_ < POOL_FROM):
        import pypdfium2 as pdfium

        document = pdfium.PdfDocument(pdf)
        try:
            write_all_atomic((shot.path, png_writer(document, shot)) for shot in shots)
        finally:
            document.close()
        return
    # the workers are other processes: they are given the staged paths (files.staged) to write
    shots = [replace(shot, path=destination(shot.path)) for shot in shots]
    chunks = _chunks(shots, count * TASKS_PER_WORKER)
    context = get_context("spawn")  # a fresh pdfium per worker: a forked one may share the parent's state
    with ProcessPoolExecutor(count, mp_context=context, initializer=_open, initargs=(pdf,)) as pool:
        for _ in pool.map(_work, chunks):
            pass
