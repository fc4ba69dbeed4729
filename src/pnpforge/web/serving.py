"""How a route hands its work to the pool: the body read whole first, its work estimated (the cost
decides the lane, not the body's size or encoding), the deadline, the client going away, and a worker's
`Answer` made into a response."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from pnpforge.web import forms, work
from pnpforge.web.answers import Answer

T = TypeVar("T")


class ClientGone(Exception):
    """The client closed its connection before its work was done; the work was stopped."""


async def run(request: Request, function: Callable[..., T], *args: Any, cost: int = 0) -> T:
    """`function(*args)` in a worker of the app's pool, stopped when the client goes away.

    `cost` is the work the request asks for, estimated before it runs (`work.estimate`): work over
    `work.COSTLY` goes to the costly lane, a few at a time per client; work over `work.MAX_COST` is
    refused at once (`work.TooCostly`)."""
    pool: work.Pool = request.app.state.work
    client = request.client.host if request.client else ""
    return await until_gone(request, pool.run(function, *args, cost=cost, client=client))


async def until_gone(request: Request, job: Awaitable[T]) -> T:
    """`job`'s result; the job is cancelled (its worker or child process killed) if the client goes.

    The job runs in the request's own task (no task of its own: under a flood of requests each extra
    turn of the event loop is a wait behind all of them); a watcher of the client cancels it. The
    watcher is cancelled without waiting on it: a receive that had already taken the body's last
    message when it was cancelled must not keep the answer waiting for a disconnect."""
    me = asyncio.current_task()
    assert me is not None
    waiting = True
    gone = False

    def left(_: asyncio.Future[Any]) -> None:
        nonlocal gone
        if waiting and not gone:  # the client went (or its connection failed) while the job ran
            gone = True
            me.cancel()

    watcher = asyncio.ensure_future(_disconnected(request))
    watcher.add_done_callback(left)
    try:
        return await job
    except asyncio.CancelledError:
        if gone and me.uncancel() == 0:  # cancelled by the watcher alone, not by the server stopping
            raise ClientGone from None
        raise
    finally:
        waiting = False  # a watcher's callback already scheduled must not cancel the answer's sending
        if not watcher.done():
            watcher.remove_done_callback(left)
            watcher.cancel()
        watcher.add_done_callback(_quiet)


def _quiet(task: asyncio.Future[Any]) -> None:
    """Take a finished background task's outcome, so asyncio does not log it as never retrieved."""
    if not task.cancelled():
        task.exception()


async def _disconnected(request: Request) -> None:
    """Return when the client has closed the connection (the body was read before the work started)."""
    while (await request.receive())["type"] != "http.disconnect":
        pass


async def posted_page(
    request: Request,
    function: Callable[..., Answer],
    field: Callable[[dict[str, str]], Any] = dict,
    kind: str = work.FORM_WORK,
) -> Response:
    """The usual page route: the form read here, its work estimated, then `function(game, field(form),
    lang)` in a worker."""
    form = await forms.read(request)
    lang = forms.lang_of(request, form)
    given = field(form)
    cost = work.estimate(given if isinstance(given, str) else "", kind)
    return answer(await run(request, function, request.path_params["game"], given, lang, cost=cost))


def answer(given: Answer) -> Response:
    if given.location:
        return RedirectResponse(given.location, 303)
    headers = {}
    if given.filename:
        headers["content-disposition"] = f'attachment; filename="{given.filename}"'
    return Response(given.body, given.status, headers=headers, media_type=given.media)
