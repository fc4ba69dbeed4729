"""Gods: the final score (Gods rulebook, ゲームの終了; docs/games/gods.md, Rules decisions).

Village card 3, victory-point card 2, +4 to every player tied for most temples built; a tie on
points goes to more crystals, still tied a draw. Cards may be counted as totals or per people
colour (then the per-colour limits are checked too). Card counts and values are read from the
print spec's cards.csv, tiles.csv and tokens.csv beside this file.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BeforeValidator

from pnpforge.gamekit import (
    N_,
    Count,
    Field,
    InputError,
    Phrase,
    PlayerEntry,
    PlayerScore,
    Rules,
    ScoreResult,
    Source,
    Strict,
    TieBreak,
    kit,
    owned,
    quoted,
)

HERE = Path(__file__).parent

MAX_CRYSTALS = 12  # a rule (パワーの補充), not a component count
TILES_PER_VILLAGE = 3


@dataclass(frozen=True)
class Components:
    """Card counts and values from the print spec's CSVs (one source of truth with the printed kit)."""

    colours: list[str]
    village_cards: int  # per people colour
    village_points: int
    vp_cards: int  # per people colour
    vp_points: int
    temples: int  # per player (one god colour)
    god_markers: int  # per player


@cache
def components() -> Components:
    """Card counts and values as the kit prints them (pnpforge.kit: no fallback, a renamed file fails):
    vp_cards.csv and village_cards.csv (a row per people colour, its `value`), their components'
    copies in game.yaml, the temples in tiles.csv and the god markers' copies."""
    colours = list(kit.column(HERE, "vp_cards.csv", "colour").values)
    counts = zip(
        kit.column(HERE, "tiles.csv", "kind").values, kit.numbers(HERE, "tiles.csv", "count"), strict=True
    )
    temples = [count for kind, count in counts if kind == "temple"]
    return Components(
        colours=colours,
        village_cards=kit.copies(HERE, "village-cards"),
        village_points=_one(kit.numbers(HERE, "village_cards.csv", "value"), "village_cards.csv value"),
        vp_cards=kit.copies(HERE, "vp-cards"),
        vp_points=_one(kit.numbers(HERE, "vp_cards.csv", "value"), "vp_cards.csv value"),
        temples=_one(temples, "tiles.csv temple count"),
        god_markers=kit.copies(HERE, "god-markers"),
    )


def _one(values: list[int], what: str) -> int:
    """The one value every colour shares (the scoring counts per colour alike)."""
    if len(set(values)) != 1:
        raise InputError.single(
            str(HERE),
            Phrase(
                N_("{what}: expected one value for every colour, got {values}"),
                what=what,
                values=str(sorted(set(values))),
            ),
        )
    return values[0]


TEMPLE_BONUS = 4  # a rule (ゲームの終了): +4 to every player tied for most temples


def _count_or_colours(value: Any) -> Any:
    def whole(v: Any) -> bool:
        return isinstance(v, int) and not isinstance(v, bool)

    if whole(value) or (isinstance(value, dict) and all(whole(v) for v in value.values())):
        return value
    template = N_("expected a whole number, or a number per {what} like {example}")
    raise ValueError(Phrase(template, what=Phrase.word(N_("people colour")), example="{red: 1}"))


Cards = Annotated[int | dict[str, int], BeforeValidator(_count_or_colours)]


class Player(PlayerEntry):
    villages: Cards = 0
    vp_cards: Cards = 0
    temples: Count = 0
    crystals: Count = 0


class Input(Strict):
    game: Literal["gods"]
    players: list[Player]


FIELDS = [
    Field("villages", "village cards", "3 points each; 2 per people colour exist, 8 in all"),
    Field("vp_cards", "victory-point cards", "2 points each; 3 per people colour exist, 12 in all"),
    Field(
        "temples",
        "temples built",
        Phrase(N_("+{bonus} to every player tied for most; at most 6 each"), bonus=TEMPLE_BONUS),
    ),
    Field(
        "crystals",
        "energy crystals",
        Phrase(N_("break a tie on points (more wins); at most {most}"), most=MAX_CRYSTALS),
    ),
]

# the rule breaks' nouns, as templates (a `Phrase` each) said in the catalogs (locale/*.po)
COLOURED = N_("{what} ({colour})")  # a player's cards of one people colour
COLOUR_OF = N_("{colour} {what}")
HELD = N_("{what} held in all")
VILLAGES_MOST = N_("villages ({markers} god markers make at most {most})")

# the score sheet's words: the web page and `score --lang LANG` (Gods rulebook, 内容,
# ゲームの終了; the deal's variant: ヴァリアント)
# words said as data (set-up keys and values, kinds, labels, names of fields): marked for the
# catalogs (locale/*.po), where each language says them in the game's words
DATA_WORDS = (
    N_("village cards"),
    N_("3 points each; 2 per people colour exist, 8 in all"),
    N_("victory-point cards"),
    N_("2 points each; 3 per people colour exist, 12 in all"),
    N_("temples built"),
    N_("energy crystals"),
    N_("villages"),
    N_("VP cards"),
    N_("temple bonus"),
    N_("crystals"),
    N_("temples"),
    N_("variant"),
    N_("stack"),
    N_("bag"),
    N_("gods"),
    N_("red"),
    N_("blue"),
    N_("green"),
    N_("yellow"),
)


def _by_colour(cards: int | dict[str, int]) -> dict[str, int]:
    """Per-colour counts; a plain total is kept under the empty colour ''."""
    return cards if isinstance(cards, dict) else {"": cards}


def _total(cards: int | dict[str, int]) -> int:
    return sum(_by_colour(cards).values())


def _check_colours(data: Input, source: Source) -> None:
    colours = components().colours
    problems = [
        source.problem(
            ("players", i, key, colour),
            Phrase(
                N_("unknown colour {colour} (expected one of: {known})"),
                colour=quoted(colour),
                known=list(colours),
            ),
        )
        for i, player in enumerate(data.players)
        for key in ("villages", "vp_cards")
        for colour in _by_colour(getattr(player, key))
        if colour and colour not in colours
    ]
    if problems:
        raise InputError(problems)


def _check_rules(data: Input, rules: Rules) -> None:
    printed = components()
    cards = {"villages": (printed.village_cards, "village cards"), "vp_cards": (printed.vp_cards, "VP cards")}
    for i, p in enumerate(data.players):
        here = ("players", i)
        for key, (_, what) in cards.items():
            for colour, n in _by_colour(getattr(p, key)).items():
                path = (*here, key, colour) if colour else (*here, key)
                held_cards = (
                    Phrase(COLOURED, what=Phrase.word(what), colour=Phrase.word(colour)) if colour else what
                )
                rules.nonnegative(path, n, owned(p.name, held_cards))
        rules.nonnegative((*here, "temples"), p.temples, owned(p.name, "temples"))
        rules.nonnegative((*here, "crystals"), p.crystals, owned(p.name, "crystals"))
        rules.at_most(
            "too-many-temples", (*here, "temples"), p.temples, printed.temples, owned(p.name, "temples")
        )
        rules.at_most(
            "too-many-crystals", (*here, "crystals"), p.crystals, MAX_CRYSTALS, owned(p.name, "crystals")
        )
        most = printed.god_markers // TILES_PER_VILLAGE  # a village holds 3 of your god markers
        villages = owned(p.name, Phrase(VILLAGES_MOST, markers=printed.god_markers, most=most))
        rules.at_most("too-many-villages", (*here, "villages"), _total(p.villages), most, villages)
    for key, code in (("villages", "too-many-village-cards"), ("vp_cards", "too-many-vp-cards")):
        per_colour, what = cards[key]
        total = sum(_total(getattr(p, key)) for p in data.players)
        held_in_all = Phrase(HELD, what=Phrase.word(what))
        rules.at_most(code, ("players",), total, per_colour * len(printed.colours), held_in_all)
        for colour in printed.colours:
            held = [(i, _by_colour(getattr(p, key)).get(colour, 0)) for i, p in enumerate(data.players)]
            holders = [i for i, n in held if n]
            if holders:
                path = ("players", holders[-1], key, colour)
                of_colour = Phrase(COLOUR_OF, colour=Phrase.word(colour), what=Phrase.word(what))
                rules.at_most(code, path, sum(n for _, n in held), per_colour, Phrase(HELD, what=of_colour))
    rules.done()


def score(data: Input, source: Source) -> ScoreResult:
    _check_colours(data, source)
    _check_rules(data, Rules("gods", source))
    printed = components()
    most = max((p.temples for p in data.players), default=0)
    rows = []
    for p in data.players:
        bonus = TEMPLE_BONUS if most > 0 and p.temples == most else 0  # nobody "built the most" of none
        breakdown = {
            "villages": printed.village_points * _total(p.villages),
            "VP cards": printed.vp_points * _total(p.vp_cards),
            "temple bonus": bonus,
        }
        rows.append(PlayerScore(p.name, breakdown, info={"temples": p.temples, "crystals": p.crystals}))
    crystals = {p.name: p.crystals for p in data.players}
    return ScoreResult.ranked("gods", rows, [TieBreak.by("crystals", crystals)])
