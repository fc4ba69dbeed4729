"""Named element styles: `styles:`, `style:` (a name or a list), `extends:`, own keys winning; unknown names
and cycles located in game.yaml; a styled spec prints exactly what the written-out spec prints."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner
from conftest import SpecMaker

from pnpforge.cli import main

STYLED = """\
game: {id: styled, title: Styled}
styles:
  body: {type: text, size: 8pt, align: left, x: 5mm, w: 53mm, h: 10mm, colour: "#203040"}
  title: {extends: body, size: 14pt, font: sans-bold}
  warm: {colour: "#a02010"}
components:
  - name: deck
    kind: card
    size: poker
    rows: [{name: Storm, cost: 3}, {name: Knight, cost: 2}]
    face:
      elements:
        - {style: title, text: "{name}", y: 5mm}
        - {style: [body, warm], text: "{{ cost * 2 }} coins", y: 30mm}
        - {style: body, text: "plain", y: 50mm, align: right}
"""
WRITTEN = """\
game: {id: styled, title: Styled}
components:
  - name: deck
    kind: card
    size: poker
    rows: [{name: Storm, cost: 3}, {name: Knight, cost: 2}]
    face:
      elements:
        - {type: text, size: 14pt, font: sans-bold, align: left, x: 5mm, w: 53mm, h: 10mm, colour: "#203040",
           text: "{name}", y: 5mm}
        - {type: text, size: 8pt, align: left, x: 5mm, w: 53mm, h: 10mm, colour: "#a02010",
           text: "{{ cost * 2 }} coins", y: 30mm}
        - {type: text, size: 8pt, align: right, x: 5mm, w: 53mm, h: 10mm, colour: "#203040",
           text: "plain", y: 50mm}
"""


def test_styled_spec_prints_as_written_out(make_spec: SpecMaker, runner: CliRunner, tmp_path: Path) -> None:
    pdfs = []
    for name, text in (("styled", STYLED), ("written", WRITTEN)):
        folder = make_spec(text, folder=name)
        result = runner.invoke(main, ["build", str(folder), "-o", str(tmp_path / name)])
        assert result.exit_code == 0, result.output
        pdfs.append((tmp_path / name / "styled.pdf").read_bytes())
    assert pdfs[0] == pdfs[1]
    from pypdf import PdfReader

    text = PdfReader(tmp_path / "styled" / "styled.pdf").pages[1].extract_text()
    assert "Storm" in text and "6 coins" in text and "4 coins" in text


def errors(runner: CliRunner, folder: Path, out: Path) -> list[str]:
    result = runner.invoke(main, ["build", str(folder), "-o", str(out)])
    assert result.exit_code == 2 and "Traceback" not in result.output
    return [line for line in result.output.splitlines() if line.startswith("error:")]


def test_unknown_style_and_parent(make_spec: SpecMaker, runner: CliRunner, tmp_path: Path) -> None:
    text = STYLED.replace("style: title,", "style: tilte,").replace("extends: body", "extends: bdy")
    found = errors(runner, make_spec(text), tmp_path / "out")
    assert any(":4:" in e and "no style 'bdy'" in e and "did you mean 'body'" in e for e in found), found
    assert any(":13:" in e and "no style 'tilte'" in e for e in found), found


def test_cycle(make_spec: SpecMaker, runner: CliRunner, tmp_path: Path) -> None:
    text = STYLED.replace("body: {type: text,", "body: {extends: title, type: text,")
    found = errors(runner, make_spec(text), tmp_path / "out")
    cycles = [e for e in found if "styles extend each other in a cycle" in e]
    assert len(cycles) == 1 and "title -> body -> title" in cycles[0] and "game.yaml:3:" in cycles[0], found


def test_bad_value_from_a_style_is_reported(make_spec: SpecMaker, runner: CliRunner, tmp_path: Path) -> None:
    found = errors(runner, make_spec(STYLED.replace('"#a02010"', "reddish")), tmp_path / "out")
    assert len(found) == 1, found
    assert "game.yaml:5:" in found[0] and "reddish" in found[0] and "not a colour" in found[0]  # in the style
    own = STYLED.replace('"{{ cost * 2 }} coins", y: 30mm}', '"x", y: 30mm, colour: bluish}')
    found = errors(runner, make_spec(own, folder="own"), tmp_path / "out2")
    assert len(found) == 1 and "game.yaml:14:61" in found[0] and "bluish" in found[0], found  # its own key
