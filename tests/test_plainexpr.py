"""The plain expressions run without Jinja (components/plainexpr.py) give exactly what Jinja gives.

Every expression is run both ways, over rows holding numbers, texts, lists and a missing name: the
value (and its type) is Jinja's, an expression Jinja refuses is refused, an error is raised where
Jinja raises one, and the names read are Jinja's names in Jinja's order. The corpus: the bundled
score sheets' own expressions, hand-picked edge cases, and many random token strings.
"""

from __future__ import annotations

import math
import random
import subprocess
import sys
from typing import Any

import pytest
from jinja2 import TemplateSyntaxError, nodes
from jinja2.parser import Parser
from ruamel.yaml import YAML

from pnpforge import catalog
from pnpforge.components import expressions, plainexpr

ROWS: list[dict[str, Any]] = [
    {
        "a": 3,
        "b": 0,
        "c": -7,
        "s": "x",
        "n": "12",
        "l": [1, 2, 3],
        "e": [],
        "t": True,
        "f": None,
        "d": {0: 5},
    },
    {"a": 2.5, "b": 10**17, "c": 10**18, "s": "", "n": "4.5", "l": ["p", "q"], "e": (1,), "t": 0, "f": "0"},
    {"a": 1, "b": 2, "c": 3, "s": "yes", "min": 4, "result": 1, "name_en": "Ann", "l": [10**18, 1]},
    {"a": 0, "b": 1, "c": 2, "s": "A", "l": ["b", "A", "a"], "e": [True, 1], "d": {1: 1, 2: 3, "x": 9}},
]
EDGES = [
    "d[b]",
    "d[a]",
    "d[min(c, 4)]",
    "d['x']",
    "d[s]",
    "l[0]",
    "l[-1]",
    "l[9]",
    "d[a][b]",
    "-d[b]",
    "d[b] | abs",
    "d [b]",
    "d[b:c]",
    "d[b, c]",
    "d[]",
    "min(l)[0]",
    "s[0]",
    "l | max",
    "l | min",
    "e | max",
    "l | max >= 6",
    "d | max",
    "a",
    "a + b * c",
    "a - b - c",
    "a // b",
    "a / b",
    "a % b",
    "-a ** 2",
    "a * b * c * c",
    "c * c",
    "b * 10",
    "-a | abs",
    "- a | sum",
    "l | sum",
    "l | length",
    "e | count",
    "s | length",
    "a * l | length",
    "x + a | sum",
    "(l | sum) + 1",
    "a < b < c",
    "a < b > c",
    "a == 3 and b or c",
    "not a and not b",
    "not not s",
    "'yes' if t else 'no'",
    "a if b else c if t else f",
    "a if b",
    "s ~ '/' ~ a ~ t ~ f",
    "n + 1",
    "n ~ n",
    "min(a, b)",
    "max(a, b, c)",
    "max(l)",
    "min(e)",
    "abs(c)",
    "round(a)",
    "min(a,)",
    "min()",
    "min",
    "name",
    "result",
    "result + 1",
    "range(3)",
    "missing",
    "missing + 1",
    "t if true else missing",
    "true or missing",
    "false and missing",
    "none",
    "None == f",
    "a in l",
    "a not in l",
    "a is defined",
    "a.b",
    "l[0]",
    "'a' 'b'",
    "1 'a'",
    "01",
    "1.5 + a",
    "1e3",
    "1_000",
    "0x10",
    "a # note",
    "{a}",
    "a = 1",
    "(a, b)",
    "()",
    "((a))",
    "s * 3",
    "3 * s",
    "l * 2",
    "b * b",
    "a ~ 'é'",
    "a ~ '○ ' ~ a ~ '△'",
    "'日本' ~ \"語\" ~ s",
    "'😀' == '😀'",
    "'\\u25cb' ~ a",
    "é ~ 'a'",
    "'\\n'",
    "and",
    "a and",
    "if",
    "",
    "   ",
    "a\n+ b",
    "- - - a",
    "+a",
    "-s",
    "t + t",
    "s + s",
    "l + l",
    "a / 0",
    "a // 0",
    "a % 0",
    "n * 2",
    "2 ** 2000",
    "(" * 33 + "a" + ")" * 33,
    "-" * 60 + "a",
    " + ".join("a" * 400),
]
VOCABULARY = [
    *("a", "b", "c", "s", "n", "l", "e", "t", "f", "min", "max", "abs", "missing", "true", "none", "name"),
    *("0", "1", "2", "7", "'x'", '"y"', "'/'"),
    *("+", "-", "*", "/", "//", "%", "~", "(", ")", ",", "|", "sum", "length", "[", "]", "d", "max"),
    *("==", "!=", "<", "<=", ">", ">=", "and", "or", "not", "if", "else", "in", "is"),
]


EXPRESSION_KEYS = ("points", "when", "of", "max", "by", "broken", "value", "most", "eligible", "ends_when")


def _bundled_expressions() -> list[str]:
    found: list[str] = []

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            for key, item in value.items():
                if key in (
                    "points",
                    "when",
                    "of",
                    "max",
                    "by",
                    "broken",
                    "value",
                    "most",
                    "eligible",
                    "ends_when",
                ) and isinstance(item, str):
                    found.append(item)
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    for game in catalog.games():
        spec = YAML(typ="safe").load((game.path / "game.yaml").read_text(encoding="utf-8"))
        walk(spec.get("scoring"))
        walk(spec.get("values"))
    return found


def _random_expressions(count: int) -> list[str]:
    pick = random.Random(20261128)
    return [" ".join(pick.choice(VOCABULARY) for _ in range(pick.randint(1, 9))) for _ in range(count)]


ATOMS = (
    "a",
    "b",
    "c",
    "s",
    "n",
    "l",
    "e",
    "t",
    "f",
    "d",
    "missing",
    "0",
    "1",
    "2",
    "7",
    "'x'",
    "true",
    "none",
)
BINARY = ("+", "-", "*", "/", "//", "%", "~", "==", "!=", "<", "<=", ">", ">=", "and", "or")


def _grown(pick: random.Random, depth: int) -> str:
    """A random expression of the language's grammar (mostly plain, some not)."""
    if depth == 0 or pick.random() < 0.25:
        return pick.choice(ATOMS)
    shape = pick.randrange(9)
    if shape == 0:
        return f"{pick.choice(('-', '+', 'not '))}{_grown(pick, depth - 1)}"
    if shape == 1:
        return f"({_grown(pick, depth - 1)})"
    if shape == 2:
        return f"{_grown(pick, depth - 1)} | {pick.choice(('sum', 'length', 'count', 'abs', 'max', 'min'))}"
    if shape == 3:
        return f"{_grown(pick, depth - 1)} if {_grown(pick, depth - 1)} else {_grown(pick, depth - 1)}"
    if shape == 4:
        args = ", ".join(_grown(pick, depth - 1) for _ in range(pick.randint(1, 3)))
        return f"{pick.choice(('min', 'max', 'abs', 'round'))}({args})"
    if shape == 5:
        return f"{pick.choice(('d', 'l', 'e', 's', 'a'))}[{_grown(pick, depth - 1)}]"
    return f"{_grown(pick, depth - 1)} {pick.choice(BINARY)} {_grown(pick, depth - 1)}"


def _grammar_expressions(count: int) -> list[str]:
    pick = random.Random(11)
    return [_grown(pick, 4) for _ in range(count)]


def _jinja_names(text: str) -> tuple[str, ...]:
    env = expressions._env()  # noqa: SLF001 - the reference: Jinja's own environment
    try:
        parsed = Parser(env, text, state="variable").parse_expression()
    except (TemplateSyntaxError, RecursionError):
        return ()
    found = (node.name for node in parsed.find_all(nodes.Name) if node.ctx == "load")
    return tuple(dict.fromkeys(name for name in found if name not in env.globals))


def _jinja(text: str, row: dict[str, Any]) -> tuple[str, Any]:
    """What Jinja alone says: ("bad", message) when it does not compile, ("error", None), ("value", v)."""
    try:
        compiled = expressions.compile_expression(text)
    except expressions.ExpressionError as exc:
        return "bad", str(exc)
    try:
        return "value", compiled(expressions.row_context(row, "en"))
    except Exception:  # noqa: BLE001 - any error: the plain path must raise one too
        return "error", None


def _same(left: Any, right: Any) -> bool:
    if isinstance(left, float) and isinstance(right, float) and math.isnan(left):
        return math.isnan(right)
    return type(left) is type(right) and left == right


CORPUS = list(
    dict.fromkeys([*_bundled_expressions(), *EDGES, *_random_expressions(1500), *_grammar_expressions(2000)])
)


def test_the_corpus_holds_plain_expressions_and_others() -> None:
    plain = [text for text in CORPUS if plainexpr.parse(text) is not None]
    assert len(plain) > 300 and len(CORPUS) - len(plain) > 300
    assert all(plainexpr.parse(text) is not None for text in _bundled_expressions())


@pytest.mark.parametrize("row", range(len(ROWS)))
def test_plain_expressions_evaluate_as_jinja_does(row: int) -> None:
    values = ROWS[row]
    for text in CORPUS:
        kind, jinja = _jinja(text, values)
        if kind == "bad":
            with pytest.raises(expressions.ExpressionError) as raised:
                expressions.evaluate(text, values, "en")
            assert str(raised.value) == jinja, text
        elif kind == "error":
            with pytest.raises(expressions.ExpressionError):
                expressions.evaluate(text, values, "en")
        else:
            assert _same(expressions.evaluate(text, values, "en"), jinja), text


def test_check_and_names_read_are_jinja_s() -> None:
    for text in CORPUS:
        compiles = _jinja(text, ROWS[0])[0] != "bad"
        assert (expressions.check(text) is None) == compiles, text
        assert expressions.names_read(text) == _jinja_names(text), text


def test_a_data_game_s_score_imports_no_jinja() -> None:
    probe = (
        "import sys\nfrom pnpforge.cli import main\n"
        "try:\n    main([sys.argv[1], sys.argv[2]])\nexcept SystemExit:\n    pass\n"
        "print('jinja2' in sys.modules)"
    )
    for game in ("gods", "delphi", "good-shepherds"):
        score_file = str(catalog.BUNDLED_DIR / game / "example-score.yaml")
        run = subprocess.run(
            [sys.executable, "-c", probe, "score", score_file], capture_output=True, text=True
        )
        assert run.stdout.splitlines()[-1] == "False", game
        assert "Winner" in run.stdout or "winner" in run.stdout.lower(), run.stdout
