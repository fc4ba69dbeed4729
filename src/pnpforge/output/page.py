"""The page every output format draws on: its size, the printer margin, the marks' band and the bleed."""

from __future__ import annotations

from dataclasses import dataclass

from pnpforge.units import mm

MARK_ROOM = mm(2.5)  # band inside the printable area kept for crop marks: a 2 mm mark and its 0.5 mm gap

Rect = tuple[float, float, float, float]


@dataclass(frozen=True)
class PageFrame:
    """A page, its printer margin (home printers leave it blank) and the bleed.

    Everything that must print lies inside the printable area (the page less `margin`). Crop marks
    take the band `MARK_ROOM` just inside it; art (bleed included) and trims stay inside that band.
    """

    width: float
    height: float
    margin: float
    bleed: float

    @property
    def inset(self) -> float:
        """Distance from the paper's edge to the art area: the printer margin plus the marks' band."""
        return self.margin + MARK_ROOM

    @property
    def area(self) -> tuple[float, float]:
        return (self.width - 2 * self.inset, self.height - 2 * self.inset)

    @property
    def printable(self) -> Rect:
        m = self.margin
        return (m, m, self.width - m, self.height - m)
