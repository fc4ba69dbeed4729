"""The drawing surface faces are drawn on, the same for PDF and SVG: the one list of its calls.

Coordinates are points with y growing DOWN and the origin at the current transform's top-left
(as in design tools), so face templates read like the spec. Each backend converts.

`Canvas` is the only place the calls are listed. Every canvas (PdfCanvas, SvgCanvas, the recording
Recorder) names it as its base, so the type checker holds each to it: a missing call cannot be
instantiated, a call with other parameters is an incompatible override. `NullCanvas` answers every call
of the list by doing nothing, and `CALLS` (the names a recording may replay) is read off the protocol.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Protocol

Point = tuple[float, float]
RGB = tuple[float, float, float]  # 0..1; None means "no paint"


class Canvas(Protocol):
    def save(self) -> None: ...
    def restore(self) -> None: ...
    def translate(self, x: float, y: float) -> None: ...
    def rotate(self, degrees: float) -> None: ...  # clockwise on the page, as y grows down
    def scale(self, sx: float, sy: float) -> None: ...

    def clip(self, outline: Sequence[Point]) -> None:
        """Clip later drawing to a polygon until the matching restore()."""

    def polygon(
        self,
        points: Sequence[Point],
        fill: RGB | None,
        stroke: RGB | None,
        width: float = 0.5,
        closed: bool = True,
        dash: Sequence[float] | None = None,
    ) -> None: ...

    def ellipse(
        self, cx: float, cy: float, rx: float, ry: float, fill: RGB | None, stroke: RGB | None, width: float
    ) -> None: ...

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
    ) -> None: ...

    def text(self, x: float, baseline: float, text: str, font: str, size: float, colour: RGB) -> None:
        """Draw one line; `x` is its left end; `font` is a name registered with the font registry."""

    def image(self, path: Path, x: float, y: float, w: float, h: float) -> None: ...

    def begin_reuse(self, key: str) -> bool:
        """Start recording a drawing to repeat (a shared back); False if `key` exists already.

        Only when this returns True: draw, then call end_reuse(). Either way, reuse(key) places it.
        """

    def end_reuse(self) -> None: ...

    def reuse(self, key: str) -> None:
        """Draw the recorded drawing `key` at the current transform."""


CALLS = frozenset(name for name, call in vars(Canvas).items() if callable(call) and not name.startswith("_"))


def _nothing(*args: object, **kwargs: object) -> None:
    return None


class NullCanvas:
    """A Canvas that draws nothing: checks run the drawing code on it. Every call of `Canvas` does nothing
    (looked up in the protocol's own list, so none is kept here); only begin_reuse must say "record", so
    the drawing of a reused part still runs."""

    def begin_reuse(self, key: str) -> bool:
        return True

    def __getattr__(self, name: str) -> Callable[..., None]:
        if name in CALLS:
            return _nothing
        raise AttributeError(name)
