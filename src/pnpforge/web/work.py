"""CPU work of the page done in worker processes, never on the event loop, each piece with a deadline.

Reading a set-up, checking it, scoring a sheet and drawing a board are plain Python that can take seconds
on a large input. The event loop only parses the request and hands the work to one of a few long-lived
worker processes (started from a forkserver, so a worker never inherits the server's threads); it waits
on the worker's pipe without blocking. Work that overruns its deadline, or whose client went away, is
stopped by killing its worker, which is replaced: nothing a request asks can stall the others.

Each request's work is estimated before it runs (`estimate`: the entries its body holds, whatever its
size or encoding); costly work goes to a lane of its own (fewer workers, at a lower OS priority, a few
jobs per client), so pages and score updates always find a worker free and the CPU first, and work over
the bound (`limits.REQUEST_WORK`) is refused before it starts. The work functions are module-level
functions, their arguments and answers picklable; `InputError` travels back as itself and becomes the
same page as when raised in place.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import pickle
import signal
import struct
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from multiprocessing.reduction import ForkingPickler
from typing import Any, TypeVar

from pnpforge import catalog, i18n, limits
from pnpforge.errors import InputError
from pnpforge.i18n import N_
from pnpforge.phrase import Phrase
from pnpforge.web.answers import FORM

WORK_SECONDS = 20.0  # per request: far above any real set-up or sheet (a dealt Quo Vadis check: ~0.1 s)
COSTLY = 400  # entries of work (`estimate`): more goes to the costly lane (a dealt set-up: under 300)
COSTLY_NICE = 10  # the costly lane's OS priority: below the light requests' workers and the server
COSTLY_PER_CLIENT = 2  # costly jobs one client may have running or waiting; more are refused at once
COSTLY_WAITING = 8  # costly jobs of all clients together, running or waiting
FORM_WORK = "form"  # a form of a few fields: light whatever it says
FILE_WORK = "file"  # a posted set-up or score file: estimated by its entries
TOO_COSTLY = N_(
    "the file has about {entries} entries (expected at most {limit}; a real set-up has a few hundred)"
)
SHARED_ENV = (catalog.GAMES_DIR_ENV, i18n.LOCALE_DIR_ENV)  # what a worker reads from the server's environment
_PRELOAD = ["pnpforge.web.pages", "pnpforge.web.setup_routes", "pnpforge.web.score_routes"]
SMALL = 16_384  # bytes of a task or an answer moved on the event loop itself (a form, a score); more go
# through a thread: a socket's buffer always holds this much, so a write to an idle worker never waits
_LENGTH = struct.Struct("!Q")  # an answer's frame: its length, then its pickle

T = TypeVar("T")


class WorkTimeout(Exception):
    """A piece of work ran past its deadline and was stopped."""

    def __init__(self, seconds: float) -> None:
        super().__init__(f"stopped after {seconds:g} s")
        self.seconds = seconds


class Busy(Exception):
    """Costly work refused at once: its client (or all clients) already has as much under way as allowed."""


def estimate(body: str, kind: str) -> int:
    """The work a request asks for, in entries (list items, mapping entries, flow values) counted in one
    pass over the text without parsing it: a YAML body costs about this many steps to read and check,
    whether it came chunked or with a length. A form of a few fields costs nothing."""
    if kind != FILE_WORK:
        return 0
    return body.count("\n") + body.count(",") + body.count("{")


def refuse_costly(cost: int) -> None:
    """InputError (said on the page, in its language) when `cost` is over the bound, before any work."""
    if cost > limits.REQUEST_WORK:
        message = Phrase(TOO_COSTLY, entries=f"{cost:,}", limit=f"{limits.REQUEST_WORK:,}")
        raise InputError.single(FORM, message)


class WorkFailed(Exception):
    """A worker raised something other than an InputError: a bug, reported without its stack to the page."""


def _worker(conn: Connection, games_dirs: Sequence[str], nice: int) -> None:
    """A worker's life: run what arrives on the pipe, answer `(ok, value)`, until the pipe closes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl+C is the server's to handle; it stops us
    if nice:
        os.nice(nice)
    for folder in games_dirs:
        catalog.add_games_dir(folder)
    while True:
        try:
            function, args, env = conn.recv()
        except (EOFError, OSError):
            return
        for name, value in env.items():  # the server's games folders and catalogs, as they are now
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
        try:
            answer: tuple[bool, Any] = (True, function(*args))
        except InputError as error:
            answer = (False, error)
        except Exception:  # noqa: BLE001 - a bug: the server logs it and the page says the work failed
            answer = (False, WorkFailed(traceback.format_exc()))
        try:
            _write_all(conn.fileno(), _frame(answer))
        except (BrokenPipeError, OSError):
            return


def _frame(answer: tuple[bool, Any]) -> bytes:
    try:
        data = pickle.dumps(answer, pickle.HIGHEST_PROTOCOL)
    except Exception:  # noqa: BLE001 - an answer that cannot travel is a bug, said as such
        data = pickle.dumps((False, WorkFailed(traceback.format_exc())), pickle.HIGHEST_PROTOCOL)
    return _LENGTH.pack(len(data)) + data


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


@dataclass(eq=False)
class _Worker:
    process: BaseProcess
    conn: Connection

    def stop(self) -> None:
        """Kill the worker; never waits on it (the event loop must not block): a killed child is reaped
        by the next start or by `close`."""
        self.conn.close()
        if self.process.is_alive():
            self.process.kill()


@dataclass
class _Lane:
    """Workers of one kind: `size` of them, started lazily, at an OS priority `nice`."""

    size: int
    nice: int
    idle: asyncio.Queue[_Worker | None] = field(default_factory=asyncio.Queue)

    def __post_init__(self) -> None:
        for _ in range(self.size):
            self.idle.put_nowait(None)


@dataclass
class Pool:
    """Workers in two lanes; `await run(function, *args)` runs a call in one of them within `seconds`.

    Light requests have `size` workers; costly work has `size - 1` workers of its own at a lower OS
    priority, so a costly check neither takes a page's worker nor its CPU, and a client has at most
    `COSTLY_PER_CLIENT` costly jobs running or waiting."""

    size: int = field(default_factory=lambda: max(2, min(4, os.cpu_count() or 2)))
    seconds: float = WORK_SECONDS
    games_dirs: Sequence[str] = ()
    _lanes: dict[bool, _Lane] = field(default_factory=dict)
    _loop: asyncio.AbstractEventLoop | None = None
    _busy: set[_Worker] = field(default_factory=set)
    _costly: dict[str, int] = field(default_factory=dict)  # costly jobs running or waiting, by client

    def _start(self, nice: int) -> _Worker:
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(_PRELOAD)
        ours, theirs = context.Pipe()
        process = context.Process(target=_worker, args=(theirs, list(self.games_dirs), nice), daemon=True)
        process.start()
        theirs.close()
        return _Worker(process, ours)

    def _lane(self, large: bool) -> _Lane:
        loop = asyncio.get_running_loop()
        if self._loop is not loop:  # queues belong to one loop (a test client may run a loop per call)
            self.close()
            self._loop = loop
            self._lanes = {False: _Lane(self.size, 0), True: _Lane(max(1, self.size - 1), COSTLY_NICE)}
            self._costly = {}
        return self._lanes[large]

    async def run(self, function: Callable[..., T], *args: Any, cost: int = 0, client: str = "") -> T:
        """`function(*args)` in a worker; WorkTimeout past the deadline, cancelled with the request.

        `cost` over `COSTLY` runs in the costly lane (Busy at once past the per-client or total cap);
        over `limits.REQUEST_WORK` it is refused (InputError) before anything runs."""
        refuse_costly(cost)
        if cost <= COSTLY:
            return await self._run(self._lane(False), function, args)
        lane = self._lane(True)
        if self._costly.get(client, 0) >= COSTLY_PER_CLIENT or sum(self._costly.values()) >= COSTLY_WAITING:
            raise Busy
        self._costly[client] = self._costly.get(client, 0) + 1
        try:
            return await self._run(lane, function, args)
        finally:
            left = self._costly.get(client, 1) - 1
            if left > 0:
                self._costly[client] = left
            else:
                self._costly.pop(client, None)

    async def _run(self, lane: _Lane, function: Callable[..., T], args: tuple[Any, ...]) -> T:
        worker = await lane.idle.get()
        loop = asyncio.get_running_loop()
        try:
            if worker is None or not worker.process.is_alive():
                worker = await loop.run_in_executor(None, self._start, lane.nice)
            self._busy.add(worker)
            task = (function, args, {name: os.environ.get(name) for name in SHARED_ENV})
            data = bytes(ForkingPickler.dumps(task))
            if len(data) <= SMALL:  # the idle worker's socket takes it whole at once
                worker.conn.send_bytes(data)
            else:  # a big body: written by a thread while the worker reads it
                await loop.run_in_executor(None, worker.conn.send_bytes, data)
            async with asyncio.timeout(self.seconds):
                framed = await _answer(worker.conn.fileno())
            if len(framed) <= SMALL:
                ok, value = pickle.loads(framed)
            else:  # a page or a picture: unpickled off the loop
                ok, value = await loop.run_in_executor(None, pickle.loads, framed)
        except BaseException as stop:  # the deadline, the client gone, the server stopping: kill the work
            if worker is not None:
                self._busy.discard(worker)
                worker.stop()
            lane.idle.put_nowait(None)  # a fresh worker is started by the next request that needs one
            if isinstance(stop, TimeoutError):
                raise WorkTimeout(self.seconds) from None
            if isinstance(stop, EOFError | OSError):
                raise WorkFailed("the worker stopped") from None
            raise
        self._busy.discard(worker)
        lane.idle.put_nowait(worker)
        if ok:
            return value
        raise value

    def close(self) -> None:
        """Stop every worker now (the server is stopping): busy ones are killed mid-work."""
        for lane in self._lanes.values():
            while not lane.idle.empty():
                worker = lane.idle.get_nowait()
                if worker is not None:
                    worker.stop()
        stopped = list(self._busy)
        for worker in stopped:
            worker.stop()
        for worker in stopped:
            worker.process.join(0.2)  # killed: gone at once; never wait long on the way out
        self._busy.clear()
        self._lanes = {}
        self._loop = None


async def _answer(fd: int) -> bytes:
    """The worker's answer (its pickle), read from its socket as it arrives without blocking the loop:
    no thread, no extra turn of the loop between the worker's write and the request's going on."""
    loop = asyncio.get_running_loop()
    done: asyncio.Future[bytes] = loop.create_future()
    got = bytearray()

    def arrived() -> None:
        if done.done():
            return
        try:
            chunk = os.read(fd, 1 << 20)  # readable: returns what is there, never waits
        except OSError as error:
            done.set_exception(error)
            return
        if not chunk:  # the worker died mid-answer
            done.set_exception(EOFError())
            return
        got.extend(chunk)
        if len(got) >= _LENGTH.size and len(got) - _LENGTH.size >= _LENGTH.unpack_from(got)[0]:
            done.set_result(bytes(got[_LENGTH.size :]))

    loop.add_reader(fd, arrived)
    try:
        return await done
    finally:
        loop.remove_reader(fd)
