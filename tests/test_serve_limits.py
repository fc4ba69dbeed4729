"""`pnpforge serve` under load and abuse, over real HTTP on loopback (uvicorn as `serve` runs it):
a slow check never delays others, overrunning work is stopped and said, bodies and headers have limits
and deadlines, a foreign Host is refused, a client that goes stops its work, and Ctrl+C stops at once."""

from __future__ import annotations

import http.client
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.parse
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from conftest import SLOW

from pnpforge.web import board, guards, server, work
from pnpforge.web.app import create_app

TILE = "  - {tile: people-red, at: [0, 0]}\n"


def slow_setup(size: int = 63_000) -> str:
    """A set-up of SLOW of `size` bytes (under the set-up routes' limit, enough entries to be costly work):
    the same tile over and over, checked for CHECK_SECONDS."""
    dealt = board.deal_text("gods", 3, 7, {}).replace("game: gods", f"game: {SLOW}", 1)
    copies = (size - len(dealt)) // len(TILE)
    return dealt.replace("board:\n", "board:\n" + TILE * copies, 1)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Running:
    """An app served by uvicorn on loopback in a thread, configured as `pnpforge serve` configures it."""

    def __init__(self, app: Any, header_seconds: float = server.HEADER_SECONDS) -> None:
        import uvicorn

        self.app = app
        self.port = _free_port()
        self.server = uvicorn.Server(server.config(app, "127.0.0.1", self.port, header_seconds))
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> Running:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(10)

    def request(
        self, method: str, path: str, body: bytes | None = None, headers: dict[str, str] | None = None
    ) -> tuple[int, str, float]:
        """Status, body text and seconds taken."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        start = time.perf_counter()
        sent = {"content-type": "application/x-www-form-urlencoded", **(headers or {})}
        connection.request(method, path, body, sent)
        answer = connection.getresponse()
        text = answer.read().decode("utf-8", "replace")
        connection.close()
        return answer.status, text, time.perf_counter() - start


def _form(**fields: str) -> bytes:
    return urllib.parse.urlencode(fields).encode()


BOUNDARY = "pnpforgeTestBoundary"
MULTIPART = {"content-type": f"multipart/form-data; boundary={BOUNDARY}"}


def _multipart(**fields: str) -> bytes:
    """A form as a browser posts the set-up form (multipart: the text as it is, not %-encoded)."""
    parts = [
        f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="{k}"\r\n\r\n{v}\r\n'
        for k, v in fields.items()
    ]
    return ("".join(parts) + f"--{BOUNDARY}--\r\n").encode()


def test_a_slow_check_does_not_delay_a_static_request(tmp_path: Path, slow_game: Path) -> None:
    body = _multipart(setup=slow_setup())
    assert len(body) < 64_000
    with Running(create_app(build_root=tmp_path, work_seconds=2, games_dirs=[str(slow_game)])) as running:
        running.request("GET", "/static/app.js")
        running.request("GET", f"/g/{SLOW}")  # a worker is started and warm
        slow: dict[str, Any] = {}
        thread = threading.Thread(
            target=lambda: slow.update(r=running.request("POST", f"/api/g/{SLOW}/check", body, MULTIPART))
        )
        thread.start()
        time.sleep(0.2)  # the check is under way
        waits = []
        while thread.is_alive() and len(waits) < 200:
            status, text, seconds = running.request("GET", "/static/app.js")
            assert status == 200 and "use strict" in text
            waits.append(seconds)
            time.sleep(0.02)
        thread.join()
    assert slow["r"][2] > 0.5, "the slow request was not slow: the test proves nothing"
    assert len(waits) >= 5
    # answered while the check ran (stopped at 2 s), none held until it ended (speed: bench_serve.py)
    assert max(waits) < 1.0, f"a static file waited {max(waits) * 1000:.0f} ms behind a slow check"


def test_a_slow_check_does_not_delay_a_small_score(tmp_path: Path, slow_game: Path) -> None:
    body = _multipart(setup=slow_setup())
    sheet = _form(**{"p0:name": "Ann", "p0:villages": "2", "p1:name": "Bob", "p1:villages": "1"})
    with Running(create_app(build_root=tmp_path, work_seconds=2, games_dirs=[str(slow_game)])) as running:
        running.request("POST", "/api/g/gods/score", sheet)
        slow: dict[str, Any] = {}
        thread = threading.Thread(
            target=lambda: slow.update(r=running.request("POST", f"/api/g/{SLOW}/check", body, MULTIPART))
        )
        thread.start()
        time.sleep(0.2)
        waits = []
        while thread.is_alive() and len(waits) < 50:
            status, text, seconds = running.request("POST", "/api/g/gods/score", sheet)
            assert status == 200 and '"ok": true' in text.replace('"ok":true', '"ok": true')
            waits.append(seconds)
        thread.join()
    assert slow["r"][2] > 0.5 and len(waits) >= 3
    assert max(waits) < 1.0  # the small lane stays free of the check (2 s) (its speed: bench_serve.py)


def test_work_over_its_deadline_is_stopped_and_said(tmp_path: Path, slow_game: Path) -> None:
    from starlette.testclient import TestClient

    upload = {"file": ("setup.yaml", slow_setup().encode())}
    with TestClient(create_app(build_root=tmp_path, work_seconds=1, games_dirs=[str(slow_game)])) as client:
        start = time.perf_counter()
        page = client.post(f"/g/{SLOW}/check", data={"lang": "en"}, files=upload)
        took = time.perf_counter() - start
        assert page.status_code == 503 and 1 <= took < 4
        assert "This took longer than 1 s and was stopped" in page.text
        assert "Traceback" not in page.text and "{" not in page.text.split("<main>")[1].split("</main>")[0]
        api = client.post(f"/api/g/{SLOW}/check", files=upload)
        assert api.status_code == 503 and "1 s" in api.json()["problems"][0]["message"]
        ja = client.post(f"/g/{SLOW}/check", data={"lang": "ja"}, files=upload)
        assert ja.status_code == 503 and "1 秒を超えたため中止しました" in ja.text
        # the stopped worker was replaced: the next request is answered
        assert client.post("/api/g/gods/score", data={"p0:villages": "1"}).status_code == 200


@pytest.mark.parametrize(
    ("path", "allowed"),
    [
        ("/g/gods/check", 64_000),
        ("/api/g/gods/check", 64_000),
        ("/g/gods/setup.yaml", 64_000),
        ("/g/gods/score", 32_000),
        ("/api/g/gods/score", 32_000),
        ("/api/score", 32_000),
        ("/g/gods/score.pdf", 32_000),
        ("/g/gods/deal", 4_000),
        ("/g/gods/build", 4_000),
    ],
)
def test_each_route_has_a_body_limit_near_real_files(tmp_path: Path, path: str, allowed: int) -> None:
    from starlette.testclient import TestClient

    with TestClient(create_app(build_root=tmp_path)) as client:
        over = client.post(path, content=b"x=" + b"1" * allowed, headers={"content-type": "text/plain"})
        assert over.status_code == 413
        assert f"larger than {allowed // 1000} kB" in over.json()["problems"][0]["message"]
        under = client.post(path, content=b"x=" + b"1" * (allowed - 100))
        assert under.status_code != 413
    assert max(limit for _, limit in guards.LIMITS) == guards.MAX_BODY == 64_000


def test_a_dealt_set_up_fits_its_route_many_times_over() -> None:
    largest = max(len(board.deal_text("delphi", n, 7, {}).encode()) for n in (2, 3, 4))
    assert 10 * largest < 64_000


def test_a_foreign_host_is_refused(tmp_path: Path) -> None:
    from starlette.testclient import TestClient

    app = create_app(build_root=tmp_path, hosts=server.allowed_hosts("0.0.0.0", "192.168.1.20"))
    with TestClient(app, base_url="http://192.168.1.20:8000") as client:
        assert client.get("/static/app.css").status_code == 200
        for host in ("localhost:8000", "127.0.0.1"):
            assert client.get("/static/app.css", headers={"host": host}).status_code == 200
        for host in ("attacker.example", "192.168.1.20.attacker.example", "evil:8000"):
            refused = client.post("/g/gods/build", data={"page": "a4"}, headers={"host": host})
            assert refused.status_code == 400, host


def test_headers_that_trickle_in_are_cut_off(tmp_path: Path) -> None:
    with Running(create_app(build_root=tmp_path), header_seconds=0.5) as running:
        with socket.create_connection(("127.0.0.1", running.port), timeout=5) as slow:
            slow.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            start = time.perf_counter()
            assert slow.recv(100) == b""  # closed by the server, nothing answered
            assert time.perf_counter() - start < 2
        # a complete request on another connection is answered as usual
        assert running.request("GET", "/static/app.css")[0] == 200


def test_a_body_that_trickles_in_is_cut_off(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(guards, "BODY_SECONDS", 0.5)
    with (
        Running(create_app(build_root=tmp_path)) as running,
        socket.create_connection(("127.0.0.1", running.port), timeout=5) as slow,
    ):
        head = "POST /api/score HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 500\r\n"
        slow.sendall((head + "Content-Type: text/plain\r\n\r\ngame: gods\n").encode())
        start = time.perf_counter()
        answer = slow.recv(200)
        assert answer.startswith(b"HTTP/1.1 408") and time.perf_counter() - start < 2


def test_work_stops_when_its_client_goes(tmp_path: Path, slow_game: Path) -> None:
    app = create_app(build_root=tmp_path, games_dirs=[str(slow_game)])
    with Running(app) as running:
        running.request("GET", f"/g/{SLOW}")
        pool: work.Pool = app.state.work
        body = _multipart(setup=slow_setup())
        with socket.create_connection(("127.0.0.1", running.port), timeout=5) as client:
            head = f"POST /api/g/{SLOW}/check HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: {len(body)}\r\n"
            client.sendall((head + f"Content-Type: {MULTIPART['content-type']}\r\n\r\n").encode() + body)
            deadline = time.monotonic() + 5
            while not pool._busy:
                assert time.monotonic() < deadline, "the check never started"
                time.sleep(0.01)
            busy = next(iter(pool._busy)).process
        deadline = time.monotonic() + 1  # the phone went away: the worker is killed, not left checking
        while busy.is_alive():
            assert time.monotonic() < deadline, "the work went on after its client left"
            time.sleep(0.01)
        assert not pool._busy
        assert running.request("GET", f"/g/{SLOW}")[0] == 200


def test_ctrl_c_stops_within_a_second_and_removes_its_folders(tmp_path: Path, slow_games: Path) -> None:
    port = _free_port()
    env = {**os.environ, "TMPDIR": str(tmp_path)}
    command = [sys.executable, "-m", "pnpforge", "serve", "--port", str(port), "--games-dir", str(slow_games)]
    process = subprocess.Popen(command, env=env, stderr=subprocess.PIPE, start_new_session=True)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError:
                assert time.monotonic() < deadline and process.poll() is None, "serve did not start"
                time.sleep(0.1)
        body = _multipart(setup=slow_setup())

        answers: dict[str, tuple[int, str]] = {}

        def post(path: str, data: bytes, kind: str) -> None:
            try:
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
                connection.request("POST", path, data, {"content-type": kind})
                response = connection.getresponse()
                answers[path] = (response.status, response.read().decode("utf-8", "replace"))
            except OSError:
                pass  # the server stopped under it: said below if it gave no answer

        with ThreadPoolExecutor(2) as pool:
            form = "application/x-www-form-urlencoded"
            pool.submit(post, "/g/gods/build", _form(page="a4", pdf_lang="en", duplex="long"), form)
            pool.submit(post, f"/api/g/{SLOW}/check", body, MULTIPART["content-type"])
            time.sleep(1.5)  # a build and a check under way
            assert [p.name for p in tmp_path.glob("pnpforge-serve-*")], "the build made no folder"
            start = time.perf_counter()
            os.killpg(process.pid, signal.SIGINT)  # Ctrl+C in its terminal: the whole group gets it
            process.wait(10)
            stopped = time.perf_counter() - start
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert stopped < 1.0, f"Ctrl+C took {stopped:.2f} s"
    status, page = answers[f"/api/g/{SLOW}/check"]  # seconds of checking: in flight, told, not cut off
    assert status == 503 and "The server is stopping" in page, (status, page[:300])
    status, page = answers["/g/gods/build"]  # a build may have ended just before Ctrl+C
    assert status == 200 or (status == 503 and "The server is stopping" in page), (status, page[:300])
    said = process.stderr.read().decode() if process.stderr else ""
    assert "Traceback" not in said, said
    left = [p.name for p in tmp_path.iterdir()]
    assert not [n for n in left if n.startswith("pnpforge-serve-")], left
