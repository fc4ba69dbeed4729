"""Each command imports only what it uses: run in a fresh interpreter, then its sys.modules is checked.

Not timed (the figures are bench/bench_startup.py's); this keeps a stray top-level import from
bringing a heavy library back into every command's start-up.
"""

from __future__ import annotations

import functools
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

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
# pnpforge's modules by name, the libraries by top-level name (a game's own modules are its business)
ours = {name for name in sys.modules if name == "pnpforge" or name.startswith("pnpforge.")}
tops = {name.split(".")[0] for name in sys.modules}
std = sys.stdlib_module_names
libraries = {top for top in tops if top not in std and not top.startswith(("_", "pnpforge"))}
with open(out, "w") as handle:
    deep = sorted(name for name in sys.modules if name.split(".")[0] in libraries)  # by full name
    std_loaded = sorted(name for name in sys.modules if name.split(".")[0] in std)
    json.dump({"code": code, "heavy": heavy, "modules": sorted(ours | libraries), "deep": deep,
               "std": std_loaded}, handle)  # fmt: skip
"""
GAMES = [game.id for game in catalog.games() if game.bundled]
SCORE_FILES = {game: catalog.BUNDLED_DIR / game / "example-score.yaml" for game in GAMES}  # each game's own
DEALT = [game.id for game in catalog.games() if game.bundled and contract.of(game).deal is not None]


def probed(tmp_path: Path, *args: str) -> dict[str, Any]:
    """What `pnpforge ARGS` imported, run in a fresh interpreter: its exit code, the heavy top-level
    packages among HEAVY, and every pnpforge module and library (by top-level name)."""
    out = tmp_path / "modules.json"
    command = [sys.executable, "-c", PROBE, str(out), *args]
    subprocess.run(command, input=json.dumps(HEAVY), text=True, capture_output=True, check=True)
    found: dict[str, Any] = json.loads(out.read_text())
    assert found["code"] in (0, None), f"pnpforge {' '.join(args)} exited {found['code']}"
    return found


def imported(tmp_path: Path, *args: str) -> set[str]:
    """The heavy top-level packages `pnpforge ARGS` imported, run in a fresh interpreter."""
    return set(probed(tmp_path, *args)["heavy"])


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
    assert "reportlab" in modules  # pydantic only with no schema kept yet (test_lightmodel.py)
    assert modules & {"shapely", "svglib", "pypdfium2"} == set()
    assert (tmp_path / "out" / "plain-cards.pdf").stat().st_size > 1000


# what only some specs use, each loaded by the spec that uses it: a plain card deck from a CSV (as the
# 900-card bench builds, bench/bench_cards.py) loads none of them (each costs every build start-up time)
ONLY_SOME_SPECS = {
    "zipfile": "spreadsheets (.xlsx, .ods)",
    "xml.etree.ElementTree": "a spreadsheet's formulas",
    "ctypes": "PNG output",
    "pnpforge.layouts.imposition.nesting": "polyhex tiles",
    "pnpforge.layouts.imposition.lattice": "hex and round pieces",
    "pnpforge.layouts.imposition.boards": "boards and sheets",
    "pnpforge.layouts.richtext": "rich text (**bold**, :icon:)",
    "pnpforge.layouts.faces.inline": "rich text",
    "pnpforge.output.svgimage": "SVG art",
    "logging": "SVG art (svglib's messages); loaded, it also makes the process tear down (quickexit)",
    "jinja2": "{{ }} expressions",
}


def test_a_plain_card_build_loads_nothing_only_other_specs_use(tmp_path: Path, make_spec: SpecMaker) -> None:
    spec = make_spec(CARDS % ", {type: text, text: 'Draw two cards: then rest', y: 50mm}")
    found = probed(tmp_path, "build", str(spec), "-o", str(tmp_path / "out"))
    assert (tmp_path / "out" / "plain-cards.pdf").stat().st_size > 1000
    loaded = set(found["deep"]) | set(found["modules"]) | set(found["std"])
    assert {name: used_by for name, used_by in ONLY_SOME_SPECS.items() if name in loaded} == {}


def test_each_spec_feature_still_loads_its_module(tmp_path: Path, make_spec: SpecMaker) -> None:
    """The other side: rich text and hex pieces do load what they use (and build)."""
    spec = make_spec(CARDS % ", {type: text, text: '**Bold** move', y: 50mm}")
    found = probed(tmp_path, "build", str(spec), "-o", str(tmp_path / "out"))
    assert {"pnpforge.layouts.richtext", "pnpforge.layouts.faces.inline"} <= set(found["modules"])


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


# -- the table commands' allow-lists ----------------------------------------------------------------
# Every module `score FILE`, `validate FILE` and `setup GAME` may import, over the bundled games: pnpforge's
# own by name, libraries by top-level name. A new import fails here until it is added on purpose (each
# one costs every table command start-up time: bench/bench_startup.py prints them beside their floor);
# one no game needs any more fails too, so the lists stay what the commands do.
LIBRARIES = {
    "click",
    "pydantic_core",  # its validator only: not even pydantic's package once the schemas are kept
}
YAML_READER = {
    "cython_runtime",  # made by ruamel.yaml's compiled reader
    "ruamel",
}
# `score` of a bundled game's example reads no YAML parser: the example and the game.yaml's `scoring:`
# section are package files, read from their parsed copies (pnpforge.parsecache); a set-up is dealt or
# read from the user's own file
LIBRARIES_OF_TABLE_COMMANDS = {
    "score": LIBRARIES,
    "validate": LIBRARIES | YAML_READER,
    "setup": LIBRARIES | YAML_READER,
}
TABLE_ENGINE = {  # what any of them loads: the command line, reading files, the contract, the words
    "pnpforge",
    "pnpforge.catalog",
    "pnpforge.cli",
    "pnpforge.cli.clickwords",
    "pnpforge.cli.helptext",
    "pnpforge.contract",
    "pnpforge.errors",
    "pnpforge.gamedata",  # a game's hooks when its rules are data (its GAME names them)
    "pnpforge.gamekit",
    "pnpforge.i18n",
    "pnpforge.internals",
    "pnpforge.internals.pydantic_core_private",  # pydantic_core's validator without its package's __init__
    "pnpforge.internals.pydantic_plugins",
    "pnpforge.internals.pydantic_version",  # a kept schema's name: no `import pydantic`
    "pnpforge.internals.quickexit",
    "pnpforge.lazy",
    "pnpforge.lightmodel",  # the models, checked by pydantic_core (their schemas kept in the user's cache)
    "pnpforge.limits",
    "pnpforge.longlived",
    "pnpforge.mark",
    "pnpforge.parsecache",
    "pnpforge.phrase",
    "pnpforge.sourcefile",
    "pnpforge.suggest",
    "pnpforge.usercache",
}
SETUPS = {"pnpforge.table", "pnpforge.table.setupfile", "pnpforge.validator", "pnpforge.validator.report"}
SETUPS |= {"pnpforge.validator.setupkit", "pnpforge.kit"}
# set-up rules written as data (game.yaml's `setup:`: Good Shepherds', Delphi's water): engine and model,
# read when a set-up is checked (a score file that holds no set-up, as the examples, checks none)
SETUP_RULES = {"pnpforge.validator.rulebook", "pnpforge.components", "pnpforge.components.setuprules"}
SETUPS |= {"pnpforge.components.sections"}
GEOMETRY = {"pnpforge.geometry", "pnpforge.geometry.cells", "pnpforge.geometry.hexgrid"}
GEOMETRY |= {"pnpforge.geometry.lattice", "pnpforge.geometry.split"}
SHEETS = {"pnpforge.scoring", "pnpforge.scoring.render", "pnpforge.scoring.sheet"}  # a score sheet, said
SCORES = {*SHEETS, "pnpforge.scoring.inputs", "pnpforge.scoring.prompts", "pnpforge.table.scorefile"}
# a score sheet written as data (game.yaml's `scoring:`): its engine, its model and expressions
SCORES |= {"pnpforge.scoring.datasheet", "pnpforge.components", "pnpforge.components.gamerules"}
SCORES |= {"pnpforge.components.sections"}
SCORES |= {"pnpforge.components.expressions", "pnpforge.components.plainexpr", "pnpforge.saying"}
READS_YAML = {"pnpforge.internals.ruamel_private"}  # the YAML parser's settings (not `score`'s: see above)
TABLE_ALLOWED = {
    # a score file may hold or name a set-up (Ankh, Good Shepherds, Quo Vadis): their checks come too; Quo
    # Vadis' rhombus lattice only with a map (its example score has none, and its sheet is data)
    "score": {
        *TABLE_ENGINE,
        *SCORES,
        *SETUPS,
        *(GEOMETRY - {"pnpforge.geometry.lattice"}),
        "pnpforge.cli.score_cmds",
        "pnpforge.table.linked",
    },
    "validate": {*TABLE_ENGINE, *SETUPS, *SETUP_RULES, *GEOMETRY, "pnpforge.cli.check_cmds", *READS_YAML},
    "setup": {
        *TABLE_ENGINE,
        *READS_YAML,
        *SETUPS,
        *SETUP_RULES,
        *GEOMETRY,
        "pnpforge.cli.check_cmds",
    },  # nothing written: no pnpforge.files
}
TABLE_GAMES = [game for game in GAMES if game in DEALT and SCORE_FILES[game].exists()]


@functools.cache
def _table_imports(command: str, game: str) -> frozenset[str]:
    """The pnpforge modules and libraries `pnpforge COMMAND` imports for `game` (a fresh interpreter)."""
    return _table_probe(command, game)[0]


FLOOR = "import click, pydantic, ruamel.yaml"  # what a table command stands on (bench/bench_startup.py)


@functools.cache
def _floor_modules() -> frozenset[str]:
    """Every module the floor imports, by full name."""
    said = "import sys; " + FLOOR + "; print('\\n'.join(sys.modules))"
    return frozenset(
        subprocess.run(
            [sys.executable, "-c", said], capture_output=True, text=True, check=True
        ).stdout.split()
    )


@functools.cache
def _table_probe(command: str, game: str) -> tuple[frozenset[str], frozenset[str]]:
    """The pnpforge modules and libraries (top-level names) `pnpforge COMMAND` imports for `game`, and
    the libraries' modules by full name (a fresh interpreter)."""
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        low = str(catalog.players_range(catalog.find_game(game))[0])
        dealt = [*("setup", game, "-p", low, "--seed", "3")]
        args = {
            "score": ["score", str(SCORE_FILES[game])],
            "validate": ["validate", str(folder / "setup.yaml")],
            "setup": dealt,
        }[command]
        if command == "validate":
            assert CliRunner().invoke(main, [*dealt, "-o", str(folder / "setup.yaml")]).exit_code == 0
        probed(folder, *args)  # the first run keeps the models' schemas, should none be kept yet
        found = probed(folder, *args)
        return frozenset(found["modules"]), frozenset(found["deep"])


@pytest.mark.parametrize("game", TABLE_GAMES)
@pytest.mark.parametrize("command", sorted(TABLE_ALLOWED))
def test_a_table_command_imports_only_its_allow_list(command: str, game: str) -> None:
    found = _table_imports(command, game)
    allowed = TABLE_ALLOWED[command] | LIBRARIES_OF_TABLE_COMMANDS[command]
    assert found - allowed == set(), f"pnpforge {command} ({game}) imports what its allow-list lacks"


@pytest.mark.parametrize("game", TABLE_GAMES)
@pytest.mark.parametrize("command", sorted(TABLE_ALLOWED))
def test_a_table_command_imports_no_library_module_beyond_the_floor(command: str, game: str) -> None:
    """Of the libraries, only what `import click, pydantic, ruamel.yaml` imports, and pydantic_core's
    validator: pydantic's model machinery (pydantic.main, pydantic.fields, its schema generator) is
    never imported, the models being pnpforge.lightmodel's; nor jinja2, reportlab or shapely."""
    beyond = _table_probe(command, game)[1] - _floor_modules()
    assert beyond == set(), f"pnpforge {command} ({game}) imports library modules the floor does not"
    assert "pydantic_core._pydantic_core" in _floor_modules()  # the validator is the floor's own


@pytest.mark.parametrize("command", sorted(TABLE_ALLOWED))
def test_a_table_command_s_allow_list_holds_only_what_some_game_imports(command: str) -> None:
    needed = frozenset().union(*(_table_imports(command, game) for game in TABLE_GAMES))
    unused = (TABLE_ALLOWED[command] | LIBRARIES_OF_TABLE_COMMANDS[command]) - needed
    assert unused == set(), f"no game's {command} imports these any more: take them off its allow-list"
