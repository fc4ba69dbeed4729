"""What a print shop's PDF carries besides the drawing: an sRGB OutputIntent and the CutContour path.

The OutputIntent (as PDF/X-4 asks) says the file's RGB is sRGB, with the profile embedded. The cut line
of a shaped piece is stroked in a spot colour named `CutContour`, the name cutters and shop RIPs look
for; it overprints, so it never knocks out the art under it (a printer does not print a spot colour
it has no ink for: the line only guides the blade).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pnpforge.internals import reportlab_private
from pnpforge.output.canvas import Point
from pnpforge.output.colour import SRGB_NAME, srgb_profile

CUT_CONTOUR = "CutContour"
CUT_WIDTH = 0.25  # pt: a hairline, as cutter templates draw it


def add_output_intent(rl: Any) -> None:
    """Give the document an OutputIntent holding the sRGB profile (GTS_PDFX, as PDF/X-4 names it)."""
    from reportlab.pdfbase.pdfdoc import PDFArray, PDFDictionary, PDFName, PDFStream, PDFString

    doc = reportlab_private.document(rl)
    profile = PDFStream(PDFDictionary({"N": 3}), srgb_profile(), filters=None)
    intent = PDFDictionary(
        {
            "Type": PDFName("OutputIntent"),
            "S": PDFName("GTS_PDFX"),
            "OutputConditionIdentifier": PDFString(SRGB_NAME),
            "RegistryName": PDFString("http://www.color.org"),
            "Info": PDFString(SRGB_NAME),
            "DestOutputProfile": doc.Reference(profile),
        }
    )
    reportlab_private.add_catalog_entry(rl, "OutputIntents", PDFArray([intent]))


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
