"""Speed of the print engine: 900 poker cards (title, 3-line body with Japanese, shared back, duplex)
built through pnpforge, beside the same cards drawn with plain reportlab (bench/plain_cards.py).

Prints cards/second and peak memory (the whole process, imports included) for both, and the ratio of
the best times (rounds interleaved, so a busy machine slows both alike). Aim: pnpforge within 1.5x
of plain reportlab, under 200 MB.
Run: .venv/bin/python bench/bench_cards.py [--profile]
"""

from __future__ import annotations

import cProfile
import csv
import json
import pstats
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from plain_cards import RUNS, card_rows, peak_mb  # noqa: E402

from pnpforge.build import BuildOptions, BuildResult, build  # noqa: E402

ROUNDS = 3  # each round: RUNS pnpforge builds, then plain_cards.py's RUNS runs; the best of each counts

SPEC = """\
game: {id: bench, title: Bench Quest}
defaults: {page: a4, bleed: 3mm, duplex: long}
components:
  - name: cards
    kind: card
    size: poker
    csv: cards.csv
    face:
      background: "{colour}"
      elements:
        - {type: rect, x: 3mm, y: 3mm, w: 57mm, h: 12mm, fill: white, radius: 2mm}
        - {type: text, text: "{title}", x: 3mm, y: 3mm, w: 57mm, h: 12mm, size: 14pt, font: sans-bold}
        - {type: text, text: "{line1}", x: 5mm, y: 52mm, w: 53mm, h: 5mm, size: 9pt, align: left, fit: none}
        - {type: text, text: "{line2}", x: 5mm, y: 57mm, w: 53mm, h: 5mm, size: 9pt, align: left, fit: none}
        - {type: text, text: "{line3}", x: 5mm, y: 62mm, w: 53mm, h: 5mm, size: 9pt, align: left, fit: none}
    back:
      background: "#2b3a55"
      elements:
        - {type: text, text: Bench Quest, size: 16pt, font: sans-bold, colour: white}
"""


def write_spec(folder: Path) -> None:
    rows = card_rows()
    (folder / "game.yaml").write_text(SPEC, encoding="utf-8")
    with (folder / "cards.csv").open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)


def plain_figures() -> dict[str, float]:
    """bench/plain_cards.py in a fresh process (its own imports, heap and peak memory)."""
    done = subprocess.run(
        [sys.executable, str(HERE / "plain_cards.py"), "--json"], capture_output=True, text=True, check=True
    )
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def pnpforge_seconds(folder: Path, label: str) -> tuple[float, BuildResult]:
    """Best of RUNS full builds (load, plan, draw, write), each into a fresh output folder."""
    seconds, result = float("inf"), None
    for run in range(RUNS):
        options = BuildOptions(out_dir=folder / f"out-{label}-{run}")
        started = time.perf_counter()
        result = build(folder, options)
        seconds = min(seconds, time.perf_counter() - started)
    assert result is not None
    return seconds, result


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        write_spec(folder)
        if "--profile" in sys.argv:  # one build after a warm-up, under cProfile
            build(folder, BuildOptions(out_dir=folder / "warm"))
            profiler = cProfile.Profile()
            profiler.runcall(build, folder, BuildOptions(out_dir=folder / "profiled"))
            pstats.Stats(profiler).sort_stats("cumulative").print_stats(30)
            pstats.Stats(profiler).sort_stats("tottime").print_stats(20)
            return
        seconds, plain = float("inf"), {"seconds": float("inf")}
        for round_ in range(ROUNDS):  # interleaved, so a busy spell of the machine hits both sides alike
            spent, result = pnpforge_seconds(folder, str(round_))
            seconds = min(seconds, spent)
            other = plain_figures()
            if other["seconds"] < plain["seconds"]:
                plain = other
        size = result.files[0].stat().st_size
    peak = peak_mb()
    cards = len(card_rows())
    ratio = seconds / plain["seconds"]
    print(f"pnpforge:        {cards} cards in {seconds:.3f} s = {cards / seconds:.0f} cards/s, "
          f"peak RSS {peak:.0f} MB, {result.pages} pages, {size / 1e6:.2f} MB PDF")  # fmt: skip
    rate = plain["cards_per_second"]
    print(f"plain reportlab: {plain['cards']:.0f} cards in {plain['seconds']:.3f} s = {rate:.0f} "
          f"cards/s, peak RSS {plain['peak_mb']:.0f} MB, {plain['bytes'] / 1e6:.2f} MB PDF")  # fmt: skip
    verdict = "ok" if ratio <= 1.5 and peak < 200 else "OVER AIM"
    print(f"ratio pnpforge/plain: {ratio:.2f}x (aim <= 1.5x, < 200 MB): {verdict}")


if __name__ == "__main__":
    main()
