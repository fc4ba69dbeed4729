"""Gods: deal a random opening (Gods rulebook, ゲームの準備) in the set-up file format of checks.py.

Options: `variant=stack|bag` (the rulebook's bag variant: no game-end tile, an unordered bag) and
`gods=red,blue,...` (the players' gods in seat order, one per seat; default: drawn at random; the page
offers a picker per seat and sends them joined so).

Stays Python: dealing is a procedure (shuffles, draws), not a rule to check.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from pnpforge.gamekit import COMMAND_LINE, N_, Hex, InputError, Phrase, folder_id, reject_unknown_options

from . import checks

GAME = folder_id(Path(__file__).parent)  # the game's id: its folder's name

OPTIONS = ("variant", "gods")
SEATS = ("gods",)  # a god per seat: the page's deal form has a picker per seat
# the page's deal form says each option so (Gods rulebook, ゲームの準備: each player picks a god, turns go
# clockwise from the start player; ヴァリアント)
LABELS = {"variant": N_("Variant"), "gods": N_("Gods (in seat order)")}
VARIANTS = {"stack": N_("Tile stack (standard)"), "bag": N_("Tile bag (variant)")}  # the values said so
# each god by its colour (Gods rulebook, ゲームの準備: a player takes a god's pieces of one colour), as a
# picker lists it; in Japanese the colours the set-up's picture says (赤, 青, 緑, 黄)
GOD_WORDS = {"red": N_("Red"), "blue": N_("Blue"), "green": N_("Green"), "yellow": N_("Yellow")}


# Opening cells (docs/games/gods.md, Rules decisions): 2 adjacent; 3 mutually adjacent; two pairs
# with a wilderness between them.
OPENINGS: dict[int, list[Hex]] = {
    2: [(0, 0), (1, 0)],
    3: [(0, 0), (1, 0), (0, 1)],
    4: [(-2, 0), (-1, 0), (1, 0), (2, 0)],
}
WILDERNESS_4P: Hex = (0, 0)
# the set-up file's words, as the table page's "What goes where" says them (Gods rulebook, ゲームの準備,
# ヴァリアント): marked for the catalogs (locale/*.po); the tiles by the names tiles.csv prints (GAME.names)
DATA_WORDS = (
    N_("players"),
    N_("variant"),
    N_("stack"),
    N_("bag"),
    N_("gods"),
    N_("stage"),
    N_("opening"),
    N_("board"),
    N_("tile"),
    N_("at"),
)
# the set-up's `stack` and `bag` are the piles the picture shows (the score sheet says the variants)
TERMS = {key: checks.PILE_TERMS[key] for key in ("stack", "bag")}


def option_choices() -> dict[str, list[str]]:
    """The values each option takes, for the page's pickers: the variants, and a god per seat."""
    return {"variant": list(VARIANTS), "gods": list(checks.colours())}


def option_words() -> dict[str, dict[str, str]]:
    """The words the page says for the options' values: the variants, and each god by its colour (a
    colour the data adds without a word here is said as the game's word for it)."""
    return {"variant": VARIANTS, "gods": {c: GOD_WORDS.get(c, c) for c in checks.colours()}}


# a god at a seat beyond the player count, a seat left without a god (`red,,blue`, or fewer gods than
# players), a god chosen at two seats: said without the value, so the page can name each god in its words
BEYOND = N_("--option gods: a god at seat {seat} with {count} players (expected gods at seats 1 to {count})")
NO_GOD = N_(
    "--option gods: seat {seat} has no god (expected a god at each of the {count} seats, or none for gods "
    "drawn at random)"
)
TWICE = N_(
    "--option gods: {god} is at seat {first} and at seat {second} (expected a different god at each seat)"
)


def _gods(players: int, options: dict[str, str], rng: random.Random) -> list[str]:
    """The gods in seat order: `gods=red,blue` as given (a trailing comma ignored), else drawn."""
    if "gods" not in options:
        return rng.sample(list(checks.colours()), players)
    chosen = [g.strip() for g in options["gods"].split(",")]
    while chosen and not chosen[-1]:
        chosen.pop()
    known = checks.colours()
    if any(g and g not in known for g in chosen):
        message = Phrase(
            N_("--option gods={value}: expected {count} different colours from {known}"),
            value=repr(options["gods"]),
            count=players,
            known=", ".join(known),
        )
        raise InputError.single(COMMAND_LINE, message)
    if len(chosen) > players:
        raise InputError.single(COMMAND_LINE, Phrase(BEYOND, seat=len(chosen), count=players))
    seats = chosen + [""] * (players - len(chosen))
    if "" in seats:
        raise InputError.single(COMMAND_LINE, Phrase(NO_GOD, seat=seats.index("") + 1, count=players))
    for seat, god in enumerate(seats, 1):
        first = seats.index(god) + 1
        if first != seat:
            word = Phrase.word(god, GOD_WORDS.get(god))  # the key typed; in Japanese as the picker says it
            raise InputError.single(COMMAND_LINE, Phrase(TWICE, god=word, first=first, second=seat))
    return seats


def deal(players: int, seed: int, options: dict[str, str]) -> dict[str, Any]:
    """The opening layout for `players` and a shuffled draw pile; the same seed gives the same set-up."""
    reject_unknown_options(options, OPTIONS)
    variant = options.get("variant", "stack")
    if variant not in ("stack", "bag"):
        raise InputError.single(
            COMMAND_LINE,
            Phrase(N_("--option variant={variant}: expected stack or bag"), variant=repr(variant)),
        )
    rng = random.Random(seed)
    gods = _gods(players, options, rng)
    seats = list(gods)
    rng.shuffle(seats)  # which temples stand side by side is left to chance
    cells = OPENINGS[players]
    board: list[dict[str, Any]] = [
        {"tile": f"temple-{colour}", "at": list(cell)} for colour, cell in zip(seats, cells, strict=True)
    ]
    if players == 4:
        board.append({"tile": "wilderness", "at": list(WILDERNESS_4P)})
    pile = _draw_pile(players)
    rng.shuffle(pile)
    data: dict[str, Any] = {"game": GAME, "players": players, "gods": gods, "variant": variant}
    data |= {"stage": "opening", "board": board}
    if variant == "bag":
        data["bag"] = sorted(pile)  # a bag has no order: sorted keeps the file readable
        return data
    # Rulebook: take the bottom two, shuffle the game-end tile in with them, put the three back at the bottom.
    bottom = [*pile[-2:], checks.END_TILE]
    rng.shuffle(bottom)
    data["stack"] = pile[:-2] + bottom
    return data


def _draw_pile(players: int) -> list[str]:
    """Every people, wilderness, storm and extra action tile not already on the table."""
    pile: list[str] = []
    for kind in checks.tile_kinds().values():
        if kind.kind == "temple" or kind.id == checks.END_TILE:
            continue
        pile += [kind.id] * (kind.count - (kind.id == "wilderness" and players == 4))
    return pile
