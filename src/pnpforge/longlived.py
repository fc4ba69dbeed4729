"""Imports with the cycle collector paused, their objects then set aside for good (gc.freeze).

Importing makes only long-lived objects (modules, classes, pydantic validators); the collector
walking them again and again during a start-up is ~5% of a short command's time, all wasted.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


def pause() -> bool:
    """Stop the collector; True when it was running (hand that to `settle`)."""
    was_enabled = gc.isenabled()
    gc.disable()
    return was_enabled


def settle(was_enabled: bool) -> None:
    """Set everything made so far aside from future collections, and restart the collector if it ran."""
    gc.freeze()
    if was_enabled:
        gc.enable()


@contextmanager
def long_lived() -> Iterator[None]:
    """`with long_lived(): import ...`: the collector paused for the block, its objects frozen after."""
    was_enabled = pause()
    try:
        yield
    finally:
        settle(was_enabled)
