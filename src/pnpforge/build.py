"""Planning a build: a loaded spec → pieces → pages, then draw.py draws them (building.py runs both).

`plan` does everything that can fail on bad input (expansion, every face checked per data row,
fitting on the page) and draws nothing; draw.py's `write` then draws the planned pages through a
Canvas into the PDF (and SVG/PNG). So an InputError always comes before any output file is touched.
The page list is: cover, optional duplex test (front, back), then each component's pages, each front
page followed by its back page when the component has backs and duplex is not `none`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from pnpforge import catalog, limits
from pnpforge.buildoptions import CLI, BuildOptions
from pnpforge.buildoptions import parse_formats as parse_formats  # importable from here, as before
from pnpforge.buildoptions import parse_sheets as parse_sheets
from pnpforge.components.load import LoadedSpec
from pnpforge.components.model import PAGE_SIZES_MM, PLACEHOLDER, Component
from pnpforge.components.template import localise
from pnpforge.errors import InputError, Problem
from pnpforge.fonts import SYSTEM_FONT_DIRS, FontRegistry
from pnpforge.generator.expand import ComponentPieces, expand
from pnpforge.generator.keys import pick_rows, split_only
from pnpforge.generator.parts import check_groups, parts
from pnpforge.generator.pieces import Piece
from pnpforge.i18n import N_, translator
from pnpforge.layouts.cover import InventoryLine
from pnpforge.layouts.faces.context import RenderContext
from pnpforge.layouts.faces.render import check_side
from pnpforge.layouts.imposition.backs import backs
from pnpforge.layouts.imposition.dice import d10_nets, die_nets
from pnpforge.layouts.imposition.grids import grid, shelves
from pnpforge.layouts.imposition.placement import (
    EPS,
    BoardPart,
    PageLayout,
    fits,
    keeps_bleed,
    pages_that_fit,
)
from pnpforge.layouts.imposition.sharing import DoesNotFit, Run, share
from pnpforge.layouts.shapes import bleed_outline
from pnpforge.output.page import PageFrame, Rect
from pnpforge.phrase import Phrase
from pnpforge.saying import reason
from pnpforge.sourcefile import FileRefError, named_file
from pnpforge.units import mm, parse_length, parse_size, to_mm

MAX_BACK_OFFSET_MM = 10.0  # --back-offset's range, not a work bound
PageKind = Literal["cover", "duplex-test", "pieces", "assembly"]


@dataclass
class DocPage:
    """One page of the document: what kind, and for piece pages which pieces go where."""

    kind: PageKind
    layout: PageLayout | None = None
    pieces: Sequence[Piece] = ()
    side: Literal["face", "back"] = "face"
    component: Component | None = None  # on a shared sheet: the first component on it
    label: str = ""
    sheet: int = 0  # piece pages: the sheet's number (a back has its front's), as the cover lists it
    folded: PageLayout | None = None  # --duplex fold: the backs, mirrored onto the page's other half
    fold_across: bool = False  # folded about the horizontal centre line (fronts above) instead
    board_parts: tuple[BoardPart, ...] = ()  # an assembly page: every part of the board


@dataclass
class Plan:
    """What a build draws: the loaded spec, the page, the pieces laid out on pages, and the inventory."""

    loaded: LoadedSpec
    frame: PageFrame
    page_name: str
    lang: str
    duplex: str
    ctx: RenderContext
    pages: list[DocPage] = field(default_factory=list)
    inventory: list[InventoryLine] = field(default_factory=list)
    back_offset: tuple[float, float] = (0.0, 0.0)  # points, right and down on every back page

    @property
    def id(self) -> str:
        return self.loaded.id

    stamp: str = ""
    sheets: tuple[int, ...] = ()  # --sheets: the sheets kept
    sheet_total: int = 0  # sheets of the full layout
    cover_notes: tuple[str, ...] = ()
    cover_heading: str = ""

    @property
    def title(self) -> str:
        return localise(self.loaded.spec.game.title, self.lang)

    @property
    def say(self) -> Callable[[str], str]:
        """pnpforge's own words on the pages, in the build's language."""
        return translator(self.lang)


# ---- planning --------------------------------------------------------------------------------------


def page_size(name: str, file: str = CLI, line: int = 0, col: int = 0) -> tuple[float, float]:
    """'a4', 'letter', 'a3' or 'WxH' (e.g. 200x300mm) in points."""
    key = name.strip().lower()
    if key in PAGE_SIZES_MM:
        w, h = PAGE_SIZES_MM[key]
        return mm(w), mm(h)
    try:
        return parse_size(name)
    except ValueError:
        raise InputError.single(
            file,
            Phrase(
                N_("page {name} is not a page size (expected a4, letter, a3 or WxH such as 200x300mm)"),
                name=repr(name),
            ),
            line,
            col,
        ) from None


def _frame(loaded: LoadedSpec, options: BuildOptions) -> tuple[PageFrame, str]:
    defaults = loaded.spec.defaults
    if options.page is not None:
        name = options.page
        width, height = page_size(name)
    else:
        name = defaults.page
        try:
            width, height = page_size(name)
        except InputError:  # only now find the line: locating parses the YAML a second time
            line, col = loaded.source.where(("defaults", "page"))
            page_size(name, loaded.file, line, col)
            raise
    margin = parse_length(defaults.margin)
    if options.margin is not None:
        try:
            margin = parse_length(options.margin)
        except ValueError:
            margin = -1.0
        if margin < 0:
            raise InputError.single(
                CLI,
                Phrase(
                    N_("--margin {value} is not a length (expected e.g. 5mm, 0.2in or 0)"),
                    value=repr(options.margin),
                ),
            )
    frame = PageFrame(width, height, margin, parse_length(defaults.bleed))
    if min(frame.area) <= 0:
        raise InputError.single(
            CLI,
            Phrase(
                N_("page {name} leaves no room inside the {margin} mm printer margins"),
                name=repr(name),
                margin=f"{to_mm(frame.margin):g}",
            ),
        )
    return frame, name


def plan(
    loaded: LoadedSpec, options: BuildOptions, fonts: FontRegistry | None = None, *, check: bool = False
) -> Plan:
    """Lay out every page; raises InputError (every problem found) before anything is drawn.

    With `check`, every data row's faces are also drawn on a canvas that keeps nothing, so problems
    inside faces (a colour filled from a row, a missing image) are all found here too. `write` does
    that only after drawing stopped on a problem: a good spec is drawn once, not twice.
    """
    duplex = options.duplex or loaded.spec.defaults.duplex
    frame, page_name, ctx = drawing_setup(loaded, options, fonts)
    if "png" in options.formats:  # before any piece is laid out: every page has the frame's size
        size = limits.pixels(frame.width, options.dpi), limits.pixels(frame.height, options.dpi)
        limits.check_pixels(
            *size, Phrase(N_("--dpi {dpi}: a {page} page"), dpi=options.dpi, page=page_name), dpi=options.dpi
        )
    groups = pieces_of(loaded, options, frame, ctx, check=check)
    _check_page_estimate(loaded, groups, frame)
    lang = ctx.lang
    result = Plan(loaded, frame, page_name, lang, duplex, ctx, stamp=stamp_of(loaded, options))
    result.back_offset = _back_offset(options.back_offset, duplex)
    result.pages.append(DocPage("cover"))
    components = loaded.spec.components
    problems: list[Problem] = check_groups(
        loaded.source,
        components,
        [next((g.pieces for g in groups if g.component is c), []) for c in components],
    )
    groups = _picked(groups, options)
    if options.duplex_test:
        result.pages += [DocPage("duplex-test", side="face"), DocPage("duplex-test", side="back")]
    stream: list[ComponentPieces] = []  # cards, tiles and tokens in a row: they share sheets
    for group in [*groups, None]:
        shared = group is not None and shares_sheets(group.component) and not _in_parts(group, frame, duplex)
        # Folded sheets hold fronts on half a page, so pieces with and without backs share none.
        if stream and (
            not shared or _sides_mode(stream[-1], frame, duplex) != _sides_mode(group, frame, duplex)
        ):
            try:
                result.pages += _shared_pages(stream, frame, duplex)
            except InputError as error:
                problems += error.problems
            stream = []
        if group is None:
            continue
        try:
            if shared:
                _check_fits(group, layout_frame(frame, _sides_mode(group, frame, duplex)))
                stream.append(group)
            else:
                result.pages += _component_pages(group, frame, duplex)
        except InputError as error:
            problems += error.problems
    if problems:
        raise InputError([_at_size(loaded, problem) for problem in problems])
    if len(result.pages) > limits.PAGES:  # backs and gaps the estimate above leaves out
        raise InputError(
            [
                loaded.source.problem(
                    ("components",),
                    Phrase(
                        N_(
                            "the build would be {count} pages (expected at most {most}; see Work "
                            "bounds in docs/spec.md)"
                        ),
                        count=len(result.pages),
                        most=limits.PAGES,
                    ),
                )
            ]
        )
    for warning in [*_narrow_gutters(loaded, result.pages, frame.bleed), *_rules_problems(loaded)]:
        ctx.warn(warning)
    _number_sheets(result.pages)
    result.inventory = [_inventory_line(group, result.pages, lang) for group in groups]
    result.cover_notes, result.cover_heading = options.cover_notes, options.cover_heading
    if options.sheets:
        result.sheet_total = max((p.sheet for p in result.pages), default=0)
        result.pages = _chosen_sheets(result.pages, options.sheets)
        result.sheets = options.sheets
    return result


NARROW_GUTTER = N_(
    "{component}: gutter {gutter} is narrower than two bleeds, so neighbouring bleeds overlap: each piece "
    "keeps {kept} mm of its {bleed} mm bleed, then its neighbour's art (expected gutter: {least}mm or more "
    "for the whole bleed, or 0 for shared cut lines)"
)


def _narrow_gutters(loaded: LoadedSpec, pages: Sequence[DocPage], bleed: float) -> list[Problem]:
    """A `gutter:` written wider than 0 but narrower than two bleeds is kept as written, and said at the
    gutter, for the rectangular pieces laid out with it that have a neighbour within it (their bleeds
    meet: each is clipped half-way across the gutter). A round or hex piece's, or a shelf's, gutter was
    raised to two bleeds; a gutter of 0 is butted pieces sharing their cut lines, as intended."""
    narrow: dict[str, tuple[int, float]] = {}  # by component: its index in the spec, its gutter
    for index, component in enumerate(loaded.spec.components):
        gutter = parse_length(component.gutter) if component.gutter is not None else 0.0
        if component.shape in ("rect", "square") and EPS < gutter < 2 * bleed - EPS:
            narrow[component.name] = (index, gutter)
    found: dict[str, Problem] = {}
    for page in pages:
        for placement in page.layout.placements if page.layout and narrow else ():
            component = page.pieces[placement.index].component
            if placement.clip is None or component.name not in narrow or component.name in found:
                continue
            index, gutter = narrow[component.name]
            said = Phrase(
                NARROW_GUTTER,
                component=component.name,
                gutter=repr(component.gutter),
                kept=f"{to_mm(gutter / 2):g}",
                bleed=f"{to_mm(bleed):g}",
                least=f"{to_mm(2 * bleed):g}",
            )
            found[component.name] = loaded.source.problem(("components", index, "gutter"), said)
    return list(found.values())


def _rules_problems(loaded: LoadedSpec) -> list[Problem]:
    """A broken `scoring:` or `setup:` section of the game.yaml built, as `score` and `setup` would refuse
    it: the cards still print, so `build` says it (located) rather than leaving it to the first score."""
    spec = Path(loaded.file)
    if spec.name != catalog.SPEC_NAME:  # another YAML file built: its folder's game.yaml is not this spec
        return []
    game = catalog.GameFolder(spec.parent.name, spec.parent, loaded.bundled)
    if not any(catalog.has_block(game, key) for key in ("scoring", "setup")):
        return []  # read, not parsed, and their engines not imported (nor the game contract)
    from pnpforge.gamedata import rules_problems

    return rules_problems(spec.parent)


def _picked(groups: list[ComponentPieces], options: BuildOptions) -> list[ComponentPieces]:
    """The pieces `--only component:ids` and a reprint keep; a component left with none is left out."""
    picked = pick_rows(groups, options.only)
    if options.pick is not None:  # both choose from the whole spec: keep what both keep
        kept = {id(piece) for group in options.pick(groups) for piece in group.pieces}
        picked = [ComponentPieces(g.component, [p for p in g.pieces if id(p) in kept]) for g in picked]
    if picked is groups:
        return groups
    return [group for group in picked if group.pieces]


def _chosen_sheets(pages: list[DocPage], numbers: Sequence[int]) -> list[DocPage]:
    """The cover, a duplex test, and the chosen sheets (fronts, backs, a board's assembly page)."""
    total = max((p.sheet for p in pages), default=0)
    beyond = [n for n in numbers if n > total]
    if beyond:
        raise InputError.single(
            CLI,
            Phrase(
                N_("--sheets: no sheet {number}: this build has {count} sheets (expected 1 to {count})"),
                number=beyond[0],
                count=total,
            ),
        )
    wanted = set(numbers)
    out: list[DocPage] = []
    for index, page in enumerate(pages):
        if page.kind == "assembly":  # it goes with the board's first sheet after it
            after = next((p for p in pages[index + 1 :] if p.kind == "pieces"), None)
            keep = after is not None and after.sheet in wanted
        else:
            keep = page.kind != "pieces" or page.sheet in wanted
        if keep:
            out.append(page)
    return out


def _back_offset(text: str | None, duplex: str) -> tuple[float, float]:
    """--back-offset "X,Y" (mm, right and down as seen on the back) in points; bounded, since a printer
    misaligned by more than a few millimetres needs fixing, not shifting."""
    if text is None:
        return (0.0, 0.0)
    where = f"--back-offset {text!r}"
    if duplex not in ("long", "short"):
        raise InputError.single(
            CLI,
            Phrase(
                N_(
                    "{where}: --duplex {duplex} prints no back pages to move (expected --duplex long "
                    "or short)"
                ),
                where=where,
                duplex=duplex,
            ),
        )
    values = [v.strip().removesuffix("mm").strip() for v in text.split(",")]
    try:
        x, y = (float(v) for v in values)
    except ValueError:
        x = y = float("nan")
    if not (abs(x) <= MAX_BACK_OFFSET_MM and abs(y) <= MAX_BACK_OFFSET_MM):
        raise InputError.single(
            CLI,
            Phrase(
                N_(
                    "{where} is not an offset (expected X,Y in mm, each between -{most} and {most}, "
                    "e.g. 1.5,-0.5)"
                ),
                where=where,
                most=f"{MAX_BACK_OFFSET_MM:g}",
            ),
        )
    return (mm(x), mm(y))


def layout_frame(frame: PageFrame, mode: str) -> PageFrame:
    """Where pieces are laid out: the page, or for a folded sheet the half holding the fronts (the backs
    mirror onto the other half; each half keeps the printer margin and the marks' band, at the fold too)."""
    if mode == "fold":
        return PageFrame(frame.width / 2, frame.height, frame.margin, frame.bleed)
    if mode == "fold-across":
        return PageFrame(frame.width, frame.height / 2, frame.margin, frame.bleed)
    return frame


def _sides_mode(group: ComponentPieces | None, frame: PageFrame, duplex: str) -> str:
    """How a group's backs print: --duplex as given, or with fold, "fold" (fronts left, backs right)
    when its pieces fit half a page side by side, else "fold-across" (fronts above, backs below) when
    they fit that way; "none" for pieces without backs."""
    if group is None or duplex != "fold":
        return duplex
    if not any(_has_back(p) for p in group.pieces):  # a row may have no back (back: false)
        return "none"
    sizes = {(p.width, p.height) for p in group.pieces}
    for mode in ("fold", "fold-across"):
        if group.component.kind == "board" or all(fits(*size, layout_frame(frame, mode)) for size in sizes):
            return mode
    return "fold"  # fits neither way: the error names the half page it needed


FONT_OPTION = N_("--font {font}: {problem}")  # a font file that is not a font, said at the option
FONT_KEY = N_("font {font}: {problem}")  # ... and at the spec's defaults.font


def drawing_setup(
    loaded: LoadedSpec, options: BuildOptions, fonts: FontRegistry | None = None
) -> tuple[PageFrame, str, RenderContext]:
    """The page frame, its name and the drawing context (language, fonts, bleed) of a build or export."""
    defaults = loaded.spec.defaults
    frame, page_name = _frame(loaded, options)
    if fonts is None:
        font_path = options.font
        if font_path is None and defaults.font:
            font_path = spec_font(loaded, defaults.font, options.allow_outside_files)
        try:
            fonts = FontRegistry(font_path)
        except InputError as error:  # said where the font was chosen: the option, or the spec's line
            problem = error.problems[0].message
            if options.font is not None:
                said = Phrase(FONT_OPTION, font=repr(str(options.font)), problem=problem)
                raise InputError.single(CLI, said) from None
            said = Phrase(FONT_KEY, font=repr(str(defaults.font)), problem=problem)
            raise InputError([loaded.source.problem(("defaults", "font"), said)]) from None
        fonts.chosen_at = _font_chosen_at(loaded, options)
    fonts.allow_outside = options.allow_outside_files
    lang = options.lang or defaults.lang
    ctx = RenderContext(lang, loaded.folder, frame.bleed, fonts, options.allow_outside_files, loaded.source)
    ctx.allow_outside_images = options.allow_outside_images
    ctx.icons = dict(loaded.spec.icons)
    ctx.draft = options.draft
    return frame, page_name, ctx


def _font_chosen_at(loaded: LoadedSpec, options: BuildOptions) -> Problem | None:
    """Where the build's font for Japanese was chosen: --font, else defaults.font's line (None: searched)."""
    if options.font is not None:
        return Problem("--font", 0, 0, "")
    if loaded.spec.defaults.font:
        return loaded.source.problem(("defaults", "font"), "")
    return None


def spec_font(loaded: LoadedSpec, name: str, allow_outside: bool) -> Path:
    """defaults.font: in the spec folder or a system font folder, unless --allow-outside-files."""
    try:
        return named_file(loaded.folder, name, "font", allow_outside=allow_outside, roots=SYSTEM_FONT_DIRS)
    except FileRefError as exc:
        raise InputError([loaded.source.problem(("defaults", "font"), reason(exc))]) from None


def stamp_of(loaded: LoadedSpec, options: BuildOptions) -> str:
    """The draft a build says it is: --stamp, else the spec's game.version, else nothing."""
    if options.stamp is not None:
        return options.stamp.strip()
    return (loaded.spec.game.version or "").strip()


def pieces_of(
    loaded: LoadedSpec, options: BuildOptions, frame: PageFrame, ctx: RenderContext, *, check: bool
) -> list[ComponentPieces]:
    """The pieces of the chosen components; on a problem, every face's problems are listed too.

    Every row gains the field `version` (the build's stamp) unless it has its own column of that name.
    """
    fields = {"version": stamp_of(loaded, options)}
    names, _ = split_only(options.only)  # rows named by `--only component:ids` are picked in `plan`
    try:
        groups = expand(loaded, ctx.lang, frame.area, names, _row_checker(ctx) if check else None, fields)
    except InputError:
        if not check:  # list the faces' problems along with these
            expand(loaded, ctx.lang, frame.area, names, _row_checker(ctx), fields)
        raise
    _check_bleed(loaded, groups, frame.bleed)
    return groups


def _check_page_estimate(loaded: LoadedSpec, groups: Sequence[ComponentPieces], frame: PageFrame) -> None:
    """At least how many pages the pieces need (their trim area over the page's, a page per sheet, each
    board's parts), refused past `limits.PAGES` before any is laid out: laying out is the long part."""
    aw, ah = frame.area
    pages = 0.0
    for group in groups:
        if not group.pieces or aw <= 0 or ah <= 0:
            continue
        w, h = group.pieces[0].width, group.pieces[0].height  # trims: shared cuts and bleeds add nothing
        if group.component.kind == "sheet":
            pages += len(group.pieces)
        elif group.component.kind == "board" or w > aw or h > ah:
            pages += len(group.pieces) * math.ceil(w / aw) * math.ceil(h / ah)
        else:
            pages += len(group.pieces) * w * h / (aw * ah)
        if pages > limits.PAGES:
            index = loaded.spec.components.index(group.component)
            message = Phrase(
                N_(
                    "component {name} brings the build to at least {count} pages "
                    "(expected at most {most}; see Work bounds in docs/spec.md)"
                ),
                name=repr(group.component.name),
                count=math.ceil(pages),
                most=limits.PAGES,
            )
            raise InputError([loaded.source.problem(("components", index, "count"), message)])


def _check_bleed(loaded: LoadedSpec, groups: Sequence[ComponentPieces], bleed: float) -> None:
    """Bleed at most `limits.BLEED_RATIO` of every piece's longer side: the art drawn past the cut (and a
    pattern's marks in it) then stays in proportion to the piece, and 1000mm for 1mm is caught."""
    for group in groups:
        if not group.pieces:
            continue
        side = min(max(piece.width, piece.height) for piece in group.pieces) * limits.BLEED_RATIO
        if bleed > side:
            message = Phrase(
                N_(
                    "bleed {bleed} mm is more than the pieces of {name} "
                    "({side} mm; expected at most a piece's longer side, e.g. 3mm)"
                ),
                bleed=f"{to_mm(bleed):g}",
                name=repr(group.component.name),
                side=f"{to_mm(side):g}",
            )
            where = loaded.source.where(("defaults", "bleed"))
            raise InputError([Problem(loaded.file, *where, message)])


class RowPlace:
    """A piece's data row and component, as glyph warnings name them: written out only when a warning
    is, since a row's line in a YAML file costs a second, slow parse of that file."""

    __slots__ = ("piece",)

    def __init__(self, piece: Piece) -> None:
        self.piece = piece

    def __str__(self) -> str:
        ref = self.piece.row_ref  # a sheet's row is its cell (`deck.xlsx[Deck]!A2`), with no line
        return f"{ref.file}{f':{ref.line}' if ref.line else ''}: {self.piece.component.name}"


def _row_checker(ctx: RenderContext) -> Callable[[Piece], list[Problem]]:
    def check(piece: Piece) -> list[Problem]:
        ctx.fonts.context = RowPlace(piece)
        if piece.component.kind == "die":  # each face has its own {face} and {value}
            return [
                p for n in face_numbers(piece.component) for p in check_side(die_face(piece, n), "face", ctx)
            ]
        found = check_side(piece, "face", ctx)
        if piece.component.back is not None:
            found += check_side(piece, "back", ctx)
        return found

    return check


def _number_sheets(pages: Sequence[DocPage]) -> None:
    """Number the piece pages' sheets in print order: each front a new sheet, its back the same one."""
    number = 0
    for page in pages:
        if page.kind == "pieces":
            number += page.side == "face"
            page.sheet = number


def components_on(page: DocPage) -> list[str]:
    """The names of the components with a piece on the page, in order."""
    placements = page.layout.placements if page.layout else []
    return list(dict.fromkeys(page.pieces[p.index].component.name for p in placements))


def _inventory_line(group: ComponentPieces, pages: Sequence[DocPage], lang: str) -> InventoryLine:
    c = group.component
    sizes = sorted(
        {(round(to_mm(w), 1), round(to_mm(h), 1)) for w, h in {(p.width, p.height) for p in group.pieces}}
    )
    shown = ", ".join(f"{w:g} × {h:g} mm" for w, h in sizes[:2]) + (" …" if len(sizes) > 2 else "")
    if c.kind == "die":
        first = group.pieces[0] if group.pieces else None
        edge = (first.height if c.faces == 10 else first.width) if first else 0.0  # d10: long diagonal
        shown = f"{to_mm(edge):g} mm d{c.faces}" if first else ""
    numbers = tuple(
        dict.fromkeys(p.sheet for p in pages if p.kind == "pieces" and c.name in components_on(p) and p.sheet)
    )
    title = localise(c.title, lang) if c.title else c.name
    shape = c.shape or "rect"
    return InventoryLine(
        c.name,
        title,
        c.kind,
        shape,
        shown,
        len(group.pieces),
        sides(c),
        len(numbers),
        numbers,
        parts(c, group.pieces, lang),
    )


def sides(component: Component) -> int:
    return 2 if component.back is not None and component.kind != "die" else 1


TOO_LARGE = N_(
    "{component}: a {size} mm {kind} does not fit on the page, even turned "
    "({area} mm inside the printer margins and crop marks){hint}"
)
TOO_LARGE_BLEED = N_(
    "{component}: a {size} mm {kind} with its {bleed} mm bleed does not fit on the page, even turned "
    "({area} mm inside the printer margins and crop marks){hint}"
)
TOO_LARGE_NET = N_(
    "{component}: a {size} mm {kind} net does not fit on the page, even turned "
    "({area} mm inside the printer margins and crop marks){hint}"
)


def _at_size(loaded: LoadedSpec, problem: Problem) -> Problem:
    """A piece too large for the page said at its component's `size:`, unless a row fills the size in
    (then at the row, as found)."""
    said = problem.message
    if not (isinstance(said, Phrase) and said.template in (TOO_LARGE, TOO_LARGE_BLEED, TOO_LARGE_NET)):
        return problem
    for index, component in enumerate(loaded.spec.components):
        filled = isinstance(component.size, str) and PLACEHOLDER.search(component.size)
        if component.name == said.values["component"] and not filled:
            return loaded.source.problem(("components", index, "size"), said)
    return problem


def _too_large(component: Component, piece: Piece, frame: PageFrame, what: str = "") -> InputError:
    w, h = to_mm(piece.width), to_mm(piece.height)
    if what:  # a die: its whole net is what must fit
        w, h = (to_mm(v) for v in _net_size(component, piece))
    aw, ah = (to_mm(v) for v in frame.area)
    size = (mm(w), mm(h))
    # a round or hex piece that fits only without its bleed (a rectangular one is printed in parts)
    short = not what and fits(*size, frame)
    grown = (size[0] + 2 * frame.bleed, size[1] + 2 * frame.bleed) if short else size
    better = pages_that_fit(*grown, frame.margin)
    room = to_mm(2 * frame.inset)
    hint = (
        Phrase(N_("; it fits on {pages} (try --page {page})"), pages=better, page=better[0])
        if better
        else Phrase(
            N_("; try --page WxH with room for {size}mm"),
            size=f"{to_mm(grown[0]) + room:.0f}x{to_mm(grown[1]) + room:.0f}",
        )
    )
    template = TOO_LARGE_NET if what else (TOO_LARGE_BLEED if short else TOO_LARGE)
    return InputError(
        [
            Problem(
                piece.row_ref.file,
                piece.row_ref.line,
                0,
                Phrase(
                    template,
                    component=component.name,
                    size=f"{w:.1f} × {h:.1f}",
                    kind=component.kind,
                    area=f"{aw:.0f} × {ah:.0f}",
                    bleed=f"{to_mm(frame.bleed):g}",
                    hint=hint,
                ),
            )
        ]
    )


def shares_sheets(component: Component) -> bool:
    """Cards, tiles and tokens continue in the room left on the sheet before; boards, sheets, dice do not."""
    return component.kind in ("card", "tile", "token")


def _too_long(component: Component, piece: Piece, frame: PageFrame) -> bool:
    """A card, tile or token (rectangular) that fits the page only with less than its bleed past an
    edge: it is printed in parts, as a board is, each part keeping its bleed."""
    return (
        component.kind in ("card", "tile", "token")
        and component.shape in ("rect", "square")
        and fits(piece.width, piece.height, frame)
        and not keeps_bleed(piece.width, piece.height, frame)
    )


def _in_parts(group: ComponentPieces, frame: PageFrame, duplex: str) -> bool:
    """Whether some of a group's pieces are printed in parts (on sheets of their own, as boards are)."""
    lay_frame = layout_frame(frame, _sides_mode(group, frame, duplex))
    return any(_too_long(group.component, piece, lay_frame) for piece in group.pieces)


def _net_size(component: Component, piece: Piece) -> tuple[float, float]:
    """A die net's extent with its tabs, laid out on a page big enough to hold it."""
    edge = piece.height if component.faces == 10 else piece.width
    big = PageFrame(piece.width * 20, piece.height * 20, 0, 0)
    lay = d10_nets if component.faces == 10 else die_nets
    x0, y0, x1, y1 = lay(1, edge, big)[0].block or (0, 0, 0, 0)
    return x1 - x0, y1 - y0


def _check_fits(group: ComponentPieces, frame: PageFrame) -> None:
    for pieces in _by_size(group.pieces):
        if not fits(pieces[0].width, pieces[0].height, frame):
            raise _too_large(group.component, pieces[0], frame)


def _has_back(piece: Piece) -> bool:
    return piece.component.back is not None and piece.component.kind != "die"


def _layout_key(group: ComponentPieces) -> tuple[object, ...] | None:
    """Components with equal keys lay out alike, so consecutive ones continue one block; None: never."""
    c = group.component
    if c.shape == "polyhex":  # nested tiles interlock whatever their outlines
        return ("polyhex", c.gutter)
    if len(_by_size(group.pieces)) != 1:
        return None
    first = group.pieces[0]
    return (c.shape, round(first.width, 3), round(first.height, 3), c.layout, c.gutter, c.orientation)


def _runs(groups: Sequence[ComponentPieces]) -> list[tuple[list[Piece], bool]]:
    """The pieces of each block, and whether it starts a sheet: consecutive look-alikes form one block."""
    out: list[tuple[list[Piece], bool]] = []
    last: tuple[object, ...] | None = None
    for group in groups:
        key = _layout_key(group)
        if not group.pieces:
            continue
        if out and key is not None and key == last and not group.component.new_sheet:
            out[-1][0].extend(group.pieces)
        else:
            out.append((list(group.pieces), group.component.new_sheet))
        last = key
    return out


def _shared_pages(groups: Sequence[ComponentPieces], frame: PageFrame, duplex: str) -> list[DocPage]:
    """Pages of cards, tiles and tokens, each block continuing in the room left below the one before."""
    runs: list[Run] = []
    pieces: list[Piece] = []
    mode = _sides_mode(groups[0] if groups else None, frame, duplex)
    lay_frame = layout_frame(frame, mode)
    for run_pieces, new_sheet in _runs(groups):

        def lay(items: Sequence[int], region: Rect, run: list[Piece] = run_pieces) -> list[PageLayout]:
            chosen = [run[i] for i in items]
            return _layouts(chosen[0].component, chosen, lay_frame, region)

        runs.append(Run(len(run_pieces), lay, new_sheet))
        pieces += run_pieces
    try:
        layouts = share(runs, lay_frame)
    except DoesNotFit as error:
        piece = pieces[error.index]
        raise _too_large(piece.component, piece, lay_frame) from None
    out = []
    for layout in layouts:
        first = pieces[layout.placements[0].index].component
        out += _sides(layout, pieces, first, frame, mode)
    return out


def _sides(
    layout: PageLayout, pieces: Sequence[Piece], component: Component, frame: PageFrame, mode: str
) -> list[DocPage]:
    """A sheet's front page and, when a piece on it has a back, its back: the next page, mirrored for the
    flip, or on a folded sheet the front page's other half, mirrored about the fold."""
    front = DocPage("pieces", layout, pieces, "face", component)
    if mode == "none" or not any(_has_back(pieces[p.index]) for p in layout.placements):
        return [front]
    # folding about the centre line turns the half over as a long-edge flip does; across, a short-edge one
    flip = {"fold": "long", "fold-across": "short"}.get(mode, mode)
    back = backs(layout, frame, flip, lambda i: _has_back(pieces[i]))
    if flip != mode:
        front.folded, front.fold_across = back, mode == "fold-across"
        return [front]
    return [front, DocPage("pieces", back, pieces, "back", component)]


def _by_size(pieces: Sequence[Piece]) -> list[list[Piece]]:
    groups: dict[tuple[float, float], list[Piece]] = {}
    rounded: dict[tuple[float, float], tuple[float, float]] = {}  # a deck has one size: rounded once
    for piece in pieces:
        size = (piece.width, piece.height)
        key = rounded.get(size)
        if key is None:
            key = rounded[size] = (round(piece.width, 3), round(piece.height, 3))
        groups.setdefault(key, []).append(piece)
    return list(groups.values())


def _component_pages(group: ComponentPieces, frame: PageFrame, duplex: str) -> list[DocPage]:
    component = group.component
    out: list[DocPage] = []
    mode = _sides_mode(group, frame, duplex)
    lay_frame = layout_frame(frame, mode)
    for pieces in _by_size(group.pieces):
        layouts = _layouts(component, pieces, lay_frame)
        parts = tuple(b.board for lay in layouts for b in lay.blocks if b.board and not b.board.copy)
        if parts:
            out.append(DocPage("assembly", pieces=pieces[:1], component=component, board_parts=parts))
            if not parts[0].copies:  # page-sized parts: each copy's pages in turn
                for copy in range(len(pieces)):
                    out += _with_backs([pieces[copy]], layouts, frame, mode)
                continue
        out += _with_backs(pieces, layouts, frame, mode)
    return out


def _with_backs(
    pieces: Sequence[Piece], layouts: list[PageLayout], frame: PageFrame, mode: str
) -> list[DocPage]:
    return [page for layout in layouts for page in _sides(layout, pieces, pieces[0].component, frame, mode)]


def _layouts(
    component: Component, pieces: Sequence[Piece], frame: PageFrame, region: Rect | None = None
) -> list[PageLayout]:
    """Pages for pieces of one block; with `region`, its trims lie there and the block sits at its top."""
    first = pieces[0]
    count = len(pieces)
    gutter = parse_length(component.gutter) if component.gutter is not None else None
    if component.kind == "board" or _too_long(component, first, frame):
        overlap = parse_length(component.overlap)
        if not 0 <= overlap < min(frame.area) / 2:  # parts must advance across the board
            widest = to_mm(min(frame.area) / 2)
            raise InputError.single(
                first.row_ref.file,
                Phrase(
                    N_(
                        "{component}: overlap {value} does not fit the page (expected 0 to less than "
                        "{most} mm)"
                    ),
                    component=component.name,
                    value=repr(component.overlap),
                    most=f"{widest:.0f}",
                ),
                first.row_ref.line,
            )
        from pnpforge.layouts.imposition.boards import board  # only boards use it (start-up speed)

        return board(first.width, first.height, frame, overlap, count)
    if not fits(first.width, first.height, frame):
        raise _too_large(component, first, frame)
    if component.kind == "sheet":
        from pnpforge.layouts.imposition.boards import sheets  # only sheets use it (start-up speed)

        return sheets(count, first.width, first.height, frame)
    if component.kind == "die":
        if component.faces == 10:
            pages = d10_nets(count, first.height, frame)
        else:
            pages = die_nets(count, first.width, frame)
        if not pages:
            raise _too_large(component, first, frame, "net")
        return pages
    layout = component.layout
    shape = component.shape
    spaced_gutter = gutter if gutter is not None else 2 * frame.bleed
    if shape == "polyhex":
        from pnpforge.layouts.imposition.nesting import nest  # only polyhex tiles are nested (start-up speed)

        tiles = [(p.cells, p.width) for p in pieces]
        return nest(tiles, frame, max(spaced_gutter, 2 * frame.bleed), region)
    if len(_by_size(pieces)) > 1:
        sizes = [(p.width, p.height) for p in pieces]
        turn = shape in ("rect", "square")
        return shelves(sizes, frame, max(spaced_gutter, 2 * frame.bleed), region, allow_turn=turn)
    outline = bleed_outline(first, frame.bleed)
    if shape in ("hex", "circle") and layout in ("auto", "honeycomb", "packed", "spaced"):
        from pnpforge.layouts.imposition.lattice import lattice  # hex and round pieces alone (start-up speed)

        flat = shape == "hex" and component.orientation == "flat"
        if shape == "hex" and layout in ("auto", "honeycomb", "packed"):
            return lattice(
                count, first.width, first.height, frame, 0.0, flat, outline, shared_edges=True, region=region
            )
        # Apart, each keeps its whole bleed only two bleeds from its neighbour (a round piece shares no
        # cut line): a smaller gutter would leave each half its bleed, so it is raised to that.
        gap = max(spaced_gutter, 2 * frame.bleed)
        return lattice(count, first.width, first.height, frame, gap, flat, outline, region=region)
    if layout == "spaced" or shape not in ("rect", "square"):  # round or hex pieces in a grid: apart too
        gap = spaced_gutter if shape in ("rect", "square") else max(spaced_gutter, 2 * frame.bleed)
        pages = grid(count, first.width, first.height, frame, gap, outline, allow_turn=False, region=region)
    else:
        turn = shape == "rect"
        pages = grid(count, first.width, first.height, frame, gutter, outline, turn, region)
    if shape != "rect" and shape != "square":
        for page in pages:
            page.outlines = True
    return pages


def inventory(loaded: LoadedSpec, options: BuildOptions | None = None) -> list[InventoryLine]:
    """Each component with its piece count, sides and sheets on the spec's default page (no drawing)."""
    return plan(loaded, options or BuildOptions(), FontRegistry(search=False), check=False).inventory


# ---- pieces as drawn ----------------------------------------------------------------------------


def back_of(piece: Piece) -> Piece:
    """The piece as seen from behind: an asymmetric polyhex outline is mirrored left-right.

    (q, r) -> (-q - r, r) mirrors pointy-top axial cells about a vertical line. Short-edge backs are
    turned 180° as well, which makes their mirror top-bottom, as the flipped sheet needs.
    """
    if not piece.cells:
        return piece
    cells = tuple((-q - r, r) for q, r in piece.cells)
    return Piece(piece.component, piece.row, piece.row_ref, piece.copy, piece.width, piece.height, cells)


def face_numbers(component: Component) -> range:
    """A d6's faces are 1–6, a d10's 0–9 (a placement's `face` is the number + 1 for a d10)."""
    return range(10) if component.faces == 10 else range(1, 7)


def die_face(piece: Piece, face: int) -> Piece:
    """One die face's row: {face}, {value} (column face<n>) and {value_x} (columns face<n>_x, e.g. _ja)."""
    prefix = f"face{face}_"
    own = {f"value_{k.removeprefix(prefix)}": v for k, v in piece.row.items() if k.startswith(prefix)}
    row = {**piece.row, **own, "face": face, "value": piece.row.get(f"face{face}", face)}
    return Piece(piece.component, row, piece.row_ref, piece.copy, piece.width, piece.height, piece.cells)
