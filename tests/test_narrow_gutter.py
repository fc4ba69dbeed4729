"""A `gutter:` narrower than two bleeds between rectangular pieces is kept as written, and the build says
so at the gutter (a warning, exit 0): their bleeds overlap, each piece keeping half the gutter of its
bleed, then its neighbour's art. A gutter of 0 (butted pieces sharing their cut lines) or of two bleeds
or more is said nothing of, nor one a piece without a neighbour, a round token's or a shelf's (raised to
two bleeds). Through the real CLI, read from the real PDF (its crop marks and pixels)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from conftest import MM, SpecMaker, pdf_crop_marks, render_page

from pnpforge.cli import main

DOCS = Path(__file__).resolve().parents[1] / "docs"
SPEC = """\
game: {{id: gutters, title: Gutters}}
defaults: {{bleed: 3mm, duplex: none}}
components:
  - name: cards
    kind: card
    size: poker
    layout: grid
    gutter: {gutter}
    csv: cards.csv
    face:
      background: "{{colour}}"
"""
CARDS = 'name,colour\na,"#ff0000"\nb,"#0000ff"\nc,"#00c000"\n'
NARROW = "is narrower than two bleeds, so neighbouring bleeds overlap"


def build(folder: Path, out: Path, *more: str) -> Result:
    return CliRunner().invoke(main, ["build", str(folder), "-o", str(out), "--page", "a4", *more])


def cuts_across(pdf: Path) -> list[float]:
    """The x of every vertical cut line the crop marks of the first sheet continue, in mm."""
    marks = pdf_crop_marks(pdf)[1]
    return sorted({round(a[0] / MM, 2) for a, b in marks if abs(a[0] - b[0]) < 0.01})


def test_a_narrow_gutter_is_kept_and_said_at_the_gutter(make_spec: SpecMaker, tmp_path: Path) -> None:
    folder = make_spec(SPEC.format(gutter="2mm"), cards__csv=CARDS)
    result = build(folder, tmp_path / "out")
    assert result.exit_code == 0, result.output
    lines = result.stderr.splitlines()
    assert lines == [
        f"{folder / 'game.yaml'}:8:13: warning: cards: gutter '2mm' {NARROW}: each piece keeps 1 mm of its "
        "3 mm bleed, then its neighbour's art (expected gutter: 6mm or more for the whole bleed, or 0 for "
        "shared cut lines)"
    ]
    pdf = tmp_path / "out" / "gutters.pdf"
    cuts = cuts_across(pdf)
    assert len(cuts) == 4 and cuts[2] - cuts[1] == pytest.approx(2.0, abs=0.02)  # the gutter as written
    page = render_page(pdf, 1, 300)
    middle = 10.5 + 88 / 2  # mm down: the first row's middle

    def colour(x_mm: float) -> tuple[int, int, int]:
        red, green, blue = page.getpixel((round(x_mm * 300 / 25.4), round(middle * 300 / 25.4)))[:3]
        return (red, green, blue)

    assert colour(cuts[1] + 0.7)[0] > 200  # the red card's own bleed, up to half the gutter
    assert colour(cuts[1] + 1.3)[2] > 200  # then its neighbour's blue, inside its 3 mm bleed
    again = build(folder, tmp_path / "out")  # played back from the kept build: still said
    assert again.exit_code == 0 and again.stderr.splitlines() == lines


def test_strict_refuses_a_narrow_gutter_before_anything_is_written(
    make_spec: SpecMaker, tmp_path: Path
) -> None:
    folder = make_spec(SPEC.format(gutter="4mm"), cards__csv=CARDS)
    result = build(folder, tmp_path / "out", "--strict")
    assert result.exit_code == 2
    errors = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert errors == [
        f"error: {folder / 'game.yaml'}:8:13: cards: gutter '4mm' {NARROW}: each piece keeps 2 mm of its "
        "3 mm bleed, then its neighbour's art (expected gutter: 6mm or more for the whole bleed, or 0 for "
        "shared cut lines) (--strict: warnings are errors)"
    ]
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize(("gutter", "apart"), [("0", 0.0), ("6mm", 6.0), ("0.3in", 7.62)])
def test_butted_or_two_bleeds_apart_is_said_nothing_of(
    make_spec: SpecMaker, tmp_path: Path, gutter: str, apart: float
) -> None:
    folder = make_spec(SPEC.format(gutter=gutter), cards__csv=CARDS)
    result = build(folder, tmp_path / "out")
    assert result.exit_code == 0 and result.stderr == "", result.output
    cuts = cuts_across(tmp_path / "out" / "gutters.pdf")
    steps = [b - a for a, b in zip(cuts, cuts[1:], strict=False)]
    card = pytest.approx(63.0, abs=0.02)
    if apart == 0:  # butted, three to a row: a card's right cut is its neighbour's left one
        assert steps == [card, card, card]
    else:  # two to a row, the gutter between them
        assert steps == [card, pytest.approx(apart, abs=0.02), card]


def test_no_neighbour_a_round_token_or_a_shelf_is_said_nothing_of(
    make_spec: SpecMaker, tmp_path: Path
) -> None:
    """One card alone (nothing within its gutter); round tokens and cards of mixed sizes, whose
    narrow gutter is raised to two bleeds."""
    folder = make_spec(
        """\
        game: {id: quiet, title: Quiet}
        defaults: {bleed: 3mm, duplex: none}
        components:
          - {name: lone, kind: card, size: poker, gutter: 2mm, face: {background: "#ff0000"}}
          - {name: coins, kind: token, size: 20mm, count: 6, gutter: 1mm, face: {background: "#0000ff"}}
          - name: mixed
            kind: card
            gutter: 2mm
            size: "{size}"
            rows: [{size: poker}, {size: mini}, {size: poker}]
            face: {background: "#00c000"}
        """
    )
    result = build(folder, tmp_path / "out")
    assert result.exit_code == 0 and result.stderr == "", result.output


def test_the_docs_show_the_warning_the_build_gives(make_spec: SpecMaker, tmp_path: Path) -> None:
    """docs/printing.md's narrow gutter warning is the one a build of its spec gives."""
    text = (DOCS / "printing.md").read_text(encoding="utf-8")
    shown = re.search(r"```text gutter\n(?P<line>game\.yaml:[^\n]+)\n```", text)
    assert shown, "docs/printing.md shows no narrow gutter warning"
    folder = make_spec(SPEC.format(gutter="2mm"), cards__csv=CARDS)
    result = build(folder, tmp_path / "out")
    assert result.exit_code == 0
    assert result.stderr.splitlines() == [str(folder / shown["line"])]
