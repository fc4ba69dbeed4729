"""A copy of a bundled game, its dealer changed, served as `serve --games-dir` serves a designer's game:
what the page does with a dealer the bundled games do not have (no labels, a typed option)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from pnpforge import catalog


@contextmanager
def served_with_dealer(tmp_path: Path, name: str, dealer: str) -> Iterator[Any]:
    """A test client serving Gods copied as `name`, its dealer replaced by `dealer`: the source of a
    function `_changed()` returning the new Dealer, which may call `_dealt()` for Gods' own and
    `_replace` (dataclasses.replace). The conftest puts the catalog back after the test."""
    from starlette.testclient import TestClient

    from pnpforge.web.app import create_app

    games = tmp_path / "games"
    shutil.copytree(catalog.BUNDLED_DIR / "gods", games / name, ignore=shutil.ignore_patterns("__pycache__"))
    hook = games / name / "__init__.py"
    hook.write_text(
        hook.read_text(encoding="utf-8")
        + "\n\nfrom dataclasses import replace as _replace\n\n_dealt = GAME.deal\n\n\n"
        + dealer
        + "\n\nGAME = _replace(GAME, deal=_changed)\n",
        encoding="utf-8",
    )
    catalog.add_games_dir(games)  # as `serve --games-dir` does
    with TestClient(create_app(build_root=tmp_path / "builds", games_dirs=[str(games)])) as client:
        yield client
