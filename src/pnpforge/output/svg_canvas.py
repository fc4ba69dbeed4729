"""The Canvas protocol on svgwrite: transforms and clips as nested groups, reuse through <defs>/<use>.

SVG is already y-down, so coordinates pass straight through (in points; the document's width and
height are given in mm so it prints at physical size). Ids are counters, never random, so the
same drawing gives the same file. Images are embedded once as data URIs and placed with <use>.
"""

from __future__ import annotations

import base64
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import svgwrite
from svgwrite.container import Group

from pnpforge.fonts import FontRegistry
from pnpforge.output.canvas import RGB, Canvas, Point
from pnpforge.units import to_mm

MIME = {".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".svg": "image/svg+xml"}


def _num(value: float) -> float:
    """Three decimals of a point (a micrometre): enough for print, short and stable text."""
    rounded = round(value, 3)
    return 0.0 if rounded == 0 else rounded


def _colour(rgb: RGB | None) -> str:
    if rgb is None:
        return "none"
    return "#" + "".join(f"{max(0, min(255, round(c * 255))):02x}" for c in rgb)


def _points(points: Sequence[Point]) -> list[tuple[float, float]]:
    return [(_num(x), _num(y)) for x, y in points]


class SvgCanvas(Canvas):
    """One SVG page of `width` × `height` points."""

    def __init__(self, width: float, height: float, fonts: FontRegistry | None = None) -> None:
        self.fonts = fonts
        self.dwg = svgwrite.Drawing(
            size=(f"{_num(to_mm(width))}mm", f"{_num(to_mm(height))}mm"),
            viewBox=f"0 0 {_num(width)} {_num(height)}",
            profile="full",
            debug=False,
        )
        self._stack: list[Any] = [self.dwg]
        self._saves: list[int] = []
        self._outer: list[tuple[list[Any], list[int]]] = []
        self._reuse: dict[str, str] = {}
        self._images: dict[Path, str] = {}
        self._ids = 0

    def _id(self, prefix: str) -> str:
        self._ids += 1
        return f"{prefix}{self._ids}"

    @property
    def _here(self) -> Any:
        return self._stack[-1]

    def _push(self, group: Group) -> None:
        self._here.add(group)
        self._stack.append(group)

    def tostring(self) -> str:
        return self.dwg.tostring()

    # transforms -------------------------------------------------------------------------------
    def save(self) -> None:
        self._saves.append(len(self._stack))

    def restore(self) -> None:
        depth = self._saves.pop()
        del self._stack[depth:]

    def translate(self, x: float, y: float) -> None:
        self._push(self.dwg.g(transform=f"translate({_num(x)},{_num(y)})"))

    def rotate(self, degrees: float) -> None:
        self._push(self.dwg.g(transform=f"rotate({_num(degrees)})"))

    def scale(self, sx: float, sy: float) -> None:
        self._push(self.dwg.g(transform=f"scale({sx:.6g},{sy:.6g})"))

    def clip(self, outline: Sequence[Point]) -> None:
        clip = self.dwg.clipPath(id=self._id("clip"), clipPathUnits="userSpaceOnUse")
        clip.add(self.dwg.polygon(_points(outline)))
        self.dwg.defs.add(clip)
        self._push(self.dwg.g(clip_path=f"url(#{clip.get_id()})"))

    # shapes -----------------------------------------------------------------------------------
    def _style(self, fill: RGB | None, stroke: RGB | None, width: float) -> dict[str, Any]:
        style: dict[str, Any] = {"fill": _colour(fill)}
        if stroke is not None:
            style.update(stroke=_colour(stroke), stroke_width=_num(width))
        return style

    def polygon(
        self,
        points: Sequence[Point],
        fill: RGB | None,
        stroke: RGB | None,
        width: float = 0.5,
        closed: bool = True,
        dash: Sequence[float] | None = None,
    ) -> None:
        if len(points) < 2 or (fill is None and stroke is None):
            return
        if closed:
            shape = self.dwg.polygon(_points(points), **self._style(fill, stroke, width))
        else:
            if stroke is None:
                return
            shape = self.dwg.polyline(_points(points), **self._style(None, stroke, width))
            shape["stroke-linejoin"] = "round"
        if dash:
            shape["stroke-dasharray"] = ",".join(str(_num(d)) for d in dash)
        self._here.add(shape)

    def ellipse(
        self, cx: float, cy: float, rx: float, ry: float, fill: RGB | None, stroke: RGB | None, width: float
    ) -> None:
        if fill is None and stroke is None:
            return
        centre = (_num(cx), _num(cy))
        self._here.add(self.dwg.ellipse(centre, (_num(rx), _num(ry)), **self._style(fill, stroke, width)))

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
        if fill is None and stroke is None:
            return
        r = _num(max(0.0, min(radius, w / 2, h / 2)))
        rect = self.dwg.rect((_num(x), _num(y)), (_num(w), _num(h)), **self._style(fill, stroke, width))
        if r:
            rect.update({"rx": r, "ry": r})
        self._here.add(rect)

    def text(self, x: float, baseline: float, text: str, font: str, size: float, colour: RGB) -> None:
        family, weight = self.fonts.css(font) if self.fonts else ("sans-serif", "")
        attrs: dict[str, Any] = {"font_family": family, "font_size": _num(size), "fill": _colour(colour)}
        if weight == "bold":
            attrs["font_weight"] = "bold"
        elif weight == "italic":
            attrs["font_style"] = "italic"
        element = self.dwg.text(text, insert=(_num(x), _num(baseline)), **attrs)
        element["xml:space"] = "preserve"
        self._here.add(element)

    def _image_id(self, path: Path) -> str:
        key = path.resolve()
        if key not in self._images:
            mime = MIME.get(path.suffix.lower(), "image/png")
            data = base64.b64encode(path.read_bytes()).decode("ascii")
            image = self.dwg.image(href=f"data:{mime};base64,{data}", insert=(0, 0), size=(1, 1))
            image["preserveAspectRatio"] = "none"
            image["id"] = self._id("img")
            self.dwg.defs.add(image)
            self._images[key] = image["id"]
        return self._images[key]

    def image(self, path: Path, x: float, y: float, w: float, h: float) -> None:
        use = self.dwg.use(f"#{self._image_id(path)}")
        use["transform"] = f"translate({_num(x)},{_num(y)}) scale({w:.6g},{h:.6g})"
        self._here.add(use)

    # reuse ------------------------------------------------------------------------------------
    def begin_reuse(self, key: str) -> bool:
        """Record into a <g> in <defs>; call end_reuse() only when this returned True."""
        if key in self._reuse:
            return False
        group = self.dwg.g(id=self._id("reuse"))
        self.dwg.defs.add(group)
        self._reuse[key] = group.get_id()
        self._outer.append((self._stack, self._saves))
        self._stack, self._saves = [group], []
        return True

    def end_reuse(self) -> None:
        self._stack, self._saves = self._outer.pop()

    def reuse(self, key: str) -> None:
        self._here.add(self.dwg.use(f"#{self._reuse[key]}"))
