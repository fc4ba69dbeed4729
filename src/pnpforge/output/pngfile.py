"""A PNG writer for rendered print art: colour-managed, and quick on flat colour.

Pillow tries five row filters per row before compressing, which costs three quarters of an exported
card's time; on flat print art (large even areas, antialiased edges) unfiltered rows with zlib's
fastest level come out as small. The file carries pHYs (the dpi it was rendered at) and the sRGB
profile (iCCP), as colour.py makes it.
"""

from __future__ import annotations

import io
import struct
import zlib
from collections.abc import Iterable
from functools import cache
from typing import TYPE_CHECKING, Any, BinaryIO, TypeAlias

from pnpforge.output.colour import srgb_profile

if TYPE_CHECKING:  # ctypes names a band's type only: a PDF-only build never loads it (start-up speed)
    import ctypes

SIGNATURE = b"\x89PNG\r\n\x1a\n"
LEVEL = 1  # zlib's fastest: unfiltered flat art compresses within a few per cent of level 6
INCH = 0.0254  # metres


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


@cache
def _profile_chunk() -> bytes:
    return _chunk(b"iCCP", b"sRGB\x00\x00" + zlib.compress(srgb_profile(), 9))


# 8-bit RGB pixels, their rows, the stride
Band: TypeAlias = "tuple[bytes | memoryview | ctypes.Array[Any], int, int]"


def rgb_png(bands: Iterable[Band], width: int, height: int, dpi: float) -> bytes:
    """PNG bytes of 8-bit RGB rows, given as bands from the top (write_rgb_png)."""
    buffer = io.BytesIO()
    write_rgb_png(buffer, bands, width, height, dpi)
    return buffer.getvalue()


def write_rgb_png(out: BinaryIO, bands: Iterable[Band], width: int, height: int, dpi: float) -> None:
    """Write a PNG of 8-bit RGB rows to `out`, given as bands from the top (each: its pixels, its number
    of rows, and the bytes from one row's start to the next), `height` rows in all, each `width` * 3
    long. Each band's compressed rows are one IDAT chunk, written before the next band is drawn: no
    copy of the image, nor of the PNG, is held."""
    per_metre = round(dpi / INCH)
    out.write(SIGNATURE)
    out.write(_chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)))
    out.write(_chunk(b"pHYs", struct.pack(">IIB", per_metre, per_metre, 1)))
    out.write(_profile_chunk())
    row = width * 3
    compressor = zlib.compressobj(LEVEL)
    for pixels, rows, stride in bands:
        view = memoryview(pixels)  # no copy: sliced straight from the bitmap, a row at a time
        packed = b"".join(
            compressor.compress(b"\x00" + view[y * stride : y * stride + row]) for y in range(rows)
        )
        if packed:
            out.write(_chunk(b"IDAT", packed))
    out.write(_chunk(b"IDAT", compressor.flush()))
    out.write(_chunk(b"IEND", b""))
