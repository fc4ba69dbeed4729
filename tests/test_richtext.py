"""Rich text measured in the real PDF: bold and italic runs in their fonts, inline icons taking room on
the line and counted by shrink-to-fit, escapes printed, an unknown icon located, plain text unchanged."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner
from conftest import SpecMaker
from pypdf import PdfReader

from pnpforge.cli import main

SPEC = """\
game: {id: rich, title: Rich}
icons: {gem: gem.png}
components:
  - name: deck
    kind: card
    size: poker
    face:
      elements:
        - {type: text, text: 'TEXT', x: 3mm, y: 10mm, w: 57mm, h: 12mm, size: 10pt, align: left, fit: FIT}
"""


def runs(make_spec: SpecMaker, runner: CliRunner, tmp_path: Path, text: str, fit: str = "none") -> list:
    """(text, font, size, x) of every text run on the card's sheet."""
    import io

    from PIL import Image

    gem = io.BytesIO()
    Image.new("RGB", (8, 8), (0, 120, 0)).save(gem, format="PNG")
    spec = SPEC.replace("TEXT", text).replace("FIT", fit)
    folder = make_spec(spec, folder=tmp_path.name, gem__png=gem.getvalue())
    out = tmp_path / "out"
    result = runner.invoke(main, ["build", str(folder), "-o", str(out)])
    assert result.exit_code == 0, result.output
    page = PdfReader(out / "rich.pdf").pages[1]
    found: list = []
    fonts = page["/Resources"]["/Font"]

    def visit(text: str, cm: list, tm: list, font: dict, size: float) -> None:
        if text.strip() and font is not None:
            found.append((text, font["/BaseFont"], size * tm[0], tm[4] * cm[0] + cm[4]))

    page.extract_text(visitor_text=visit)
    assert fonts
    return [r for r in found if "rich" not in r[0]]


def test_bold_and_italic_runs(make_spec: SpecMaker, runner: CliRunner, tmp_path: Path) -> None:
    found = runs(make_spec, runner, tmp_path, "Gain **two** coins, *then* rest")
    by_text = {text.strip(): font for text, font, _, _ in found}
    # Helvetica's faces, written with their embedded metric twins (output/embedfonts.py)
    assert by_text["two"].endswith("+LiberationSans-Bold") and by_text["then"].endswith(
        "+LiberationSans-Italic"
    )
    assert by_text["Gain"].endswith("+LiberationSans") and by_text["rest"].endswith("+LiberationSans")


def test_inline_icon_takes_room_on_the_line(make_spec: SpecMaker, runner: CliRunner, tmp_path: Path) -> None:
    from reportlab.pdfbase.pdfmetrics import stringWidth

    with_icon = runs(make_spec, runner, tmp_path / "a", "Gain :coin: now")
    plain = runs(make_spec, runner, tmp_path / "b", "Gain now")
    x_with = next(x for text, _, _, x in with_icon if text.strip() == "now")
    x_plain = next(x for text, _, _, x in plain if "now" in text) + stringWidth("Gain ", "Helvetica", 10)
    # " now" starts right after the icon: 0.85 em wide plus a 0.08 em gap, at 10 pt
    assert abs(x_with - x_plain - 0.93 * 10) < 0.05


def test_icons_count_in_shrink_to_fit(make_spec: SpecMaker, runner: CliRunner, tmp_path: Path) -> None:
    plain = runs(make_spec, runner, tmp_path / "a", "Take all of it", fit="shrink")
    iconed = runs(make_spec, runner, tmp_path / "b", "Take " + ":coin:" * 15 + " all of it", fit="shrink")
    assert plain[0][2] == 10
    assert iconed[0][2] < 10  # fifteen icons do not fit one 57 mm line at 10 pt: the text shrank


def test_spec_icon_and_escapes(make_spec: SpecMaker, runner: CliRunner, tmp_path: Path) -> None:
    found = runs(make_spec, runner, tmp_path, "a :gem: b \\*c\\* 10\\:30")
    text = "".join(t for t, _, _, _ in found)
    assert "*c*" in text and "10:30" in text and "gem" not in text


def test_spec_icon_as_an_icon_element(make_spec: SpecMaker, runner: CliRunner, tmp_path: Path) -> None:
    import io

    from conftest import extent_of, render_page
    from PIL import Image

    gem = io.BytesIO()
    Image.new("RGB", (8, 8), (0, 200, 0)).save(gem, format="PNG")
    spec = SPEC.replace(
        "{type: text, text: 'TEXT', x: 3mm, y: 10mm, w: 57mm, h: 12mm, size: 10pt, align: left, fit: FIT}",
        "{type: icon, name: gem, x: 10mm, y: 10mm, w: 30mm, h: 20mm}",
    )
    folder = make_spec(spec, gem__png=gem.getvalue())
    result = runner.invoke(main, ["build", str(folder), "-o", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    x0, y0, x1, y1 = extent_of(render_page(tmp_path / "out" / "rich.pdf", 1, 72), (0, 200, 0))
    assert abs((x1 - x0) - 20 * 72 / 25.4) < 2 and abs((y1 - y0) - 20 * 72 / 25.4) < 2  # square in its box


def test_unknown_icon_located(make_spec: SpecMaker, runner: CliRunner, tmp_path: Path) -> None:
    folder = make_spec(SPEC.replace("TEXT", "Gain :coins: now").replace("FIT", "none"))
    result = runner.invoke(main, ["build", str(folder), "-o", str(tmp_path / "out")])
    assert result.exit_code == 2
    assert (
        "game.yaml:9:" in result.output and "no icon 'coins'" in result.output and ":coin:" in result.output
    )


def test_japanese_rich_text_keeps_kinsoku(make_spec: SpecMaker, runner: CliRunner, tmp_path: Path) -> None:
    from conftest import require_cjk

    from pnpforge.fonts import FontRegistry
    from pnpforge.layouts.richtext import layout_rich, parse
    from pnpforge.layouts.text import NO_START

    require_cjk()
    fonts = FontRegistry()
    text = "**強い**カードを:coin:2枚引き、手札から1枚を捨てる。その後、*相手*は山札から1枚引く。「終わり」。"
    styled = parse(text, lambda name: name == "coin")
    layout = layout_rich(styled, 0, 0, 120, 200, fonts, "Helvetica", 10, "left", "top", "wrap", 1.2)
    lines = ["".join(p.text if not p.icon else "■" for p in line.pieces) for line in layout.lines]
    assert len(lines) > 2 and all(line[0] not in NO_START for line in lines[1:]), lines
    assert all(line.width <= 120 + 1e-6 for line in layout.lines)
    assert "".join(lines) == text.replace("**", "").replace("*", "").replace(":coin:", "■")


def test_rich_text_that_does_not_fit_is_said_and_strict_refuses(
    make_spec: SpecMaker, runner: CliRunner, tmp_path: Path
) -> None:
    long = "Gain **two** coins :coin: and " + "then rest a while " * 40
    folder = make_spec(SPEC.replace("TEXT", long).replace("FIT", "shrink"), gem__png=b"")
    out = tmp_path / "out"
    built = runner.invoke(main, ["build", str(folder), "-o", str(out)])
    assert built.exit_code == 0, built.output
    said = [line for line in built.output.splitlines() if "does not fit" in line]
    assert len(said) == 1 and "game.yaml:9:" in said[0] and "'Gain **two** coins :coi…'" in said[0], said
    assert "at the 6 pt floor" in said[0]
    strict = runner.invoke(main, ["build", str(folder), "-o", str(tmp_path / "strict"), "--strict"])
    assert strict.exit_code == 2 and "does not fit" in strict.output
    assert not (tmp_path / "strict" / "rich.pdf").exists()
    fits = make_spec(
        SPEC.replace("TEXT", "Gain **two** coins").replace("FIT", "shrink"), folder="short", gem__png=b""
    )
    clean = runner.invoke(main, ["build", str(fits), "-o", str(tmp_path / "clean"), "--strict"])
    assert clean.exit_code == 0 and "does not fit" not in clean.output, clean.output
