"""`export --to cutfile` lays its sheets out itself (the margin widened for the registration marks): what
that layout and its drawing show differently from the spec is said as `build` says it, located (a gutter
narrower than two bleeds, text that does not fit), and `--strict` refuses it before anything is written.
Through the real CLI; the files written are read back."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from conftest import SpecMaker
from pypdf import PdfReader
from test_narrow_gutter import SPEC as GUTTERS

from pnpforge.cli import main

SPEC = (  # the narrow-gutter spec, its cards given a text of `{words}`
    GUTTERS
    + """      elements:
        - {{type: text, text: "{{name}}: {words}", x: 5mm, y: 5mm, w: 20mm, h: 6mm, size: 14pt}}
"""
)
CARDS = 'name,colour\na,"#ff0000"\nb,"#0000ff"\n'
LONG = "a line far too long for its small box, which it runs out of"
NARROW = "cards: gutter '2mm' is narrower than two bleeds, so neighbouring bleeds overlap"
UNFIT = "cards face 'a' element 1: text 'a: a line far too long …' does not fit"


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def warnings_of(result: Result) -> list[str]:
    return [line for line in result.stderr.splitlines() if ": warning: " in line]


def test_the_cut_sheets_say_the_narrow_gutter_and_the_text_as_the_build_does(
    make_spec: SpecMaker, tmp_path: Path
) -> None:
    folder = make_spec(SPEC.format(gutter="2mm", words=LONG), cards__csv=CARDS)
    cut = run("export", str(folder), "--to", "cutfile", "-o", str(tmp_path / "cut"))
    assert cut.exit_code == 0, cut.output
    said = warnings_of(cut)
    assert said[0].startswith(f"{folder / 'game.yaml'}:8:13: warning: {NARROW}: each piece keeps 1 mm"), said
    assert any(line.startswith(f"{folder / 'cards.csv'}:2:1: warning: {UNFIT}") for line in said), said
    built = run("build", str(folder), "-o", str(tmp_path / "built"), "--page", "a4")
    assert built.exit_code == 0 and warnings_of(built) == said  # the same lines, in the same order
    assert len(PdfReader(tmp_path / "cut" / "gutters-print.pdf").pages) == 1
    assert (tmp_path / "cut" / "gutters-p001-cut.svg").is_file()


def test_strict_refuses_the_cut_sheets_warnings_and_writes_nothing(
    make_spec: SpecMaker, tmp_path: Path
) -> None:
    folder = make_spec(SPEC.format(gutter="2mm", words="ok"), cards__csv=CARDS)
    out = tmp_path / "cut"
    out.mkdir()
    (out / "gutters-print.pdf").write_bytes(b"an older export")
    result = run("export", str(folder), "--to", "cutfile", "--strict", "-o", str(out))
    assert result.exit_code == 2 and "Traceback" not in result.output
    errors = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert errors == [
        f"error: {folder / 'game.yaml'}:8:13: {NARROW}: each piece keeps 1 mm of its 3 mm bleed, then its "
        "neighbour's art (expected gutter: 6mm or more for the whole bleed, or 0 for shared cut lines) "
        "(--strict: warnings are errors)"
    ], result.stderr
    assert sorted(p.name for p in out.iterdir()) == ["gutters-print.pdf"]
    assert (out / "gutters-print.pdf").read_bytes() == b"an older export"


def test_strict_refuses_text_that_does_not_fit_on_the_cut_sheets(
    make_spec: SpecMaker, tmp_path: Path
) -> None:
    folder = make_spec(SPEC.format(gutter="8mm", words=LONG), cards__csv=CARDS)
    result = run("export", str(folder), "--to", "cutfile", "--strict", "-o", str(tmp_path / "cut"))
    assert result.exit_code == 2
    assert f"error: {folder / 'cards.csv'}:2:1: {UNFIT}" in result.stderr, result.stderr
    assert NARROW not in result.stderr and not (tmp_path / "cut").exists()


def test_a_spec_that_prints_as_written_passes_strict(make_spec: SpecMaker, tmp_path: Path) -> None:
    folder = make_spec(SPEC.format(gutter="0mm", words="ok"), cards__csv=CARDS)
    result = run("export", str(folder), "--to", "cutfile", "--strict", "-o", str(tmp_path / "cut"))
    assert result.exit_code == 0 and not warnings_of(result), result.output
    assert (tmp_path / "cut" / "gutters-p001-cut.svg").is_file()


@pytest.mark.parametrize("kind", ["cutfile", "images", "tts"])
def test_every_export_says_a_character_no_font_has_at_its_row(
    kind: str, make_spec: SpecMaker, tmp_path: Path
) -> None:
    """As the build says it (it was left unsaid by every export), and refused by --strict."""
    folder = make_spec(
        SPEC.format(gutter="0mm", words="ok"), cards__csv="name,colour\nplain,red\na \ue123 b,red\n"
    )
    result = run("export", str(folder), "--to", kind, "-o", str(tmp_path / "out"))
    assert result.exit_code == 0, result.output
    said = (
        f"warning: no embedded font has '\\ue123' (U+E123) (data rows or pages with them: 1; first: {folder}"
    )
    assert f"{said}/cards.csv:3: cards, in 'a \\ue123 b: ok')" in result.stderr.splitlines(), result.stderr
    strict = run("export", str(folder), "--to", kind, "--strict", "-o", str(tmp_path / "strict"))
    assert strict.exit_code == 2 and "(--strict: warnings are errors)" in strict.stderr, strict.output
    assert not (tmp_path / "strict").exists()
