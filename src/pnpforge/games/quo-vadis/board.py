"""Quo Vadis' counts read from a map (a set-up file of turned rhombus tiles), for game.yaml's score sheet.

The sheet's arithmetic is data (game.yaml's `scoring:`); what stays Python is reading a map: which areas
each player controls (workers on enough spaces of an area, or a town in it), the largest group of
adjacent controlled areas, the workers on their race's aptitude terrain (a terrain token turns a whole
area), and the stacking rules of the map's spaces. That is geometry on a board the data vocabulary of
counts and expressions cannot say. The keys a map gives meaning to, and what a file without one may
not give, are mapkeys.py (light: a score without a map never imports this module nor the map's geometry).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pnpforge.gamekit import (
    N_,
    InputError,
    Phrase,
    Rules,
    RulesBroken,
    Source,
    Table,
    components,
    folder_id,
    kit,
    linked_setup,
    owned,
    quoted,
)

from . import checks

HERE = Path(__file__).parent
GAME = folder_id(HERE)  # the game's id: its folder's name
KEY = "map"  # the score file's key holding the map


COUNT_WORDS = {
    key: Phrase.word(key.replace("_", " "), key=f"count: {key}")
    for key in ("towns", "destroyed_towns", "aptitude_workers", "territory")
}
NOT_REBUILT = N_("{name} has a worker on their own destroyed town at {space}: it is rebuilt at once")
TWO_WORKERS = N_("{name} has two workers on {space}")
ON_OWN_TOWN = N_("{name} has a worker on their own town at {space}")
TOWN_STACKED = N_("{space} holds {first} and {second}")
TOWN, DESTROYED_TOWN = N_("town"), N_("destroyed town")
DATA_WORDS = (N_("Control, from the map"), N_("controlled"), N_("largest group"))


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


def _spaces(value: int | list[str]) -> list[str]:
    return value if isinstance(value, list) else []


def _map_ids(data: Any, source: Source, spaces: set[str], areas: set[str], terrains: dict[str, Any]) -> None:
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


def _stacking(data: Any, rules: Rules) -> None:
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


def _control(data: Any, source: Source, tables: Mapping[str, Any]) -> Control:
    """Controlled areas, the largest connected group and aptitude workers, computed from the map."""
    loaded = linked_setup(source, (KEY,), getattr(data, KEY), GAME)
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
    need_workers, need_towns = tables["control"]["workers"], tables["control"]["towns"]
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


def count(data: Any, source: Source, tables: Mapping[str, Any]) -> list[Table]:
    """Fill the counts the sheet reads from the map (`tables["control"]`: what control takes), and show
    each player's control under the sheet."""
    control = _control(data, source, tables)
    for p in data.players:
        p.towns = control.towns[p.name]
        p.destroyed_towns = control.destroyed[p.name]
        p.aptitude_workers = control.aptitude[p.name]
        p.territory = control.largest[p.name]
    if data.settlement:
        data.settlement.areas = len(control.areas[data.settlement.player])
    rows: list[list[int | str]] = [
        [name, len(areas), ", ".join(areas) or "-", control.largest[name], control.aptitude[name]]
        for name, areas in control.areas.items()
    ]
    return [
        Table("Control, from the map", ["player", "areas", "controlled", "largest group", "aptitude"], rows)
    ]
