"""`N_`: marks an English text as a message of the catalogs, where it is written.

The lowest piece of pnpforge's words, kept apart so that `pnpforge.phrase` (a sentence said later in a
language) and `pnpforge.i18n` (the catalogs that say it) both build on it without importing each
other. Code marks its messages with `from pnpforge.i18n import N_` (or `pnpforge.gamekit` in a game);
both names are this one.
"""

from __future__ import annotations

__all__ = ["N_"]


def N_(text: str) -> str:  # noqa: N802  # the gettext convention for "mark, do not translate here"
    """`text` unchanged: marks it as a message for extraction (tools/catalogs.py)."""
    return text
