"""Tables on the real server (`pnpforge serve` in a subprocess, a real SQLite file): edits saved and
seen by another phone, the no-JS page, a restart, a kill -9 mid-write; and two Chromium sessions on one
table (a value typed on one appears on the other and survives reload, Back and the language switch)."""

from __future__ import annotations

import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import REPO

from pnpforge.store import db, plays

PNPFORGE = [sys.executable, "-m", "pnpforge"]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Server:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        command = [*PNPFORGE, "serve", "--port", str(self.port), "--db", str(self.path)]
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 30
        while True:
            try:
                urllib.request.urlopen(self.url + "/", timeout=2).read()
                return
            except OSError:
                assert self.process.poll() is None, self.process.stderr.read()  # type: ignore[union-attr]
                assert time.monotonic() < deadline, "the server did not start"
                time.sleep(0.1)

    def stop(self, sig: int = signal.SIGINT) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(sig)
            self.process.wait(15)

    def post(self, path: str, fields: dict[str, str]) -> tuple[int, str, str]:
        """Status, final address and body (redirects followed, as a browser does)."""
        body = urllib.parse.urlencode(fields).encode()
        try:
            with urllib.request.urlopen(self.url + path, body, timeout=30) as answer:
                return answer.status, answer.url, answer.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, path, error.read().decode()

    def get(self, path: str) -> str:
        with urllib.request.urlopen(self.url + path, timeout=30) as answer:
            return str(answer.read().decode())


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    running = Server(tmp_path / "tables.db")
    running.start()
    yield running
    running.stop()


def _value(page: str, name: str) -> str | None:
    found = re.search(r'name="' + re.escape(name) + r'" value="([^"]*)"', page)
    return found.group(1) if found else None


def _new_table(server: Server) -> str:
    status, url, _ = server.post("/g/gods/table", {"lang": "en", "count": "3", "p0:name": "Ann"})
    assert status == 200 and "/t/" in url
    return url.split("/t/")[1].split("?")[0]


def test_a_table_is_shared_saved_and_kept_over_a_restart(server: Server) -> None:
    code = _new_table(server)
    # the plain (no-JS) page saves on submit and shows the saved sheet on each load
    fields = {
        "lang": "en",
        "count": "3",
        "p0:name": "Ann",
        "p1:name": "Bob",
        "p0:villages": "4",
        "p1:villages": "2",
        "p0:crystals": "1",
        "f0:faction": "red",
        "action": "count",
    }
    status, url, page = server.post(f"/t/{code}", fields)
    assert status == 200 and _value(page, "p0:villages") == "4"
    assert _value(server.get(f"/t/{code}"), "p1:villages") == "2"  # a reload: the same numbers
    assert _value(server.get(f"/t/{code}?lang=ja"), "p0:villages") == "4"  # the language switch too
    # an edit from a phone, and another phone told within the long poll
    seen: dict[str, Any] = {}

    def wait_for_change() -> None:
        import json

        seen.update(json.loads(server.get(f"/api/t/{code}/changes?since=1")))

    waiting = threading.Thread(target=wait_for_change)
    waiting.start()
    time.sleep(0.3)
    _, _, answer = server.post(f"/api/t/{code}/edit", {"base": "1", "p2:villages": "1"})
    waiting.join(10)
    assert seen["changed"] == {"p2:villages": "1"} and seen["version"] == 2
    # two phones on one cell: the later wins and is told what it replaced
    server.post(f"/api/t/{code}/edit", {"base": "2", "p0:vp_cards": "3"})
    _, _, answer = server.post(f"/api/t/{code}/edit", {"base": "2", "p0:vp_cards": "1"})
    assert '"conflicts":{"p0:vp_cards":"3"}' in answer
    # Undo puts back what the last change replaced
    server.post(f"/t/{code}", {"action": "undo"})
    assert _value(server.get(f"/t/{code}"), "p0:vp_cards") == "3"
    # a restart keeps everything
    server.stop()
    server.start()
    page = server.get(f"/t/{code}")
    assert [_value(page, n) for n in ("p0:villages", "p1:villages", "p2:villages", "p0:vp_cards")] == [
        "4",
        "2",
        "1",
        "3",
    ]
    # Game over: the play is recorded from the sheet as `pnpforge score` counts it
    status, _, page = server.post(f"/t/{code}", {"action": "close", "lang": "en"})
    assert status == 200 and 'id="closed"' in page
    (play,) = plays.listed(db.connect(server.path), "gods")
    sheet = (
        "game: gods\nplayers:\n  - {name: Ann, villages: 4, vp_cards: 3, crystals: 1}\n"
        "  - {name: Bob, villages: 2}\n  - {name: Player 3, villages: 1}\n"
    )
    (server.path.parent / "same.yaml").write_text(sheet)
    cli = subprocess.run(
        [*PNPFORGE, "score", str(server.path.parent / "same.yaml"), "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    expected = __import__("json").loads(cli.stdout)
    assert [(s.name, s.total) for s in play.seats] == [(p["name"], p["total"]) for p in expected["players"]]
    assert play.winners == expected["winners"] == ["Ann"] and play.source == f"table {code}"
    assert [s.faction for s in play.seats] == ["red", None, None]  # Gods' colour, as typed on the table
    _, _, answer = server.post(f"/api/t/{code}/edit", {"base": "9", "p0:villages": "1"})
    assert "closed" in answer  # a closed table no longer changes
    assert 'play-count">1<' in server.get("/g/gods/plays")


def test_kill_9_of_the_server_mid_write_leaves_the_database_consistent(server: Server) -> None:
    code = _new_table(server)
    stop = threading.Event()

    def hammer(column: int) -> None:
        n = 0
        while not stop.is_set() and n < 5000:
            n += 1
            try:
                server.post(
                    f"/api/t/{code}/edit",
                    {f"p{column}:villages": str(n % 9), f"p{column}:temples": str(n % 7)},
                )
            except OSError:
                return

    writers = [threading.Thread(target=hammer, args=(c,)) for c in range(3)]
    for w in writers:
        w.start()
    time.sleep(1.5)
    server.stop(signal.SIGKILL)
    stop.set()
    for w in writers:
        w.join(10)
    conn = db.connect(server.path)
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    version = conn.execute("SELECT version FROM score_tables WHERE code = ?", (code,)).fetchone()[0]
    assert version > 10  # it was killed in the middle of many writes
    last = conn.execute("SELECT max(version) FROM changes WHERE code = ?", (code,)).fetchone()[0]
    assert last == version


def test_a_score_file_continues_on_a_table_or_is_refused_leaving_it_as_it_was(server: Server) -> None:
    code = _new_table(server)
    text = (REPO / "src/pnpforge/games/gods/example-score.yaml").read_text(encoding="utf-8")
    status, _, page = server.post(f"/t/{code}", {"file": text, "lang": "en"})
    assert (
        status == 200 and _value(page, "p0:villages") == "red: 1, blue: 1" and _value(page, "p2:name") == "Cy"
    )
    assert 'data-winners="Ann"' in page  # as `pnpforge score` scores the file
    broken = text.replace("temples: 4", "temples: x", 1)
    status, _, page = server.post(f"/t/{code}", {"file": broken, "lang": "en"})
    assert status == 400 and re.search(r"score\.yaml:\d+:\d+: ", page)
    assert _value(server.get(f"/t/{code}"), "p0:temples") == "4"  # the saved sheet unchanged


def test_a_table_keeps_what_the_sheet_has_no_box_for(server: Server, tmp_path: Path) -> None:
    """Good Shepherds with its farm board inline: the board travels with the table, whole."""
    from test_sheet_load import EXAMPLES

    text = EXAMPLES["good-shepherds-inline-farm-counted"]
    (tmp_path / "farm-score.yaml").write_text(text)
    cli = subprocess.run(
        [*PNPFORGE, "score", str(tmp_path / "farm-score.yaml"), "--json"], capture_output=True
    )
    expected = __import__("json").loads(cli.stdout)
    status, url, _ = server.post("/g/good-shepherds/table", {"lang": "en", "count": "2"})
    code = url.split("/t/")[1].split("?")[0]
    status, _, page = server.post(f"/t/{code}", {"file": text, "lang": "en"})
    assert status == 200 and len(_value(page, "rest") or "") > 300  # the whole board, not cut short
    page = server.get(f"/t/{code}")
    totals = [int(t) for t in re.findall(r'class="total[^"]*">(-?\d+)<', page)]
    assert totals == [p["total"] for p in expected["players"]]
    assert f'data-winners="{",".join(expected["winners"])}"' in page


def test_hostile_table_requests_get_plain_answers(server: Server) -> None:
    code = _new_table(server)
    for path in ("/t/nope", "/t/zzzzzz", "/t/../../etc", "/api/t/zzzzzz/changes?since=0"):
        with pytest.raises(urllib.error.HTTPError) as missing:
            server.get(path)
        assert missing.value.code == 404
    status, _, answer = server.post("/api/t/zzzzzz/edit", {"p0:villages": "1"})
    assert status == 404 and "Traceback" not in answer
    status, _, answer = server.post(f"/api/t/{code}/edit", {"p0:villages": "1" * 40_000})
    assert status == 413
    status, _, answer = server.post(
        f"/api/t/{code}/edit", {"base": "9" * 40, "evil key": "1", "p0:villages": "2"}
    )
    assert status == 200 and '"conflicts":{}' in answer
    assert "evil key" not in server.get(f"/api/t/{code}/changes?since=0")
    assert '"version":1' in server.get(f"/api/t/{code}/changes?since={'9' * 30}")  # a silly `since` is 0
