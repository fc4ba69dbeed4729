"""A PNG writer for rendered print art: colour-managed, and quick on flat colour.

Pillow tries five row filters per row before compressing, which costs three quarters of an exported
card's time; on flat print art (large even areas, antialiased edges) unfiltered rows with zlib's
fastest level come out as small. The file carries pHYs (the dpi it was rendered at) and the sRGB
profile (iCCP), as colour.py makes it.
"""

from __future__ import annotations

import struct
import zlib
from functools import cache

from pnpforge.output.colour import srgb_profile

SIGNATURE = b"\x89PNG\r\n\x1a\n"
LEVEL = 1  # zlib's fastest: unfiltered flat art compresses within a few per cent of level 6
INCH = 0.0254  # metres


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


@cache
def _profile_chunk() -> bytes:
    return _chunk(b"iCCP", b"sRGB\x00\x00" + zlib.compress(srgb_profile(), 9))


def rgb_png(pixels: bytes | memoryview, width: int, height: int, stride: int, dpi: float) -> bytes:
    """PNG bytes of 8-bit RGB rows (`stride` bytes apart, each `width` * 3 long)."""
    view = memoryview(bytes(pixels))  # a plain copy (1 ms) slices faster than a ctypes buffer
    row = width * 3
    compressor = zlib.compressobj(LEVEL)
    parts = []  # row by row: no second copy of the image in memory (export workers are sized by it)
    for y in range(height):
        parts.append(compressor.compress(b"\x00" + view[y * stride : y * stride + row]))
    parts.append(compressor.flush())
    per_metre = round(dpi / INCH)
    return b"".join(
        (
            SIGNATURE,
            _chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)),
            _chunk(b"pHYs", struct.pack(">IIB", per_metre, per_metre, 1)),
            _profile_chunk(),
            _chunk(b"IDAT", b"".join(parts)),
            _chunk(b"IEND", b""),
        )
    )
