"""A piece: one physical thing to print (a card, a tile, a token...), before it is placed on a page."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pnpforge.components.load import RowRef
from pnpforge.components.model import Component


@dataclass(frozen=True, eq=False)
class Piece:
    """One copy of one data row of one component.

    `width` and `height` are the trim box in points (a hex's or circle's bounding box); art extends
    `bleed` beyond it. `cells` holds the hexes of a polyhex tile (axial, relative to its anchor).
    """

    component: Component
    row: dict[str, Any]
    row_ref: RowRef
    copy: int  # 0-based copy number of this row
    width: float
    height: float
    cells: tuple[tuple[int, int], ...] = field(default=())

    @property
    def double_sided(self) -> bool:
        return self.component.back is not None
