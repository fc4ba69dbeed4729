"""A score sheet written as data: a game.yaml's `scoring:` section, run (docs/scoring.md).

`load(game)` reads and checks the section (every mistake one located problem, exit 2); the `DataSheet` it
returns is what `pnpforge score`, `--interactive`, `--json` and the table page use: `model` types a
score file (made from the fields), `fields` are the questions, `score(data, source)` counts. Expressions
are the spec's sandboxed expression language (components/expressions.py); each per-player expression
reads the player's fields, the game's fields, `name`, `seat`, `players`, each player field `f` of every
player as `f_all` (seat order) and of the others as `f_others`, the `tables:` and the `kit:` values;
tie-breaks and `eligible` also read `total` (and `total_all`, `total_others`), `ends_when` and game checks
the game-wide names only. Nothing here knows a game.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Annotated, Any, Protocol

from pnpforge import catalog, kit
from pnpforge.components import expressions
from pnpforge.components.gamerules import (
    Check,
    FieldSpec,
    KitValue,
    ScoringSection,
    english,
    in_language,
    literal,
    scoring_problems,
    scoring_texts,
)
from pnpforge.components.sections import loaded
from pnpforge.errors import InputError, quoted
from pnpforge.i18n import N_
from pnpforge.lightmodel import BeforeValidator, create_model
from pnpforge.phrase import Phrase
from pnpforge.scoring.inputs import Count, Flag, Name, PlayerEntry, Rules, Strict, known_names, owned
from pnpforge.scoring.prompts import Field
from pnpforge.scoring.sheet import PlayerScore, ScoreResult, Table, TieBreak
from pnpforge.sourcefile import Path_, Source

__all__ = ["DataSheet", "load", "words"]


class Board(Protocol):
    """A game's count of some fields from a board state (pnpforge.contract.BoardCounts)."""

    @property
    def key(self) -> str: ...
    @property
    def count(self) -> Callable[[Any, Source, Mapping[str, Any]], Sequence[Any]]: ...
    @property
    def shape(self) -> Callable[[Any, Source], None] | None: ...
    @property
    def fields(self) -> Mapping[str, tuple[Any, Any]]: ...
    @property
    def game_fields(self) -> Mapping[str, tuple[Any, Any]]: ...


SECTION = "scoring"
TOO_FEW = N_("{what} is {value}, fewer than the {limit} the game allows")
FAILED = N_("{problem} (while scoring {name})")
PER_KEY = N_("expected a whole number, or a number per {what} like {example}")
UNKNOWN_KEY = N_("unknown {what} {value} (expected one of: {known})")
KEYED = N_("{what} ({key})")  # a player's count of one key: "village cards (red)"
NOT_A_LIST = N_("{text} gives {value}: expected a list of numbers, one per position (a `size:` field)")
NOT_ONE = N_("{what}: expected one value in every row, got {values}")


@dataclass(frozen=True)
class DataSheet:
    """A checked `scoring:` section of one game, ready to score its files."""

    game: str
    folder: Path
    section: ScoringSection
    spec: Source  # game.yaml's section, for locating a failing expression there
    _models: dict[str | None, type[Strict]] = field(default_factory=dict, compare=False, repr=False)

    @cached_property
    def kit(self) -> dict[str, Any]:
        """The `kit:` values, read from the printed kit's files (pnpforge.kit: a missing one is an error)."""
        return {name: _kit_value(self.folder, value) for name, value in self.section.kit.items()}

    def keys(self, spec: FieldSpec) -> list[str]:
        """The keys a by-key field may be given per (its `by: keys:`, a `kit:` list or written out)."""
        assert spec.by is not None
        return [str(k) for k in (self.kit[spec.by.keys] if isinstance(spec.by.keys, str) else spec.by.keys)]

    @cached_property
    def model(self) -> type[Strict]:
        """The score file's pydantic model: `game`, the game fields, `players` of name and player fields."""
        return self.model_with(None)

    def model_with(self, board: Board | None) -> type[Strict]:
        """The model, with a game key holding a board state (a path or inline) and the keys only a board
        gives meaning to, when the game counts from one."""
        key = board.key if board is not None else None
        if key not in self._models:
            self._models[key] = self._model(board)
        return self._models[key]

    def _model(self, board: Board | None) -> type[Strict]:
        player_fields: dict[str, Any] = {"name": (Name, ...)}
        game_fields: dict[str, Any] = {}
        groups: dict[str, dict[str, Any]] = {}
        for spec in self.section.fields:
            target = player_fields if spec.per == "player" else game_fields
            if spec.group is not None:
                if spec.group not in groups:
                    groups[spec.group] = {}
                    game_fields[spec.group] = None  # its place among the game's keys
                target = groups[spec.group]
            target[spec.key] = self._slot(spec)
        for group, fields in groups.items():
            game_fields[group] = (create_model(group.title(), Strict, __name__, fields) | None, None)
        if board is not None:
            game_fields[board.key] = (str | dict[str, Any] | None, None)
            game_fields.update(board.game_fields)
            player_fields.update(board.fields)
        player = create_model("Player", PlayerEntry, __name__, player_fields)
        top: dict[str, Any] = {"game": (literal(self.game), ...), "players": (list[player], ...)}  # type: ignore[valid-type]
        return create_model("Input", Strict, __name__, top | game_fields)

    def _slot(self, spec: FieldSpec) -> tuple[Any, Any]:
        """A field's type and default in the model (`...`: it must be given)."""
        typed = self._type(spec)
        if spec.optional:
            return typed | None, None
        return (typed, ...) if spec.required else (typed, _default(spec))

    def _type(self, spec: FieldSpec) -> Any:
        if spec.choices:
            return literal(*spec.choices)
        if spec.seat:  # a seat that must be given must name someone (`player: null` is no one)
            return Name if spec.required else Name | None
        if spec.flag:
            return Flag
        if spec.size:
            return list[Count]
        if spec.by is not None:
            example = "{" + (self.keys(spec) or ["key"])[0] + ": 1}"
            return Annotated[
                int | dict[str, int], BeforeValidator(_count_or_keys(english(spec.by.noun), example))
            ]
        return Count

    @cached_property
    def fields(self) -> list[Field]:
        """The questions of `score GAME --interactive` and the page: game fields first, then each player's."""
        asked = []
        for spec in sorted(self.section.fields, key=lambda f: f.per == "player"):
            if not spec.ask or spec.group is not None:
                continue
            kind = "choice" if spec.choices else "text" if spec.seat else "bool" if spec.flag else "int"
            kind = "ints" if spec.size else kind
            asked.append(
                Field(
                    spec.key,
                    english(spec.label),
                    english(spec.rule),
                    kind=kind,
                    default=spec.default,  # only a written default is offered: an answer is asked for
                    choices=tuple(spec.choices or ()),
                    size=spec.size or 0,
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

    def counting(self, board: Board) -> Callable[[Any, Source], ScoreResult]:
        """`score`, with fields counted from a board state by the game's `board` when the file gives one."""
        return lambda data, source: self.score(data, source, board)

    def score(self, data: Any, source: Source, board: Board | None = None) -> ScoreResult:
        players = list(data.players)
        names = [p.name for p in players]
        seats = [f for f in self.section.fields if f.seat]
        named = [(self._path(f), _game_value(data, f)) for f in seats]
        known_names(source, [(path, name) for path, name in named if name], names)
        self._known_keys(players, source)
        shown: list[Table] = []
        if board is not None and getattr(data, board.key) is not None:
            # its own problems and rule breaks first, as the board says them
            shown = list(board.count(data, source, self._tables))
        elif board is not None and board.shape is not None:
            board.shape(data, source)
        self._sizes(players, source)
        game_values: dict[str, Any] = {}
        for spec in self.section.fields:
            if spec.per == "game":
                key = f"{spec.group}_{spec.key}" if spec.group else spec.key
                game_values[key] = _game_value(data, spec)
                if spec.group:
                    game_values[spec.group] = getattr(data, spec.group) is not None
        for spec in seats:  # the seat (1 first) of the player a seat field names; the first when none
            if spec.group is None:
                who = getattr(data, spec.key)
                game_values[f"{spec.key}_seat"] = names.index(who) + 1 if who in names else 1
        player_keys = [f.key for f in self.section.fields if f.per == "player"]
        shared = {**self._tables, **self.kit, **game_values, "players": len(players)}
        contexts = []
        for seat, player in enumerate(players, 1):
            context: dict[str, Any] = dict(shared)
            for key in player_keys:
                values = [_total(getattr(p, key)) for p in players]
                context[f"{key}_all"] = values
                context[f"{key}_others"] = values[: seat - 1] + values[seat:]
                context[key] = values[seat - 1]
                if isinstance(context[key], list):  # a list field: the position of its last entry above 0
                    context[f"{key}_last"] = max(
                        (i + 1 for i, n in enumerate(context[key]) if n > 0), default=0
                    )
                    context[f"{key}_sum"] = sum(context[key])
            context.update(name=player.name, seat=seat)
            contexts.append(context)
        whole_game = {k: v for k, v in contexts[0].items() if k in shared or k.endswith("_all")}
        self._stops(players, contexts, whole_game, source)
        for name, text in self.section.values.items():  # game-wide names, each over those before it
            whole_game[name] = self._value(text, whole_game, ("values", name))
            for context in contexts:
                context[name] = whole_game[name]
        self._check(players, contexts, whole_game, source)
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
        if self.section.sheets:
            extra["tables"] = [
                self._table(i, t, contexts, whole_game) for i, t in enumerate(self.section.sheets)
            ]
        if self.section.details:
            extra["details"] = {
                name: self._detail(name, detail, whole_game) for name, detail in self.section.details.items()
            }
        if self.section.none_eligible is not None and eligible == []:
            extra["verdict"] = Phrase.word(english(self.section.none_eligible))
        at_end = {**whole_game, "total_all": totals}
        if self.section.ends_when is not None:
            ended = self._truth(self.section.ends_when, at_end, ("ends_when",))
            extra["details"] = {"game_ends": ended, **extra.get("details", {})}
            at_end["game_ends"] = ended
            if not ended:
                eligible = []
                extra["verdict"] = Phrase.word(english(self.section.not_ended))
        if self.section.no_winner is not None and self._truth(
            self.section.no_winner.when, whole_game, ("no_winner", "when")
        ):
            eligible = []
            extra["verdict"] = Phrase.word(english(self.section.no_winner.says))
        if self.section.notes:
            extra["notes"] = self._notes(at_end, contexts)
        if shown:
            extra["tables"] = [*extra.get("tables", []), *shown]
        if self.section.rows is not None:  # who has a row on this sheet at all
            rows = [
                r for r, c in zip(rows, contexts, strict=True) if self._truth(self.section.rows, c, ("rows",))
            ]
        return ScoreResult.ranked(self.game, rows, tiebreaks, eligible=eligible, **extra)

    def _notes(self, at_end: dict[str, Any], contexts: list[dict[str, Any]]) -> list[Phrase]:
        """The `notes:` whose `when` holds, each `lists:` name a list of the players' own sentences."""
        said = []
        for index, note in enumerate(self.section.notes):
            here = ("notes", index)
            if note.when is not None and not self._truth(note.when, at_end, (*here, "when")):
                continue
            lists = {
                name: [
                    _said(listed.text, context)
                    for context in contexts
                    if listed.when is None
                    or self._truth(listed.when, context, (*here, "lists", name, "when"))
                ]
                for name, listed in note.lists.items()
            }
            said.append(_said(note.text, {**at_end, **lists}))
        return said

    # ---- the parts of `score`

    def _known_keys(self, players: list[Any], source: Source) -> None:
        """A by-key count names only known keys (an unknown one is malformed input, exit 2)."""
        problems = []
        for spec in self.section.fields:
            if spec.by is None or spec.per != "player":
                continue
            known = self.keys(spec)
            for index, player in enumerate(players):
                value = getattr(player, spec.key)
                for key in value if isinstance(value, dict) else ():
                    if key not in known:
                        said = Phrase(
                            UNKNOWN_KEY,
                            what=Phrase.word(english(spec.by.word)),
                            value=quoted(key),
                            known=known,
                        )
                        problems.append(source.problem(("players", index, spec.key, key), said))
        if problems:
            raise InputError(problems)

    def _stops(
        self, players: list[Any], contexts: list[dict[str, Any]], whole_game: dict[str, Any], source: Source
    ) -> None:
        """The `stop:` checks, before anything else: when one breaks, the others are not looked at."""
        rules = Rules(self.game, source)
        for number, check in enumerate(self.section.checks):
            if not check.stop:
                continue
            if check.per == "game":
                at = self._at(check, whole_game)
                self._apply(rules, check, number, whole_game, at, None)
            elif check.per == "player":
                for index, (player, context) in enumerate(zip(players, contexts, strict=True)):
                    at = ("players", index, *((check.at,) if check.at else ()))
                    self._apply(rules, check, number, context, at, player.name)
        rules.done()

    def _table(
        self, index: int, table: Any, contexts: list[dict[str, Any]], whole_game: dict[str, Any]
    ) -> Table:
        rows = []
        for context in contexts:
            row: list[int | str] = []
            for column, shown in enumerate(table.columns):
                row.append(self._shown(shown, context, ("sheets", index, "columns", column, "value")))
            rows.append(row)
        return Table(_said(table.title, whole_game), [c.name for c in table.columns], rows)

    def _shown(self, shown: Any, context: Mapping[str, Any], path: Path_) -> int | str:
        value = self._value(shown.value, context, path)
        if shown.word:
            return Phrase.word(expressions.text_of(value))
        return value if isinstance(value, int) and not isinstance(value, bool) else expressions.text_of(value)

    def _detail(self, name: str, detail: Any, whole_game: dict[str, Any]) -> Any:
        if isinstance(detail, dict):
            return {k: self._value(t, whole_game, ("details", name, k)) for k, t in detail.items()}
        return self._value(detail, whole_game, ("details", name))

    def _check(
        self, players: list[Any], contexts: list[dict[str, Any]], whole_game: dict[str, Any], source: Source
    ) -> None:
        """Every rule break, in order: per player its counts below the least, above the most, and its
        checks; then the game's and the per-key checks. `Rules.done()` raises them all (exit 1)."""
        rules = Rules(self.game, source)
        counted = [f for f in self.section.fields if not (f.choices or f.seat or f.flag)]
        counted.sort(key=lambda f: bool(f.size))  # a list's entries after the plain counts
        for index, (player, context) in enumerate(zip(players, contexts, strict=True)):
            here = ("players", index)
            for spec in counted:
                if spec.per == "player":
                    for key, value in _entries(getattr(player, spec.key)):
                        path = (*here, spec.key, key) if key != "" else (*here, spec.key)
                        self._at_least(rules, spec, path, value, owned(player.name, self._noun(spec, key)))
            for spec in counted:
                if spec.per == "player" and spec.max is not None:
                    most = self._number(
                        spec.max, whole_game, ("fields", self.section.fields.index(spec), "max")
                    )
                    what = owned(player.name, self._noun(spec, ""))
                    rules.at_most(
                        spec.max_code or f"too-many-{spec.key}",
                        (*here, spec.key),
                        context[spec.key],
                        most,
                        what,
                    )
            for number, check in enumerate(self.section.checks):
                if check.per == "player" and not check.stop:
                    self._apply(
                        rules,
                        check,
                        number,
                        context,
                        (*here, *((check.at,) if check.at else ())),
                        player.name,
                    )
                elif check.per == "position":
                    self._positions(rules, check, number, context, here, player.name)
        for spec in counted:
            if spec.per == "game" and (spec.group is None or whole_game[spec.group]):
                value = whole_game[f"{spec.group}_{spec.key}" if spec.group else spec.key]
                if value is not None:
                    self._at_least(rules, spec, self._path(spec), value, self._noun(spec, ""))
        for number, check in enumerate(self.section.checks):
            if check.stop:
                continue
            if check.per == "game":
                self._apply(
                    rules,
                    check,
                    number,
                    whole_game,
                    self._at(check, whole_game),
                    None,
                )
            elif check.per == "key":
                for key, holders in self._holders(players, check):
                    context = {**whole_game, "key": Phrase.word(key), "held": sum(n for _, n in holders)}
                    path = ("players", holders[-1][0], str(check.of), key)
                    self._apply(rules, check, number, context, path, None)
        rules.done()

    def _positions(
        self, rules: Rules, check: Check, number: int, context: dict[str, Any], here: Path_, name: str
    ) -> None:
        """A check at each position of the player's list field `of` (`n`, 1 first, its `value`, the
        entries `before` and `after` it); `once`: only the first position that breaks it."""
        entries = list(context[str(check.of)])
        for at, value in enumerate(entries):
            position = {
                **context,
                "n": at + 1,
                "value": value,
                "before": entries[:at],
                "after": entries[at + 1 :],
            }
            found = len(rules.report.errors)
            self._apply(rules, check, number, position, (*here, str(check.of), at), name)
            if check.once and len(rules.report.errors) > found:
                return

    def _path(self, spec: FieldSpec) -> Path_:
        """Where a game field stands in the score file: its key, or its group's key then its own."""
        return (spec.group, spec.key) if spec.group else (spec.key,)

    def _at(self, check: Check, whole_game: Mapping[str, Any]) -> Path_:
        """Where a game check points: the game field `at` names, else the players."""
        spec = next((f for f in self.section.fields if f.key == check.at and f.per == "game"), None)
        return self._path(spec) if spec is not None else ("players",)

    def _noun(self, spec: FieldSpec, key: Any) -> Phrase:
        """How a rule break calls a field (or one key or position of it): its `noun` or its key, a word."""
        if spec.size:
            return Phrase(spec.noun or spec.key, n=int(key) + 1) if key != "" else Phrase.word(spec.key)
        noun = (
            Phrase.word(spec.noun or spec.key, key=spec.noun_key)
            if spec.noun_key
            else Phrase.word(spec.noun or spec.key)
        )
        return Phrase(KEYED, what=noun, key=Phrase.word(key)) if key else noun

    def _sizes(self, players: list[Any], source: Source) -> None:
        """A list field holds `size` numbers, or none at all (malformed input, exit 2)."""
        problems = []
        for spec in self.section.fields:
            if not spec.size or spec.per != "player":
                continue
            for index, player in enumerate(players):
                given = getattr(player, spec.key)
                if given and len(given) != spec.size:
                    said = _said(spec.size_message, {"size": spec.size, "count": len(given)})
                    problems.append(source.problem(("players", index, spec.key), said))
        if problems:
            raise InputError(problems)

    def _holders(self, players: list[Any], check: Check) -> Iterator[tuple[str, list[tuple[int, int]]]]:
        """Each key of the by-key field `check.of`, with the players holding some of it (seat, count)."""
        spec = next(f for f in self.section.fields if f.key == check.of)
        for key in self.keys(spec):
            held = [(i, dict(_entries(getattr(p, spec.key))).get(key, 0)) for i, p in enumerate(players)]
            holders = [(i, n) for i, n in held if n]
            if holders:
                yield key, holders

    def _at_least(self, rules: Rules, spec: FieldSpec, path: Path_, value: int, what: str) -> None:
        if spec.min == 0:
            rules.nonnegative(path, value, what)
        elif spec.min is not None and value < spec.min:
            rules.error(f"too-few-{spec.key}", path, Phrase(TOO_FEW, what=what, value=value, limit=spec.min))

    def _apply(
        self,
        rules: Rules,
        check: Check,
        number: int,
        context: dict[str, Any],
        path: Path_,
        player: str | None,
    ) -> None:
        here = ("checks", number)
        if check.when is not None and not self._truth(check.when, context, (*here, "when")):
            return
        if check.broken is not None:
            if self._truth(check.broken, context, (*here, "broken")):
                rules.error(check.code, path, _said(check.message or "", context))
            return
        assert check.value is not None and check.most is not None
        value = self._number(check.value, context, (*here, "value"))
        most = self._number(check.most, context, (*here, "most"))
        what: str = (
            _said(check.what, {**context, "most": most, "value": value})
            if check.what
            else Phrase.word(check.code)
        )
        rules.at_most(check.code, path, value, most, owned(player, what) if player else what)

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
                start = _first_seat(contexts, most.start)
                if most.each:  # a majority at each position of a list, the points summed
                    lists = [self._numbers(most.of, c, (*here, "majority", "of")) for c in contexts]
                    won = [0] * len(contexts)
                    for at in range(max((len(v) for v in lists), default=0)):
                        counts = [v[at] if at < len(v) else 0 for v in lists]
                        won = [
                            a + b
                            for a, b in zip(
                                won, _majority(counts, points, most.ties, most.at_least, start), strict=True
                            )
                        ]
                    points = won
                else:
                    counts = [self._number(most.of, c, (*here, "majority", "of")) for c in contexts]
                    points = _majority(counts, points, most.ties, most.at_least, start)
            for row, took, value in zip(breakdowns, takes, points, strict=True):
                if took:
                    row[item.name] = value
        info_keys = [f.key for f in self.section.fields if f.info and f.per == "player"]
        return [
            PlayerScore(name, row, info={**{k: c[k] for k in info_keys}, **self._shows(c)})
            for name, row, c in zip(names, breakdowns, contexts, strict=True)
        ]

    def _shows(self, context: Mapping[str, Any]) -> dict[str, int | str]:
        return {
            s.name: self._shown(s, context, ("shows", i, "value"))
            for i, s in enumerate(self.section.shows)
            if s.when is None or self._truth(s.when, context, ("shows", i, "when"))
        }

    def _value(self, text: str | int, context: Mapping[str, Any], path: Path_) -> Any:
        if isinstance(text, int):
            return text
        try:
            return expressions.evaluate(text, context, "en")
        except expressions.ExpressionError as exc:
            problem = str(exc.args[0]) if exc.args else str(exc)
            said = Phrase(FAILED, problem=problem, name=str(context.get("name", "the game")))
            raise InputError([self.spec.problem((SECTION, *path), said)]) from None

    def _number(self, text: str | int, context: Mapping[str, Any], path: Path_) -> int:
        value = self._value(text, context, path)
        try:
            return expressions.whole(value)
        except expressions.ExpressionError as exc:
            raise InputError([self.spec.problem((SECTION, *path), exc.args[0])]) from None

    def _numbers(self, text: str, context: Mapping[str, Any], path: Path_) -> list[int]:
        """A list of whole numbers (a majority at each position reads one per player)."""
        value = self._value(text, context, path)
        if not isinstance(value, list):
            said = Phrase(NOT_A_LIST, text=repr(text), value=expressions.text_of(value))
            raise InputError([self.spec.problem((SECTION, *path), said)])
        try:
            return [expressions.whole(v) for v in value]
        except expressions.ExpressionError as exc:
            raise InputError([self.spec.problem((SECTION, *path), exc.args[0])]) from None

    def _truth(self, text: str, context: Mapping[str, Any], path: Path_) -> bool:
        return expressions.truth(self._value(text, context, path))


def _kit_value(folder: Path, value: KitValue) -> Any:
    if value.copies is not None:
        return kit.copies(folder, value.copies)
    assert value.csv is not None and value.column is not None
    found = kit.rows(folder, value.csv, value.column, *value.where)
    cells = [
        expressions.number(row[value.column])
        for row, _ in found
        if all(row[k] == v for k, v in value.where.items())
    ]
    if not value.one:
        return cells
    if len(set(cells)) != 1:
        what = f"{value.csv} {value.column}"
        raise InputError.single(
            str(folder / value.csv), Phrase(NOT_ONE, what=what, values=str(sorted(set(map(str, cells)))))
        )
    return cells[0]


def _count_or_keys(noun: str, example: str) -> Any:
    """A whole number, or a mapping of whole numbers (negatives pass: they are rule breaks, not typos)."""

    def whole(v: Any) -> bool:
        return isinstance(v, int) and not isinstance(v, bool)

    def check(value: Any) -> Any:
        if whole(value) or (isinstance(value, dict) and all(whole(v) for v in value.values())):
            return value
        raise ValueError(Phrase(PER_KEY, what=Phrase.word(noun), example=example))

    return check


def _entries(value: int | list[int] | dict[str, int]) -> list[tuple[Any, int]]:
    """A count's entries: (key, count) per key, (position, count) of a list, or ("", total) for a total."""
    if isinstance(value, list):
        return list(enumerate(value))
    return list(value.items()) if isinstance(value, dict) else [("", value)]


def _total(value: Any) -> Any:
    return sum(value.values()) if isinstance(value, dict) else value


def _game_value(data: Any, spec: FieldSpec) -> Any:
    """A game field's value in the score file (None for a field of a group the file leaves out)."""
    if spec.group is None:
        return getattr(data, spec.key)
    group = getattr(data, spec.group)
    return None if group is None else getattr(group, spec.key)


def _default(spec: FieldSpec) -> Any:
    if spec.seat:
        return None
    if spec.flag:
        return bool(spec.default)
    if spec.size:
        return []
    if spec.default is not None:
        return spec.default
    if spec.choices:
        return spec.choices[0]
    return max(0, spec.min) if spec.min is not None else 0


def _said(text: Any, context: Mapping[str, Any]) -> Phrase:
    """A section's text (English template) with its `{names}` filled from `context`."""
    template = english(text)
    values = {k: v for k, v in context.items() if isinstance(v, int | str | list) and f"{{{k}}}" in template}
    # `key` is a word said in the language (a Phrase); the rest are names and numbers, shown as they are
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


_sheets: dict[tuple[str, Any], DataSheet] = {}


def load(game: catalog.GameFolder) -> DataSheet | None:
    """The game's score sheet as data, checked; None when its game.yaml has no `scoring:` section."""
    home = game.path.resolve()

    def made(section: ScoringSection, source: Source) -> DataSheet:
        return DataSheet(game.id, home, section, source)

    return loaded(game, SECTION, ScoringSection, scoring_problems, made, _sheets)


def words(section: ScoringSection, lang: str) -> dict[str, str]:
    """The section's own texts in `lang`, keyed by their English (labels, rules, items, messages)."""
    return in_language(scoring_texts(section), lang)
