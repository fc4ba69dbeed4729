"""Named element styles: `styles:` at the top of game.yaml, `style: NAME` (or a list) on an element.

A style is a set of element keys (`size: 7pt, font: sans-bold, align: left`); it may `extends:` another
style (or a list of them), whose keys it overrides. An element takes its styles' keys in order (a later
style wins over an earlier one) and its own keys win over all of them. Styles are applied to the data
read from game.yaml before it is checked, so a styled element is checked and drawn exactly as if its keys
were written out; a style names nothing it draws by itself. Unknown names and cycles are problems at the
key that names them.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

from pnpforge.components.expressions import NONE
from pnpforge.errors import Problem
from pnpforge.i18n import N_
from pnpforge.phrase import Phrase
from pnpforge.sourcefile import Path_, Source

STYLE_KEYS = ("style", "extends")


def _names(value: Any) -> list[str] | None:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return list(value)
    return None


class _Styles:
    """The `styles:` map with each style's keys resolved through its `extends`, once per name."""

    def __init__(self, source: Source, raw: dict[str, Any]) -> None:
        self.source = source
        self.raw = raw
        self.resolved: dict[str, dict[str, tuple[Any, str]]] = {}  # key -> (value, the style it is from)
        self.problems: list[Problem] = []
        self.failed: set[str] = set()  # said once: a broken style is not reported again by each user

    def keys_of(self, name: str, trail: tuple[str, ...] = ()) -> dict[str, tuple[Any, str]] | None:
        if name in self.resolved:
            return self.resolved[name]
        if name in self.failed:
            return None
        found = self._resolve(name, trail)
        if found is None:
            self.failed.add(name)
        return found

    def _resolve(self, name: str, trail: tuple[str, ...]) -> dict[str, tuple[Any, str]] | None:
        style = self.raw[name]
        path: Path_ = ("styles", name)
        if not isinstance(style, dict):
            self.problems.append(
                self.source.problem(
                    path, Phrase(N_("style {name} is not a mapping of element keys"), name=repr(name))
                )
            )
            return None
        out: dict[str, tuple[Any, str]] = {}
        if "extends" in style:
            parents = _names(style["extends"])
            if parents is None:
                self.problems.append(
                    self.source.problem(
                        (*path, "extends"),
                        Phrase.word(N_("extends: expected a style name or a list of them")),
                    )
                )
                return None
            for parent in parents:
                if parent in (*trail, name):
                    cycle = " -> ".join((*trail, name, parent))
                    self.failed.update((*trail, name))
                    self.problems.append(
                        self.source.problem(
                            (*path, "extends"),
                            Phrase(N_("styles extend each other in a cycle: {cycle}"), cycle=cycle),
                        )
                    )
                    return None
                if parent not in self.raw:
                    self.problems.append(self.source.problem((*path, "extends"), _unknown(parent, self.raw)))
                    return None
                keys = self.keys_of(parent, (*trail, name))
                if keys is None:
                    return None
                out.update(keys)
        out.update({k: (v, name) for k, v in style.items() if k != "extends"})
        self.resolved[name] = out
        return out


def _unknown(name: str, styles: dict[str, Any]) -> str:
    from difflib import get_close_matches

    near = get_close_matches(name, list(styles), n=1)
    hint = Phrase(N_("did you mean {names}? "), names=repr(near[0])) if near else ""
    known = sorted(styles) or Phrase.word(NONE)
    return Phrase(
        N_("no style {name} ({hint}expected one of: {known})"), name=repr(name), hint=hint, known=known
    )


def _element_lists(node: Any, path: Path_) -> Iterator[tuple[list[Any], Path_]]:
    """Every `elements:` list under a component (face, back, face_by faces...)."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "elements" and isinstance(value, list):
                yield value, (*path, key)
            elif key not in ("rows", "lookup"):
                yield from _element_lists(value, (*path, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _element_lists(value, (*path, index))


def apply_styles(source: Source) -> tuple[Source, list[Problem]]:
    """`source` with every element's styles merged into it (a copy: the parsed file stays as read)."""
    data = source.data
    if not isinstance(data, dict):
        return source, []
    styled_elements = any(
        isinstance(element, dict) and "style" in element
        for elements, _ in _element_lists(data.get("components"), ())
        for element in elements
    )
    if "styles" not in data and not styled_elements:
        return source, []
    raw = data.get("styles") or {}
    if not isinstance(raw, dict):
        return source, []  # the schema says what `styles` must be
    styles = _Styles(source, raw)
    origins: dict[Path_, Path_] = {}  # element key taken from a style -> that key in the style
    components = copy.deepcopy(data.get("components"))
    for elements, path in _element_lists(components, ("components",)):
        for index, element in enumerate(elements):
            if not isinstance(element, dict) or "style" not in element:
                continue
            names = _names(element["style"])
            where = (*path, index, "style")
            if names is None:
                styles.problems.append(
                    source.problem(where, Phrase.word(N_("style: expected a style name or a list of them")))
                )
                continue
            taken: dict[str, tuple[Any, str]] = {}
            for name in names:
                if name not in raw:
                    styles.problems.append(source.problem(where, _unknown(name, raw)))
                    continue
                taken.update(styles.keys_of(name) or {})
            own = {k: v for k, v in element.items() if k != "style"}
            for key, (_, style) in taken.items():
                if key not in own:
                    origins[(*path, index, key)] = ("styles", style, key)
            elements[index] = {**{k: v for k, (v, _) in taken.items()}, **own}
    for name in raw:  # a style no element uses is still checked: its cycle or unknown parent is a mistake
        styles.keys_of(name)
    styled = StyledSource(source, {**data, "components": components}, origins)
    return styled, list(dict.fromkeys(styles.problems))


class StyledSource(Source):
    """game.yaml with its styles applied: a value an element took from a style is located in the style."""

    def __init__(self, source: Source, data: Any, origins: dict[Path_, Path_]) -> None:
        self.__dict__.update(source.__dict__)  # the same file, text and (lazily found) positions
        self.data = data
        self.origins = origins

    def where(self, path: Path_) -> tuple[int, int]:
        for end in range(len(path), 0, -1):
            origin = self.origins.get(tuple(path[:end]))
            if origin is not None:
                return super().where((*origin, *path[end:]))
        return super().where(path)
