"""Pictures embedded in SVG art (`data:` images): a GIF is drawn (its first frame, its transparency
kept), counted in IMAGE_BYTES as the PNG it is drawn as and bounded by IMAGE_PIXELS; a PNG or JPEG
written otherwise than svglib reads one is drawn too; a picture that cannot be drawn is refused at the
SVG's line and column, exit 2, nothing written, and no line of svglib's own ever reaches stderr.
Through the real CLI, read from the real PDF's pixels."""

from __future__ import annotations

import base64
import io
import re
from pathlib import Path

import pypdfium2
import pytest
from click.testing import Result
from PIL import Image
from test_imagebytes import SIDE, SPEC, noise_bytes, refused_total, run, svg_deck

from pnpforge import limits
from pnpforge.output import svgimage

DOCS = Path(__file__).resolve().parents[1] / "docs"
RED, GREEN, BLUE = (220, 20, 20), (20, 180, 20), (34, 85, 170)  # BLUE: the SVG's own #2255aa


def svg_with(href: str, element: str = "image") -> str:
    """An SVG of a blue square with one picture drawn over it (written as `href`)."""
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
        'width="10" height="10">\n<rect width="100%" height="100%" fill="#2255aa"/>\n'
        f'<{element} x="0" y="0" width="10" height="10" xlink:href="{href}"/>\n</svg>\n'
    )


def uri(data: bytes, kind: str) -> str:
    return f"data:image/{kind};base64,{base64.b64encode(data).decode()}"


def half_red_gif() -> bytes:
    """A GIF whose top half is red and bottom half transparent."""
    picture = Image.new("RGBA", (SIDE, SIDE), (0, 0, 0, 0))
    picture.paste((*RED, 255), (0, 0, SIDE, SIDE // 2))
    out = io.BytesIO()
    picture.save(out, format="GIF")
    return out.getvalue()


def colours(pdf: Path) -> set[tuple[int, int, int]]:
    """The colours covering more than 2000 px of the PDF's last page at 72 dpi."""
    document = pypdfium2.PdfDocument(pdf)
    sheet = document[len(document) - 1].render(scale=1).to_pil().convert("RGB")
    return {colour for count, colour in sheet.getcolors(sheet.width * sheet.height) if count > 2000}


def near(colour: tuple[int, int, int], shown: set[tuple[int, int, int]]) -> bool:
    return any(all(abs(a - b) <= 12 for a, b in zip(colour, seen, strict=True)) for seen in shown)


def said_nothing_of_its_own(result: Result, capfd: pytest.CaptureFixture[str]) -> None:
    """Neither the command's stderr nor the process's carries a line of svglib's."""
    heard = result.stderr + capfd.readouterr().err
    assert "Unable to " not in heard and "Skipping" not in heard and "Traceback" not in heard, heard


def test_a_gif_in_svg_art_is_drawn_with_its_transparency(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    folder = svg_deck(tmp_path / "gif", {"art.svg": svg_with(uri(half_red_gif(), "gif"))}, ["art.svg"])
    result = run("build", str(folder), "-o", str(tmp_path / "out"))
    assert result.exit_code == 0 and not result.stderr, result.output
    said_nothing_of_its_own(result, capfd)
    shown = colours(tmp_path / "out" / "noise.pdf")
    assert near(RED, shown), shown  # the GIF's red half
    assert near(BLUE, shown), shown  # the SVG's blue under its clear half
    assert not any(max(c) < 30 for c in shown), shown  # no black where the GIF is clear


def test_an_animated_gif_shows_its_first_frame(tmp_path: Path) -> None:
    frames = [Image.new("RGB", (SIDE, SIDE), colour) for colour in (RED, GREEN)]
    out = io.BytesIO()
    frames[0].save(out, format="GIF", save_all=True, append_images=frames[1:], duration=100)
    folder = svg_deck(tmp_path / "anim", {"art.svg": svg_with(uri(out.getvalue(), "gif"))}, ["art.svg"])
    assert run("build", str(folder), "-o", str(tmp_path / "out")).exit_code == 0
    shown = colours(tmp_path / "out" / "noise.pdf")
    assert near(RED, shown) and not near(GREEN, shown), shown


def test_a_gif_counts_its_pixels_as_the_png_it_is_drawn_as(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """IMAGE_BYTES: a GIF embedded in SVG art counts what its first frame embeds, as the same pixels
    given as a PNG do, and is refused at its row past the bound."""
    monkeypatch.setattr(limits, "IMAGE_BYTES", 1)
    gif = io.BytesIO()
    Image.open(io.BytesIO(noise_bytes())).quantize(256).save(gif, format="GIF")
    png = io.BytesIO()
    Image.open(io.BytesIO(gif.getvalue())).convert("RGB").save(png, format="PNG")
    arts = {"gif.svg": svg_with(uri(gif.getvalue(), "gif")), "png.svg": svg_with(uri(png.getvalue(), "png"))}
    folder = svg_deck(tmp_path / "count", arts, ["gif.svg"])
    result = run("build", str(folder), "-o", str(tmp_path / "out"))
    total = refused_total(result)
    where = f"{folder / 'cards.csv'}:2:1: cards face element 1 (image): "
    assert f"{where}image 'gif.svg' brings" in result.output
    (folder / "cards.csv").write_text("name,art\nC0,png.svg\n", encoding="utf-8")
    assert refused_total(run("build", str(folder), "-o", str(tmp_path / "out"))) == total
    assert total >= SIDE * SIDE and not (tmp_path / "out").exists()


def test_a_gif_past_the_pixel_bound_is_refused_at_the_svg(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(limits, "IMAGE_PIXELS", SIDE * SIDE - 1)
    folder = svg_deck(tmp_path / "big", {"art.svg": svg_with(uri(half_red_gif(), "gif"))}, ["art.svg"])
    result = run("build", str(folder), "-o", str(tmp_path / "out"))
    assert result.exit_code == 2 and "Traceback" not in result.output
    said = f"art.svg:3:43: an embedded image is {SIDE} × {SIDE} px (expected at most {SIDE * SIDE - 1:,} px"
    assert said in result.output, result.output
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize(
    "written",
    [
        "data:image/PNG;base64,",  # svglib reads only lower case
        "data:image/png;charset=utf-8;base64,",  # nor a parameter
        "data:image/jpeg;base64,",  # a PNG named a JPEG
        "data:image/gif;base64,",  # a PNG named a GIF
    ],
)
def test_a_png_written_otherwise_is_drawn(
    written: str, tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    red = io.BytesIO()
    Image.new("RGB", (SIDE, SIDE), RED).save(red, format="PNG")
    href = written + base64.b64encode(red.getvalue()).decode()
    folder = svg_deck(tmp_path / "png", {"art.svg": svg_with(href)}, ["art.svg"])
    result = run("build", str(folder), "-o", str(tmp_path / "out"))
    assert result.exit_code == 0 and not result.stderr, result.output
    said_nothing_of_its_own(result, capfd)
    assert near(RED, colours(tmp_path / "out" / "noise.pdf"))


def truncated_png() -> str:
    return uri(noise_bytes()[:2000], "png")


def bmp() -> str:
    out = io.BytesIO()
    Image.new("RGB", (8, 8), RED).save(out, format="BMP")
    return uri(out.getvalue(), "png")


@pytest.mark.parametrize(
    ("href", "element", "message"),
    [
        ("data:image/png,%89PNG", "image", "embedded image 'data:image/png,%89PNG' is not base64"),
        (truncated_png(), "image", "an embedded image that cannot be read"),
        (bmp(), "image", "an embedded BMP image, not a PNG, JPEG or GIF"),
        (
            uri(noise_bytes(), "png"),
            "use",
            "a <use> of an embedded image draws nothing: put the image in an <image> element",
        ),
    ],
)
def test_a_picture_that_cannot_be_drawn_is_refused_at_the_svg(
    href: str, element: str, message: str, tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    folder = svg_deck(tmp_path / "bad", {"art.svg": svg_with(href, element)}, ["art.svg"])
    out = tmp_path / "out"
    out.mkdir()
    (out / "noise.pdf").write_bytes(b"an older build")
    result = run("build", str(folder), "-o", str(out))
    assert result.exit_code == 2
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1, result.output
    col = 43 if element == "image" else 41  # its href's
    where = f"cards face element 1 (image): cannot read image 'art.svg': art.svg:3:{col}: "
    assert f"{where}{message} (expected only shapes and embedded data: images)" in lines[0], lines[0]
    said_nothing_of_its_own(result, capfd)
    assert (out / "noise.pdf").read_bytes() == b"an older build" and len(list(out.iterdir())) == 1


def test_a_picture_svglib_still_leaves_out_is_refused_in_our_words(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    """Should a picture reach svglib as it cannot read it (here: the GIF handed over unconverted),
    svglib's own line ("Unable to resolve image path …") is kept off stderr and the SVG refused."""
    monkeypatch.setattr(svgimage, "_as_svglib_reads", lambda written: written)
    folder = svg_deck(tmp_path / "left", {"art.svg": svg_with(uri(half_red_gif(), "gif"))}, ["art.svg"])
    result = run("build", str(folder), "-o", str(tmp_path / "out"))
    assert result.exit_code == 2
    assert re.search(
        r"cannot read image 'art\.svg': art\.svg:3:1: an embedded image that cannot be drawn \(expected a "
        r"PNG, JPEG or GIF data: image in an <image>\)",
        result.output,
    ), result.output
    said_nothing_of_its_own(result, capfd)
    assert not (tmp_path / "out").exists()


def test_the_refusal_docs_elements_shows(tmp_path: Path) -> None:
    """docs/elements.md's `text svg-picture` line is what a BMP embedded in game.yaml's art says."""
    shown = re.search(r"```text svg-picture\n(.*?)\n```", (DOCS / "elements.md").read_text(encoding="utf-8"))
    assert shown
    text = SPEC.replace('src: "{art}"', "src: art.svg")
    folder = svg_deck(tmp_path / "docs", {"art.svg": svg_with(bmp())}, ["-"], text)
    result = run("build", str(folder), "-o", str(tmp_path / "out"))
    assert result.exit_code == 2
    assert result.output.strip().replace(f"{folder}/", "") == shown.group(1)
