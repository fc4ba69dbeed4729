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
- Languages are the catalogs found (`locale/<lang>.po`, shipped in every install): the compiled
  `locale/<lang>.mo` beside it when there is one as new as the `.po` (`make` and a wheel build
  compile it), else the `.po` itself, compiled in memory when first used (Babel) — so an editable
  install (`pip install -e .`, no build step) speaks every language a wheel does.
  `PNPFORGE_LOCALE_DIR` adds a folder of catalogs: a translation being tried, or the pseudo-locale
  `xx` the tests use to show that nothing reaches a user untranslated.
"""

from __future__ import annotations

import gettext
import io
import os
from collections.abc import Callable, Mapping
from functools import cache, lru_cache
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


CATALOG_TYPES = (".mo", ".po")


def languages() -> tuple[str, ...]:
    """English and every language with a catalog (compiled or not), in that order (English first).

    The folders are listed again only when one of them changed (its modification time: a catalog
    added, removed or renamed), so a page asked for again and again lists nothing."""
    return _languages(tuple((folder, _stamp(folder)) for folder in _folders()))


def _stamp(folder: Path) -> int | None:
    try:
        return folder.stat().st_mtime_ns
    except OSError:
        return None


@lru_cache(maxsize=16)
def _languages(folders: tuple[tuple[Path, int | None], ...]) -> tuple[str, ...]:
    found = {
        path.stem
        for folder, _ in folders
        if folder.is_dir()
        for path in folder.iterdir()
        if path.suffix in CATALOG_TYPES
    }
    return (SOURCE, *sorted(found - {SOURCE}))


def _newest(folder: Path, lang: str) -> Path | None:
    """The catalog of `lang` in `folder` to read: its `.mo` unless the `.po` beside it is newer (edited
    since `make` compiled it), else the `.po`; None when the folder has neither."""
    compiled, source = folder / f"{lang}.mo", folder / f"{lang}.po"
    if compiled.is_file() and not (source.is_file() and source.stat().st_mtime > compiled.stat().st_mtime):
        return compiled
    return source if source.is_file() else None


def _compiled(source: Path) -> bytes:
    """A `.po` file compiled as `make` compiles it (Babel, fuzzy entries left out), in memory."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    out = io.BytesIO()
    with source.open("rb") as file:
        write_mo(out, read_po(file), use_fuzzy=False)
    return out.getvalue()


@cache
def _catalog(lang: str, folders: tuple[Path, ...]) -> gettext.NullTranslations:
    for folder in reversed(folders):  # the extra folder wins: a translation being tried
        path = _newest(folder, lang)
        if path is not None:
            data = path.read_bytes() if path.suffix == ".mo" else _compiled(path)
            return gettext.GNUTranslations(io.BytesIO(data))
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
