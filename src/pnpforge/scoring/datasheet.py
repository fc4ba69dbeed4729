"""A score sheet written as data: a game.yaml's `scoring:` section, run (docs/scoring.md).

`load(game)` reads and checks the section (every mistake one located problem, exit 2); the `DataSheet` it
returns is what `pnpforge score`, `--interactive`, `--json` and the table page use: `model` types a
score file (made from the fields), `fields` are the questions, `score(data, source)` counts. Expressions
are the spec's sandboxed expression language (components/expressions.py); each per-player expression
reads the player's fields, the game's fields, `name`, `seat`, `players`, each player field `f` of every
player as `f_all` (seat order) and of the others as `f_others`, and the `tables:`; tie-breaks and
`eligible` also read `total` (and `total_all`, `total_others`), `ends_when` the game-wide names only.
Nothing here knows a game.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from pydantic import create_model

from pnpforge import catalog
from pnpforge.components import expressions
from pnpforge.components.gamerules import (
    Check,
    FieldSpec,
    ScoringSection,
    english,
    literal,
    scoring_problems,
    texts,
    typed,
)
from pnpforge.errors import InputError
from pnpforge.i18n import N_
from pnpforge.phrase import Phrase
from pnpforge.scoring.inputs import Count, Name, PlayerEntry, Rules, Strict, known_names, owned
from pnpforge.scoring.prompts import Field
from pnpforge.scoring.sheet import PlayerScore, ScoreResult, TieBreak
from pnpforge.sourcefile import Path_, Source

__all__ = ["DataSheet", "load", "words"]

SECTION = "scoring"
TOO_FEW = N_("{what} is {value}, fewer than the {limit} the game allows")
FAILED = N_("{problem} (while scoring {name})")


@dataclass(frozen=True)
class DataSheet:
    """A checked `scoring:` section of one game, ready to score its files."""

    game: str
    section: ScoringSection
    spec: Source  # game.yaml's section, for locating a failing expression there

    @cached_property
    def model(self) -> type[Strict]:
        """The score file's pydantic model: `game`, the game fields, `players` of name and player fields."""
        player_fields: dict[str, Any] = {"name": (Name, ...)}
        game_fields: dict[str, Any] = {}
        for spec in self.section.fields:
            target = player_fields if spec.per == "player" else game_fields
            target[spec.key] = (_type(spec), _default(spec))
        player = create_model("Player", __base__=PlayerEntry, **player_fields)
        return create_model(
            "Input",
            __base__=Strict,
            game=(literal(self.game), ...),
            players=(list[player], ...),
            **game_fields,
        )

    @cached_property
    def fields(self) -> list[Field]:
        """The questions of `score GAME --interactive` and the page: game fields first, then each player's."""
        asked = []
        for spec in sorted(self.section.fields, key=lambda f: f.per == "player"):
            kind = "choice" if spec.choices else "text" if spec.seat else "int"
            asked.append(
                Field(
                    spec.key,
                    english(spec.label),
                    english(spec.rule),
                    kind=kind,
                    default=_default(spec) if not spec.seat else None,
                    choices=tuple(spec.choices or ()),
                    per_player=spec.per == "player",
                    after=spec.seat,
                )
            )
        return asked

    @cached_property
    def _tables(self) -> dict[str, dict[Any, int]]:
        """The `tables:`, a key that reads as a whole number being that number (`territory[villages]`)."""
        return {
            name: {expressions.number(k): v for k, v in table.items()}
            for name, table in self.section.tables.items()
        }

    def score(self, data: Any, source: Source) -> ScoreResult:
        players = list(data.players)
        names = [p.name for p in players]
        seats = [f for f in self.section.fields if f.seat]
        known_names(source, [((f.key,), getattr(data, f.key)) for f in seats if getattr(data, f.key)], names)
        game_values = {f.key: getattr(data, f.key) for f in self.section.fields if f.per == "game"}
        player_keys = [f.key for f in self.section.fields if f.per == "player"]
        contexts = []
        for seat, player in enumerate(players, 1):
            context: dict[str, Any] = {**self._tables, **game_values, "players": len(players)}
            for key in player_keys:
                values = [getattr(p, key) for p in players]
                context[f"{key}_all"] = values
                context[f"{key}_others"] = values[: seat - 1] + values[seat:]
                context[key] = getattr(player, key)
            context.update(name=player.name, seat=seat)
            contexts.append(context)
        self._check(data, contexts, game_values, source)
        rows = self._rows(contexts, names)
        totals = [int(r.total or 0) for r in rows]
        for index, context in enumerate(contexts):
            context.update(
                total=totals[index], total_all=totals, total_others=totals[:index] + totals[index + 1 :]
            )
        tiebreaks = [
            TieBreak.by(
                t.name,
                {
                    c["name"]: self._number(t.by, c, ("tiebreaks", i, "by"))
                    * (1 if t.wins == "higher" else -1)
                    for c in contexts
                },
            )
            for i, t in enumerate(self.section.tiebreaks)
        ]
        eligible: list[str] | None = None
        if self.section.eligible is not None:
            eligible = [c["name"] for c in contexts if self._truth(self.section.eligible, c, ("eligible",))]
        extra: dict[str, Any] = {}
        if self.section.ends_when is not None:
            whole_game = {
                k: v for k, v in contexts[0].items() if k not in player_keys and not k.endswith("_others")
            }
            for key in ("name", "seat", "total"):
                whole_game.pop(key, None)
            ended = self._truth(self.section.ends_when, whole_game, ("ends_when",))
            extra["details"] = {"game_ends": ended}
            if not ended:
                eligible = []
                extra["verdict"] = Phrase.word(english(self.section.not_ended))
        return ScoreResult.ranked(self.game, rows, tiebreaks, eligible=eligible, **extra)

    # ---- the parts of `score`

    def _check(
        self, data: Any, contexts: list[dict[str, Any]], game_values: dict[str, Any], source: Source
    ) -> None:
        rules = Rules(self.game, source)
        for spec in self.section.fields:
            if spec.choices or spec.seat:
                continue
            if spec.per == "game":
                _in_range(rules, spec, (spec.key,), game_values[spec.key], Phrase.word(spec.key))
                continue
            for index, context in enumerate(contexts):
                what = owned(context["name"], spec.key)
                _in_range(rules, spec, ("players", index, spec.key), context[spec.key], what)
        for index, check in enumerate(self.section.checks):
            here = ("checks", index, "broken")
            if check.per == "game":
                whole = {
                    k: v
                    for k, v in contexts[0].items()
                    if k in game_values or k.endswith("_all") or k in self.section.tables or k == "players"
                }
                if self._truth(check.broken, whole, here):
                    rules.error(
                        check.code,
                        (check.at,) if check.at in game_values else ("players",),
                        _message(check, whole),
                    )
                continue
            for seat, context in enumerate(contexts):
                if self._truth(check.broken, context, here):
                    rules.error(
                        check.code,
                        ("players", seat, *((check.at,) if check.at else ())),
                        _message(check, context),
                    )
        rules.done()

    def _rows(self, contexts: list[dict[str, Any]], names: list[str]) -> list[PlayerScore]:
        breakdowns: list[dict[str, int]] = [{} for _ in contexts]
        for index, item in enumerate(self.section.items):
            here = ("items", index)
            takes = [item.when is None or self._truth(item.when, c, (*here, "when")) for c in contexts]
            points = [
                self._number(item.points, c, (*here, "points")) if took else 0
                for c, took in zip(contexts, takes, strict=True)
            ]
            if item.majority is not None:
                most = item.majority
                counts = [self._number(most.of, c, (*here, "majority", "of")) for c in contexts]
                points = _majority(
                    counts, points, most.ties, most.at_least, _first_seat(contexts, most.start)
                )
            for row, took, value in zip(breakdowns, takes, points, strict=True):
                if took:
                    row[item.name] = value
        info_keys = [f.key for f in self.section.fields if f.info and f.per == "player"]
        return [
            PlayerScore(name, row, info={k: c[k] for k in info_keys})
            for name, row, c in zip(names, breakdowns, contexts, strict=True)
        ]

    def _value(self, text: str | int, context: Mapping[str, Any], path: Path_) -> Any:
        if isinstance(text, int):
            return text
        try:
            return expressions.evaluate(text, context, "en")
        except expressions.ExpressionError as exc:
            said = Phrase(
                FAILED,
                problem=str(exc.args[0]) if exc.args else str(exc),
                name=str(context.get("name", "the game")),
            )
            raise InputError([self.spec.problem((SECTION, *path), said)]) from None

    def _number(self, text: str | int, context: Mapping[str, Any], path: Path_) -> int:
        value = self._value(text, context, path)
        try:
            return expressions.whole(value)
        except expressions.ExpressionError as exc:
            raise InputError([self.spec.problem((SECTION, *path), exc.args[0])]) from None

    def _truth(self, text: str, context: Mapping[str, Any], path: Path_) -> bool:
        return expressions.truth(self._value(text, context, path))


def _type(spec: FieldSpec) -> Any:
    if spec.choices:
        return literal(*spec.choices)
    if spec.seat:
        return Name | None
    return Count


def _default(spec: FieldSpec) -> Any:
    if spec.seat:
        return None
    if spec.default is not None:
        return spec.default
    if spec.choices:
        return spec.choices[0]
    return max(0, spec.min) if spec.min is not None else 0


def _in_range(rules: Rules, spec: FieldSpec, path: Path_, value: int, what: str) -> None:
    if spec.min == 0:
        rules.nonnegative(path, value, what)
    elif spec.min is not None and value < spec.min:
        rules.error(f"too-few-{spec.key}", path, Phrase(TOO_FEW, what=what, value=value, limit=spec.min))
    if spec.max is not None:
        rules.at_most(spec.max_code or f"too-many-{spec.key}", path, value, spec.max, what)


def _message(check: Check, context: Mapping[str, Any]) -> Phrase:
    template = english(check.message)
    values = {k: v for k, v in context.items() if isinstance(v, int | str) and f"{{{k}}}" in template}
    return Phrase(template, **values)


def _first_seat(contexts: list[dict[str, Any]], start: str | None) -> int:
    """The seat (0-based) a `ties: first` majority counts from: the player the `start` field names."""
    if start is None:
        return 0
    named = contexts[0].get(start)
    return next((i for i, c in enumerate(contexts) if c["name"] == named), 0)


def _majority(counts: list[int], points: list[int], ties: str, at_least: int, start: int) -> list[int]:
    """Points for the most of something: to the one with most, and by the tie rule among several."""
    best = max(counts, default=0)
    if best < at_least:
        return [0] * len(counts)
    leaders = [i for i, n in enumerate(counts) if n == best]
    if len(leaders) > 1:
        if ties == "nobody":
            leaders = []
        elif ties == "first":
            order = [(i - start) % len(counts) for i in leaders]
            leaders = [leaders[order.index(min(order))]]
        elif ties == "split":
            return [points[i] // len(leaders) if i in leaders else 0 for i in range(len(counts))]
    return [points[i] if i in leaders else 0 for i in range(len(counts))]


_sheets: dict[tuple[str, Any], DataSheet | None] = {}


def load(game: catalog.GameFolder) -> DataSheet | None:
    """The game's score sheet as data, checked; None when its game.yaml has no `scoring:` section."""
    source = catalog.spec_block(game, SECTION)
    if source is None:
        return None
    key = (game.id, source)
    if key not in _sheets:
        section = typed(ScoringSection, source, (SECTION,))
        problems = scoring_problems(section, source)
        if problems:
            raise InputError(problems)
        _sheets[key] = DataSheet(game.id, section, source)
    return _sheets[key]


def words(section: ScoringSection, lang: str) -> dict[str, str]:
    """The section's own texts in `lang`, keyed by their English (labels, rules, items, messages)."""
    said: dict[str, str] = {}
    pairs: list[tuple[Any, Any]] = [(s.label, s.label) for s in section.fields]
    pairs += [(s.rule, s.rule) for s in section.fields]
    pairs += [(i.name, i.label) for i in section.items if i.label is not None]
    pairs += [(c.message, c.message) for c in section.checks]
    pairs.append((section.not_ended, section.not_ended))
    for key, text in pairs:
        english_text = key if isinstance(key, str) else english(key)
        translated = texts(text).get(lang)
        if translated and english_text:
            said[english_text] = translated
    return said
