"""The plays page: `/g/GAME/plays`, what `pnpforge plays stats GAME` prints, with its charts as SVG."""

from __future__ import annotations

from typing import Any

from markupsafe import Markup
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from pnpforge import catalog
from pnpforge.components.template import localise
from pnpforge.web import forms, pages, text
from pnpforge.web.serving import answer, run


def plays_page(game_id: str, found: list[Any], version: str | None, lang: str) -> pages.Answer:
    from pnpforge.store import charts, stats
    from pnpforge.store.stats import WORDS

    game = catalog.find_game(game_id)
    tr = text.translator(game.id, lang)

    def say(key: str) -> str:
        return tr(WORDS.get(key, key))

    summary = stats.compute(game.id, found, version)
    svg = Markup(charts.svg(charts.panels(summary, say))) if found else ""
    title = localise(catalog.game_info(game).get("title", game.id), lang)
    home = f"/g/{game.id}/plays?" + (f"version={version}&" if version else "")
    return pages.page(
        "plays.html", lang, home, game=game, title=title, stats=summary, plays=found, svg=svg, w=say
    )


async def plays_view(request: Request) -> Response:
    from pnpforge.store import plays

    lang = forms.lang_of(request)
    game = request.path_params["game"]
    version = request.query_params.get("version") or None
    found = await request.app.state.store.call(plays.listed, game, version)
    return answer(await run(request, plays_page, game, found, version, lang))


ROUTES = [Route("/g/{game}/plays", plays_view)]
