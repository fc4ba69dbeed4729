"""The installed command leaves without interpreter teardown (cli.run): nothing it says or writes is lost.

Each test runs the real command in a fresh process (`python -m pnpforge`, the same `run` as the
console script) and compares with what the command gives in-process.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import REPO

from pnpforge import catalog
from pnpforge.cli import main


def pnpforge(*args: str, **options: object) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "pnpforge", *args], capture_output=True, timeout=120, **options
    )  # type: ignore[call-overload]


def test_long_output_arrives_whole() -> None:
    done = pnpforge("schema")
    assert done.returncode == 0, done.stderr
    assert done.stdout.decode() == CliRunner().invoke(main, ["schema"]).output
    assert len(done.stdout) > 10_000


def test_exit_codes_and_messages_are_kept(tmp_path: Path) -> None:
    missing = pnpforge("validate", str(tmp_path / "none.yaml"))
    assert missing.returncode == 2
    assert missing.stderr.decode().startswith(f"error: {tmp_path / 'none.yaml'}")
    usage = pnpforge("setup", "gods", "--players", "9")
    assert usage.returncode == 2 and b"Traceback" not in usage.stderr
    broken = tmp_path / "broken.yaml"
    text = (catalog.BUNDLED_DIR / "gods" / "example-score.yaml").read_text(encoding="utf-8")
    broken.write_text(text.replace("crystals: 9", "crystals: -9", 1), encoding="utf-8")
    assert "crystals: -9" in broken.read_text(encoding="utf-8")
    ruled = pnpforge("score", str(broken))
    assert ruled.returncode == 1 and b"negative-count" in ruled.stdout + ruled.stderr


def test_files_written_are_complete(tmp_path: Path) -> None:
    setup = tmp_path / "gods.yaml"
    done = pnpforge("setup", "gods", "-p", "3", "--seed", "4", "-o", str(setup))
    assert done.returncode == 0, done.stderr
    assert pnpforge("validate", str(setup)).returncode == 0
    pdf = tmp_path / "out"
    assert pnpforge("build", str(REPO / "examples" / "tiny-quest"), "-o", str(pdf)).returncode == 0
    (built,) = pdf.glob("*.pdf")
    assert built.read_bytes().rstrip().endswith(b"%%EOF")


def test_a_reader_that_stops_early_gets_no_traceback() -> None:
    schema = subprocess.Popen(
        [sys.executable, "-m", "pnpforge", "schema"], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert schema.stdout is not None and schema.stderr is not None
    schema.stdout.read(100)
    schema.stdout.close()  # like `pnpforge schema | head -c 100`
    assert schema.wait(timeout=120) in (0, 1)
    assert b"Traceback" not in schema.stderr.read()


@pytest.mark.parametrize("args", [["games"], ["inventory", "gods"], ["schema"], ["--help"]])
def test_a_reader_already_gone_is_no_internal_error(args: list[str]) -> None:
    """`pnpforge games | head -1`: every write after the reader left fails; the command stops quietly."""
    read, write = os.pipe()
    os.close(read)  # the reader is gone before the first line
    try:
        done = subprocess.run(
            [sys.executable, "-m", "pnpforge", *args], stdout=write, stderr=subprocess.PIPE, timeout=120
        )
    finally:
        os.close(write)
    assert done.returncode in (0, 1), done.stderr
    assert b"internal error" not in done.stderr and b"Traceback" not in done.stderr, done.stderr


def test_only_the_installed_command_keeps_the_collector_paused_after_a_build(tmp_path: Path) -> None:
    """`pnpforge build` pauses the cycle collector until its process ends (cli.run); called in-process
    (click's runner, a test session, the page's worker) the build leaves it running, as it found it."""
    import gc

    spec = str(REPO / "examples" / "tiny-quest")
    assert gc.isenabled()
    done = CliRunner().invoke(main, ["build", spec, "-o", str(tmp_path / "in"), "--no-cache"])
    assert done.exit_code == 0, done.output
    assert gc.isenabled()
    probe = (
        "import gc, sys; from pnpforge.cli import print_cmds, run; import pnpforge.cli as cli\n"
        "ran = print_cmds._run_build\n"
        "def watched(*a, **k):\n"
        "    files = ran(*a, **k); print('collector', gc.isenabled(), file=sys.stderr); return files\n"
        "print_cmds._run_build = watched\n"
        f"sys.argv = ['pnpforge', 'build', {spec!r}, '-o', {str(tmp_path / 'out')!r}, '--no-cache']\n"
        "run()\n"
    )
    done_process = subprocess.run([sys.executable, "-c", probe], capture_output=True, timeout=120)
    assert done_process.returncode == 0, done_process.stderr
    assert b"collector False" in done_process.stderr
    (built,) = (tmp_path / "out").glob("*.pdf")
    assert built.read_bytes() == next((tmp_path / "in").glob("*.pdf")).read_bytes()
