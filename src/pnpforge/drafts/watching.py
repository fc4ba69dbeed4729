"""What `watch` remembers between builds: each page's digest (drafts/pages.py), so that only the
pages a change touched are rendered to PNG again, and PNG files of pages that are gone are removed."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from pnpforge.drafts.pages import page_prints

if TYPE_CHECKING:
    from pnpforge.build import BuildOptions, Plan


class PageMemory:
    def __init__(self) -> None:
        self.prints: list[str] = []
        self.where: tuple[Path, str, int] | None = None  # (output folder, file stem, dpi) of the last build
        self.pending: list[str] = []

    def changed(self, the_plan: Plan, options: BuildOptions) -> list[int]:
        """The 0-based pages whose PNG must be rendered: changed ones, new ones, and any whose file is
        missing; every page when the output folder, name or resolution changed."""
        from pnpforge.output.png import page_name

        self.pending = page_prints(the_plan)
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

    def built(self, the_plan: Plan, options: BuildOptions) -> None:
        """Remember the build just written; remove the PNGs of pages it no longer has."""
        from pnpforge.output.png import page_name

        out, stem = Path(options.out_dir), options.name or the_plan.id
        if self.where == (out, stem, options.dpi):
            for k in range(len(self.pending), len(self.prints)):
                (out / page_name(stem, k + 1, "png")).unlink(missing_ok=True)
        if "png" in options.formats and self.pending:
            self.prints, self.where = self.pending, (out, stem, options.dpi)
