"""How a route hands its work to the pool: the deadline, the large-body lane, the client going away,
and a worker's `Answer` made into a response."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from starlette.requests import Request
from starlette.responses import Response

from pnpforge.web import forms, pages, work

T = TypeVar("T")


class ClientGone(Exception):
    """The client closed its connection before its work was done; the work was stopped."""


async def run(request: Request, function: Callable[..., T], *args: Any) -> T:
    """`function(*args)` in a worker of the app's pool, stopped when the client goes away."""
    pool: work.Pool = request.app.state.work
    declared = request.headers.get("content-length", "0")
    large = declared.isdigit() and int(declared) > work.LARGE_BODY
    return await until_gone(request, pool.run(function, *args, large=large))


async def until_gone(request: Request, job: Awaitable[T]) -> T:
    """`job`'s result; the job is cancelled (its worker or child process killed) if the client goes."""
    task = asyncio.ensure_future(job)
    gone = asyncio.ensure_future(_disconnected(request))
    try:
        await asyncio.wait({task, gone}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        if not task.done():
            task.cancel()  # the client went, or this request was cancelled: the work is stopped
        gone.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await gone
    if not task.done() or task.cancelled():
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task
        raise ClientGone
    return task.result()


async def _disconnected(request: Request) -> None:
    """Return when the client has closed the connection (the body was read before the work started)."""
    while (await request.receive())["type"] != "http.disconnect":
        pass


async def posted_page(
    request: Request, function: Callable[..., pages.Answer], field: Callable[[dict[str, str]], Any] = dict
) -> Response:
    """The usual page route: the form read here, then `function(game, field(form), lang)` in a worker."""
    form = await forms.read(request)
    lang = forms.lang_of(request, form)
    return answer(await run(request, function, request.path_params["game"], field(form), lang))


def answer(given: pages.Answer) -> Response:
    headers = {}
    if given.filename:
        headers["content-disposition"] = f'attachment; filename="{given.filename}"'
    return Response(given.body, given.status, headers=headers, media_type=given.media)
