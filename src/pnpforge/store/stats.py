"""Statistics over plays: win rate by seat, by faction and by player count; mean and spread of totals,
of the winning margin and of each scoring item.

A shared win counts as a win for each winner. The winning margin is a winner's total less the best total
of the players who did not win (0 in a tie decided by a tie-break or a draw). Spread is the population
standard deviation (0 for a single play).
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field

from pnpforge.i18n import N_
from pnpforge.store.plays import Play

__all__ = ["WORDS", "Rate", "Spread", "Stats", "compute"]

# the words of the listing, the play and the statistics
WORDS = {
    "id": N_("ID"),
    "date": N_("date"),
    "game": N_("game"),
    "version": N_("version"),
    "players": N_("players"),
    "winners": N_("winner(s)"),
    "tiebreak": N_("decided by"),
    "seat": N_("seat"),
    "name": N_("name"),
    "faction": N_("faction"),
    "total": N_("total"),
    "place": N_("place"),
    "source": N_("recorded from"),
    "plays": N_("plays"),
    "by_seat": N_("Win rate by seat"),
    "by_faction": N_("Win rate by faction"),
    "by_count": N_("Win rate by player count and seat"),
    "items": N_("Scores: mean ± spread"),
    "margin": N_("winning margin"),
    "wins": N_("wins"),
    "rate": N_("win rate"),
    "mean": N_("mean"),
    "spread": N_("spread"),
    "item": N_("item"),
    "draw": N_("draw"),
    "p": N_("p"),  # "3p": three players
}


@dataclass
class Rate:
    label: str
    plays: int = 0
    wins: int = 0

    @property
    def rate(self) -> float:
        return self.wins / self.plays if self.plays else 0.0


@dataclass
class Spread:
    label: str
    values: list[float] = field(default_factory=list)

    @property
    def mean(self) -> float:
        return statistics.fmean(self.values) if self.values else 0.0

    @property
    def sd(self) -> float:
        return statistics.pstdev(self.values) if len(self.values) > 1 else 0.0


@dataclass
class Stats:
    game: str
    version: str | None
    plays: int
    by_seat: list[Rate]
    by_faction: list[Rate]
    by_count: list[Rate]  # "3 players, seat 2"
    totals: Spread
    margin: Spread
    items: list[Spread]


def _rate(rates: dict[str, Rate], label: str, won: bool) -> None:
    rate = rates.setdefault(label, Rate(label))
    rate.plays += 1
    rate.wins += int(won)


def compute(game: str, plays: list[Play], version: str | None = None) -> Stats:
    seats: dict[str, Rate] = {}
    factions: dict[str, Rate] = {}
    counts: dict[str, Rate] = {}
    totals = Spread("total")
    margin = Spread("margin")
    items: dict[str, Spread] = {}
    for play in plays:
        count = len(play.seats)
        for seat in play.seats:
            _rate(seats, str(seat.seat), seat.won)
            if seat.faction:
                _rate(factions, seat.faction, seat.won)
            _rate(counts, f"{count}:{seat.seat}", seat.won)
            if seat.total is not None:
                totals.values.append(seat.total)
            for item, value in seat.items.items():
                items.setdefault(item, Spread(item)).values.append(value)
        won = [s.total for s in play.seats if s.won and s.total is not None]
        lost = [s.total for s in play.seats if not s.won and s.total is not None]
        if won:
            margin.values.append(max(won) - max(lost) if lost else 0)
    by_count = sorted(counts.values(), key=lambda r: tuple(int(x) for x in r.label.split(":")))
    return Stats(
        game,
        version,
        len(plays),
        sorted(seats.values(), key=lambda r: int(r.label)),
        sorted(factions.values(), key=lambda r: r.label),
        by_count,
        totals,
        margin,
        list(items.values()),
    )
