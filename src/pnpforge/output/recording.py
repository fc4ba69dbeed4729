"""A page's drawing as plain data: every Canvas call recorded as it is made, to be played back later.

The face engine (templates, text fitting, bleed, marks) decides what to draw; the canvas only draws
it. Recording the canvas calls of a page keeps those decisions as plain data (method names, numbers,
strings, lists and tuples, exactly as passed: a list stays a list, 1 stays an int), so playing them
back on a fresh PDF canvas gives the same operators, the same font subsets and the same bytes.
Each call is kept as the tuple `(name, args)`; the one argument a caller may build up and reuse, a
list of points (or dashes), is copied at the moment of the call (its points are tuples), so a caller
reusing it afterwards cannot change what was recorded. Kept builds marshal the calls once, whole
(compiled.py; one that cannot be, holding an object or a NumPy number, is simply not kept): one
`marshal.dumps` per call cost more than the rest of the recording (~20 ms of the 900-card bench).
"""

from __future__ import annotations

from collections.abc import Sequence, Set
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pnpforge.output.canvas import CALLS, RGB, Canvas, Point

PATH_ARGUMENT = "image"  # the one call taking a Path (kept as its text)


Form = tuple[str, bool]  # a reused drawing a page names: its key, and whether the page defined it
Call = tuple[str, tuple[Any, ...]]  # a canvas method's name and its arguments


@dataclass(frozen=True)
class PageDrawing:
    """One page's recorded calls, with the reused drawings (PDF forms) it defined or used, in order."""

    calls: list[Call]
    forms: tuple[Form, ...]

    def fits(self, defined: Set[str]) -> bool:
        """Whether playing the page back after pages that defined the forms `defined` makes the calls it
        made when recorded: it defines only what is not defined yet and uses only what is."""
        seen = set(defined)
        for key, here in self.forms:
            if here == (key in seen):
                return False
            seen.add(key)
        return True


@dataclass
class Recording:
    """A document's pages as recorded calls, in page order."""

    pages: list[list[Call]] = field(default_factory=list)
    forms: list[list[Form]] = field(default_factory=list)  # each page's, in call order
    quiet: list[bool] = field(default_factory=list)  # each page's: drawing it warned of nothing (draw.write)

    def page(self, canvas: Canvas) -> Recorder:
        """A canvas drawing on `canvas` that records the next page."""
        self.pages.append([])
        self.forms.append([])
        return Recorder(canvas, self)

    def again(self, canvas: Canvas, drawing: PageDrawing) -> None:
        """Play a page recorded before back on `canvas`, kept as this recording's next page."""
        replay(canvas, drawing.calls)
        self.pages.append(drawing.calls)
        self.forms.append(list(drawing.forms))

    def drawing(self, index: int) -> PageDrawing:
        return PageDrawing(self.pages[index], tuple(self.forms[index]))


class Recorder(Canvas):
    """A Canvas that draws on `canvas` and records each call as the recording's last page (appended in
    place, not through a helper: a page of cards makes a hundred calls, a deck tens of thousands)."""

    def __init__(self, canvas: Canvas, recording: Recording) -> None:
        self.canvas = canvas
        self.recording = recording
        self.calls = recording.pages[-1]
        self.forms = recording.forms[-1]

    def save(self) -> None:
        self.calls.append(("save", ()))
        self.canvas.save()

    def restore(self) -> None:
        self.calls.append(("restore", ()))
        self.canvas.restore()

    def translate(self, x: float, y: float) -> None:
        self.calls.append(("translate", (x, y)))
        self.canvas.translate(x, y)

    def rotate(self, degrees: float) -> None:
        self.calls.append(("rotate", (degrees,)))
        self.canvas.rotate(degrees)

    def scale(self, sx: float, sy: float) -> None:
        self.calls.append(("scale", (sx, sy)))
        self.canvas.scale(sx, sy)

    def clip(self, outline: Sequence[Point]) -> None:
        self.calls.append(("clip", (_copied(outline),)))
        self.canvas.clip(outline)

    def polygon(
        self,
        points: Sequence[Point],
        fill: RGB | None,
        stroke: RGB | None,
        width: float = 0.5,
        closed: bool = True,
        dash: Sequence[float] | None = None,
    ) -> None:
        self.calls.append(("polygon", (_copied(points), fill, stroke, width, closed, dash and _copied(dash))))
        self.canvas.polygon(points, fill, stroke, width, closed, dash)

    def ellipse(
        self, cx: float, cy: float, rx: float, ry: float, fill: RGB | None, stroke: RGB | None, width: float
    ) -> None:
        self.calls.append(("ellipse", (cx, cy, rx, ry, fill, stroke, width)))
        self.canvas.ellipse(cx, cy, rx, ry, fill, stroke, width)

    def rounded_rect(
        self,
        x: float,
        y: float,
        w: float,
        h: float,
        radius: float,
        fill: RGB | None,
        stroke: RGB | None,
        width: float,
    ) -> None:
        self.calls.append(("rounded_rect", (x, y, w, h, radius, fill, stroke, width)))
        self.canvas.rounded_rect(x, y, w, h, radius, fill, stroke, width)

    def text(self, x: float, baseline: float, text: str, font: str, size: float, colour: RGB) -> None:
        self.calls.append(("text", (x, baseline, text, font, size, colour)))
        self.canvas.text(x, baseline, text, font, size, colour)

    def image(self, path: Path, x: float, y: float, w: float, h: float) -> None:
        self.calls.append((PATH_ARGUMENT, (str(path), x, y, w, h)))
        self.canvas.image(path, x, y, w, h)

    def begin_reuse(self, key: str) -> bool:
        self.calls.append(("begin_reuse", (key,)))
        defined_here = self.canvas.begin_reuse(key)
        self.forms.append((key, defined_here))
        return defined_here

    def end_reuse(self) -> None:
        self.calls.append(("end_reuse", ()))
        self.canvas.end_reuse()

    def reuse(self, key: str) -> None:
        self.calls.append(("reuse", (key,)))
        self.forms.append((key, False))
        self.canvas.reuse(key)


def _copied(values: Sequence[Any]) -> Sequence[Any]:
    """A list as it is now (its items are tuples or numbers), of the same type; a tuple as it is."""
    return list(values) if isinstance(values, list) else values


def replay(canvas: Canvas, calls: Sequence[Call]) -> None:
    """Make the recorded calls again on `canvas` (raises ValueError on anything not recorded here)."""
    for call in calls:
        if not isinstance(call, tuple) or len(call) != 2:
            raise ValueError(f"not a recorded canvas call: {call!r:.80}")
        name, args = call
        if name not in CALLS or not isinstance(args, tuple):
            raise ValueError(f"not a recorded canvas call: {name!r}")
        if name == PATH_ARGUMENT:
            args = (Path(args[0]), *args[1:])
        getattr(canvas, name)(*args)


def play(canvas: Canvas, calls: Sequence[Call]) -> None:
    """`replay` for calls a `Recorder` of this process made (an element drawn alike: faces/draw.py),
    without checking each: they are the calls, not a file's bytes."""
    for name, args in calls:
        getattr(canvas, name)(*((Path(args[0]), *args[1:]) if name == PATH_ARGUMENT else args))
