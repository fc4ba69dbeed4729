"""Rich text in a text element: `**bold**`, `*italic*`, `:icon-name:` inline, `\\*` and `\\:` escapes.

A text with none of these is laid out by layouts/text.py as before (same bytes). A rich text is cut into
styled pieces; lines are broken at the same places as plain text (layouts.text.units: spaces, between
Japanese characters, kinsoku), each piece measured in its own font, an icon as a square one text size
wide; shrink-to-fit and wrapping count all of it, so a line with icons and bold words fits its box.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from reportlab.pdfbase import pdfmetrics

from pnpforge.fonts import FontRegistry
from pnpforge.layouts.text import (
    EPSILON,
    MIN_SIZE,
    Align,
    Fit,
    VAlign,
    _metrics,
    largest_fitting,
    units,
)

ICON = "\ufffc"  # stands for one inline icon in the text that is broken into lines
ICON_EM = 0.85  # an inline icon's side, in text sizes: about a capital's height, standing on the baseline
ICON_GAP = 0.08  # space kept after an inline icon, in text sizes
_ICON = re.compile(r":([a-z0-9][a-z0-9_-]*):")
# the four faces of each standard family: regular, bold, italic, bold italic
FAMILIES = (
    ("Helvetica", "Helvetica-Bold", "Helvetica-Oblique", "Helvetica-BoldOblique"),
    ("Times-Roman", "Times-Bold", "Times-Italic", "Times-BoldItalic"),
    ("Courier", "Courier-Bold", "Courier-Oblique", "Courier-BoldOblique"),
)
_FACE = {name: (family, index) for family in FAMILIES for index, name in enumerate(family)}


@dataclass(frozen=True)
class Styled:
    """The text to break (each icon one ICON character) and, per character, its style or icon name."""

    text: str
    styles: tuple[str, ...]  # "", "b", "i", "bi", or "icon:NAME"


def parse(text: str, is_icon: Callable[[str], bool]) -> Styled:
    """Markup -> styled characters. `**` and `*` toggle bold and italic when a closing marker follows;
    an unpaired marker is printed. `:name:` is an icon when `is_icon(name)`; else it raises ValueError."""
    text = text.replace("\r\n", "\n").replace("\\n", "\n")
    chars: list[str] = []
    styles: list[str] = []
    bold = italic = False
    index = 0
    while index < len(text):
        char = text[index]
        if char == "\\" and text[index + 1 : index + 2] in ("*", ":"):
            chars.append(text[index + 1])
            styles.append(_style(bold, italic))
            index += 2
            continue
        if text.startswith("**", index) and (bold or _closes(text, index + 2, "**")):
            bold = not bold
            index += 2
            continue
        if char == "*" and (italic or _closes(text, index + 1, "*")):
            italic = not italic
            index += 1
            continue
        icon = _ICON.match(text, index) if char == ":" else None
        if icon is not None:
            if not is_icon(icon.group(1)):
                raise ValueError(icon.group(1))
            chars.append(ICON)
            styles.append(f"icon:{icon.group(1)}")
            index = icon.end()
            continue
        chars.append(char)
        styles.append(_style(bold, italic))
        index += 1
    return Styled("".join(chars), tuple(styles))


def _closes(text: str, start: int, marker: str) -> bool:
    """A marker opens a style only if the same marker closes it later in the same paragraph."""
    end = text.find("\n", start)
    body = text[start : end if end >= 0 else len(text)].replace("\\*", "")
    if marker == "*":
        body = body.replace("**", "")
    return marker in body


def _style(bold: bool, italic: bool) -> str:
    return ("b" if bold else "") + ("i" if italic else "")


def styled_font(font: str, style: str) -> str:
    """The reportlab font for a style of `font` (`**` in a bold font stays bold, `*` in it is bold
    italic); a font without such faces (a .ttf) keeps its own."""
    found = _FACE.get(font)
    if found is None or not style:
        return font
    family, index = found
    return family[index | (1 if "b" in style else 0) | (2 if "i" in style else 0)]


@dataclass(frozen=True)
class Piece:
    """One run of a line: text in one font, or one icon; `x` from the box's left, at size 1 widths."""

    x: float
    text: str
    font: str  # reportlab font name; "" for an icon
    icon: str = ""


@dataclass(frozen=True)
class RichLine:
    """One laid-out line of rich text: where it starts, its baseline, its width and its pieces."""

    x: float
    baseline: float
    width: float
    pieces: tuple[Piece, ...]


@dataclass(frozen=True)
class RichLayout:
    """A rich text laid out in its box: the size it was set at, its lines, and whether it fits."""

    size: float
    lines: tuple[RichLine, ...]
    fits: bool


class _Measure:
    """Widths at size 1 of a span of the styled text (start, end), cached."""

    def __init__(self, styled: Styled, fonts: FontRegistry, font: str) -> None:
        self.styled = styled
        self.fonts = fonts
        self.font = font
        self.cache: dict[tuple[int, int], float] = {}

    def runs(self, start: int, end: int) -> list[tuple[str, str, str]]:
        """(text, style, icon) runs of the span, trailing spaces dropped."""
        text, styles = self.styled.text, self.styled.styles
        while end > start and text[end - 1] == " ":
            end -= 1
        out: list[tuple[str, str, str]] = []
        index = start
        while index < end:
            style = styles[index]
            if style.startswith("icon:"):
                out.append((ICON, "", style[5:]))
                index += 1
                continue
            stop = index
            while stop < end and styles[stop] == style:
                stop += 1
            out.append((text[index:stop], style, ""))
            index = stop
        return out

    def __call__(self, start: int, end: int) -> float:
        key = (start, end)
        width = self.cache.get(key)
        if width is None:
            width = 0.0
            for text, style, icon in self.runs(start, end):
                width += (
                    ICON_EM + ICON_GAP if icon else self.fonts.width(text, styled_font(self.font, style), 1.0)
                )
            self.cache[key] = width
        return width


def _wrap(measure: _Measure, limit: float, force: bool) -> list[tuple[int, int]]:
    """Greedy line filling at size 1, as layouts.text.wrap does, over spans of the styled text."""
    text = measure.styled.text
    lines: list[tuple[int, int]] = []
    start = 0
    for paragraph in text.split("\n"):
        end = start + len(paragraph)
        if measure(start, end) <= limit:
            lines.append((start, end))
            start = end + 1
            continue
        line_start = cursor = start
        for unit in units(paragraph):
            parts = [(cursor, cursor + len(unit))]
            if force and measure(cursor, cursor + len(unit)) > limit:
                parts = _chars(cursor, cursor + len(unit), limit, measure)
            for a, b in parts:
                if a > line_start and measure(line_start, b) > limit + EPSILON:
                    lines.append((line_start, a))
                    line_start = a
                    while line_start < b and text[line_start] == " ":
                        line_start += 1
            cursor += len(unit)
        lines.append((line_start, end))
        start = end + 1
    return lines


def _chars(start: int, end: int, limit: float, measure: _Measure) -> list[tuple[int, int]]:
    pieces: list[tuple[int, int]] = []
    first = start
    for index in range(start + 1, end + 1):
        if index - 1 > first and measure(first, index) > limit + EPSILON:
            pieces.append((first, index - 1))
            first = index - 1
    pieces.append((first, end))
    return pieces


def _line_text(measure: _Measure, span: tuple[int, int]) -> str:
    return "".join(text for text, _, icon in measure.runs(*span) if not icon)


def _extent(measure: _Measure, spans: Sequence[tuple[int, int]]) -> tuple[float, float]:
    """(ascent, descent) at size 1 of the lines: the fonts they use, and an icon's height if they hold one."""
    ascent, descent = _metrics(measure.fonts, [_line_text(measure, s) for s in spans], measure.font)
    if any(ICON in measure.styled.text[a:b] for a, b in spans):
        ascent = max(ascent, ICON_EM)
    return ascent, descent


def _fits(
    spans: Sequence[tuple[int, int]], size: float, box: tuple[float, float], measure: _Measure, leading: float
) -> bool:
    w, h = box
    ascent, descent = _extent(measure, spans)
    height = size * (ascent + descent + leading * (len(spans) - 1))
    return height <= h + EPSILON and all(measure(*s) * size <= w + EPSILON for s in spans)


@lru_cache(maxsize=1024)
def layout_rich(
    styled: Styled,
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
    min_size: float = MIN_SIZE,
) -> RichLayout:
    """Lay the styled text out in the box (x, y, w, h), y down, as layouts.text.layout_text does
    (shrinking no further than `min_size`, the element's floor)."""
    measure = _Measure(styled, fonts, font)
    size = max(size, min_size)

    def spans_at(s: float, force: bool) -> list[tuple[int, int]]:
        if fit == "none":
            out, start = [], 0
            for paragraph in styled.text.split("\n"):
                out.append((start, start + len(paragraph)))
                start += len(paragraph) + 1
            return out
        return _wrap(measure, w / s if s > 0 else 0.0, force)

    spans = spans_at(size, fit == "wrap")
    fits = _fits(spans, size, (w, h), measure, leading)
    if fit == "shrink" and not fits and size > min_size:
        best = largest_fitting(
            lambda s: _fits(spans_at(s, False), s, (w, h), measure, leading), min_size, size
        )
        size = best if best is not None else min_size
        spans = spans_at(size, best is None)
        fits = _fits(spans, size, (w, h), measure, leading)
    return _place(spans, x, y, w, h, size, measure, align, valign, leading, fits)


def _place(
    spans: Sequence[tuple[int, int]],
    x: float,
    y: float,
    w: float,
    h: float,
    size: float,
    measure: _Measure,
    align: Align,
    valign: VAlign,
    leading: float,
    fits: bool,
) -> RichLayout:
    ascent, descent = _extent(measure, spans)
    height = size * (ascent + descent + leading * (len(spans) - 1))
    top = y if valign == "top" else y + h - height if valign == "bottom" else y + (h - height) / 2
    lines: list[RichLine] = []
    for index, span in enumerate(spans):
        width = measure(*span) * size
        left = x if align == "left" else x + w - width if align == "right" else x + (w - width) / 2
        cursor = left
        pieces: list[Piece] = []
        for text, style, icon in measure.runs(*span):
            if icon:
                pieces.append(Piece(cursor, "", "", icon))
                cursor += (ICON_EM + ICON_GAP) * size
                continue
            for segment, name in measure.fonts.runs(text, styled_font(measure.font, style)):
                pieces.append(Piece(cursor, segment, name))
                cursor += pdfmetrics.stringWidth(segment, name, size)
        lines.append(RichLine(left, top + size * (ascent + leading * index), width, tuple(pieces)))
    return RichLayout(size, tuple(lines), fits)
