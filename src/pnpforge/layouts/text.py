"""Text in a box: line breaking (spaces, between CJK characters, kinsoku), shrink-to-fit, alignment.

Pure functions: they measure with reportlab's font metrics (through the font registry, run by run)
and return lines with positions; `draw_layout` puts them on a Canvas, each run in its font.
reportlab's widths are plain sums of glyph advances (no kerning), so each breakable unit is measured
once at size 1 and scaled.

The one layout both draws and judges: `TextLayout.fits`, `.split` (a word broken mid-word) and
`.overflow()` say what the drawn text does differently from what was asked, so a fit warning is
always about the very lines printed. Words are never broken while a smaller size (down to the
floor) keeps them whole; a katakana word of up to KATAKANA_WORD characters is one word.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from reportlab.pdfbase import pdfmetrics

from pnpforge.fonts import FontRegistry, is_cjk
from pnpforge.output.canvas import RGB, Canvas

MIN_SIZE = 6.0  # points: the legibility floor; no text is set smaller, shrink-to-fit stops here
KATAKANA_WORD = 8  # a katakana run this long or shorter is a word (a name): never broken inside
LONGEST = 10**6  # a katakana run of any length kept whole
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
    split: bool = False  # a word was broken between two of its characters (none could be kept whole)
    box: tuple[float, float] = (0.0, 0.0)  # the box's (w, h) the text was laid out in

    def overflow(self) -> tuple[int, float]:
        """(lines that run, wholly or partly, below the box; points the text runs past its box, at the
        worse of its bottom and its sides): (0, 0.0) when it fits."""
        w, h = self.box
        below = max(0.0, self.height - h)
        wide = max(0.0, self.width - w)
        cut = 0
        if below > EPSILON and self.lines:
            pitch = self.height / len(self.lines)
            cut = min(len(self.lines), math.ceil(below / pitch - EPSILON))
        return cut, max(below, wide)


def break_allowed(before: str, after: str) -> bool:
    """May a line end after `before` and the next start with `after`?"""
    if before == " ":
        return after != " "
    if after == " ":
        return False
    if after in NO_START or before in NO_END:
        return False
    return is_cjk(before) or is_cjk(after)


def is_katakana(char: str) -> bool:
    """A character of a katakana word: katakana, the long-vowel mark, small and half-width katakana.
    The middle dot ・ is left out: it separates words (ジョン・スミス)."""
    code = ord(char)
    return (0x30A1 <= code <= 0x30FA or 0x30FC <= code <= 0x30FF or 0x31F0 <= code <= 0x31FF
            or 0xFF66 <= code <= 0xFF9F)  # fmt: skip


def _katakana_joins(paragraph: str, longest: int) -> set[int]:
    """Indexes i where a break before paragraph[i] would split a katakana word of <= `longest` chars."""
    joined: set[int] = set()
    start = None
    for index, char in enumerate([*paragraph, ""]):
        if char and is_katakana(char):
            if start is None:
                start = index
            continue
        if start is not None and index - start <= longest:
            joined.update(range(start + 1, index))
        start = None
    return joined


def units(paragraph: str, longest: int = KATAKANA_WORD) -> list[str]:
    """The paragraph cut at every break opportunity; spaces stay at the end of the unit before them.
    A katakana word of up to `longest` characters is one unit."""
    out: list[str] = []
    start = 0
    joined = _katakana_joins(paragraph, longest) if not paragraph.isascii() else set()
    for i in range(1, len(paragraph)):
        if i not in joined and break_allowed(paragraph[i - 1], paragraph[i]):
            out.append(paragraph[start:i])
            start = i
    out.append(paragraph[start:])
    return out


class _Measure:
    """Widths at size 1 of text in one font (with CJK fallback), cached per string; and the (ascent,
    descent) of lines, cached per set of lines (a layout asks for them at every step of its fitting)."""

    def __init__(self, fonts: FontRegistry, font: str) -> None:
        self.fonts = fonts
        self.font = font
        self.cache: dict[str, float] = {}
        self.extents: dict[tuple[str, ...], tuple[float, float]] = {}

    def extent(self, lines: Sequence[str]) -> tuple[float, float]:
        key = tuple(lines)
        found = self.extents.get(key)
        if found is None:
            found = self.extents[key] = _metrics(self.fonts, lines, self.font)
        return found

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


def wrap(
    text: str, limit: float, measure: _Measure, *, force: bool, longest: int = KATAKANA_WORD
) -> tuple[list[str], bool]:
    """Greedy line filling at size 1 within `limit`; `force` breaks units wider than a line.
    Returns the lines and whether a unit (a word) was broken between its characters."""
    lines: list[str] = []
    split = False
    for paragraph in text.split("\n"):
        if measure(paragraph.rstrip(" ")) <= limit:  # fits whole: greedy filling would not break it
            lines.append(paragraph.rstrip(" "))
            continue
        line = ""
        for unit in units(paragraph, longest):
            parts = _chars(unit, limit, measure) if force and measure(unit.rstrip(" ")) > limit else [unit]
            split = split or len(parts) > 1
            for part in parts:
                candidate = line + part
                if line and measure(candidate.rstrip(" ")) > limit + EPSILON:
                    lines.append(line.rstrip(" "))
                    line = part.lstrip(" ")
                else:
                    line = candidate
        lines.append(line.rstrip(" "))
    return lines, split


def widest_word(text: str, measure: _Measure, longest: int = KATAKANA_WORD) -> float:
    """Width at size 1 of the widest unbreakable unit of `text` (a word, a katakana name)."""
    return max(
        (measure(unit.rstrip(" ")) for part in text.split("\n") for unit in units(part, longest)), default=0.0
    )


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


def _block_height(lines: Sequence[str], size: float, measure: _Measure, leading: float) -> float:
    ascent, descent = measure.extent(lines)
    return size * (ascent + descent + leading * (len(lines) - 1))


def _span(outline: Sequence[tuple[float, float]], at: float) -> tuple[float, float] | None:
    """The x range of a convex outline along the horizontal line y = at; None when it misses it."""
    xs = []
    count = len(outline)
    for index in range(count):
        (x1, y1), (x2, y2) = outline[index], outline[(index + 1) % count]
        if min(y1, y2) - EPSILON <= at <= max(y1, y2) + EPSILON:
            xs.append(x1 if abs(y2 - y1) < EPSILON else x1 + (x2 - x1) * (at - y1) / (y2 - y1))
    return (min(xs), max(xs)) if xs else None


def inscribed(
    outline: Sequence[tuple[float, float]] | None, x: float, w: float, top: float, bottom: float
) -> tuple[float, float]:
    """(left, width) of the widest box inside both the columns [x, x + w] and the convex `outline`
    over the band [top, bottom] (a convex shape is narrowest at one end of a band)."""
    if outline is None:
        return x, w
    ends = [_span(outline, top), _span(outline, bottom)]
    if ends[0] is None or ends[1] is None:
        return x, 0.0
    left = max(x, ends[0][0], ends[1][0])
    right = min(x + w, ends[0][1], ends[1][1])
    return left, max(0.0, right - left)


def _top(y: float, h: float, height: float, valign: VAlign) -> float:
    return y if valign == "top" else y + h - height if valign == "bottom" else y + (h - height) / 2


def draw_layout(canvas: Canvas, layout: TextLayout, colour: RGB) -> None:
    """Every line of `layout` at its place, each run in its own font."""
    for line in layout.lines:
        for run in line.runs:
            canvas.text(run.x, line.baseline, run.text, run.font, layout.size, colour)


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
    within: Sequence[tuple[float, float]] | None = None,
) -> TextLayout:
    """Lay `text` out in the box (x, y, w, h), y down. `font` is a registered reportlab font name.

    `within` is a convex outline the text sits in (a disc, a hex): each line then keeps inside it as
    well as inside the box. The result says whether the text fits, and `overflow()` by how much not.
    """
    # keyword arguments in any order would make different cache keys: the cached core takes them by position
    shape = tuple(within) if within is not None else None
    return _layout(text, x, y, w, h, fonts, font, size, align, valign, fit, leading, min_size, shape)


def largest_fitting(fits_at: Callable[[float], bool], low: float, high: float) -> float | None:
    """The largest size between `low` and `high` that `fits_at` accepts, found by halving to ~0.01 pt
    (None when none of those tried fits): shrink-to-fit for plain and rich text alike."""
    best = None
    for _ in range(14):
        mid = (low + high) / 2
        if fits_at(mid):
            best, low = mid, mid
        else:
            high = mid
    return best


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
    within: tuple[tuple[float, float], ...] | None,
) -> TextLayout:
    text = text.replace("\r\n", "\n").replace("\\n", "\n")
    measure = _Measure(fonts, font)
    size = max(size, min_size)  # a size below the floor is raised to it

    rooms: dict[tuple[tuple[str, ...], float], tuple[float, float]] = {}  # fitting asks each again

    def room(lines: Sequence[str], s: float) -> tuple[float, float]:
        """Where the lines may go across at size s: the box, narrowed to the shape at their band."""
        key = (tuple(lines), s)
        found = rooms.get(key)
        if found is None:
            height = _block_height(lines, s, measure, leading)
            top = _top(y, h, height, valign)
            found = rooms[key] = inscribed(within, x, w, top, top + height)
        return found

    def fits_in(lines: Sequence[str], s: float) -> bool:
        width = room(lines, s)[1]
        return _block_height(lines, s, measure, leading) <= h + EPSILON and all(
            measure(line) * s <= width + EPSILON for line in lines
        )

    def arrange(s: float, force: bool, longest: int) -> tuple[list[str], bool, bool]:
        """Lines at size s (wrapped again to the shape's width at their band), whether a word was
        broken, and whether they fit."""
        limit = w
        for _ in range(3 if within is not None else 1):  # the band moves as the line count does
            lines, split = wrap(text, limit / s if s > 0 else 0.0, measure, force=force, longest=longest)
            narrower = room(lines, s)[1]
            if narrower >= limit - EPSILON:
                break
            limit = narrower
        return lines, split, fits_in(lines, s)

    # Every katakana run is first kept whole; only when no size down to the floor allows that may one
    # longer than KATAKANA_WORD break between its characters (as Japanese type may); then any word may.
    tiers = (LONGEST, KATAKANA_WORD) if not text.isascii() else (KATAKANA_WORD,)
    split = False
    if fit == "none":
        lines = text.split("\n")
        fits = fits_in(lines, size)
    elif (
        fit == "wrap"
    ):  # the size asked for, but smaller rather than a word broken in two (not below the floor)
        asked = size
        for longest in tiers:
            word = widest_word(text, measure, longest)
            size = asked if word * asked <= w + EPSILON else max(min_size, w / word if word > 0 else asked)
            lines, split, fits = arrange(size, True, longest)
            while split and size > min_size:  # the shape is narrower than the box at the lines' band
                size = max(min_size, size * 0.95)
                lines, split, fits = arrange(size, True, longest)
            if not split:
                break
    else:
        asked = size
        for longest in tiers:
            size = asked
            lines, split, fits = arrange(size, False, longest)
            if not fits and size > min_size:

                def fits_at(s: float, tier: int = longest) -> bool:
                    return arrange(s, False, tier)[2]

                best = largest_fitting(fits_at, min_size, size)
                if best is None and arrange(min_size, False, longest)[2]:
                    best = min_size
                if best is not None:
                    size = best
                    lines, split, fits = arrange(size, False, longest)
            if fits:
                break
        if not fits:  # even the floor is too large: words broken as a last resort, and said
            size = min(size, min_size)
            lines, split, fits = arrange(size, True, KATAKANA_WORD)
    left, width = room(lines, size)
    return _place(lines, left, y, width, h, size, fonts, measure, align, valign, leading, fits, split)


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
    split: bool = False,
) -> TextLayout:
    ascent, descent = measure.extent(lines)
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
    return TextLayout(size, tuple(placed), widest, height, fits and not split, split, (w, h))
