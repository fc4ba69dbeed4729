"""Tables: one score sheet at its own address (`/t/CODE`), shared by every phone that opens it.

The sheet lives in the database (pnpforge/store). Each change a phone makes is saved as it is made
(`POST /api/t/CODE/edit`, a field or a few) and the other phones learn of it by asking for the changes
after the version they have (`GET /api/t/CODE/changes?since=V`, answered as soon as there is one, or
empty after `WAIT_SECONDS`: a long poll). Without JavaScript the page shows the saved sheet on each load
and saves the whole sheet on submit (`POST /t/CODE`, then a redirect back to the page, so Reload never
posts twice). Database calls run in a thread, one at a time, each a short transaction; scoring and
rendering run in the worker pool, as for every page.
"""

from __future__ import annotations

import asyncio
import re
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from pnpforge import catalog
from pnpforge.web import forms, pages, score_routes, sheet, text
from pnpforge.web.serving import answer, run

T = TypeVar("T")
WAIT_SECONDS = 15.0  # how long a phone's request for changes is held open when nothing changes
_FIELD = re.compile(r"(count|round|rest|g:[\w.{}-]{1,120}|[pe]\d{1,2}:[\w.{}-]{1,120}|f\d{1,2}:faction)")
MAX_EDIT_FIELDS = 400  # fields one edit may set (a new round sets every player's total)


class Store:
    """The database as the server uses it: opened (and migrated) once, then one call at a time, each
    in a thread so the event loop never waits on the disk."""

    def __init__(self, path: Path | str | None) -> None:
        self.path = path
        self._db: Any = None
        self._lock = threading.Lock()
        self._waiting: dict[str, set[asyncio.Future[None]]] = {}

    def open(self) -> None:
        """Connect and migrate now (`serve` does it at start-up, so a bad file stops it at once)."""
        with self._lock:
            self._open()

    def _open(self) -> Any:
        if self._db is None:
            from pnpforge.store import db

            self._db = db.connect(self.path)
        return self._db

    def _call(self, function: Callable[..., T], *args: Any) -> T:
        with self._lock:
            return function(self._open(), *args)

    async def call(self, function: Callable[..., T], *args: Any) -> T:
        return await asyncio.to_thread(self._call, function, *args)

    def close(self) -> None:
        with self._lock:
            if self._db is not None:
                self._db.close()
                self._db = None

    # the phones waiting for a table's next change
    def changed(self, code: str) -> None:
        for waiter in self._waiting.pop(code, set()):
            if not waiter.done():
                waiter.set_result(None)

    async def wait(self, code: str, seconds: float) -> None:
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting.setdefault(code, set()).add(waiter)
        try:
            await asyncio.wait_for(waiter, seconds)
        except TimeoutError:
            pass
        finally:
            self._waiting.get(code, set()).discard(waiter)


def _store(request: Request) -> Store:
    store: Store = request.app.state.store
    return store


async def _table(request: Request, lang: str) -> Any:
    from pnpforge.store import tables

    code = request.path_params["code"]
    found = await _store(request).call(tables.get, code) if tables.is_code(code) else None
    if found is None:
        raise HTTPException(404, text.said("no_table", lang, code=code))
    return found


# -- work done in a worker ---------------------------------------------------------------------------


def new_values(game_id: str, form: dict[str, str], lang: str) -> dict[str, str]:
    """What a posted sheet (the page's form and its button) leaves on the table: every field the sheet
    has for its player count (a box not ticked is blank), with +/− Player and Next round applied."""
    the_sheet = sheet.sheet(catalog.find_game(game_id))
    form, count, _ = score_routes.settle(the_sheet, form, lang, [])
    values = {name: form.get(name, "") for name in sheet.field_names(the_sheet, count)}
    if not the_sheet.names:  # each seat's faction, for the play (a game naming its seats has them)
        values |= {f"f{i}:faction": form.get(f"f{i}:faction", "") for i in range(count)}
    if form.get(sheet.REST):
        values[sheet.REST] = form[sheet.REST]
    return values | {"count": str(count), "round": form.get("round") or "1"}


def loaded_values(game_id: str, text: str, lang: str) -> tuple[dict[str, str], list[dict[str, Any]]]:
    """A score file loaded onto a table ("Continue from a score file"): the values to save, or the
    problems that keep it off the table."""
    the_sheet = sheet.sheet(catalog.find_game(game_id))
    loaded, problems = score_routes.load_file(the_sheet, text, lang)
    if problems:
        return {}, problems
    return new_values(game_id, {**loaded, "action": ""}, lang), []


def table_page(game_id: str, table: Any, lang: str, url: str, before: list[dict[str, Any]]) -> pages.Answer:
    """The table's page: the game's page with the saved sheet scored, the table's address and QR code."""
    import segno

    game = catalog.find_game(game_id)
    the_sheet = sheet.sheet(game)
    values = {**table.values, "lang": lang}
    _, count, problems = score_routes.settle(the_sheet, {**values, "action": ""}, lang, before)
    scored = sheet.score_form(the_sheet, values, count, lang)
    scored.problems[:0] = problems
    qr = segno.make(url, error="m").svg_inline(scale=4, dark="#111", light="#fff")
    shared = {"code": table.code, "version": table.version, "closed": table.closed, "play": table.play}
    shared |= {"url": url, "qr": qr}
    context = pages.game_context(game, lang)
    home = f"/t/{table.code}?"
    return pages.page(
        "game.html", lang, home, 200, **context, scored=scored, count=count, values=values, table=shared
    )


def play_of_table(game_id: str, values: dict[str, str], code: str, lang: str) -> Any:
    """The play a closed table becomes, or the problems that keep its sheet from counting."""
    from pnpforge.store import recording

    the_sheet = sheet.sheet(catalog.find_game(game_id))
    _, count, before = score_routes.settle(the_sheet, {**values, "action": ""}, lang, [])
    scored = sheet.score_form(the_sheet, values, count, lang)
    if scored.result is None or before:
        return [*before, *scored.problems]
    data = sheet.score_data(the_sheet, {**values, "lang": lang}, count)
    names = sheet.player_names(the_sheet, values, count)
    factions = {name: values.get(f"f{i}:faction", "").strip() for i, name in enumerate(names)}
    return recording.play_of(
        scored.result, data, f"table {code}", factions={k: v for k, v in factions.items() if v}
    )


# -- routes ------------------------------------------------------------------------------------------


def _address(request: Request, code: str) -> str:
    return str(request.base_url).rstrip("/") + f"/t/{code}"


async def start(request: Request) -> Response:
    """POST /g/GAME/table: a new table holding the posted sheet; the phone goes to its address."""
    from pnpforge.store import tables

    form = await forms.read(request)
    lang = forms.lang_of(request, form)
    game = request.path_params["game"]
    values = await run(request, new_values, game, {**form, "action": ""}, lang)
    table = await _store(request).call(tables.create, game, values)
    return RedirectResponse(f"/t/{table.code}?lang={lang}#score", 303)


async def view(request: Request) -> Response:
    lang = forms.lang_of(request)
    table = await _table(request, lang)
    url = _address(request, table.code)
    return answer(await run(request, table_page, table.game, table, lang, url, []))


async def post(request: Request) -> Response:
    """The plain page's submit: the whole sheet saved (Undo, Game over: their action), then back to it."""
    from pnpforge.store import tables

    form = await forms.read(request)
    lang = forms.lang_of(request, form)
    table = await _table(request, lang)
    store = _store(request)
    action = form.get("action", "")
    back = RedirectResponse(f"/t/{table.code}?lang={lang}#score", 303)
    if table.closed:
        return back
    if form.get("file"):
        values, problems = await run(request, loaded_values, table.game, form["file"], lang)
        if problems:  # shown above the saved sheet, which stays as it was
            url = _address(request, table.code)
            page = await run(request, table_page, table.game, table, lang, url, problems)
            return answer(pages.Answer(page.body, 400))
        await store.call(tables.apply, table.code, values, None)
    elif action == "undo":
        await store.call(tables.undo, table.code)
    elif action == "close":
        play = await run(request, play_of_table, table.game, table.values, table.code, lang)
        if isinstance(play, list):  # the sheet does not count yet: shown with what to fix
            url = _address(request, table.code)
            page = await run(request, table_page, table.game, table, lang, url, play)
            return answer(pages.Answer(page.body, 400))
        await store.call(tables.close, table.code, play)
    else:
        values = await run(request, new_values, table.game, form, lang)
        await store.call(tables.apply, table.code, values, None)
    store.changed(table.code)
    return back


async def edit_api(request: Request) -> Response:
    """POST /api/t/CODE/edit: `base` (the version the phone has) and the fields it changed."""
    from pnpforge.store import tables

    form = await forms.read(request)
    lang = forms.lang_of(request, form)
    code = request.path_params["code"]
    given = form.get("base", "")
    base = int(given) if given.isdigit() and len(given) < 12 else None
    values = {k: v for k, v in form.items() if _FIELD.fullmatch(k)}
    if len(values) > MAX_EDIT_FIELDS:
        return JSONResponse({"ok": False, "problems": pages.said(text.said("too_large", lang, size=32))}, 413)
    started = time.perf_counter()
    try:  # one short transaction: the table read, checked and changed together
        done = await _store(request).call(tables.apply, code, values, base)
    except KeyError:
        raise HTTPException(404, text.said("no_table", lang, code=code)) from None
    except tables.Closed:
        return JSONResponse({"ok": False, "problems": pages.said(text.said("table_closed", lang))}, 409)
    if done.changed:
        _store(request).changed(code)
    took = (time.perf_counter() - started) * 1000  # the save, thread and lock waits included
    answer = {"ok": True, "version": done.version, "conflicts": done.conflicts}
    return JSONResponse(answer, headers={"server-timing": f"save;dur={took:.1f}"})


async def changes_api(request: Request) -> Response:
    """GET /api/t/CODE/changes?since=V: the fields changed after version V, as soon as there are any
    (empty after WAIT_SECONDS), with the table's version and whether it is closed."""
    from pnpforge.store import tables

    lang = forms.lang_of(request)
    code = request.path_params["code"]
    since_text = request.query_params.get("since", "0")
    since = int(since_text) if since_text.isdigit() and len(since_text) < 12 else 0
    table = await _table(request, lang)
    store = _store(request)
    if table.version <= since and not table.closed:
        await store.wait(code, WAIT_SECONDS)
    version, changed, closed = await store.call(tables.changes_since, code, since)
    return JSONResponse({"version": version, "changed": changed, "closed": closed})


ROUTES = [
    Route("/g/{game}/table", start, methods=["POST"]),
    Route("/t/{code}", view, methods=["GET"]),
    Route("/t/{code}", post, methods=["POST"]),
    Route("/api/t/{code}/edit", edit_api, methods=["POST"]),
    Route("/api/t/{code}/changes", changes_api, methods=["GET"]),
]
