"""pnpforge's words in the user's language: gettext catalogs, one `.po` file per language.

English is the source language, and a message's id is its English text (a `str.format` template when
it carries values: "{count} tiles on cell {cell}"). We chose English ids over symbolic keys because the
English is what a newcomer reads in the code, and Babel's extraction keeps every catalog in step with it:
`make catalogs` (tools/catalogs.py) re-extracts the ids and merges them into each `locale/<lang>.po`, a
test fails while any id lacks a translation, and an edited English sentence shows up there as a new,
untranslated id instead of silently losing its translation.

- Mark a message where it is written: `N_("...")` (pnpforge.mark, re-exported here; returns it
  unchanged, extraction finds it). A `Phrase` (pnpforge.phrase) carries a marked template and its
  values; a value that is a `Phrase` is said in the language too, a name or number is shown as it is.
- Say it at the edge, in the language the user chose: `translator(lang, domain)(text)`, or
  `said(lang, msgid, **values)`. The English build never looks anything up.
- A game's messages (everything marked under `games/<id>/`) carry the game's id as their context
  (msgctxt), so two games may say "board" differently; a game's lookup falls back to the engine's words.
- Languages are the compiled catalogs found (`locale/<lang>.mo`, built by `make` from the `.po`
  sources, or at install); `PNPFORGE_LOCALE_DIR` adds a folder of `.mo` files: a translation being
  tried, or the pseudo-locale `xx` the tests use to show that nothing reaches a user untranslated.
"""

from __future__ import annotations

import gettext
import os
from collections.abc import Callable, Mapping
from functools import cache
from pathlib import Path
from typing import Any

from pnpforge.mark import N_
from pnpforge.phrase import Phrase

__all__ = ["N_", "LOCALE", "languages", "said", "terminal_language", "translator"]

LOCALE = Path(__file__).parent / "locale"
LOCALE_DIR_ENV = "PNPFORGE_LOCALE_DIR"  # one more folder of compiled catalogs
LANG_ENV = "PNPFORGE_LANG"  # the language pnpforge speaks in the terminal (default English)
SOURCE = "en"


LIST = N_(", ")  # how a Phrase's list of values is joined


def _folders() -> list[Path]:
    extra = os.environ.get(LOCALE_DIR_ENV)
    return [LOCALE, *([Path(extra)] if extra else [])]


def languages() -> tuple[str, ...]:
    """English and every language with a compiled catalog, in that order (English first)."""
    found = {path.stem for folder in _folders() if folder.is_dir() for path in folder.glob("*.mo")}
    return (SOURCE, *sorted(found - {SOURCE}))


@cache
def _catalog(lang: str, folders: tuple[Path, ...]) -> gettext.NullTranslations:
    for folder in reversed(folders):  # the extra folder wins: a translation being tried
        path = folder / f"{lang}.mo"
        if path.is_file():
            with path.open("rb") as file:
                return gettext.GNUTranslations(file)
    raise ValueError(f"no catalog for language {lang!r} (expected one of: {', '.join(languages())})")


def _lookup(lang: str, domain: str | None, names: Mapping[str, str]) -> Callable[[str], str]:
    """The translation of a message id: a name the game's data prints in `lang`, else the catalog's
    (the game's own first, then the engine's), else the id itself."""
    catalog = _catalog(lang, tuple(_folders()))

    def lookup(msgid: str) -> str:
        if not msgid:  # gettext's "" is the catalog's header, never a text someone wrote
            return msgid
        if msgid in names:
            return names[msgid]
        said = catalog.pgettext(domain, msgid) if domain is not None else msgid
        return said if said != msgid else catalog.gettext(msgid)

    return lookup


def translator(
    lang: str, domain: str | None = None, names: Mapping[str, str] | None = None
) -> Callable[[str], str]:
    """Texts said in `lang`: a `Phrase` by its template, filled with its values (each said the same
    way when it is a Phrase itself, names and numbers as they are); a plain text by itself. A text the
    catalog lacks stays as written. `domain` is a game's id: its own words first, then the engine's.
    `names` are what a game's own data files print for its ids in `lang` (a god's or a tile's name,
    the spec's text rather than ours): they come before the catalog."""
    if lang == SOURCE:
        return str
    lookup = _lookup(lang, domain, names or {})
    joined = lookup(LIST)

    def value(item: Any) -> str:
        if isinstance(item, list | tuple):
            return joined.join(value(v) for v in item)
        return say(item) if isinstance(item, Phrase) else str(item)

    def say(text: str) -> str:
        if isinstance(text, Phrase):
            template = lookup(text.template)
            if not text.values:  # a word: taken as it is (braces and all) when the catalog lacks it
                return template if template != text.template else str(text)
            return template.format(**{k: value(v) for k, v in text.values.items()})
        return lookup(text)

    return say


def said(lang: str, msgid: str, /, domain: str | None = None, **values: Any) -> str:
    """One message in `lang`, its `{placeholders}` filled with `values` (each a Phrase said in `lang`
    too, or shown as it is)."""
    return translator(lang, domain)(Phrase(msgid, **values) if values else msgid)


def terminal_language() -> str:
    """The language pnpforge's terminal messages are said in: `PNPFORGE_LANG` when it names a
    language with a catalog, else English."""
    asked = os.environ.get(LANG_ENV, SOURCE)
    return asked if asked in languages() else SOURCE
