"""Print on the page: the components list, and builds run as `pnpforge build` in a child process.

A build has a time limit and runs one at a time per game (a second click waits, then finds the first
build's files); its PDF and page thumbnails stay in the server's own temporary folder.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pnpforge import catalog, i18n
from pnpforge.errors import InputError, Problem
from pnpforge.i18n import N_

BUILD_SECONDS = 180.0
THUMB_DPI = 24
PAGES = ("a4", "letter")
DUPLEX = ("long", "short")


@dataclass
class Builds:
    """Built PDFs and thumbnails, one folder per game and choice, made one at a time per game."""

    root: Path
    seconds: float
    locks: dict[str, asyncio.Lock] = field(default_factory=dict)

    def folder(self, game: str, key: str) -> Path:
        return self.root / game / key


_inventories: dict[tuple[str, str, str, float], list[dict[str, Any]]] = {}


def inventory(game: catalog.GameFolder, lang: str) -> list[dict[str, Any]]:
    """The game's components as `pnpforge inventory` lists them (empty when its spec does not load)."""
    try:
        stamp = game.spec_file.stat().st_mtime  # an edited spec is listed afresh
    except OSError:
        return []
    key = (game.id, str(game.path), lang, stamp)
    if key not in _inventories:
        from pnpforge.build import BuildOptions, inventory
        from pnpforge.components.load import load_target

        try:
            lines = inventory(load_target(game.path), BuildOptions(lang=lang))
        except InputError:
            lines = []
        keys = ("name", "title", "kind", "count", "sides", "sheets")
        _inventories[key] = [{k: getattr(x, k) for k in keys} for x in lines]
    return _inventories[key]


async def build(
    builds: Builds, game: catalog.GameFolder, choice: dict[str, str], lang: str = "en"
) -> dict[str, Any]:
    """Run `pnpforge build` for one choice in a child process with a time limit, one at a time per game;
    what it refuses is said in `lang`, the page's language."""
    key = f"{choice['page']}-{choice['lang']}-{choice['duplex']}"
    folder = builds.folder(game.id, key)
    lock = builds.locks.setdefault(game.id, asyncio.Lock())
    async with lock:  # a second click waits for the first build, then finds its files
        if not (folder / f"{game.id}.pdf").is_file():
            await run_build(builds, game, choice, folder, lang)
    pages = sorted(p.name for p in folder.glob(f"{game.id}-p*.png"))
    return {"key": key, "pdf": f"{game.id}.pdf", "pages": pages}


async def run_build(
    builds: Builds, game: catalog.GameFolder, choice: dict[str, str], folder: Path, lang: str = "en"
) -> None:
    builds.root.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(dir=builds.root))
    command = [sys.executable, "-m", "pnpforge", "build", str(game.path), "-o", str(work)]
    command += ["--page", choice["page"], "--lang", choice["lang"], "--duplex", choice["duplex"]]
    command += ["--format", "pdf,png", "--dpi", str(THUMB_DPI)]
    env = {**os.environ, i18n.LANG_ENV: lang}  # its messages in the page's language
    process = await asyncio.create_subprocess_exec(  # its own session: Ctrl+C is the server's to pass on
        *command,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        start_new_session=True,
        env=env,
    )
    try:
        _, err = await asyncio.wait_for(process.communicate(), builds.seconds)
    finally:
        if process.returncode is None:  # over time, or the phone went away: no build outlives its request
            process.kill()
            await process.wait()
            shutil.rmtree(work, ignore_errors=True)
    if process.returncode != 0:
        shutil.rmtree(work, ignore_errors=True)
        lines = [line.removeprefix("error: ") for line in err.decode("utf-8", "replace").splitlines()]
        problems = [Problem(str(game.path), 0, 0, line) for line in lines if line.strip()][:20]
        raise InputError(problems or [Problem(str(game.path), 0, 0, N_("the build failed"))])
    folder.parent.mkdir(parents=True, exist_ok=True)
    work.rename(folder)
