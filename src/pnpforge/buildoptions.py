"""What a build may be asked to change (the `build` command's options), and the parsing of the two
that are lists: light, so the command line reads them without importing the build engine."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from pnpforge.errors import InputError
from pnpforge.i18n import N_
from pnpforge.phrase import Phrase

if TYPE_CHECKING:
    from pnpforge.generator.expand import ComponentPieces

FORMATS = ("pdf", "svg", "png")
CLI = "<command line>"
BUILDING = N_("Building {game}")  # the progress bar's label, on a terminal
Picker = Callable[[list["ComponentPieces"]], list["ComponentPieces"]]
# a progress bar for a build: given the page count and its label, it gives what to tell of each page drawn
Progress = Callable[[int, str], AbstractContextManager[Callable[[int], None] | None]]


@dataclass
class BuildOptions:
    """What the `build` command may change; None means the spec's default."""

    out_dir: Path = Path("out")
    page: str | None = None
    margin: str | None = None  # printer margin, e.g. "5mm"
    lang: str | None = None
    duplex: str | None = None
    duplex_test: bool = False
    back_offset: str | None = (
        None  # "X,Y" in mm: back pages moved right and down, as the duplex test measured
    )
    formats: tuple[str, ...] = ("pdf",)
    dpi: int = 150
    only: tuple[str, ...] = ()
    font: Path | None = None
    allow_outside_files: bool = False  # files the spec names may lie outside its folder
    stamp: str | None = None  # the draft printed on the cover and every sheet label (default game.version)
    sheets: tuple[int, ...] = ()  # --sheets: only these sheets of the full layout (and the cover)
    pick: Picker | None = None  # keeps some pieces of each component (a reprint's changed ones)
    cover_notes: tuple[str, ...] = ()  # said first among the cover's notes (what a reprint holds)
    name: str | None = None  # the output files' stem (default: the game's id)
    cover_heading: str = ""  # said after the title on the cover (a reprint says so)
    draft: bool = False  # --draft: placeholders for missing images, every sheet marked DRAFT
    strict: bool = False  # --strict: a warning is an error, and nothing is written
    cache: bool = False  # keep the drawn build in <out>/.pnpforge-cache/ for the next one (compiled.py)


def parse_formats(text: str) -> tuple[str, ...]:
    names = tuple(dict.fromkeys(p.strip().lower() for p in text.split(",") if p.strip()))
    bad = [n for n in names if n not in FORMATS]
    if bad or not names:
        raise InputError.single(
            CLI,
            Phrase(
                N_("--format {text}: unknown format (expected a comma list of {known})"),
                text=repr(text),
                known=list(FORMATS),
            ),
        )
    return names


def parse_sheets(text: str) -> tuple[int, ...]:
    """`3,5-7` -> (3, 5, 6, 7)."""
    numbers: list[int] = []
    for part in (p.strip() for p in text.split(",")):
        low, dash, high = part.partition("-")
        if not (low.strip().isdigit() and (not dash or high.strip().isdigit())):
            raise InputError.single(
                CLI,
                Phrase(
                    N_("--sheets {text}: {part} is not a sheet number or range (expected e.g. 3,5-7)"),
                    text=repr(text),
                    part=repr(part),
                ),
            )
        a, b = int(low), int(high) if dash else int(low)
        if a < 1 or b < a or b - a > 10_000:
            raise InputError.single(
                CLI,
                Phrase(
                    N_("--sheets {text}: {part} is not a range of sheets (expected e.g. 5-7)"),
                    text=repr(text),
                    part=repr(part),
                ),
            )
        numbers += range(a, b + 1)
    return tuple(sorted(set(numbers)))
