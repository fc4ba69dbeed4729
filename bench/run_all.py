"""`make bench`: every bench/bench_*.py in turn, each printing its figures beside their aims as it runs,
then a summary: the figures over their aims (the lines saying OVER AIM), or that none is.

Exits 1 when a bench fails to run (a figure over its aim is said, not a failure: speed depends on the
machine and its load, printed at the end).
Run: .venv/bin/python bench/run_all.py [NAME ...]   (names such as cards designer; default: every bench)
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
VERDICT = re.compile(r"\bok\b|OVER AIM|within aims")


def main() -> int:
    asked = sys.argv[1:]
    scripts = sorted(HERE.glob("bench_*.py"))
    if asked:
        scripts = [s for s in scripts if s.stem.removeprefix("bench_") in asked]
    over: list[str] = []
    unjudged: list[str] = []
    failed: list[str] = []
    for script in scripts:
        print(f"== {script.relative_to(HERE.parent)}", flush=True)
        process = subprocess.Popen(
            [sys.executable, str(script)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
        )
        assert process.stdout is not None
        judged = False
        for line in process.stdout:
            print(line, end="", flush=True)
            judged = judged or bool(VERDICT.search(line))
            if "OVER AIM" in line:
                over.append(f"{script.stem}: {line.strip()}")
        if process.wait() != 0:
            failed.append(script.stem)
        elif not judged:
            unjudged.append(script.stem)
    load = " ".join(Path("/proc/loadavg").read_text().split()[:3]) if Path("/proc/loadavg").exists() else "?"
    print(f"== summary (load {load})")
    if over:
        print(f"over their aims ({len(over)}):")
        for line in over:
            print(f"  {line}")
    else:
        print("every figure with an aim is within it")
    if unjudged:
        print(f"figures printed beside their targets, not judged: {', '.join(unjudged)}")
    if failed:
        print(f"failed to run: {', '.join(failed)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
