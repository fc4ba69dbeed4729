"""What a print shop's PDF carries besides the drawing: its PDF/X identification, the CMYK output intent,
the colours as the part of PDF/X asks, and the CutContour path.

- **Output intent**: the shop's CMYK output profile (a print characterisation, class `prtr`), embedded.
- **PDF/X-4**: colours stay as drawn; a `DefaultRGB` colour space holding the sRGB profile on every page
  and form makes every RGB colour and image ICC-based sRGB. `--black k` writes black as DeviceCMYK
  0 0 0 1, the output intent's own black.
- **PDF/X-1a**: every RGB colour is converted to CMYK by littleCMS (Pillow's ImageCms) from sRGB to the
  output profile (relative colorimetric with black-point compensation, as prepress tools convert);
  images too, their transparency kept as a colour-key mask (1 bit: PDF/X-1a has no soft masks).
- **Cut line**: a shaped piece's outline is stroked in a spot colour named `CutContour`, the name
  cutters and shop RIPs look for (its alternate is DeviceCMYK, the output intent's space); it
  overprints, so it never knocks out the art under it.
"""

from __future__ import annotations

import copy
import io
import uuid
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from reportlab.lib.rl_accel import fp_str

from pnpforge.i18n import N_
from pnpforge.internals import reportlab_private
from pnpforge.output.canvas import RGB, Point
from pnpforge.output.colour import srgb_profile
from pnpforge.output.info import Metadata

CUT_CONTOUR = "CutContour"
CUT_WIDTH = 0.25  # pt: a hairline, as cutter templates draw it
SRGB_SPACE = "PnpSRGB"  # the document object of the ICC-based sRGB colour space
TRANSPARENT_SVG = N_("transparency cannot go in a PDF/X-1a file (expected opaque SVG art)")
RASTER_IN_SVG = N_(
    "a picture inside an SVG cannot be converted to CMYK for PDF/X-1a (expected vector shapes, or the "
    "picture as an image element of its own)"
)
KEY = (255, 255, 255, 255)  # the colour-key of a masked CMYK image: 400 % ink, which no profile prints


class ShopColours:
    """How a print-shop PDF writes colours (the PdfCanvas `colours` hook): as drawn (PDF/X-4, with pure
    K black when asked) or converted to CMYK through `cmyk_profile` (PDF/X-1a)."""

    def __init__(self, black_k: bool, cmyk_profile: bytes | None = None) -> None:
        self.black_k = black_k
        self.profile_bytes = cmyk_profile
        self.transform: Any = None
        if cmyk_profile is not None:
            self.transform = _transform(cmyk_profile, "RGB")
        self._ops: dict[tuple[tuple[float, ...], bool], str] = {}

    @property
    def cmyk(self) -> bool:
        return self.transform is not None

    def operator(self, colour: RGB, stroke: bool) -> str:
        """The PDF operators that set `colour` for filling (or stroking)."""
        key = (tuple(colour), stroke)  # a list given: the same colour
        op = self._ops.get(key)
        if op is None:
            op = self._ops[key] = self._operator(key[0], stroke)
        return op

    def _operator(self, colour: tuple[float, ...], stroke: bool) -> str:
        if self.black_k and tuple(colour) == (0, 0, 0):
            return "0 0 0 1 " + ("K" if stroke else "k")
        if self.transform is None:
            return f"{fp_str(*colour)} {'RG' if stroke else 'rg'}"
        return f"{fp_str(*self.cmyk_of(colour))} {'K' if stroke else 'k'}"

    def cmyk_of(self, colour: Sequence[float]) -> tuple[float, ...]:
        """An sRGB colour (0-1) as the output profile's CMYK (0-1, 1/255 steps)."""
        from PIL import Image

        rgb = tuple(max(0, min(255, round(255 * float(v)))) for v in colour[:3])
        pixel = self.transform.apply(Image.new("RGB", (1, 1), rgb)).getpixel((0, 0))
        return tuple(round(v / 255, 4) for v in pixel)

    def image(self, path: Path) -> tuple[Any, Any]:
        """What reportlab's drawImage takes for the raster image at `path`: (image, mask)."""
        if self.transform is None:
            return str(path), "auto"
        from PIL import Image, ImageCms
        from reportlab.lib.utils import ImageReader

        with Image.open(path) as opened:
            opened.load()
            source: Image.Image = opened
            if source.mode == "CMYK":
                return ImageReader(source.copy()), None
            alpha = None
            if source.mode in ("RGBA", "LA", "PA") or "transparency" in source.info:
                rgba = source.convert("RGBA")
                alpha, source = rgba.getchannel("A"), rgba.convert("RGB")
            else:
                source = source.convert("RGB")
            own = opened.info.get("icc_profile")
            if own:  # the image says which RGB it is in: convert from that, not from sRGB
                transform = ImageCms.buildTransform(
                    ImageCms.ImageCmsProfile(io.BytesIO(own)),
                    ImageCms.ImageCmsProfile(io.BytesIO(self.profile_bytes or b"")),
                    "RGB",
                    "CMYK",
                    renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC,
                    flags=ImageCms.Flags.BLACKPOINTCOMPENSATION,
                )
            else:
                transform = self.transform
            cmyk = transform.apply(source)
        if alpha is None:
            return ImageReader(cmyk), None
        clear = alpha.point(lambda a: 255 if a < 128 else 0)  # under half opaque: not painted
        cmyk.paste(KEY, mask=clear)
        return ImageReader(cmyk), [v for k in KEY for v in (k, k)]

    def drawing(self, drawing: Any) -> Any:
        """An SVG drawing (reportlab graphics) as the shop's file writes it: reportlab's renderer starts
        every drawing in Helvetica and RGB black, so its text state names the embedded Helvetica twin
        (a preflight wants every font embedded) and, for PDF/X-1a, every colour is CMYK. Raises
        ValueError for what PDF/X-1a cannot hold (transparency, raster images inside)."""
        from pnpforge.output.embedfonts import embedded

        converted = copy.deepcopy(drawing) if self.transform is not None else copy.copy(drawing)
        # the renderer reads `initial*` from the drawing; reportlab's attribute check knows no such names
        object.__setattr__(converted, "initialFontName", embedded("Helvetica"))
        if self.transform is None:
            return converted
        from reportlab.graphics.shapes import Image as GraphicsImage
        from reportlab.lib.colors import CMYKColor, Color

        black = CMYKColor(*((0, 0, 0, 1) if self.black_k else self.cmyk_of((0, 0, 0))))
        object.__setattr__(converted, "initialFillColor", black)
        object.__setattr__(converted, "initialStrokeColor", black)
        stack = [converted]
        while stack:
            node = stack.pop()
            stack.extend(getattr(node, "contents", []) or [])
            if isinstance(node, GraphicsImage):
                raise ValueError(RASTER_IN_SVG)
            for name in ("fillOpacity", "strokeOpacity"):
                opacity = getattr(node, name, None)
                if opacity is not None and opacity < 1:
                    raise ValueError(TRANSPARENT_SVG)
            for name in ("fillColor", "strokeColor"):
                colour = getattr(node, name, None)
                if isinstance(colour, Color) and not isinstance(colour, CMYKColor):
                    if colour.alpha < 1:
                        raise ValueError(TRANSPARENT_SVG)
                    setattr(node, name, CMYKColor(*self.cmyk_of(colour.rgb())))
        return converted


@lru_cache(maxsize=4)
def _transform(cmyk_profile: bytes, mode: str) -> Any:
    from PIL import ImageCms

    return ImageCms.buildTransform(
        ImageCms.ImageCmsProfile(io.BytesIO(srgb_profile())),
        ImageCms.ImageCmsProfile(io.BytesIO(cmyk_profile)),
        mode,
        "CMYK",
        renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC,
        flags=ImageCms.Flags.BLACKPOINTCOMPENSATION,
    )


def identify_pdfx(
    rl: Any, standard: str, info: Metadata, profile: bytes, condition: str, xmp: Any, tool: str
) -> None:
    """Make the document a `standard` file: its output intent (the CMYK profile, named `condition`),
    `/GTS_PDFXVersion` in the document info, XMP metadata saying the same, and for PDF/X-4 the
    ICC-based sRGB that every DeviceRGB colour is taken as. `xmp` makes the packet (export/pdfx.py)."""
    from reportlab.pdfbase.pdfdoc import PDFArray, PDFDictionary, PDFName, PDFStream, PDFString

    doc = reportlab_private.document(rl)
    icc = PDFStream(PDFDictionary({"N": 4}), profile, filters=None)
    intent = PDFDictionary(
        {
            "Type": PDFName("OutputIntent"),
            "S": PDFName("GTS_PDFX"),
            "OutputConditionIdentifier": PDFString(condition),
            "OutputCondition": PDFString(condition),
            "RegistryName": PDFString("http://www.color.org"),
            "Info": PDFString(condition),
            "DestOutputProfile": doc.Reference(icc),
        }
    )
    reportlab_private.add_catalog_entry(rl, "OutputIntents", PDFArray([intent]))
    reportlab_private.add_info_entry(rl, "GTS_PDFXVersion", PDFString(standard))
    date = reportlab_private.creation_date(rl)
    document_id = "uuid:" + str(uuid.uuid5(uuid.NAMESPACE_URL, f"pnpforge:{standard}:{info.title}"))
    packet = xmp(standard, info.title, info.author, info.subject, tool, date, document_id)
    metadata = PDFStream(PDFDictionary({"Type": PDFName("Metadata"), "Subtype": PDFName("XML")}), packet, [])
    reportlab_private.add_catalog_entry(rl, "Metadata", doc.Reference(metadata))
    if standard == "PDF/X-4":
        header = PDFDictionary({"N": 3, "Alternate": PDFName("DeviceRGB")})
        srgb = PDFStream(header, srgb_profile(), filters=None)
        doc.Reference(PDFArray([PDFName("ICCBased"), doc.Reference(srgb)]), SRGB_SPACE)
        reportlab_private.add_colour_space_everywhere(rl, SRGB_SPACE, "DefaultRGB")


def draw_cut_contour(rl: Any, points: Sequence[Point]) -> None:
    """Stroke the closed outline `points` (current user space) in the CutContour spot colour."""
    from reportlab.lib.colors import CMYKColorSep

    rl.saveState()
    rl.setStrokeColor(CMYKColorSep(0, 1, 0, 0, spotName=CUT_CONTOUR, density=1))
    rl.setStrokeOverprint(1)
    rl.setLineWidth(CUT_WIDTH)
    path = rl.beginPath()
    path.moveTo(*points[0])
    for point in points[1:]:
        path.lineTo(*point)
    path.close()
    rl.drawPath(path, stroke=1, fill=0)
    rl.restoreState()
