"""pnpforge in another language: a game's `JA` tables applied to its texts, for set-up checks and pictures.

English is what every game writes; Japanese comes from the `words` of a game's set-up hook
(`GAME.setup`, pnpforge.games: English text -> Japanese, a `Phrase` looked up by its template, with
names read from data files). A text no table holds stays English. Used by the page's set-up check
(`pnpforge serve`, `?lang=ja`), `pnpforge validate --lang ja` and `pnpforge setup --draw FILE --lang ja`;
the score sheet's own words are in scoring/lang.py, which builds on `translator` here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from pnpforge.phrase import SERIES, Phrase
from pnpforge.validator.report import Report, Violation

if TYPE_CHECKING:
    from pnpforge.validator.picture import BoardPicture

LANGS = ("en", "ja")
LIST_JA = "、"  # how a Phrase's list of values is joined in Japanese
SERIES_JA = "{text} / {more}"  # phrase.series in Japanese

# the closing lines of `pnpforge validate` in Japanese
VALIDATE_JA = {
    "legal": "正しい{game}のセットアップです",
    "warnings": "(警告{count}件)",
    "violations": "{count}件のルール違反",
    "unlisted": "ほかに{count}件の違反があります(最初の{shown}件だけを示しています)",
}


def translator(table: Mapping[str, str], lang: str) -> Callable[[str], str]:
    """A game's text in `lang`: its `JA` table's entry for Japanese, else the English text as it is.

    A `Phrase` is looked up by its template and filled with its values, each said the same way when
    it is a Phrase itself; names and numbers are shown as they are.
    """
    if lang != "ja":
        return lambda english: english
    table = {SERIES: SERIES_JA, **table}

    def value(item: Any) -> str:
        if isinstance(item, list | tuple):
            return LIST_JA.join(value(v) for v in item)
        return tr(item) if isinstance(item, Phrase) else str(item)

    def tr(english: str) -> str:
        if isinstance(english, Phrase) and english.template in table:
            return table[english.template].format(**{k: value(v) for k, v in english.values.items()})
        return table.get(english, english)

    return tr


def game_title(game_id: str, lang: str) -> str:
    """A bundled or local game's name for people in `lang` (game.yaml's `title`)."""
    from pnpforge import catalog

    game = catalog.find_game(game_id)
    name = catalog.game_info(game).get("title", game.id)
    return str(name.get(lang) or name.get("en", game.id)) if isinstance(name, dict) else str(name)


def checks_table(game_id: str) -> dict[str, str]:
    """A game's set-up checks' Japanese words (its `GAME.setup` hook's `words`), {} when it has none."""
    from pnpforge import games

    game = games.load(game_id)
    return dict(game.rules().words()) if game.setup is not None else {}


def check_translator(game_id: str, lang: str) -> Callable[[str], str]:
    """A set-up violation's message in `lang`, through the game's checks.py `JA` (read only for ja)."""
    return translator(checks_table(game_id) if lang == "ja" else {}, lang)


def picture_said(pic: BoardPicture, game_id: str, lang: str) -> BoardPicture:
    """A game's set-up picture (`checks.picture`) with its title and legend in `lang`, through the game's
    checks.py `JA`: what the Japanese page and `pnpforge setup --draw FILE --lang ja` draw."""
    from pnpforge.validator.picture import said

    return pic if lang == "en" else said(pic, check_translator(game_id, lang))


def said_report(report: Report, tr: Callable[[str], str]) -> Report:
    """The same report with every message said by `tr`; codes and places unchanged."""
    return Report(
        report.game,
        [Violation(v.code, tr(v.message), v.where) for v in report.errors],
        [Violation(v.code, tr(v.message), v.where) for v in report.warnings],
        report.error_count,
    )
