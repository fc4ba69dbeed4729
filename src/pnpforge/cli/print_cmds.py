"""CLI commands for the print job: games, build, inventory, preview, new, watch, schema.

Each command is a thin shell over `pnpforge.build`; bad input raises InputError, which the group
prints as `FILE:LINE:COL: message` lines with exit code 2.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import reduce
from pathlib import Path
from typing import TYPE_CHECKING, Any
from unicodedata import east_asian_width

import click

from pnpforge import catalog, longlived
from pnpforge.cli import (
    COMMAND_LINE,
    Language,
    process_ends_with_command,
    report_problems,
    report_warnings,
    say,
)
from pnpforge.cli.helptext import command, terminal_said
from pnpforge.components.template import localise
from pnpforge.errors import InputError
from pnpforge.files import STAGING_PREFIX, write_atomic
from pnpforge.i18n import N_
from pnpforge.phrase import Phrase

if TYPE_CHECKING:  # the build engine (reportlab, the spec model) is imported by the commands that use it
    from pnpforge.buildoptions import BuildOptions
    from pnpforge.drafts.watching import PageMemory

STRICT_OPTION = click.option(
    "--strict",
    is_flag=True,
    help=N_(
        "Treat every warning (text that does not fit, a missing font...) as an error: "
        "exit 2, nothing written."
    ),
)
PAGE_HELP = N_("Page size: a4, letter, a3 or WxH such as 200x300mm (default: the spec's, else a4).")


def _build_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """Options shared by build and watch."""
    dir_type = click.Path(file_okay=False)
    options = [
        click.option(
            "-o",
            "--out",
            "out_dir",
            default="out",
            show_default=True,
            type=dir_type,
            help=N_("Output folder."),
        ),
        click.option("--page", help=PAGE_HELP),
        click.option(
            "--margin",
            metavar="LENGTH",
            help=N_(
                "Printer margin: the paper's edge your printer leaves blank, e.g. 5mm or 0.2in. Marks, "
                "labels and art stay inside it (default: the spec's defaults.margin, else 5mm)."
            ),
        ),
        click.option("--lang", type=Language(), help=N_("Language of texts (default: the spec's).")),
        click.option(
            "--duplex",
            type=click.Choice(["long", "short", "fold", "none"]),
            help=N_(
                "Backs mirrored for a long- or short-edge flip; fold: fronts and backs side by side on "
                "one page, folded along its centre (printers without duplex); none: no backs "
                "(default: the spec's)."
            ),
        ),
        click.option(
            "--duplex-test", is_flag=True, help=N_("Add front/back test pages to check duplex alignment.")
        ),
        click.option(
            "--back-offset",
            metavar="X,Y",
            help=N_(
                "Move every back page X mm right and Y mm down (negative: left, up), as read off the "
                "duplex test page, e.g. --back-offset 1.5,-0.5 (at most 10 mm each way)."
            ),
        ),
        click.option(
            "--format",
            "formats",
            default="pdf",
            show_default=True,
            help=N_("Comma list of outputs: pdf, svg (one per page), png (one per page)."),
        ),
        click.option(
            "--dpi", default=150, show_default=True, type=click.IntRange(10, 1200), help=N_("PNG resolution.")
        ),
        click.option(
            "--only",
            multiple=True,
            metavar="COMPONENT[:IDS]",
            help=N_(
                "Build only this component, or only its rows with these ids or numbers, e.g. "
                "cards:c07,c12 (repeatable)."
            ),
        ),
        click.option("--font", type=click.Path(dir_okay=False), help=N_("Japanese TrueType font to embed.")),
        click.option(
            "--stamp",
            metavar="TEXT",
            help=N_(
                "The draft printed on the cover and every sheet label, and given to faces as {version} "
                "(default: the spec's game.version)."
            ),
        ),
        click.option(
            "--allow-outside-files",
            is_flag=True,
            help=N_("Let the spec name files (CSV, data, images, fonts) outside its folder."),
        ),
        click.option(
            "--allow-outside-images",
            is_flag=True,
            help=N_(
                "Let the spec's images lie outside its folder (CSV, data files and fonts stay inside: "
                "--allow-outside-files allows those too)."
            ),
        ),
        click.option(
            "--draft",
            is_flag=True,
            help=N_(
                "Draw a labelled placeholder for each missing image (one warning each) and mark every "
                "sheet DRAFT, instead of refusing to build."
            ),
        ),
        STRICT_OPTION,
    ]
    for option in reversed(options):
        command = option(command)
    return command


def _options(**kw: Any) -> BuildOptions:
    from pnpforge.buildoptions import BuildOptions, parse_formats, parse_sheets

    return BuildOptions(
        out_dir=Path(kw["out_dir"]),
        page=kw["page"],
        margin=kw["margin"],
        lang=kw["lang"],
        duplex=kw["duplex"],
        duplex_test=kw["duplex_test"],
        back_offset=kw["back_offset"],
        formats=parse_formats(kw["formats"]),
        dpi=kw["dpi"],
        only=tuple(kw["only"]),
        font=Path(kw["font"]) if kw["font"] else None,
        allow_outside_files=kw["allow_outside_files"],
        allow_outside_images=kw["allow_outside_images"],
        stamp=kw["stamp"],
        sheets=parse_sheets(kw["sheets"]) if kw.get("sheets") else (),
        draft=kw.get("draft", False),
        strict=kw.get("strict", False),
    )


@contextmanager
def _progress(total: int, label: str) -> Iterator[Callable[[int], None] | None]:
    """A progress bar on a terminal, its label in the terminal's language; nothing at all when stderr
    is a pipe or file."""
    if not sys.stderr.isatty():
        yield None
        return
    with click.progressbar(length=total, label=terminal_said()(label), file=sys.stderr) as bar:
        yield bar.update


def _run_build(
    target: str,
    options: BuildOptions,
    since: str | None = None,
    rev: str | None = None,
    watched: PageMemory | None = None,
) -> list[Path]:
    """The one build function (building.py) with the terminal's progress bar; what a reprint found
    changed is said, then the build's warnings."""
    from pnpforge.building import BuildRequest, build

    if watched is None and process_ends_with_command():
        # one build, then the process ends: what the build makes (rows, pieces, pages) lives until then,
        # so the cycle collector would walk it again and again (and once more when restarted) to free
        # next to nothing (43 to 218 objects for a bundled game or the 900-card bench, against 20-100 ms)
        longlived.pause()
    result = build(BuildRequest(target, options, since, rev, watched, _progress))
    for change in result.changes:
        say(change.line())
    if result.unchanged:
        say(Phrase(N_("no piece changed since {since}: nothing to reprint"), since=rev or since))
    report_warnings(result.warnings)
    return result.files


@command(
    "build",
    N_("""Build print-ready sheets for TARGET: a bundled game id, a spec folder or a game.yaml.

    Writes DIR/<id>.pdf (cover page first), plus DIR/<id>-pNNN.svg/.png per page when asked.
    Prints each file written, one per line.

    \b
    Example:
      pnpforge build gods
      pnpforge build examples/tiny-quest -o out --page letter --lang ja
      pnpforge build ankh --page letter --margin 6mm
      pnpforge build my-game/ --duplex short --format pdf,png --dpi 100 --only cards
      pnpforge build gods --duplex fold            # no duplex printer: fold each sheet
      pnpforge build gods --back-offset 1.5,-0.5   # backs corrected by the duplex test page
      pnpforge build my-game/ --allow-outside-files   # art or data kept in a shared folder
      pnpforge build my-game/ --stamp "draft 33 (test)"  # the draft on the cover and every sheet
      pnpforge build my-game/ --changed-since ../my-game-v31   # reprint only what changed
      pnpforge build my-game/ --rev v31                       # the same, against a git tag
      pnpforge build my-game/ --sheets 3,5-7 --only cards:c07,c12
      pnpforge build my-game/ --draft                 # art not drawn yet: placeholders, sheets marked DRAFT
      pnpforge build my-game/ --strict                # for CI: any warning fails the build
      pnpforge build my-game/ --no-cache              # build in full, keep nothing in DIR/.pnpforge-cache/

    Warnings (the PDF is still written) go to stderr as FILE:LINE:COL: warning: ... lines.
    """),
)
@click.argument("target")
@_build_options
@click.option(
    "--sheets", metavar="LIST", help=N_("Only these sheets of the full layout, e.g. 3,5-7 (and the cover).")
)
@click.option(
    "--changed-since",
    "since",
    metavar="OLD",
    help=N_(
        "A reprint: only the pieces added or changed since the older draft OLD (a spec folder), with a "
        "cover saying which to throw away; written as DIR/<id>-reprint.pdf."
    ),
)
@click.option(
    "--rev", metavar="REV", help=N_("A reprint of what changed since TARGET's spec at git revision REV.")
)
@click.option(
    "--no-cache",
    is_flag=True,
    help=N_(
        "Build in full and keep nothing in DIR/.pnpforge-cache/ (by default each build keeps its pages "
        "there, keyed by every input file's bytes, and the next build of unchanged inputs reuses them)."
    ),
)
def build_cmd(target: str, since: str | None, rev: str | None, no_cache: bool, **kw: Any) -> None:
    # its help: the N_ text of @command above (said in the terminal's language)
    if since is not None and rev is not None:
        asked = N_("--changed-since and --rev: give one of them (expected one)")
        raise InputError.single(COMMAND_LINE, Phrase.word(asked))
    options = _options(**kw)
    options.cache = not no_cache
    for path in _run_build(target, options, since, rev):
        click.echo(str(path))


@command(
    "games",
    N_("""List the games pnpforge knows: bundled ones and any in --games-dir.

    \b
    Example:
      pnpforge games
      pnpforge games --ids
      pnpforge --games-dir ~/my-games games --json
    """),
)
@click.option("--json", "as_json", is_flag=True, help=N_("Print a JSON list."))
@click.option("--ids", is_flag=True, help=N_("Print bare ids, one per line."))
def games_cmd(as_json: bool, ids: bool) -> None:
    # its help: the N_ text of @command above (said in the terminal's language)
    found = catalog.games()
    if ids:
        for game in found:
            click.echo(game.id)
        return
    rows = [_game_row(game) for game in found]
    if as_json:
        click.echo(json.dumps(rows, ensure_ascii=False, indent=2))
        return
    from pnpforge.i18n import terminal_language

    said, lang = terminal_said(), terminal_language()
    for row in rows:  # the game's own title in the terminal's language where the game has one
        where = "" if row["bundled"] else f"  ({row['path']})"
        title = _cell(row["title"].get(lang) or row["title"]["en"], 28)
        click.echo(f"{row['id']:<16} {title} {said(_players_text(*row['players']))}{where}")


def _players_text(low: int, high: int) -> Phrase:
    if low == high:
        return Phrase(N_("{count} players"), count=low)
    return Phrase(N_("{low}-{high} players"), low=low, high=high)


def _game_row(game: catalog.GameFolder) -> dict[str, Any]:
    """Id, titles and players read from game.yaml's header alone (a spec broken further down still lists)."""
    raw = catalog.game_info(game).get("title", game.id)
    title = {"en": localise(raw, "en"), "ja": localise(raw, "ja")} if isinstance(raw, str | dict) else {}
    return {
        "id": game.id,
        "title": title or {"en": game.id, "ja": game.id},
        "players": list(catalog.players_range(game)),
        "bundled": game.bundled,
        "path": str(game.path),
    }


# the table's heading: each word (looked up by its key: "sheets" alone is a count elsewhere), its width,
# and whether it is right-aligned over numbers
INVENTORY_COLUMNS = (
    (Phrase.word("name", N_("name (a column of `inventory`)")), 20, False),
    (Phrase.word("kind", N_("kind (a column of `inventory`)")), 6, False),
    (Phrase.word("shape", N_("shape (a column of `inventory`)")), 8, False),
    (Phrase.word("count", N_("count (a column of `inventory`)")), 6, True),
    (Phrase.word("sides", N_("sides (a column of `inventory`)")), 6, True),
    (Phrase.word("sheets", N_("sheets (a column of `inventory`)")), 7, True),
    (Phrase.word("size", N_("size (a column of `inventory`)")), 0, False),
)


def _cell(text: str, width: int, right: bool = False) -> str:
    """`text` padded to `width` terminal columns (a wide character, as in Japanese, takes two)."""
    room = width - sum(2 if east_asian_width(ch) in "WF" else 1 for ch in text)
    return " " * room + text if right else text + " " * room


@command(
    "inventory",
    N_("""List each component of TARGET: name, kind, shape, count, sides and sheets on the page.

    Under each component come its parts, the pieces counted per kind (the row field its spec's
    `group:` names, else the first of kind, type, piece, figure): what a rulebook's component list
    counts. `--json` gives them as `parts: [{name, title, count}]`.

    \b
    Example:
      pnpforge inventory gods
      pnpforge inventory examples/tiny-quest --json
      pnpforge inventory ankh --lang ja
    """),
)
@click.argument("target")
@click.option("--json", "as_json", is_flag=True, help=N_("Print a JSON list."))
@click.option("--page", help=PAGE_HELP)
@click.option("--lang", type=Language(), help=N_("Language of the titles."))
def inventory_cmd(target: str, as_json: bool, page: str | None, lang: str | None) -> None:
    # its help: the N_ text of @command above (said in the terminal's language)
    from pnpforge.build import BuildOptions, inventory
    from pnpforge.components.load import load_target

    lines = inventory(load_target(target), BuildOptions(page=page, lang=lang))
    keys = ("name", "title", "kind", "shape", "count", "sides", "sheets", "sheet_numbers")
    rows = [
        {
            **{k: getattr(x, k) for k in keys},
            "size": x.size_mm,
            "parts": [{"name": p.name, "title": p.title, "count": p.count} for p in x.parts],
        }
        for x in lines
    ]
    if as_json:
        click.echo(json.dumps(rows, ensure_ascii=False, indent=2))
        return
    said = terminal_said()
    head = [_cell(said(word), width, right) for word, width, right in INVENTORY_COLUMNS]
    click.echo(" ".join(head[:-1]) + "  " + head[-1])
    for r in rows:
        counts = f"{r['count']:>6} {r['sides']:>6} {r['sheets']:>7}"
        click.echo(f"{r['name']:<20} {r['kind']:<6} {r['shape']:<8} {counts}  {r['size']}")
        for part in r["parts"]:  # the count under the component's count, the title where the size goes
            click.echo(f"  - {part['name']:<16} {'':<15} {part['count']:>6} {'':>14}  {part['title']}")


@command(
    "preview",
    N_("""Render each page of TARGET to a PNG (DIR/<id>-pNNN.png), without writing the PDF.

    \b
    Example:
      pnpforge preview gods --dpi 72
      pnpforge preview examples/tiny-quest -o previews --only heroes
      pnpforge preview my-game --strict   # no PNG when any text does not fit
    """),
)
@click.argument("target")
@click.option("-o", "--out", "out_dir", default="out", show_default=True, type=click.Path(file_okay=False),
              help=N_("Directory to write into."))  # fmt: skip
@click.option("--dpi", default=100, show_default=True, type=click.IntRange(10, 1200), help=N_("Resolution."))
@click.option("--page", help=PAGE_HELP)
@click.option("--lang", type=Language(), help=N_("Language of the texts."))
@click.option(
    "--only", multiple=True, metavar="COMPONENT", help=N_("Preview only this component (repeatable).")
)
@STRICT_OPTION
def preview_cmd(
    target: str,
    out_dir: str,
    dpi: int,
    page: str | None,
    lang: str | None,
    only: tuple[str, ...],
    strict: bool,
) -> None:
    # its help: the N_ text of @command above (said in the terminal's language)
    from pnpforge.build import BuildOptions

    options = BuildOptions(
        out_dir=Path(out_dir), page=page, lang=lang, formats=("png",), dpi=dpi, only=only, strict=strict
    )
    for path in _run_build(target, options):
        click.echo(str(path))


SCAFFOLD_YAML = """\
# A new pnpforge game. Build it with: pnpforge build {folder}
# The spec format is documented in docs/spec.md (pnpforge schema prints its JSON Schema).
game:
  id: {id}
  title: {{en: {title}, ja: {title}}}
  players: [2, 4]

defaults:
  page: a4
  bleed: 3mm
  duplex: long

components:
  - name: cards
    kind: card
    size: poker
    csv: cards.csv
    face:
      background: "{{colour}}"
      elements:
        - {{type: rect, x: 4mm, y: 4mm, w: 55mm, h: 12mm, fill: white, radius: 2mm}}
        - {{type: text, text: "{{name}}", x: 4mm, y: 4mm, w: 55mm, h: 12mm, size: 14pt, font: sans-bold}}
        - {{type: text, text: "{{text}}", x: 6mm, y: 50mm, w: 51mm, h: 32mm, size: 10pt, fit: wrap}}
    back:
      background: "#333344"
      elements:
        - {{type: text, text: {title_text}, size: 16pt, font: sans-bold, colour: white}}

  - name: markers
    kind: token
    shape: circle
    size: 16mm
    count: 10
    face:
      background: orange
      elements:
        - {{type: circle, x: 25%, y: 25%, w: 50%, h: 50%, fill: white, stroke: black}}
"""
SCAFFOLD_CSV = """\
name,colour,count,text
Fire,#e0603a,3,Deal 2 damage.
Water,#3a7fe0,3,Heal 1.
Earth,#7a9a3a,2,Block the next attack.
"""


TEMPLATES = ("cards", "tiles", "board", "game")  # folders of pnpforge/templates/new


@command(
    "new",
    N_("""Create a spec folder NAME (game.yaml and its data) that builds at once.

    \b
    Example:
      pnpforge new my-game
      pnpforge new my-deck --template cards
      pnpforge build my-deck
      pnpforge new my-game --template game
      pnpforge score my-game/score.yaml
    """),
)
@click.argument("name", type=click.Path(file_okay=False))
@click.option(
    "--template",
    type=click.Choice(TEMPLATES),
    help=N_(
        "Start from an example: cards (two card types with face_by, styles, when: and rich text), "
        "tiles (hex tiles and double-sided tokens), board (a board over several pages), game (a hex board "
        "with its score sheet and set-up rules as data: score and validate work at once). Default: a small "
        "deck and tokens."
    ),
)
def new_cmd(name: str, template: str | None) -> None:
    # its help: the N_ text of @command above (said in the terminal's language)
    folder = Path(name)
    if folder.exists() and any(folder.iterdir()):
        refused = N_("folder exists and is not empty (expected a new folder name)")
        raise InputError.single(name, Phrase.word(refused))
    # the id is held to [a-z0-9-]; the title may be any text, so it is written as a quoted string
    # (JSON's quoting is YAML's) and, on the back, with its braces escaped (\{): not a {field}
    slug = "-".join(
        "".join(ch if ch.isascii() and ch.isalnum() else " " for ch in folder.name.lower()).split()
    )
    title = folder.name.replace("-", " ").replace("_", " ").strip().title() or "My Game"
    if template is None:
        files = {
            catalog.SPEC_NAME: SCAFFOLD_YAML.format(
                id=json.dumps(slug or "my-game"),  # quoted: an id of digits alone is still text
                title=json.dumps(title, ensure_ascii=False),
                title_text=json.dumps(title.replace("{", "\\{").replace("}", "\\}"), ensure_ascii=False),
                folder=" ".join(name.splitlines()),
            ),
            "cards.csv": SCAFFOLD_CSV,
        }
    else:
        files = _template_files(template, slug or "my-game", title, name)
    for file_name, text in files.items():
        write_atomic(folder / file_name, text)
    written: str = reduce(  # "a and b and c"
        lambda text, more: Phrase(N_("{text} and {more}"), text=text, more=more),
        [str(folder / file_name) for file_name in files],
    )
    typed = f"pnpforge build {name}"  # the command line, as the user types it
    click.echo(
        terminal_said()(Phrase(N_("Created {files}; build with: {command}"), files=written, command=typed))
    )


def _template_files(template: str, slug: str, title: str, folder: str) -> dict[str, str]:
    """The template's files, game.yaml first, with the new game's id, title and folder filled in."""
    from importlib.resources import files

    root = files("pnpforge") / "templates" / "new" / template
    names = sorted(
        (entry.name for entry in root.iterdir() if entry.is_file()), key=lambda n: n != catalog.SPEC_NAME
    )
    out = {}
    for file_name in names:
        text = (root / file_name).read_text(encoding="utf-8")
        out[file_name] = text.replace("GAME_ID", slug).replace("GAME_TITLE", title).replace("FOLDER", folder)
    return out


def _snapshot(folder: Path, written: set[Path]) -> dict[Path, int]:
    """Modification times of the spec folder's files, but for those the builds wrote and their staging
    folders: an output folder inside the spec folder (even the folder itself) is watched like any other."""
    stamps: dict[Path, int] = {}
    for path in sorted(folder.rglob("*")):
        resolved = path.resolve()
        if STAGING_PREFIX in str(path) or resolved in written or not path.is_file():
            continue
        try:
            stamps[resolved] = path.stat().st_mtime_ns
        except OSError:
            continue
    return stamps


@command(
    "watch",
    N_("""Build TARGET, then rebuild whenever a file in its folder changes (Ctrl-C stops).

    A bad spec prints its problems and waiting goes on; the last good output stays as it was.
    With --format png, only the pages a change touched are rendered again (and printed); the PDF
    is always written whole.

    \b
    Example:
      pnpforge watch examples/tiny-quest
      pnpforge watch my-game/ --format pdf,png --interval 0.5
    """),
)
@click.argument("target")
@_build_options
@click.option("--interval", default=0.2, show_default=True, type=click.FloatRange(0.05, 60),
              help=N_("Seconds between checks for changes."))  # fmt: skip
@click.option(
    "--max-builds", type=click.IntRange(1), help=N_("Stop after this many builds (default: never).")
)
def watch_cmd(target: str, interval: float, max_builds: int | None, **kw: Any) -> None:
    # its help: the N_ text of @command above (said in the terminal's language)
    options = _options(**kw)
    folder = _watched_folder(target)
    from pnpforge.drafts.watching import PageMemory

    memory = PageMemory()
    builds = 0
    written: set[Path] = set()
    while True:
        stamps = _snapshot(folder, written)
        try:
            for path in _run_build(target, options, watched=memory):
                click.echo(str(path))
                written.add(path.resolve())
        except InputError as error:
            report_problems(error)
        builds += 1
        if max_builds is not None and builds >= max_builds:
            return
        before = {path: stamp for path, stamp in stamps.items() if path not in written}
        try:
            while _snapshot(folder, written) == before:
                time.sleep(interval)
        except KeyboardInterrupt:
            return
        say(N_("change seen; rebuilding"))


def _watched_folder(target: str) -> Path:
    path = Path(target)
    if path.is_dir():
        return path
    if path.is_file():
        return path.parent
    return catalog.find_game(target).path


def rules_sections(schema: dict[str, Any]) -> None:
    """The `scoring:` and `setup:` sections' own schemas in the spec's (its model leaves them untyped)."""
    from pnpforge.components.gamerules import ScoringSection
    from pnpforge.components.setuprules import SetupSection

    defs = schema.setdefault("$defs", {})
    for key, model in (("scoring", ScoringSection), ("setup", SetupSection)):
        part = model.model_json_schema(by_alias=True)
        for name, definition in part.pop("$defs", {}).items():
            assert defs.get(name, definition) == definition, name  # one name, one shape
            defs[name] = definition
        described = schema["properties"][key].get("description")
        schema["properties"][key] = {"anyOf": [part, {"type": "null"}], "description": described}


@command(
    "schema",
    N_("""Print the JSON Schema of game.yaml (point an editor's YAML plug-in at it).

    \b
    Example:
      pnpforge schema -o game.schema.json
      pnpforge schema | jq '.properties.components'
    """),
)
@click.option(
    "-o", "--out", "out_file", type=click.Path(dir_okay=False), help=N_("Write to FILE instead of stdout.")
)
def schema_cmd(out_file: str | None) -> None:
    # its help: the N_ text of @command above (said in the terminal's language)
    from pnpforge.components.model import Spec

    schema = Spec.model_json_schema(by_alias=True)
    rules_sections(schema)
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "pnpforge game spec (game.yaml)"
    text = json.dumps(schema, ensure_ascii=False, indent=2, sort_keys=True) + "\n"
    if out_file:
        write_atomic(out_file, text)
    else:
        click.echo(text, nl=False)
