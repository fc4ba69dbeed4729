"""pydantic's version without importing pydantic.

`import pydantic` runs pydantic's package `__init__` (its errors, warnings and typing helpers, with
`inspect`: ~6 ms), and `importlib.metadata` costs more; a build needs only the version, to name the
core schemas pnpforge.lightmodel keeps. pydantic writes it as `VERSION = '2.x.y'` in its `version.py`,
which is read here as text. `shape_problems()` checks that what is read is still `pydantic.VERSION`.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

__all__ = ["pydantic_version", "shape_problems"]

_VERSION = re.compile(r"^VERSION\s*=\s*['\"]([^'\"]+)['\"]", re.MULTILINE)


def _read() -> str | None:
    found = importlib.util.find_spec("pydantic")
    folders = found.submodule_search_locations if found is not None else None
    if not folders:
        return None
    try:
        text = (Path(next(iter(folders))) / "version.py").read_text(encoding="utf-8")
    except OSError:
        return None
    match = _VERSION.search(text)
    return match.group(1) if match else None


def pydantic_version() -> str:
    """pydantic's version: its module's when pydantic is imported, else read from its version.py (or,
    should that fail, asked of pydantic itself)."""
    loaded = sys.modules.get("pydantic.version")
    if loaded is not None:
        return str(loaded.VERSION)
    read = _read()
    if read is not None:
        return read
    from pydantic.version import VERSION

    return VERSION


def shape_problems() -> list[str]:
    """What of the above a pydantic release no longer offers, in words (empty: all there)."""
    from pydantic.version import VERSION

    read = _read()
    if read != VERSION:
        return [f"pydantic's version.py no longer says VERSION = {VERSION!r} (read {read!r})"]
    return []
