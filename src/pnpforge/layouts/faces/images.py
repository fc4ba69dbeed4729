"""The image files a face names: found and checked (inside the spec folder, PNG, JPEG or SVG, readable),
their size read once, and where a picture is painted in its box."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from pnpforge import limits
from pnpforge.components.model import ImageElement
from pnpforge.i18n import N_
from pnpforge.layouts.faces.context import Box, RenderContext
from pnpforge.layouts.faces.values import FaceError
from pnpforge.phrase import Phrase
from pnpforge.saying import reason
from pnpforge.sourcefile import FileRefError, named_file

IMAGE_TYPES = (".png", ".jpg", ".jpeg", ".svg")
NOT_IMAGE = N_("image {src} is not a PNG, JPEG or SVG file")


@lru_cache(maxsize=256)
def picture_size(path: Path, mtime: float) -> tuple[float, float]:
    from reportlab.lib.utils import ImageReader

    try:
        if path.suffix.lower() == ".svg":
            from pnpforge.output.svgimage import svg_size  # SVG art alone loads it (start-up speed)

            return svg_size(path)
        from PIL import Image

        limits.image_size(str(path), Phrase.word(N_("it")))  # the header first: never decode a bomb
        with Image.open(path) as image:
            image.load()  # decode it all now: a truncated file must fail here, not halfway through the PDF
        return ImageReader(str(path)).getSize()
    except Exception as exc:  # reportlab/PIL raise many kinds for a broken image
        raise FaceError(
            Phrase(N_("cannot read image {name}: {problem}"), name=repr(path.name), problem=reason(exc))
        ) from None


def image_path(src: str, ctx: RenderContext) -> Path:
    """The image file for `src`, checked: exists, PNG, JPEG or SVG, inside the spec folder unless allowed."""
    if Path(src).suffix.lower() not in IMAGE_TYPES:
        raise FaceError(Phrase(NOT_IMAGE, src=repr(src)))
    try:
        outside = ctx.allow_outside_files or ctx.allow_outside_images  # --allow-outside-images: images only
        path = named_file(ctx.spec_dir, src, "image", allow_outside=outside)
    except FileRefError as exc:
        raise FaceError(reason(exc)) from None
    if path.suffix.lower() not in IMAGE_TYPES:  # a link named .png may point at any file
        raise FaceError(Phrase(NOT_IMAGE, src=repr(src)))
    return path


def image_rect(el: ImageElement, box: Box, ctx: RenderContext) -> Box:
    """Where the picture is painted: the box (stretch, and cover, which is clipped to it), else the
    largest rectangle of the picture's shape centred in it (contain)."""
    path = image_path(el.src, ctx)
    iw, ih = picture_size(path, path.stat().st_mtime)
    if el.fit != "contain" or iw <= 0 or ih <= 0:
        return box
    ratio = min(box.w / iw, box.h / ih)
    w, h = iw * ratio, ih * ratio
    return Box(box.x + (box.w - w) / 2, box.y + (box.h - h) / 2, w, h)
