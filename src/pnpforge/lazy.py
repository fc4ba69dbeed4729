"""Names a package or module hands on from the modules they live in, each imported when first asked for.

`__getattr__, __dir__ = exports(__name__, {"Report": "pnpforge.validator.report", ...})` in a module
that also lists those names in `__all__` (and imports them under `TYPE_CHECKING`, for the type
checker): `from that_module import Report` then imports pnpforge.validator.report only at that moment
(PEP 562), so a command that needs a few of the names never loads the modules of the others. A name
that is the last part of its home is that module itself (`"hexgrid": "pnpforge.geometry.hexgrid"`).
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["exports"]


def exports(module: str, homes: Mapping[str, str]) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The `__getattr__` and `__dir__` of `module`, which hands on each name of `homes` from its home."""

    def get(name: str) -> Any:
        home = homes.get(name)
        if home is None:
            raise AttributeError(f"module {module!r} has no attribute {name!r}")
        found = importlib.import_module(home)
        value = found if home.rpartition(".")[2] == name else getattr(found, name)
        setattr(sys.modules[module], name, value)  # the next lookup finds it without this function
        return value

    def names() -> list[str]:
        return sorted(homes)

    return get, names
