"""Leaving the process with `os._exit` once a command is done (cli.run), skipping interpreter teardown.

`os._exit` runs no exit handler. That is right only when every handler registered is one whose work
ends with the process anyway (freeing memory or a library). Handlers that flush or join something
(logging flushes its handlers, multiprocessing joins children, concurrent.futures joins its workers)
must run: when their module is loaded, the process exits the ordinary way. tests/test_internals.py
imports every pnpforge module with `atexit.register` watched and fails, naming the handler, when a
library adds one that is in neither list.
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
from typing import NoReturn

__all__ = ["HARMLESS_AT_EXIT", "NEEDS_TEARDOWN", "leave"]

# modules whose exit handlers must run
NEEDS_TEARDOWN = ("logging", "multiprocessing", "concurrent.futures")
# (module, function) of exit handlers whose work the end of the process does anyway
HARMLESS_AT_EXIT = {
    ("PIL._imaging", "clear_cache"),  # frees Pillow's memory cache
    ("pypdfium2._library_scope", "destroy_lib"),  # frees the PDFium library
}


def leave(code: str | int | None) -> NoReturn:
    """Exit with `code` as `sys.exit` would, at once unless a thread or a needed exit handler remains."""
    if threading.active_count() > 1 or any(name in sys.modules for name in NEEDS_TEARDOWN):
        sys.exit(code)
    if code is not None and not isinstance(code, int):  # sys.exit("text"): printed, exit 1
        print(code, file=sys.stderr)
        code = 1
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):  # a reader gone (`| head`), a closed stream
            stream.flush()
    os._exit((code or 0) & 0xFF)
