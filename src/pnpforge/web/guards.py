"""What every request meets first: a limit on the body's size per route, a deadline for the body to
arrive, and headers that keep the page to itself. (The Host allow-list is Starlette's
TrustedHostMiddleware; the deadline for the request's headers is the server's, web/server.py.)"""

from __future__ import annotations

import asyncio
import re

from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from pnpforge.web import text

# Bytes a route's body may have, near real files: a dealt set-up is 0.7-3.3 kB (Delphi, 4 players, the
# largest) and a filled score file under 1 kB; an edited, commented one a few times that. The first
# pattern matching the path wins.
LIMITS: list[tuple[str, int]] = [
    (r"/(api/)?g/[^/]+/(check|setup\.yaml)", 64_000),
    (r"/(api/)?g/[^/]+/score(\.\w+)?|/api/score", 32_000),
    (r"/g/[^/]+/(deal|build)", 4_000),
    (r"/t/[^/]+|/api/t/[^/]+/edit|/g/[^/]+/table", 32_000),  # a table's whole sheet (web/tables.py)
    (r".*", 4_000),
]
MAX_BODY = max(limit for _, limit in LIMITS)  # the largest body any route takes
BODY_SECONDS = 20.0  # a body must have arrived this long after its request began (a dripped body is cut)


def limits(single: int | None = None) -> list[tuple[re.Pattern[str], int]]:
    """The per-route limits, or one `single` limit for every route."""
    table = [(r".*", single)] if single is not None else LIMITS
    return [(re.compile(pattern), limit) for pattern, limit in table]


class BodyTooLarge(Exception):
    def __init__(self, limit: int) -> None:
        super().__init__(f"body over {limit} bytes")
        self.limit = limit


class BodyLimit:
    """Refuses a request body over its route's limit (413), by its Content-Length or as it streams in."""

    def __init__(self, app: ASGIApp, limits: list[tuple[re.Pattern[str], int]]) -> None:
        self.app = app
        self.limits = limits

    def limit(self, path: str) -> int:
        return next((limit for pattern, limit in self.limits if pattern.fullmatch(path)), MAX_BODY)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.limit(scope["path"])
        declared = dict(scope.get("headers") or []).get(b"content-length", b"0")
        if declared.isdigit() and int(declared) > limit:
            await too_large_response(limit, _lang_of(scope))(scope, receive, send)
            return
        seen = 0

        async def limited() -> Message:
            nonlocal seen
            message = await receive()
            seen += len(message.get("body", b""))
            if seen > limit:
                raise BodyTooLarge(limit)
            return message

        await self.app(scope, limited, send)


class BodyTimeout(Exception):
    pass


class ReadTimeout:
    """Cuts a request whose body has not all arrived `seconds` after the request began (408)."""

    def __init__(self, app: ASGIApp, seconds: float | None = None) -> None:
        self.app = app
        self.seconds = BODY_SECONDS if seconds is None else seconds

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.seconds
        complete = False

        async def timed() -> Message:
            nonlocal complete
            if complete:  # after the body: waiting for the client to go is no read
                return await receive()
            try:
                message = await asyncio.wait_for(receive(), max(0.0, deadline - loop.time()))
            except TimeoutError:
                raise BodyTimeout from None
            complete = message["type"] != "http.request" or not message.get("more_body", False)
            return message

        try:
            await self.app(scope, timed, send)
        except BodyTimeout:
            message = text.said("body_late", _lang_of(scope), seconds=f"{self.seconds:g}")
            await PlainTextResponse(message, 408, headers={"connection": "close"})(scope, receive, send)


SECURITY_HEADERS = [
    (
        b"content-security-policy",
        b"default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'",
    ),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
]


class SecurityHeaders:
    """Every answer: scripts and styles from this server only, no framing, no sniffing, no referrer."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *SECURITY_HEADERS]
            await send(message)

        await self.app(scope, receive, with_headers if scope["type"] == "http" else send)


class QuietStop:
    """A request cancelled because the server is stopping (Ctrl+C) ends quietly: its work was already
    stopped by the cancellation, and a stack trace per request in flight would only alarm."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await self.app(scope, receive, send)
        except asyncio.CancelledError:
            if scope["type"] != "http":
                raise


def _lang_of(scope: Scope) -> str:
    """The page's language for an answer given before the body is read: the query's, else the browser's."""
    from starlette.requests import Request

    request = Request(scope)
    return text.pick(request.query_params.get("lang"), request.headers.get("accept-language", ""))


def too_large_response(limit: int, lang: str = "en") -> Response:
    message = text.said("too_large", lang, size=limit // 1000)
    return JSONResponse({"ok": False, "problems": [{"message": message, "where": message}]}, 413)
