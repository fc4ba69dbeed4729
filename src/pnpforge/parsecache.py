"""The parsed form of pnpforge's own data files, kept beside them as Python keeps bytecode.

The bundled games' YAML (the Ankh map, the Delphi tiles, each game.yaml) is read by every
set-up check, deal and build; parsing it costs far more than the work done with it. The first
read of such a file stores its plain data as JSON in `__pycache__/<name>.json` next to it, keyed
by a hash of the text (`_key`): an edited file (a designer changing Quo Vadis data) misses and is
parsed and checked again, never served stale. Only files inside the installed package are
cached, never a user's; an install that cannot be written to parses every time, as before.
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import os
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pnpforge import limits

PACKAGE_DIR = Path(__file__).resolve().parent
FORMAT = 2  # bump when the loader's output for the same text changes (e.g. a new scalar rule)
MISSING = object()
SIZE_FACTOR, SIZE_SLACK = 8, 65_536  # a cache is JSON of its YAML's data: a few times its size at most


def cache_file(path: Path, fact: str = "") -> Path | None:
    """Where a package data file's parsed form (or one `fact` drawn from it, see `derived`) is kept;
    None for a file outside the package."""
    try:
        resolved = path.resolve()
    except (OSError, RuntimeError):
        return None
    if not resolved.is_relative_to(PACKAGE_DIR):
        return None
    return resolved.parent / "__pycache__" / f"{resolved.name}{f'.{fact}' if fact else ''}.json"


def derived(path: Path, fact: str, make: Callable[[], Any]) -> Any:
    """`make()` (plain JSON data drawn from the file at `path`), kept beside a package data file keyed by
    its text as its parsed form is: a rule that needs one number of a game.yaml reads a few bytes, not
    the whole file parsed. Made each time for a file outside the package, or one this cannot read (what
    `make` then reads says what is wrong with it); an error `make` raises is raised, nothing kept."""
    cache = cache_file(path, fact)
    raw = None if cache is None else read_regular(path, limits.FILE_BYTES)
    try:
        text = None if raw is None else raw.decode("utf-8")
    except UnicodeDecodeError:
        text = None
    if cache is None or text is None:
        return make()
    found = load(cache, text)
    if found is MISSING:
        found = make()
        store(cache, text, found)
    return found


def _key(text: str) -> str:
    """The text's key: its length and its hash as Python keys hash-based bytecode (SipHash, 64 bits), an
    edit's chance of meeting an old key negligible; no hashlib (OpenSSL's loading is ~2 ms a command)."""
    raw = text.encode("utf-8")
    return f"{FORMAT}:{len(raw)}:{importlib.util.source_hash(raw).hex()}"


def read_regular(cache: Path, limit: int) -> bytes | None:
    """The cache's bytes if it is a regular file of at most `limit` bytes: a FIFO, device or link put
    in its place is never opened for reading (a FIFO would block), a huge file never read."""
    try:
        fd = os.open(cache, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > limit:
            return None
        with os.fdopen(fd, "rb", closefd=False) as handle:
            return handle.read(limit + 1)
    except OSError:
        return None
    finally:
        os.close(fd)


def _plain(data: Any, depth_limit: int | None = None) -> bool:
    """Plain parsed YAML: mappings with text keys, lists and scalars, no deeper than the input layer
    lets a file be (walked without recursion; only containers are stacked, so a large file's scalars
    cost one type test each)."""
    limit = limits.NESTING if depth_limit is None else depth_limit  # no file the input layer nests deeper
    if type(data) not in _CONTAINERS:
        return type(data) in _SCALARS
    stack = [(data, 0)]
    while stack:
        node, depth = stack.pop()
        items = node.values() if type(node) is dict else node
        if items and depth >= limit:
            return False  # its entries would lie deeper than the limit
        for item in items:
            kind = type(item)
            if kind in _CONTAINERS:
                stack.append((item, depth + 1))
            elif kind not in _SCALARS:
                return False
    return True


_CONTAINERS = (dict, list)  # what json.loads makes, exactly these types
_SCALARS = (str, int, float, bool, type(None))


def load(cache: Path, text: str) -> Any:
    """The data stored for exactly this text, or MISSING (no cache, another text, an unreadable file, or
    one that is not what this module writes: too large for its text, too deep, not a regular file)."""
    raw = read_regular(cache, SIZE_FACTOR * len(text.encode("utf-8")) + SIZE_SLACK)
    if raw is None:
        return MISSING
    try:
        stored = json.loads(raw.decode("utf-8"))
    except (ValueError, RecursionError):
        return MISSING
    if not isinstance(stored, dict) or stored.get("key") != _key(text) or "data" not in stored:
        return MISSING
    if not _plain(stored["data"]):
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
