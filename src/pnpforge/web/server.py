"""Running the app with uvicorn: a deadline for a request's headers, a short graceful stop (Ctrl+C ends
the server within a second: in-flight work is cancelled, workers killed, the build folder removed)."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

HEADER_SECONDS = (
    10.0  # a request's headers must have arrived this long after the connection or its data began
)
STOP_SECONDS = 0.2  # Ctrl+C: how long requests in flight get before they are cancelled (and answered 503)


class HeaderDeadline(H11Protocol):
    """uvicorn's h11 protocol, closing a connection whose request headers trickle in (slowloris)."""

    _header_timer: asyncio.TimerHandle | None = None
    headers_seconds = HEADER_SECONDS

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._watch_headers()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        self._watch_headers()

    def connection_lost(self, exc: Exception | None) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None
        super().connection_lost(exc)

    def _watch_headers(self) -> None:
        waiting = self.conn.their_state is h11.IDLE  # no request line and headers parsed yet
        if waiting and self._header_timer is None:
            self._header_timer = self.loop.call_later(self.headers_seconds, self._headers_too_slow)
        elif not waiting and self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _headers_too_slow(self) -> None:
        self._header_timer = None
        if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
            self.transport.close()


def config(app: Any, host: str, port: int, header_seconds: float = HEADER_SECONDS) -> Any:
    """The uvicorn configuration `pnpforge serve` runs with."""
    import uvicorn

    protocol = type("HeaderDeadlineProtocol", (HeaderDeadline,), {"headers_seconds": header_seconds})
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level="warning",
        http=protocol,
        timeout_keep_alive=5,
        timeout_graceful_shutdown=STOP_SECONDS,  # type: ignore[arg-type]
    )


def allowed_hosts(host: str, shown: str) -> Sequence[str]:
    """The Host headers answered: the address printed, the one listened on, and this machine's names."""
    names = {shown, host, "127.0.0.1", "localhost", "::1", "[::1]"}
    if ":" in shown:
        names.add(f"[{shown}]")
    return sorted(n for n in names if n not in ("0.0.0.0", "::"))
