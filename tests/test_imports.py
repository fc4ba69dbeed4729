"""Each command imports only what it uses: run in a fresh interpreter, then its sys.modules is checked.

Not timed (the figures are bench/bench_startup.py's); this keeps a stray top-level import from
bringing a heavy library back into every command's start-up.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import SpecMaker

from pnpforge import catalog, contract
from pnpforge.cli import main

HEAVY = ("reportlab", "shapely", "svglib", "pydantic", "ruamel", "PIL", "pypdfium2", "svgwrite", "numpy")
PROBE = """
import json, sys
from pnpforge.cli import main
out, sys.argv = sys.argv[1], ["pnpforge", *sys.argv[2:]]
try:
    main()
except SystemExit as done:
    code = done.code
heavy = sorted({name.split(".")[0] for name in sys.modules} & set(json.loads(sys.stdin.read())))
with open(out, "w") as handle:
    json.dump({"code": code, "heavy": heavy}, handle)
"""
GAMES = [game.id for game in catalog.games() if game.bundled]
SCORE_FILES = {game: catalog.BUNDLED_DIR / game / "example-score.yaml" for game in GAMES}  # each game's own
DEALT = [game.id for game in catalog.games() if game.bundled and contract.of(game).deal is not None]


def imported(tmp_path: Path, *args: str) -> set[str]:
    """The heavy top-level packages `pnpforge ARGS` imported, run in a fresh interpreter."""
    out = tmp_path / "modules.json"
    command = [sys.executable, "-c", PROBE, str(out), *args]
    subprocess.run(command, input=json.dumps(HEAVY), text=True, capture_output=True, check=True)
    found = json.loads(out.read_text())
    assert found["code"] in (0, None), f"pnpforge {' '.join(args)} exited {found['code']}"
    return set(found["heavy"])


def test_help_imports_no_library_and_lists_every_command(tmp_path: Path) -> None:
    assert imported(tmp_path, "--help") == set()
    text = CliRunner().invoke(main, ["--help"]).output
    assert all(name in text for name in main.list_commands(None))  # type: ignore[arg-type]


def test_every_registered_line_is_its_command_s_own_help() -> None:
    for name, (_, short_help) in main.lazy.items():  # type: ignore[attr-defined]
        command = main.get_command(None, name)  # type: ignore[arg-type]
        assert command is not None and command.get_short_help_str(10_000) == short_help, name


def test_games_reads_yaml_and_nothing_heavier(tmp_path: Path) -> None:
    assert imported(tmp_path, "games") <= {"ruamel"}


@pytest.mark.parametrize("game", [game for game, path in SCORE_FILES.items() if path.exists()])
def test_scoring_never_imports_drawing_or_geometry(tmp_path: Path, game: str) -> None:
    score_file = SCORE_FILES[game]
    assert imported(tmp_path, "score", str(score_file)) & {"reportlab", "shapely", "svglib", "numpy"} == set()


@pytest.mark.parametrize("game", DEALT)
def test_validating_and_dealing_never_import_reportlab_or_shapely(tmp_path: Path, game: str) -> None:
    setup_file = tmp_path / "setup.yaml"
    players = str(catalog.players_range(catalog.find_game(game))[0])
    dealt = CliRunner().invoke(main, ["setup", game, "-p", players, "--seed", "3", "-o", str(setup_file)])
    assert dealt.exit_code == 0, dealt.output
    validated = imported(tmp_path, "validate", str(setup_file))
    # hex boards are axial arithmetic and Quo Vadis rhombi lattice arithmetic (geometry/lattice.py)
    assert validated & {"reportlab", "svglib", "PIL", "shapely"} == set()
    dealing = imported(tmp_path, "setup", game, "-p", players, "--seed", "3")
    assert dealing & {"reportlab", "svglib", "shapely"} == set()


CARDS = """\
game: {id: plain-cards, title: Plain}
components:
  - name: cards
    kind: card
    size: poker
    count: 3
    face: {elements: [{type: text, text: Hello}%s]}
"""


def test_a_card_build_imports_neither_shapely_nor_svglib(tmp_path: Path, make_spec: SpecMaker) -> None:
    spec = make_spec(CARDS % "")
    modules = imported(tmp_path, "build", str(spec), "-o", str(tmp_path / "out"))
    assert {"reportlab", "pydantic"} <= modules
    assert modules & {"shapely", "svglib", "pypdfium2"} == set()
    assert (tmp_path / "out" / "plain-cards.pdf").stat().st_size > 1000


def test_svg_artwork_brings_svglib(tmp_path: Path, make_spec: SpecMaker) -> None:
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>'
    )
    spec = make_spec(CARDS % ", {type: image, src: art.svg}", art__svg=svg)
    assert "svglib" in imported(tmp_path, "build", str(spec), "-o", str(tmp_path / "out"))


def test_new_writes_a_spec_without_any_library(tmp_path: Path) -> None:
    assert imported(tmp_path, "new", str(tmp_path / "my-game")) == set()
    assert (tmp_path / "my-game" / "game.yaml").is_file()


PLUGINS = """
import json, os, sys
from pnpforge.cli import main
sys.argv = ["pnpforge", "score", sys.argv[1]]
try:
    main()
except SystemExit:
    pass
from pydantic.plugin import _loader
print(json.dumps({"plugins": list(_loader.get_plugins()), "setting": os.environ["PYDANTIC_DISABLE_PLUGINS"]}))
"""


@pytest.mark.parametrize("setting", [None, "true", "some-plugin"])
def test_pydantic_plugins_are_off_unless_the_user_says(setting: str | None) -> None:
    env = {k: v for k, v in os.environ.items() if k != "PYDANTIC_DISABLE_PLUGINS"}
    if setting is not None:
        env["PYDANTIC_DISABLE_PLUGINS"] = setting
    command = [sys.executable, "-c", PLUGINS, str(SCORE_FILES["gods"])]
    run = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    found = json.loads(run.stdout.splitlines()[-1])  # after the score table
    assert found["setting"] == (setting or "__all__") and found["plugins"] == []
