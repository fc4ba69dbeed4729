"""`pnpforge serve` against what a stranger can send, over real HTTP on loopback: every route answers
every kind of body, twice (no route hangs); another site's page is refused; an over-limit body is 413
however it comes; a client that leaves mid-body is one line in the log; costly work is refused at once
past its bound or its client's share; a deal leads to its own address."""

from __future__ import annotations

import http.client
import logging
import socket
import time
import urllib.parse
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import SLOW
from test_serve_limits import MULTIPART, Running, _multipart, slow_setup

from pnpforge import limits
from pnpforge.web import work
from pnpforge.web.app import create_app

ALIAS_BOMB = "a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{n}: &{n} [{', '.join([f'*{p}'] * 10)}]\n" for p, n in zip("abcdefg", "bcdefgh", strict=True)
)
FORM = "application/x-www-form-urlencoded"
# each kind of body a route may be sent: (name, headers, body or chunks)
BODIES: list[tuple[str, dict[str, str], bytes | list[bytes] | None]] = [
    ("none", {}, None),
    ("empty form", {"content-type": FORM}, b""),
    ("binary", {"content-type": "application/octet-stream"}, bytes(range(256)) * 8),
    ("binary as a form", {"content-type": FORM}, bytes(range(256)) * 8),
    ("alias bomb", {"content-type": FORM}, urllib.parse.urlencode({"setup": ALIAS_BOMB}).encode()),
    ("alias bomb as a file", MULTIPART, _multipart(setup=ALIAS_BOMB, file=ALIAS_BOMB)),
    ("chunked, no type", {}, [b"game: gods\n", b"players: []\n"]),
    ("chunked form", {"content-type": FORM}, [b"players=3&", b"seed=1"]),
]
ROUTES = [
    "/g/gods/build",
    "/g/gods/deal",
    "/g/gods/check",
    "/g/gods/setup.yaml",
    "/api/g/gods/check",
    "/g/gods/score",
    "/g/gods/score.yaml",
    "/api/g/gods/score",
    "/api/score",
    "/g/gods/table",
    "/t/nosuchcode",
    "/api/t/nosuchcode/edit",
]


def send(
    port: int, path: str, headers: dict[str, str], body: bytes | list[bytes] | None, method: str = "POST"
) -> tuple[int, dict[str, str], str]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=40)
    try:
        if isinstance(body, list):
            connection.request(method, path, iter(body), headers, encode_chunked=True)
        else:
            connection.request(method, path, body, headers)
        response = connection.getresponse()
        return response.status, dict(response.getheaders()), response.read().decode("utf-8", "replace")
    finally:
        connection.close()


@pytest.fixture(scope="module")
def running(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    root = tmp_path_factory.mktemp("builds")
    db = root / "tables.db"  # the tables' database of this test only
    with Running(create_app(build_root=root, work_seconds=20, db=db)) as served:
        yield served


@pytest.mark.parametrize("route", ROUTES)
def test_every_route_answers_every_body_twice(running: Running, route: str) -> None:
    for name, headers, body in BODIES:
        for attempt in (1, 2):  # the second of two identical requests is where a route used to hang
            status, _, page = send(running.port, route, headers, body)
            assert status in (200, 303, 400, 404, 413), (route, name, attempt, status, page[:300])
            assert "Traceback" not in page


def test_another_sites_post_is_refused_and_the_pages_own_is_not(running: Running) -> None:
    form = {"content-type": FORM}
    deal = urllib.parse.urlencode({"players": "3", "seed": "7"}).encode()
    for origin in ("http://evil.example", "null", f"http://127.0.0.1:{running.port}.evil.example"):
        for path in ("/g/gods/build", "/api/g/gods/check", "/g/gods/deal"):
            status, _, page = send(running.port, path, {**form, "origin": origin}, deal)
            assert status == 403 and "another site" in page, (origin, path, status)
    status, _, page = send(running.port, "/g/gods/deal", {**form, "referer": "http://evil.example/x"}, deal)
    assert status == 403
    ja = {**form, "origin": "http://evil.example", "accept-language": "ja"}
    status, _, page = send(running.port, "/g/gods/deal", ja, deal)
    assert status == 403 and "another site" not in page and "拒否" in page  # in the page's language
    own = f"http://127.0.0.1:{running.port}"
    status, headers, _ = send(running.port, "/g/gods/deal", {**form, "origin": own}, deal)
    assert status == 303
    status, _, _ = send(running.port, "/g/gods/deal", {**form, "referer": own + "/g/gods"}, deal)
    assert status == 303
    assert send(running.port, "/g/gods/deal", form, deal)[0] == 303  # no browser: a script, curl


def test_a_deal_leads_to_an_address_that_shows_the_same_deal(running: Running) -> None:
    form = {"content-type": FORM}
    deal = urllib.parse.urlencode({"players": "3", "seed": "41", "lang": "ja"}).encode()
    status, headers, _ = send(running.port, "/g/gods/deal", form, deal)
    assert status == 303
    address = headers["location"]
    assert address.startswith("/g/gods/setup?") and "seed=41" in address and "players=3" in address
    first = send(running.port, address.split("#")[0], {}, None, "GET")
    again = send(running.port, address.split("#")[0], {}, None, "GET")
    assert first[0] == again[0] == 200 and "41" in first[2] and first[2] == again[2]
    bad = urllib.parse.urlencode({"players": "9", "seed": "1"}).encode()
    status, headers, _ = send(running.port, "/g/gods/deal", form, bad)
    status, _, page = send(running.port, headers["location"].split("#")[0], {}, None, "GET")
    assert status == 400 and "players" in page


def test_an_over_limit_body_is_413_however_it_comes(running: Running) -> None:
    big = [b"x" * 1000] * 70
    for headers in ({}, {"content-type": FORM}, MULTIPART):
        for path in ("/g/gods/deal", "/g/gods/check", "/api/score"):
            assert send(running.port, path, headers, big)[0] == 413, (path, headers)


def test_a_client_that_leaves_mid_body_is_one_line(
    running: Running, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.INFO):
        with socket.create_connection(("127.0.0.1", running.port), timeout=5) as client:
            head = "POST /g/gods/check HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 5000\r\n"
            client.sendall((head + f"Content-Type: {FORM}\r\n\r\nsetup=game").encode())
            time.sleep(0.5)
        time.sleep(1.0)
    said = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(said) == 1 and "left before its request body arrived" in said[0].getMessage(), said
    assert not any(r.exc_info for r in caplog.records)


def test_costly_work_is_bounded_before_it_runs(running: Running, monkeypatch: pytest.MonkeyPatch) -> None:
    """Over the bound: refused at once, said on the set-up field's page in its language."""
    body = slow_setup(40_000)
    assert work.estimate(body, work.FILE_WORK) > work.COSTLY
    monkeypatch.setattr(limits, "REQUEST_WORK", 1_000)
    start = time.perf_counter()
    status, _, page = send(running.port, "/g/quo-vadis/check?lang=ja", MULTIPART, _multipart(setup=body))
    assert time.perf_counter() - start < 2.0
    assert status == 400 and "1,000" in page and "entries" not in page  # said in Japanese


def test_a_client_has_at_most_its_share_of_costly_work(tmp_path: Path, slow_game: Path) -> None:
    from concurrent.futures import ThreadPoolExecutor

    body = _multipart(setup=slow_setup(40_000))
    app = create_app(build_root=tmp_path, work_seconds=30, games_dirs=[str(slow_game)])
    with Running(app) as served, ThreadPoolExecutor(4) as pool:
        asked = [
            pool.submit(send, served.port, f"/api/g/{SLOW}/check", MULTIPART, body)
            for _ in range(work.COSTLY_PER_CLIENT + 1)
        ]
        time.sleep(0.3)
        light = send(served.port, "/g/gods", {}, None, "GET")
        statuses = sorted(f.result()[0] for f in asked)
    assert light[0] == 200
    assert statuses.count(503) == 1 and statuses.count(200) == work.COSTLY_PER_CLIENT, statuses


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_deals_problems_name_the_pages_fields_not_the_cli(running: Running, lang: str) -> None:
    for query, field in (
        ("players=3&seed=abc", {"en": "Seed: ", "ja": "シード: "}),
        ("players=3&seed=1&opt:gods=red,red,blue", {"en": "«Gods (in seat order)»: ", "ja": "«神(席順)»: "}),
        ("players=3&seed=1&opt:variant=heap", {"en": "«Variant»=", "ja": "«ヴァリアント»="}),
    ):
        status, _, page = send(running.port, f"/g/gods/setup?{query}&lang={lang}", {}, None, "GET")
        assert status == 400 and field[lang] in page, (query, page[page.find("problems") :][:300])
        assert "--option" not in page and "--seed" not in page and "--players" not in page
    if lang == "ja":
        status, _, page = send(
            running.port, "/g/gods/setup?players=3&seed=1&opt:gods=a,b,c&lang=ja", {}, None, "GET"
        )
        assert "異なる色を 3 つ" in page  # the game's sentence in the page's language too
