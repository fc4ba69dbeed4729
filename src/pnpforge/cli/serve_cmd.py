"""CLI command for the table page: `pnpforge serve` (the web app lives in pnpforge/web/)."""

from __future__ import annotations

import click

from pnpforge.cli.helptext import command
from pnpforge.i18n import N_

LOOPBACK = ("127.0.0.1", "localhost", "::1")


def _lan_address() -> str:
    """This machine's address on the local network (the one a route to the outside would use)."""
    import socket

    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # a documentation address: nothing is sent on a UDP connect
            return str(probe.getsockname()[0])
        except OSError:
            return "127.0.0.1"


@command(
    "serve",
    N_("""Serve the table page: set-ups, scores and prints on the players' phones.

    Listens on 127.0.0.1 (this machine only) unless --host says otherwise. With --host 0.0.0.0 it
    also prints the page's LAN address as a QR code for phones to scan. Every bundled game gets a
    page, and so does every game in a --games-dir. Only requests addressed to the printed address (or
    this machine's own names) are answered. Checks, scores and builds run in worker processes with a
    time limit, so one large request never holds up the others. Stop it with Ctrl+C: it stops within a
    second and removes its temporary folder. Routes and limits: docs/serve.md.

    \b
    Example:
      pnpforge serve
      pnpforge serve --host 0.0.0.0 --port 8080
      pnpforge serve --games-dir ~/my-games
      pnpforge serve --db ~/game-night.db

    Tables (one score sheet shared by every phone at /t/CODE) and the plays recorded from them are kept
    in one SQLite file: --db, else $PNPFORGE_DB, else pnpforge.db in the user's data folder. A file of
    an older pnpforge is brought up to date at start-up; one of a newer pnpforge is refused.
    """),
)
@click.option(
    "--host", default="127.0.0.1", show_default=True, help=N_("Address to listen on (0.0.0.0: the LAN).")
)
@click.option(
    "--port", default=8000, show_default=True, type=click.IntRange(0, 65535), help=N_("Port to listen on.")
)
@click.option(
    "--games-dir",
    type=click.Path(file_okay=False, exists=True),
    multiple=True,
    help=N_("Also serve the games (folders holding game.yaml) in DIR."),
)
@click.option(
    "--db",
    "db_path",
    type=click.Path(dir_okay=False),
    default=None,
    help=N_("The tables' and plays' database file (default: $PNPFORGE_DB, else the user's data folder)."),
)
def serve_cmd(host: str, port: int, games_dir: tuple[str, ...], db_path: str | None) -> None:
    # its help: the N_ text of @command above (said in the terminal's language)
    import uvicorn

    from pnpforge import catalog
    from pnpforge.web import server

    for folder in games_dir:
        catalog.add_games_dir(folder)
    from pnpforge.web.app import create_app

    shown = _lan_address() if host in ("0.0.0.0", "::") else host
    url = f"http://{'[' + shown + ']' if ':' in shown else shown}:{port}/"
    click.echo(f"pnpforge table page: {url}", err=True)
    if host not in LOOPBACK:
        import segno

        click.echo("Scan to open it on a phone on the same network:", err=True)
        segno.make(url, error="m").terminal(compact=True)
    from pnpforge.store.db import default_path

    app = create_app(
        hosts=server.allowed_hosts(host, shown), games_dirs=games_dir, db=db_path or default_path()
    )
    app.state.store.open()  # migrated now: a file this pnpforge cannot use stops it here (exit 2)
    uvicorn.Server(server.config(app, host, port)).run()
