"""Values in a face template: colours (and inks that read on them) and lengths; FaceError for a bad one."""

from __future__ import annotations

import re
from functools import lru_cache

from reportlab.lib import colors as rl_colors

from pnpforge.components.model import not_a_colour
from pnpforge.i18n import N_
from pnpforge.output.canvas import RGB
from pnpforge.saying import reason
from pnpforge.units import parse_length, parse_percent

FLOOR = N_(" even at the {size} pt floor")  # a text shrunk as far as it may go, as a fit note says it


class FaceError(ValueError):
    """Something in a face template cannot be drawn for this piece (message says what is expected)."""


# colours -----------------------------------------------------------------------------------------
@lru_cache(maxsize=1024)
def _hex_rgb(text: str) -> RGB:
    """`#rrggbb` as 0..1 floats."""
    return (int(text[1:3], 16) / 255.0, int(text[3:5], 16) / 255.0, int(text[5:7], 16) / 255.0)


def parse_colour(value: str | None) -> RGB | None:
    """'red', '#f00', '#ff0000' -> (r, g, b) in 0..1; None or 'none' -> None (no paint)."""
    if value is None:
        return None
    return _colour(value)


@lru_cache(maxsize=4096)  # a deck names few colours, each many times: every card's paints resolved again
def _colour(value: str) -> RGB | None:
    text = value.strip()
    if text.lower() in ("none", "transparent", ""):
        return None
    if re.fullmatch(r"#[0-9a-fA-F]{3}", text):
        text = "#" + "".join(ch * 2 for ch in text[1:])
    if re.fullmatch(r"#[0-9a-fA-F]{6}", text):
        return _hex_rgb(text)
    named = getattr(rl_colors, text.lower(), None)
    if isinstance(named, rl_colors.Color):
        return (float(named.red), float(named.green), float(named.blue))
    raise FaceError(not_a_colour(value))


def _luminance(rgb: RGB) -> float:
    return 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2]


def contrast(rgb: RGB | None) -> RGB:
    """Black or white, whichever reads on `rgb`."""
    return (1.0, 1.0, 1.0) if rgb is not None and _luminance(rgb) < 0.45 else (0.0, 0.0, 0.0)


def _mix(a: RGB, b: RGB, t: float) -> RGB:
    return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t)


def pattern_ink(fill_rgb: RGB | None) -> RGB:
    """A pattern colour that shows on `fill_rgb` without hiding it: a darker or lighter shade."""
    base = fill_rgb or (1.0, 1.0, 1.0)
    return _mix(base, (1.0, 1.0, 1.0), 0.55) if _luminance(base) < 0.45 else _mix(base, (0.0, 0.0, 0.0), 0.45)


# lengths ------------------------------------------------------------------------------------------
def length(value: object, reference: float = 0.0) -> float:
    """A length in points; "n%" is a percentage of `reference` (the trim box side it runs along)."""
    try:
        return _length(value, reference)
    except TypeError:  # an unhashable value cannot be cached; it is no length either
        return _parse(value, reference)


@lru_cache(maxsize=4096, typed=True)
def _length(value: str | float | int, reference: float) -> float:
    return _parse(value, reference)


def _parse(value: object, reference: float) -> float:
    try:
        if isinstance(value, str) and value.strip().endswith("%"):
            return parse_percent(value) * reference / 100.0
        return parse_length(value)  # type: ignore[arg-type]
    except (ValueError, TypeError) as exc:
        raise FaceError(reason(exc)) from None
