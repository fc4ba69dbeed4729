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

    def replace(match: re.Match[str]) -> str:
        token = match.group(0)
        if token == "\\{":
            return "{"
        if token == "\\}":
            return "}"
        if match.group(1) is not None:
            return text_of(evaluate(match.group(1), row, lang))
        value = lookup(row, match.group(2), lang)
        return value if isinstance(value, str) else str(value)

    return _FIELD.sub(replace, text)


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
