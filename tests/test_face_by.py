"""face_by / back_by: a whole side per row picked by a field's value, built for real and read back."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner
from conftest import SpecMaker
from pypdf import PdfReader

from pnpforge.cli import main

SPEC = """\
game: {id: twotype, title: Two types}
styles:
  title: {type: text, size: 14pt, font: sans-bold, x: 5mm, y: 5mm, w: 53mm, h: 10mm}
components:
  - name: deck
    kind: card
    size: poker
    csv: cards.csv
    face_by:
      field: type
      faces:
        event:
          background: gold
          elements: [{style: title, text: "EVENT {name}"}]
        unit:
          background: "#8ec9ec"
          elements: [{style: title, text: "UNIT {name}"}, {type: rect, fill: reddish}]
      DEFAULT
    back_by:
      field: type
      faces:
        event: {background: black, elements: [{style: title, text: "Event back", colour: white}]}
      default: {background: navy, elements: [{style: title, text: "Unit back", colour: white}]}
"""
CARDS = "name,type\nStorm,event\nKnight,unit\nGiant,unit\n"


def run(runner: CliRunner, folder: Path, out: Path) -> tuple[int, str]:
    result = runner.invoke(main, ["build", str(folder), "-o", str(out)])
    assert "Traceback" not in result.output
    return result.exit_code, result.output


def test_faces_and_backs_per_row(make_spec: SpecMaker, runner: CliRunner, tmp_path: Path) -> None:
    folder = make_spec(SPEC.replace("DEFAULT", "").replace("fill: reddish", "fill: none"), cards__csv=CARDS)
    code, output = run(runner, folder, tmp_path / "out")
    assert code == 0, output
    pages = [p.extract_text() for p in PdfReader(tmp_path / "out" / "twotype.pdf").pages]
    front = next(p for p in pages if "· front" in p)
    back = next(p for p in pages if "· back" in p)
    assert "EVENT Storm" in front and "UNIT Knight" in front and "UNIT Giant" in front
    assert "EVENT Knight" not in front
    assert back.count("Event back") == 1 and back.count("Unit back") == 2


def test_value_without_face_is_located_at_row(
    make_spec: SpecMaker, runner: CliRunner, tmp_path: Path
) -> None:
    cards = CARDS + "Dragon,monster\n"
    folder = make_spec(SPEC.replace("DEFAULT", "").replace("fill: reddish", "fill: none"), cards__csv=cards)
    code, output = run(runner, folder, tmp_path / "out")
    assert code == 2
    assert "cards.csv:5:" in output and "type 'monster' has no face" in output


def test_default_by_name(make_spec: SpecMaker, runner: CliRunner, tmp_path: Path) -> None:
    cards = CARDS + "Dragon,monster\n"
    spec = SPEC.replace("DEFAULT", "default: unit").replace("fill: reddish", "fill: none")
    code, output = run(runner, make_spec(spec, cards__csv=cards), tmp_path / "out")
    assert code == 0, output
    text = "".join(p.extract_text() for p in PdfReader(tmp_path / "out" / "twotype.pdf").pages)
    assert "UNIT Dragon" in text


def test_fixed_bad_value_located_in_its_face(make_spec: SpecMaker, runner: CliRunner, tmp_path: Path) -> None:
    code, output = run(runner, make_spec(SPEC.replace("DEFAULT", ""), cards__csv=CARDS), tmp_path / "out")
    assert code == 2
    errors = [line for line in output.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and "game.yaml:17:" in errors[0] and "reddish" in errors[0], errors
