"""Speed of the print engine: 900 poker cards (title, 3-line body with Japanese, shared back, duplex)
built through pnpforge, beside the same cards drawn with plain reportlab (bench/plain_cards.py).

Prints cards/second and peak memory (the whole process, imports included) for both, and the ratio of
the best times (rounds interleaved, so a busy machine slows both alike). Aim: pnpforge within 1.5x
of plain reportlab, under 200 MB.

Then the same cards written with the spec language (docs/spec.md: a style, `when:` and a `{{ }}`
expression) beside the plain spec: aim within 1.1x of its time (expressions are compiled once, not per
card). `--speclang` runs only that comparison.
Run: .venv/bin/python bench/bench_cards.py [--profile | --speclang]
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
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from plain_cards import RUNS, card_rows, peak_mb  # noqa: E402

from pnpforge.build import BuildOptions, BuildResult, build  # noqa: E402

SPECLANG_ROUNDS = 6  # the two specs differ by little: more rounds, so a busy spell does not decide
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

# the same cards in the spec language: a style for the body lines, the third line computed by an
# expression from a number column, and drawn under a `when:` that holds for every card
SPEC_LANG = """\
game: {id: bench, title: Bench Quest}
defaults: {page: a4, bleed: 3mm, duplex: long}
styles:
  body: {type: text, x: 5mm, w: 53mm, h: 5mm, size: 9pt, align: left, fit: none}
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
        - {style: body, text: "{line1}", y: 52mm}
        - {style: body, text: "{line2}", y: 57mm}
        - {style: body, text: "Worth {{ points % 3 }} points at the end.", y: 62mm, when: "points >= 0"}
    back:
      background: "#2b3a55"
      elements:
        - {type: text, text: Bench Quest, size: 16pt, font: sans-bold, colour: white}
"""


def write_spec(folder: Path, spec: str = SPEC) -> None:
    rows = [{**row, "points": str(k)} for k, row in enumerate(card_rows())]
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "game.yaml").write_text(spec, encoding="utf-8")
    with (folder / "cards.csv").open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)


def speclang_comparison() -> None:
    """The spec-language deck beside the plain one, rounds interleaved; prints both and their ratio."""
    with tempfile.TemporaryDirectory() as tmp:
        plain_folder, lang_folder = Path(tmp) / "plain", Path(tmp) / "lang"
        write_spec(plain_folder)
        write_spec(lang_folder, SPEC_LANG)
        plain = lang = float("inf")
        for round_ in range(SPECLANG_ROUNDS):  # CPU time: other processes on a shared machine count less
            plain = min(plain, pnpforge_seconds(plain_folder, f"p{round_}", time.process_time)[0])
            lang = min(lang, pnpforge_seconds(lang_folder, f"l{round_}", time.process_time)[0])
    cards = len(card_rows())
    ratio = lang / plain
    print(f"plain spec:      {cards} cards in {plain:.3f} s CPU = {cards / plain:.0f} cards/s")
    print(
        f"spec language:   {cards} cards in {lang:.3f} s CPU = {cards / lang:.0f} cards/s "
        "(a style, when:, {{ }})"
    )
    print(f"ratio language/plain: {ratio:.2f}x (aim <= 1.1x): {'ok' if ratio <= 1.1 else 'OVER AIM'}")


def plain_figures() -> dict[str, float]:
    """bench/plain_cards.py in a fresh process (its own imports, heap and peak memory)."""
    done = subprocess.run(
        [sys.executable, str(HERE / "plain_cards.py"), "--json"], capture_output=True, text=True, check=True
    )
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def pnpforge_seconds(
    folder: Path, label: str, clock: Callable[[], float] = time.perf_counter
) -> tuple[float, BuildResult]:
    """Best of RUNS full builds (load, plan, draw, write), each into a fresh output folder."""
    seconds, result = float("inf"), None
    for run in range(RUNS):
        options = BuildOptions(out_dir=folder / f"out-{label}-{run}")
        started = clock()
        result = build(folder, options)
        seconds = min(seconds, clock() - started)
    assert result is not None
    return seconds, result


def main() -> None:
    if "--speclang" in sys.argv:
        speclang_comparison()
        return
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
    speclang_comparison()


if __name__ == "__main__":
    main()
