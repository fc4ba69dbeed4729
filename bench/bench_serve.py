"""`pnpforge serve`: prints timings (not a test; run with `make bench`).

Targets (issue "The table page"): deal + picture per game < 150 ms server-side; a score update < 50 ms;
validate + marked picture < 100 ms; 100 requests from 10 concurrent clients on loopback without an error.
Under each attack of issue 28 (2 x 63 kB Quo Vadis checks, the costliest body the check route takes;
2 x chunked 63 kB Ankh checks; 100 clients asking for pages as fast as they can) a game page and a score
update answer within 100 ms at p95.
Run: .venv/bin/python bench/bench_serve.py [attack]   (attack: only the attacks, e.g. to repeat them)
"""

from __future__ import annotations

import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
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

    with TestClient(create_app()) as client:  # one event loop for every call: the workers stay warm
        _in_process(client)


def _in_process(client: Any) -> None:
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


def largest_setup() -> bytes:
    """The largest body the set-up routes take, as a browser posts it (multipart): a Quo Vadis set-up
    with the same tile over and over, seconds of reading and checking."""
    from pnpforge.web import guards

    limit = next(limit for pattern, limit in guards.LIMITS if "check" in pattern)
    boundary = "benchBoundary"
    dealt = board.deal_text("quo-vadis", 3, 7, {})
    tile = "  - {tile: a1-2, at: [0, 0], rotation: 0}\n"
    head = f'--{boundary}\r\nContent-Disposition: form-data; name="setup"\r\n\r\n'
    tail = f"\r\n--{boundary}--\r\n"
    copies = (limit - 200 - len(head) - len(tail) - len(dealt)) // len(tile)
    text = dealt.replace("map:\n", "map:\n" + tile * copies, 1)
    return (head + text + tail).encode()


def beside_a_large_body(clients: int = 50, seconds: float = 12.0) -> None:
    """`clients` phones scoring as a table types (each sends its sheet, then waits 0.25-1 s: the page's
    live update fires as numbers are typed), while another client posts the largest allowed body again
    and again: the p95 of the scores (target <= 100 ms). Then the same clients all at once, no pause
    (a burst: every request queues behind the others on a 2-core machine), for comparison."""
    import random

    import uvicorn

    from pnpforge.web import server as serving

    port = _free_port()
    server = uvicorn.Server(serving.config(create_app(), "127.0.0.1", port))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)
    base = f"http://127.0.0.1:{port}"
    large = largest_setup()
    sheet = urllib.parse.urlencode(GODS_SHEET).encode()
    stop = threading.Event()
    large_times: list[float] = []

    def post(path: str, body: bytes, kind: str) -> tuple[float, int]:
        start = time.perf_counter()
        request = urllib.request.Request(base + path, body, {"content-type": kind}, method="POST")
        try:
            with urllib.request.urlopen(request, timeout=60) as r:
                r.read()
                status = r.status
        except urllib.error.HTTPError as e:
            status = e.code
        return (time.perf_counter() - start) * 1000, status

    def keep_posting_large() -> None:
        while not stop.is_set():
            large_times.append(
                post("/api/g/quo-vadis/check", large, "multipart/form-data; boundary=benchBoundary")[0]
            )

    def score(_: int) -> tuple[float, int]:
        return post("/api/g/gods/score", sheet, "application/x-www-form-urlencoded")

    def phone(seed: int) -> list[tuple[float, int]]:
        pace = random.Random(seed)
        done = []
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            done.append(score(0))
            time.sleep(pace.uniform(0.25, 1.0))
        return done

    def report(what: str, results: list[tuple[float, int]]) -> None:
        times = sorted(t for t, _ in results)
        errors = sum(1 for _, status in results if status != 200)
        p95 = times[int(len(times) * 0.95) - 1]
        print(
            f"{what}: {len(results)} scores from {clients} clients beside the largest body "
            f"({len(large) // 1000} kB set-up, posted {len(large_times)}x), errors {errors}, "
            f"median {statistics.median(times):.0f} ms, p95 {p95:.0f} ms"
        )

    try:
        with ThreadPoolExecutor(clients) as pool:
            list(pool.map(score, range(clients)))  # warm: every worker has the game loaded
            big = threading.Thread(target=keep_posting_large, daemon=True)
            big.start()
            time.sleep(0.5)  # the large body is being read and checked
            paced = [r for done in pool.map(phone, range(clients)) for r in done]
            burst = [r for _ in range(4) for r in pool.map(score, range(clients))]
        stop.set()
        big.join(120)
    finally:
        server.should_exit = True
        thread.join(10)
    report("phones typing (target p95 <= 100 ms)", paced)
    report("all at once, no pause (for comparison)", burst)


AIM_MS = 100  # p95 of a game page and of a score update while an attack runs


def _p95(times: list[float]) -> float:
    return sorted(times)[max(0, int(len(times) * 0.95) - 1)]


def under_attack(seconds: float = 8.0) -> None:
    """Each attack of issue 28 against a served app on loopback, bounded in count and time; meanwhile
    one client asks for a game page and another sends a score update, one after another: their p95
    beside the aim (<= 100 ms while the costly work runs), and which are over it."""
    import http.client

    import bench_checks as checks_bench

    multipart = {"content-type": "multipart/form-data; boundary=benchBoundary"}
    qv = largest_setup()  # 63 kB, ~1,500 tiles: the check and its marked picture, the costliest found
    ankh = checks_bench.crowded_ankh().encode()
    sheet = urllib.parse.urlencode(GODS_SHEET).encode()
    qv_text = qv.decode()[qv.index(b"\r\n\r\n") + 4 : qv.rindex(b"\r\n--")]
    one_qv = best_of(2, lambda: board.check(qv_text, "quo-vadis")) / 1000
    one_ankh = best_of(2, lambda: board.check(ankh.decode(), "ankh")) / 1000
    print(
        f"costly bodies, one request's work in this process: 63 kB Quo Vadis check + picture {one_qv:.2f} s, "
        f"63 kB Ankh check + picture {one_ankh:.2f} s (load {Path('/proc/loadavg').read_text().split()[0]})"
    )

    port = _free_port()  # the server in its own process, as `pnpforge serve` runs: the clients here
    command = [sys.executable, "-m", "pnpforge", "serve", "--port", str(port)]
    served = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            if time.monotonic() > deadline or served.poll() is not None:
                raise SystemExit("serve did not start") from None
            time.sleep(0.1)

    def send(
        method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
    ) -> tuple[float, int]:
        start = time.perf_counter()
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        try:
            chunked = isinstance(body, list)
            connection.request(
                method, path, iter(body) if chunked else body, headers or {}, encode_chunked=chunked
            )
            response = connection.getresponse()
            response.read()
            status = response.status
        except OSError:
            status = 0
        finally:
            connection.close()
        return (time.perf_counter() - start) * 1000, status

    def qv_check() -> tuple[float, int]:
        return send("POST", "/api/g/quo-vadis/check", qv, multipart)

    def ankh_chunked() -> tuple[float, int]:  # no Content-Length: the set-up form, sent in chunks
        head = b'--benchBoundary\r\nContent-Disposition: form-data; name="setup"\r\n\r\n'
        form = head + ankh + b"\r\n--benchBoundary--\r\n"
        parts = [form[i : i + 4096] for i in range(0, len(form), 4096)]
        return send("POST", "/api/g/ankh/check", parts, multipart)

    def light() -> tuple[float, int]:
        return send("GET", "/g/gods")

    over: list[str] = []

    def measure(what: str, attack: Callable[[], tuple[float, int]], attackers: int) -> None:
        stop = threading.Event()
        seen: list[tuple[float, int]] = []

        def keep(job: Callable[[], tuple[float, int]]) -> None:
            while not stop.is_set():
                seen.append(job())

        page: list[float] = []
        update: list[float] = []
        with ThreadPoolExecutor(attackers) as pool:
            for _ in range(attackers):
                pool.submit(keep, attack)
            time.sleep(0.5)  # the attack is under way
            end = time.monotonic() + seconds
            while time.monotonic() < end:
                page.append(send("GET", "/g/gods")[0])
                update.append(
                    send(
                        "POST",
                        "/api/g/gods/score",
                        sheet,
                        {"content-type": "application/x-www-form-urlencoded"},
                    )[0]
                )
            stop.set()
        statuses = sorted({s for _, s in seen})
        attack_ms = statistics.median(t for t, _ in seen) if seen else 0.0
        late = [
            name for name, times in (("game page", page), ("score update", update)) if _p95(times) > AIM_MS
        ]
        over.extend(f"{name} under {what}" for name in late)
        verdict = f"OVER AIM: {', '.join(late)}" if late else "ok"
        print(
            f"under {what:<34}: game page p95 {_p95(page):5.0f} ms, score update p95 {_p95(update):5.0f} ms "
            f"(aim <= {AIM_MS} ms: {verdict}; {len(page)} each; the attack answered {len(seen)}x in a "
            f"median {attack_ms:.0f} ms, statuses {statuses})"
        )

    try:
        for _ in range(3):  # warm: every light worker has the games loaded
            light()
            send("POST", "/api/g/gods/score", sheet, {"content-type": "application/x-www-form-urlencoded"})
        measure("2 x 63 kB Quo Vadis checks", qv_check, 2)
        measure("2 x chunked 63 kB Ankh checks", ankh_chunked, 2)
        measure("100 parallel light requests", light, 100)
    finally:
        served.send_signal(signal.SIGINT)
        served.wait(10)
    print(
        f"under attack: {'over the aim: ' + '; '.join(over) if over else 'every p95 within the aim'} "
        f"(load {Path('/proc/loadavg').read_text().split()[0]} when done)"
    )


def main() -> None:
    if sys.argv[1:] == ["attack"]:
        under_attack()
        return
    in_process()
    on_loopback()
    beside_a_large_body()
    under_attack()


if __name__ == "__main__":
    main()
