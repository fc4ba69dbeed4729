"""limits.IMAGE_BYTES: the pictures one build embeds in its PDF, counted as each is embedded, refused past
the bound at the element (or the data row) naming the picture that tips it over, before anything is
written; a picture drawn on many pieces counts once, and a designer's deck stays well within it."""

from __future__ import annotations

import base64
import io
import os
import random
import re
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from PIL import Image
from pypdf import PdfReader

from pnpforge import limits
from pnpforge.building import BuildRequest, build
from pnpforge.buildoptions import BuildOptions
from pnpforge.cli import main
from pnpforge.drafts.watching import PageMemory
from pnpforge.errors import InputError

ROOT = Path(__file__).resolve().parents[1]

SPEC = """game: {id: noise, title: Noise}
components:
  - name: cards
    kind: card
    size: poker
    csv: cards.csv
    face:
      elements:
        - {type: image, src: "{art}", x: 0mm, y: 0mm, w: 100%, h: 100%}
"""
BACK = """    back:
      elements:
        - {type: image, src: back.png, x: 0mm, y: 0mm, w: 100%, h: 100%}
"""
SIDE = 120  # px: a noise picture of 43 kB embedded, all alike in size


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def noise(path: Path) -> None:
    Image.frombytes("RGB", (SIDE, SIDE), os.urandom(SIDE * SIDE * 3)).save(path)  # incompressible


def deck(folder: Path, arts: list[str], back: bool = False) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "game.yaml").write_text(SPEC + (BACK if back else ""), encoding="utf-8")
    rows = ["name,art", *(f"C{k},{art}" for k, art in enumerate(arts))]
    (folder / "cards.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    for art in sorted(set(arts)):
        noise(folder / art)
    if back:
        noise(folder / "back.png")
    return folder


def one_picture_bytes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> int:
    """What one noise picture embeds, as the refusal says it with a bound of 1 byte."""
    folder = deck(tmp_path / "one", ["a.png"])
    monkeypatch.setattr(limits, "IMAGE_BYTES", 1)
    result = run("build", str(folder), "-o", str(tmp_path / "one-out"))
    assert result.exit_code == 2, result.output
    found = re.search(r"embeds to ([\d,]+) bytes \(expected at most 1 bytes", result.output)
    assert found, result.output
    size = int(found.group(1).replace(",", ""))
    assert SIDE * SIDE * 3 <= size < SIDE * SIDE * 3 * 1.05  # noise: its pixels, barely compressed
    return size


def pictures_in(pdf: Path) -> int:
    """The different image XObjects of a PDF: those its pages draw and the forms they draw."""
    seen: set[int] = set()

    def walk(resources: object) -> None:
        xobjects = resources.get("/XObject", {}) if isinstance(resources, dict) else {}
        for ref in xobjects.values():
            if ref.idnum in seen:
                continue
            seen.add(ref.idnum)
            obj = ref.get_object()
            if obj.get("/Subtype") == "/Image":
                images.add(ref.idnum)
            else:
                walk(obj.get("/Resources", {}))

    images: set[int] = set()
    for page in PdfReader(pdf).pages:
        walk(page.get("/Resources", {}))
    return len(images)


def test_the_picture_that_tips_the_build_over_is_refused_at_its_row(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    each = one_picture_bytes(tmp_path, monkeypatch)
    monkeypatch.setattr(limits, "IMAGE_BYTES", each * 5 // 2)  # two pictures fit, not three
    folder = deck(tmp_path / "three", ["a.png", "b.png", "c.png"])
    out = tmp_path / "out"
    out.mkdir()
    (out / "noise.pdf").write_bytes(b"an older build")
    result = run("build", str(folder), "-o", str(out))
    assert result.exit_code == 2
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and "Traceback" not in result.output, result.output
    assert f"{folder / 'cards.csv'}:4:1: cards face element 1 (image): image 'c.png' brings" in lines[0]
    total = re.search(r"embeds to ([\d,]+) bytes", lines[0])
    assert total and each * 5 // 2 < int(total.group(1).replace(",", "")) <= each * 3 + 100
    assert f"expected at most {each * 5 // 2:,} bytes in one PDF" in lines[0]
    assert sorted(p.name for p in out.iterdir()) == ["noise.pdf"]
    assert (out / "noise.pdf").read_bytes() == b"an older build"  # nothing written, nothing half-written


def test_just_under_the_bound_builds_and_a_picture_drawn_again_counts_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    each = one_picture_bytes(tmp_path, monkeypatch)
    monkeypatch.setattr(limits, "IMAGE_BYTES", each * 5 // 2)
    folder = deck(tmp_path / "two", ["a.png", "b.png", "a.png", "b.png", "a.png", "b.png", "a.png"])
    result = run("build", str(folder), "-o", str(tmp_path / "out"))
    assert result.exit_code == 0, result.output
    assert pictures_in(tmp_path / "out" / "noise.pdf") == 2


def test_a_picture_named_in_game_yaml_is_refused_at_its_element(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    each = one_picture_bytes(tmp_path, monkeypatch)
    monkeypatch.setattr(limits, "IMAGE_BYTES", each * 3 // 2)  # the face's picture fits, not the back too
    folder = deck(tmp_path / "back", ["a.png"], back=True)
    result = run("build", str(folder), "-o", str(tmp_path / "out"))
    assert result.exit_code == 2
    assert f"{folder / 'game.yaml'}:12:11: cards back element 1 (image): image 'back.png' brings" in (
        result.output
    ), result.output
    assert not (tmp_path / "out").exists()


def test_the_designer_deck_builds_within_the_real_bound(tmp_path: Path) -> None:
    """bench_designer's spec, its deck given 60 different card arts of 0.8 Mpx (PNG, and JPEG)."""
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        import bench_designer
    finally:
        sys.path.remove(str(ROOT / "bench"))
    spec = bench_designer.make_spec(tmp_path)
    from openpyxl import load_workbook

    book = load_workbook(spec / "cards.xlsx")
    sheet = book["Cards"]
    column = [cell.value for cell in sheet[1]].index("art") + 1
    for row in range(2, sheet.max_row + 1):
        k = row - 2
        name = f"art/own{k:02d}.{'png' if k % 2 else 'jpg'}"
        picture = Image.linear_gradient("L").resize((1032, 774)).convert("RGB")
        tint = Image.new("RGB", picture.size, ((37 * k) % 256, (91 * k + 60) % 256, (53 * k + 120) % 256))
        Image.blend(picture, tint, 0.5).rotate(k * 6).save(spec / name)
        sheet.cell(row=row, column=column, value=name)
    book.save(spec / "cards.xlsx")
    assert limits.IMAGE_BYTES == 72_000_000
    result = run("build", str(spec), "-o", str(tmp_path / "out"))
    assert result.exit_code == 0, result.output
    pdf = next((tmp_path / "out").glob("*.pdf"))
    assert pictures_in(pdf) >= 60 + 2  # every card's own art, the back and the board picture


def test_a_build_played_back_from_the_kept_one_is_refused_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The second build of an unchanged spec plays the kept one back (compiled.py): its pictures count
    there too, and the build made in full instead says where."""
    each = one_picture_bytes(tmp_path, monkeypatch)
    monkeypatch.setattr(limits, "IMAGE_BYTES", each * 4)
    folder = deck(tmp_path / "three", ["a.png", "b.png", "c.png"])
    out = tmp_path / "out"
    assert run("build", str(folder), "-o", str(out)).exit_code == 0
    built = (out / "noise.pdf").read_bytes()
    monkeypatch.setattr(limits, "IMAGE_BYTES", each * 5 // 2)
    result = run("build", str(folder), "-o", str(out))
    assert result.exit_code == 2 and "Traceback" not in result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and "image 'c.png' brings the pictures this build embeds to" in lines[0]
    assert lines[0].startswith(f"error: {folder / 'cards.csv'}:4:1: "), lines[0]
    assert (out / "noise.pdf").read_bytes() == built


def test_watch_refuses_a_picture_on_a_page_it_plays_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`watch` draws the changed page (a new picture) and plays the unchanged one back: the picture on
    the played-back page tips the build over, and is said at the spec, not as a traceback."""
    each = one_picture_bytes(tmp_path, monkeypatch)
    monkeypatch.setattr(limits, "IMAGE_BYTES", each * 4)
    folder = deck(tmp_path / "watched", ["a.png", *["b.png"] * 8, "c.png"])  # c alone on the 2nd sheet
    memory = PageMemory()
    options = BuildOptions(out_dir=tmp_path / "out")
    first = build(BuildRequest(folder, options, watch=memory))
    built = (tmp_path / "out" / "noise.pdf").read_bytes()
    assert first.pages >= 3  # the cover, a:b sheet and c's
    monkeypatch.setattr(limits, "IMAGE_BYTES", each * 5 // 2)  # d and b drawn, c played back: over
    noise(folder / "d.png")
    text = (folder / "cards.csv").read_text(encoding="utf-8")
    (folder / "cards.csv").write_text(text.replace("C0,a.png", "C0,d.png"), encoding="utf-8")
    with pytest.raises(InputError) as refused:
        build(BuildRequest(folder, options, watch=memory))
    [problem] = refused.value.problems
    assert problem.file == str(folder / "game.yaml")
    assert "image 'c.png' brings the pictures this build embeds to" in str(problem.message)
    assert (tmp_path / "out" / "noise.pdf").read_bytes() == built


# -- pictures embedded in SVG art ----------------------------------------------------------------------


def noise_bytes(kind: str = "PNG", seed: int = 0) -> bytes:
    """An incompressible picture of SIDE px as a file's bytes (PNG or JPEG)."""
    out = io.BytesIO()
    pixels = random.Random(seed).randbytes(SIDE * SIDE * 3)
    Image.frombytes("RGB", (SIDE, SIDE), pixels).save(out, format=kind)
    return out.getvalue()


JPEG_START = b"\xff\xd8"


def svg_art(*pictures: bytes) -> str:
    """An SVG drawing each picture (PNG or JPEG bytes) as an embedded data: image, in a row."""
    kinds = ["jpeg" if data.startswith(JPEG_START) else "png" for data in pictures]
    images = "".join(
        f'<image x="{10 * k}" y="0" width="10" height="10" xlink:href="data:image/'
        f'{kind};base64,{base64.b64encode(data).decode()}"/>\n'
        for k, (kind, data) in enumerate(zip(kinds, pictures, strict=True))
    )
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
        f'width="{10 * len(pictures)}" height="10">\n<rect width="100%" height="100%" fill="#2255aa"/>\n'
        f"{images}</svg>\n"
    )


NAMED = SPEC.replace("w: 100%, h: 100%}", 'w: 100%, h: 100%}\n        - {type: text, text: "{name}"}')


def svg_deck(folder: Path, arts: dict[str, str], rows: list[str], text: str = SPEC) -> Path:
    """A deck whose rows name SVG art (`rows`: each card's art) written from `arts` (name: SVG)."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "game.yaml").write_text(text, encoding="utf-8")
    lines = ["name,art", *(f"C{k},{art}" for k, art in enumerate(rows))]
    (folder / "cards.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    for name, svg in arts.items():
        (folder / name).write_text(svg, encoding="utf-8")
    return folder


def refused_total(result: Result) -> int:
    """The bytes the one refusal line of an exit-2 build says the pictures come to."""
    assert result.exit_code == 2, result.output
    found = re.search(r"embeds to ([\d,]+) bytes", result.output)
    assert found and "Traceback" not in result.output, result.output
    return int(found.group(1).replace(",", ""))


def inline_images(pdf: Path) -> int:
    """Inline images (BI ... ID ... EI) in the content of a PDF's pages and the forms they draw."""
    found = 0
    seen: set[int] = set()

    def walk(resources: object) -> None:
        nonlocal found
        xobjects = resources.get("/XObject", {}) if isinstance(resources, dict) else {}
        for ref in xobjects.values():
            obj = ref.get_object()
            if ref.idnum in seen or obj.get("/Subtype") != "/Form":
                continue
            seen.add(ref.idnum)
            found += len(re.findall(rb"(?:^|\s)BI\s", obj.get_data()))
            walk(obj.get("/Resources", {}))

    for page in PdfReader(pdf).pages:
        found += len(re.findall(rb"(?:^|\s)BI\s", page.get_contents().get_data()))
        walk(page.get("/Resources", {}))
    return found


def test_an_svg_embedded_jpeg_counts_its_own_bytes_and_a_png_its_pixels(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As for JPEG and PNG art: a JPEG goes into the PDF as it is, a PNG's pixels compressed."""
    monkeypatch.setattr(limits, "IMAGE_BYTES", 1)
    jpeg = noise_bytes("JPEG")
    folder = svg_deck(tmp_path / "jpeg", {"art.svg": svg_art(jpeg)}, ["art.svg"])
    result = run("build", str(folder), "-o", str(tmp_path / "out"))
    assert refused_total(result) == len(jpeg)
    where = f"{folder / 'cards.csv'}:2:1: cards face element 1 (image): "
    assert f"{where}image 'art.svg' brings" in result.output
    (folder / "art.svg").write_text(svg_art(noise_bytes("PNG")), encoding="utf-8")
    size = refused_total(run("build", str(folder), "-o", str(tmp_path / "out")))
    assert SIDE * SIDE * 3 <= size < SIDE * SIDE * 3 * 1.05  # noise: its pixels, barely compressed
    assert not (tmp_path / "out").exists()


def test_the_svg_that_tips_the_build_over_is_refused_at_its_row(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    each = one_picture_bytes(tmp_path, monkeypatch)
    monkeypatch.setattr(limits, "IMAGE_BYTES", each * 5 // 2)  # two pictures fit, not three
    arts = {f"{name}.svg": svg_art(noise_bytes(seed=k)) for k, name in enumerate("abc")}
    folder = svg_deck(tmp_path / "three", arts, ["a.svg", "b.svg", "c.svg"])
    out = tmp_path / "out"
    out.mkdir()
    (out / "noise.pdf").write_bytes(b"an older build")
    result = run("build", str(folder), "-o", str(out))
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1, result.output
    assert lines[0].startswith(f"error: {folder / 'cards.csv'}:4:1: cards face element 1 (image): ")
    assert "image 'c.svg' brings the pictures this build embeds to" in lines[0]
    assert each * 5 // 2 < refused_total(result) <= each * 3 + 100
    assert f"expected at most {each * 5 // 2:,} bytes in one PDF" in lines[0]
    assert (out / "noise.pdf").read_bytes() == b"an older build" and len(list(out.iterdir())) == 1


def test_an_svg_holding_many_pictures_is_refused_at_its_element(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One SVG named in game.yaml, drawn on every card, whose pictures together are too many."""
    each = one_picture_bytes(tmp_path, monkeypatch)
    monkeypatch.setattr(limits, "IMAGE_BYTES", each * 5 // 2)
    text = SPEC.replace('src: "{art}"', "src: art.svg")
    many = svg_art(*(noise_bytes(seed=k) for k in range(3)))
    folder = svg_deck(tmp_path / "many", {"art.svg": many}, ["-"] * 3, text)
    result = run("build", str(folder), "-o", str(tmp_path / "out"))
    assert result.exit_code == 2
    assert result.output.startswith(f"error: {folder / 'game.yaml'}:9:11: cards face element 1 (image): ")
    assert "image 'art.svg' brings the pictures this build embeds to" in result.output
    assert len(result.output.strip().splitlines()) == 1 and not (tmp_path / "out").exists()
    (folder / "art.svg").write_text(svg_art(noise_bytes(seed=0), noise_bytes(seed=1)), encoding="utf-8")
    assert run("build", str(folder), "-o", str(tmp_path / "out")).exit_code == 0


def test_an_svg_drawn_on_every_card_embeds_its_pictures_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each card has its own name, so each draws the SVG again: its two pictures are in the PDF once,
    as image XObjects (not written into every card's drawing), and counted once."""
    each = one_picture_bytes(tmp_path, monkeypatch)
    monkeypatch.setattr(limits, "IMAGE_BYTES", each * 5 // 2)
    art = svg_art(noise_bytes("PNG", seed=1), noise_bytes("PNG", seed=2))
    folder = svg_deck(tmp_path / "nine", {"art.svg": art, "same.svg": art}, ["art.svg"] * 8 + ["same.svg"])
    (folder / "game.yaml").write_text(NAMED, encoding="utf-8")
    result = run("build", str(folder), "-o", str(tmp_path / "out"))
    assert result.exit_code == 0, result.output
    pdf = tmp_path / "out" / "noise.pdf"
    assert pictures_in(pdf) == 2 and inline_images(pdf) == 0
    (folder / "cards.csv").write_text("name,art\nC0,art.svg\n", encoding="utf-8")
    assert run("build", str(folder), "-o", str(tmp_path / "one")).exit_code == 0
    more = pdf.stat().st_size - (tmp_path / "one" / "noise.pdf").stat().st_size
    assert 0 < more < each // 2  # eight more cards: their names, not sixteen more pictures


def test_a_transparent_picture_in_svg_art_shows_the_art_beneath(tmp_path: Path) -> None:
    """Its transparency is kept (a soft mask, as a PNG's): the SVG's blue shows through, not black."""
    clear = io.BytesIO()
    picture = Image.new("RGBA", (SIDE, SIDE), (0, 0, 0, 0))
    picture.paste((220, 20, 20, 255), (0, 0, SIDE, SIDE // 2))  # red top half, clear bottom half
    picture.save(clear, format="PNG")
    folder = svg_deck(tmp_path / "clear", {"art.svg": svg_art(clear.getvalue())}, ["art.svg"])
    assert run("build", str(folder), "-o", str(tmp_path / "out")).exit_code == 0
    import pypdfium2

    document = pypdfium2.PdfDocument(tmp_path / "out" / "noise.pdf")
    sheet = document[len(document) - 1].render(scale=1).to_pil().convert("RGB")
    colours = sorted(sheet.getcolors(sheet.width * sheet.height), reverse=True)
    shown = {colour for count, colour in colours if count > 2000}
    assert any(r > 200 and g < 50 and b < 50 for r, g, b in shown), shown  # the picture's red half
    assert any(b > 150 and r < 60 for r, g, b in shown), shown  # the SVG's blue under its clear half
    assert not any(max(c) < 30 for c in shown), shown  # no black where the picture is clear
