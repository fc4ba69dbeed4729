"""What `watch` remembers between builds: each page's digest (drafts/pages.py) and recorded drawing,
so that only the pages a change touched are drawn and rendered to PNG again (the others are played
back as recorded), and PNG files of pages that are gone are removed."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from pnpforge.drafts.identity import Printer, RowMemo
from pnpforge.drafts.pages import page_prints

if TYPE_CHECKING:
    from pnpforge.build import BuildOptions, Plan
    from pnpforge.output.recording import PageDrawing, Recording


class PageMemory:
    def __init__(self) -> None:
        self.prints: list[str] = []
        self.where: tuple[Path, str, int] | None = None  # (output folder, file stem, dpi) of the last build
        self.pending: list[str] = []
        self.drawings: dict[str, PageDrawing] = {}  # the last build's pages of pieces, by digest
        self.rows: RowMemo = {}  # the last build's row fingerprints (drafts/identity.py)

    def kept(self, the_plan: Plan) -> Callable[[int], PageDrawing | None]:
        """Before drawing: page k as the last build drew it, when it is a page of pieces whose digest is
        unchanged and whose drawing warned of nothing (so the warnings stay a whole build's)."""
        printer = Printer(the_plan.ctx, self.rows)
        self.pending = page_prints(the_plan, printer=printer)
        self.rows = printer.kept

        def drawn(k: int) -> PageDrawing | None:
            return self.drawings.get(self.pending[k]) if the_plan.pages[k].kind == "pieces" else None

        return drawn

    def changed(self, the_plan: Plan, options: BuildOptions) -> list[int]:
        """Once drawn, the 0-based pages whose PNG must be rendered: changed ones, new ones, and any
        whose file is missing; every page when the output folder, name or resolution changed."""
        from pnpforge.output.png import page_name

        covers = [k for k, page in enumerate(the_plan.pages) if page.kind == "cover"]
        for k, digest in zip(covers, page_prints(the_plan, covers), strict=True):
            self.pending[k] = digest  # the cover shows what drawing warned of
        out, stem = Path(options.out_dir), options.name or the_plan.id
        if self.where != (out, stem, options.dpi):
            return list(range(len(self.pending)))
        return [
            k
            for k, digest in enumerate(self.pending)
            if k >= len(self.prints)
            or self.prints[k] != digest
            or not (out / page_name(stem, k + 1, "png")).exists()
        ]

    def built(self, the_plan: Plan, options: BuildOptions, recording: Recording) -> None:
        """Remember the build just written; remove the PNGs of pages it no longer has."""
        from pnpforge.output.png import page_name

        self.drawings = {}
        for k, quiet in enumerate(recording.quiet):
            if quiet and the_plan.pages[k].kind == "pieces":
                self.drawings[self.pending[k]] = recording.drawing(k)

        out, stem = Path(options.out_dir), options.name or the_plan.id
        if self.where == (out, stem, options.dpi):
            for k in range(len(self.pending), len(self.prints)):
                (out / page_name(stem, k + 1, "png")).unlink(missing_ok=True)
        if "png" in options.formats and self.pending:
            self.prints, self.where = self.pending, (out, stem, options.dpi)
