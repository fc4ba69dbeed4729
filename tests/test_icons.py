"""Built-in icons: every one draws on both canvases, inside its box, in its colour."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from reportlab.pdfgen.canvas import Canvas as RLCanvas

from pnpforge.layouts.icon_table import ICON_NAMES
from pnpforge.layouts.icons import draw_icon
from pnpforge.output.pdf_canvas import PdfCanvas
from pnpforge.output.svg_canvas import SvgCanvas
from pnpforge.units import mm

REQUIRED = [
    "temple",
    "person",
    "crystal",
    "crown",
    "sheep",
    "pasture",
    "hut",
    "ship",
    "monster",
    "camel",
    "pyramid",
    "obelisk",
    "ankh",
    "star",
    "shield",
    "pip1",
    "pip2",
    "pip3",
    "pip4",
    "pip5",
    "pip6",
    "cross",
    "circle",
    "triangle",
    "square",
    "hexagon",
    "heart",
    "sword",
    "scroll",
    "cube",
    "statue",
    "shrine",
    "wave",
    "mountain",
    "sun",
    "eye",
    "scorpion",
    "skull",
    "arrow",
]
CELL, SIZE, SCALE = mm(14), mm(10), 4.0  # icons drawn 10 mm wide, rendered at 288 dpi


def test_the_required_icons_exist() -> None:
    assert set(REQUIRED) <= set(ICON_NAMES)
    assert len(set(ICON_NAMES)) == len(ICON_NAMES)


@pytest.fixture(scope="module")
def sheet(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    """All icons in red on one PDF page, rendered to pixels."""
    cols = 8
    rows = -(-len(ICON_NAMES) // cols)
    out = tmp_path_factory.mktemp("icons") / "icons.pdf"
    rl = RLCanvas(str(out), pagesize=(cols * CELL, rows * CELL), invariant=1)
    canvas = PdfCanvas(rl, rows * CELL)
    boxes = {}
    for index, name in enumerate(ICON_NAMES):
        x = (index % cols) * CELL + (CELL - SIZE) / 2
        y = (index // cols) * CELL + (CELL - SIZE) / 2
        draw_icon(canvas, name, x, y, SIZE, SIZE, (1.0, 0.0, 0.0))
        boxes[name] = (x, y)
    rl.save()
    image = pdfium.PdfDocument(str(out))[0].render(scale=SCALE).to_pil().convert("RGB")
    return image, boxes


@pytest.mark.parametrize("name", ICON_NAMES)
def test_icon_draws_red_inside_its_box(sheet, name: str) -> None:  # type: ignore[no-untyped-def]
    image, boxes = sheet
    x, y = boxes[name]
    margin = (CELL - SIZE) / 2
    left, top = int((x - margin) * SCALE), int((y - margin) * SCALE)
    right, bottom = int((x + SIZE + margin) * SCALE), int((y + SIZE + margin) * SCALE)
    red, outside = 0, 0
    box = (x * SCALE - 2, y * SCALE - 2, (x + SIZE) * SCALE + 2, (y + SIZE) * SCALE + 2)
    pixels = image.load()
    for py in range(top, bottom):
        for px in range(left, right):
            r, g, b = pixels[px, py]
            if r > 200 and g < 90 and b < 90:
                red += 1
                if not (box[0] <= px <= box[2] and box[1] <= py <= box[3]):
                    outside += 1
    area = (SIZE * SCALE) ** 2
    assert red > area * 0.01, f"{name} draws almost nothing"
    assert outside == 0, f"{name} spills {outside} pixels outside its box"


def test_every_icon_draws_on_the_svg_canvas() -> None:
    canvas = SvgCanvas(mm(100), mm(100))
    counts = []
    for name in ICON_NAMES:
        before = len(canvas.dwg.elements)
        draw_icon(canvas, name, 10, 10, SIZE, SIZE, (0.0, 0.5, 0.0), (0.0, 0.0, 0.0))
        counts.append(len(canvas.dwg.elements) - before)
    assert all(count > 0 for count in counts)
    root = ET.fromstring(canvas.tostring())
    fills = {el.get("fill") for el in root.iter() if el.get("fill")}
    assert "#008000" in fills


def test_unknown_icon_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="unknown icon .tempel. \\(did you mean temple"):
        draw_icon(SvgCanvas(100, 100), "tempel", 0, 0, 10, 10, (0.0, 0.0, 0.0))


def test_icon_keeps_its_aspect_in_a_wide_box() -> None:
    canvas = SvgCanvas(200, 100)
    draw_icon(canvas, "square", 0, 0, 200, 100, (0.0, 0.0, 0.0))
    polygon = next(el for el in ET.fromstring(canvas.tostring()).iter() if el.tag.endswith("polygon"))
    xs = [float(p.split(",")[0]) for p in polygon.get("points", "").split()]
    assert min(xs) == pytest.approx(50 + 12) and max(xs) == pytest.approx(50 + 88)  # centred square
