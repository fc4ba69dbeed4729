"""Quo Vadis (draft 32): generation-change settlement and final scoring (Quo Vadis rulebook, 決算, 最終決算).

Every number comes from `scoring.yaml` beside this file (the design is in progress: the designer
edits data, not code). Players are listed in seating order, clockwise; ties go to the tied player
first clockwise from the start player.

Areas controlled (a settlement's `areas`), the largest group of adjacent controlled areas
(`territory`) and workers on aptitude terrain are either counted at the table or computed from a
map (`map:` a Quo Vadis set-up file) plus each player's `workers`, `towns` and `race`.

A final score holds exactly one generation card per round from every player (手札配置, once per
turn; the game ends after the 10th round and the rulebook has no early end). Destroyed towns
(`destroyed_towns`) earn nothing and give no control, but they stay on their spaces: they count
against the 5 town tokens and no town can be built on their space.

Stays Python, not game.yaml's `scoring:` (docs/scoring.md): areas controlled and territory may be
computed from a map (a set-up file of turned rhombus tiles), and the cards, stacking and towns are shaped
per round; its numbers are data already (scoring.yaml), its procedures are not in the data vocabulary.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

from pnpforge.gamekit import (
    N_,
    BeforeValidator,
    Count,
    Field,
    InputError,
    Name,
    Path_,
    Phrase,
    PlayerEntry,
    PlayerScore,
    Rules,
    RulesBroken,
    ScoreResult,
    Source,
    Strict,
    Table,
    TieBreak,
    components,
    folder_id,
    kit,
    known_names,
    linked_setup,
    owned,
    quoted,
    read_yaml,
    validate,
)

from . import checks

GAME = folder_id(Path(__file__).parent)  # the game's id: its folder's name

HERE = Path(__file__).parent


class Territory(Strict):
    areas: int
    vp: int


class Limits(Strict):
    generations: int
    rounds: int
    workers: int
    towns: int
    areas_by_players: dict[int, int]


class Numbers(Strict):
    """scoring.yaml, typed: a mistake in the designer's file is reported at its line."""

    settlement: dict[str, int]
    control: dict[str, int]
    final: dict[str, int]
    territory: list[Territory]
    limits: Limits


def numbers() -> Numbers:
    return validate(Numbers, read_yaml(HERE / "scoring.yaml"))


def _count_or_spaces(value: Any) -> Any:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return value
    raise ValueError("expected a whole number, or (with a map) a list of space ids like a2-4.0")


Towns = Annotated[int | list[str], BeforeValidator(_count_or_spaces)]


class Player(PlayerEntry):
    vp: Count = 0
    towns: Towns = 0
    destroyed_towns: Towns = 0  # face down: no VP, no control, but still on the board
    aptitude_workers: Count = 0
    territory: Count = 0
    generations: list[Count] = []
    skills: Count = 0
    race: Name | None = None  # with a map: the race, whose aptitude terrain earns worker VP
    workers: list[Name] = []  # with a map: the spaces holding one of your workers


class Settlement(Strict):
    player: Name
    cards: Count
    areas: Count | None = None  # counted at the table, or left out to count it from the map


class Input(Strict):
    game: str  # its game was found by it
    start_player: Name | None = None
    players: list[Player]
    settlement: Settlement | None = None
    map: str | dict[str, Any] | None = None  # a Quo Vadis set-up file (path) or one inline
    terrain_tokens: dict[str, Name] = {}  # with a map: area tile id -> terrain of its latest token


FIELDS = [
    Field(
        "vp", "VP earned during play", "settlements, wars won and prosperity: the VP tokens in front of you"
    ),
    Field("towns", "towns not destroyed", "3 VP each (scoring.yaml: final.town)"),
    Field(
        "destroyed_towns",
        "destroyed towns (face down)",
        "no VP and no control, but they count against your 5 town tokens",
        default=0,
    ),
    Field(
        "aptitude_workers",
        "workers on your aptitude terrain",
        "1 VP each; a terrain token changes the whole area",
    ),
    Field(
        "territory",
        "largest group of adjacent controlled areas",
        "≤3: 0, 4: 3, 5: 6, 6: 9, ≥7: 12 VP; control = workers on 2 spaces or a town",
    ),
    Field(
        "generations",
        "cards in generations 1-6",
        "10 in all, one per round; 4 VP per generation to the most cards there, "
        "ties to the first clockwise from the start player",
        kind="ints",
        size=6,
    ),
    Field("skills", "VP from end-of-game skills", "as the skill cards say"),
]

GENERATION_CHANGE = N_("Generation change: {player} gains {cards} cards × {areas} areas = {vp} VP.")
TOO_FEW_CARDS = (  # a rule break every empty final sheet shows first, so it is said in Japanese too
    N_(
        "{name} placed {placed} generation cards; a final score has exactly {rounds}, one per round "
        "(the game ends after round {rounds})"
    )
)
# the other rule breaks, as templates (a `Phrase` each) said in the catalogs (locale/*.po); a count a player
# gives is keyed "count: KEY", as its English word ("towns") is also a bonus row of the sheet
COUNTED = ("vp", "towns", "destroyed_towns", "aptitude_workers", "territory", "skills")
COUNT_WORDS = {key: Phrase.word(key.replace("_", " "), key=f"count: {key}") for key in COUNTED}
GENERATION_CARDS = N_("cards in generation {generation}")
ALL_TOWNS = N_("towns (destroyed ones included: they stay on the board)")
GAP = N_(
    "{name} has cards in generation {used} but none in generation {gap}; generations fill from left to right"
)
NOT_REBUILT = N_("{name} has a worker on their own destroyed town at {space}: it is rebuilt at once")
TWO_WORKERS = N_("{name} has two workers on {space}")
ON_OWN_TOWN = N_("{name} has a worker on their own town at {space}")
TOWN_STACKED = N_("{space} holds {first} and {second}")
TOWN, DESTROYED_TOWN = N_("town"), N_("destroyed town")

# the score sheet's words: the web page and `score --lang LANG` (Quo Vadis rulebook,
# コンポーネント, 手札配置 (世代交代), 決算, 最終決算)
# words said as data (set-up keys and values, kinds, labels, names of fields): marked for the
# catalogs (locale/*.po), where each language says them in the game's words
DATA_WORDS = (
    N_("VP earned during play"),
    N_("settlements, wars won and prosperity: the VP tokens in front of you"),
    N_("towns not destroyed"),
    N_("3 VP each (scoring.yaml: final.town)"),
    N_("destroyed towns (face down)"),
    N_("no VP and no control, but they count against your 5 town tokens"),
    N_("workers on your aptitude terrain"),
    N_("1 VP each; a terrain token changes the whole area"),
    N_("largest group of adjacent controlled areas"),
    N_("≤3: 0, 4: 3, 5: 6, 6: 9, ≥7: 12 VP; control = workers on 2 spaces or a town"),
    N_("cards in generations 1-6"),
    N_(
        "10 in all, one per round; 4 VP per generation to the most cards there, ties to the first "
        "clockwise from the start player"
    ),
    N_("VP from end-of-game skills"),
    N_("as the skill cards say"),
    N_("start player"),
    N_("settlement"),
    N_("player"),
    N_("cards"),
    N_("areas"),
    N_("VP tokens"),
    N_("towns"),
    N_("aptitude"),
    N_("territory"),
    N_("generations"),
    N_("skills"),
    N_("seat order from the start player"),
    N_("A settlement decides no winner; the VP go on the player's pile."),
    N_("Control, from the map"),
    N_("controlled"),
    N_("largest group"),
    N_("from start"),
    N_("count: vp"),
    N_("count: towns"),
    N_("count: destroyed_towns"),
    N_("count: aptitude_workers"),
    N_("count: territory"),
    N_("count: skills"),
    N_("workers"),
    N_("territory (areas)"),
    N_("cards placed"),
    N_("cards in the generation left"),
    N_("areas controlled"),
    N_("cards in one generation"),
)


def territory_bonus(size: int, table: list[Territory]) -> int:
    """VP for the largest group: the row with the biggest `areas` not above `size`."""
    fitting = [row for row in table if row.areas <= size]
    return max(fitting, key=lambda row: row.areas).vp if fitting else 0


def seat_order(names: list[str], start: str) -> dict[str, int]:
    """0 for the start player, 1 for the next clockwise, ...: the order that breaks ties."""
    first = names.index(start)
    return {name: (i - first) % len(names) for i, name in enumerate(names)}


def generation_bonus(
    generations: dict[str, list[int]], seats: dict[str, int], bonus: int, slots: int
) -> dict[str, int]:
    """`bonus` per slot to the player with most cards there; ties to the first clockwise from the start."""
    won = dict.fromkeys(generations, 0)
    for slot in range(slots):
        cards = {name: (g[slot] if slot < len(g) else 0) for name, g in generations.items()}
        most = max(cards.values(), default=0)
        if most > 0:  # an empty slot has no "most cards"
            winner = min((n for n, c in cards.items() if c == most), key=lambda n: seats[n])
            won[winner] += bonus
    return won


@dataclass
class Control:
    """What a map says about each player: areas controlled, largest group, aptitude workers, towns."""

    areas: dict[str, list[str]]
    largest: dict[str, int]
    aptitude: dict[str, int]
    towns: dict[str, int]
    destroyed: dict[str, int]


def _race_terrains(terrains: dict[str, Any]) -> dict[str, str]:
    """Race id → its aptitude terrain id, matched by the terrain's English name in races.csv."""
    by_name = {t.en.lower(): key for key, t in terrains.items()}
    return {
        row["race"]: by_name.get(row["terrain_en"].lower(), row["race"])
        for row in [row for row, _ in kit.rows(HERE, "races.csv")]
    }


def _map_ids(
    data: Input, source: Source, spaces: set[str], areas: set[str], terrains: dict[str, Any]
) -> None:
    """Space ids, area ids, terrains and races that the map does not have are malformed input."""
    problems = []
    races = _race_terrains(terrains)
    for i, p in enumerate(data.players):
        for key in ("towns", "destroyed_towns", "aptitude_workers", "territory"):
            towns = key.endswith("towns")
            if key in p.model_fields_set and not (towns and isinstance(getattr(p, key), list)):
                what = (
                    Phrase(N_("list the spaces of your {what}"), what=COUNT_WORDS[key])
                    if towns
                    else Phrase(N_("it is counted from the map"))
                )
                said = Phrase(N_("with a map, {what} (remove {key})"), what=what, key=repr(key))
                problems.append(source.problem(("players", i, key), said))
        for key in ("workers", "towns", "destroyed_towns"):
            listed = getattr(p, key)
            for k, space in enumerate(listed if isinstance(listed, list) else []):
                if space not in spaces:
                    said = Phrase(
                        N_("no space {space} on the map (expected e.g. {shown})"),
                        space=repr(space),
                        shown=sorted(spaces)[:3],
                    )
                    problems.append(source.problem(("players", i, key, k), said))
        if p.workers and p.race is None:
            problems.append(
                source.problem(
                    ("players", i), Phrase(N_("{name} needs `race:` for aptitude workers"), name=p.name)
                )
            )
        if p.race is not None and p.race not in races:
            problems.append(
                source.problem(
                    ("players", i, "race"),
                    Phrase(
                        N_("unknown race {race} (expected one of: {known})"),
                        race=quoted(p.race),
                        known=list(races),
                    ),
                )
            )
    for area, terrain in data.terrain_tokens.items():
        if area not in areas:
            problems.append(
                source.problem(
                    ("terrain_tokens", area), Phrase(N_("no area {area} on the map"), area=repr(area))
                )
            )
        if terrain not in terrains:
            said = Phrase(checks.UNKNOWN_TERRAIN, terrain=quoted(terrain), known=list(terrains))
            problems.append(source.problem(("terrain_tokens", area), said))
    if data.settlement and data.settlement.areas is not None:
        problems.append(
            source.problem(
                ("settlement", "areas"), Phrase(N_("with a map, areas are counted from it (remove 'areas')"))
            )
        )
    if problems:
        raise InputError(problems)


def _spaces(value: int | list[str]) -> list[str]:
    return value if isinstance(value, list) else []


def _stacking(data: Input, rules: Rules) -> None:
    """After the turn's tidy-up a space holds at most one of your workers, never beside your own town.

    A space holds one town token, face up or destroyed (建設フェイズ: 「破壊されたタウンであっても配置
    できません」); your worker on your own destroyed town would have rebuilt it (タウンの再建).
    """
    town_at: dict[str, Phrase] = {}
    for i, p in enumerate(data.players):
        towns = _spaces(p.towns)
        for k, space in enumerate(p.workers):
            if space in _spaces(p.destroyed_towns):
                rules.error(
                    "town-not-rebuilt",
                    ("players", i, "workers", k),
                    Phrase(NOT_REBUILT, name=p.name, space=space),
                )
            if space in p.workers[:k]:
                rules.error(
                    "worker-stacked",
                    ("players", i, "workers", k),
                    Phrase(TWO_WORKERS, name=p.name, space=space),
                )
            if space in towns:
                rules.error(
                    "worker-on-own-town",
                    ("players", i, "workers", k),
                    Phrase(ON_OWN_TOWN, name=p.name, space=space),
                )
        placed = [("towns", k, s, TOWN) for k, s in enumerate(towns)]
        placed += [
            ("destroyed_towns", k, s, DESTROYED_TOWN) for k, s in enumerate(_spaces(p.destroyed_towns))
        ]
        for key, k, space, kind in placed:
            town = owned(p.name, kind)
            if space in town_at:
                rules.error(
                    "town-stacked",
                    ("players", i, key, k),
                    Phrase(TOWN_STACKED, space=space, first=town_at[space], second=town),
                )
            town_at[space] = town
    rules.done()


def control_from_map(data: Input, source: Source, table: Numbers) -> Control:
    """Controlled areas, the largest connected group and aptitude workers, computed from the map."""
    assert data.map is not None
    loaded = linked_setup(source, ("map",), data.map, GAME)
    report = checks.check(loaded.setup, loaded.source)
    if not report.valid:
        raise RulesBroken(report)
    board = checks.build_map(loaded.setup)
    spaces = {space.id: space for space in board.spaces.values()}
    adjacent: dict[str, set[str]] = checks.adjacent_areas(loaded.setup)
    terrains = checks.load_areas().terrains
    _map_ids(data, source, set(spaces), set(adjacent), terrains)
    _stacking(data, Rules(GAME, source))
    races = _race_terrains(terrains)
    need_workers, need_towns = table.control["workers"], table.control["towns"]
    out = Control({}, {}, {}, {}, {})
    for p in data.players:
        towns = p.towns if isinstance(p.towns, list) else []
        workers = Counter(spaces[w].tile for w in p.workers)
        held = Counter(spaces[t].tile for t in towns)
        mine = {a for a, n in workers.items() if n >= need_workers} | {
            a for a, n in held.items() if n >= need_towns
        }
        groups = components(mine, _neighbours_within(adjacent, mine))
        terrain = races.get(p.race or "", "")
        out.areas[p.name] = sorted(mine)
        out.largest[p.name] = len(groups[0]) if groups else 0
        out.aptitude[p.name] = sum(
            (data.terrain_tokens.get(spaces[w].tile) or spaces[w].terrain) == terrain for w in p.workers
        )
        out.towns[p.name] = len(towns)
        out.destroyed[p.name] = len(_spaces(p.destroyed_towns))
    return out


def _neighbours_within(adjacent: dict[str, set[str]], mine: set[str]) -> Callable[[str], set[str]]:
    """An area's neighbours among `mine` (the areas a player controls)."""
    return lambda area: adjacent.get(area, set()) & mine


def _counted(value: int | list[str]) -> int:
    """Towns once read: `_shape` refuses a list of spaces without a map, `_apply` counts it with one."""
    assert isinstance(value, int), value
    return value


def _apply(data: Input, control: Control) -> None:
    """Turn map-derived numbers into the counts the scoring reads."""
    for p in data.players:
        p.towns = control.towns[p.name]
        p.destroyed_towns = control.destroyed[p.name]
        p.aptitude_workers = control.aptitude[p.name]
        p.territory = control.largest[p.name]
    if data.settlement:
        data.settlement.areas = len(control.areas[data.settlement.player])


def _control_table(control: Control) -> Table:
    rows: list[list[int | str]] = [
        [name, len(areas), ", ".join(areas) or "-", control.largest[name], control.aptitude[name]]
        for name, areas in control.areas.items()
    ]
    return Table(
        "Control, from the map", ["player", "areas", "controlled", "largest group", "aptitude"], rows
    )


def _shape(data: Input, source: Source, slots: int) -> None:
    """What no count can fix: map-only fields without a map, wrong generation lists, missing areas."""
    problems = []
    for i, p in enumerate(data.players):
        here = ("players", i)
        for key in ("towns", "destroyed_towns"):
            if isinstance(getattr(p, key), list):
                problems.append(
                    source.problem(
                        (*here, key), Phrase(N_("a list of town spaces needs `map:` (else a number)"))
                    )
                )
        if p.workers and data.map is None:
            problems.append(
                source.problem((*here, "workers"), Phrase(N_("worker spaces need `map:` to count from")))
            )
        if p.generations and len(p.generations) != slots:
            message = Phrase(
                N_("give {slots} numbers, one per generation (got {count})"),
                slots=slots,
                count=len(p.generations),
            )
            problems.append(source.problem((*here, "generations"), message))
    if data.settlement and data.settlement.areas is None:
        problems.append(
            source.problem(("settlement",), Phrase(N_("missing key 'areas' (or give `map:` to count them)")))
        )
    if problems:
        raise InputError(problems)


def _check(data: Input, source: Source, table: Numbers) -> None:
    limits = table.limits
    _shape(data, source, limits.generations)
    by_players = limits.areas_by_players
    areas = by_players.get(len(data.players), max(by_players.values()))
    rules = Rules(GAME, source)
    for i, p in enumerate(data.players):
        here = ("players", i)
        assert isinstance(p.towns, int) and isinstance(p.destroyed_towns, int)
        for key in ("vp", "towns", "destroyed_towns", "aptitude_workers", "territory", "skills"):
            rules.nonnegative((*here, key), getattr(p, key), owned(p.name, COUNT_WORDS[key]))
        for slot, cards in enumerate(p.generations):
            rules.nonnegative(
                (*here, "generations", slot),
                cards,
                owned(p.name, Phrase(GENERATION_CARDS, generation=slot + 1)),
            )
        rules.at_most(
            "too-many-towns",
            (*here, "towns"),
            p.towns + p.destroyed_towns,
            limits.towns,
            owned(p.name, ALL_TOWNS),
        )
        rules.at_most(
            "too-many-workers",
            (*here, "aptitude_workers"),
            p.aptitude_workers,
            limits.workers,
            owned(p.name, "workers"),
        )
        rules.at_most(
            "territory-too-large",
            (*here, "territory"),
            p.territory,
            areas,
            owned(p.name, "territory (areas)"),
        )
        rules.at_most(
            "too-many-cards",
            (*here, "generations"),
            sum(p.generations),
            limits.rounds,
            owned(p.name, "cards placed"),
        )
        if data.settlement is None and sum(p.generations) < limits.rounds:
            rules.error(
                "too-few-cards",
                (*here, "generations") if p.generations else here,
                Phrase(TOO_FEW_CARDS, name=p.name, placed=sum(p.generations), rounds=limits.rounds),
            )
        used = [slot for slot, cards in enumerate(p.generations) if cards > 0]
        gaps = [slot for slot in range(used[-1] if used else 0) if p.generations[slot] <= 0]
        if gaps:
            rules.error(
                "generation-gap",
                (*here, "generations", gaps[0]),
                Phrase(GAP, name=p.name, used=used[-1] + 1, gap=gaps[0] + 1),
            )
    if data.settlement and data.settlement.areas is not None:
        s, counted = data.settlement, data.settlement.areas
        rules.nonnegative(("settlement", "cards"), s.cards, "cards in the generation left")
        rules.nonnegative(("settlement", "areas"), counted, "areas controlled")
        rules.at_most(
            "too-many-cards",
            ("settlement", "cards"),
            s.cards,
            limits.rounds,
            "cards in one generation",
        )
        rules.at_most("territory-too-large", ("settlement", "areas"), counted, areas, "areas controlled")
    rules.done()


def _settlement(data: Input, table: Numbers, tables: list[Table]) -> ScoreResult:
    s = data.settlement
    assert s is not None and s.areas is not None
    vp = s.cards * s.areas * table.settlement["per_card_per_area"]
    row = PlayerScore(s.player, {"settlement": vp}, info={"cards": s.cards, "areas": s.areas})
    note = Phrase(GENERATION_CHANGE, player=s.player, cards=s.cards, areas=s.areas, vp=vp)
    verdict = "A settlement decides no winner; the VP go on the player's pile."
    return ScoreResult(
        GAME, [row], [], None, notes=[note], tables=tables, places={s.player: 1}, verdict=verdict
    )


def score(data: Input, source: Source) -> ScoreResult:
    names = [p.name for p in data.players]
    refs: list[tuple[Path_, str]] = [(("start_player",), data.start_player)] if data.start_player else []
    if data.settlement:
        refs.append((("settlement", "player"), data.settlement.player))
    known_names(source, refs, names)
    table = numbers()
    tables = []
    if data.map is not None:
        control = control_from_map(data, source, table)
        _apply(data, control)
        tables.append(_control_table(control))
    _check(data, source, table)
    if data.settlement:
        return _settlement(data, table, tables)
    final = table.final
    seats = seat_order(names, data.start_player or names[0])
    slots = table.limits.generations
    generations = generation_bonus(
        {p.name: p.generations for p in data.players}, seats, final["generation_bonus"], slots
    )
    rows = [
        PlayerScore(
            p.name,
            {
                "VP tokens": p.vp,
                "towns": final["town"] * _counted(p.towns),
                "aptitude": final["aptitude_worker"] * p.aptitude_workers,
                "territory": territory_bonus(p.territory, table.territory),
                "generations": generations[p.name],
                "skills": p.skills,
            },
            info={"from start": seats[p.name] + 1},
        )
        for p in data.players
    ]
    order = {name: -seat for name, seat in seats.items()}
    return ScoreResult.ranked(
        GAME, rows, [TieBreak.by("seat order from the start player", order)], tables=tables
    )
