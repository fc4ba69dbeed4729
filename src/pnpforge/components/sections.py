"""What the rules sections of a game.yaml share: `scoring:` (components/gamerules.py) and `setup:`
(components/setuprules.py) — their base model, texts per language, and the checks of a message.

Apart from both so that each command builds only its own section's models (`validate` of set-up rules
never builds the score sheet's, nor imports the expression language; `score` never the set-up's).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Annotated, Any, Literal, TypeVar

from pnpforge import catalog
from pnpforge.errors import InputError, Problem
from pnpforge.i18n import N_
from pnpforge.lightmodel import BaseModel, ConfigDict
from pnpforge.lightmodel import Key as Field
from pnpforge.phrase import Phrase
from pnpforge.sourcefile import Path_, Source, validate

__all__ = [
    "Lang",
    "LocalText",
    "Said",
    "Strict",
    "Text",
    "Word",
    "checked",
    "english",
    "in_language",
    "literal",
    "message_problems",
    "placeholders",
    "texts",
    "typed",
]

M = TypeVar("M", bound=BaseModel)
Lang = Literal["en", "ja"]
LocalText = str | dict[Lang, str]
Word = Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9 _-]*$", max_length=40)]
Text = Annotated[str, Field(min_length=1, max_length=400)]


class Strict(BaseModel):
    # (a light model is built when first used: a command that scores never pays for the set-up rules'
    # models, nor the reverse)
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)


def english(text: LocalText) -> str:
    """A text's English (the catalog key other languages are looked up by)."""
    return text if isinstance(text, str) else text.get("en") or next(iter(text.values()), "")


def literal(*values: str) -> Any:
    """`Literal[values]`, made at run time from a section's names (a score file's `game`, a choice)."""
    return Literal[values]


def texts(text: LocalText | None) -> dict[str, str]:
    """A text per language, English included (a plain text is English)."""
    if text is None:
        return {}
    return {"en": text} if isinstance(text, str) else {str(k): v for k, v in text.items()}


Said = list[tuple[str, LocalText | None]]  # (English text, its text per language when the section gives it)


def in_language(said: Said, lang: str) -> dict[str, str]:
    """The texts a section gives in `lang`, keyed by their English (what `Game.names` looks up first)."""
    found: dict[str, str] = {}
    for key, text in said:
        translated = texts(text).get(lang) if text is not None else None
        if key and translated and translated != key:
            found[key] = translated
    return found


def placeholders(text: str) -> list[str]:
    """The `{names}` a message fills in (a bad brace is a problem of its own)."""
    from _string import formatter_parser  # type: ignore[import-not-found]  # string.Formatter().parse, without `string` (~0.4 ms)

    return [name for _, name, _, _ in formatter_parser(text) if name]


def typed(model: type[M], source: Source, at: Path_) -> M:
    """The section typed by `model`; a mistyped key is one problem (its unknown key), not two (a key
    missing on the same line as well)."""
    try:
        return validate(model, source, at)
    except InputError as error:
        unknown = {p.line for p in error.problems if str(p.message).startswith("unknown key ")}
        kept = [
            p for p in error.problems if not (str(p.message).startswith("missing key ") and p.line in unknown)
        ]
        raise InputError(kept) from None


def checked(model: type[M], source: Source, key: str, problems: Callable[[M, Source], list[Problem]]) -> M:
    """A rules section (`key` of game.yaml) typed by `model` and checked: every problem raised at once,
    each at its line."""
    section = typed(model, source, (key,))
    found = problems(section, source)
    if found:
        raise InputError(found)
    return section


R = TypeVar("R")


def loaded(
    game: catalog.GameFolder,
    key: str,
    model: type[M],
    problems: Callable[[M, Source], list[Problem]],
    make: Callable[[M, Source], R],
    kept: dict[tuple[str, Any], R],
) -> R | None:
    """The game's rules section `key` checked (`checked`) and made into `make(section, source)`, once per
    version of its game.yaml (`kept`); None when the game.yaml has no such section."""
    source = catalog.spec_block(game, key)
    if source is None:
        return None
    if (game.id, source) not in kept:
        kept[game.id, source] = make(checked(model, source, key, problems), source)
    return kept[game.id, source]


def message_problems(source: Source, path: Path_, message: LocalText, known: Iterable[str]) -> list[Problem]:
    """A message's problem: braces that do not pair up, or a `{name}` not among `known` (at most one)."""
    allowed = set(known)
    at = path
    for lang, text in texts(message).items():
        at = path if isinstance(message, str) else (*path, lang)
        try:
            names = placeholders(text)
        except ValueError:
            return [
                source.problem(at, Phrase(N_("a message's braces do not pair up: {text}"), text=repr(text)))
            ]
        for name in names:
            if name not in allowed:
                said = Phrase(
                    N_("unknown name {name} in the message (expected one of: {known})"),
                    name=repr(name),
                    known=sorted(allowed),
                )
                return [source.problem(at, said)]
    return []
