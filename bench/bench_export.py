"""Speed of `pnpforge export`: bench_cards.py's 900 poker cards exported as 300 dpi images (one PNG per
card with its bleed, 815 x 1110 px, plus the shared back), as a Tabletop Simulator deck, and as
print-shop PDFs: PDF/X-4 (colours as drawn, ICC-based) and DriveThruCards' PDF/X-1a (every colour
converted to CMYK through the profile by littleCMS), when a CMYK profile is installed (Ghostscript's).

Each export runs in a fresh process (its own imports, workers and peak memory, the rasterising workers
included), the best of RUNS counts. Aims on a 2-core machine: images ≤ 12 s, TTS ≤ 5 s, peak memory
< 500 MB; each print-shop PDF ≤ 10 s.
The memory figure: the largest PNG pnpforge accepts to write (a 380 x 450 mm board at the largest
--dpi within limits.DECODED_PIXELS), exported with art over it, and the same board with an image of
limits.IMAGE_PIXELS pixels of noise (incompressible: the worst an image can cost), at the largest --dpi
again; the whole process tree's RSS (main process and rasterising workers, summed, sampled every 10 ms)
beside the 500 MB aim. --quick leaves out the image of noise (its banded rendering takes minutes).
The pictures figure: `build` of the worst decks limits.IMAGE_BYTES accepts (one 16 Mpx PNG of noise;
16 Mpx JPEGs of noise, as many as it takes), peak beside the 500 MB aim, and one JPEG more refused.
Run: .venv/bin/python bench/bench_export.py [--runs N] [--print-shop] [--memory-only|--pictures-only]
[--quick]
"""

from __future__ import annotations

import json
import os
import shutil
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


BOARD = """\
game: {id: board, title: Board}
components:
  - name: boards
    kind: card
    size: 380x450mm
    csv: boards.csv
    face:
      elements:
        %s
        - {type: text, text: "{name}", size: 60}
        - {type: hexgrid, cols: 30, rows: 30, x: 10mm, y: 10mm, w: 360mm, h: 430mm}
"""


def tree_rss(pid: int) -> int:
    """Bytes resident in `pid` and all its descendants now (Linux /proc)."""
    total, todo = 0, [pid]
    while todo:
        here = todo.pop()
        try:
            with open(f"/proc/{here}/status") as status:
                total += next(
                    (int(line.split()[1]) * 1024 for line in status if line.startswith("VmRSS:")), 0
                )
            for task in os.listdir(f"/proc/{here}/task"):
                with open(f"/proc/{here}/task/{task}/children") as children:
                    todo += [int(child) for child in children.read().split()]
        except OSError:
            continue
    return total


def peak_of(args: list[str]) -> tuple[float, float, str]:
    """The peak summed RSS (MB) of a pnpforge command's process tree, its seconds and its last line."""
    started = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-m", "pnpforge", *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    peak = 0
    while proc.poll() is None:
        peak = max(peak, tree_rss(proc.pid))
        time.sleep(0.01)
    said = (proc.stderr.read() if proc.stderr else "").strip().splitlines()
    if proc.returncode:
        raise SystemExit(f"pnpforge {' '.join(args)}: exit {proc.returncode}: {said[-1] if said else ''}")
    return peak / 1e6, time.perf_counter() - started, said[-1] if said else ""


def memory_figures(quick: bool) -> list[bool]:
    """The largest accepted PNG's export, flat art and (unless quick) an image of noise: peak < 500 MB."""
    from PIL import Image

    from pnpforge import limits
    from pnpforge.units import mm

    verdicts = []
    cases = [("flat art", "")] + ([] if quick else [("an image of noise", "- {type: image, src: noise.png}")])
    with tempfile.TemporaryDirectory() as tmp:
        for what, element in cases:
            spec = Path(tmp) / what.replace(" ", "-")
            spec.mkdir()
            (spec / "game.yaml").write_text(BOARD % element, encoding="utf-8")
            (spec / "boards.csv").write_text("name\nA\n", encoding="utf-8")
            if element:
                side = int(limits.IMAGE_PIXELS**0.5)
                Image.frombytes("RGB", (side, side), os.urandom(side * side * 3)).save(
                    spec / "noise.png", compress_level=1
                )
            bleed = mm(3)  # the export's default bleed each side
            dpi = 1200
            width, height = limits.pixels(mm(380) + 2 * bleed, dpi), limits.pixels(mm(450) + 2 * bleed, dpi)
            dpi = limits.largest_dpi(width, height, dpi, limits.DECODED_PIXELS)
            peak, seconds, _ = peak_of(
                ["export", str(spec), "--to", "images", "--dpi", str(dpi), "-o", str(spec / "out")]
            )
            Image.MAX_IMAGE_PIXELS = None  # our own file, only its size read: no bomb warning
            with Image.open(next((spec / "out").glob("*.png"))) as made:
                pixels = made.width * made.height
            ok = peak < 500
            verdicts.append(ok)
            print(
                f"memory  largest PNG accepted ({pixels / 1e6:.0f} Mpx: a 380 x 450 mm board at {dpi} dpi),"
                f" {what}: peak {peak:.0f} MB, whole process tree, in {seconds:.0f} s; aim < 500 MB: "
                f"{'ok' if ok else 'OVER AIM'}"
            )
    return verdicts


NOISE_DECK = """\
game: {id: noise, title: Noise}
components:
  - name: cards
    kind: card
    size: poker
    csv: cards.csv
    face:
      elements:
        - {type: image, src: "{art}", x: 0mm, y: 0mm, w: 100%, h: 100%}
"""


def picture_figures() -> list[bool]:
    """`build` of the worst decks limits.IMAGE_BYTES accepts: one limits.IMAGE_PIXELS PNG of noise (its
    bytes barely compressed), and JPEGs of noise of that size, as many as the bound takes; one JPEG more
    must be refused (exit 2). Peak of the process tree beside the 500 MB aim."""
    from PIL import Image

    from pnpforge import limits

    side = int(limits.IMAGE_PIXELS**0.5)
    verdicts = []
    with tempfile.TemporaryDirectory() as tmp:
        for what, suffix in (("one PNG of noise", "png"), ("JPEGs of noise (quality 40)", "jpg")):
            spec = Path(tmp) / suffix
            spec.mkdir()
            (spec / "game.yaml").write_text(NOISE_DECK, encoding="utf-8")
            arts: list[str] = []
            total = 0
            while True:  # for PNG: one; for JPEG: until one more would pass the bound
                name = f"n{len(arts)}.{suffix}"
                noise = Image.frombytes("RGB", (side, side), os.urandom(side * side * 3))
                noise.save(spec / name, **({"quality": 40} if suffix == "jpg" else {"compress_level": 1}))
                arts.append(name)
                total += (spec / name).stat().st_size  # a JPEG is embedded as it is; a PNG about so
                if suffix == "png" or total > limits.IMAGE_BYTES:
                    break
            accepted = arts if suffix == "png" else arts[:-1]
            for names, refused in ((accepted, False), (arts, True)) if suffix == "jpg" else ((arts, False),):
                rows = "".join(f"C{k},{name}\n" for k, name in enumerate(names))
                (spec / "cards.csv").write_text("name,art\n" + rows, encoding="utf-8")
                args = ["build", str(spec), "-o", str(spec / "out"), "--no-cache"]
                if refused:
                    done = subprocess.run([sys.executable, "-m", "pnpforge", *args], capture_output=True)
                    ok = done.returncode == 2 and not (spec / "out" / "noise.pdf").exists()
                    said = "ok" if ok else "NOT REFUSED"
                    print(f"pictures {len(names)} {what}: over IMAGE_BYTES, exit {done.returncode}: {said}")
                else:
                    peak, seconds, _ = peak_of(args)
                    ok = peak < 500
                    size = (spec / "out" / "noise.pdf").stat().st_size / 1e6
                    print(
                        f"pictures {len(names)} {what}, {side} x {side} px each, a {size:.0f} MB PDF "
                        f"(IMAGE_BYTES {limits.IMAGE_BYTES / 1e6:.0f} MB): build peak {peak:.0f} MB, whole "
                        f"process tree, in {seconds:.0f} s; aim < 500 MB: {'ok' if ok else 'OVER AIM'}"
                    )
                    shutil.rmtree(spec / "out")
                verdicts.append(ok)
    return verdicts


def main() -> None:
    if "--pictures-only" in sys.argv:
        verdicts = picture_figures()
        print("all within aims" if all(verdicts) else "OVER AIM")
        return
    if "--memory-only" in sys.argv:
        verdicts = memory_figures("--quick" in sys.argv)
        print("all within aims" if all(verdicts) else "OVER AIM")
        return
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
    verdicts += memory_figures("--quick" in sys.argv)
    verdicts += [] if "--quick" in sys.argv else picture_figures()
    print("all within aims" if all(verdicts) else "OVER AIM")


if __name__ == "__main__":
    main()
