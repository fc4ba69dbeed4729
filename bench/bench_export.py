"""Speed of `pnpforge export`: bench_cards.py's 900 poker cards exported as 300 dpi images (one PNG per
card with its bleed, 815 x 1110 px, plus the shared back), as a Tabletop Simulator deck, and as
print-shop PDFs: PDF/X-4 (colours as drawn, ICC-based) and DriveThruCards' PDF/X-1a (every colour
converted to CMYK through the profile by littleCMS), when a CMYK profile is installed (Ghostscript's).

Each export runs in a fresh process (its own imports, workers and peak memory, the rasterising workers
included), the best of RUNS counts. Aims on a 2-core machine: images ≤ 12 s, TTS ≤ 5 s, peak memory
< 500 MB; each print-shop PDF ≤ 10 s.
Run: .venv/bin/python bench/bench_export.py [--runs N] [--print-shop]
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_cards import write_spec  # noqa: E402
from plain_cards import card_rows  # noqa: E402

RUNS = 2
CHILD = """
import json, resource, sys, time
from pathlib import Path
from pnpforge.export import ExportOptions, export
started = time.perf_counter()
kind, shop = (sys.argv[2].split(":") + [""])[:2]
options = ExportOptions(out_dir=Path(sys.argv[3]), dpi=300, shop=shop or None)
files, _ = export(Path(sys.argv[1]), kind, options)
seconds = time.perf_counter() - started
own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
workers = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
print(json.dumps({"seconds": seconds, "files": len(files), "peak_mb": own, "worker_peak_mb": workers,
                  "bytes": sum(f.stat().st_size for f in files)}))
"""


def one_run(spec: Path, kind: str, out: Path) -> dict[str, float]:
    """One export in a fresh interpreter: the time inside it and both peaks (this process, any worker)."""
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(spec), kind, str(out)], capture_output=True, text=True, check=True
    )
    figures: dict[str, float] = json.loads(done.stdout)
    figures["wall"] = time.perf_counter() - started
    return figures


def main() -> None:
    runs = int(sys.argv[sys.argv.index("--runs") + 1]) if "--runs" in sys.argv else RUNS
    cards = len(card_rows())
    verdicts = []
    with tempfile.TemporaryDirectory() as tmp:
        spec = Path(tmp)
        write_spec(spec)
        kinds = [("images", 12.0), ("tts", 5.0)]
        if "--print-shop" in sys.argv:  # only the PDF/X exports
            kinds = []
        from pnpforge.export.pdfx import INSTALLED

        if any(path.is_file() for path in INSTALLED):  # the PDF/X exports need a CMYK profile
            kinds += [("print-shop", 10.0), ("print-shop:drivethrucards", 10.0)]
        else:
            print("print-shop: skipped (no CMYK profile installed: apt install ghostscript)")
        for kind, aim in kinds:
            best: dict[str, float] | None = None
            for run in range(runs):
                figures = one_run(spec, kind, spec / f"out-{kind}-{run}")
                if best is None or figures["seconds"] < best["seconds"]:
                    best = figures
            assert best is not None
            peak = max(best["peak_mb"], best["worker_peak_mb"])
            ok = best["seconds"] <= aim and peak < 500
            verdicts.append(ok)
            seconds = f"{best['seconds']:.2f} s (process {best['wall']:.2f} s)"
            size = f"{best['files']:.0f} files, {best['bytes'] / 1e6:.0f} MB"
            memory = f"peak RSS {best['peak_mb']:.0f} MB (largest worker {best['worker_peak_mb']:.0f} MB)"
            verdict = f"aim ≤ {aim:.0f} s, < 500 MB: {'ok' if ok else 'OVER AIM'}"
            print(f"{kind:<7} {cards} cards at 300 dpi: {seconds}, {size}, {memory}; {verdict}")
    print("all within aims" if all(verdicts) else "OVER AIM")


if __name__ == "__main__":
    main()
