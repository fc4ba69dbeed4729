"""Speed of the print engine: 900 poker cards (title, 3-line body with Japanese, shared back, duplex)
built through pnpforge, beside the same cards drawn with plain reportlab (bench/plain_cards.py).

The figures that count are whole processes, as a user runs them: `pnpforge build` started afresh each
time, from start to exit (imports, spec, plan, drawing, writing), beside `plain_cards.py --write FILE`,
rounds interleaved so a busy spell of the machine slows all alike, the median of ROUNDS each:
- cold: no kept plan in the output folder (a first build; it keeps one for the next): aim <= 1.5x;
- warm: the plan kept by the build before (the designer's rebuild): aim <= 1.2x;
with peak memory under 100 MB.

Then the same cards written with the spec language (docs/spec.md: a style, `when:` and a `{{ }}`
expression) beside the plain spec, in-process: aim within 1.1x of its time (expressions are compiled
once, not per card). `--speclang` runs only that comparison.
Run: .venv/bin/python bench/bench_cards.py [--rounds N] [--profile | --speclang]
"""

from __future__ import annotations

import compileall
import cProfile
import csv
import os
import pstats
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from plain_cards import RUNS, card_rows  # noqa: E402

from pnpforge.building import BuildRequest, BuildResult, build  # noqa: E402
from pnpforge.buildoptions import BuildOptions  # noqa: E402

SPECLANG_ROUNDS = 6  # the two specs differ by little: more rounds, so a busy spell does not decide
ROUNDS = 9  # whole processes: each round runs plain, cold and warm once; the median of each counts
COLD_AIM, WARM_AIM, PEAK_AIM_MB = 1.5, 1.2, 100.0

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


def pnpforge_command() -> list[str]:
    """The console script installed beside this Python, as a user runs it."""
    script = Path(sys.executable).with_name("pnpforge")
    return [str(script)] if script.exists() else [sys.executable, "-m", "pnpforge"]


def run(command: list[str]) -> tuple[float, float, float]:
    """Wall and CPU seconds from start to exit, and peak resident MB (the process's own rusage)."""
    started = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - started
    process.returncode = os.waitstatus_to_exitcode(status)
    error = process.stderr.read().decode() if process.stderr else ""
    if process.returncode not in (0, 1):  # 1 is a rule report, still a whole run
        raise SystemExit(f"{' '.join(command)} failed ({process.returncode}): {error}")
    return seconds, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024  # kB on Linux


def whole_process(tmp: Path, rounds: int) -> None:
    """Cold and warm `pnpforge build` beside plain reportlab, fresh processes, rounds interleaved."""
    cli = pnpforge_command()
    spec, cold_out, warm_out = tmp / "spec", tmp / "cold", tmp / "warm"
    write_spec(spec)
    subprocess.run([*cli, "build", str(spec), "-o", str(warm_out)], check=True, capture_output=True)
    commands = {
        "plain reportlab": [sys.executable, str(HERE / "plain_cards.py"), "--write", str(tmp / "plain.pdf")],
        "pnpforge cold": [*cli, "build", str(spec), "-o", str(cold_out)],
        "pnpforge warm": [*cli, "build", str(spec), "-o", str(warm_out)],
    }
    runs: dict[str, list[tuple[float, float, float]]] = {name: [] for name in commands}
    for _ in range(rounds):
        for name, command in commands.items():
            if name == "pnpforge cold":  # nothing kept from before
                shutil.rmtree(cold_out, ignore_errors=True)
            runs[name].append(run(command))
    if (warm_out / "bench.pdf").read_bytes() != (cold_out / "bench.pdf").read_bytes():
        raise SystemExit("the warm build's PDF differs from the cold build's")
    wall = {name: statistics.median(r[0] for r in found) for name, found in runs.items()}
    cpu = {name: statistics.median(r[1] for r in found) for name, found in runs.items()}
    peak = {name: max(r[2] for r in found) for name, found in runs.items()}
    cards = len(card_rows())
    print(f"{cards} poker cards, whole process, median of {rounds}, interleaved:")
    for name in commands:
        print(f"  {name:<16} {wall[name]:6.3f} s  (cpu {cpu[name]:.3f} s)  peak {peak[name]:5.1f} MB")
    plain = wall["plain reportlab"]
    for name, aim in (("pnpforge cold", COLD_AIM), ("pnpforge warm", WARM_AIM)):
        ratio, cpu_ratio = wall[name] / plain, cpu[name] / cpu["plain reportlab"]
        ok = ratio <= aim and peak[name] < PEAK_AIM_MB
        print(f"  {name}/plain: {ratio:.2f}x, cpu {cpu_ratio:.2f}x (aim <= {aim}x, < {PEAK_AIM_MB:.0f} MB): "
              f"{'ok' if ok else 'OVER AIM'}")  # fmt: skip


def pnpforge_seconds(
    folder: Path, label: str, clock: Callable[[], float] = time.perf_counter
) -> tuple[float, BuildResult]:
    """Best of RUNS full builds (load, plan, draw, write), each into a fresh output folder."""
    seconds, result = float("inf"), None
    for run in range(RUNS):
        options = BuildOptions(out_dir=folder / f"out-{label}-{run}")
        started = clock()
        result = build(BuildRequest(folder, options))
        seconds = min(seconds, clock() - started)
    assert result is not None
    return seconds, result


def main() -> None:
    if "--speclang" in sys.argv:
        speclang_comparison()
        return
    rounds = int(sys.argv[sys.argv.index("--rounds") + 1]) if "--rounds" in sys.argv else ROUNDS
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        if "--profile" in sys.argv:
            write_spec(folder)  # one build after a warm-up, under cProfile
            build(BuildRequest(folder, BuildOptions(out_dir=folder / "warm")))
            profiler = cProfile.Profile()
            profiler.runcall(build, BuildRequest(folder, BuildOptions(out_dir=folder / "profiled")))
            pstats.Stats(profiler).sort_stats("cumulative").print_stats(30)
            pstats.Stats(profiler).sort_stats("tottime").print_stats(20)
            return
        # bytecode, as a regular install has it (an editable install compiles nothing by itself)
        compileall.compile_dir(HERE.parent / "src" / "pnpforge", quiet=1)
        whole_process(folder, rounds)
    speclang_comparison()


if __name__ == "__main__":
    main()
