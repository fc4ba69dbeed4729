"""Filling the `{field}`s of a face element from a data row, checked by the element's own model, cached."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pydantic_core import ValidationError

from pnpforge.components.model import PLACEHOLDER
from pnpforge.components.template import FILL_ERRORS, fill
from pnpforge.i18n import N_
from pnpforge.layouts.faces.values import FaceError
from pnpforge.lightmodel import BaseModel, assign
from pnpforge.phrase import Phrase
from pnpforge.saying import pydantic_message, reason


@dataclass(frozen=True)
class _Template:
    """Which fields of one element hold a `{field}`, with their values as written in the spec."""

    element: BaseModel
    fields: dict[str, Any]
    own: dict[str, Any]  # values filled per copy or cell (a repeat's elements) that also name row fields


_templates: dict[int, _Template] = {}
TEMPLATES_KEPT = 10_000  # elements remembered; a long `watch` session loads many specs
_resolved: dict[tuple[int, tuple[str, ...]], tuple[BaseModel, BaseModel]] = {}  # -> (template, filled)
RESOLVED_KEPT = 4096


def holds_placeholder(value: Any) -> bool:
    if isinstance(value, str):
        return PLACEHOLDER.search(value) is not None
    if isinstance(value, dict):
        return any(holds_placeholder(v) for v in value.values())
    if isinstance(value, list | tuple):
        return any(holds_placeholder(v) for v in value)
    return False


def _template(model: BaseModel) -> _Template:
    """The element's templated fields, found once per element (keyed by identity: models are unhashable)."""
    hit = _templates.get(id(model))
    if hit is None or hit.element is not model:
        dumped = model.model_dump(mode="python")
        own: frozenset[str] = getattr(
            type(model), "cell_templated", frozenset()
        )  # filled per hex cell or per copy, not per row
        fields = {n: v for n, v in dumped.items() if n not in own and holds_placeholder(v)}
        cell_fields: frozenset[str] | None = getattr(type(model), "cell_fields", None)
        rowish = {n: dumped[n] for n in own if cell_fields is not None and _names_row(dumped[n], cell_fields)}
        if len(_templates) >= TEMPLATES_KEPT:
            _templates.clear()
        hit = _templates[id(model)] = _Template(model, fields, rowish)
    return hit


def _names_row(value: Any, cell_fields: frozenset[str]) -> bool:
    """Whether `value` holds a placeholder of the data row: a `{field}` not among `cell_fields` (those a
    copy or cell fills), or any `{{ expression }}` (it may read the row)."""
    if isinstance(value, str):
        said = [m.group(0) for m in PLACEHOLDER.finditer(value)]
        return any(p.startswith("{{") or (p.startswith("{") and p[1:-1] not in cell_fields) for p in said)
    if isinstance(value, dict):
        return any(_names_row(v, cell_fields) for v in value.values())
    if isinstance(value, list | tuple):
        return any(_names_row(v, cell_fields) for v in value)
    return False


def has_placeholder(model: BaseModel) -> bool:
    """Whether the element differs from row to row (a `{field}` of the row, here or in a copy's elements)."""
    template = _template(model)
    return bool(template.fields or template.own)


def filled_fields(element: BaseModel, row: Mapping[str, Any], lang: str) -> dict[str, Any]:
    """The element's `{field}`-holding values as `row` fills them, before they are checked: what makes
    one row's element differ from another's (drafts/identity.py fingerprints them). Raises MissingField.
    Values filled per copy (a repeat's elements) are given as written, with the row's values beside them."""
    template = _template(element)
    out = {name: _fill_all(value, row, lang) for name, value in template.fields.items()}
    if template.own:
        out["\x00row"] = dict(row)
    return out


def _fill_all(value: Any, row: Mapping[str, Any], lang: str) -> Any:
    if isinstance(value, str):
        return fill(value, row, lang)
    if isinstance(value, dict):
        return {k: _fill_all(v, row, lang) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_fill_all(v, row, lang) for v in value]
    return value


def _describe(error: ValidationError) -> str:
    first = error.errors()[0]
    where = ".".join(str(p) for p in first["loc"])
    message = pydantic_message(first)
    return Phrase(N_("{where}: {problem}"), where=where, problem=message) if where else message


def resolve(element: BaseModel, row: Mapping[str, Any], lang: str) -> Any:
    """`element` with every `{field}` filled from `row`; the filled fields are validated again (colours,
    lengths) with the model's own validators. The other fields were validated when the spec was loaded,
    so an element without placeholders is returned as it is."""
    template = _template(element)
    if not template.fields:
        return element
    try:
        values = tuple([_fill_all(value, row, lang) for value in template.fields.values()])
    except FILL_ERRORS as exc:
        raise FaceError(reason(exc)) from None
    key = (id(element), values) if all([isinstance(v, str) for v in values]) else None
    if key is not None and (hit := _resolved.get(key)) is not None and hit[0] is element:
        return hit[1]  # rows that fill the same values share one checked element (drawing never mutates)
    resolved = element.model_copy()
    try:
        for name, value in zip(template.fields, values, strict=True):  # field order: the first error
            assign(resolved, name, value)  # is the one a full check reports
    except ValidationError as exc:
        raise FaceError(_describe(exc)) from None
    if key is not None:
        if len(_resolved) >= RESOLVED_KEPT:
            _resolved.clear()
        _resolved[key] = (element, resolved)
    return resolved
