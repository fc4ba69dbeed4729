"""The `scoring:` section of a game.yaml (a score sheet as data); the `setup:` section is
components/setuprules.py, what both share components/sections.py (each command builds only its own).

The models type the sections (unknown keys, wrong types: located by the input layer); `scoring_problems`
(and setuprules' `setup_problems`) then check what a type cannot: every name an expression reads is a
field, a table or a name the engine gives; every `{placeholder}` of a message is one the rule fills
in. Each mistake is one located problem (`FILE:LINE:COL`). docs/scoring.md and docs/setups.md describe
the vocabulary; the engines that run it are scoring/datasheet.py and validator/rulebook.py.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pnpforge import limits
from pnpforge.components import expressions
from pnpforge.components.sections import (
    Lang,
    LocalText,
    Said,
    Strict,
    Text,
    Word,
    english,
    in_language,
    literal,
    message_problems,
    texts,
    typed,
)
from pnpforge.errors import Problem
from pnpforge.i18n import N_
from pnpforge.lightmodel import Key as Field
from pnpforge.lightmodel import StrictBool, StrictInt, field_validator
from pnpforge.phrase import Phrase
from pnpforge.sourcefile import Path_, Source

__all__ = [
    "PLAYER_NAMES",
    "GAME_NAMES",
    "Check",
    "FieldSpec",
    "Item",
    "ScoringSection",
    "TieBreakSpec",
    "english",
    "literal",
    "scoring_problems",
    "scoring_texts",
    "in_language",
    "message_problems",
    "texts",
    "typed",
]

Key = Annotated[str, Field(pattern=r"^[a-z_][a-z0-9_]*$", max_length=40)]
Expression = Annotated[str, Field(max_length=limits.EXPRESSION_CHARS)]
Label = Annotated[str, Field(min_length=1, max_length=60)]  # a sheet's word: a breakdown key, a noun

# names the score engine gives every per-player expression, beside the fields and tables
PLAYER_NAMES = ("name", "seat", "players")
# and every expression over the whole game (`ends_when`, game checks): each player field `f` is `f_all`
GAME_NAMES = ("players",)


class ByKey(Strict):
    """A count given as a total or per key (`{red: 1, blue: 1}`); the keys: a `kit:` list, or written out."""

    keys: Key | list[Label] = Field(description="a `kit:` name holding the keys, or the keys themselves")
    word: LocalText = Field(description="what one key is, for an unknown one: 'unknown colour ...'")
    noun: LocalText = Field(description="what the keys are, for a wrong value: 'a number per people colour'")


class FieldSpec(Strict):
    """A number (or a choice) counted per player, or once for the game (`per: game`)."""

    key: Key
    label: LocalText
    rule: LocalText = ""
    noun: Label | None = Field(
        None, description="what the rule breaks call it ('Ann's village cards'); default the key"
    )
    per: Literal["player", "game"] = "player"
    min: StrictInt | None = 0
    max: StrictInt | Expression | None = None
    max_code: Word | None = None
    default: StrictInt | str | None = None
    choices: list[Word] | None = Field(None, min_length=1, max_length=50)
    seat: StrictBool = Field(False, description="a game field naming a player (its value is a player's name)")
    info: StrictBool = Field(False, description="shown beside the total on the sheet, never summed")
    heading: LocalText | None = Field(None, description="the key as a column heading says it, per language")
    by: ByKey | None = None
    flag: StrictBool = Field(False, description="true or false (a yes/no question), not a count")
    size: StrictInt | None = Field(
        None, ge=1, le=50, description="a list of this many whole numbers (one per generation, round...)"
    )
    size_message: LocalText = Field(
        N_("give {size} numbers (got {count})"), description="what a list of another length is told"
    )
    group: Key | None = Field(
        None, description="per: game: a key of the score file holding this field and the group's others"
    )
    optional: StrictBool = Field(False, description="may be left out (no default): its value is then null")
    required: StrictBool = Field(False, description="must be given (no default)")
    ask: StrictBool = Field(
        True, description="asked by `score --interactive` (false: the file and page only)"
    )
    noun_key: Text | None = Field(
        None,
        description="the catalog key the noun is said by, when its word means something else on the sheet",
    )


class KitValue(Strict):
    """A number or list the rules read from the printed kit (pnpforge.kit), so the two cannot drift apart."""

    copies: str | None = Field(None, description="how many copies game.yaml prints of this component")
    csv: str | None = Field(None, description="a CSV file of the kit")
    column: str | None = None
    where: dict[str, str] = Field(default_factory=dict, description="only the rows with these values")
    one: StrictBool = Field(False, description="the one value every (chosen) row shares, not the list")


class Majority(Strict):
    of: Expression
    each: StrictBool = Field(
        False, description="`of` is a list per player: a majority at each position, the points summed"
    )
    ties: Literal["everyone", "nobody", "split", "first"] = "everyone"
    start: Key | None = Field(None, description="with ties: first, the game field naming the first seat")
    at_least: StrictInt = 1


class Item(Strict):
    """One scoring line per player: `points` (an expression), or `majority` (the most of something)."""

    name: Label
    label: LocalText | None = None
    points: Expression | StrictInt
    majority: Majority | None = None
    when: Expression | None = None


class Check(Strict):
    """A rule break, stopping the scoring (exit 1): `broken` (an expression) with its `message`, or a
    limit, `value` more than `most` (said by the engine: "{what} is {value}, more than the {limit} ...").

    `per: player` (each player), `game` (once), or `key` (once per key of the by-key field `of` that
    someone holds, located at the last player holding it; `key` names it, `held` is its count in all)."""

    code: Word
    per: Literal["player", "game", "key", "position"] = "player"
    broken: Expression | None = None
    message: LocalText | None = None
    value: Expression | None = None
    most: Expression | StrictInt | None = None
    what: LocalText | None = None
    of: Key | None = None
    at: Key | None = None
    stop: StrictBool = Field(False, description="checked before the rest; when broken, nothing else is")
    when: Expression | None = Field(None, description="checked only where this holds")
    once: StrictBool = Field(False, description="per: position: only a player's first broken position")


class Shown(Strict):
    """A value shown on the sheet (beside the total, or as a table's column), never summed."""

    name: Label
    value: Expression
    word: StrictBool = Field(False, description="the value is a word said in each language (`words:`)")
    when: Expression | None = Field(None, description="shown only where this holds")


class SheetTable(Strict):
    """An extra table under the sheet (a progress sheet): a row per player, a column per `columns` entry."""

    title: LocalText
    columns: list[Shown] = Field(min_length=1, max_length=30)


class TieBreakSpec(Strict):
    name: Label
    label: LocalText | None = None
    by: Expression
    wins: Literal["higher", "lower"] = "higher"


class Listed(Strict):
    """A note's list: each player for whom `when` holds, said as `text` ("Ann has 118")."""

    text: LocalText
    when: Expression | None = None


class Note(Strict):
    """A sentence under the sheet, said when `when` holds (over the game, its totals and `game_ends`);
    each `lists:` name is filled with a list of per-player sentences."""

    text: LocalText
    when: Expression | None = None
    lists: dict[Key, Listed] = Field(default_factory=dict, max_length=10)


class NoWinner(Strict):
    """When `when` holds (over the game), the sheet names no winner and says `says` instead."""

    when: Expression
    says: LocalText


class ScoringSection(Strict):
    kit: dict[Key, KitValue] = Field(default_factory=dict)
    fields: list[FieldSpec] = Field(min_length=1, max_length=100)
    tables: dict[Key, dict[StrictInt | str, StrictInt]] = Field(default_factory=dict)
    items: list[Item] = Field(min_length=1, max_length=100)
    checks: list[Check] = Field(default_factory=list, max_length=100)
    tiebreaks: list[TieBreakSpec] = Field(default_factory=list, max_length=20)
    eligible: Expression | None = None
    none_eligible: LocalText | None = Field(None, description="what the sheet says when nobody may win")
    ends_when: Expression | None = None
    not_ended: LocalText = "No winner yet."
    notes: list[Note] = Field(default_factory=list, max_length=20)
    rows: Expression | None = Field(None, description="who has a row on the sheet (a per-player expression)")
    no_winner: NoWinner | None = None
    values: dict[Key, Expression] = Field(default_factory=dict, description="game-wide names, in order")
    shows: list[Shown] = Field(default_factory=list, max_length=20)
    sheets: list[SheetTable] = Field(default_factory=list, max_length=10)
    details: dict[Key, Expression | dict[Key, Expression]] = Field(default_factory=dict)
    words: list[Text] | dict[Text, dict[Lang, str]] = Field(
        default_factory=dict,
        description="the sheet's words said as data (a `word: true` value, e.g. yes), with translations",
    )

    @field_validator("fields")
    @classmethod
    def _unique(cls, fields: list[FieldSpec]) -> list[FieldSpec]:
        keys = [f.key for f in fields]
        twice = sorted({k for k in keys if keys.count(k) > 1})
        if twice:
            raise ValueError(Phrase(N_("field keys must be unique: {keys} repeated"), keys=twice))
        return fields


# ---- the words a section says


def scoring_texts(section: ScoringSection) -> Said:
    """Every text a score sheet says, by its English: labels, rules, nouns and keys said as words, items,
    messages, tie-breaks, tables, words. A bundled game's are catalog messages (tools/catalogs.py)."""
    said: Said = []
    for spec in section.fields:
        said += [(english(spec.label), spec.label)]
        counted = not (spec.choices or spec.seat or spec.flag) and (
            spec.min is not None or spec.max is not None
        )
        if spec.heading is not None or spec.info or (counted and spec.noun is None):
            said.append((spec.key, spec.heading))  # the key said as a word: a column, a rule break's noun
        said += [(english(spec.rule), spec.rule)] if english(spec.rule) else []
        said += [(choice, None) for choice in spec.choices or ()]  # said as words where offered
        said += [(spec.noun_key or spec.noun, None)] if spec.noun else []
        said += [(english(spec.size_message), spec.size_message)] if spec.size else []
        if spec.by is not None:
            said += [(english(spec.by.word), spec.by.word), (english(spec.by.noun), spec.by.noun)]
    said += [(item.name, item.label) for item in section.items]
    for check in section.checks:
        text = check.message if check.message is not None else check.what
        said += [(english(text), text)] if text is not None else []
    said += [(tiebreak.name, tiebreak.label) for tiebreak in section.tiebreaks]
    said += [(english(section.not_ended), section.not_ended)] if section.ends_when is not None else []
    said += [(english(section.none_eligible), section.none_eligible)] if section.none_eligible else []
    said += [(english(section.no_winner.says), section.no_winner.says)] if section.no_winner else []
    said += [(shown.name, None) for shown in section.shows]
    for note in section.notes:
        said += [(english(note.text), note.text)]
        said += [(english(listed.text), listed.text) for listed in note.lists.values()]
    for table in section.sheets:
        said += [(english(table.title), table.title), *((c.name, None) for c in table.columns)]
    given = section.words if isinstance(section.words, dict) else dict.fromkeys(section.words, {})
    said += [(word, {"en": word, **said_as}) for word, said_as in given.items()]
    return said


# ---- checks beyond types


def _expression_problem(source: Source, path: Path_, text: str | int, known: set[str]) -> Problem | None:
    if isinstance(text, int):
        return None
    said = expressions.check(text)
    if said is not None:
        return source.problem(path, said)
    unknown = sorted(set(expressions.names_read(text)) - known)
    if unknown:
        message = Phrase(
            N_("bad expression {text}: no field {name} (expected one of: {known})"),
            text=repr(text),
            name=repr(unknown[0]),
            known=sorted(known - set(expressions.FUNCTIONS)),
        )
        return source.problem(path, message)
    return None


def scoring_names(section: ScoringSection) -> tuple[set[str], set[str]]:
    """The names a per-player expression and a game-wide expression may read."""
    functions = set(expressions.FUNCTIONS)
    player_fields = [f.key for f in section.fields if f.per == "player"]
    game_fields = {f.key for f in section.fields if f.per == "game" and not f.group}
    game_fields |= {f"{f.group}_{f.key}" for f in section.fields if f.group} | {
        f.group for f in section.fields if f.group
    }
    tables = set(section.tables) | set(section.kit) | set(section.values)
    aggregates = {f"{k}_all" for k in player_fields} | {f"{k}_others" for k in player_fields}
    lasts = {
        f"{f.key}_{end}" for f in section.fields if f.per == "player" and f.size for end in ("last", "sum")
    }
    seats = {f"{f.key}_seat" for f in section.fields if f.seat and not f.group}
    per_player = {
        *player_fields,
        *game_fields,
        *tables,
        *aggregates,
        *lasts,
        *seats,
        *PLAYER_NAMES,
        *functions,
    }
    game = {*game_fields, *tables, *aggregates, *seats, *GAME_NAMES, *functions}
    return per_player, game


def _check_problems(
    check: Check,
    source: Source,
    here: Path_,
    keys: dict[str, FieldSpec],
    per_player: set[str],
    game: set[str],
) -> list[Problem | None]:
    """A check's own problems: one of its two forms, its expressions, its field names, its message."""
    names = (
        per_player
        if check.per == "player"
        else per_player | {"n", "value", "before", "after"}
        if check.per == "position"
        else game | {"key", "held"}
        if check.per == "key"
        else game
    )
    problems: list[Problem | None] = []
    limit = check.value is not None or check.most is not None
    if (check.broken is not None) == limit or (limit and (check.value is None or check.most is None)):
        said = Phrase.word(N_("expected `broken:` with a `message:`, or a limit: `value:` and `most:`"))
        return [source.problem(here, said)]
    if check.broken is not None and check.message is None:
        return [source.problem(here, Phrase.word(N_("missing key 'message'")))]
    for key, text in (
        ("broken", check.broken),
        ("value", check.value),
        ("most", check.most),
        ("when", check.when),
    ):
        if text is not None:
            problems.append(_expression_problem(source, (*here, key), text, names))
    for key in ("at", "of"):
        field = getattr(check, key)
        if field is not None and field not in keys:
            said = Phrase(
                N_("unknown field {name} (expected one of: {known})"), name=repr(field), known=sorted(keys)
            )
            problems.append(source.problem((*here, key), said))
    if check.per == "key" and (check.of is None or check.of not in keys or keys[check.of].by is None):
        said = Phrase.word(N_("per: key needs `of:`, a field counted per key (`by:`)"))
        problems.append(source.problem((*here, "of" if check.of else "per"), said))
    if check.per == "position" and (check.of is None or check.of not in keys or not keys[check.of].size):
        said = Phrase.word(N_("per: position needs `of:`, a list field (`size:`)"))
        problems.append(source.problem((*here, "of" if check.of else "per"), said))
    said_text = check.message if check.message is not None else check.what
    if said_text is not None:
        said_names = (names | ({"most", "value"} if limit else set())) - set(expressions.FUNCTIONS)
        problems.extend(
            message_problems(source, (*here, "message" if check.message else "what"), said_text, said_names)
        )
    return problems


def _note_problems(
    note: Note, source: Source, here: Path_, totals: set[str], game_totals: set[str]
) -> list[Problem | None]:
    """A note's expressions (over the game, its totals and `game_ends`) and its messages' `{names}`."""
    whole = game_totals | {"game_ends"}
    problems: list[Problem | None] = []
    if note.when is not None:
        problems.append(_expression_problem(source, (*here, "when"), note.when, whole))
    names = (whole | set(note.lists)) - set(expressions.FUNCTIONS)
    problems.extend(message_problems(source, (*here, "text"), note.text, names))
    for name, listed in note.lists.items():
        if listed.when is not None:
            problems.append(_expression_problem(source, (*here, "lists", name, "when"), listed.when, totals))
        said = totals - set(expressions.FUNCTIONS)
        problems.extend(message_problems(source, (*here, "lists", name, "text"), listed.text, said))
    return problems


def scoring_problems(section: ScoringSection, source: Source, at: Path_ = ("scoring",)) -> list[Problem]:
    """What a type cannot say about a score sheet: names, expressions, messages (one problem each)."""
    per_player, game = scoring_names(section)
    totals = per_player | {"total", "total_all", "total_others"}
    game_totals = game | {"total_all"}
    problems: list[Problem | None] = []
    keys = {f.key: f for f in section.fields}
    for index, spec in enumerate(section.fields):
        here = (*at, "fields", index)
        if spec.choices is not None and spec.default is not None and spec.default not in spec.choices:
            said = Phrase(
                N_("default {value} is not one of the choices ({known})"),
                value=repr(spec.default),
                known=spec.choices,
            )
            problems.append(source.problem((*here, "default"), said))
        if spec.choices is None and isinstance(spec.default, str):
            problems.append(source.problem((*here, "default"), Phrase.word(N_("expected a whole number"))))
        if spec.group is not None and (spec.per != "game" or spec.size or spec.by is not None):
            said = Phrase.word(N_("a `group:` field is a game field (`per: game`) holding one value"))
            problems.append(source.problem((*here, "group"), said))
        if spec.size:
            problems.extend(
                message_problems(source, (*here, "size_message"), spec.size_message, {"size", "count"})
            )
        if spec.noun and "{n}" in spec.noun and not spec.size:
            problems.extend(message_problems(source, (*here, "noun"), spec.noun, set()))
    for index, item in enumerate(section.items):
        here = (*at, "items", index)
        problems.append(_expression_problem(source, (*here, "points"), item.points, per_player))
        if item.when is not None:
            problems.append(_expression_problem(source, (*here, "when"), item.when, per_player))
        if item.majority is not None:
            problems.append(
                _expression_problem(source, (*here, "majority", "of"), item.majority.of, per_player)
            )
            start = item.majority.start
            if item.majority.ties == "first" and (start is None or start not in keys or not keys[start].seat):
                said = Phrase.word(N_("ties: first needs `start:`, a game field with `seat: true`"))
                problems.append(source.problem((*here, "majority", "start" if start else "ties"), said))
    for index, spec in enumerate(section.fields):
        here = (*at, "fields", index)
        if isinstance(spec.max, str):
            problems.append(_expression_problem(source, (*here, "max"), spec.max, game))
        keys_name = spec.by.keys if spec.by is not None else None
        if isinstance(keys_name, str) and keys_name not in section.kit:
            said = Phrase(
                N_("unknown kit list {name} (expected one of: {known})"),
                name=repr(keys_name),
                known=sorted(section.kit),
            )
            problems.append(source.problem((*here, "by", "keys"), said))
    for name, value in section.kit.items():
        if (value.copies is None) == (value.csv is None) or (value.csv is not None and value.column is None):
            said = Phrase.word(N_("expected `copies: COMPONENT`, or `csv: FILE` with its `column:`"))
            problems.append(source.problem((*at, "kit", name), said))
    for index, check in enumerate(section.checks):
        problems.extend(_check_problems(check, source, (*at, "checks", index), keys, per_player, game))
    known_values = game - set(section.values)
    for name, text in section.values.items():  # each value reads the game and the values before it
        problems.append(_expression_problem(source, (*at, "values", name), text, known_values))
        known_values.add(name)
    for index, shown in enumerate(section.shows):
        problems.append(_expression_problem(source, (*at, "shows", index, "value"), shown.value, per_player))
        if shown.when is not None:
            problems.append(
                _expression_problem(source, (*at, "shows", index, "when"), shown.when, per_player)
            )
    if section.rows is not None:
        problems.append(_expression_problem(source, (*at, "rows"), section.rows, per_player))
    if section.no_winner is not None:
        problems.append(_expression_problem(source, (*at, "no_winner", "when"), section.no_winner.when, game))
    for index, table in enumerate(section.sheets):
        problems.extend(message_problems(source, (*at, "sheets", index, "title"), table.title, game))
        for column, shown in enumerate(table.columns):
            where = (*at, "sheets", index, "columns", column, "value")
            problems.append(_expression_problem(source, where, shown.value, per_player))
    for name, detail in section.details.items():
        for key, text in detail.items() if isinstance(detail, dict) else [("", detail)]:
            problems.append(
                _expression_problem(source, (*at, "details", name, *([key] if key else [])), text, game)
            )
    for index, note in enumerate(section.notes):
        problems.extend(_note_problems(note, source, (*at, "notes", index), totals, game_totals))
    for index, tiebreak in enumerate(section.tiebreaks):
        problems.append(_expression_problem(source, (*at, "tiebreaks", index, "by"), tiebreak.by, totals))
    if section.eligible is not None:
        problems.append(_expression_problem(source, (*at, "eligible"), section.eligible, totals))
    if section.ends_when is not None:
        problems.append(_expression_problem(source, (*at, "ends_when"), section.ends_when, game_totals))
    return [p for p in problems if p is not None]
