"""A designer's mistakes said where they are written, once, with what was probably meant (issue 30).

Each case builds a small spec through the real CLI and asserts the located line; the clean spec beside
them builds with no warning at all.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import SpecMaker
from PIL import Image
from pypdf import PdfReader

from pnpforge.cli import main

CLEAN = """\
game: {id: proto, title: Proto}
icons: {gem: art/gem.png}
components:
  - name: deck
    kind: card
    size: poker
    csv: cards.csv
    face_by:
      field: type
      faces:
        event:
          elements:
            - {type: text, text: "{name} :gem:", x: 3mm, y: 3mm, w: 57mm, h: 10mm}
        unit:
          elements:
            - {type: text, text: "{name} {{ vp * 2 }}", x: 3mm, y: 3mm, w: 57mm, h: 10mm, colour: red}
            - {type: rect, x: 0, y: 20mm, w: 5mm, h: 5mm, when: "vp > 0"}
            - {type: image, src: art/timber.png, x: 0, y: 30mm, w: 10mm, h: 10mm}
"""
CARDS = "id,name,type,vp,count\na,Storm,event,1,2\nb,Knight,unit,2,1\nc,Giant,unit,0,1\n"


def png() -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (8, 8), "red").save(buffer, "PNG")
    return buffer.getvalue()


def build(runner: CliRunner, folder: Path, out: Path) -> tuple[int, str]:
    result = runner.invoke(main, ["build", str(folder), "-o", str(out)])
    assert "Traceback" not in result.output
    return result.exit_code, result.output


def with_art(folder: Path) -> Path:
    (folder / "art").mkdir()
    for name in ("gem.png", "timber.png"):
        (folder / "art" / name).write_bytes(png())
    return folder


@pytest.fixture
def proto(make_spec: SpecMaker) -> Path:
    return with_art(make_spec(CLEAN, cards__csv=CARDS))


def test_the_clean_spec_builds_without_a_word(proto: Path, runner: CliRunner, tmp_path: Path) -> None:
    code, output = build(runner, proto, tmp_path / "out")
    assert code == 0 and "warning" not in output.lower() and "error" not in output.lower(), output
    text = "\n".join(page.extract_text() for page in PdfReader(tmp_path / "out" / "proto.pdf").pages)
    assert "Knight 4" in text and "Giant 0" in text


@pytest.mark.parametrize(
    ("old", "new", "line", "value", "said"),
    [
        (  # a {field} typo in a face_by face: at the template's line, not the component's
            '"{name} :gem:"',
            '"{nmae} :gem:"',
            13,
            '"{nmae}',
            "{nmae}: no data row has a field 'nmae' (none of 3 rows; did you mean name?",
        ),
        (  # a `when:` naming no field: once, at its line, with the nearest field
            'when: "vp > 0"',
            'when: "vpp > 0"',
            17,
            '"vpp > 0"',
            "vpp > 0: no data row has a field 'vpp' (none of 3 rows; did you mean vp?",
        ),
        (  # a {{ }} naming no field, the same
            "{{ vp * 2 }}",
            "{{ vpp * 2 }}",
            16,
            '"{name} {{ vpp',
            "vpp * 2: no data row has a field 'vpp' (none of 3 rows; did you mean vp?",
        ),
        (  # an American spelling of a key
            "colour: red",
            "color: red",
            16,
            "red}",
            "unknown key 'color' (did you mean colour? expected one of the documented keys)",
        ),
        (  # a Windows path
            "src: art/timber.png",
            'src: "art\\\\timber.png"',
            18,
            "{type: image",
            "deck face element 3 (image): image 'art\\\\timber.png' not found "
            "(did you mean 'art/timber.png'?",
        ),
        (  # a name in another case than the file's
            "src: art/timber.png",
            "src: art/Timber.png",
            18,
            "{type: image",
            "deck face element 3 (image): image 'art/Timber.png' not found (did you mean 'art/timber.png'?",
        ),
        (  # an icon file that does not exist, though no text draws it
            "icons: {gem: art/gem.png}",
            "icons: {gem: art/gem.png, leaf: art/leaf.svg}",
            2,
            "art/leaf.svg",
            "icon 'art/leaf.svg' not found",
        ),
        (  # a card too large for the page: at `size:`, not at a data row
            "size: poker",
            "size: 300x300mm",
            6,
            "300x300mm",
            "deck: a 300.0 × 300.0 mm card does not fit on the page",
        ),
    ],
    ids=["face-by-field", "when", "expression", "color", "backslash", "case", "icon", "size"],
)
def test_a_mistake_is_said_once_at_its_line(
    proto: Path, runner: CliRunner, tmp_path: Path, old: str, new: str, line: int, value: str, said: str
) -> None:
    """`value` is the text where the mistake's value starts on its line (`line`): its column is said."""
    spec = proto / "game.yaml"
    text = spec.read_text(encoding="utf-8")
    assert old in text
    text = text.replace(old, new)
    spec.write_text(text, encoding="utf-8")
    column = text.splitlines()[line - 1].index(value) + 1
    code, output = build(runner, proto, tmp_path / "out")
    assert code == 2, output
    errors = [said for said in output.splitlines() if said.startswith("error")]
    assert len(errors) == 1 and f"game.yaml:{line}:{column}: {said}" in errors[0], output


def test_sheet_named_wrong_is_said_at_game_yaml(
    make_spec: SpecMaker, runner: CliRunner, tmp_path: Path
) -> None:
    import openpyxl

    book = openpyxl.Workbook()
    book.active.title = "Deck"
    for row in [["id", "name", "type", "vp", "count"], ["a", "Storm", "event", 1, 2]]:
        book.active.append(row)
    buffer = io.BytesIO()
    book.save(buffer)
    text = CLEAN.replace("csv: cards.csv", "csv: cards.xlsx\n    sheet: Decks")
    folder = with_art(make_spec(text, cards__xlsx=buffer.getvalue()))
    code, output = build(runner, folder, tmp_path / "out")
    assert code == 2, output
    assert (
        "game.yaml:8:12: no sheet 'Decks' in cards.xlsx (did you mean Deck? expected one of: Deck)" in output
    )


def test_a_field_named_in_japanese(make_spec: SpecMaker, runner: CliRunner, tmp_path: Path) -> None:
    """`{産地}` is filled as `{origin}` is (any Unicode field name), in text and in `when:`."""
    spec = """\
    game: {id: fish, title: Fish}
    components:
      - name: deck
        kind: card
        size: poker
        csv: fish.csv
        face:
          elements:
            - {type: text, text: "{名前} / {産地}", x: 3mm, y: 3mm, w: 57mm, h: 10mm}
            - {type: text, text: "LOCAL", x: 3mm, y: 20mm, w: 57mm, h: 10mm, when: "{地元}"}
    """
    folder = make_spec(spec, fish__csv="名前,産地,地元\nTuna,Oma,1\nSalmon,Hokkaido,0\n")
    code, output = build(runner, folder, tmp_path / "out")
    assert code == 0 and "warning" not in output, output
    text = "\n".join(page.extract_text() for page in PdfReader(tmp_path / "out" / "fish.pdf").pages)
    assert "Tuna / Oma" in text and "Salmon / Hokkaido" in text and "{" not in text
    assert text.count("LOCAL") == 1
    folder = make_spec(
        spec.replace("{産地}", "{産池}"), folder="typo", fish__csv="名前,産地,地元\nTuna,Oma,1\n"
    )
    code, output = build(runner, folder, tmp_path / "out2")
    assert code == 2 and "game.yaml:9:30: {産池}: no data row has a field" in output and "産地" in output, (
        output
    )
