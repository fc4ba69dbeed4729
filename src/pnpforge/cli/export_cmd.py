"""`pnpforge export`: piece images, print-shop files and Tabletop Simulator decks from a spec.

A thin shell over pnpforge.export; its heavy imports (reportlab, pdfium, Pillow) happen inside the
command, so `pnpforge --help` stays quick.
"""

from __future__ import annotations

from pathlib import Path

import click

from pnpforge.cli import Language
from pnpforge.cli.helptext import command
from pnpforge.i18n import N_

KINDS = ("images", "print-shop", "tts", "cutfile")
SHOPS = ("makeplayingcards", "drivethrucards", "thegamecrafter")


@command(
    "export",
    N_("""Export TARGET's pieces for a print shop or a virtual tabletop.

    TARGET is a bundled game id, a spec folder or a game.yaml. Every piece side is drawn by the
    same code as `build`, alone on its own page of trim + bleed. Prints each file written.

    \b
    Example:
      pnpforge export gods --to images                    # out/gods-images/*.png + manifest.csv
      pnpforge export gods --to images --only vp-cards --dpi 600
      pnpforge export quo-vadis --to print-shop -o shop   # shop/<component>.pdf
      pnpforge export quo-vadis --to print-shop --format png
      pnpforge export quo-vadis --to tts --lang ja        # decks: sheets + <component>.json
      pnpforge export quo-vadis --to tts --base-url https://example.org/qv/   # hosted images
      pnpforge export gods --to print-shop --shop makeplayingcards --black k
      pnpforge export gods --to print-shop --shop drivethrucards --icc shop.icc --preflight
      pnpforge export gods --to cutfile                   # gods-print.pdf + gods-pNNN-cut.svg
      pnpforge export ankh --to cutfile --page a3         # every piece on A3 cut sheets
      pnpforge export gods --to cutfile --strict          # for CI: any warning fails the export
    """),
)
@click.argument("target")
@click.option(
    "--to",
    "kind",
    required=True,
    metavar="|".join(KINDS),
    help=N_(
        "images: one PNG per piece side + manifest.csv; print-shop: one PDF/X file per component, "
        "one side per page with trim and bleed boxes, a CMYK output intent and CutContour; tts: Tabletop "
        "Simulator sheets and saved objects; cutfile: sheets to print with registration marks and an "
        "SVG cut file per sheet for Cricut/Silhouette cutters."
    ),
)
@click.option(
    "-o",
    "--out",
    "out_dir",
    type=click.Path(file_okay=False),
    help=N_("Output folder (default: out/<id>-<kind>)."),
)
@click.option(
    "--only", multiple=True, metavar="COMPONENT", help=N_("Export only this component (repeatable).")
)
@click.option("--lang", type=Language(), help=N_("Language of texts (default: the spec's)."))
@click.option(
    "--dpi",
    default=300,
    show_default=True,
    type=int,
    help=N_("Image resolution (10-1200); TTS sheets shrink to stay within 4096 px."),
)
@click.option(
    "--format",
    "fmt",
    default="pdf",
    show_default=True,
    metavar="pdf|png",
    help=N_("print-shop only: PDFs, or the same sides as PNG images."),
)
@click.option("--font", type=click.Path(dir_okay=False), help=N_("Japanese TrueType font to use."))
@click.option(
    "--allow-outside-files",
    is_flag=True,
    help=N_("Let the spec name files (CSV, data, images, fonts) outside its folder."),
)
@click.option(
    "--allow-outside-images",
    is_flag=True,
    help=N_(
        "Let the spec's images lie outside its folder (CSV, data files and fonts stay inside: "
        "--allow-outside-files allows those too)."
    ),
)
@click.option(
    "--black",
    default="rgb",
    show_default=True,
    metavar="rgb|k",
    help=N_("print-shop PDFs: k writes black text and line art as pure K (DeviceCMYK 0,0,0,1)."),
)
@click.option(
    "--shop",
    metavar="|".join(SHOPS),
    help=N_("print-shop: that shop's card sizes and bleed, and a plain back for cards without one."),
)
@click.option(
    "--icc",
    metavar="FILE",
    type=click.Path(dir_okay=False),
    help=N_(
        "print-shop PDFs: the shop's CMYK output profile (.icc) the PDF/X file is printed to "
        "(default: Ghostscript's default_cmyk.icc where installed)."
    ),
)
@click.option(
    "--page",
    metavar="a4|letter|a3|WxH",
    help=N_("cutfile only: the paper the sheets are printed on (default: the spec's page)."),
)
@click.option(
    "--preflight",
    is_flag=True,
    help=N_(
        "print-shop PDFs: check each file written against the PDF/X rules (ISO 15930) and list "
        "them per file; exit code 1 if one fails."
    ),
)
@click.option(
    "--strict",
    is_flag=True,
    help=N_(
        "Treat every warning (text that does not fit, a narrow gutter, a missing font...) as an error, "
        "as build --strict does: exit 2, nothing written."
    ),
)
@click.option(
    "--jobs", type=click.IntRange(1, 64), help=N_("Processes that rasterise (default: every core).")
)
@click.option(
    "--base-url",
    metavar="URL",
    help=N_(
        "tts only: the address the images will be hosted at; each image's URL in the JSON becomes "
        "URL + its file name (default: file names relative to the JSON)."
    ),
)
def export_cmd(
    target: str,
    kind: str,
    out_dir: str | None,
    only: tuple[str, ...],
    lang: str | None,
    dpi: int,
    fmt: str,
    font: str | None,
    allow_outside_files: bool,
    allow_outside_images: bool,
    black: str,
    shop: str | None,
    icc: str | None,
    page: str | None,
    preflight: bool,
    strict: bool,
    jobs: int | None,
    base_url: str | None,
) -> None:
    # its help: the N_ text of @command above (said in the terminal's language)
    from pnpforge.export import ExportOptions, export

    options = ExportOptions(
        out_dir=Path(out_dir) if out_dir else None,
        only=only,
        lang=lang,
        dpi=dpi,
        format=fmt.strip().lower(),
        font=Path(font) if font else None,
        allow_outside_files=allow_outside_files,
        allow_outside_images=allow_outside_images,
        processes=jobs,
        base_url=base_url,
        black=black.strip().lower(),
        shop=shop,
        icc=Path(icc) if icc else None,
        preflight=preflight,
        page=page,
        strict=strict,
    )
    from pnpforge.cli import say

    files, notes = export(target, kind.strip().lower(), options)
    for note in notes:
        say(note)  # a warning or note, in the terminal's language
    for path in files:
        click.echo(str(path))
    if options.preflight:
        from pnpforge import i18n
        from pnpforge.export.preflight import report_lines

        failed = False
        for path in files:
            lines, passed = report_lines(path, i18n.terminal_language())
            click.echo("\n".join(lines))
            failed = failed or not passed
        if failed:
            raise SystemExit(1)
