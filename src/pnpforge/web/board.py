"""Set-ups on the page: deal one, check one, and draw the board as inline SVG with the violations marked.

The deal and the check are the CLI's (`setupfile.deal_setup`, `dump_yaml`, `load_source`, `check_loaded`);
the picture is the game's own `checks.picture` (its texts in the page's language), drawn by
`boardpic.svg_text` as for `setup --draw`. Marks are laid over that drawing from each violation's `where`:
every `[q, r]` pair in it is a hex cell, and a pair of neighbouring cells also marks the side between them.
"""

from __future__ import annotations

import base64
import math
import re
import shlex
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from typing import Any

from pnpforge import catalog, contract, i18n
from pnpforge.errors import InputError, Problem
from pnpforge.geometry import hexgrid
from pnpforge.i18n import N_
from pnpforge.phrase import Phrase
from pnpforge.sourcefile import Source, read_yaml_text, yaml_words
from pnpforge.table import setupfile
from pnpforge.validator.picture import BoardPicture, centroid
from pnpforge.validator.picture import said as said_picture
from pnpforge.validator.report import Report, Violation

SETUP_FILE = "setup.yaml"  # the name messages use: what the page offers to download
OTHER_GAME = N_("this is a {game} set-up, not {expected}")
NOT_TEXT = N_("not a YAML text file: {reason}")


@dataclass(frozen=True)
class Key:
    """A legend entry as the page shows it: its words, beside its swatch (an SVG picture's data URI)."""

    text: str
    swatch: str


@dataclass
class Checked:
    """A set-up read and checked: its text, the validator's report and the board drawn with marks; the
    picture's title and legend are text of the page (`title`, `legend`), not drawn in the board, so
    they keep the page's size when the board is shrunk to the screen."""

    text: str
    report: Report
    svg: str = ""
    unmarked: list[int] = field(default_factory=list)  # indices of errors with nothing to mark
    title: str = ""
    legend: list[Key] = field(default_factory=list)


def deal(game_id: str, players: int, seed: int, options: dict[str, str]) -> tuple[str, dict[str, Any]]:
    """The set-up file `pnpforge setup GAME --players N --seed S --option K=V` prints, and its data."""
    data = setupfile.deal_setup(game_id, players, seed, options)
    replay = ["pnpforge", "setup", game_id, "--players", str(players), "--seed", str(seed)]
    replay += [word for key, value in options.items() for word in ("--option", f"{key}={value}")]
    return setupfile.dump_yaml(data, "dealt by: " + shlex.join(replay)), data


def deal_text(game_id: str, players: int, seed: int, options: dict[str, str]) -> str:
    return deal(game_id, players, seed, options)[0]


def said(checked: Checked, game_id: str, lang: str) -> Checked:
    """The check with its violations in `lang`, in the game's words; codes, places, marks unchanged."""
    if lang == i18n.SOURCE:
        return checked
    return replace(checked, report=checked.report.said(contract.load(game_id).translator(lang)))


def check(
    text: str, game_id: str | None = None, file: str = SETUP_FILE, lang: str = "en", spots: bool = False
) -> Checked:
    """Read, type-check and check a set-up text; InputError when it cannot be read as one. The board is
    drawn with its title and legend in `lang` (the game's words, as `setup --draw --lang`)."""
    source = read_text(text, file, "setup")
    named = catalog.game_of(source, "set-up file")
    if game_id is not None and named.id != game_id:
        raise InputError([source.problem(("game",), Phrase(OTHER_GAME, game=named.id, expected=game_id))])
    loaded = setupfile.load_source(source)
    report = setupfile.check_loaded(loaded)
    picture_of = loaded.rules.picture
    checked = Checked(text, report)
    if picture_of is not None:
        pic = picture_of(loaded.setup)
        if lang != i18n.SOURCE:
            pic = said_picture(pic, loaded.game.translator(lang))
        cells = cells_in(source.data) if spots else []
        checked.title, checked.legend = pic.title, legend(pic)
        bare = replace(pic, title="", legend=[])
        checked.svg, checked.unmarked = marked_svg(bare, report.errors, cells)
    return checked


def legend(pic: BoardPicture) -> list[Key]:
    """The picture's legend, each entry's swatch drawn as the picture's own legend draws it."""
    from pnpforge.layouts import boardpic

    out = []
    for entry in pic.legend:
        picture = base64.b64encode(boardpic.swatch_svg(entry, pic.palette).encode("utf-8")).decode("ascii")
        out.append(Key(entry[1], f"data:image/svg+xml;base64,{picture}"))
    return out


def read_text(text: str, file: str, kind: str = "") -> Source:
    """`read_yaml_text`, with the YAML reader's refusal of a body that is not text as a located error;
    `kind` ("setup", "score") bounds its size (`limits.FILE_BOUNDS`)."""
    from ruamel.yaml.error import YAMLError

    try:
        return read_yaml_text(text, file, kind)
    except InputError:
        raise
    except YAMLError as exc:  # e.g. control characters: a binary upload, not a YAML file
        mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
        line, col = (mark.line + 1, mark.column + 1) if mark else (0, 0)
        what = str(getattr(exc, "problem", None) or exc).splitlines()[0].strip()
        raise InputError([Problem(file, line, col, Phrase(NOT_TEXT, reason=yaml_words(what)))]) from None


# -- drawing -----------------------------------------------------------------------------------------


def _coords(
    where: Any, cells_only: bool = False
) -> Iterator[tuple[int, int] | tuple[tuple[int, int], tuple[int, int]]]:
    """Cells `(q, r)` and neighbouring pairs `((q, r), (q, r))` (a side: a camel, a river) found anywhere
    in a violation's `where`; under a `cells` or `groups` key every pair is two cells, never a side."""
    if _is_cell(where):
        yield (where[0], where[1])
    elif isinstance(where, list | tuple):
        cells = [(w[0], w[1]) for w in where if _is_cell(w)]
        if (
            not cells_only
            and len(where) == 2
            and len(cells) == 2
            and hexgrid.distance(cells[0], cells[1]) == 1
        ):
            yield (cells[0], cells[1])
        for item in where:
            yield from _coords(item, cells_only)
    elif isinstance(where, dict):
        for key, item in where.items():
            yield from _coords(item, cells_only or key in ("cells", "groups"))


def _is_cell(value: Any) -> bool:
    return (
        isinstance(value, list | tuple)
        and len(value) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    )


def _hex_size(pic: BoardPicture) -> float | None:
    """The circumradius the game drew its hexes with, read back from the first hexagon of the picture."""
    for cell in pic.cells:
        if len(cell.points) == 6:
            return math.dist(centroid(cell.points), cell.points[0])
    return None


def _overlay(pic: BoardPicture, errors: list[Violation]) -> tuple[list[str], list[int]]:
    """SVG elements in the picture's millimetres marking each error, and the errors left unmarked.

    Marks are outlines (a cell's edge, a side's line, a dashed ring round one or two cells) and a
    numbered badge per violation beside its first mark: nothing fills a tile, so every tile keeps its
    colour. Marks of the same shape (two faults of one caravan) are one element naming both."""
    from pnpforge.validator.picture import side_points

    size = pic.grid or _hex_size(pic)
    hexes = [(centroid(cell.points), cell.points) for cell in pic.cells if len(cell.points) == 6]
    shapes: dict[str, list[int]] = {}  # an element's geometry -> the violations it marks
    badges: list[str] = []
    taken: dict[tuple[int, int], int] = {}  # badges already at a spot: the next one beside them
    unmarked: list[int] = []
    for index, violation in enumerate(errors):
        items = list(_coords(violation.where)) if size else []
        cells = list(dict.fromkeys(i for i in items if isinstance(i[0], int)))
        sides = [i for i in items if isinstance(i[0], tuple)]
        anchor: tuple[float, float] | None = None
        lines = []
        for a, b in sides:
            ends = side_points(a, b, size)  # type: ignore[arg-type]
            if len(ends) == 2:
                (x1, y1), (x2, y2) = (pic.place(end) for end in ends)  # turned as the board was
                lines.append(f"M{x1:.2f} {y1:.2f}L{x2:.2f} {y2:.2f}")
                anchor = anchor or ((x1 + x2) / 2, (y1 + y2) / 2)
        if lines:  # a caravan's sides: one line through them all
            shapes.setdefault(f'<path d="{" ".join(lines)}"', []).append(index)
        for cell in cells:
            x, y = pic.place(hexgrid.to_pixel(cell, size))  # type: ignore[arg-type]
            anchor = anchor or (x, y)
            points = next((p for c, p in hexes if math.dist(c, (x, y)) < size * 0.3), None)  # type: ignore[operator]
            if points is None:
                shapes.setdefault(f'<circle cx="{x:.2f}" cy="{y:.2f}" r="{size * 0.6:.2f}"', []).append(index)  # type: ignore[operator]
                continue
            shape = " ".join(f"{px:.2f},{py:.2f}" for px, py in points)
            shapes.setdefault(f'<polygon points="{shape}"', []).append(index)
            if len(cells) <= 2:  # a dashed ring round one or two cells, seen at a glance on a phone
                ring = f'<circle class="ring" cx="{x:.2f}" cy="{y:.2f}" r="{size * 1.35:.2f}"'  # type: ignore[operator]
                shapes.setdefault(ring, []).append(index)
        if anchor is None:
            unmarked.append(index)
            continue
        spot = (round(anchor[0]), round(anchor[1]))
        shift = taken.get(spot, 0)
        taken[spot] = shift + 1
        r = size * 0.42  # type: ignore[operator]
        bx, by = anchor[0] + size * 0.55 + shift * 2.1 * r, anchor[1] - size * 0.55  # type: ignore[operator]
        badges.append(
            f'<g class="badge" data-error="{index}"><circle cx="{bx:.2f}" cy="{by:.2f}" r="{r:.2f}"/>'
            f'<text x="{bx:.2f}" y="{by:.2f}" font-size="{r * 1.25:.2f}" text-anchor="middle" '
            f'dominant-baseline="central">{index + 1}</text></g>'
        )
    parts = []
    for geometry, indices in shapes.items():
        codes = " ".join(dict.fromkeys(errors[i].code for i in indices))
        named = " ".join(str(i) for i in indices)
        tag, attributes = geometry[1:].split(" ", 1)
        kind = "mark ring" if attributes.startswith('class="ring" ') else "mark"
        attributes = attributes.removeprefix('class="ring" ')
        parts.append(f'<{tag} class="{kind}" data-error="{named}" data-code="{codes}" {attributes}/>')
    return parts + badges, unmarked


LABEL_PX = 12  # CSS px: the smallest text on the board is at least this tall when the board is zoomed


def _readable_width(svg: str) -> int:
    """The width (CSS px) at which the drawing's smallest text is `LABEL_PX` tall: the page shows the
    board this wide in a box of its own that scrolls, so every label can be read on a phone."""
    view = re.search(r'viewBox="[-\d.]+ [-\d.]+ ([\d.]+) [\d.]+"', svg)
    sizes = [float(size) for size in re.findall(r'<text[^>]*font-size="([\d.]+)"', svg)]
    if not view or not sizes:
        return 0
    return math.ceil(float(view.group(1)) * LABEL_PX * 1.05 / min(sizes))  # 5 %: glyph boxes round down


def _spots(pic: BoardPicture, cells: list[tuple[int, int]]) -> list[str]:
    """A hidden ring per cell the written steps name, found by its `data-cell` when a step is tapped
    (the picture labels no coordinates: this is how "[-5, 6]" is found on the board)."""
    size = pic.grid or _hex_size(pic)
    if not size:
        return []
    out = []
    for q, r in cells:
        x, y = pic.place(hexgrid.to_pixel((q, r), size))
        out.append(
            f'<circle class="spot" data-cell="{q},{r}" cx="{x:.2f}" cy="{y:.2f}" r="{size * 0.8:.2f}"/>'
        )
    return out


def cells_in(data: Any) -> list[tuple[int, int]]:
    """Every cell `[q, r]` a set-up's data names, in the order it names them, once each."""
    return list(dict.fromkeys(item for item in _coords(data) if isinstance(item[0], int)))


def marked_svg(
    pic: BoardPicture, errors: list[Violation], spots: list[tuple[int, int]] | None = None
) -> tuple[str, list[int]]:
    """The `setup --draw` SVG, scalable to the screen, with a group of marks over the board (and the
    hidden `spots` of the cells the written steps name)."""
    from pnpforge.layouts import boardpic
    from pnpforge.units import mm

    svg = boardpic.svg_text(pic)
    svg = re.sub(r'^<svg([^>]*?) height="[^"]*"', r"<svg\1", svg, count=1, flags=re.S)
    readable = _readable_width(svg)  # none without labels: the page zooms such a board to twice its width
    style = f' style="--readable: {readable}px"' if readable else ""
    svg = re.sub(
        r'^(<svg[^>]*?) width="[^"]*"',
        rf'\1 class="board" role="img"{style}',
        svg,
        count=1,
        flags=re.S,
    )
    svg = re.sub(r"^<\?xml[^>]*>\s*", "", svg)
    parts, unmarked = _overlay(pic, errors)
    parts += _spots(pic, spots or [])
    if parts:
        layout = boardpic.frame(pic)
        transform = (
            f"scale({mm(1):.6f}) translate({layout.ox:.3f} {layout.oy:.3f})"  # the drawing's mm → points
        )
        group = f'<g class="marks" transform="{transform}">{"".join(parts)}</g>'
        svg = svg[: svg.rindex("</svg>")] + group + "</svg>"
    return svg, unmarked


# -- the written steps -------------------------------------------------------------------------------

_SKIP = {"game"}


def _same(english: str) -> str:
    return english


def steps(data: Any, tr: Callable[[str], str] = _same, lang: str = "en") -> list[tuple[str, list[str]]]:
    """What goes where, section by section of a dealt set-up's data, in the file's own order and words.

    `tr` says the file's keys and word values in the page's language (the game's words); ids it
    does not hold, numbers and cells stay as the file has them."""
    from pnpforge.web.text import WORDS

    say = i18n.translator(lang)
    sep, none = say(i18n.LIST), say(WORDS["none"])

    def phrase(value: Any) -> str:
        if isinstance(value, dict):
            return sep.join(f"{tr(k)} {phrase(v)}" for k, v in value.items())
        if _is_cell(value):
            return f"[{value[0]}, {value[1]}]"
        if isinstance(value, list | tuple):
            return sep.join(phrase(v) for v in value) if value else none
        if value is None:
            return none  # a neutral piece: no player
        return tr(value) if isinstance(value, str) else str(value)

    out: list[tuple[str, list[str]]] = []

    def walk(title: str, value: Any) -> None:
        if isinstance(value, dict) and any(isinstance(v, list | dict) for v in value.values()):
            for key, item in value.items():
                walk(f"{title} · {tr(key)}", item)
        elif isinstance(value, list) and value and all(isinstance(v, dict | list) for v in value):
            if all(_is_cell(v) for v in value):
                out.append((title, [phrase(value)]))
            else:
                out.append((title, [phrase(v) for v in value]))
        else:
            out.append((title, [phrase(value)]))

    for key, value in data.items() if isinstance(data, dict) else ():
        if key not in _SKIP:
            walk(tr(str(key)), value)
    return out
