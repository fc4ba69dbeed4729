"""Colour management of the files written: the sRGB profile images and print-shop PDFs carry.

pnpforge draws in sRGB. A PNG tagged with the profile (iCCP) and a PDF whose OutputIntent holds it tell
a shop's RIP which RGB is meant, instead of leaving it to guess.
"""

from __future__ import annotations

from functools import cache

SRGB_NAME = "sRGB IEC61966-2.1"
_DATE = slice(24, 36)  # the header's creation date: zeroed, so the same input gives the same bytes


@cache
def srgb_profile() -> bytes:
    """An sRGB ICC profile (made by LittleCMS through Pillow), the same bytes on every run."""
    from PIL import ImageCms

    data = bytearray(ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes())
    data[_DATE] = bytes(_DATE.stop - _DATE.start)
    return bytes(data)


def png_options(dpi: float) -> dict[str, object]:
    """Pillow's PNG save options for a colour-managed image of `dpi` (pHYs and iCCP chunks)."""
    return {"dpi": (dpi, dpi), "icc_profile": srgb_profile()}
