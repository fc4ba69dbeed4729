"""pydantic's plugin loader without its entry-point machinery when plugins are switched off.

pydantic imports `pydantic.plugin._loader` when it builds its first model, and that module imports
`importlib.metadata` (and with it `email`, `zipfile`, `csv`...) at its top, about 19 ms of CPU, though
with PYDANTIC_DISABLE_PLUGINS set to `__all__` its `get_plugins()` returns `()` before it asks for any
entry point. The CLI sets that switch (cli/__init__.py), then `skip_plugin_scan()` puts a finder for
that one module name first in `sys.meta_path`: when pydantic asks for its loader while plugins are off,
it gets a stand-in whose `get_plugins()` says the same `()` without the import. Were the switch turned
back on later in the process, the stand-in hands over to the real loader, so plugins are never silently
missed. `shape_problems()` checks that pydantic still reaches the loader only through `get_plugins` and
that the real loader still answers `()` to the switch.
"""

from __future__ import annotations

import importlib
import os
import sys
import types
from collections.abc import Iterable
from importlib.machinery import ModuleSpec
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    from importlib.abc import Loader

__all__ = ["LOADER", "shape_problems", "skip_plugin_scan"]

LOADER = "pydantic.plugin._loader"
SWITCH = "PYDANTIC_DISABLE_PLUGINS"
OFF = ("__all__", "1", "true")  # the values pydantic's get_plugins reads as "no plugin at all"


def _plugins_off() -> bool:
    return os.environ.get(SWITCH) in OFF


def _get_plugins() -> Iterable[Any]:
    if _plugins_off():
        return ()
    del sys.modules[LOADER]  # the switch was turned back on: the real loader from now on
    real = importlib.import_module(LOADER)  # _StandIn.find_spec lets the ordinary finders find it
    plugins: Iterable[Any] = real.get_plugins()
    return plugins


class _StandIn:
    """A finder and loader for the one module name LOADER, answering only while plugins are off, so
    nothing is imported or registered before pydantic itself asks for its loader."""

    @classmethod
    def find_spec(cls, name: str, path: Any = None, target: Any = None) -> ModuleSpec | None:
        return ModuleSpec(name, cast("Loader", cls)) if name == LOADER and _plugins_off() else None

    @staticmethod
    def create_module(spec: ModuleSpec) -> types.ModuleType:
        module = types.ModuleType(
            spec.name, "pnpforge's stand-in: no pydantic plugins (PYDANTIC_DISABLE_PLUGINS)"
        )
        module.get_plugins = _get_plugins  # type: ignore[attr-defined]
        module.PYDANTIC_ENTRY_POINT_GROUP = "pydantic"  # type: ignore[attr-defined]
        return module

    @staticmethod
    def exec_module(module: types.ModuleType) -> None:
        pass


def skip_plugin_scan() -> bool:
    """Stand in for pydantic's plugin loader, when pydantic asks for it, while plugins are off; False
    (nothing done) when they are on or the real loader is already loaded."""
    if not _plugins_off() or LOADER in sys.modules:
        return False
    if _StandIn not in sys.meta_path:
        sys.meta_path.insert(0, _StandIn)
    return True


def shape_problems() -> list[str]:
    """What of the above a pydantic release changed, in words (empty: nothing)."""
    import ast
    import importlib.util
    from pathlib import Path

    problems = []
    spec = importlib.util.find_spec("pydantic")
    assert spec is not None and spec.origin is not None
    package = Path(spec.origin).parent
    for path in sorted(package.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").endswith("_loader"):
                names = [alias.name for alias in node.names]
                if names != ["get_plugins"]:
                    problems.append(f"{path.name} imports {names} from pydantic's plugin loader")
            elif isinstance(node, ast.Import) and any(a.name == LOADER for a in node.names):
                problems.append(f"{path.name} imports pydantic's plugin loader whole")
    source = package / "plugin" / "_loader.py"
    real_spec = importlib.util.spec_from_file_location(LOADER, source)
    if not source.exists() or real_spec is None or real_spec.loader is None:
        return [*problems, "pydantic has no plugin/_loader.py"]
    real = importlib.util.module_from_spec(real_spec)  # a private copy: sys.modules stays as it is
    real_spec.loader.exec_module(real)
    if not callable(getattr(real, "get_plugins", None)):
        return [*problems, "pydantic's plugin loader has no get_plugins"]
    before = os.environ.get(SWITCH)
    try:
        for value in OFF:
            os.environ[SWITCH] = value
            if tuple(real.get_plugins()) != ():
                problems.append(f"pydantic's get_plugins finds plugins with {SWITCH}={value}")
    finally:
        if before is None:
            os.environ.pop(SWITCH, None)
        else:
            os.environ[SWITCH] = before
    return problems
