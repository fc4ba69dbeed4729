"""Imports with the cycle collector paused, their objects then set aside for good (gc.freeze).

Importing makes only long-lived objects (modules, classes, pydantic validators); the collector
walking them again and again during a start-up is ~5% of a short command's time, all wasted.

gc.freeze sets aside *every* object alive or uncollected at that moment, so in a process that lives on
(`watch`, the page's workers, a test runner) a freeze after work would keep that work's cyclic garbage
for good: a block that imported no new module freezes nothing (a second build froze ~11 MB each).
"""

from __future__ import annotations

import gc
import sys
from collections.abc import Iterator
from contextlib import contextmanager


def pause() -> bool:
    """Stop the collector; True when it was running (hand that to `settle`)."""
    was_enabled = gc.isenabled()
    gc.disable()
    return was_enabled


def settle(was_enabled: bool, froze_imports: bool = True) -> None:
    """Set everything made so far aside from future collections (unless `froze_imports` is False: the
    block imported nothing), and restart the collector if it ran."""
    if froze_imports:
        gc.freeze()
    if was_enabled:
        gc.enable()


@contextmanager
def long_lived() -> Iterator[None]:
    """`with long_lived(): import ...`: the collector paused for the block, its objects frozen after
    when it imported a module not imported before."""
    was_enabled = pause()
    modules = len(sys.modules)
    try:
        yield
    finally:
        settle(was_enabled, len(sys.modules) != modules)
