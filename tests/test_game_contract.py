"""The game contract (pnpforge.games): each game folder's GAME, loaded by id, is the one way in.

Every bundled game is picked up from its folder (no list of games here); a user's game in another folder
works with hooks or without; a game imports only the engine's public names.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from pydantic import BaseModel

from pnpforge import catalog, games
from pnpforge.cli import main
from pnpforge.errors import InputError
from pnpforge.games import Game

SRC = Path(__file__).parents[1] / "src" / "pnpforge"
BUNDLED = [g for g in catalog.games() if g.bundled]


@pytest.mark.parametrize("found", BUNDLED, ids=lambda g: g.id)
def test_every_bundled_game_exports_a_typed_game(found: catalog.GameFolder) -> None:
    game = games.load(found.id)
    assert isinstance(game, Game) and game.id == found.id and game.folder == found.path.resolve()
    assert (game.folder / "game.yaml").is_file()
    if game.setup is not None:
        rules = game.rules()
        assert issubclass(rules.model, BaseModel) and callable(rules.check)
    if game.deal is not None:
        dealer = game.dealer()
        assert set(dealer.choices()) <= set(dealer.options)
        low, _ = catalog.players_range(found)
        dealt = dealer.deal(low, 1, {})
        assert dealt["game"] == game.id
        if game.setup is not None:  # what the dealer deals, the checks accept
            assert game.rules().check(game.rules().model.model_validate(dealt), None).valid  # type: ignore[arg-type]
    if game.score is not None:
        scorer = game.scorer()
        assert issubclass(scorer.model, BaseModel) and scorer.fields
        assert all(isinstance(name, str) for name in scorer.player_names())
    assert game.rules() is game.rules() if game.setup else True  # a hook is loaded once


def test_loading_a_game_imports_none_of_its_rules() -> None:
    """Start-up stays fast: a hook's module is imported when a command asks for that hook, not before."""
    code = (
        "import sys; from pnpforge.games import load, package_name; g = load('delphi');"
        "p = package_name('delphi'); print(sorted(m for m in sys.modules if m.startswith(p)));"
        "g.scorer(); print(sorted(m for m in sys.modules if m.startswith(p)))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    before, after = out.splitlines()
    assert before == "['pnpforge_game_delphi']"
    assert "pnpforge_game_delphi.score" in after and "pnpforge_game_delphi.deal" not in after


def test_a_print_only_game_elsewhere_has_no_hooks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(catalog.GAMES_DIR_ENV, str(Path(__file__).parents[1] / "examples"))
    game = games.load("tiny-quest")
    assert (game.setup, game.deal, game.score, game.caravans) == (None, None, None, None)
    with pytest.raises(InputError, match="game 'tiny-quest' has no score calculator"):
        game.scorer("final.yaml")
    result = CliRunner().invoke(main, ["setup", "tiny-quest", "--players", "2"])
    assert result.exit_code == 2 and "game 'tiny-quest' has no set-up dealer" in result.output


def test_a_users_game_with_rules_works_from_its_own_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A sixth game is a folder with GAME and its data: copied elsewhere under a new id, every command
    reaches it (the copy's modules load as their own package, apart from the bundled game's)."""
    folder = tmp_path / "mine" / "good-shepherds-2"
    shutil.copytree(
        catalog.BUNDLED_DIR / "good-shepherds", folder, ignore=shutil.ignore_patterns("__pycache__")
    )
    for path in folder.glob("*.py"):
        text = path.read_text(encoding="utf-8").replace('"good-shepherds"', '"good-shepherds-2"')
        path.write_text(text, encoding="utf-8")
    monkeypatch.setenv(catalog.GAMES_DIR_ENV, str(tmp_path / "mine"))
    out = tmp_path / "s.yaml"
    dealt = CliRunner().invoke(main, ["setup", "good-shepherds-2", "-p", "2", "--seed", "4", "-o", str(out)])
    assert dealt.exit_code == 0, dealt.output
    assert "game: good-shepherds-2" in out.read_text(encoding="utf-8")
    checked = CliRunner().invoke(main, ["validate", str(out)])
    assert checked.exit_code == 0 and "legal good-shepherds-2 set-up" in checked.output
    assert games.load("good-shepherds-2").rules().model is not games.load("good-shepherds").rules().model


def test_a_game_whose_id_is_not_its_folders_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "more" / "odd"
    folder.mkdir(parents=True)
    (folder / "game.yaml").write_text("game:\n  id: odd\n  title: Odd\n", encoding="utf-8")
    (folder / "__init__.py").write_text(
        "from pathlib import Path\nfrom pnpforge.games import Game\n"
        "GAME = Game('even', Path(__file__).parent)\n",
        encoding="utf-8",
    )
    monkeypatch.setenv(catalog.GAMES_DIR_ENV, str(tmp_path / "more"))
    with pytest.raises(InputError, match="GAME's id is 'even'; its folder says 'odd'"):
        games.load("odd")


def _engine_names_a_game_uses(path: Path) -> list[tuple[str, str]]:
    """(module, name) for each engine name a game file takes: `from pnpforge.x import name`, and
    `module.name` for an engine module it imports whole (`from pnpforge.geometry import hexgrid`)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    used: list[tuple[str, str]] = []
    whole: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("pnpforge"):
            for alias in node.names:
                sub = f"{node.module}.{alias.name}"
                if _is_module(sub):
                    whole[alias.asname or alias.name] = sub
                else:
                    used.append((node.module, alias.name))
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in whole:
            used.append((whole[node.value.id], node.attr))
    return used


def _is_module(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except ModuleNotFoundError:
        return False


@pytest.mark.parametrize(
    "path", sorted(catalog.BUNDLED_DIR.glob("*/*.py")), ids=lambda p: f"{p.parent.name}/{p.name}"
)
def test_games_import_only_the_engines_public_names(path: Path) -> None:
    for module_name, name in _engine_names_a_game_uses(path):
        public = getattr(importlib.import_module(module_name), "__all__", None)
        assert public is not None, f"{path.name}: {module_name} has no __all__, yet a game imports from it"
        assert name in public, f"{path.parent.name}/{path.name} uses {module_name}.{name}, not in its __all__"


def test_no_engine_reaches_a_game_but_through_game() -> None:
    """No module outside games/ loads a game's files by name or looks its hooks up by attribute."""
    for path in SRC.rglob("*.py"):
        if catalog.BUNDLED_DIR in path.parents:
            continue
        text = path.read_text(encoding="utf-8")
        for reach in ("game_module", '"JA"', '"OPTIONS"', '"FIELDS"', '"player_names"', '"option_choices"'):
            assert reach not in text, f"{path.relative_to(SRC)} reaches a game with {reach}"
