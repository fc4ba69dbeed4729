"""The game contract (pnpforge.contract): each game folder's GAME, loaded by id, is the one way in.

Every bundled game is picked up from its folder (no list of games here); a user's game in another folder
works with hooks or without; a game imports only pnpforge.gamekit.
"""

from __future__ import annotations

import ast
import inspect
import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from pypdf import PdfReader

from pnpforge import catalog, contract, gamekit
from pnpforge.cli import main
from pnpforge.contract import Game
from pnpforge.errors import InputError
from pnpforge.sourcefile import is_model

SRC = Path(__file__).parents[1] / "src" / "pnpforge"
BUNDLED = [g for g in catalog.games() if g.bundled]


@pytest.mark.parametrize("found", BUNDLED, ids=lambda g: g.id)
def test_every_bundled_game_exports_a_typed_game(found: catalog.GameFolder) -> None:
    game = contract.load(found.id)
    assert isinstance(game, Game) and game.id == found.id and game.folder == found.path.resolve()
    assert (game.folder / "game.yaml").is_file()
    if game.setup is not None:
        rules = game.rules()
        assert is_model(rules.model) and callable(rules.check)
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
        assert is_model(scorer.model) and scorer.fields
        assert all(isinstance(name, str) for name in scorer.player_names())
    assert game.rules() is game.rules() if game.setup else True  # a hook is loaded once


def test_loading_a_game_imports_none_of_its_rules() -> None:
    """Start-up stays fast: a hook's module is imported when a command asks for that hook, not before."""
    code = (
        "import sys; from pnpforge.contract import load, package_name; g = load('ankh');"
        "p = package_name('ankh'); print(sorted(m for m in sys.modules if m.startswith(p)));"
        "g.scorer(); print(sorted(m for m in sys.modules if m.startswith(p)))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    before, after = out.splitlines()
    assert before == "['pnpforge_game_ankh']"
    assert "pnpforge_game_ankh.score" in after and "pnpforge_game_ankh.deal" not in after
    # Good Shepherds' sheet is data: its Python that counts a farm board loads only when a file gives one
    code = (
        "import sys; from pnpforge.contract import load, package_name; g = load('good-shepherds');"
        "p = package_name('good-shepherds'); g.scorer();"
        "print(sorted(m for m in sys.modules if m.startswith(p)))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["['pnpforge_game_good_2d_shepherds']"]
    # Quo Vadis' map keys are typed by a light module; its map's geometry loads only with a map
    code = code.replace("good-shepherds", "quo-vadis")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "['pnpforge_game_quo_2d_vadis', 'pnpforge_game_quo_2d_vadis.mapkeys']"
    # a score sheet written as data (Delphi's): its engine loads with the hook, the set-up engine not at all
    code = (
        "import sys; from pnpforge.contract import load; g = load('delphi');"
        "e, r = 'pnpforge.scoring.datasheet', 'pnpforge.validator.rulebook';"
        "print(e in sys.modules); g.scorer(); print(e in sys.modules, r in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "True", "False"]


def test_a_print_only_game_elsewhere_has_no_hooks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(catalog.GAMES_DIR_ENV, str(Path(__file__).parents[1] / "examples"))
    game = contract.load("tiny-quest")
    assert (game.setup, game.deal, game.score, game.caravans) == (None, None, None, None)
    with pytest.raises(InputError, match="game 'tiny-quest' has no score calculator"):
        game.scorer("final.yaml")
    result = CliRunner().invoke(main, ["setup", "tiny-quest", "--players", "2"])
    assert result.exit_code == 2 and "game 'tiny-quest' has no set-up dealer" in result.output


RULED = [g.id for g in BUNDLED if contract.of(g).setup and contract.of(g).deal and contract.of(g).score]


@pytest.mark.parametrize("game", RULED)
def test_a_bundled_game_copied_under_a_new_id_works_unchanged(game: str, tmp_path: Path) -> None:
    """A sixth game is a copied folder: under a new id in a --games-dir, with no change to its files, it
    builds, deals, validates, draws, scores and serves (its modules load as their own package)."""
    new = f"{game}-copy"
    games_dir = tmp_path / "mine"
    shutil.copytree(catalog.BUNDLED_DIR / game, games_dir / new, ignore=shutil.ignore_patterns("__pycache__"))
    runner = CliRunner()

    def run(*args: str) -> Any:
        result = runner.invoke(main, ["--games-dir", str(games_dir), *args])
        assert result.exit_code == 0, result.output
        return result

    run("build", new, "-o", str(tmp_path / "out"))
    (pdf,) = (tmp_path / "out").glob("*.pdf")
    assert len(PdfReader(pdf).pages) >= 1
    low, _ = catalog.players_range(catalog.find_game(game))
    setup = tmp_path / "setup.yaml"
    run("setup", new, "-p", str(low), "--seed", "3", "-o", str(setup), "--draw", str(tmp_path / "board.svg"))
    assert f"game: {new}\n" in setup.read_text(encoding="utf-8")
    assert "<svg" in (tmp_path / "board.svg").read_text(encoding="utf-8")
    assert f"legal {new} set-up" in run("validate", str(setup)).output
    example = (games_dir / new / "example-score.yaml").read_text(encoding="utf-8")
    assert example.startswith(f"game: {game}\n")  # a score file names its game: this one the copy
    scores = tmp_path / "score.yaml"
    scores.write_text(example.replace(f"game: {game}\n", f"game: {new}\n", 1), encoding="utf-8")
    copied = json.loads(run("score", str(scores), "--json").output)
    original = catalog.BUNDLED_DIR / game / "example-score.yaml"
    bundled = json.loads(run("score", str(original), "--json").output)
    assert copied.pop("game") == new and bundled.pop("game") == game
    assert copied == bundled  # the same rules, the same sheet
    assert contract.load(new).rules().model is not contract.load(game).rules().model  # its own modules

    from starlette.testclient import TestClient

    from pnpforge.web.app import create_app

    app = create_app(build_root=tmp_path / "builds", games_dirs=(str(games_dir),))
    with TestClient(app) as client:
        assert f'href="/g/{new}?lang=en"' in client.get("/", headers={"accept-language": "en"}).text
        assert client.get(f"/g/{new}").status_code == 200
        dealt = client.post(f"/g/{new}/deal", data={"players": str(low), "seed": "3"})
        assert dealt.status_code == 200 and 'data-valid="yes"' in dealt.text
        checked = client.post(f"/api/g/{new}/check", data={"setup": setup.read_text(encoding="utf-8")})
        assert checked.status_code == 200 and checked.json()["report"]["valid"] is True
        served = client.post("/api/score", content=scores.read_bytes())
        assert served.status_code == 200, served.text
        assert served.json() == {**bundled, "game": new}  # the page scores as `pnpforge score --json`


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


def test_the_gamekit_imports_docs_adding_a_game_shows_run() -> None:
    """docs/adding-a-game.md's list of gamekit imports is one that runs, and names only public names."""
    doc = (SRC.parents[1] / "docs" / "adding-a-game.md").read_text(encoding="utf-8")
    (block,) = [b.removeprefix("python\n") for b in doc.split("```")[1::2] if "def " not in b]
    names: dict[str, object] = {}
    exec(block, names)  # noqa: S102  # the docs' own example
    shown = {name for name in names if name != "__builtins__"}
    assert len(shown) >= 30 and shown <= set(gamekit.__all__)
