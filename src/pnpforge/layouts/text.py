"""Text in a box: line breaking (spaces, between CJK characters, kinsoku), shrink-to-fit, alignment.

Pure functions: they measure with reportlab's font metrics (through the font registry, run by run)
and return lines with positions; faces/ draws them. reportlab's widths are plain sums of glyph
advances (no kerning), so each breakable unit is measured once at size 1 and scaled.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from reportlab.pdfbase import pdfmetrics

from pnpforge.fonts import FontRegistry, is_cjk

MIN_SIZE = 6.0  # points: the legibility floor; no text is set smaller, shrink-to-fit stops here
EPSILON = 1e-6
# Kinsoku shori: characters a line may not start with, and ones it may not end with.
NO_START = frozenset(
    "、。，．・：；？！゛゜ヽヾゝゞ々〻ー〜～…‥」』）〕］｝〉》】〙〗｠»"
    "ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶㇰㇱㇲㇳㇴㇵㇶㇷㇸㇹㇺㇻㇼㇽㇾㇿ"
    ",.:;!?)]}%'\"‐–—"
)
NO_END = frozenset("「『（〔［｛〈《【〘〖｟«([{")

Align = Literal["left", "center", "right"]
VAlign = Literal["top", "middle", "bottom"]
Fit = Literal["shrink", "wrap", "none"]


@dataclass(frozen=True)
class Run:
    x: float  # left end, in the same coordinates as the box
    text: str
    font: str  # reportlab font name


@dataclass(frozen=True)
class Line:
    x: float
    baseline: float
    width: float
    text: str
    runs: tuple[Run, ...]


@dataclass(frozen=True)
class TextLayout:
    size: float
    lines: tuple[Line, ...]
    width: float  # widest line
    height: float  # from the first line's ascent to the last line's descent
    fits: bool


def break_allowed(before: str, after: str) -> bool:
    """May a line end after `before` and the next start with `after`?"""
    if before == " ":
        return after != " "
    if after == " ":
        return False
    if after in NO_START or before in NO_END:
        return False
    return is_cjk(before) or is_cjk(after)


def units(paragraph: str) -> list[str]:
    """The paragraph cut at every break opportunity; spaces stay at the end of the unit before them."""
    out: list[str] = []
    start = 0
    for i in range(1, len(paragraph)):
        if break_allowed(paragraph[i - 1], paragraph[i]):
            out.append(paragraph[start:i])
            start = i
    out.append(paragraph[start:])
    return out


class _Measure:
    """Widths at size 1 of text in one font (with CJK fallback), cached per string."""

    def __init__(self, fonts: FontRegistry, font: str) -> None:
        self.fonts = fonts
        self.font = font
        self.cache: dict[str, float] = {}

    def __call__(self, text: str) -> float:
        width = self.cache.get(text)
        if width is None:
            width = self.fonts.width(text, self.font, 1.0)
            self.cache[text] = width
        return width


def _chars(unit: str, limit: float, measure: _Measure) -> list[str]:
    """Break one over-long unit between characters (last resort: a word longer than the box)."""
    pieces: list[str] = []
    current = ""
    for char in unit:
        if current and measure((current + char).rstrip(" ")) > limit + EPSILON:
            pieces.append(current)
            current = char
        else:
            current += char
    if current:
        pieces.append(current)
    return pieces


def wrap(text: str, limit: float, measure: _Measure, *, force: bool) -> list[str]:
    """Greedy line filling at size 1 within `limit`; `force` breaks units wider than a line."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        if measure(paragraph.rstrip(" ")) <= limit:  # fits whole: greedy filling would not break it
            lines.append(paragraph.rstrip(" "))
            continue
        line = ""
        for unit in units(paragraph):
            parts = _chars(unit, limit, measure) if force and measure(unit.rstrip(" ")) > limit else [unit]
            for part in parts:
                candidate = line + part
                if line and measure(candidate.rstrip(" ")) > limit + EPSILON:
                    lines.append(line.rstrip(" "))
                    line = part.lstrip(" ")
                else:
                    line = candidate
        lines.append(line.rstrip(" "))
    return lines


def _metrics(fonts: FontRegistry, lines: Sequence[str], font: str) -> tuple[float, float]:
    """(ascent, descent) at size 1: the largest of the fonts the text actually uses."""
    names = {name for line in lines for _, name in fonts.runs(line, font)} or {font}
    if len(names) == 1:
        return _extent(names.pop())
    extents = [_extent(name) for name in names]
    return max(a for a, _ in extents), max(d for _, d in extents)


@lru_cache(maxsize=64)
def _extent(name: str) -> tuple[float, float]:
    """(ascent, descent) of one registered font at size 1 (a registered font's metrics never change)."""
    return pdfmetrics.getAscent(name) / 1000.0, -pdfmetrics.getDescent(name) / 1000.0


def _fits(
    lines: Sequence[str],
    size: float,
    box: tuple[float, float],
    measure: _Measure,
    fonts: FontRegistry,
    leading: float,
) -> bool:
    w, h = box
    ascent, descent = _metrics(fonts, lines, measure.font)
    height = size * (ascent + descent + leading * (len(lines) - 1))
    return height <= h + EPSILON and all(measure(line) * size <= w + EPSILON for line in lines)


def layout_text(
    text: str,
    x: float,
    y: float,
    w: float,
    h: float,
    *,
    fonts: FontRegistry,
    font: str,
    size: float,
    align: Align = "center",
    valign: VAlign = "middle",
    fit: Fit = "shrink",
    leading: float = 1.2,
    min_size: float = MIN_SIZE,
) -> TextLayout:
    """Lay `text` out in the box (x, y, w, h), y down. `font` is a registered reportlab font name."""
    # keyword arguments in any order would make different cache keys: the cached core takes them by position
    return _layout(text, x, y, w, h, fonts, font, size, align, valign, fit, leading, min_size)


@lru_cache(maxsize=4096)
def _layout(
    text: str,
    x: float,
    y: float,
    w: float,
    h: float,
    fonts: FontRegistry,
    font: str,
    size: float,
    align: Align,
    valign: VAlign,
    fit: Fit,
    leading: float,
    min_size: float,
) -> TextLayout:
    text = text.replace("\r\n", "\n").replace("\\n", "\n")
    measure = _Measure(fonts, font)
    size = max(size, min_size)  # a size below the floor is raised to it

    def lines_at(s: float, force: bool) -> list[str]:
        if fit == "none":
            return text.split("\n")
        return wrap(text, w / s if s > 0 else 0.0, measure, force=force)

    lines = lines_at(size, force=fit == "wrap")
    fits = _fits(lines, size, (w, h), measure, fonts, leading)
    if fit == "shrink" and not fits and size > min_size:
        low, high, best = min_size, size, None
        for _ in range(14):  # binary search to ~0.01 pt; the largest size seen to fit wins
            mid = (low + high) / 2
            if _fits(lines_at(mid, False), mid, (w, h), measure, fonts, leading):
                best, low = mid, mid
            else:
                high = mid
        if best is None and _fits(lines_at(min_size, False), min_size, (w, h), measure, fonts, leading):
            best = min_size
        if best is not None:
            size = best
            lines = lines_at(size, False)
            fits = True
        else:
            size = min_size
            lines = lines_at(size, True)
            fits = _fits(lines, size, (w, h), measure, fonts, leading)
    return _place(lines, x, y, w, h, size, fonts, measure, align, valign, leading, fits)


def _place(
    lines: Sequence[str],
    x: float,
    y: float,
    w: float,
    h: float,
    size: float,
    fonts: FontRegistry,
    measure: _Measure,
    align: Align,
    valign: VAlign,
    leading: float,
    fits: bool,
) -> TextLayout:
    ascent, descent = _metrics(fonts, lines, measure.font)
    height = size * (ascent + descent + leading * (len(lines) - 1))
    top = y if valign == "top" else y + h - height if valign == "bottom" else y + (h - height) / 2
    placed: list[Line] = []
    widest = 0.0
    for index, line in enumerate(lines):
        width = measure(line) * size
        widest = max(widest, width)
        left = x if align == "left" else x + w - width if align == "right" else x + (w - width) / 2
        segments = fonts.runs(line, measure.font)
        runs: list[Run] = []
        cursor = left
        for number, (segment, name) in enumerate(segments, start=1):
            runs.append(Run(cursor, segment, name))
            if number < len(segments):  # where the next run starts; nothing follows the last one
                cursor += pdfmetrics.stringWidth(segment, name, size)
        baseline = top + size * (ascent + leading * index)
        placed.append(Line(left, baseline, width, line, tuple(runs)))
    return TextLayout(size, tuple(placed), widest, height, fits)
