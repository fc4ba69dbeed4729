"""The game contract (pnpforge.contract): each game folder's GAME, loaded by id, is the one way in.

Every bundled game is picked up from its folder (no list of games here); a user's game in another folder
works with hooks or without; a game imports only pnpforge.gamekit.
"""

from __future__ import annotations

import ast
import inspect
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from pydantic import BaseModel

from pnpforge import catalog, contract, gamekit
from pnpforge.cli import main
from pnpforge.contract import Game
from pnpforge.errors import InputError

SRC = Path(__file__).parents[1] / "src" / "pnpforge"
BUNDLED = [g for g in catalog.games() if g.bundled]


@pytest.mark.parametrize("found", BUNDLED, ids=lambda g: g.id)
def test_every_bundled_game_exports_a_typed_game(found: catalog.GameFolder) -> None:
    game = contract.load(found.id)
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
        "import sys; from pnpforge.contract import load, package_name; g = load('delphi');"
        "p = package_name('delphi'); print(sorted(m for m in sys.modules if m.startswith(p)));"
        "g.scorer(); print(sorted(m for m in sys.modules if m.startswith(p)))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    before, after = out.splitlines()
    assert before == "['pnpforge_game_delphi']"
    assert "pnpforge_game_delphi.score" in after and "pnpforge_game_delphi.deal" not in after


def test_a_print_only_game_elsewhere_has_no_hooks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(catalog.GAMES_DIR_ENV, str(Path(__file__).parents[1] / "examples"))
    game = contract.load("tiny-quest")
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
    assert (
        contract.load("good-shepherds-2").rules().model is not contract.load("good-shepherds").rules().model
    )


def test_a_game_whose_id_is_not_its_folders_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "more" / "odd"
    folder.mkdir(parents=True)
    (folder / "game.yaml").write_text("game:\n  id: odd\n  title: Odd\n", encoding="utf-8")
    (folder / "__init__.py").write_text(
        "from pathlib import Path\nfrom pnpforge.contract import Game\n"
        "GAME = Game('even', Path(__file__).parent)\n",
        encoding="utf-8",
    )
    monkeypatch.setenv(catalog.GAMES_DIR_ENV, str(tmp_path / "more"))
    with pytest.raises(InputError, match="GAME's id is 'even'; its folder says 'odd'"):
        contract.load("odd")


LIBRARIES = {"pydantic", "shapely"}  # pnpforge's own dependencies a game's models and geometry may use


def _imports_of(path: Path) -> tuple[set[str], list[str], list[str]]:
    """A game file's absolute imports (top-level package names, pnpforge's in full), the names it takes
    from pnpforge.gamekit, and `module.name` for each use of a module gamekit hands it whole (`kit`)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    modules: set[str] = set()
    taken: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            modules |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            modules.add(node.module)
            if node.module == "pnpforge.gamekit":
                taken += [alias.name for alias in node.names]
    whole = {name for name in taken if inspect.ismodule(getattr(gamekit, name, None))}
    used = [
        f"{node.value.id}.{node.attr}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in whole
    ]
    return modules, taken, used


GAME_FILES = sorted(catalog.BUNDLED_DIR.glob("*/*.py"))


def _breaches(path: Path) -> list[str]:
    """What a game file imports beyond the gamekit, its own modules, the standard library and LIBRARIES."""
    modules, taken, used = _imports_of(path)
    found = [
        f"imports {module}"
        for module in sorted(modules)
        if module != "pnpforge.gamekit"
        and module.split(".")[0] not in LIBRARIES | set(sys.stdlib_module_names)
    ]
    found += [f"takes {name}, not in gamekit.__all__" for name in taken if name not in gamekit.__all__]
    found += [
        f"uses {name}"
        for name in used
        if name.split(".")[1] not in getattr(gamekit, name.split(".")[0]).__all__
    ]
    return found


@pytest.mark.parametrize("path", GAME_FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_games_import_only_the_gamekit(path: Path) -> None:
    """pnpforge.gamekit is a game's whole view of pnpforge: no other pnpforge module, only public names."""
    assert _breaches(path) == []


def test_the_import_rule_catches_an_engine_import(tmp_path: Path) -> None:
    """The rule above fails on a game file that reaches past the gamekit (a relative import is fine)."""
    bad = tmp_path / "checks.py"
    code = "from pnpforge.validator.report import Report\nfrom pnpforge.gamekit import kit, Secret\n"
    bad.write_text(code + "from . import deal\nkit.hidden()\n", encoding="utf-8")
    assert _breaches(bad) == [
        "imports pnpforge.validator.report",
        "takes Secret, not in gamekit.__all__",
        "uses kit.hidden",
    ]


def test_every_game_file_imports_the_gamekit_or_nothing_of_pnpforge() -> None:
    """Each bundled game takes something from the gamekit (the rule above is not vacuous)."""
    for folder in {path.parent for path in GAME_FILES}:
        assert any("pnpforge.gamekit" in _imports_of(path)[0] for path in folder.glob("*.py")), folder.name


def test_no_engine_reaches_a_game_but_through_game() -> None:
    """No module outside games/ loads a game's files by name or looks its hooks up by attribute."""
    for path in SRC.rglob("*.py"):
        if catalog.BUNDLED_DIR in path.parents:
            continue
        text = path.read_text(encoding="utf-8")
        for reach in ("game_module", '"JA"', '"OPTIONS"', '"FIELDS"', '"player_names"', '"option_choices"'):
            assert reach not in text, f"{path.relative_to(SRC)} reaches a game with {reach}"
