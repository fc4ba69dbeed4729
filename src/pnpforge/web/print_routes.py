"""Print routes: a build of the game's PDF (the build function in a worker process, stopped when its
phone goes away or its time is up) and the built files."""

from __future__ import annotations

import re
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.routing import Route

from pnpforge import catalog
from pnpforge.errors import InputError
from pnpforge.phrase import Phrase
from pnpforge.web import builds, forms, pages, text
from pnpforge.web.serving import answer, run, until_gone


def build_page(game_id: str, lang: str, status: int, extra: dict[str, Any]) -> pages.Answer:
    return pages.game_page(catalog.find_game(game_id), lang, status, anchor="print", **extra)


async def build_view(request: Request) -> Response:
    game_id = request.path_params["game"]
    game = catalog.find_game(game_id)
    form = await forms.read(request)
    lang = forms.lang_of(request, form)
    choice = {}
    for field_name, key, allowed in (
        ("page", "page", builds.PAGES),
        ("pdf_lang", "lang", text.languages()),
        ("duplex", "duplex", builds.DUPLEX),
    ):
        value = form.get(field_name, allowed[0]).strip().lower()
        if value not in allowed:
            message = Phrase(
                text.WORDS["bad_choice"], key=f"--{key}", value=value, allowed=", ".join(allowed)
            )
            error = InputError.single(forms.FORM, message)
            problems = pages.problems(error, lang)
            return answer(await run(request, build_page, game_id, lang, 400, {"print_problems": problems}))
        choice[key] = value
    jobs: builds.Builds = request.app.state.builds
    try:
        built = await until_gone(request, builds.build(jobs, game, choice, lang))
    except InputError as error:
        problems = pages.problems(error, lang, game.id)
        return answer(await run(request, build_page, game_id, lang, 400, {"print_problems": problems}))
    except TimeoutError:
        problems = pages.said(text.said("build_stopped", lang, seconds=f"{jobs.seconds:g}"))
        return answer(await run(request, build_page, game_id, lang, 503, {"print_problems": problems}))
    return answer(
        await run(request, build_page, game_id, lang, 200, {"built": built, "build_choice": choice})
    )


async def built_file(request: Request) -> Response:
    game = catalog.find_game(request.path_params["game"])
    key, name = request.path_params["key"], request.path_params["name"]
    jobs: builds.Builds = request.app.state.builds
    path = jobs.folder(game.id, key) / name
    if (
        not re.fullmatch(r"[a-z0-9-]+", key)
        or not re.fullmatch(r"[a-z0-9-]+\.(pdf|png)", name)
        or not path.is_file()
    ):
        raise HTTPException(404, text.said("no_file", forms.lang_of(request)))
    return FileResponse(path)


ROUTES = [
    Route("/g/{game}/build", build_view, methods=["POST"]),
    Route("/g/{game}/build/{key}/{name}", built_file),
]
