"""What a face element kind is, in one class: the model it reads, how it is drawn, whether it bleeds.

Each kind of element (rect, text, hexgrid, ...) is one subclass of `ElementKind`, written beside its
drawing code (layouts/faces/elements.py, hexmaps.py), in the spirit of Squib's one class per command:

    class Rect(ElementKind[RectElement]):
        model = RectElement      # the spec's model of the element (components/model.py)
        bleeds = True            # painted art reaching the cut line is carried on into the bleed

        def draw(self, canvas, el, box, piece, ctx): ...
        def outline(self, el, box, piece, ctx): ...   # the painted outline the bleed carries on
        def extent(self, el, box, piece): ...         # where it draws, when not only in its box

Defining the class registers it: `kind_of(element)` finds it by the element's model, typed by it, so the
face drawing (render.py) and the bleed (bleed.py) never switch on an element's type themselves.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, ClassVar, Generic, TypeVar

from pnpforge.generator.pieces import Piece
from pnpforge.layouts.faces.context import Box, RenderContext
from pnpforge.lightmodel import BaseModel
from pnpforge.output.canvas import Canvas, Point

E = TypeVar("E", bound=BaseModel)

KINDS: dict[type[BaseModel], ElementKind[Any]] = {}  # element model -> its kind, filled by the subclasses


class ElementKind(ABC, Generic[E]):
    """One kind of face element; subclasses set `model` (and `bleeds`) and draw it."""

    model: ClassVar[type[BaseModel]]
    bleeds: ClassVar[bool] = False  # painted art of it that reaches the cut line is carried into the bleed

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.model in KINDS:
            raise TypeError(f"two element kinds for {cls.model.__name__}")
        KINDS[cls.model] = cls()

    @abstractmethod
    def draw(self, canvas: Canvas, el: E, box: Box, piece: Piece, ctx: RenderContext) -> None:
        """Draw the (already filled) element in `box`; raise FaceError with what is wrong and expected."""

    def outline(self, el: E, box: Box, piece: Piece, ctx: RenderContext) -> list[Point] | None:
        """The outline it paints, unrotated, in piece coordinates (what the bleed carries on); None: none."""
        return None

    def extent(self, el: E, box: Box, piece: Piece) -> Box:
        """The upright box it draws in, unrotated (its box; points or copies reach elsewhere)."""
        return box


def kind_of(element: E) -> ElementKind[E]:
    """The kind that draws `element` (KeyError for a model no kind was written for)."""
    return KINDS[type(element)]
