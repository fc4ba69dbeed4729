"""A hex grid's marked cells (tiny-quest's pad: S and E): each drawn on its own cell, and only there."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner
from pypdf import PdfReader

from pnpforge.cli import main

TINY_QUEST = Path(__file__).parents[1] / "examples" / "tiny-quest"


def test_each_marked_cell_is_drawn_once(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["build", str(TINY_QUEST), "-o", str(tmp_path), "--only", "pad"])
    assert result.exit_code == 0, result.output
    pages = [p.extract_text() for p in PdfReader(tmp_path / "tiny-quest.pdf").pages]
    pad = next(text for text in pages if "map your journey" in text)
    words = pad.split()
    assert (words.count("S"), words.count("E")) == (1, 1), words
