"""What an element is drawn with besides itself: the render context, and the box it fills on the piece."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pnpforge.errors import Problem
from pnpforge.fonts import FontRegistry
from pnpforge.output.canvas import Point
from pnpforge.output.recording import Call
from pnpforge.sourcefile import Source


@dataclass
class RenderContext:
    """What drawing needs besides the piece: language, where relative files are, bleed, fonts."""

    lang: str = "en"
    spec_dir: Path = field(default_factory=Path.cwd)
    bleed: float = 0.0  # points
    fonts: FontRegistry = field(default_factory=FontRegistry)
    allow_outside_files: bool = False  # --allow-outside-files: images and data files may lie anywhere
    spec_source: Source | None = None  # game.yaml: a fixed value's problem is located there, once
    icons: dict[str, str] = field(default_factory=dict)  # the spec's own inline icons: name -> SVG/PNG file
    draft: bool = False  # build --draft: a missing image is drawn as a labelled placeholder
    # said once each after the build: --draft's placeholders (lines), what prints differently from the
    # spec (located problems: text that does not fit)
    warnings: list[Problem | str] = field(default_factory=list)
    # set by the side's drawing loop for the element being drawn: the disc or hex its text sits in,
    # and what the drawer found amiss (said by the loop, which knows where the element was written)
    backdrop: tuple[Point, ...] | None = None
    notes: list[str] = field(default_factory=list)
    allow_outside_images: bool = False  # --allow-outside-images: images (only) may lie anywhere

    warned: int = 0  # warnings given, said or not (`watch` plays back only pages that gave none)
    # the canvas calls of elements drawn so far, kept for pieces that draw them alike (faces/draw.py)
    drawn: dict[tuple[Any, ...], tuple[Any, Any, list[Call] | None]] = field(default_factory=dict)

    def warn(self, problem: Problem | str, said: bool | None = None) -> None:
        """Say `problem` after the build, unless it was `said` already (by default: an equal one was;
        copies of a row, and a check after a draw, find it again)."""
        self.warned += 1
        if not (problem in self.warnings if said is None else said):
            self.warnings.append(problem)

    def shown_differently(self) -> list[Problem | str]:
        """What the pages drawn with this context show differently from the spec, found while laying
        them out and drawing them: the fonts' lines (a missing Japanese font, a character no font has),
        then the layout's and the drawing's (a narrow gutter, --draft's placeholders, text that does
        not fit, located). A build and every export say these, and --strict refuses them."""
        return [*self.fonts.warnings, *self.fonts.missing, *self.warnings]


@dataclass(frozen=True)
class Box:
    """Where an element is drawn, in points from the piece's trim top-left."""

    x: float
    y: float
    w: float
    h: float

    @property
    def centre(self) -> Point:
        return (self.x + self.w / 2, self.y + self.h / 2)
