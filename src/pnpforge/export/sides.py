"""The piece sides an export writes: each data row's front (and back where it differs), die faces.

A row with a count above one is one side with that count; a back that looks the same on every piece
(a shared back) is one side of the component with the component's whole count.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pnpforge.build import back_of, die_face, face_numbers
from pnpforge.components.model import Component
from pnpforge.components.template import localise
from pnpforge.generator.expand import ComponentPieces
from pnpforge.generator.keys import row_keys, row_title
from pnpforge.generator.pieces import Piece
from pnpforge.layouts.faces.render import SideName, side_is_shared
from pnpforge.units import to_mm

TITLE_WIDTH = 40  # characters of a row's title in a file name


@dataclass(frozen=True)
class Side:
    """One side of one data row (row 0: a side shared by the component's every piece)."""

    component: Component
    row: int
    side: str  # "front", "back", or "face1".."face6" / "face0".."face9" for dice
    count: int
    piece: Piece  # as drawn: a die face's row, a back seen from behind
    drawn: SideName  # which face template draws it
    digits: int  # zero-padding of the row number in file names
    key: str = ""  # the row's id (generator/keys.py); '' when its component's rows have none
    title: str = ""  # the row's title or name

    @property
    def stem(self) -> str:
        """`c07-strike-7-front` by the row's id and title, `cards-012-knight-front` by its number where
        the rows have no ids, or `cards-back` for a shared back."""
        name = self.component.name
        if self.row == 0:
            return f"{name}-{self.side}"
        title = slug(self.title)[:TITLE_WIDTH].strip("-")
        named = f"-{title}" if title and title != slug(self.key) else ""
        if self.key:
            return f"{slug(self.key)}{named}-{self.side}"
        return f"{name}-{self.row:0{self.digits}d}{named}-{self.side}"

    @property
    def trim_mm(self) -> tuple[float, float]:
        return to_mm(self.piece.width), to_mm(self.piece.height)


@dataclass(frozen=True)
class Row:
    number: int  # 1-based, in the component's data order
    piece: Piece  # its first copy
    count: int


def rows(group: ComponentPieces) -> list[Row]:
    """The component's data rows with their piece counts (copies of a row follow each other)."""
    out: list[Row] = []
    for piece in group.pieces:
        if piece.copy == 0:
            out.append(Row(len(out) + 1, piece, 0))
        last = out[-1]
        out[-1] = Row(last.number, last.piece, last.count + 1)
    return out


def has_back(component: Component) -> bool:
    return component.back is not None and component.kind != "die"


def shared_back(component: Component) -> bool:
    return has_back(component) and side_is_shared(component, "back")


def slug(text: str) -> str:
    """A file-name-safe form of a text: letters and digits kept (lower case), every run of others '-'."""
    return "-".join("".join(ch if ch.isalnum() else " " for ch in text.lower()).split())


def sides(
    group: ComponentPieces, *, every_back: bool = False, lang: str = "en", chosen: set[int] | None = None
) -> list[Side]:
    """Fronts of every row, then the backs: one shared back, or each row's own back.

    With `every_back` (print shops), a back follows each front, shared or not. `chosen` keeps only
    those rows (numbered in the whole component, as their names are).
    """
    component = group.component
    found = rows(group)
    digits = max(3, len(str(len(found))))
    keys = row_keys([[row.piece] for row in found])
    names = {
        row.number: ("" if key.startswith("#") else key, row_title(row.piece, lang))
        for row, key in zip(found, keys, strict=True)
    }
    if chosen is not None:
        found = [row for row in found if row.number in chosen]
    out: list[Side] = []
    if component.kind == "die":
        for row in found:
            for n in face_numbers(component):
                out.append(
                    Side(
                        component,
                        row.number,
                        f"face{n}",
                        row.count,
                        die_face(row.piece, n),
                        "face",
                        digits,
                        *names[row.number],
                    )
                )
        return out
    for row in found:
        named = names[row.number]
        out.append(Side(component, row.number, "front", row.count, row.piece, "face", digits, *named))
        if has_back(component) and (every_back or not shared_back(component)):
            out.append(
                Side(component, row.number, "back", row.count, back_of(row.piece), "back", digits, *named)
            )
    if shared_back(component) and not every_back and found:
        total = sum(row.count for row in found)
        out.append(Side(component, 0, "back", total, back_of(found[0].piece), "back", digits))
    return out


def title_of(side: Side | Row, lang: str) -> str:
    """The row's name for a virtual table: its `title` or `name` field (per language), else the number."""
    piece = side.piece
    component = piece.component
    named = row_title(piece, lang)
    if named:
        return named
    title = localise(component.title, lang) if component.title else component.name
    number = side.number if isinstance(side, Row) else side.row
    return f"{title} {number}"


def total(groups: Sequence[ComponentPieces]) -> int:
    return sum(len(group.pieces) for group in groups)
