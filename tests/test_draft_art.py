"""build --draft: missing images drawn as labelled placeholders (one warning each, located), every page
marked DRAFT; without --draft the same spec is refused; a draft of complete art changes only the mark."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner
from conftest import SpecMaker
from pypdf import PdfReader

from pnpforge.cli import main

SPEC = """\
game: {id: drafty, title: Drafty}
components:
  - name: deck
    kind: card
    size: poker
    rows:
      - {name: Storm, art: art/storm.png}
      - {name: Knight, art: art/knight.png}
      - {name: Page, art: art/knight.png}
    face:
      elements:
        - {type: image, src: "{art}", x: 5mm, y: 5mm, w: 53mm, h: 40mm}
        - {type: image, src: "art/frame.png", x: 5mm, y: 50mm, w: 53mm, h: 20mm}
        - {type: text, text: "{name}", x: 5mm, y: 75mm, w: 53mm, h: 8mm}
"""


def test_draft_placeholders_and_mark(make_spec: SpecMaker, tmp_path: Path) -> None:
    runner = CliRunner()
    folder = make_spec(SPEC)
    refused = runner.invoke(main, ["build", str(folder), "-o", str(tmp_path / "no")])
    assert refused.exit_code == 2 and "art/storm.png" in refused.output
    result = runner.invoke(main, ["build", str(folder), "-o", str(tmp_path / "out"), "--draft"])
    assert result.exit_code == 0, result.output
    warnings = [line for line in result.output.splitlines() if "warning:" in line]
    assert len(warnings) == 3, warnings  # one per missing file, not one per piece
    assert any("game.yaml:13:" in w and "art/frame.png" in w for w in warnings)  # written in game.yaml
    assert any("game.yaml:8:" in w and "art/knight.png" in w for w in warnings)  # filled from the row
    pages = [page.extract_text() for page in PdfReader(tmp_path / "out" / "drafty.pdf").pages]
    assert all("DRAFT" in text for text in pages)
    sheet = pages[1]
    assert sheet.count("art/frame.png") == 3 and sheet.count("art/knight.png") == 2


def test_complete_draft_differs_only_by_mark(make_spec: SpecMaker, tmp_path: Path) -> None:
    runner = CliRunner()
    text = SPEC.replace('{type: image, src: "{art}",', "{type: rect,")
    folder = make_spec(text.replace('{type: image, src: "art/frame.png",', "{type: rect,"))
    plain = runner.invoke(main, ["build", str(folder), "-o", str(tmp_path / "a")])
    draft = runner.invoke(main, ["build", str(folder), "-o", str(tmp_path / "b"), "--draft"])
    assert plain.exit_code == 0 and draft.exit_code == 0 and "warning" not in draft.output
    plain_text = [p.extract_text() for p in PdfReader(tmp_path / "a" / "drafty.pdf").pages]
    draft_text = [p.extract_text() for p in PdfReader(tmp_path / "b" / "drafty.pdf").pages]
    assert all("DRAFT" not in t for t in plain_text)
    assert [t.replace("DRAFT", "").split() for t in draft_text] == [t.split() for t in plain_text]
