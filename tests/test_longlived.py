"""A process that lives on (`watch`, the page's workers, a test runner) keeps no build's garbage for good.

pnpforge.longlived freezes import-made objects away from the cycle collector; a freeze after work would
set that work's cyclic garbage aside too, so each rebuild of a long `watch` grew the process by ~11 MB.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

SCRIPT = """
import gc, json, shutil, sys, tempfile
from pathlib import Path
from click.testing import CliRunner
from pnpforge.cli import main

spec, counts = Path(sys.argv[1]), []
for _ in range(4):
    with tempfile.TemporaryDirectory() as name:
        copy = Path(name) / "spec"
        shutil.copytree(spec, copy)
        result = CliRunner().invoke(main, ["build", str(copy), "-o", str(Path(name) / "out")])
        assert result.exit_code == 0, result.output
        counts.append(gc.get_freeze_count())
print(json.dumps({"frozen": counts, "collecting": gc.isenabled()}))
"""


def test_builds_in_one_process_freeze_nothing_after_the_first(tiny_quest: Path) -> None:
    """The first build imports the engine and freezes its objects; later builds import nothing new, so
    nothing more is frozen (frozen objects freed by their last reference leave the count: it may only
    fall; the old code froze each build's leftovers, +3,000 objects a build of this small spec)."""
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(tiny_quest)], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout.splitlines()[-1])
    first, *later = seen["frozen"]
    assert first > 0
    assert max(later) <= first, seen
    assert seen["collecting"]  # the collector runs again between builds
