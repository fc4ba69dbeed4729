"""`pnpforge serve`: prints timings (not a test; run with `make bench`).

Targets (issue "The table page"): deal + picture per game < 150 ms server-side; a score update < 50 ms;
validate + marked picture < 100 ms; 100 requests from 10 concurrent clients on loopback without an error.
"""

from __future__ import annotations

import socket
import statistics
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import bench_checks  # beside this script: its timing helper

from pnpforge import catalog
from pnpforge.web import board
from pnpforge.web.app import create_app

PLAYERS = {"good-shepherds": 2, "quo-vadis": 3}
GODS_SHEET = {
    **{"count": "3", "p0:name": "Ann", "p0:villages": "2", "p0:vp_cards": "1", "p0:temples": "1"},
    **{"p1:name": "Bob", "p1:villages": "1", "p1:vp_cards": "3", "p1:temples": "2"},
    **{"p2:name": "Cy", "p2:villages": "1", "p2:vp_cards": "2", "p2:crystals": "4"},
}


def best_of(runs: int, job: Callable[[], Any]) -> float:
    """The fastest of `runs` timings in ms (the least disturbed by other work on the machine)."""
    return bench_checks.best_of(runs, job) * 1000


def broken_delphi() -> str:
    dealt = board.deal_text("delphi", 3, 7, {})
    return dealt.replace("{at: [-3, -4], colour: red, count: 3}", "{at: [4, -5], colour: red, count: 3}")


def in_process() -> None:
    from starlette.testclient import TestClient

    client = TestClient(create_app())
    for game in catalog.games():
        players = str(PLAYERS.get(game.id, 3))
        client.get(f"/g/{game.id}")  # warm: the game's plug-ins, inventory and templates load once
        library = best_of(
            5, lambda g=game, p=players: board.check(board.deal_text(g.id, int(p), 7, {}), g.id)
        )
        page = best_of(
            5, lambda g=game, p=players: client.post(f"/g/{g.id}/deal", data={"players": p, "seed": "7"})
        )
        print(
            f"deal + picture  {game.id:<15} {library:7.1f} ms  (whole page {page:6.1f} ms)  target < 150 ms"
        )
    client.post("/api/g/gods/score", data=GODS_SHEET)
    update = best_of(20, lambda: client.post("/api/g/gods/score", data=GODS_SHEET))
    print(f"score update    gods, 3 players {update:7.1f} ms  (POST /api/g/gods/score)   target < 50 ms")
    text = broken_delphi()
    checked = board.check(text, "delphi")
    assert [v.code for v in checked.report.errors] == ["statue-wrong-city"] and not checked.unmarked
    marked = best_of(10, lambda: client.post("/api/g/delphi/check", data={"setup": text}))
    print(f"validate + marked picture (delphi) {marked:6.1f} ms  (POST /api/g/delphi/check) target < 100 ms")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def on_loopback(requests: int = 100, clients: int = 10) -> None:
    import uvicorn

    port = _free_port()
    server = uvicorn.Server(uvicorn.Config(create_app(), host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)
    base = f"http://127.0.0.1:{port}"
    bodies = [
        ("GET", "/g/gods", None),
        ("POST", "/api/g/gods/score", urllib.parse.urlencode(GODS_SHEET).encode()),
        ("POST", "/api/g/delphi/check", urllib.parse.urlencode({"setup": broken_delphi()}).encode()),
        ("POST", "/g/ankh/deal", b"players=3&seed=5"),
    ]

    def one(index: int) -> tuple[float, bool]:
        method, path, body = bodies[index % len(bodies)]
        start = time.perf_counter()
        try:
            with urllib.request.urlopen(
                urllib.request.Request(base + path, body, method=method), timeout=30
            ) as r:
                ok = r.status == 200
                r.read()
        except (urllib.error.URLError, OSError):
            ok = False
        return (time.perf_counter() - start) * 1000, ok

    try:
        one(0)
        start = time.perf_counter()
        with ThreadPoolExecutor(clients) as pool:
            results = list(pool.map(one, range(requests)))
        wall = time.perf_counter() - start
    finally:
        server.should_exit = True
        thread.join(10)
    times = sorted(t for t, _ in results)
    errors = sum(1 for _, ok in results if not ok)
    p95 = times[int(len(times) * 0.95) - 1]
    print(
        f"loopback: {requests} requests from {clients} clients in {wall:.2f} s, errors {errors}, "
        f"median {statistics.median(times):.0f} ms, p95 {p95:.0f} ms"
    )


def main() -> None:
    in_process()
    on_loopback()


if __name__ == "__main__":
    main()
