"""`face_by` / `back_by`: the whole side a row is drawn with, picked by the value of one of its fields.

Each row's piece carries a copy of its component whose `face` (or `back`) is the side picked for it: the
drawing, shared-side reuse (each variant draws its shared side once, under its own name) and every
export then work as for a component with one face. Copies are made once per component and choice.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pnpforge.components.model import NO_SIDE, Component, SideBy
from pnpforge.components.template import MissingField, lookup
from pnpforge.i18n import N_
from pnpforge.phrase import Phrase
from pnpforge.saying import reason

_variants: dict[tuple[int, str | None, str | None], tuple[Component, Component]] = {}
VARIANTS_KEPT = 4096
BACK_FIELD = "back"  # a row field: false leaves that row's pieces without a back
NO_BACK = ("false", "no", "none", "0")
_NONE = "\x00none"  # picked: no side (a faces key may itself be "none")


class NoSide(ValueError):
    """A row whose value names no side, where no default is given."""


def _pick(by: SideBy, key: str, row: Mapping[str, Any], lang: str) -> str | None:
    try:
        value = lookup(row, by.field, lang)
    except MissingField as exc:
        raise NoSide(Phrase(N_("{key}_by: {reason}"), key=key, reason=reason(exc))) from None
    text = str(value).strip()
    name, side = by.side_for(text)
    if side is None:
        template = N_(
            "{key}_by: {field} {value} has no face (expected one of: {known}; or give {key}_by a default)"
        )
        if key == "back":
            template = N_(
                "{key}_by: {field} {value} has no back (expected one of: {known}; or give {key}_by a default)"
            )
        raise NoSide(Phrase(template, key=key, field=by.field, value=repr(text), known=list(by.faces)))
    if side == NO_SIDE:
        return _NONE
    return name if name is not None else "\x00default"


def one_sided(component: Component, row: Mapping[str, Any]) -> bool:
    """Whether the row says it has no back (`back: false`, or in a CSV `false`, `no`, `none` or `0`)."""
    if component.back is None or BACK_FIELD not in row:
        return False
    value = row[BACK_FIELD]
    return value is False or (isinstance(value, str) and value.strip().lower() in NO_BACK)


def variant_for(component: Component, row: Mapping[str, Any], lang: str) -> Component:
    """The component as drawn for `row`: itself, or a copy with the face and back its fields pick (no back
    for a row whose `back` field says false, or whose back_by value is none)."""
    no_back = one_sided(component, row)
    if component.face_by is None and component.back_by is None and not no_back:
        return component
    face = _pick(component.face_by, "face", row, lang) if component.face_by else None
    back = _pick(component.back_by, "back", row, lang) if component.back_by and not no_back else None
    if no_back:
        back = _NONE
    key = (id(component), face, back)
    hit = _variants.get(key)
    if hit is not None and hit[0] is component:
        return hit[1]
    update: dict[str, Any] = {"face_by": None, "back_by": None}
    paths: dict[str, tuple[str | int, ...]] = {}
    tags = []
    if back == _NONE:
        update["back"] = None
        tags.append("back=none")
    for side, by, name in (("face", component.face_by, face), ("back", component.back_by, back)):
        if by is None or name is None or name == _NONE:
            continue
        shown = name if name != "\x00default" else "default"
        chosen = by.faces[name] if name in by.faces else by.side_for(None)[1]
        update[side] = None if chosen == NO_SIDE else chosen
        paths[side] = (f"{side}_by", "faces", name) if name in by.faces else (f"{side}_by", "default")
        tags.append(f"{side}={shown}")
    copy = component.model_copy(update=update)
    copy._variant = ",".join(tags)
    copy._side_paths = paths
    if len(_variants) >= VARIANTS_KEPT:
        _variants.clear()
    _variants[key] = (component, copy)
    return copy
