"""A designer's prototype, built as a designer builds it: bench/data/designer/game.yaml (60 cards read
from a spreadsheet with PNG art and a JPEG back, hex tiles with patterns, double-sided tokens, a board
over several pages with a JPEG picture, player mats: about 25 pages).

The art (PNG and JPEG, made with Pillow) and the deck (cards.xlsx, made with openpyxl) are written into
a copy of the folder first. Then:
- cold: `pnpforge build` as a user runs it, a whole process into a new output folder each time (nothing
  kept from before), beside plain reportlab drawing 900 cards (bench/plain_cards.py), rounds taking
  turns; aim: <= 1.0 s;
- watch: in one process as `watch` runs, one cell of the spreadsheet changed (a card's rules text), from
  the change seen to the updated PDF written; aim: <= 0.3 s. The watched PDF must be byte for byte a
  whole build's of the same files.
Prints each figure beside its aim, and "OVER AIM" for those over.
Run: .venv/bin/python bench/bench_designer.py [--rounds N] [--profile]
"""

from __future__ import annotations

import cProfile
import pstats
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_cards import pnpforge_command, run  # noqa: E402

from pnpforge.building import BuildRequest, build  # noqa: E402
from pnpforge.buildoptions import BuildOptions  # noqa: E402
from pnpforge.drafts.watching import PageMemory  # noqa: E402

SPEC_DIR = HERE / "data" / "designer"
ROUNDS = 5
COLD_AIM, WATCH_AIM = 1.0, 0.3
CARDS = 60
ART = 12  # distinct card pictures: the deck repeats them, as a prototype reuses its art
KINDS = (
    ("River", "#dbe9f4", "#3a6ea5", "waves"),
    ("Market", "#f4ecd8", "#a5673a", "dots"),
    ("Temple", "#ece3f2", "#6d4a8f", "crosshatch"),
    ("Festival", "#f8e3e0", "#b0413e", "stripes"),
)
RULES = (
    "Sail one river tile downstream. If you pass a **temple**, light a lantern there :star:.",
    "Trade two cards from your hand for one :coin:. Then draw a card.",
    "Every player lights one lantern; you light two. 灯籠を1つ灯す。",
    "Move a boat one space. If it ends beside a market, gain :coin: :coin:.",
    "Look at the top three cards of the deck, keep one and put the others back in any order.",
)


def make_art(folder: Path) -> None:
    """The spec's pictures: card art (PNG), a card back and a board picture (JPEG), token and mat art
    (PNG with transparency), drawn with Pillow: gradients and shapes, so they compress as art does."""
    from PIL import Image, ImageDraw

    art = folder / "art"
    art.mkdir(exist_ok=True)
    for k in range(ART):
        image = Image.linear_gradient("L").resize((640, 480)).convert("RGB")
        tint = Image.new("RGB", image.size, ((37 * k) % 256, (91 * k + 60) % 256, (53 * k + 120) % 256))
        image = Image.blend(image, tint, 0.55)
        draw = ImageDraw.Draw(image)
        for j in range(6):
            x, y = (97 * (j + k)) % 560, (61 * (j + 2 * k)) % 400
            draw.ellipse((x, y, x + 80 + 10 * j, y + 60 + 8 * j), fill=((50 * j) % 256, 180, (30 * k) % 256))
        image.save(art / f"a{k + 1:02d}.png")
    back = Image.radial_gradient("L").resize((750, 1050)).convert("RGB")
    Image.blend(back, Image.new("RGB", back.size, (32, 48, 74)), 0.6).save(art / "back.jpg", quality=88)
    board = Image.linear_gradient("L").rotate(30, expand=True).resize((2400, 1800)).convert("RGB")
    board = Image.blend(board, Image.new("RGB", board.size, (200, 180, 130)), 0.5)
    draw = ImageDraw.Draw(board)
    for j in range(14):
        draw.line((0, 120 * j, 2400, 120 * j + 400), fill=(90, 140, 190), width=18)
    board.save(art / "delta.jpg", quality=85)
    for name, size in (("lantern.png", (300, 300)), ("boat.png", (520, 400))):
        image = Image.new("RGBA", size, (0, 0, 0, 0))
        draw = ImageDraw.Draw(image)
        w, h = size
        draw.ellipse(
            (w * 0.15, h * 0.1, w * 0.85, h * 0.9), fill=(250, 210, 90, 255), outline=(90, 60, 20, 255)
        )
        draw.rectangle((w * 0.4, h * 0.02, w * 0.6, h * 0.15), fill=(90, 60, 20, 255))
        image.save(art / name)


def make_deck(folder: Path) -> None:
    """cards.xlsx: a notes sheet first (as designers keep one), then the Cards sheet, 60 rows."""
    from openpyxl import Workbook

    book = Workbook()
    notes = book.active
    notes.title = "Notes"
    notes.append(["Lanterns deck, proto 7: costs still to balance"])
    sheet = book.create_sheet("Cards")
    sheet.append(["name", "kind", "cost", "colour", "band", "pattern", "art", "text", "count"])
    for k in range(CARDS):
        kind, colour, band, pattern = KINDS[k % len(KINDS)]
        art = f"art/a{k % ART + 1:02d}.png"
        sheet.append(
            [f"{kind} {k + 1}", kind, k % 5 + 1, colour, band, pattern, art, RULES[k % len(RULES)], 1]
        )
    book.save(folder / "cards.xlsx")


def edit_cell(folder: Path, round_: int) -> None:
    """A designer's save: one card's rules text changed (column H of one row of the Cards sheet)."""
    from openpyxl import load_workbook

    path = folder / "cards.xlsx"
    book = load_workbook(path)
    row = 2 + (17 * round_ + 5) % CARDS
    book["Cards"][f"H{row}"] = f"Sail two river tiles (playtest {round_}, {time.monotonic_ns()})."
    book.save(path)


def make_spec(folder: Path) -> Path:
    spec = folder / "spec"
    shutil.copytree(SPEC_DIR, spec)
    make_art(spec)
    make_deck(spec)
    return spec


def cold(
    folder: Path, spec: Path, rounds: int
) -> tuple[tuple[float, float], tuple[float, float], float, int]:
    """Median (wall, CPU) seconds of `pnpforge build` (a new output folder each time) and of plain
    reportlab's 900 cards, rounds taking turns; peak MB of the build; the build's page count."""
    cli = pnpforge_command()
    plain = [sys.executable, str(HERE / "plain_cards.py"), "--write", str(folder / "plain.pdf")]
    builds, plains, peak = [], [], 0.0
    for round_ in range(rounds):
        plains.append(run(plain)[:2])
        seconds, cpu, mb = run([*cli, "build", str(spec), "-o", str(folder / f"cold-{round_}")])
        builds.append((seconds, cpu))
        peak = max(peak, mb)
    from pypdf import PdfReader

    pages = len(PdfReader(folder / "cold-0" / "lanterns.pdf").pages)
    return _medians(builds), _medians(plains), peak, pages


def _medians(runs: list[tuple[float, float]]) -> tuple[float, float]:
    return statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs)


def watch(folder: Path, spec: Path, rounds: int) -> tuple[float, float]:
    """Median (wall, CPU) seconds from a one-cell edit seen to the PDF written, as `watch` rebuilds
    (in-process)."""
    memory = PageMemory()
    watched = BuildOptions(out_dir=folder / "watched")
    build(BuildRequest(spec, watched, watch=memory))  # watch's first build: every page drawn
    times = []
    for round_ in range(rounds):
        edit_cell(spec, round_)
        started, cpu = time.perf_counter(), time.process_time()
        build(BuildRequest(spec, watched, watch=memory))
        times.append((time.perf_counter() - started, time.process_time() - cpu))
    whole = BuildOptions(out_dir=folder / "whole")
    build(BuildRequest(spec, whole))
    if (folder / "watched" / "lanterns.pdf").read_bytes() != (folder / "whole" / "lanterns.pdf").read_bytes():
        raise SystemExit("the watched PDF differs from a whole build's")
    return _medians(times)


def _said(seconds: float, aim: float) -> str:
    return f"(aim <= {aim} s): {'ok' if seconds <= aim else 'OVER AIM'}"


def main() -> None:
    rounds = int(sys.argv[sys.argv.index("--rounds") + 1]) if "--rounds" in sys.argv else ROUNDS
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        spec = make_spec(folder)
        if "--profile" in sys.argv:  # one in-process build, as far as the engine is warm: where it goes
            profiler = cProfile.Profile()
            profiler.runcall(build, BuildRequest(spec, BuildOptions(out_dir=folder / "profiled")))
            pstats.Stats(profiler).sort_stats("cumulative").print_stats(40)
            pstats.Stats(profiler).sort_stats("tottime").print_stats(25)
            return
        (seconds, cpu), (plain, plain_cpu), peak, pages = cold(folder, spec, rounds)
        watched, watched_cpu = watch(folder, spec, rounds)
    print(f"a designer's spec ({pages} pages: {CARDS} cards from .xlsx, PNG/JPEG art, tiles, tokens, board):")
    print(f"  cold build, whole process:     {seconds:.3f} s {_said(seconds, COLD_AIM)}")
    ratio, cpu_ratio = seconds / plain, cpu / plain_cpu
    print(f"    cpu {cpu:.3f} s, peak {peak:.0f} MB; plain reportlab's 900 cards, paired: {plain:.3f} s "
          f"(cpu {plain_cpu:.3f} s): the build is {ratio:.2f}x (cpu {cpu_ratio:.2f}x)")  # fmt: skip
    print(f"  watch, one cell edited to PDF: {watched:.3f} s {_said(watched, WATCH_AIM)}")
    print(f"    cpu {watched_cpu:.3f} s, median of {rounds} saves")
    print(f"  load {' '.join(Path('/proc/loadavg').read_text().split()[:3])}")


if __name__ == "__main__":
    main()
