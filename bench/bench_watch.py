"""How soon `watch` has rebuilt after a save: one changed row of the 900-card bench spec.

In one process, as `watch` runs: a first build (PDF and every page's PNG), then ROUNDS saves that
each change one card's text. For each it times, from the change seen to the files written:
the PDF alone (`--format pdf`: the changed page drawn, the others played back as recorded), and the
PDF with the PNG of only the changed page (`--format pdf,png`, drafts/pages.py choosing the pages);
and, for comparison, a whole PDF build and the PDF with every page's PNG as a whole rebuild renders
them. Each round checks that the watched PDF is byte for byte the whole build's. Prints the
medians. Aims: PDF <= 0.3 s, the changed page's PNG <= 0.5 s more. The watch's polling interval
(--interval, default 0.2 s) comes on top.
Run: .venv/bin/python bench/bench_watch.py
"""

from __future__ import annotations

import csv
import statistics
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_cards import write_spec  # noqa: E402

from pnpforge.building import BuildRequest, build  # noqa: E402
from pnpforge.buildoptions import BuildOptions  # noqa: E402
from pnpforge.drafts.watching import PageMemory  # noqa: E402

ROUNDS = 7
PDF_AIM, PNG_AIM = 0.3, 0.5


def change_row(folder: Path, index: int) -> None:
    """Rewrite cards.csv with one card's first body line changed (a save in an editor)."""
    path = folder / "cards.csv"
    with path.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    rows[index]["line1"] = f"Gain {index} gold, edited at {time.monotonic_ns()}."
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)


def rebuild(folder: Path, options: BuildOptions, memory: PageMemory | None) -> tuple[float, int]:
    """Seconds from a change seen to the files written, as watch does it; and the PNGs written."""
    started = time.perf_counter()
    files = build(BuildRequest(folder, options, watch=memory)).files
    return time.perf_counter() - started, sum(f.suffix == ".png" for f in files)


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        write_spec(folder)
        pdf_only = BuildOptions(out_dir=folder / "pdf")
        pdf_whole = replace(pdf_only, out_dir=folder / "pdf-whole")
        some = BuildOptions(out_dir=folder / "partial", formats=("pdf", "png"))
        whole = replace(some, out_dir=folder / "whole")
        pdf_memory, memory = PageMemory(), PageMemory()
        rebuild(folder, pdf_only, pdf_memory)  # the first builds: every page
        rebuild(folder, some, memory)
        figures: dict[str, list[float]] = {"pdf": [], "pdf-whole": [], "partial": [], "whole": []}
        rendered = []
        for round_ in range(ROUNDS):
            change_row(folder, 37 * round_ + 5)
            figures["pdf"].append(rebuild(folder, pdf_only, pdf_memory)[0])
            figures["pdf-whole"].append(rebuild(folder, pdf_whole, None)[0])
            if (folder / "pdf" / "bench.pdf").read_bytes() != (
                folder / "pdf-whole" / "bench.pdf"
            ).read_bytes():
                raise SystemExit("the watched PDF differs from a whole build's")
            seconds, pngs = rebuild(folder, some, memory)
            figures["partial"].append(seconds)
            rendered.append(pngs)
            figures["whole"].append(rebuild(folder, whole, None)[0])
    pdf, pdf_whole_s, part, full = (
        statistics.median(figures[k]) for k in ("pdf", "pdf-whole", "partial", "whole")
    )
    print(f"900 poker cards, one row changed, median of {ROUNDS} saves (in-process, as watch runs):")
    print(f"  PDF rebuilt:                        {pdf:.3f} s  (aim <= {PDF_AIM} s): "
          f"{_ok(pdf <= PDF_AIM)}; a whole PDF build: {pdf_whole_s:.3f} s")  # fmt: skip
    extra, count = part - pdf, statistics.median(rendered)
    print(f"  PDF + PNG of the changed page only: {part:.3f} s  = {extra:+.3f} s for {count:.0f} PNG "
          f"(aim <= +{PNG_AIM} s): {_ok(extra <= PNG_AIM)}")  # fmt: skip
    print(f"  PDF + every page's PNG (before):    {full:.3f} s  = {full - pdf_whole_s:+.3f} s")


def _ok(ok: bool) -> str:
    return "ok" if ok else "OVER AIM"


if __name__ == "__main__":
    main()
