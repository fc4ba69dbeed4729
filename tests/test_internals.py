"""The library internals pnpforge reaches into are all in pnpforge/internals/, and each is still there.

When a reportlab, ruamel.yaml or pydantic release changes one, these tests fail saying what changed
(the adapter's `shape_problems()`), rather than every command failing somewhere deep.
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from pnpforge import catalog
from pnpforge.internals import (
    pydantic_core_private,
    pydantic_plugins,
    pydantic_version,
    quickexit,
    reportlab_private,
    ruamel_private,
)

SRC = Path(__file__).parents[1] / "src" / "pnpforge"
ADAPTERS = SRC / "internals"


@pytest.mark.parametrize(
    "adapter",
    [reportlab_private, ruamel_private, pydantic_plugins, pydantic_version, pydantic_core_private],
    ids=lambda m: m.__name__.rsplit(".")[-1],
)
def test_each_library_still_has_the_shape_its_adapter_uses(adapter: object) -> None:
    problems = adapter.shape_problems()  # type: ignore[attr-defined]
    assert problems == [], "a library changed what pnpforge/internals relies on:\n" + "\n".join(problems)


# attribute names that are some library's private parts (our own private names are ours to use)
PRIVATE_REACHES = ("_doc", "_dynamicFont", "__pydantic_validator__", "fget", "_exit", "showPage")


def test_no_module_outside_the_adapters_reaches_into_a_library() -> None:
    """`x._doc`, `face._dynamicFont`, `canvas.showPage = ...`, `os._exit`... only in internals/."""
    for path in SRC.rglob("*.py"):
        if ADAPTERS in path.parents:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr in PRIVATE_REACHES:
                if node.attr == "showPage" and not isinstance(node.ctx, ast.Store):
                    continue  # calling showPage is public; replacing it is not
                pytest.fail(f"{path.relative_to(SRC)}:{node.lineno} reaches .{node.attr} outside internals/")


WATCH = """
import atexit, importlib, json, pkgutil, sys
seen = []
register = atexit.register
def watched(f, *a, **k):
    seen.append([getattr(f, "__module__", None) or "", getattr(f, "__qualname__", repr(f))])
    return register(f, *a, **k)
atexit.register = watched
import pnpforge
for info in pkgutil.walk_packages(pnpforge.__path__, "pnpforge."):
    if not info.name.endswith("__main__") and not info.name.startswith("pnpforge.games."):
        importlib.import_module(info.name)
from pnpforge.table.scorefile import score_file
score_file(sys.argv[1])
print(json.dumps(seen))
"""


def test_every_exit_handler_the_libraries_register_is_known() -> None:
    """`os._exit` skips exit handlers: each one a library registers is harmless or keeps the ordinary exit."""
    score = catalog.BUNDLED_DIR / "gods" / "example-score.yaml"
    done = subprocess.run(
        [sys.executable, "-c", WATCH, str(score)], capture_output=True, text=True, timeout=120, check=True
    )
    handlers = json.loads(done.stdout.splitlines()[-1])
    assert handlers, "no exit handler seen: the watch itself is broken"
    for module, name in handlers:
        known = (module, name) in quickexit.HARMLESS_AT_EXIT or any(
            module == m or module.startswith(m + ".") for m in quickexit.NEEDS_TEARDOWN
        )
        assert known, (
            f"a library now registers the exit handler {module}.{name}: add it to HARMLESS_AT_EXIT if "
            "the end of the process does its work anyway, else to NEEDS_TEARDOWN (internals/quickexit.py)"
        )


def test_a_quick_exit_keeps_the_exit_code_and_the_output(tmp_path: Path) -> None:
    code = "from pnpforge.internals import quickexit; print('written', end=''); quickexit.leave(4)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout) == (4, "written")
    text = "from pnpforge.internals import quickexit; quickexit.leave('bad thing')"
    done = subprocess.run([sys.executable, "-c", text], capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stderr.strip()) == (1, "bad thing")


PLUGIN_PROBE = """
import json, os, sys
from pnpforge.internals import pydantic_plugins
os.environ["PYDANTIC_DISABLE_PLUGINS"] = sys.argv[1]
stood_in = pydantic_plugins.skip_plugin_scan()
from pydantic import BaseModel
class First(BaseModel):
    count: int
os.environ["PYDANTIC_DISABLE_PLUGINS"] = sys.argv[2]  # turned back on (or not) after the first model
class Second(BaseModel):
    count: int
loader = sys.modules[pydantic_plugins.LOADER]
print(json.dumps({"stood_in": stood_in, "metadata": "importlib.metadata" in sys.modules,
                  "real": hasattr(loader, "entry_points"), "count": Second(count=3).count}))
"""


def _plugin_probe(first: str, then: str) -> dict[str, object]:
    done = subprocess.run([sys.executable, "-c", PLUGIN_PROBE, first, then], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    found: dict[str, object] = json.loads(done.stdout)
    return found


def test_with_plugins_off_pydantic_models_build_without_importlib_metadata() -> None:
    for value in pydantic_plugins.OFF:
        found = _plugin_probe(value, value)
        assert found == {"stood_in": True, "metadata": False, "real": False, "count": 3}, value


def test_plugins_turned_on_again_reach_pydantic_s_own_loader() -> None:
    assert _plugin_probe("__all__", "") == {"stood_in": True, "metadata": True, "real": True, "count": 3}


def test_with_plugins_on_pydantic_s_own_loader_is_left_alone() -> None:
    assert _plugin_probe("", "") == {"stood_in": False, "metadata": True, "real": True, "count": 3}


def test_a_table_command_builds_its_models_without_importlib_metadata(tmp_path: Path) -> None:
    """The first run makes its models' schemas with pydantic (no kept schema yet: pydantic builds
    models, yet its plugin loader needs no importlib.metadata); the next one reads them kept and never
    imports pydantic's model machinery (pnpforge.lightmodel)."""
    score = catalog.BUNDLED_DIR / "delphi" / "example-score.yaml"
    probe = "import sys; from pnpforge.cli import main\ntry: main()\nexcept SystemExit: pass\n"
    probe += "print('pydantic.main' in sys.modules, 'importlib.metadata' in sys.modules)"
    env = {key: value for key, value in os.environ.items() if key != "PYDANTIC_DISABLE_PLUGINS"}
    env["XDG_CACHE_HOME"] = str(tmp_path / "cache")
    said = []
    for _ in range(2):
        done = subprocess.run(
            [sys.executable, "-c", probe, "score", str(score)],
            capture_output=True,
            text=True,
            env=env,
            check=True,
        )
        said.append(done.stdout.splitlines()[-1])
    assert said == ["True False", "False False"]


CORE_PROBE = """
import json, sys
from pnpforge.internals.pydantic_core_private import schema_validator, validation_error
validator = schema_validator()({"type": "int"})
try:
    validator.validate_python("three")
except validation_error() as error:
    alone = "pydantic_core" in sys.modules, "pydantic_core.core_schema" in sys.modules
    caught = error.errors()[0]["type"]  # (its wording imports the package: errors only)
import pydantic_core  # the package afterwards: its names are the loaded module's
same = pydantic_core.ValidationError is validation_error()
print(json.dumps([validator.validate_python("3"), caught, alone, same]))
"""


def test_pydantic_core_s_validator_loads_without_its_package_and_stays_one_module() -> None:
    done = subprocess.run([sys.executable, "-c", CORE_PROBE], capture_output=True, text=True, check=True)
    assert json.loads(done.stdout) == [3, "int_parsing", [False, False], True]
