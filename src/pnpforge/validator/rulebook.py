"""Set-up rules written as data: a game.yaml's `setup:` section, run (docs/setups.md, "Set-up rules as data").

`load(game)` reads and checks the section (every mistake one located problem, exit 2). The `Rulebook` it
returns is what `pnpforge validate`, `setup --draw` and the table page's set-up check use: `model` types a
set-up file (`game`, `players`, `pieces:` of `{piece, at: [q, r], player}`), `check` returns every rule
broken, `picture` draws the board with its pieces. The board is a hex data file of the game (the one its
`hexmap` element prints); adjacency and groups are the geometry engine's. Nothing here knows a game.

A game that keeps its own set-up file or builds its board in Python (Good Shepherds' farm with its
crossed-out pastures, Delphi's rotated tiles) hands the data rules a `Table` of its own making:
`judge(table, report)` runs the section's rules on it (gamekit's `data_rules` finds the book).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from functools import cached_property
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Annotated, Any, NamedTuple

from pnpforge import catalog
from pnpforge.components.sections import english, in_language, literal, loaded
from pnpforge.components.setuprules import Board as BoardSpec
from pnpforge.components.setuprules import RuleSpec, SetupSection, setup_problems, setup_texts
from pnpforge.errors import InputError, Problem
from pnpforge.geometry import hexgrid
from pnpforge.geometry.cells import components, hex_adjacency
from pnpforge.geometry.hexgrid import Hex
from pnpforge.i18n import N_
from pnpforge.lightmodel import Key, StrictBool, StrictInt, create_model
from pnpforge.phrase import Phrase, series
from pnpforge.sourcefile import Source, read_yaml
from pnpforge.validator.report import Report
from pnpforge.validator.setupkit import Coord, SetupModel, player_count, reject_unknown_options

if TYPE_CHECKING:  # a picture's names, imported by `draw`: checking a set-up never draws
    from pnpforge.validator.picture import BoardPicture

__all__ = ["Board", "PlacedPiece", "Rulebook", "SetupBoard", "SetupTable", "Table", "load", "words"]

SECTION = "setup"
NO_HEXMAP = N_("no component {name} with a hexmap element in this game.yaml")
NO_SPOTS = N_("no list {key} in {file} (expected a list of spots, each {{at: [q, r], player}})")
OFF_BOARD = N_("cell {cell} is not on the board (expected one of its cells)")
NO_SEAT = N_("player {player} is not at the table (expected 1-{players})")
PLAYER = N_("player {player}")
PLAYERS_PIECE = N_("player {player}'s {piece}")  # a piece in a `one-per-cell` rule's {what}
Seat = Annotated[StrictInt, Key(ge=1, le=99)]


def _c(cell: Hex) -> str:
    return str([cell[0], cell[1]])


# Board, Table and PlacedPiece are named tuples, Rulebook a plain class: a set-up check loads this module,
# and a dataclass costs ~0.3 ms to create (its methods compiled from source), a named tuple a fifth of that.
_EMPTY: Mapping[Any, Any] = MappingProxyType({})


class Board(NamedTuple):
    """The board the rules look at: its cells and their terrain, which printed part (a tile) each is
    on, and its lists of printed spots (`fixed` rules' `spots`: each a cell and its seat, if any)."""

    cells: dict[Hex, str]  # cell -> terrain ("" when the data gives none)
    parts: Mapping[Hex, str] = _EMPTY
    spots: Mapping[str, list[tuple[Hex, int | None]]] = _EMPTY


class PlacedPiece(NamedTuple):
    """A piece on the board: its cell, its kind, its seat (None: neutral), crossed out or not."""

    at: Hex
    piece: str
    player: int | None = None
    crossed: bool = False


class Rulebook:
    """A checked `setup:` section of one game, ready to check and draw its set-up files."""

    def __init__(self, game: str, folder: Path, section: SetupSection, spec: Source) -> None:
        self.game = game
        self.folder = folder
        self.section = section
        self.spec = spec

    @cached_property
    def model(self) -> type[SetupModel]:
        title = catalog.game_info(catalog.GameFolder(self.game, self.folder, True)).get("title", self.game)
        name = english(title) if isinstance(title, str | dict) else self.game
        piece_fields: dict[str, Any] = {
            "piece": (literal(*self.section.pieces), ...),
            "at": (Coord, ...),
            "player": (Seat | None, None),
            "crossed": (StrictBool, False),
        }
        piece = create_model("Piece", SetupModel, __name__, piece_fields)
        setup_fields: dict[str, Any] = {
            "game": (literal(self.game), ...),
            "players": (Annotated[StrictInt, player_count(self.folder, name)], 2),
            "pieces": (list[piece], []),  # type: ignore[valid-type]
        }
        return create_model("Setup", SetupModel, __name__, setup_fields)

    @cached_property
    def board(self) -> Board:
        """The board of a `hexmap:` or `data:` board (a built one is the game's code's to hand over)."""
        if self.section.board.built:
            said = Phrase.word(
                N_("a built board is handed over by the game's code (expected `hexmap` or `data`)")
            )
            raise InputError([self.spec.problem((SECTION, "board", "built"), said)])
        spec = self._board_source()
        source = read_yaml(self.folder / str(spec.data))
        spots = {
            rule.spots: self._spots(source, index, rule.spots)
            for index, rule in enumerate(self.section.rules)
            if rule.spots is not None
        }
        node: Any = source.data
        path: tuple[str | int, ...] = ()
        for part in spec.list.split("."):
            node = node.get(part) if isinstance(node, dict) else None
            path = (*path, part)
        if not isinstance(node, list):
            said = Phrase(N_("expected a list at {key}"), key=repr(spec.list))
            raise InputError([source.problem(path, said)])
        cells: dict[Hex, str] = {}
        problems: list[Problem] = []
        for index, item in enumerate(node):
            if not isinstance(item, dict) or any(str(item.get(k)) != v for k, v in spec.match.items()):
                continue
            listed = [item.get("at")] if not spec.cells else item.get(spec.cells)
            terrain = str(item.get(spec.terrain, ""))
            for at in listed if isinstance(listed, list) else [listed]:
                if not (isinstance(at, list) and len(at) == 2 and all(type(v) is int for v in at)):
                    problems.append(source.problem((*path, index), Phrase.word(N_("expected a cell [q, r]"))))
                    continue
                cells[(at[0], at[1])] = terrain
        if problems:
            raise InputError(problems)
        return Board(cells, spots=spots)

    def _spots(self, source: Source, index: int, key: str) -> list[tuple[Hex, int | None]]:
        """The board data file's list of printed spots a `fixed` rule names, each `{at: [q, r], player}`."""
        items = source.data.get(key) if isinstance(source.data, dict) else None
        if not isinstance(items, list):
            said = Phrase(NO_SPOTS, key=repr(key), file=source.file)
            raise InputError([self.spec.problem((SECTION, "rules", index, "spots"), said)])
        spots: list[tuple[Hex, int | None]] = []
        problems = []
        for at_index, item in enumerate(items):
            at = item.get("at") if isinstance(item, dict) else None
            player = item.get("player") if isinstance(item, dict) else None
            if not (isinstance(at, list) and len(at) == 2 and all(type(v) is int for v in at)):
                problems.append(source.problem((key, at_index), Phrase.word(N_("expected a cell [q, r]"))))
            elif player is not None and type(player) is not int:
                said = Phrase.word(N_("expected a seat number (a whole number)"))
                problems.append(source.problem((key, at_index, "player"), said))
            else:
                spots.append(((at[0], at[1]), player))
        if problems:
            raise InputError(problems)
        return spots

    def _board_source(self) -> BoardSpec:
        """The board's data file and list: given, or those of the spec's `hexmap` element it names."""
        board = self.section.board
        if board.hexmap is None:
            return board
        spec = read_yaml(self.folder / catalog.SPEC_NAME).data
        for component in spec.get("components", []) if isinstance(spec, dict) else []:
            if not isinstance(component, dict) or component.get("name") != board.hexmap:
                continue
            for side in ("face", "back"):
                elements = (component.get(side) or {}).get("elements", [])
                for element in elements if isinstance(elements, list) else []:
                    if isinstance(element, dict) and element.get("type") == "hexmap":
                        printed = dict(element.get("source") or {})
                        return BoardSpec(**{**printed, "terrain": board.terrain})
        said = Phrase(NO_HEXMAP, name=repr(board.hexmap))
        raise InputError([self.spec.problem((SECTION, "board", "hexmap"), said)])

    def check(self, setup: Any, source: Source) -> Report:
        cells = self.board.cells
        problems = []
        for index, piece in enumerate(setup.pieces):
            if tuple(piece.at) not in cells:
                problems.append(source.problem(("pieces", index, "at"), Phrase(OFF_BOARD, cell=_c(piece.at))))
            if piece.player is not None and piece.player > setup.players:
                said = Phrase(NO_SEAT, player=piece.player, players=setup.players)
                problems.append(source.problem(("pieces", index, "player"), said))
        if problems:
            raise InputError(problems)
        report = Report(self.game)
        placed = [PlacedPiece((p.at[0], p.at[1]), p.piece, p.player, p.crossed) for p in setup.pieces]
        self.judge(Table(placed, self.board, setup.players), report)
        return report

    def judge(self, table: Table, report: Report) -> None:
        """Every rule of the section, in its order, on a table (its board may be the game's own)."""
        counts = {
            name: {int(n): c for n, c in spec.counts.items()} for name, spec in self.section.pieces.items()
        }
        for rule in self.section.rules:
            RULES[rule.kind](rule, table, counts, report)

    def deal(self, players: int, seed: int, options: dict[str, str]) -> dict[str, Any]:
        """The starting set-up: the `fixed` rules' printed pieces (of the seats at the table), nothing random.

        The seed is accepted so every game's `setup` command works alike; there are no options."""
        reject_unknown_options(options, ())
        pieces = [
            {"piece": piece, "at": list(cell), **({"player": player} if player else {})}
            for cell, piece, player in self._fixed(players, self.board)
        ]
        return {"game": self.game, "players": players, "pieces": pieces}

    def _fixed(self, players: int, board: Board) -> list[tuple[Hex, str, int | None]]:
        """Every `fixed` rule's printed pieces of the seats at the table."""
        rules = [rule for rule in self.section.rules if rule.kind == "fixed"]
        return [spot for rule in rules for spot in _fixed_spots(rule, board, players)]

    def picture(self, setup: Any) -> BoardPicture:
        placed = [PlacedPiece((p.at[0], p.at[1]), p.piece, p.player, p.crossed) for p in setup.pieces]
        return self.draw(Table(placed, self.board, setup.players))

    def draw(self, table: Table) -> BoardPicture:
        """The board with its pieces (in cell order; X on one crossed out), the `fixed` spots hatched, and
        the key the section asks for (`legend`: its terrains, pieces, players; then its `key` line)."""
        from pnpforge.validator.picture import (
            BoardPicture,
            CellShape,
            PieceMark,
            hex_centre,
            hex_points,
            legend_of,
        )

        section, size = self.section, self.section.cell_mm
        colours = section.player_colours
        pic = BoardPicture(
            Phrase.word(english(section.title) or self.game), palette=dict(section.terrain_colours)
        )
        fixed = {cell for cell, _, _ in self._fixed(table.players, table.board)}
        for cell, terrain in sorted(table.cells.items()):
            fill = terrain if terrain in section.terrain_colours else "white"
            pic.cells.append(
                CellShape(hex_points(cell, size), fill, pattern="hatch" if cell in fixed else None)
            )
        if "terrains" in section.legend:
            for terrain in sorted(set(table.cells.values()) & set(section.terrain_colours)):
                pic.legend.append((terrain, Phrase.word(terrain)))
        for piece in sorted(table.placed, key=lambda p: p.at):
            spec = section.pieces[piece.piece]
            colour = colours[(piece.player - 1) % len(colours)] if piece.player else "grey"
            label = Phrase.word("X") if piece.crossed else ""
            pic.pieces.append(
                PieceMark(hex_centre(piece.at, size), spec.mark, colour, label, size=size * 0.6)
            )
            if "pieces" in section.legend:
                pic.legend.append(("white", Phrase.word(english(spec.label)), spec.mark))
            if piece.player and "players" in section.legend:
                pic.legend.append((colour, Phrase(PLAYER, player=piece.player)))
        if english(section.key):
            pic.legend.append((section.key_colour, Phrase.word(english(section.key))))
        pic.legend = legend_of(pic.legend)
        return pic


class Table(NamedTuple):
    """What the rules look at: the pieces placed, the board, the player count."""

    placed: list[PlacedPiece]
    board: Board
    players: int

    @property
    def cells(self) -> dict[Hex, str]:
        return self.board.cells


def _chosen(selector: str | list[str] | None) -> set[str]:
    return set() if selector is None else {selector} if isinstance(selector, str) else set(selector)


def _picked(rule: RuleSpec, placed: list[PlacedPiece]) -> list[PlacedPiece]:
    """The placed pieces a rule's `pieces` (and `crossed`, when given) pick."""
    wanted = _chosen(rule.pieces)
    return [p for p in placed if p.piece in wanted and (rule.crossed is None or p.crossed == rule.crossed)]


def _filled(template: str, **values: Any) -> Phrase:
    """A rule's own text with the values it names (a data text need not use every name)."""
    return Phrase(template, **{k: v for k, v in values.items() if f"{{{k}}}" in template})


def _say(rule: RuleSpec, **values: Any) -> Phrase:
    return _filled(english(rule.message), **values)


def _where(cells: Iterable[Hex]) -> list[list[int]]:
    return [[c[0], c[1]] for c in cells]


Counts = dict[str, dict[int, int]]


def _count(rule: RuleSpec, at: Table, counts: Counts, report: Report) -> None:
    players = at.players
    wanted = _chosen(rule.pieces)
    held = Counter((p.player, p.piece) for p in _picked(rule, at.placed))
    for player in range(1, players + 1):
        for piece in sorted(wanted):
            count = held[(player, piece)]
            most, least = rule.most, rule.least
            if most is None and least is None:
                most = least = counts.get(piece, {}).get(players)
            if most is None and least is None:
                continue
            if (most is not None and count > most) or (least is not None and count < least):
                said = _say(
                    rule, player=player, piece=Phrase.word(piece), count=count, most=most, least=least
                )
                report.error(rule.code, said, [])


def _on_terrain(rule: RuleSpec, at: Table, counts: Counts, report: Report) -> None:
    cells = at.cells
    terrains = _chosen(rule.terrain)
    for cell, piece, player, _ in sorted(_picked(rule, at.placed), key=lambda p: (p.at, p.piece)):
        if cells.get(cell, "") not in terrains:
            said = _say(
                rule,
                cell=_c(cell),
                piece=Phrase.word(piece),
                terrain=Phrase.word(cells.get(cell, "")),
                player=player or "",
            )
            report.error(rule.code, said, _where([cell]))


def _not_adjacent(rule: RuleSpec, at: Table, counts: Counts, report: Report) -> None:
    """Pairs that touch (each once when `to` is the same pieces); `per: piece`: each piece that touches
    any, marked with all it touches ({b}: the first of them)."""
    first, second = _chosen(rule.pieces), _chosen(rule.to or rule.pieces)
    ours = {p.at: p.piece for p in _picked(rule, at.placed)}
    same = first == second
    theirs = {p.at: p.piece for p in (_picked(rule, at.placed) if same else at.placed) if p.piece in second}
    for a in sorted(ours):
        touching = [b for b in hexgrid.neighbours(a) if b in theirs and (not same or a < b)]
        if rule.per == "piece" and touching:
            beside = sorted(touching)
            b = beside[0]
            said = _say(rule, a=_c(a), b=_c(b), piece=Phrase.word(ours[a]), other=Phrase.word(theirs[b]))
            report.error(rule.code, said, _where([a, *beside]))
            continue
        for b in touching if rule.per != "piece" else []:
            said = _say(rule, a=_c(a), b=_c(b), piece=Phrase.word(ours[a]), other=Phrase.word(theirs[b]))
            report.error(rule.code, said, _where([a, b]))


def _adjacent_required(rule: RuleSpec, at: Table, counts: Counts, report: Report) -> None:
    near = _chosen(rule.to)
    targets = {p.at for p in at.placed if p.piece in near}
    for cell, piece, _, _ in _picked(rule, at.placed):  # in the set-up's order
        if not any(n in targets for n in hexgrid.neighbours(cell)):
            said = _say(
                rule, cell=_c(cell), piece=Phrase.word(piece), to=[Phrase.word(t) for t in sorted(near)]
            )
            report.error(rule.code, said, _where([cell]))


def _max_group(rule: RuleSpec, at: Table, counts: Counts, report: Report) -> None:
    held = {p.at for p in _picked(rule, at.placed)}
    most = rule.most or 0
    for group in components(held, hex_adjacency(held)):
        if len(group) > most:
            ordered = sorted(group)
            said = _say(rule, cells=", ".join(_c(c) for c in ordered), count=len(group), most=most)
            report.error(rule.code, said, _where(ordered))


def _connected(rule: RuleSpec, at: Table, counts: Counts, report: Report) -> None:
    """The cells of the terrains in one group; `each` says every group in {bodies} (its `parts`: the
    printed parts its cells are on), `marks: groups` marks every group's cells (default: a cell of each
    group apart from the largest)."""
    cells = at.cells
    terrains = _chosen(rule.terrain)
    kind = {c for c, t in cells.items() if t in terrains}
    groups = components(kind, hex_adjacency(kind))
    if len(groups) <= 1:
        return
    apart = sorted(min(g) for g in groups[1:])
    bodies = [_group_said(rule, number, group, at.board) for number, group in enumerate(groups, 1)]
    said = _say(
        rule,
        terrain=[Phrase.word(t) for t in sorted(terrains)],
        groups=len(groups),
        cells=", ".join(_c(c) for c in apart),
        bodies=series(bodies) if rule.each is not None else "",
    )
    where = [_where(sorted(g)) for g in groups] if rule.marks == "groups" else _where(apart)
    report.error(rule.code, said, where)


def _group_said(rule: RuleSpec, number: int, group: set[Hex], board: Board) -> Phrase:
    """One group as a `connected` rule's `each` says it (its number, size, printed parts and cells)."""
    return _filled(
        english(rule.each or ""),
        number=number,
        size=len(group),
        parts=sorted({board.parts.get(c, "") for c in group}),
        cells=", ".join(_c(c) for c in sorted(group)),
    )


def _regions_at_least(rule: RuleSpec, at: Table, counts: Counts, report: Report) -> None:
    walls = {p.at for p in _picked(rule, at.placed)}
    rest = set(at.cells) - walls
    least = rule.at_least or 0
    for group in components(rest, hex_adjacency(rest)):
        if len(group) < least:
            ordered = sorted(group)
            said = _say(rule, cells=", ".join(_c(c) for c in ordered), count=len(group), least=least)
            report.error(rule.code, said, _where(ordered))


def _fixed_spots(rule: RuleSpec, board: Board, players: int) -> list[tuple[Hex, str, int | None]]:
    """A `fixed` rule's printed pieces at the table: listed, or the board's spots (by cell)."""
    if rule.spots is not None:
        listed = [(cell, str(rule.pieces), seat) for cell, seat in sorted(board.spots.get(rule.spots, []))]
    else:
        listed = [((p.at[0], p.at[1]), p.piece, p.player) for p in rule.placed or []]
    return [spot for spot in listed if spot[2] is None or spot[2] <= players]


def _fixed(rule: RuleSpec, at: Table, counts: Counts, report: Report) -> None:
    present = {(p.at, p.piece, p.player) for p in at.placed}
    for cell, piece, player in _fixed_spots(rule, at.board, at.players):
        if not any(c == cell and p == piece and (player is None or pl == player) for c, p, pl in present):
            said = _say(rule, cell=_c(cell), piece=Phrase.word(piece), player=player or "")
            report.error(rule.code, said, _where([cell]))


def _one_per_cell(rule: RuleSpec, at: Table, counts: Counts, report: Report) -> None:
    held: dict[Hex, list[PlacedPiece]] = {}
    for piece in at.placed:
        held.setdefault(piece.at, []).append(piece)
    for cell, pieces in sorted(held.items()):
        if len(pieces) > 1:
            what = [
                Phrase(PLAYERS_PIECE, player=p.player, piece=Phrase.word(p.piece))
                if p.player is not None
                else Phrase.word(p.piece)
                for p in pieces
            ]
            report.error(rule.code, _say(rule, cell=_c(cell), count=len(pieces), what=what), _where([cell]))


RULES = {
    "count": _count,
    "on-terrain": _on_terrain,
    "not-adjacent": _not_adjacent,
    "adjacent-required": _adjacent_required,
    "max-group": _max_group,
    "connected": _connected,
    "regions-at-least": _regions_at_least,
    "fixed": _fixed,
    "one-per-cell": _one_per_cell,
}

SetupBoard = Board  # as gamekit names them for games (its `Table` is the score sheet's)
SetupTable = Table

_books: dict[tuple[str, Any], Rulebook] = {}


def load(game: catalog.GameFolder) -> Rulebook | None:
    """The game's set-up rules as data, checked; None when its game.yaml has no `setup:` section."""
    home = game.path.resolve()

    def made(section: SetupSection, source: Source) -> Rulebook:
        return Rulebook(game.id, home, section, source)

    return loaded(game, SECTION, SetupSection, setup_problems, made, _books)


def words(section: SetupSection, lang: str) -> dict[str, str]:
    """The section's own texts in `lang`, keyed by their English (pieces, messages, title, key)."""
    return in_language(setup_texts(section), lang)
