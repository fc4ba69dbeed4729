"""Expressions met while loading a spec: each checked where it is written, and a component's rows kept by
`where:` and counted by a `count:` expression.

A bad expression (one Jinja cannot compile) is a problem at its own key in game.yaml, found here once,
before any row is read; an expression that fails on one row (a field that row lacks, text times text)
is a problem at that row.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from pnpforge.components.expressions import ExpressionError, check, evaluate, truth, whole
from pnpforge.components.rows import DataRow
from pnpforge.components.template import EXPRESSION
from pnpforge.errors import Problem
from pnpforge.i18n import N_
from pnpforge.phrase import Phrase
from pnpforge.saying import reason
from pnpforge.sourcefile import Path_, Source

if TYPE_CHECKING:
    from pnpforge.components.model import Component

EXPRESSION_KEYS = ("when", "where")  # keys whose whole text is an expression (unless it holds `{field}`s)
NOT_SPEC = ("rows", "lookup")  # data written in game.yaml: its text is never an expression
_FIELD_ONLY = re.compile(r"\{[^\W\d]\w*\}")
_OPEN = re.compile(r"\{\{")


def expression_of(raw: str) -> str:
    """A `count:`/`where:` text as an expression: `{{ x }}` around it is allowed too, and a lone
    `{field}` is that field's value."""
    whole_match = EXPRESSION.fullmatch(raw.strip()) or _FIELD_ONLY.fullmatch(raw.strip())
    if whole_match is None:
        return raw
    return whole_match.group(1) if whole_match.groups() else raw.strip()[1:-1]


def _walk(node: Any, path: Path_) -> Iterator[tuple[Path_, str]]:
    if isinstance(node, str):
        yield path, node
    elif isinstance(node, dict):
        for key, value in node.items():
            if key not in NOT_SPEC:
                yield from _walk(value, (*path, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _walk(value, (*path, index))


def _text_problems(text: str) -> Iterator[str]:
    """What is wrong with the `{{ }}` expressions inside one text."""
    matched = 0
    for match in EXPRESSION.finditer(text):
        matched += 1
        problem = check(match.group(1))
        if problem:
            yield problem
    if len(_OPEN.findall(text.replace("\\{", ""))) > matched:
        yield Phrase(
            N_(
                "{open} opens an expression that no {close} closes "
                "(expected {example}; for a literal brace write {escape})"
            ),
            open="`{{`",
            close="`}}`",
            example="{{ expression }}",
            escape="\\{",
        )


def expression_problems(source: Source) -> list[Problem]:
    """Every expression written in game.yaml that does not compile, located at its key."""
    data = source.data if isinstance(source.data, dict) else {}
    problems: list[Problem] = []
    for top in ("components", "styles"):
        for path, text in _walk(data.get(top), (top,)):
            key = path[-1] if path else None
            component_level = top == "components" and len(path) == 3
            is_whole = key in EXPRESSION_KEYS or (key == "count" and component_level)
            if is_whole and not _FIELD_ONLY.search(text):
                problem = check(expression_of(text))
                if problem:
                    problems.append(
                        source.problem(path, Phrase(N_("{key}: {problem}"), key=key, problem=problem))
                    )
                continue
            problems.extend(source.problem(path, p) for p in _text_problems(text))
    return problems


def select_rows(component: Component, rows: list[DataRow], lang: str) -> tuple[list[DataRow], list[Problem]]:
    """The rows `where:` keeps, each with its count times what a `count:` expression gives it (the
    component's count, per row); a count of 0 leaves the row out, as `where:` would."""
    problems: list[Problem] = []
    kept: list[DataRow] = []
    for row in rows:
        try:
            if component.where is not None and not truth(
                evaluate(expression_of(component.where), row.values, lang)
            ):
                continue
        except ExpressionError as exc:
            said = Phrase(N_("{component}: where: {problem}"), component=component.name, problem=reason(exc))
            problems.append(Problem(row.ref.file, row.ref.line, 1, said))
            continue
        if isinstance(component.count, str):
            try:
                copies = whole(evaluate(expression_of(component.count), row.values, lang))
                if copies < 0:
                    raise ExpressionError(Phrase(N_("{count} is negative"), count=copies))
            except ExpressionError as exc:
                problems.append(
                    Problem(
                        row.ref.file,
                        row.ref.line,
                        1,
                        Phrase(
                            N_(
                                "{component}: count: {problem} (expected a whole number, or an "
                                "expression giving one)"
                            ),
                            component=component.name,
                            problem=reason(exc),
                        ),
                    )
                )
                continue
            if copies == 0:
                continue
            row = replace(row, count=row.count * copies)
        kept.append(row)
    return kept, problems
