"""`pnpforge new --template`: each template makes a folder that builds at once, without a warning."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from pypdf import PdfReader

from pnpforge.cli import main


@pytest.mark.parametrize(
    ("template", "words"),
    [
        ("cards", ("Scout", "UNIT", "EVENT", "worth 8", "Harvest")),
        ("tiles", ("Forest", "2 VP")),
        ("board", ("Assembly: Game board", "Start here")),  # the assembly page names the board by its title
        ("game", ("Island board", "Villages and towers")),  # its rules as data: tests/test_data_rules.py
    ],
)
def test_template_builds_cleanly(tmp_path: Path, template: str, words: tuple[str, ...]) -> None:
    runner = CliRunner()
    folder = tmp_path / f"my-{template}"
    made = runner.invoke(main, ["new", str(folder), "--template", template])
    assert made.exit_code == 0, made.output
    assert (folder / "game.yaml").read_text(encoding="utf-8").count(f"my-{template}") >= 1  # the id filled in
    built = runner.invoke(main, ["build", str(folder), "-o", str(tmp_path / "out")])
    assert built.exit_code == 0, built.output
    assert "warning" not in built.output.lower() and built.output.strip().endswith(f"my-{template}.pdf")
    text = "\n".join(page.extract_text() for page in PdfReader(tmp_path / "out" / f"my-{template}.pdf").pages)
    assert all(word in text for word in words), [w for w in words if w not in text]
    refused = runner.invoke(main, ["new", str(folder), "--template", template])
    assert refused.exit_code == 2 and "not empty" in refused.output


def test_cards_template_uses_the_new_language(tmp_path: Path) -> None:
    runner = CliRunner()
    folder = tmp_path / "deck"
    assert runner.invoke(main, ["new", str(folder), "--template", "cards"]).exit_code == 0
    spec = (folder / "game.yaml").read_text(encoding="utf-8")
    for key in ("styles:", "face_by:", "when:", "{{ strength * 2 }}", ":coin:"):
        assert key in spec
