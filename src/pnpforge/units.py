"""Physical lengths: "63mm", "2.5in", "12pt", "1cm" or a bare number (millimetres) -> PDF points."""

from __future__ import annotations

import math
import re

from pnpforge import limits
from pnpforge.i18n import N_
from pnpforge.phrase import Phrase

POINTS_PER = {"pt": 1.0, "in": 72.0, "mm": 72.0 / 25.4, "cm": 72.0 / 2.54}
_LENGTH = re.compile(r"^\s*(-?\d+(?:\.\d+)?)\s*(mm|cm|in|pt)?\s*$")


class LengthRangeError(ValueError):
    """A readable length that is infinite, not a number, or beyond limits.LENGTH_MM."""


def bounded_points(points: float, shown: object) -> float:
    """`points` if finite and at most limits.LENGTH_MM either way; else LengthRangeError."""
    if not math.isfinite(points) or abs(points) > limits.LENGTH_MM * POINTS_PER["mm"]:
        raise LengthRangeError(
            Phrase(
                N_("{value} is out of range (expected a length of at most {most} mm)"),
                value=repr(shown),
                most=f"{limits.LENGTH_MM:g}",
            )
        )
    return points


def parse_percent(value: str) -> float:
    """ "40%" -> 40.0; ValueError when unreadable, infinite or beyond ±limits.PERCENT."""
    number = float(value.strip()[:-1])
    if not math.isfinite(number) or abs(number) > limits.PERCENT:
        raise LengthRangeError(
            Phrase(
                N_("{value} is out of range (expected at most {most}%)"),
                value=repr(value),
                most=f"{limits.PERCENT:g}",
            )
        )
    return number


def parse_length(value: str | float | int) -> float:
    """`value` in points; a bare number means millimetres. ValueError when unreadable or out of range."""
    if isinstance(value, bool):
        raise ValueError(Phrase(N_("{value} is not a length"), value=repr(value)))
    if isinstance(value, int | float):
        return bounded_points(float(value) * POINTS_PER["mm"], value)
    match = _LENGTH.match(value)
    if not match:
        raise ValueError(
            Phrase(N_("{value} is not a length (expected e.g. 63mm, 2.5in, 12pt)"), value=repr(value))
        )
    return bounded_points(float(match.group(1)) * POINTS_PER[match.group(2) or "mm"], value)


def mm(value: float) -> float:
    """Millimetres to points."""
    return value * POINTS_PER["mm"]


def to_mm(points: float) -> float:
    """Points to millimetres."""
    return points / POINTS_PER["mm"]


def parse_size(value: str) -> tuple[float, float]:
    """ "63x88mm" or "8.5inx11in" or "63mm x 88mm" -> (width, height) in points."""
    text = value.strip().lower().replace("×", "x")
    match = re.match(r"^(-?[\d.]+)\s*(mm|cm|in|pt)?\s*x\s*(-?[\d.]+)\s*(mm|cm|in|pt)?$", text)
    if not match:
        raise ValueError(Phrase(N_("{value} is not a size (expected WxH, e.g. 63x88mm)"), value=repr(value)))
    unit = match.group(4) or match.group(2) or "mm"
    width = parse_length(match.group(1) + (match.group(2) or unit))
    height = parse_length(match.group(3) + unit)
    if width <= 0 or height <= 0:
        raise ValueError(Phrase(N_("{value} must have a positive width and height"), value=repr(value)))
    return width, height
