"""The score sheet: built from a game's score hook (`GAME.score`: its `model` and `fields`), scored by
the CLI's own code.

A filled sheet becomes the very score file `pnpforge score` reads (`dump_yaml`), which is then read back
through `read_yaml_text` and scored by `score_source`: every number, message and rule-break code on the
page is the CLI's for that file, and each message's line is mapped back to the form field it came from.

Fields come from two places. The hook's `fields` (the questions of `score --interactive`, with their
rule hints) give the main rows. The rest of its `model` adds what a table can type in: game-wide numbers,
names and choices (a start player, a devotion top), an optional block of such fields (a settlement),
and one entry of a list whose entries hold a mapping per player (one Ankh region in conflict).
Fields naming files (`map`, `setup`, `farm`) are left out: a request never reads the machine's files.
"""

from __future__ import annotations

import re
import types
import typing
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from pnpforge import catalog, i18n, limits
from pnpforge.errors import InputError, Problem
from pnpforge.i18n import N_
from pnpforge.lightmodel import BaseModel, FieldInfo
from pnpforge.phrase import Phrase
from pnpforge.scoring import render
from pnpforge.scoring.inputs import RulesBroken
from pnpforge.scoring.sheet import ScoreResult
from pnpforge.sourcefile import Source, is_model, too_long_number
from pnpforge.table.scorefile import calculator, score_source, sheet_text, title
from pnpforge.table.setupfile import dump_yaml
from pnpforge.web import text
from pnpforge.web.answers import located, problems
from pnpforge.web.board import read_text

SCORE_FILE = "score.yaml"  # the name messages use: the file the page downloads
PLAYER = "{player}"  # stands for a player's name inside a key of the file
MAX_PLAYERS_ON_PAGE = 12  # a game that names no range still gets a sheet that fits a table
MAX_ENTRIES = 8  # entries of a list the sheet offers (Ankh: a conflict has up to eight regions)
REST = "rest"  # the form field carrying what of a loaded score file the sheet has no box for (JSON)


@dataclass(frozen=True)
class SheetField:
    """One input of the sheet. `scope` is `player` (inside a player's entry), `game` (the file) or
    `each` (the file, once per player: `key` holds `{player}`)."""

    key: str
    label: str
    rule: str = ""
    kind: str = "int"  # int, bool, text, choice, ints, names
    scope: str = "player"
    default: Any = None
    size: int = 0
    choices: tuple[str, ...] = ()
    shown: tuple[str, ...] = ()  # each choice as the page shows it (its value is still the choice)
    section: str = ""  # a heading the field is shown under
    hint: str = ""  # the section's explanation: the docstring of the model the field comes from
    entry: int = -1  # which entry of a list the field belongs to (an Ankh region: 0-7), -1 for none

    @property
    def group(self) -> str:
        """The fields shown together: one section, or one entry of a list."""
        return f"{self.section}#{self.entry}"

    def name(self, player: int | None = None) -> str:
        """The form field's name: `p0:villages`, `g:final`, `e1:regions.0.gods.{player}.figures`."""
        prefix = {"player": "p", "each": "e"}.get(self.scope)
        return f"{prefix}{player}:{self.key}" if prefix else f"g:{self.key}"


@dataclass
class Sheet:
    game: catalog.GameFolder
    title: str
    players: tuple[int, int]
    rows: list[SheetField]  # per player, one row each
    before: list[SheetField]  # game-wide, shown above the players' rows
    after: list[SheetField]  # game-wide, shown below
    each: list[SheetField] = field(default_factory=list)  # per player, in sections of their own
    names: tuple[str, ...] = ()  # the names a game's players go by (Ankh: its gods), offered in order

    def default_name(self, index: int, lang: str = "en") -> str:
        """Player `index`'s name before one is typed (what the placeholder shows): the game's own name
        for a seat, else "Player N", in the page's language (a seat's name in the game's words)."""
        if index < len(self.names):
            return text.translator(self.game.id, lang)(self.names[index])
        return text.said("player_number", lang, number=index + 1)

    @property
    def all_fields(self) -> list[SheetField]:
        return [*self.before, *self.rows, *self.after, *self.each]


# -- the sheet from the game's declarations ----------------------------------------------------------


def _unwrap(annotation: Any) -> tuple[Any, bool]:
    """The annotation without `| None` and `Annotated[...]`, and whether None was allowed."""
    if typing.get_origin(annotation) is typing.Annotated:
        return _unwrap(typing.get_args(annotation)[0])
    args = typing.get_args(annotation)
    if typing.get_origin(annotation) in (typing.Union, types.UnionType) and type(None) in args:
        rest = [a for a in args if a is not type(None)]
        inner = rest[0] if len(rest) == 1 else typing.Union[tuple(rest)]  # noqa: UP007
        return _unwrap(inner)[0], True
    return annotation, False


def _kind(annotation: Any) -> tuple[str, tuple[str, ...]] | None:
    """How a plain model field is typed in, or None when it is not a plain value (a file, a mapping)."""
    inner, _ = _unwrap(annotation)
    origin = typing.get_origin(inner)
    if inner is bool:
        return "bool", ()
    if inner is int:
        return "int", ()
    if inner is str:
        return "text", ()
    if origin is Literal:
        return "choice", tuple(str(a) for a in typing.get_args(inner))
    if origin is list and typing.get_args(inner) in ((str,),):
        return "names", ()
    if origin in (typing.Union, types.UnionType) and int in typing.get_args(inner):
        parts = typing.get_args(inner)
        if any(typing.get_origin(_unwrap(a)[0]) is dict for a in parts):
            return "counts", ()  # a count, or counts by kind (Gods: cards per people colour)
        return "int", ()  # a count that may also be spelled out (town spaces)
    return None


def _model(annotation: Any) -> type[BaseModel] | None:
    inner, _ = _unwrap(annotation)
    return inner if is_model(inner) else None


def _label(name: str, info: FieldInfo) -> str:
    """A score file key's label: the model's title for it (a catalog message), else the key as words."""
    return info.title or name.replace("_", " ")


def _plain_fields(model: type[BaseModel], prefix: str, scope: str, section: str) -> list[SheetField]:
    own = model.__doc__ if "__doc__" in vars(model) else None
    hint = " ".join((own or "").split())
    out = []
    for name, info in model.model_fields.items():
        kind = _kind(info.annotation)
        if kind is not None:
            default = None if info.is_required() else info.default
            out.append(
                SheetField(
                    f"{prefix}{name}",
                    _label(name, info),
                    kind=kind[0],
                    choices=kind[1],
                    scope=scope,
                    default=default,
                    section=section,
                    hint=hint,
                )
            )
    return out


def _per_player_entry(name: str, model: type[BaseModel]) -> list[SheetField] | None:
    """The entries of a list whose entries map player names to a block of numbers (Ankh's regions),
    up to MAX_ENTRIES of them, each its own group of fields."""
    for key, info in model.model_fields.items():
        if typing.get_origin(info.annotation) is dict:
            value = typing.get_args(info.annotation)[1]
            block = _model(value)
            if block is None:
                continue
            section = name.rstrip("s").replace("_", " ")
            out: list[SheetField] = []
            for k in range(MAX_ENTRIES):
                each = [
                    replace(f, entry=k)
                    for f in _plain_fields(block, f"{name}.{k}.{key}.{PLAYER}.", "each", section)
                ]
                hint = each[0].hint if each else ""
                head = [
                    replace(f, hint=hint, entry=k)
                    for f in _plain_fields(model, f"{name}.{k}.", "game", section)
                ]
                out += [*head, *each]
            return out
    return None


def _counts(model: type[BaseModel], f: SheetField) -> bool:
    """Whether the score file may give field `f` as counts by kind (a mapping), not just one number."""
    if f.scope == "player":
        players = model.model_fields.get("players")
        inner = _unwrap(players.annotation)[0] if players is not None else None
        entry = _model(typing.get_args(inner)[0]) if typing.get_origin(inner) is list else None
        model = entry if entry is not None else model
    info = model.model_fields.get(f.key)
    return info is not None and _kind(info.annotation) == ("counts", ())


def sheet(game: catalog.GameFolder) -> Sheet:
    """The score sheet of a game, from its score.py alone (InputError when it has none)."""
    scorer = calculator(game)
    low, high = catalog.players_range(game)
    asked = [
        SheetField(
            f.key,
            f.label,
            f.rule,
            f.kind,
            "player" if f.per_player else "game",
            f.default,
            f.size,
            tuple(f.choices),
        )
        for f in scorer.fields
    ]
    asked = [replace(f, kind="counts") if f.kind == "int" and _counts(scorer.model, f) else f for f in asked]
    known = {f.key.split(".")[0] for f in asked}
    before = [f for f, raw in zip(asked, scorer.fields, strict=True) if not raw.per_player and not raw.after]
    after = [f for f, raw in zip(asked, scorer.fields, strict=True) if not raw.per_player and raw.after]
    rows = [f for f in asked if f.scope == "player"]
    each: list[SheetField] = []
    model: type[BaseModel] = scorer.model
    for name, info in model.model_fields.items():
        if name in known or name in ("game", "players"):
            continue
        kind = _kind(info.annotation)
        inner, _ = _unwrap(info.annotation)
        if kind is not None:
            default = None if info.is_required() else info.default
            after.append(
                SheetField(name, _label(name, info), "", kind[0], "game", default, 0, kind[1], section="more")
            )
        elif _model(info.annotation) is not None:
            after += _plain_fields(_model(info.annotation), f"{name}.", "game", name.replace("_", " "))  # type: ignore[arg-type]
        elif typing.get_origin(inner) is list and _model(typing.get_args(inner)[0]) is not None:
            fields = _per_player_entry(name, _model(typing.get_args(inner)[0]))  # type: ignore[arg-type]
            for f in fields or []:
                (each if f.scope == "each" else after).append(f)
    groups = list(dict.fromkeys(f.group for f in after))
    after.sort(key=lambda f: groups.index(f.group))  # each group's fields together, in first-seen order
    names = tuple(scorer.player_names())
    players = (low, min(high, low + MAX_PLAYERS_ON_PAGE))
    return Sheet(game, title(game), players, rows, before, after, each, names)


NO_PATHS = N_("the server reads no files: give the set-up inline under {key}, not a path")
GIVE = N_("give `{key}: true`")  # how a rule names a box of the sheet (a score file's key)
_FILE_NOTE = re.compile(
    r"\s*[(（]\s*[\w.]+\.yaml:\s*[^)）]*[)）]"
)  # "(game.yaml: scoring values, town)": a designer's


def sheet_words(the_sheet: Sheet, said: str, lang: str = "en") -> str:
    """A sentence of the score engine as the sheet says it: "give `final: true`" names the sheet's box
    (“was this the last event of the game” ticked), and notes on the designer's files are left out."""
    tr = text.translator(the_sheet.game.id, lang)
    for f in [*the_sheet.before, *the_sheet.after]:
        if f.kind == "bool":
            give = i18n.said(lang, GIVE, key=f.key)  # as the language says it inside the engine's sentence
            said = said.replace(give, text.said("tick", lang, label=tr(f.label)))
            said = said.replace(f"`{f.key}: true`", f"“{tr(f.label)}” ✓")
    return _FILE_NOTE.sub("", said)


def localised(the_sheet: Sheet, lang: str) -> Sheet:
    """The sheet with its labels, rule hints, section headings, choices and seat names in `lang`
    (keys and submitted values never change), in the sheet's words (`sheet_words`)."""
    translate = text.translator(the_sheet.game.id, lang)

    def tr(english: str) -> str:
        return sheet_words(the_sheet, translate(english), lang)

    def shown(fields: list[SheetField]) -> list[SheetField]:
        return [
            replace(
                f,
                label=tr(f.label),
                rule=tr(f.rule),
                shown=tuple(tr(c) for c in f.choices),
                section=f.section if f.section == "more" else tr(f.section),
                hint=tr(f.hint),
            )
            for f in fields
        ]

    return replace(
        the_sheet,
        rows=shown(the_sheet.rows),
        before=shown(the_sheet.before),
        after=shown(the_sheet.after),
        each=shown(the_sheet.each),
        names=tuple(tr(n) for n in the_sheet.names),  # a game's own names for its seats (Ankh's gods)
    )


def field_names(the_sheet: Sheet, count: int) -> list[str]:
    """Every form field the sheet has for `count` players (a list's numbers one by one), `count` and
    `round` first: what a table keeps."""
    names = ["count", "round"]
    for f in [*the_sheet.before, *the_sheet.after]:
        names += [f"{f.name()}.{k}" for k in range(f.size)] if f.kind == "ints" else [f.name()]
    for i in range(count):
        names.append(f"p{i}:name")
        for f in [*the_sheet.rows, *the_sheet.each]:
            names += [f"{f.name(i)}.{k}" for k in range(f.size)] if f.kind == "ints" else [f.name(i)]
    return names


# -- a filled form to a score file -------------------------------------------------------------------

_WHOLE = re.compile(r"[+-]?\d+")
_NUMBER = re.compile(r"[+-]?(\d+\.\d*|\.\d+|\d+)([eE][+-]?\d+)?")
_TRUE = ("on", "true", "1", "yes")


def _number(text: str) -> Any:
    """A typed number as the file would hold it; anything else stays text for the model to refuse."""
    text = text.strip()
    if _WHOLE.fullmatch(text):
        return int(text)
    if _NUMBER.fullmatch(text):
        return float(text)
    return text


def value_of(f: SheetField, form: dict[str, str], player: int | None = None) -> Any:
    """The value a field's inputs give, or None when left blank (the model's default then applies)."""
    name = f.name(player)
    if f.kind == "bool":
        return True if form.get(name, "").strip().lower() in _TRUE else None
    if f.kind == "ints":
        parts = [form.get(f"{name}.{k}", "").strip() for k in range(f.size)]
        return [_number(p) if p else 0 for p in parts] if any(parts) else None
    raw = form.get(name, "").strip()
    if not raw:
        return None
    if f.kind == "int":
        return _number(raw)
    if f.kind == "counts":
        return _counts_of(raw)
    if f.kind == "names":
        return [part.strip() for part in raw.split(",") if part.strip()] or None
    return raw


_BY_KIND = re.compile(r"\s*([^\s:=,]+)\s*[:=]?\s*([+-]?\d+)\s*")


def _counts_of(text: str) -> Any:
    """A count ("3") or counts by kind ("red: 2, blue: 1", as the score file's `{red: 2, blue: 1}`);
    anything else stays text for the model to refuse."""
    if _WHOLE.fullmatch(text):
        return int(text)
    parts = [_BY_KIND.fullmatch(part) for part in text.split(",")]
    if all(parts):
        return {m.group(1): int(m.group(2)) for m in parts if m}
    return text


def _put(target: Any, parts: list[str | int], value: Any) -> None:
    for here, part in enumerate(parts[:-1]):
        as_list = isinstance(parts[here + 1], int)  # a fresh container each time: never one shared
        if isinstance(part, int):
            while len(target) <= part:
                target.append([] if as_list else {})
            target = target[part]
        else:
            target = target.setdefault(part, [] if as_list else {})
    last = parts[-1]
    if isinstance(last, int):
        while len(target) <= last:
            target.append(None)
        target[last] = value
    else:
        target[last] = value


def _parts(key: str, player: str = "") -> list[str | int]:
    return [int(p) if p.isdigit() else (player if p == PLAYER else p) for p in key.split(".")]


def player_names(the_sheet: Sheet, form: dict[str, str], count: int) -> list[str]:
    lang = form.get("lang", "en") if form.get("lang") in text.languages() else "en"
    return [form.get(f"p{i}:name", "").strip() or the_sheet.default_name(i, lang) for i in range(count)]


def score_data(the_sheet: Sheet, form: dict[str, str], count: int) -> dict[str, Any]:
    """The score file's data for `count` players, in the order `pnpforge score` documents."""
    data: dict[str, Any] = {"game": the_sheet.game.id}
    for f in the_sheet.before:
        if (value := value_of(f, form)) is not None:
            _put(data, _parts(f.key), value)
    names = player_names(the_sheet, form, count)
    entries = []
    for index, name in enumerate(names):
        entry: dict[str, Any] = {"name": name}
        for f in the_sheet.rows:
            if (value := value_of(f, form, index)) is not None:
                _put(entry, _parts(f.key), value)
        entries.append(entry)
    data["players"] = entries
    for f in the_sheet.after:
        if (value := value_of(f, form)) is not None:
            _put(data, _parts(f.key), value)
    spelled = _spellings(the_sheet, form.get("lang", "en"))
    for f in the_sheet.each:
        for index, name in enumerate(names):
            if (value := value_of(f, form, index)) is not None:
                if f.kind == "names" and isinstance(value, list):  # a card by its name in the page's language
                    value = [spelled.get(v, v) for v in value]
                _put(data, _parts(f.key, name), value)
    if form.get(REST):
        _merge(data, _rest_of(form[REST]))
    return data


def _spellings(the_sheet: Sheet, lang: str) -> dict[str, str]:
    """The game's names (its gods, its cards) in `lang` → the English name a score file gives."""
    if lang == "en" or lang not in text.languages():
        return {}
    from pnpforge import contract

    names = contract.of(the_sheet.game).names
    return {said: english for english, said in (names(lang) if names else {}).items()}


def _rest_of(raw: str) -> Any:
    """The carried part of a loaded file (JSON the page wrote; anything else carries nothing)."""
    import json

    try:
        rest = json.loads(raw)
    except ValueError:
        return {}
    return rest if isinstance(rest, dict) else {}


def _merge(target: Any, patch: Any) -> None:
    """Put what `patch` holds into `target` where the sheet left it blank: a list's entries are keyed
    by their index ("1"); a value typed on the sheet is kept."""
    items = patch.items() if isinstance(patch, dict) else []
    for key, value in items:
        if isinstance(target, list):
            if not (isinstance(key, str) and key.isdigit() and int(key) <= len(target) + MAX_ENTRIES):
                continue
            index = int(key)
            while len(target) <= index:
                target.append({})
            if isinstance(value, dict) and isinstance(target[index], dict | list) and target[index]:
                _merge(target[index], value)
            elif not target[index]:
                target[index] = value
        elif isinstance(target, dict):
            if key in target and isinstance(value, dict) and isinstance(target[key], dict | list):
                _merge(target[key], value)
            elif key not in target:
                target[key] = value


def _patch(data: Any, captured: Any) -> Any:
    """What of `data` is not in `captured` (the sheet's own reading of it), in `_merge`'s shape; None
    when nothing is missing."""
    if isinstance(data, dict) and isinstance(captured, dict):
        out = {}
        for key, value in data.items():
            if key not in captured:
                out[key] = value
            elif (inner := _patch(value, captured[key])) is not None:
                out[key] = inner
        return out or None
    if isinstance(data, list) and isinstance(captured, list):
        out = {}
        for index, value in enumerate(data):
            if index >= len(captured):
                out[str(index)] = value
            elif (inner := _patch(value, captured[index])) is not None:
                out[str(index)] = inner
        return out or None
    return None if data == captured else data


def _get(data: Any, parts: list[str | int]) -> Any:
    for part in parts:
        in_list = isinstance(part, int) and isinstance(data, list) and part < len(data)
        if not (in_list or (isinstance(part, str) and isinstance(data, dict) and part in data)):
            return None
        data = data[part]
    return data


def _shown(f: SheetField, name: str, value: Any, into: dict[str, str]) -> None:
    if value is None:
        return
    if f.kind == "ints" and isinstance(value, list):
        into.update({f"{name}.{k}": str(v) for k, v in enumerate(value[: f.size])})
    elif f.kind == "bool":
        into[name] = "on" if value is True else ""
    elif f.kind == "names" and isinstance(value, list):
        into[name] = ", ".join(str(v) for v in value)
    elif f.kind == "counts" and isinstance(value, dict):
        into[name] = ", ".join(f"{k}: {v}" for k, v in value.items())
    elif not isinstance(value, dict | list):
        into[name] = str(value)


def form_of(the_sheet: Sheet, data: Any) -> tuple[dict[str, str], int]:
    """A score file's data back on the sheet (the inverse of `score_data`), and its player count."""
    players = data.get("players") if isinstance(data, dict) else None
    entries = [e for e in players if isinstance(e, dict)] if isinstance(players, list) else []
    low, high = the_sheet.players
    count = min(max(len(entries), low), high)
    form: dict[str, str] = {"count": str(count)}
    for f in [*the_sheet.before, *the_sheet.after]:
        _shown(f, f.name(), _get(data, _parts(f.key)), form)
    for index, entry in enumerate(entries[:count]):
        form[f"p{index}:name"] = str(entry.get("name", ""))
        for f in the_sheet.rows:
            _shown(f, f.name(index), _get(entry, _parts(f.key)), form)
        for f in the_sheet.each:
            _shown(f, f.name(index), _get(data, _parts(f.key, str(entry.get("name", "")))), form)
    if isinstance(data, dict):  # what the sheet has no box for travels with it, untouched
        rest = _patch(data, score_data(the_sheet, form, count))
        if rest is not None:
            import json

            form[REST] = json.dumps(rest, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return form, count


# -- scoring and mapping messages back to fields -----------------------------------------------------


@dataclass
class Scored:
    """What the page shows after scoring: the result as JSON-ready data, or located messages."""

    yaml: str
    result: dict[str, Any] | None = None
    problems: list[dict[str, Any]] = field(default_factory=list)  # field, code, message, where
    carry: dict[str, int] = field(default_factory=dict)  # next round: form field -> value

    def as_json(self) -> dict[str, Any]:
        return {
            "ok": self.result is not None,
            "result": self.result,
            "problems": self.problems,
            "carry": self.carry,
            "yaml": self.yaml,
        }


def _field_of(the_sheet: Sheet, source: Source, names: list[str], line: int, col: int) -> str | None:
    """The form field whose value stands at `line:col` of the score file."""
    paths = [p for p, at in source.positions.items() if at == (line, col)]
    if not paths:
        return None
    path = max(paths, key=len)
    if len(path) >= 3 and path[0] == "players" and isinstance(path[1], int):
        rest = [str(p) for p in path[2:]]
        if rest == ["name"]:
            return f"p{path[1]}:name"
        for f in the_sheet.rows:
            if f.key.split(".") == rest[: len(f.key.split("."))]:
                extra = rest[len(f.key.split(".")) :]
                return f.name(path[1]) + (f".{extra[0]}" if f.kind == "ints" and extra else "")
        return None
    text = [str(p) for p in path]
    for f in the_sheet.each:
        template = f.key.split(".")
        head = text[: len(template)]
        if len(head) == len(template) and all(t in (s, PLAYER) for t, s in zip(template, head, strict=True)):
            who = text[template.index(PLAYER)]
            if who in names:
                return f.name(names.index(who))
    for f in [*the_sheet.before, *the_sheet.after]:
        if f.key.split(".") == text[: len(f.key.split("."))]:
            return f.name()
    return None


def _located(
    the_sheet: Sheet, source: Source, names: list[str], problem: Problem, code: str = "", lang: str = "en"
) -> dict[str, Any]:
    target = _field_of(the_sheet, source, names, problem.line, problem.col) if problem.line else None
    return located(problem, lang, target, code, game=the_sheet.game.id)


_WHERE = re.compile(r"^(.*):(\d+):(\d+)$")


def _result_json(result: ScoreResult, the_sheet: Sheet, lang: str) -> dict[str, Any]:
    out = result.as_json()
    out["title"] = result.title
    out["places"] = result.places
    out["verdict"] = render.verdict(result)
    out["table"] = render.text(result)
    tr = text.translator(the_sheet.game.id, lang)
    # the verdict as the page shows it: in the page's language, in the sheet's words
    out["said"] = sheet_words(the_sheet, render.verdict(result, tr), lang)
    # shown, never summed (Gods: crystals); a word the game wrote said in the page's language
    out["info"] = [
        {k: tr(v) if isinstance(v, Phrase) else v for k, v in p.info.items()} for p in result.players
    ]
    infos = list(dict.fromkeys(k for p in result.players for k in p.info))
    out["info_labels"] = {k: tr(k) for k in infos}
    keys = {k for p in result.players for k in p.breakdown}
    out["labels"] = {k: tr(k) for k in keys}  # breakdown row labels as shown; the keys stay the CLI's
    out["shown_notes"] = [tr(n) for n in result.notes]
    out["shown_tables"] = [
        {"title": tr(t.title), "columns": [tr(c) for c in t.columns], "rows": render.table_rows(t, tr)}
        for t in result.tables
    ]
    out["shown_table"] = sheet_text(result, lang)  # what `pnpforge score --lang LANG` prints
    return out


def _carry(the_sheet: Sheet, data: dict[str, Any], result: ScoreResult) -> dict[str, int]:
    """A sheet whose first item is a field's value `before` this round carries its totals into the next."""
    if result.winners:
        return {}
    for f in the_sheet.rows:
        if f.kind != "int":
            continue
        carried = {}
        for index, (entry, player) in enumerate(zip(data["players"], result.players, strict=False)):
            first = next(iter(player.breakdown.items()), None)
            given = entry.get(f.key, f.default if f.default is not None else 0)
            if first is None or not first[0].endswith("before") or first[1] != given:
                break
            carried[f.name(index)] = int(player.total or 0)
        else:
            if carried:
                return carried
    return {}


def _too_long(the_sheet: Sheet, form: dict[str, str], count: int, lang: str) -> list[dict[str, Any]]:
    """Typed numbers longer than a file may hold, each on its field, in the input layer's words
    (`sourcefile.limits.DIGITS`): refused before Python converts them, as they are in a file."""
    names = {f.name(i) for f in [*the_sheet.rows, *the_sheet.each] for i in range(count)}
    names |= {f.name() for f in [*the_sheet.before, *the_sheet.after]}
    out = []
    for key, value in form.items():
        if key.rsplit(".", 1)[0] in names or key in names:
            digits = value.strip().lstrip("+-")
            if len(digits) > limits.DIGITS and digits.isdigit():
                said = located(Problem("", 0, 0, too_long_number()), lang, key)
                out.append({**said, "where": said["message"]})  # on the sheet: no file, no line
    return out


def refused(source: Source, lang: str = "en", game: str | None = None) -> list[dict[str, Any]]:
    """What `pnpforge score` refuses in a score file (e.g. a player more than the game allows), as the
    CLI says it; a file the engine can read gives nothing (its rule breaks show on the sheet)."""
    try:
        refuse_paths(source)
        score_source(source)
    except InputError as error:
        return problems(error, lang, game)
    except RulesBroken:
        pass
    return []


NOT_HELD = N_(
    "the sheet cannot hold {key} of this file as it is: `pnpforge score` gives {cli}, the sheet would give "
    "{page}; score the file with `pnpforge score`"
)


def _outcome(result: dict[str, Any] | None) -> Any:
    if result is None:
        return None
    return ([(p["name"], p["total"]) for p in result["players"]], result["winners"], result["tiebreak"])


def _first_path(patch: Any, path: tuple[Any, ...] = ()) -> tuple[Any, ...]:
    if isinstance(patch, dict) and patch:
        key, value = next(iter(patch.items()))
        return _first_path(value, (*path, int(key) if isinstance(key, str) and key.isdigit() else key))
    return path


def unequal(
    the_sheet: Sheet, source: Source, form: dict[str, str], count: int, lang: str = "en"
) -> list[dict[str, Any]]:
    """Nothing when the sheet loaded from `source` scores as `pnpforge score` scores the file (same
    totals, winners and tie-break, or both refusing); else one problem, at the first part of the file
    the sheet does not reproduce, so a loaded file never changes a result silently."""
    try:
        refuse_paths(source)
        cli = _outcome(score_source(source).as_json())
    except (InputError, RulesBroken):
        cli = None
    page = score_form(the_sheet, {**form, "lang": "en"}, count, "en")
    if _outcome(page.result) == cli or (cli is None and page.result is None):
        return []
    captured = score_data(the_sheet, {**form, "lang": "en"}, count)
    path = _first_path(_patch(source.data, captured))
    key = ".".join(str(p) for p in path) or "game"
    said = Phrase(NOT_HELD, key=repr(key), cli=_said_outcome(cli), page=_said_outcome(_outcome(page.result)))
    return [located(source.problem(path, said), lang, game=the_sheet.game.id)]


def _said_outcome(outcome: Any) -> str:
    if outcome is None:
        return "—"
    totals, winners, _ = outcome
    return ", ".join(f"{name} {total}" for name, total in totals) + (
        f" ({', '.join(winners)})" if winners else ""
    )


def score_form(the_sheet: Sheet, form: dict[str, str], count: int, lang: str = "en") -> Scored:
    """Score a filled sheet exactly as `pnpforge score score.yaml` would score its download."""
    too_long = _too_long(the_sheet, form, count, lang)
    if too_long:
        return Scored("", problems=too_long)
    data = score_data(the_sheet, {**form, "lang": form.get("lang") or lang}, count)
    file_text = dump_yaml(data)
    names = [entry["name"] for entry in data["players"]]
    source = read_text(file_text, SCORE_FILE)
    scored = Scored(file_text)
    try:
        refuse_paths(source)  # a carried `farm: path` (rest) never makes the server read a file
        result = score_source(source)
    except InputError as error:
        scored.problems = [_located(the_sheet, source, names, p, lang=lang) for p in error.problems]
        return scored
    except RulesBroken as broken:
        # a rule break (a Phrase) is said in `lang`, in the game's words (a linked set-up's violation too)
        for v in broken.report.errors:
            match = _WHERE.match(str(v.where or ""))
            line, col = (int(match.group(2)), int(match.group(3))) if match else (0, 0)
            problem = Problem(SCORE_FILE, line, col, v.message)
            scored.problems.append(_located(the_sheet, source, names, problem, v.code, lang))
        return scored
    scored.result = _result_json(result, the_sheet, lang)
    scored.carry = _carry(the_sheet, data, result)
    return scored


def _file_keys(model: type[BaseModel]) -> list[str]:
    """Keys that may name a file on disk (typed `str | dict`: a path, or the same data inline)."""
    keys = []
    for name, info in model.model_fields.items():
        args = set(typing.get_args(_unwrap(info.annotation)[0]))
        if str in args and any(typing.get_origin(a) is dict or a is dict for a in args):
            keys.append(info.alias or name)
    return keys


def refuse_paths(source: Source) -> None:
    """A request never makes the server read its files: a path in a score file is refused, inline is fine."""
    data = source.data
    if not isinstance(data, dict) or not isinstance(data.get("game"), str):
        return  # the engine reports it
    try:
        scorer = calculator(catalog.find_game(data["game"]))
    except InputError:
        return
    problems = [
        source.problem((key,), Phrase(NO_PATHS, key=repr(key)))
        for key in _file_keys(scorer.model)
        if isinstance(data.get(key), str)
    ]
    if problems:
        raise InputError(problems)


def score_text(text: str) -> dict[str, Any]:
    """A score file's text scored as `pnpforge score FILE --json` prints it (InputError when malformed)."""
    source = read_text(text, SCORE_FILE)
    refuse_paths(source)
    try:
        result = score_source(source)
    except RulesBroken as broken:
        return broken.report.as_json()
    return result.as_json()
