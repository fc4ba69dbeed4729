"""Plays' statistics drawn as bar charts: an SVG (svgwrite; the page shows it inline, scaled to a phone)
or a PNG (Pillow). Both come from the same `Panel`s, so they show the same bars.

Each panel is a title and horizontal bars: a label, a value, the scale's end, the text written after the
bar, and optionally a spread (a whisker ± sd). Same stats, same bytes.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pnpforge.store.stats import Stats

__all__ = ["Bar", "Panel", "panels", "png", "svg"]

WIDTH = 360
LABEL_W = 120
BAR_H = 16
GAP = 6
TITLE_H = 26
VALUE_W = 70
COLOURS = ("#3867d6", "#20bf6b", "#fa8231", "#8854d0")


@dataclass
class Bar:
    label: str
    value: float
    text: str
    spread: float = 0.0


@dataclass
class Panel:
    title: str
    bars: list[Bar] = field(default_factory=list)
    top: float = 1.0  # the value at the bar area's right end

    @property
    def height(self) -> int:
        return TITLE_H + len(self.bars) * (BAR_H + GAP) + GAP


def panels(stats: Stats, say: Callable[[str], str]) -> list[Panel]:
    """The charts of `stats`; `say(key)` gives each title and word in the reader's language
    (keys: by_seat, by_faction, by_count, items, seat, players, margin, total)."""

    def rates(title: str, rows: list[tuple[str, float, int, int]]) -> Panel:
        return Panel(
            title, [Bar(label, rate, f"{rate:.0%} ({wins}/{n})") for label, rate, wins, n in rows], 1.0
        )

    out = [
        rates(say("by_seat"), [(f"{say('seat')} {r.label}", r.rate, r.wins, r.plays) for r in stats.by_seat]),
    ]
    if stats.by_faction:
        out.append(
            rates(say("by_faction"), [(say(r.label), r.rate, r.wins, r.plays) for r in stats.by_faction])
        )
    rows = []
    for r in stats.by_count:
        count, seat = r.label.split(":")
        rows.append((f"{count}{say('p')} · {say('seat')} {seat}", r.rate, r.wins, r.plays))
    out.append(rates(say("by_count"), rows))
    spreads = [stats.totals, stats.margin, *stats.items]
    top = max((abs(s.mean) + s.sd for s in spreads), default=1.0) or 1.0
    names = {"total": say("total"), "margin": say("margin")}
    bars = [
        Bar(
            names.get(s.label, s.label) if s in (stats.totals, stats.margin) else say(s.label),
            s.mean,
            f"{s.mean:.1f} ± {s.sd:.1f}",
            s.sd,
        )
        for s in spreads
    ]
    out.append(Panel(say("items"), bars, top))
    return out


def _bar_span(bar: Bar, top: float) -> tuple[float, float]:
    area = WIDTH - LABEL_W - VALUE_W
    return LABEL_W, LABEL_W + max(0.0, min(bar.value / top, 1.0)) * area


def svg(charts: list[Panel]) -> str:
    import svgwrite

    height = sum(p.height for p in charts)
    drawing = svgwrite.Drawing(
        size=("100%", None), viewBox=f"0 0 {WIDTH} {height}", profile="full", debug=False
    )
    drawing.attribs["role"] = "img"
    drawing.attribs["class"] = "charts"
    y = 0
    for n, panel in enumerate(charts):
        colour = COLOURS[n % len(COLOURS)]
        drawing.add(drawing.text(panel.title, insert=(0, y + 17), font_size=14, font_weight="bold"))
        y += TITLE_H
        area = WIDTH - LABEL_W - VALUE_W
        for bar in panel.bars:
            left, right = _bar_span(bar, panel.top)
            drawing.add(drawing.text(bar.label, insert=(0, y + 12), font_size=11))
            drawing.add(drawing.rect((left, y), (max(right - left, 1), BAR_H), fill=colour))
            if bar.spread:
                lo = left + max(0.0, (bar.value - bar.spread) / panel.top) * area
                hi = left + min(1.0, (bar.value + bar.spread) / panel.top) * area
                drawing.add(
                    drawing.line((lo, y + BAR_H / 2), (hi, y + BAR_H / 2), stroke="#222", stroke_width=1.5)
                )
            drawing.add(drawing.text(bar.text, insert=(WIDTH - VALUE_W + 4, y + 12), font_size=11))
            y += BAR_H + GAP
        y += GAP
    return drawing.tostring()


def png(charts: list[Panel], scale: int = 2) -> bytes:
    from PIL import Image, ImageDraw

    height = sum(p.height for p in charts)
    image = Image.new("RGB", (WIDTH * scale, height * scale), "white")
    draw = ImageDraw.Draw(image)
    font = _font(11 * scale)
    bold = _font(14 * scale)
    y = 0
    area = WIDTH - LABEL_W - VALUE_W
    for n, panel in enumerate(charts):
        colour = COLOURS[n % len(COLOURS)]
        draw.text((0, (y + 4) * scale), panel.title, fill="black", font=bold)
        y += TITLE_H
        for bar in panel.bars:
            left, right = _bar_span(bar, panel.top)
            draw.text((0, (y + 2) * scale), bar.label, fill="black", font=font)
            draw.rectangle(
                (left * scale, y * scale, max(right, left + 1) * scale, (y + BAR_H) * scale), fill=colour
            )
            if bar.spread:
                lo = left + max(0.0, (bar.value - bar.spread) / panel.top) * area
                hi = left + min(1.0, (bar.value + bar.spread) / panel.top) * area
                mid = (y + BAR_H / 2) * scale
                draw.line((lo * scale, mid, hi * scale, mid), fill="#222222", width=scale)
            draw.text(((WIDTH - VALUE_W + 4) * scale, (y + 2) * scale), bar.text, fill="black", font=font)
            y += BAR_H + GAP
        y += GAP
    out = io.BytesIO()
    image.save(out, "PNG", optimize=False)
    return out.getvalue()


def _font(size: int) -> Any:
    """The machine's CJK font when there is one (names and items in Japanese), else Pillow's own."""
    from PIL import ImageFont

    from pnpforge.fonts import find_cjk_font

    found = find_cjk_font()
    if found is not None:
        try:
            return ImageFont.truetype(str(found), size)
        except OSError:
            pass
    return ImageFont.load_default(size)
