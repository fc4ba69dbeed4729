"""The score-file keys a Quo Vadis map gives meaning to, typed; and what a file without a map may not give.

Light on purpose: every score of the game reads these types, while only a score with a map imports
board.py and the map's geometry.
"""

from __future__ import annotations

from typing import Annotated, Any

from pnpforge.gamekit import N_, BeforeValidator, InputError, Name, Phrase, Source


def _count_or_spaces(value: Any) -> Any:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return value
    raise ValueError("expected a whole number, or (with a map) a list of space ids like a2-4.0")


Towns = Annotated[int | list[str], BeforeValidator(_count_or_spaces)]
# score-file keys a map gives meaning to, and the town counts that may list spaces instead
PLAYER_FIELDS: dict[str, tuple[Any, Any]] = {
    "towns": (Towns, 0),
    "destroyed_towns": (Towns, 0),  # face down: no VP, no control, but still on the board
    "race": (Name | None, None),  # the race, whose aptitude terrain earns worker VP
    "workers": (list[Name], []),  # the spaces holding one of your workers
}
GAME_FIELDS: dict[str, tuple[Any, Any]] = {
    "terrain_tokens": (dict[str, Name], {}),  # area tile id -> terrain of its latest token
}


def shape(data: Any, source: Source) -> None:
    """Without a map: spaces listed, or a settlement's areas left out, are malformed (exit 2)."""
    problems = []
    for i, p in enumerate(data.players):
        here = ("players", i)
        for key in ("towns", "destroyed_towns"):
            if isinstance(getattr(p, key), list):
                said = Phrase(N_("a list of town spaces needs `map:` (else a number)"))
                problems.append(source.problem((*here, key), said))
        if p.workers:
            problems.append(
                source.problem((*here, "workers"), Phrase(N_("worker spaces need `map:` to count from")))
            )
    if data.settlement and data.settlement.areas is None:
        problems.append(
            source.problem(("settlement",), Phrase(N_("missing key 'areas' (or give `map:` to count them)")))
        )
    if problems:
        raise InputError(problems)
