"""pydantic_core's compiled validator without the rest of its package.

pnpforge's models (pnpforge.lightmodel) need two names of pydantic_core: `SchemaValidator` and
`ValidationError`, both defined by its compiled module `pydantic_core._pydantic_core`. Yet
`import pydantic_core` first runs the package's `__init__.py`, which imports `core_schema.py` (some
ninety TypedDicts that describe schemas for type checkers), `typing_extensions`, `decimal` and
`fractions`: ~10 ms of a build's start-up, where loading the compiled module itself takes ~1 ms.

`compiled()` loads that one module, found where the installed package keeps it, under its own name in
`sys.modules`. Were the package imported later in the process (pydantic's schema generator, on the slow
path of lightmodel), its `from ._pydantic_core import ...` finds the module already loaded: the same
classes, so an error raised by one is caught as the other's. (An error's `.errors()` imports the package,
where pydantic_core keeps some of its wording: only a run that met bad input pays for it.)
`shape_problems()` checks that the compiled module still holds the names pnpforge takes from it and that
the package, imported after it, hands out the same classes.
"""

from __future__ import annotations

import importlib.util
import sys
import types
from importlib.machinery import PathFinder
from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    from pydantic_core import SchemaValidator, ValidationError

__all__ = ["COMPILED", "NAMES", "compiled", "schema_validator", "shape_problems", "validation_error"]

PACKAGE = "pydantic_core"
COMPILED = "pydantic_core._pydantic_core"
NAMES = ("SchemaValidator", "ValidationError", "__version__")  # what pnpforge takes from it


def compiled() -> types.ModuleType:
    """`pydantic_core._pydantic_core`, loaded once, without running pydantic_core's `__init__.py`."""
    found = sys.modules.get(COMPILED)
    if found is not None:
        return found
    package = importlib.util.find_spec(PACKAGE)  # finds, imports nothing
    spec = None
    if package is not None and package.submodule_search_locations is not None:
        spec = PathFinder.find_spec(COMPILED, package.submodule_search_locations)
    if spec is None or spec.loader is None:  # laid out otherwise: the ordinary import
        return importlib.import_module(COMPILED)
    module = importlib.util.module_from_spec(spec)
    sys.modules[COMPILED] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[COMPILED]
        raise
    return module


def schema_validator() -> type[SchemaValidator]:
    """pydantic_core's `SchemaValidator`."""
    return cast("type[SchemaValidator]", compiled().SchemaValidator)


def validation_error() -> type[ValidationError]:
    """pydantic_core's `ValidationError`, as its validators raise it."""
    return cast("type[ValidationError]", compiled().ValidationError)


def shape_problems() -> list[str]:
    """What a new pydantic_core changed that this module relies on, in words (empty: nothing)."""
    module = compiled()
    problems = [f"{COMPILED} has no {name}" for name in NAMES if not hasattr(module, name)]
    import pydantic_core  # the package, after the compiled module: it must take the module loaded above

    problems += [
        f"pydantic_core.{name} is not {COMPILED}.{name}"
        for name in NAMES[:2]
        if getattr(pydantic_core, name, None) is not getattr(module, name, None)
    ]
    return problems
