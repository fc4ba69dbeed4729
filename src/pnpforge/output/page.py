"""The page every output format draws on: its size, the margin no trim may enter, and the bleed."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class PageFrame:
    """A page and the distance from its edges within which no trim may lie."""

    width: float
    height: float
    margin: float
    bleed: float

    @property
    def area(self) -> tuple[float, float]:
        return (self.width - 2 * self.margin, self.height - 2 * self.margin)
