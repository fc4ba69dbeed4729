"""Speed of the print engine: 900 poker cards (title, 3-line body with Japanese, shared back, duplex)
built through pnpforge, beside the same cards drawn with plain reportlab (bench/plain_cards.py).

Prints cards/second and peak memory (resource.getrusage: the whole process, imports included) for
both, and the ratio. Aim: pnpforge within 1.5x of plain reportlab, under 200 MB.
Run: .venv/bin/python bench/bench_cards.py [--profile]
"""

from __future__ import annotations

import cProfile
import csv
import json
import pstats
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from plain_cards import RUNS, card_rows  # noqa: E402

from pnpforge.build import BuildOptions, build  # noqa: E402

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


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        write_spec(folder)
        seconds = float("inf")
        for run in range(RUNS):  # best of a few runs, as plain_cards.py does
            options = BuildOptions(out_dir=folder / f"out{run}")
            started = time.perf_counter()
            if "--profile" in sys.argv:
                profiler = cProfile.Profile()
                result = profiler.runcall(build, folder, options)
                pstats.Stats(profiler).sort_stats("cumulative").print_stats(25)
            else:
                result = build(folder, options)
            seconds = min(seconds, time.perf_counter() - started)
        size = result.files[0].stat().st_size
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    cards = len(card_rows())
    plain = json.loads(
        subprocess.run(
            [sys.executable, str(HERE / "plain_cards.py"), "--json"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout  # fmt: skip
    )
    ratio = seconds / plain["seconds"]
    print(f"pnpforge:        {cards} cards in {seconds:.2f} s = {cards / seconds:.0f} cards/s, "
          f"peak RSS {peak_mb:.0f} MB, {result.pages} pages, {size / 1e6:.1f} MB PDF")  # fmt: skip
    rate = plain["cards_per_second"]
    print(f"plain reportlab: {plain['cards']} cards in {plain['seconds']:.2f} s = {rate:.0f} "
          f"cards/s, peak RSS {plain['peak_mb']:.0f} MB, {plain['bytes'] / 1e6:.1f} MB PDF")  # fmt: skip
    verdict = "ok" if ratio <= 1.5 and peak_mb < 200 else "OVER AIM"
    print(f"ratio pnpforge/plain: {ratio:.2f}x (aim <= 1.5x, < 200 MB): {verdict}")


if __name__ == "__main__":
    main()
