"""The score sheet: a row per player, a column per scoring item, the total, and the ranking.

A calculator fills `PlayerScore`s and asks `rank` who won: totals first, then each tie-break in
the game's order. Nothing here knows a game; the item names and tie-breaks come from the caller.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pnpforge.phrase import Phrase

__all__ = ["DRAW", "Phrase", "PlayerScore", "Ranking", "ScoreResult", "Table", "TieBreak", "rank"]

DRAW = "draw"  # the tiebreak value when nothing in the game's list separates the leaders


@dataclass
class PlayerScore:
    """One row: `breakdown` is what the total is made of; `info` is shown but never summed."""

    name: str
    breakdown: dict[str, int]
    total: int | None = None
    info: dict[str, int | str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.total is None:
            self.total = sum(self.breakdown.values())

    def as_json(self) -> dict[str, Any]:
        return {"name": self.name, "total": self.total, "breakdown": dict(self.breakdown)}


@dataclass(frozen=True)
class TieBreak:
    """A named tie-break: the bigger `value(name)` wins (negate for 'fewer is better' or seat order)."""

    name: str
    value: Callable[[str], float]

    @classmethod
    def by(cls, name: str, values: Mapping[str, float]) -> TieBreak:
        return cls(name, lambda player: values[player])


@dataclass(frozen=True)
class Ranking:
    winners: list[str]
    tiebreak: str | None  # None: the total alone decided; DRAW: nothing broke the tie
    places: dict[str, int]  # 1-based; players the tie-breaks cannot separate share a place
    tried: list[str] = field(default_factory=list)  # the tie-breaks that were looked at


def rank(
    totals: Mapping[str, int],
    tiebreaks: Sequence[TieBreak] = (),
    eligible: Iterable[str] | None = None,
) -> Ranking:
    """Winners among `eligible` (default: everyone) by total, then each tie-break in order.

    `tiebreak` names the tie-break that left a single winner; with no eligible player there is
    no winner at all (e.g. nobody has finished yet).
    """
    can_win = list(totals) if eligible is None else [p for p in totals if p in set(eligible)]

    def key(player: str) -> tuple[float, ...]:
        return (totals[player], *(t.value(player) for t in tiebreaks))

    ordered = sorted(totals, key=lambda p: (p not in can_win, tuple(-k for k in key(p))))
    places: dict[str, int] = {}
    for index, player in enumerate(ordered):
        previous = ordered[index - 1] if index else None
        same = (
            previous is not None
            and key(previous) == key(player)
            and (previous in can_win) == (player in can_win)
        )
        places[player] = places[previous] if same and previous else index + 1
    if not can_win:
        return Ranking([], None, places)
    best = max(totals[p] for p in can_win)
    leaders = [p for p in can_win if totals[p] == best]
    decided: str | None = None
    tried: list[str] = []
    for tiebreak in tiebreaks:
        if len(leaders) == 1:
            break
        top = max(tiebreak.value(p) for p in leaders)
        leaders = [p for p in leaders if tiebreak.value(p) == top]
        decided = tiebreak.name
        tried.append(tiebreak.name)
    if len(leaders) > 1:
        decided = DRAW
    return Ranking(leaders, decided, places, tried)


@dataclass
class Table:
    """An extra table printed under the score sheet (a progress sheet, a conflict log)."""

    title: str
    columns: list[str]
    rows: list[list[int | str]]

    def as_json(self) -> dict[str, Any]:
        return {"title": self.title, "columns": self.columns, "rows": self.rows}


@dataclass
class ScoreResult:
    """What a calculator returns; the CLI prints it as a table or as JSON."""

    game: str
    players: list[PlayerScore]
    winners: list[str]
    tiebreak: str | None
    notes: list[str] = field(default_factory=list)  # plain sentences under the table
    tables: list[Table] = field(default_factory=list)
    details: dict[str, Any] = field(default_factory=dict)  # extra JSON for tools, game-specific
    places: dict[str, int] = field(default_factory=dict)
    tried: list[str] = field(default_factory=list)  # tie-breaks looked at, for the verdict sentence
    verdict: str | None = None  # replaces the winner sentence, e.g. for a settlement with no winner
    title: str = ""  # the game's name for people; the engine fills it in from game.yaml

    @classmethod
    def ranked(
        cls,
        game: str,
        players: list[PlayerScore],
        tiebreaks: Sequence[TieBreak] = (),
        eligible: Iterable[str] | None = None,
        **extra: Any,
    ) -> ScoreResult:
        """Build the result and rank the players by total and the game's tie-breaks."""
        totals = {p.name: int(p.total or 0) for p in players}
        ranking = rank(totals, tiebreaks, eligible)
        return cls(
            game,
            players,
            ranking.winners,
            ranking.tiebreak,
            places=ranking.places,
            tried=ranking.tried,
            **extra,
        )

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "game": self.game,
            "players": [p.as_json() for p in self.players],
            "winners": list(self.winners),
            "tiebreak": self.tiebreak,
        }
        if self.notes:
            out["notes"] = list(self.notes)
        if self.tables:
            out["tables"] = [t.as_json() for t in self.tables]
        if self.details:
            out["details"] = self.details
        return out
