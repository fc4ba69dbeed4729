"""Tables under load: prints figures beside their aims (not a test; run with `make bench`).

Issue "The table keeps its numbers": 10 tables × 5 phones editing at once for 60 s on loopback against
the real server (`pnpforge serve` in a subprocess, a fresh SQLite file):
- p95 of edit → visible on another phone (a phone's edit posted, until each other phone of its table
  has it from its long poll): aim ≤ 300 ms;
- p95 of a save (the edit's POST answered): aim ≤ 50 ms;
- the database's size per 1,000 plays (recorded from the bench's score files): printed.

    python bench/bench_table.py [--seconds 60] [--tables 10] [--phones 5] [--rate 1.0]

Every loop is bounded by the deadline and a count; the server is stopped at the end whatever happens.
Only 127.0.0.1 is ever addressed.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
from pathlib import Path

HERE = Path(__file__).parent
MAX_EDITS = 100_000  # per phone: a bound besides the deadline
MAX_POLLS = 100_000


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Client:
    """One phone's connection, kept open between requests as a browser keeps it (asyncio: a thread per
    phone would measure the bench's own GIL more than the server)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.streams: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None

    async def request(
        self, method: str, path: str, body: dict[str, str] | None = None
    ) -> tuple[str, dict[str, str]]:
        data = urllib.parse.urlencode(body).encode() if body is not None else b""
        head = f"{method} {path} HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-length: {len(data)}\r\n"
        if body is not None:
            head += "content-type: application/x-www-form-urlencoded\r\n"
        for attempt in (1, 2):  # a kept connection the server closed meanwhile: once more on a new one
            try:
                if self.streams is None:
                    self.streams = await asyncio.open_connection("127.0.0.1", self.port)
                reader, writer = self.streams
                writer.write(head.encode() + b"\r\n" + data)
                await writer.drain()
                status = await reader.readline()
                if not status:
                    raise ConnectionError("closed")
                headers = {}
                while (line := await reader.readline()) not in (b"\r\n", b""):
                    key, _, value = line.decode().partition(":")
                    headers[key.strip().lower()] = value.strip()
                text = (await reader.readexactly(int(headers.get("content-length", "0")))).decode()
                return text, headers
            except (OSError, asyncio.IncompleteReadError):
                self.close()
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    def close(self) -> None:
        if self.streams is not None:
            self.streams[1].close()
            self.streams = None


def request(port: int, method: str, path: str, body: dict[str, str] | None = None) -> str:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        data = urllib.parse.urlencode(body).encode() if body is not None else None
        headers = {"content-type": "application/x-www-form-urlencoded"} if body is not None else {}
        connection.request(method, path, data, headers)
        return connection.getresponse().read().decode()
    finally:
        connection.close()


def p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20)[18] if len(values) >= 20 else max(values, default=0.0)


class Table:
    def __init__(self, code: str, phones: int) -> None:
        self.code = code
        self.sent: dict[tuple[str, str], float] = {}  # (field, value) → when its edit was sent
        self.phones = phones


def run(seconds: float, tables: int, phones: int, rate: float) -> dict[str, float]:
    folder = Path(tempfile.mkdtemp(prefix="pnpforge-bench-table-"))
    port = free_port()
    command = [sys.executable, "-m", "pnpforge", "serve", "--port", str(port), "--db", str(folder / "t.db")]
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    saves: list[float] = []
    server_saves: list[float] = []
    visible: list[float] = []
    errors = [0]
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                request(port, "GET", "/")
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise SystemExit("the server did not start") from None
                time.sleep(0.1)
        made = []
        for _ in range(tables):
            answer = request(port, "POST", "/g/gods/table", {"count": "4", "lang": "en"})
            del answer
        # the codes, read back from the database the server writes
        from pnpforge.store import db

        conn = db.connect(folder / "t.db")
        made = [Table(row[0], phones) for row in conn.execute("SELECT code FROM score_tables")]
        conn.close()
        stop_at = time.monotonic() + seconds

        def field_of(phone: int) -> str:
            return f"p{phone % 4}:temples" if phone < 4 else "p0:crystals"

        async def editor(table: Table, phone: int) -> None:
            client = Client(port)
            field = field_of(phone)
            seen = 0
            await asyncio.sleep(phone / (phones * rate))  # the phones of a table type at different moments
            for n in range(1, MAX_EDITS):
                if time.monotonic() >= stop_at:
                    break
                value = f"{phone}{n:06d}"
                start = time.monotonic()
                table.sent[(field, value)] = start
                try:
                    text, headers = await client.request(
                        "POST", f"/api/t/{table.code}/edit", {"base": str(seen), field: value}
                    )
                    seen = int(json.loads(text).get("version", seen))
                    server_saves.append(float(headers["server-timing"].split("dur=")[1]))
                except (OSError, ValueError, KeyError, asyncio.IncompleteReadError):
                    errors[0] += 1
                saves.append((time.monotonic() - start) * 1000)
                await asyncio.sleep(max(0.0, 1 / rate - (time.monotonic() - start)))
            client.close()

        async def watcher(table: Table, phone: int) -> None:
            """Phone `phone`'s long poll: the time each other phone's edit took to reach it."""
            client = Client(port)
            since = 0
            for _ in range(MAX_POLLS):
                if time.monotonic() >= stop_at:
                    break
                try:
                    text, _ = await client.request("GET", f"/api/t/{table.code}/changes?since={since}")
                    answer = json.loads(text)
                except (OSError, ValueError, asyncio.IncompleteReadError):
                    errors[0] += 1
                    await asyncio.sleep(0.1)
                    continue
                now = time.monotonic()
                since = int(answer["version"])
                for field, value in answer["changed"].items():
                    sent = table.sent.get((field, value))
                    if field != field_of(phone) and sent is not None:  # not its own edit
                        visible.append((now - sent) * 1000)
            client.close()

        async def everyone() -> None:
            jobs = [
                job(table, phone) for table in made for phone in range(phones) for job in (editor, watcher)
            ]
            await asyncio.wait_for(asyncio.gather(*jobs), seconds + 30)

        asyncio.run(everyone())
    finally:
        server.send_signal(signal.SIGINT)
        try:
            server.wait(15)
        except subprocess.TimeoutExpired:
            server.kill()
    return {
        "saves": len(saves),
        "save_p95": p95(saves),
        "server_p95": p95(server_saves),
        "visible": len(visible),
        "visible_p95": p95(visible),
        "errors": errors[0],
    }


def size_per_thousand_plays() -> float:
    """kB of a database holding 1,000 plays recorded from the games' example score files (five in turn)."""
    from pnpforge.sourcefile import read_yaml
    from pnpforge.store import db, plays
    from pnpforge.store.recording import play_of
    from pnpforge.table.scorefile import score_file

    folder = Path(tempfile.mkdtemp(prefix="pnpforge-bench-plays-"))
    path = folder / "plays.db"
    conn = db.connect(path)
    made = []
    for file in sorted((HERE.parent / "src" / "pnpforge" / "games").glob("*/example-score.yaml")):
        result = score_file(file)
        made.append(
            play_of(
                result.as_json() | {"places": result.places}, read_yaml(file).data, file.name, "2026-11-28"
            )
        )
    plays.import_plays(conn, [made[n % len(made)] for n in range(1000)])
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    return path.stat().st_size / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--phones", type=int, default=5)
    parser.add_argument("--rate", type=float, default=1.0, help="edits per second per phone")
    args = parser.parse_args()
    load = os.getloadavg()
    figures = run(args.seconds, args.tables, args.phones, args.rate)
    after = os.getloadavg()
    print(
        f"tables: {args.tables} × {args.phones} phones, {args.seconds:g} s, {args.rate:g} edit/s per phone "
        f"(load {load[0]:.2f} before, {after[0]:.2f} after; {os.cpu_count()} cores)"
    )
    print(
        f"  saves: {figures['saves']}, p95 {figures['server_p95']:.1f} ms in the server (aim ≤ 50 ms), "
        f"{figures['save_p95']:.1f} ms round trip as the phone sees it"
    )
    print(
        f"  edit → visible on another phone: {figures['visible']} seen, p95 {figures['visible_p95']:.1f} ms "
        "(aim ≤ 300 ms)"
    )
    print(f"  errors: {figures['errors']}")
    print(f"database size per 1,000 plays: {size_per_thousand_plays():.0f} kB")


if __name__ == "__main__":
    main()
