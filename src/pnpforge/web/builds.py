"""Print on the page: the components list, and builds made by the build function in worker processes.

A build has a time limit and runs one at a time per game (a second click waits, then finds the first
build's files); its PDF and page thumbnails stay in the server's own temporary folder. The builds have
workers of their own (web/work.py's Pool, with the builds' time limit), so the event loop never draws.
"""

from __future__ import annotations

import asyncio
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pnpforge import catalog
from pnpforge.errors import InputError
from pnpforge.web.work import Pool, WorkTimeout

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
    pool: Pool = field(init=False)

    def __post_init__(self) -> None:
        self.pool = Pool(size=2, seconds=self.seconds)  # two games built at once on a 2-core machine

    def close(self) -> None:
        """Stop the build workers (the server is stopping): a build under way is killed."""
        self.pool.close()

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
    """Build one choice in a worker with a time limit, one at a time per game; what it refuses is said
    in `lang`, the page's language."""
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
    """The build function (building.py) in one of the builds' worker processes, within the time limit:
    a bad spec comes back as its located problems (said in the page's language `lang` by the page)."""
    builds.root.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(dir=builds.root))
    try:
        await builds.pool.run(build_into, str(game.path), choice, str(work))
    except WorkTimeout:
        shutil.rmtree(work, ignore_errors=True)
        raise TimeoutError from None
    except BaseException:  # a bad spec, the phone gone away: the worker was stopped, nothing is kept
        shutil.rmtree(work, ignore_errors=True)
        raise
    folder.parent.mkdir(parents=True, exist_ok=True)
    work.rename(folder)


def build_into(spec: str, choice: dict[str, str], out: str) -> None:
    """In a worker: build the game at `spec` as chosen on the page, its PDF and page thumbnails in `out`."""
    from pnpforge.building import BuildRequest, build
    from pnpforge.buildoptions import BuildOptions

    options = BuildOptions(
        out_dir=Path(out),
        page=choice["page"],
        lang=choice["lang"],
        duplex=choice["duplex"],
        formats=("pdf", "png"),
        dpi=THUMB_DPI,
    )
    build(BuildRequest(Path(spec), options))
