"""Every complete example of docs/plays.md, run: its files written, each `$ pnpforge …` line run in order
on a fresh database, and its output compared with what the page shows under it."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

from conftest import REPO

BLOCK = re.compile(r"```(?P<info>[^\n]*)\n(?P<body>.*?)```", re.S)


def run_doc(text: str, folder: Path) -> list[tuple[str, str, str]]:
    """(command, output shown, output got) for every `$` line of the doc's console blocks, in order."""
    env = {**os.environ, "PNPFORGE_DB": str(folder / "plays.db"), "COLUMNS": "200"}
    out = []
    for block in BLOCK.finditer(text):
        info, body = block["info"].split(), block["body"]
        for word in info[1:] if info[:1] == ["yaml"] else []:  # ```yaml score file=NAME: written as NAME
            if word.startswith("file="):
                (folder / word.removeprefix("file=")).write_text(body, encoding="utf-8")
        if info[:1] != ["console"]:
            continue
        for chunk in re.split(r"^\$ ", body, flags=re.M)[1:]:
            command, _, shown = chunk.partition("\n")
            args = shlex.split(command)
            assert args[0] == "pnpforge"
            done = subprocess.run(
                [sys.executable, "-m", "pnpforge", *args[1:]],
                cwd=folder,
                env=env,
                capture_output=True,
                text=True,
            )
            out.append((command, shown, done.stdout + done.stderr))
    return out


def test_every_console_example_prints_what_the_doc_shows(tmp_path: Path) -> None:
    ran = run_doc((REPO / "docs" / "plays.md").read_text(encoding="utf-8"), tmp_path)
    assert len(ran) >= 9
    for command, shown, got in ran:
        assert got == shown, command
    assert (tmp_path / "plays.json").is_file()


def test_the_docs_pictures_exist() -> None:
    for doc in ("plays.md", "serve.md"):
        for picture in re.findall(r"\]\((img/[^)]+)\)", (REPO / "docs" / doc).read_text(encoding="utf-8")):
            assert (REPO / "docs" / picture).is_file(), picture
