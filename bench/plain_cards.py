"""The baseline for bench_cards.py: the same 900 cards drawn with plain reportlab, no pnpforge.

Each card: a coloured background with 3 mm bleed, a title band and title, a 3-line body mixing
English and Japanese; backs on mirrored duplex pages, the back drawn once as a form. Run alone it
prints its own figures; bench_cards.py runs it in a subprocess with --json; bench_startup.py times
the whole process of `plain_cards.py --write FILE` (one drawing, written to FILE).
"""

from __future__ import annotations

import io
import json
import resource
import sys
import time

from reportlab import rl_config
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

from pnpforge.fonts import find_cjk_font

MM = 72 / 25.4
CARDS = 900
RUNS = 3
W, H, BLEED = 63 * MM, 88 * MM, 3 * MM
PAGE_W, PAGE_H = 210 * MM, 297 * MM
COLOURS = [(0.75, 0.31, 0.3), (0.61, 0.73, 0.35), (0.5, 0.39, 0.64), (0.29, 0.67, 0.78)]


def card_rows(n: int = CARDS) -> list[dict[str, str]]:
    """The cards both benchmarks draw: a title and three body lines, one of them Japanese."""
    return [
        {
            "title": f"Card {k + 1}",
            "line1": f"Gain {k % 5 + 1} gold and draw a card.",
            "line2": f"金貨を{k % 5 + 1}枚得て、カードを1枚引く。",
            "line3": f"Worth {k % 3} points at the end.",
            "colour": "#" + "".join(f"{int(255 * c):02x}" for c in COLOURS[k % 4]),
        }
        for k in range(n)
    ]


def draw(rows: list[dict[str, str]]) -> bytes:
    font_path = find_cjk_font()
    cjk = "Helvetica"
    if font_path:
        pdfmetrics.registerFont(TTFont("PlainCJK", str(font_path)))
        cjk = "PlainCJK"
    buffer = io.BytesIO()
    rl_config.useA85 = 0  # as pnpforge's writer does: a fair baseline
    c = Canvas(buffer, pagesize=(PAGE_W, PAGE_H), invariant=1, pageCompression=1)
    gx, gy = 5.5 * MM, 6 * MM
    x0 = (PAGE_W - 3 * W - 2 * gx) / 2
    y0 = (PAGE_H - 3 * H - 2 * gy) / 2
    c.beginForm("back", -BLEED, -BLEED, W + BLEED, H + BLEED)
    c.setFillColorRGB(0.17, 0.23, 0.33)
    c.rect(-BLEED, -BLEED, W + 2 * BLEED, H + 2 * BLEED, stroke=0, fill=1)
    c.setFillColorRGB(1, 1, 1)
    c.setFont("Helvetica-Bold", 16)
    c.drawCentredString(W / 2, H / 2, "Bench Quest")
    c.endForm()
    for start in range(0, len(rows), 9):
        page = rows[start : start + 9]
        slots = [
            (x0 + (k % 3) * (W + gx), PAGE_H - y0 - (k // 3 + 1) * H - (k // 3) * gy)
            for k in range(len(page))
        ]
        for (x, y), row in zip(slots, page, strict=True):
            c.saveState()
            p = c.beginPath()
            p.rect(x - gx / 2, y - gy / 2, W + gx, H + gy)
            c.clipPath(p, stroke=0, fill=0)
            hexa = row["colour"].lstrip("#")
            c.setFillColorRGB(*(int(hexa[i : i + 2], 16) / 255 for i in (0, 2, 4)))
            c.rect(x - BLEED, y - BLEED, W + 2 * BLEED, H + 2 * BLEED, stroke=0, fill=1)
            c.setFillColorRGB(1, 1, 1)
            c.roundRect(x + 3 * MM, y + H - 15 * MM, W - 6 * MM, 12 * MM, 2 * MM, stroke=0, fill=1)
            c.setFillColorRGB(0, 0, 0)
            c.setFont("Helvetica-Bold", 14)
            c.drawCentredString(x + W / 2, y + H - 11 * MM, row["title"])
            c.setFont("Helvetica", 9)
            c.drawString(x + 5 * MM, y + 30 * MM, row["line1"])
            c.setFont(cjk, 9)
            c.drawString(x + 5 * MM, y + 25 * MM, row["line2"])
            c.setFont("Helvetica", 9)
            c.drawString(x + 5 * MM, y + 20 * MM, row["line3"])
            c.restoreState()
        c.showPage()
        for x, y in slots:
            c.saveState()
            c.translate(PAGE_W - x - W, y)
            c.doForm("back")
            c.restoreState()
        c.showPage()
    c.save()
    return buffer.getvalue()


def peak_mb() -> float:
    """This process's peak resident memory. Linux's VmHWM starts afresh at exec; ru_maxrss would carry
    the parent's peak into a child process started by bench_cards.py."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # kB on Linux; other systems differ


def main() -> None:
    rows = card_rows()
    if "--write" in sys.argv:  # one drawing written to a file, as a user's script would: bench_startup.py
        with open(sys.argv[sys.argv.index("--write") + 1], "wb") as out:
            out.write(draw(rows))
        return
    seconds = float("inf")
    for _ in range(RUNS):  # best of a few runs: the machine may be busy with other work
        started = time.perf_counter()
        data = draw(rows)
        seconds = min(seconds, time.perf_counter() - started)
    peak = peak_mb()
    figures = {"cards": len(rows), "seconds": seconds, "cards_per_second": len(rows) / seconds,
               "peak_mb": peak, "bytes": len(data)}  # fmt: skip
    if "--json" in sys.argv:
        print(json.dumps(figures))
    else:
        rate = figures["cards_per_second"]
        print(f"plain reportlab: {len(rows)} cards in {seconds:.2f} s = {rate:.0f} cards/s, "
              f"peak RSS {peak:.0f} MB, {len(data) / 1e6:.1f} MB PDF")  # fmt: skip


if __name__ == "__main__":
    main()
