"""Exports beyond home printing: single piece images, print-shop files, virtual-table decks.

`prepare` loads a target and expands its pieces exactly as `build` does; each kind of export then
draws piece sides on their own pages with the build's face code (pages.py) and rasterises them with
pdfium (raster.py). Everything that can fail on bad input fails before any file is written.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from pnpforge import limits
from pnpforge.build import BuildOptions, drawing_setup, pieces_of, stamp_of
from pnpforge.components.load import LoadedSpec, load_target
from pnpforge.components.template import localise
from pnpforge.errors import InputError, Problem, collapse, strict_error, warning_line
from pnpforge.export.pdfx import Profile
from pnpforge.export.sides import Side, sides
from pnpforge.files import staged
from pnpforge.generator.expand import ComponentPieces
from pnpforge.generator.keys import chosen_rows, pick_rows
from pnpforge.i18n import N_
from pnpforge.layouts.faces.context import RenderContext
from pnpforge.output.info import Metadata
from pnpforge.output.page import PageFrame
from pnpforge.phrase import Phrase

KINDS = ("images", "print-shop", "tts", "cutfile")
BLACKS = ("rgb", "k")
FORMATS = ("pdf", "png")
CLI = "<command line>"
DPI_RANGE = (10, 1200)
T = TypeVar("T")


@dataclass
class ExportOptions:
    """What `pnpforge export` may change; None means the spec's default."""

    out_dir: Path | None = None  # None: out/<id>-<kind>
    only: tuple[str, ...] = ()
    lang: str | None = None
    dpi: int = 300
    format: str = "pdf"  # print-shop: pdf or png
    font: Path | None = None
    allow_outside_files: bool = False  # --allow-outside-files: files the spec names may lie anywhere
    allow_outside_images: bool = False  # --allow-outside-images: its images (only) may lie anywhere
    processes: int | None = None  # rasterising processes; None: every core
    base_url: str | None = None  # tts: where the images will be hosted; None: paths relative to the JSON
    black: str = "rgb"  # print-shop PDF: "k" writes black text and line art as DeviceCMYK 0 0 0 1
    shop: str | None = None  # print-shop: a shop preset (export/shops.py)
    icc: Path | None = None  # print-shop PDF: the shop's CMYK output profile (export/pdfx.py)
    preflight: bool = False  # print-shop PDF: check the files written against our PDF/X rules
    page: str | None = None  # cutfile: the paper size (default: the spec's)
    strict: bool = False  # --strict: a warning is an error, and nothing is written


@dataclass
class Prepared:
    loaded: LoadedSpec
    frame: PageFrame
    ctx: RenderContext
    groups: list[ComponentPieces]
    options: ExportOptions
    notes: list[str] = field(default_factory=list)
    rows: dict[str, set[int]] = field(default_factory=dict)  # `--only component:ids`: rows kept
    standard: str = ""  # print-shop PDF: the part of PDF/X written (export/pdfx.py)
    profile: Profile | None = None  # ... and the CMYK output profile it is printed to

    def sides(self, group: ComponentPieces, every_back: bool = False) -> list[Side]:
        """The group's sides to export, named in the build's language, only the rows asked for."""
        chosen = self.rows.get(group.component.name)
        return sides(group, every_back=every_back, lang=self.ctx.lang, chosen=chosen)

    @property
    def title(self) -> str:
        return localise(self.loaded.spec.game.title, self.ctx.lang)

    def metadata(self, component: str) -> Metadata:
        """A component file's title, author and subject, as a build's PDF says them."""
        game = self.loaded.spec.game
        stamp = stamp_of(self.loaded, build_options_of(self.options))
        subject = f"{self.title} — {stamp}" if stamp and stamp not in self.title else self.title
        return Metadata(f"{self.title}: {component}", game.designer or "", subject)

    def out(self, kind: str) -> Path:
        return self.options.out_dir or Path("out") / f"{self.loaded.id}-{kind}"

    def drawn(self, draw: Callable[[], T]) -> T:
        """Run `draw`; a problem found while drawing is reported with every face's problems."""
        try:
            return draw()
        except InputError:
            pieces_of(self.loaded, build_options_of(self.options), self.frame, self.ctx, check=True)
            raise


def build_options_of(options: ExportOptions) -> BuildOptions:
    """The build options that choose the same pieces, language and fonts."""
    o = options
    return BuildOptions(
        lang=o.lang,
        only=o.only,
        font=o.font,
        allow_outside_files=o.allow_outside_files,
        allow_outside_images=o.allow_outside_images,
        page=o.page,
    )


def check_options(kind: str, options: ExportOptions) -> None:
    """Bad command-line values, as one located line each (exit code 2)."""
    if kind not in KINDS:
        raise InputError.single(
            CLI,
            Phrase(
                N_("--to {kind}: unknown export (expected one of {known})"),
                kind=repr(kind),
                known=list(KINDS),
            ),
        )
    low, high = DPI_RANGE
    if not low <= options.dpi <= high:
        raise InputError.single(
            CLI,
            Phrase(
                N_("--dpi {dpi}: out of range (expected {low} to {high})"),
                dpi=options.dpi,
                low=low,
                high=high,
            ),
        )
    if options.format not in FORMATS:
        raise InputError.single(
            CLI, Phrase(N_("--format {value}: unknown (expected pdf or png)"), value=repr(options.format))
        )
    if options.format != "pdf" and kind != "print-shop":
        raise InputError.single(
            CLI, Phrase(N_("--format applies to --to print-shop only, not {kind}"), kind=kind)
        )
    if options.base_url is not None:
        if kind != "tts":
            raise InputError.single(
                CLI, Phrase(N_("--base-url applies to --to tts only, not {kind}"), kind=kind)
            )
        if not re.fullmatch(r"(https?|file)://[^\s\"'<>\\]+", options.base_url):
            raise InputError.single(
                CLI,
                Phrase(
                    N_(
                        "--base-url {url} is not a URL (expected http://, https:// or file:// "
                        "and no spaces or quotes, e.g. https://example.org/my-game/)"
                    ),
                    url=repr(options.base_url),
                ),
            )
    if options.icc is not None and (kind != "print-shop" or options.format != "pdf"):
        raise InputError.single(CLI, Phrase.word(N_("--icc applies to --to print-shop PDFs only")))
    if options.page is not None and kind != "cutfile":
        raise InputError.single(CLI, Phrase(N_("--page applies to --to cutfile only, not {kind}"), kind=kind))
    if options.preflight and (kind != "print-shop" or options.format != "pdf"):
        raise InputError.single(CLI, Phrase.word(N_("--preflight applies to --to print-shop PDFs only")))
    if options.black not in BLACKS:
        raise InputError.single(
            CLI, Phrase(N_("--black {value}: unknown (expected rgb or k)"), value=repr(options.black))
        )
    if options.black != "rgb" and (kind != "print-shop" or options.format != "pdf"):
        raise InputError.single(CLI, Phrase.word(N_("--black k applies to --to print-shop PDFs only")))
    if options.shop is not None:
        if kind != "print-shop":
            raise InputError.single(
                CLI, Phrase(N_("--shop applies to --to print-shop only, not {kind}"), kind=kind)
            )
        from pnpforge.export.shops import shop_named

        shop_named(options.shop)


def prepare(target: str | Path | LoadedSpec, kind: str, options: ExportOptions) -> Prepared:
    """Load and expand the target's pieces; raises InputError before anything is drawn.

    Every PDF embeds every font: the standard Latin fonts are written with metric-compatible TrueType
    twins (output/embedfonts.py).
    """
    check_options(kind, options)
    loaded = target if isinstance(target, LoadedSpec) else load_target(target, options.allow_outside_files)
    build_options = build_options_of(options)
    frame, _, ctx = drawing_setup(loaded, build_options)
    groups = pieces_of(loaded, build_options, frame, ctx, check=False)
    if kind == "tts":  # its decks are numbered inside: the rows asked for are all it sees
        return Prepared(loaded, frame, ctx, pick_rows(groups, options.only), options)
    prepared = Prepared(loaded, frame, ctx, groups, options, rows=chosen_rows(groups, options.only))
    if options.shop is not None:
        from pnpforge.export.shops import apply_shop, shop_named

        apply_shop(prepared, shop_named(options.shop))
    if kind == "print-shop" and options.format == "pdf":
        from pnpforge.export.pdfx import find_profile
        from pnpforge.export.shops import standard_for

        prepared.standard = standard_for(options.shop)
        prepared.profile = find_profile(options.icc, prepared.standard, CLI)
        if prepared.profile.installed:
            prepared.notes.append(
                Phrase(
                    N_("note: printed to {profile} ({file}); pass the shop's own profile with --icc FILE"),
                    profile=prepared.profile.description,
                    file=prepared.profile.file,
                )
            )
    return prepared


def check_pixels(width: int, height: int, what: str, dpi: int) -> None:
    limits.check_pixels(width, height, Phrase(N_("--dpi {dpi}: {what}"), dpi=dpi, what=what), dpi=dpi)


def export(
    target: str | Path | LoadedSpec, kind: str, options: ExportOptions
) -> tuple[list[Path], list[str]]:
    """Write the export; returns the files written and notes and warnings for the user (skipped pieces,
    fonts, text that does not fit). With `strict`, a warning is refused (InputError) and nothing written."""
    prepared = prepare(target, kind, options)
    with staged(prepared.out(kind)):  # every file, or none: a failure halfway leaves the folder as it was
        if kind == "images":
            from pnpforge.export.images import export_images

            files = export_images(prepared)
        elif kind == "print-shop":
            from pnpforge.export.printshop import export_print_shop

            files = export_print_shop(prepared)
        elif kind == "cutfile":
            from pnpforge.export.cutfile import export_cutfile

            files = export_cutfile(prepared)
        else:
            from pnpforge.export.tts import export_tts

            files = export_tts(prepared)
        # what the files show differently from the spec, said as a build says it (a font, a gutter,
        # text that does not fit)
        shown = prepared.ctx.shown_differently()
        if options.strict and shown:  # refused before the staged files are moved into place
            raise strict_error(shown, prepared.loaded.file)
    located = collapse([w for w in shown if isinstance(w, Problem)])
    return files, [
        *prepared.notes,
        *(warning_line(w) for w in shown if isinstance(w, str)),
        *map(warning_line, located),
    ]
