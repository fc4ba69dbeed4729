"""The parsed form of pnpforge's own data files, kept beside them as Python keeps bytecode.

The bundled games' YAML (the Ankh map, the Delphi tiles, each game.yaml) is read by every
set-up check, deal and build; parsing it costs far more than the work done with it. The first
read of such a file stores its plain data as JSON in `__pycache__/<name>.json` next to it, keyed
by the SHA-256 of the text: an edited file (a designer changing Quo Vadis data) misses and is
parsed and checked again, never served stale. Only files inside the installed package are
cached, never a user's; an install that cannot be written to parses every time, as before.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from pathlib import Path
from typing import Any

PACKAGE_DIR = Path(__file__).resolve().parent
FORMAT = 1  # bump when the loader's output for the same text changes (e.g. a new scalar rule)
MISSING = object()


def cache_file(path: Path) -> Path | None:
    """Where a package data file's parsed form is kept; None for a file outside the package."""
    try:
        resolved = path.resolve()
    except (OSError, RuntimeError):
        return None
    if not resolved.is_relative_to(PACKAGE_DIR):
        return None
    return resolved.parent / "__pycache__" / f"{resolved.name}.json"


def _key(text: str) -> str:
    return f"{FORMAT}:{hashlib.sha256(text.encode('utf-8')).hexdigest()}"


def load(cache: Path, text: str) -> Any:
    """The data stored for exactly this text, or MISSING (no cache, another text, an unreadable file)."""
    try:
        stored = json.loads(cache.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return MISSING
    if not isinstance(stored, dict) or stored.get("key") != _key(text) or "data" not in stored:
        return MISSING
    return stored["data"]


def store(cache: Path, text: str, data: Any) -> None:
    """Keep `data` for `text`, written whole or not at all (a reader never sees half a file)."""
    try:
        payload = json.dumps({"key": _key(text), "data": data}, ensure_ascii=False, allow_nan=True)
    except (TypeError, ValueError):  # not plain JSON data: nothing to keep
        return
    partial = cache.with_name(f"{cache.name}.{os.getpid()}.tmp")
    try:
        cache.parent.mkdir(exist_ok=True)
        partial.write_text(payload, encoding="utf-8")
        os.replace(partial, cache)
    except OSError:  # a read-only install: parse each time
        with contextlib.suppress(OSError):
            partial.unlink()
