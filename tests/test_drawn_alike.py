"""An element drawn alike on many pieces (a deck's band, its rules texts filled alike) is drawn once and
played back for the others (layouts/faces/draw.py `draw_alike`): every card still shows it, and a
drawing that notes something (a text that does not fit) is drawn, and said, for each piece."""

from __future__ import annotations

import re
from pathlib import Path

import pypdf
from click.testing import CliRunner
from conftest import SpecMaker

from pnpforge.cli import main

DECK = """\
game: {id: alike, title: Alike}
defaults: {page: a4, bleed: 3mm}
components:
  - name: cards
    kind: card
    size: poker
    csv: cards.csv
    face:
      elements:
        - {type: rect, x: 3mm, y: 3mm, w: 57mm, h: 12mm, fill: "#336699"}
        - {type: text, text: "{title}", x: 3mm, y: 3mm, w: 57mm, h: 12mm, size: 12pt}
        - {type: text, text: "{rule}", x: 5mm, y: 50mm, w: 53mm, h: 6mm, size: 9pt, fit: none}
"""
RULES = ("Gain two gold.", "Draw a card.")
LONG = "This rule is far too long to fit on one line of a narrow box at nine points."


def _cards(rules: list[str]) -> str:
    return "title,rule\n" + "".join(f"Card {k + 1},{rule}\n" for k, rule in enumerate(rules))


def _build(make_spec: SpecMaker, rules: list[str]) -> tuple[Path, str]:
    spec = make_spec(DECK, cards__csv=_cards(rules))
    out = spec.parent / "out"
    result = CliRunner().invoke(main, ["build", str(spec), "-o", str(out), "--no-cache"])
    assert result.exit_code == 0, result.output
    return out / "alike.pdf", result.output


def _cards_text(pdf: Path) -> str:
    pages = pypdf.PdfReader(pdf).pages[1:]  # page 1 is the cover; the sheets follow
    return "\n".join(page.extract_text() for page in pages)


def _band_fills(pdf: Path) -> int:
    """How many times the sheets fill with the band's colour (#336699), in their content streams."""
    found = 0
    for page in pypdf.PdfReader(pdf).pages[1:]:
        contents = page.get_contents()
        found += contents.get_data().count(b".2 .4 .6 rg") if contents is not None else 0
    return found


def test_every_card_shows_the_elements_it_shares(make_spec: SpecMaker) -> None:
    rules = [RULES[k % 2] for k in range(12)]
    pdf, _ = _build(make_spec, rules)
    text = _cards_text(pdf)
    assert sorted(re.findall(r"Card (\d+)", text), key=int) == [str(k + 1) for k in range(12)]
    assert text.count(RULES[0]) == 6
    assert text.count(RULES[1]) == 6
    assert _band_fills(pdf) == 12  # the band, drawn once and played back: on every card


def test_a_text_that_does_not_fit_is_said_for_each_card(make_spec: SpecMaker) -> None:
    _, said = _build(make_spec, [LONG, "Short.", LONG])
    warned = [line for line in said.splitlines() if "does not fit" in line]
    assert len(warned) == 2, said
    assert "cards.csv:2:" in warned[0] and "cards.csv:4:" in warned[1], said
