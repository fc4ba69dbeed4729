"""The Starlette application: routes by concern (set-up, score, print), the guards every request meets,
and bad input shown as the CLI says it.

Every request body (a set-up file, a filled score sheet) is read as text and goes through the same
library calls as the CLI, in a worker process (`work.Pool`), never on the event loop; an `InputError`
becomes the CLI's `FILE:LINE:COL: message` lines on the page with HTTP 400 (404 for an unknown game),
never a traceback. No route reads or writes a file of the machine except the app's own build folder.
"""

from __future__ import annotations

import logging
import os
import secrets
import shutil
import tempfile
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import Scope

from pnpforge import catalog, i18n
from pnpforge.errors import InputError
from pnpforge.web import (
    builds,
    forms,
    guards,
    pages,
    plays_routes,
    print_routes,
    score_routes,
    setup_routes,
    tables,
    text,
    work,
)
from pnpforge.web.serving import ClientGone, answer, run

HERE = Path(__file__).parent
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1", "[::1]")
log = logging.getLogger("pnpforge.serve")


async def index(request: Request) -> Response:
    return answer(await run(request, pages.index, forms.lang_of(request)))


PAGES_KEPT = 64  # game pages kept rendered (a game and a language each)


async def game_view(request: Request) -> Response:
    """A game's page; the plain page (no deal in its address) is rendered once per game, language and
    spec version and then answered from memory, so a flood of page loads never queues for a worker."""
    query = {k: v for k, v in request.query_params.items() if k in ("players", "seed")}
    query |= forms.joined(request.query_params.multi_items(), "opt:")  # a picker per seat: joined
    lang = forms.lang_of(request)
    dealt = request.scope["path"].endswith("/setup")
    game_id = request.path_params["game"]
    if query or dealt:
        return answer(await run(request, setup_routes.game_view, game_id, lang, query, dealt))
    game = catalog.find_game(game_id)
    try:
        stamp = game.spec_file.stat().st_mtime_ns
    except OSError:
        stamp = 0
    key = (game_id, str(game.path), stamp, lang, *(os.environ.get(name) for name in work.SHARED_ENV))
    kept: dict[tuple[object, ...], pages.Answer] = request.app.state.pages
    if key not in kept:
        given = await run(request, setup_routes.game_view, game_id, lang, query, dealt)
        if given.status != 200:
            return answer(given)
        if len(kept) >= PAGES_KEPT:
            kept.pop(next(iter(kept)))
        kept[key] = given
    return answer(kept[key])


def _wants_json(request: Request) -> bool:
    return request.url.path.startswith("/api/")


def _failure(request: Request, status: int, problems: list[dict[str, object]]) -> Response:
    if _wants_json(request):
        return JSONResponse({"ok": False, "problems": problems}, status)
    lang = forms.lang_of(request)
    return answer(pages.page("error.html", lang, "/?", status, problems=problems))


async def on_input_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, InputError)
    game = request.path_params.get("game")
    status = 404 if game is not None and game not in {g.id for g in catalog.games()} else 400
    known = game if status == 400 else None  # a game's file: its words first
    return _failure(request, status, pages.problems(exc, forms.lang_of(request), known))


async def on_not_found(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    said = i18n.translator(forms.lang_of(request))(str(exc.detail))  # Starlette's words, or ours said
    return _failure(request, exc.status_code, pages.said(said))


async def on_stopped(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, work.WorkTimeout)
    return _failure(
        request, 503, pages.said(text.said("stopped", forms.lang_of(request), seconds=f"{exc.seconds:g}"))
    )


async def on_failed(request: Request, exc: Exception) -> Response:
    log.error("work failed: %s", exc)  # the stack for the server's log, a plain sentence for the player
    return _failure(request, 500, pages.said(text.said("failed", forms.lang_of(request))))


async def on_gone(request: Request, exc: Exception) -> Response:
    if isinstance(exc, ClientDisconnect):  # left mid-body: one line for the log, no stack
        log.warning("client left before its request body arrived: %s %s", request.method, request.url.path)
    return Response(status_code=499)  # nobody is listening; the work was stopped


async def on_busy(request: Request, exc: Exception) -> Response:
    response = _failure(request, 503, pages.said(text.said("busy", forms.lang_of(request))))
    response.headers["retry-after"] = "10"
    return response


def _said(scope: Scope, status: int, key: str) -> Response:
    """An answer given before any route ran (another site's post, the server stopping), as a page in
    the request's language (its query's, else its browser's) or as JSON for /api/."""
    request = Request(scope)
    return _failure(request, status, pages.said(text.said(key, forms.lang_of(request))))


def _cross_site(scope: Scope) -> Response:
    return _said(scope, 403, "cross_site")


def _stopping(scope: Scope) -> Response:
    return _said(scope, 503, "server_stopping")


async def on_too_large(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, guards.BodyTooLarge)
    return guards.too_large_response(exc.limit, forms.lang_of(request))


def create_app(
    max_body: int | None = None,
    build_seconds: float = builds.BUILD_SECONDS,
    build_root: Path | None = None,
    hosts: Sequence[str] = (*LOOPBACK_HOSTS, "testserver"),
    work_seconds: float = work.WORK_SECONDS,
    games_dirs: Sequence[str] = (),
    db: Path | str | None = None,
) -> Starlette:
    """The table page as an ASGI app; `pnpforge serve` runs it with uvicorn.

    `hosts`: the Host headers answered (the addresses the server prints; anything else, e.g. a DNS
    rebinding page, gets 400). `max_body` caps every route at one size instead of `guards.LIMITS`.
    `db`: the tables' and plays' database file (default: store.db.default_path(), opened when first used)."""
    own_root = build_root is None
    if build_root is None:  # made on the first build, so a server that builds nothing leaves nothing
        build_root = Path(tempfile.gettempdir()) / f"pnpforge-serve-{secrets.token_hex(8)}"
    root = build_root
    pool = work.Pool(seconds=work_seconds, games_dirs=tuple(games_dirs))
    store = tables.Store(db)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        try:
            yield
        finally:  # the workers stop mid-work and the build folder goes, whatever was running
            pool.close()
            app.state.builds.close()
            store.close()
            if own_root:
                shutil.rmtree(root, ignore_errors=True)

    routes = [
        Route("/", index),
        Route("/g/{game}", game_view),
        Route("/g/{game}/setup", game_view),  # where a deal leads: its players, seed and options
        *setup_routes.ROUTES,
        *score_routes.ROUTES,
        *print_routes.ROUTES,
        *tables.ROUTES,
        *plays_routes.ROUTES,
        Mount("/static", StaticFiles(directory=HERE / "static"), name="static"),
    ]
    app = Starlette(
        routes=routes,
        exception_handlers={
            InputError: on_input_error,
            HTTPException: on_not_found,
            work.WorkTimeout: on_stopped,
            work.WorkFailed: on_failed,
            ClientGone: on_gone,
            ClientDisconnect: on_gone,
            work.Busy: on_busy,
            guards.BodyTooLarge: on_too_large,
        },
        lifespan=lifespan,
    )
    app.state.work = pool
    app.state.pages = {}
    app.state.store = store
    app.state.builds = builds.Builds(root, build_seconds)
    app.add_middleware(guards.BodyLimit, limits=guards.limits(max_body))
    app.add_middleware(guards.ReadTimeout)
    app.add_middleware(guards.SameOrigin, refused=_cross_site)
    app.add_middleware(TrustedHostMiddleware, allowed_hosts=list(hosts))
    app.add_middleware(guards.SecurityHeaders)
    app.add_middleware(guards.QuietStop, stopping=_stopping)
    return app
