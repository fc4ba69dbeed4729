"""The font registry: a CJK TrueType font is found and used run by run; without one, one warning."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pypdf
import pytest
from reportlab.pdfgen.canvas import Canvas as RLCanvas

from pnpforge.errors import InputError
from pnpforge.fonts import MISSING_CJK_WARNING, STANDARD, FontRegistry, find_cjk_font, is_cjk
from pnpforge.output.pdf_canvas import PdfCanvas


def need_cjk() -> Path:
    """The machine's CJK font; skip without one, unless CI demands it (PNPFORGE_REQUIRE_CJK=1)."""
    path = find_cjk_font()
    if path is None:
        if os.environ.get("PNPFORGE_REQUIRE_CJK") == "1":
            pytest.fail("no CJK TrueType font found but PNPFORGE_REQUIRE_CJK=1")
        pytest.skip("no CJK TrueType font on this machine")
    return path


@pytest.fixture(scope="module")
def fonts() -> FontRegistry:
    need_cjk()
    return FontRegistry()


def test_finds_a_loadable_cjk_font(fonts: FontRegistry) -> None:
    assert fonts.cjk is not None
    assert fonts.cjk_path is not None and fonts.cjk_path.suffix.lower() in (".ttf", ".ttc")
    assert fonts.warnings == []


def test_runs_split_cjk_from_latin(fonts: FontRegistry) -> None:
    runs = fonts.runs("Temple 神殿 (3)", "Helvetica")
    assert runs == [("Temple ", "Helvetica"), ("神殿", fonts.cjk), (" (3)", "Helvetica")]
    # characters the standard font cannot show (Greek) also go to the CJK font, which has them
    assert fonts.runs("αβ", "Helvetica") == [("αβ", fonts.cjk)]
    assert fonts.runs("é€", "Helvetica") == [("é€", "Helvetica")]


def test_width_is_sum_of_runs(fonts: FontRegistry) -> None:
    whole = fonts.width("ab神殿", "Helvetica", 10)
    assert whole == pytest.approx(fonts.width("ab", "Helvetica", 10) + fonts.width("神殿", "Helvetica", 10))
    assert fonts.width("神", "Helvetica", 10) == pytest.approx(10.0)  # full-width glyph: one em


def test_logical_names_and_unknown_font(fonts: FontRegistry, tmp_path: Path) -> None:
    assert fonts.resolve("sans-bold") == "Helvetica-Bold"
    assert set(STANDARD) >= {"sans", "serif", "mono", "sans-bold", "serif-bold"}
    with pytest.raises(ValueError, match="unknown font 'fancy'"):
        fonts.resolve("fancy")
    with pytest.raises(ValueError, match="font .missing.ttf. not found"):
        fonts.resolve("missing.ttf", tmp_path)


def test_spec_ttf_font_registers(fonts: FontRegistry, tmp_path: Path) -> None:
    path = need_cjk()
    (tmp_path / "my.ttf").write_bytes(path.read_bytes())
    name = fonts.resolve("my.ttf", tmp_path)
    assert name.startswith("Pnp-")
    assert fonts.runs("A神", name) == [("A神", name)]  # the TTF has both, no fallback needed


def test_explicit_bad_font_path_is_an_input_error(tmp_path: Path) -> None:
    bad = tmp_path / "broken.ttf"
    bad.write_bytes(b"not a font")
    with pytest.raises(InputError) as info:
        FontRegistry(bad)
    assert info.value.problems[0].file == str(bad)
    assert "TrueType" in info.value.problems[0].message


def test_no_cjk_font_warns_once_and_still_builds(tmp_path: Path) -> None:
    fonts = FontRegistry(search=False)
    assert fonts.warnings == [MISSING_CJK_WARNING]
    assert fonts.runs("神殿 A", "Helvetica") == [("神殿 A", "Helvetica")]
    out = tmp_path / "fallback.pdf"
    rl = RLCanvas(str(out), pagesize=(200, 100), invariant=1)
    PdfCanvas(rl, 100).text(10, 50, "神殿 Temple", "Helvetica", 12, (0, 0, 0))
    rl.save()
    assert "Temple" in pypdf.PdfReader(str(out)).pages[0].extract_text()


def test_is_cjk() -> None:
    assert all(is_cjk(c) for c in "神あアー。「　Ａ")
    assert not any(is_cjk(c) for c in "Aé1 -")


def test_a_line_in_two_fonts_extracts_as_one_line(fonts: FontRegistry, tmp_path: Path) -> None:
    out = tmp_path / "runs.pdf"
    rl = RLCanvas(str(out), pagesize=(300, 100), invariant=1)
    canvas = PdfCanvas(rl, 100)
    x = 10.0
    for segment, font in fonts.runs("0金未満(0金は続行)、Temple", "Helvetica"):
        canvas.text(x, 50, segment, font, 10, (0, 0, 0))
        x += fonts.width(segment, font, 10)
    rl.showPage()  # straight on the reportlab canvas: the pending line must still be written
    rl.save()
    assert "0金未満(0金は続行)、Temple" in pypdf.PdfReader(str(out)).pages[0].extract_text()


LATIN_FONT_SPEC = """\
game: {id: latin, title: Latin}
defaults:
  font: Latin.ttf
components:
  - name: deck
    kind: card
    size: poker
    rows:
      - {name: {en: Storm, ja: 嵐}, count: 5}
      - {name: {en: Fish, ja: 魚}, count: 3}
      - {name: {en: Wind, ja: 風}, count: 4}
    face:
      elements:
        - {type: text, text: "{name}", x: 3mm, y: 3mm, w: 57mm, h: 10mm}
"""


def test_a_font_without_the_characters_is_one_warning_at_its_line(tmp_path: Path) -> None:
    """A Latin-only defaults.font in a Japanese build: one warning, at `font:`, naming the characters
    and how many pieces and pages lack them (not one a piece, never a `:0` place)."""
    from click.testing import CliRunner

    from pnpforge.cli import main
    from pnpforge.output.embedfonts import twin_file

    latin = twin_file("Helvetica")
    if latin is None:
        pytest.skip("no Liberation fonts on this machine")
    folder = tmp_path / "latin"
    folder.mkdir()
    (folder / "Latin.ttf").write_bytes(Path(latin).read_bytes())
    (folder / "game.yaml").write_text(LATIN_FONT_SPEC, encoding="utf-8")
    runner = CliRunner()
    result = runner.invoke(main, ["build", str(folder), "--lang", "ja", "-o", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    said = [line for line in result.output.splitlines() if "warning" in line]
    assert len(said) == 1, result.output
    assert said[0].startswith(f"{folder / 'game.yaml'}:3:9: warning: font Latin.ttf lacks "), said
    # the cover's words come first; the first twelve characters named, the rest counted
    assert "'人' (U+4EBA)" in said[0] and re.search(r", … \(\+\d+\), and no other", said[0])
    assert ":0" not in said[0]
    assert "data rows or pages with them: 6;" in said[0]  # three rows, the cover and two sheets' labels
    english = runner.invoke(main, ["build", str(folder), "-o", str(tmp_path / "en")])
    assert english.exit_code == 0 and "warning" not in english.output, english.output
