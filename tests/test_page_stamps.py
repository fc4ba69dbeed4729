"""Every printed page says which draft of which game and which components it holds (issue 30).

A sheet found on the table later must still tell a v0.3 print from a v0.2 one and say what it is: the
cover, every sheet of pieces (front and back), every part of a board and its assembly page. Read from
the real PDF's text, page by page, for every bundled game.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from pypdf import PdfReader

from pnpforge import catalog
from pnpforge.cli import main
from pnpforge.components.load import load_target

GAMES = [game.id for game in catalog.games() if game.bundled]
STAMP = "v0.3-stamp"


@pytest.mark.parametrize("game", GAMES)
def test_every_page_names_its_draft_and_components(game: str, runner: CliRunner, tmp_path: Path) -> None:
    result = runner.invoke(main, ["build", game, "-o", str(tmp_path), "--stamp", STAMP])
    assert result.exit_code == 0, result.output
    names = [component.name for component in load_target(game).spec.components]
    pages = PdfReader(tmp_path / f"{game}.pdf").pages
    assert len(pages) > 1
    for number, page in enumerate(pages, start=1):
        text = page.extract_text()
        assert STAMP in text, f"{game} page {number} has no draft stamp: {text[-200:]!r}"
        if number == 1:  # the cover lists every component
            assert all(name in text for name in names), f"{game} cover lacks a component"
            continue
        footer = text[text.rindex(STAMP) :]  # the label: game · draft · sheet · components · side
        words = re.split(r"[\s·,]+", footer)
        assert any(name in words for name in names), f"{game} page {number} names no component: {footer!r}"
        assert "…" not in footer, f"{game} page {number}: a shortened label {footer!r}"
