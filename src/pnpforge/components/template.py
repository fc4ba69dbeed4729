"""`{field}` placeholders and `{{ expression }}`s: one value for every piece, or one per data row.

A row may hold a field per language (`name_en`, `name_ja`); `{name}` then picks the one for the
language being built, falling back to plain `name`. `{{ cost * 2 }}` is a Jinja expression over the
row's fields (components/expressions.py). `\\{` and `\\}` stand for literal braces.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache
from typing import TYPE_CHECKING, Any, cast

from pnpforge.components.expressions import NONE, ExpressionError, evaluate, text_of
from pnpforge.i18n import N_
from pnpforge.phrase import Phrase
from pnpforge.suggest import did_you_mean

if TYPE_CHECKING:
    from pnpforge.components.model import Lang

_FIELD = re.compile(r"\\\{|\\\}|\{\{(.*?)\}\}|\{([^\W\d]\w*)\}", re.DOTALL)
EXPRESSION = re.compile(r"\{\{(.*?)\}\}", re.DOTALL)


class MissingField(KeyError):
    """A placeholder names a field the row does not have."""

    def __init__(self, name: str, known: list[str]) -> None:
        super().__init__(name)
        self.name = name
        self.known = known

    @property
    def said(self) -> Phrase:
        hint = did_you_mean(self.name, self.known)
        known = self.known or Phrase.word(NONE)
        return Phrase(
            N_("no field {name} in the data row ({hint}fields: {known})"),
            name=repr(self.name),
            hint=hint,
            known=known,
        )

    def __str__(self) -> str:
        return str(self.said)


def lookup(row: Mapping[str, Any], name: str, lang: str) -> Any:
    """The row's value for `name` in `lang`: `name_<lang>`, else `name`, else `name_en`."""
    for key in _keys(name, lang):
        if key in row and row[key] is not None:
            return row[key]
    raise MissingField(name, sorted(row))


@lru_cache(maxsize=1024)  # every row of a deck looks up the same few fields
def _keys(name: str, lang: str) -> tuple[str, str, str]:
    return (f"{name}_{lang}", name, f"{name}_en")


def fill(text: str, row: Mapping[str, Any], lang: str) -> str:
    """Replace each `{field}` and `{{ expression }}` in `text` from `row`; raises MissingField for an
    unknown field, ExpressionError for an expression that fails on this row (both in FILL_ERRORS)."""
    if "{" not in text and "\\" not in text:
        return text
    whole = _whole_field(text)
    if whole is not None:  # the text is one `{field}` (a deck's `{title}`, `{colour}`): no scan
        value = lookup(row, whole, lang)
        return value if isinstance(value, str) else str(value)
    out: list[str] = []
    for kind, part in _parts(text):  # left to right: the first failing placeholder is the one said
        if kind == _LITERAL:
            out.append(part)
        elif kind == _EXPRESSION:
            out.append(text_of(evaluate(part, row, lang)))
        else:
            value = lookup(row, part, lang)
            out.append(value if isinstance(value, str) else str(value))
    return "".join(out)


_LITERAL, _EXPRESSION, _NAME = 0, 1, 2


@lru_cache(maxsize=1024)  # a deck fills the same few texts row after row: each is scanned once
def _parts(text: str) -> tuple[tuple[int, str], ...]:
    """`text` cut into its literal runs (`\\{`, `\\}` made braces), `{{ expression }}`s and `{field}`s."""
    parts: list[tuple[int, str]] = []
    at = 0
    for match in _FIELD.finditer(text):
        literal = text[at : match.start()]
        token = match.group(0)
        if token in ("\\{", "\\}"):
            literal += token[1]
        if literal:
            parts.append((_LITERAL, literal))
        if match.group(1) is not None:
            parts.append((_EXPRESSION, match.group(1)))
        elif match.group(2) is not None:
            parts.append((_NAME, match.group(2)))
        at = match.end()
    if text[at:]:
        parts.append((_LITERAL, text[at:]))
    return tuple(parts)


@lru_cache(maxsize=1024)
def _whole_field(text: str) -> str | None:
    """The field's name when `text` is exactly one `{field}`, else None."""
    match = _FIELD.fullmatch(text)
    return match.group(2) if match is not None else None


FILL_ERRORS = (MissingField, ExpressionError)  # what filling a text from a row may raise


def localise(text: str | Mapping[Lang, str] | Mapping[str, str], lang: str) -> str:
    """Pick a text's language: a plain string is the same in every language; else `lang`, then en."""
    if isinstance(text, str):
        return text
    table = cast(Mapping[str, str], text)  # a spec's {en, ja} or any language's text: str keys either way
    return table.get(lang) or table.get("en") or next(iter(table.values()), "")
