"""Pages rendered to HTML: the templates, a game's page with whatever a request added to it, and the
`Answer` a worker hands back to the server (status, body, type, and a file name for a download)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup, escape

from pnpforge import catalog
from pnpforge.components.template import localise
from pnpforge.web import board, builds, hooks, sheet, text
from pnpforge.web.answers import FORM, Answer, located, problems, said

__all__ = ["FORM", "Answer", "game_page", "index", "located", "page", "problems", "render", "said"]

HERE = Path(__file__).parent
ENV = Environment(
    loader=FileSystemLoader(HERE / "templates"), autoescape=select_autoescape(), trim_blocks=True
)
ENV.globals["localise"] = localise
_CELL = re.compile(r"\[(-?\d+), (-?\d+)\]")


def _cells_tappable(line: str) -> Markup:
    """A written step with each `[q, r]` as a button that finds the cell on the board (web/board.py
    `_spots`); the rest of the text escaped."""
    escaped = str(escape(line))
    return Markup(
        _CELL.sub(
            lambda m: f'<button type="button" class="spot" data-cell="{m[1]},{m[2]}">{m[0]}</button>', escaped
        )
    )


ENV.filters["cells"] = _cells_tappable


def words_of(lang: str) -> dict[str, Any]:
    """What every template is given to speak `lang`: `t.key` (a word) and `say("key", name=value)` (a
    sentence with values), and `langs`, the languages of the pickers."""

    def say(key: str, **values: object) -> str:
        return text.said(key, lang, **values)

    return {"lang": lang, "t": text.words(lang), "say": say, "langs": text.languages()}


def render(name: str, lang: str, home: str, **context: Any) -> str:
    """A template in `lang`; `home` is the GET address the language links lead to (with their query)."""
    return ENV.get_template(name).render(**words_of(lang), home=home, **context)


def page(name: str, lang: str, home: str, status: int = 200, **context: Any) -> Answer:
    return Answer(render(name, lang, home, **context), status)


def game_context(game: catalog.GameFolder, lang: str) -> dict[str, Any]:
    info = catalog.game_info(game)
    low, high = catalog.players_range(game)
    dealer = hooks.dealer(game)
    the_sheet = sheet.sheet(game) if hooks.can_score(game) else None
    tr = text.translator(game.id, lang)  # the game's own words in the page's language
    return {
        "game": game,
        "title": localise(info.get("title", game.id), lang),
        "low": low,
        "high": high,
        "options": hooks.option_pickers(dealer, tr),
        "tr": tr,
        "can_deal": dealer is not None,
        "can_check": hooks.can_check(game),
        "sheet": sheet.localised(the_sheet, lang) if the_sheet else None,
        "inventory": builds.inventory(game, lang),
    }


def game_page(
    game: catalog.GameFolder, lang: str, status: int = 200, query: str = "", **extra: Any
) -> Answer:
    """The game's page with what a request added (a deal, a check, a scored sheet, a build).

    `query` is the state the language links carry back to the GET page (e.g. a deal's seed)."""
    context = game_context(game, lang)
    the_sheet = context["sheet"]
    if the_sheet is not None and "scored" not in extra:
        count = the_sheet.players[0]
        extra["count"] = count
        extra["values"] = {}
        extra["scored"] = sheet.Scored("")  # untouched: neutral, "fill in the counts", no verdict yet
    if extra.get("checked") is not None:  # the set-up check's violations in the page's language
        extra["checked"] = board.said(extra["checked"], game.id, lang)
    home = f"/g/{game.id}" + (f"?{query}&" if query else "?")
    return page("game.html", lang, home, status, **context, **extra)


def index(lang: str) -> Answer:
    rows = []
    for game in catalog.games():
        info = catalog.game_info(game)
        low, high = catalog.players_range(game)
        rows.append(
            {"id": game.id, "title": localise(info.get("title", game.id), lang), "players": (low, high)}
        )
    return page("index.html", lang, "/?", games=rows)
