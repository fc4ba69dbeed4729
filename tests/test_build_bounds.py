"""The drawing a build asks for is bounded before any layout (limits.DRAWN_ELEMENTS): 60 copies of
Delphi's player boards are refused at once, at the `count` that passes the bound (the game itself,
3,302 elements, builds: tests/test_game_delphi.py)."""

from __future__ import annotations

import shutil
from pathlib import Path

from click.testing import CliRunner

from pnpforge import catalog, limits
from pnpforge.cli import main


def test_sixty_copies_of_a_board_are_refused_at_their_count(tmp_path: Path) -> None:
    game = catalog.find_game("delphi").path
    spec = tmp_path / "delphi"
    shutil.copytree(game, spec, ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    text = (spec / "game.yaml").read_text(encoding="utf-8")
    anchor = "  - name: player-boards\n"
    at = text.index(anchor)
    kind = text.index("    kind: card\n", at)
    text = text[:kind] + "    count: 60\n" + text[kind:]
    (spec / "game.yaml").write_text(text, encoding="utf-8")
    line = text[:kind].count("\n") + 1
    result = CliRunner().invoke(main, ["build", str(spec), "-o", str(tmp_path / "out")])
    assert result.exit_code == 2, result.output
    said = [s for s in result.stderr.splitlines() if "drawn elements" in s]
    assert said and said[0].startswith(f"error: {spec / 'game.yaml'}:{line}:"), result.stderr
    assert f"at most {limits.DRAWN_ELEMENTS}" in said[0]
    assert not (tmp_path / "out" / "delphi.pdf").exists()
