"""Expressions in a spec: Jinja2's sandboxed expression language, with a data row's fields as names.

`when: "type == 'event'"`, `where: "cost > 2"`, `count: "3 if rare == 0 else 1"` and `{{ cost * 2 }}`
inside any text. Each expression text is compiled once (a cache keyed by its text), then evaluated
per row. The sandbox is tightened further: no attribute access at all (a row's values are plain text
and numbers; nothing of Python is reachable), no filters that reach outside the expression, and
string or number growth bounded, so an expression can neither read files nor run for long.
"""

from __future__ import annotations

import math
import operator
import re
import threading
from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from pnpforge import limits
from pnpforge.components import plainexpr
from pnpforge.i18n import N_
from pnpforge.phrase import Phrase
from pnpforge.saying import reason

if TYPE_CHECKING:  # Jinja is imported by the first expression, not by every command (~20 ms of a start)
    from jinja2.runtime import Context
    from jinja2.sandbox import SandboxedEnvironment

_NUMBER = re.compile(r"^\s*[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?\s*$")
_WHOLE_DIGITS = 18  # a longer number is read as a float, as a spreadsheet keeps it
_WHOLE = re.compile(rf"^\s*[+-]?\d{{1,{_WHOLE_DIGITS}}}\s*$")
_NUMBER_START = frozenset("0123456789+-. \t")  # most cells are words: they skip the pattern
# filters that only compute on their argument; the rest of Jinja's (attr, map, tojson, ...) are left out
SAFE_FILTERS = (
    "abs",
    "capitalize",
    "center",
    "default",
    "d",
    "first",
    "float",
    "format",
    "int",
    "join",
    "last",
    "length",
    "count",
    "list",
    "sort",
    "unique",
    "lower",
    "max",
    "min",
    "replace",
    "reverse",
    "round",
    "string",
    "sum",
    "title",
    "trim",
    "truncate",
    "upper",
    "wordcount",
)


FUNCTIONS = ("min", "max", "abs", "round", "range")  # the only names an expression may call


class ExpressionError(ValueError):
    """An expression that cannot be compiled or evaluated, said plainly (no Jinja internals)."""


class _NotLoaded(Exception):
    """Stands for Jinja's UndefinedError until Jinja is imported (nothing raises it before)."""


_UndefinedError: type[Exception] = _NotLoaded  # jinja2.UndefinedError once _env() has run


@lru_cache(maxsize=1)
def _env() -> SandboxedEnvironment:
    """The sandbox with no attribute access and bounded `*` and `**`; made (Jinja imported) on first use."""
    global _UndefinedError
    from jinja2 import StrictUndefined, UndefinedError
    from jinja2.sandbox import SandboxedEnvironment, SecurityError

    def bounded(value: Any) -> Any:
        number_ = isinstance(value, int | float) and not isinstance(value, bool)
        if number_ and (
            (isinstance(value, float) and not math.isfinite(value)) or abs(value) > limits.EXPRESSION_NUMBER
        ):
            raise SecurityError(Phrase.word(N_("the number is too large")))
        return value

    class Environment(SandboxedEnvironment):
        intercepted_binops = frozenset({"*", "**"})

        def is_safe_attribute(self, obj: Any, attr: str, value: Any) -> bool:
            return False  # a row's values are text and numbers: there is nothing to reach through a dot

        def is_safe_callable(self, obj: Any) -> bool:
            # no method calls either: only the few functions of the globals below
            return any(obj is function for function in self.globals.values())

        def call_binop(self, context: Any, operator_: str, left: Any, right: Any) -> Any:
            if operator_ == "**":
                if isinstance(right, int | float) and abs(right) > limits.EXPRESSION_POWER:
                    raise SecurityError(
                        Phrase(
                            N_("exponent {power} is too large (expected at most {most})"),
                            power=right,
                            most=limits.EXPRESSION_POWER,
                        )
                    )
                return bounded(operator.pow(left, right))
            if isinstance(left, str | list) or isinstance(right, str | list):
                times = right if isinstance(left, str | list) else left
                if (
                    isinstance(times, int)
                    and times * len(left if isinstance(left, str | list) else right) > limits.EXPRESSION_TEXT
                ):
                    raise SecurityError(
                        Phrase(
                            N_("the result would be longer than {most} characters"),
                            most=limits.EXPRESSION_TEXT,
                        )
                    )
            return bounded(operator.mul(left, right))

    env = Environment(undefined=StrictUndefined, autoescape=False)
    env.filters = {name: env.filters[name] for name in SAFE_FILTERS if name in env.filters}
    env.tests = dict(env.tests)
    env.globals = {"min": min, "max": max, "abs": abs, "round": round, "range": env.globals["range"]}
    assert tuple(env.globals) == FUNCTIONS
    _UndefinedError = UndefinedError
    return env


# Jinja's (and Python's) own wording, once plain, as our messages: said in the designer's language. The
# patterns are compiled when an error is first said (re's cache), not at every start.
_JINJA = (
    (r"the expression ends too soon", N_("the expression ends too soon")),
    (
        r"expected '(?P<wanted>[^']+)' but found '(?P<found>[^']+)'",
        N_("expected {wanted} but found {found}"),
    ),
    (
        r"unexpected (?P<token>'[^']*') after the expression",
        N_("unexpected {token} after the expression"),
    ),
    (r"unexpected (?P<token>'[^']*')", N_("unexpected {token}")),
    (
        r"unexpected char (?P<char>'[^']*') at (?P<at>\d+)",
        N_("unexpected character {char} at {at}"),
    ),
    (
        r"division by zero|float division by zero|integer (division or )?modulo by zero",
        N_("division by zero"),
    ),
    (
        r"unsupported operand type\(s\) for (?P<op>\S+): '(?P<left>\w+)' and '(?P<right>\w+)'",
        N_("unsupported operand type(s) for {op}: {left} and {right}"),
    ),
)


def _jinja_phrase(text: str) -> str:
    """`text` as one of our messages when it is all one known wording (English stays as it is)."""
    for pattern, template in _JINJA:
        found = re.fullmatch(pattern, text)
        if found:
            values = {
                k: (f"'{v}'" if k in ("wanted", "found", "left", "right") else v)
                for k, v in found.groupdict().items()
            }
            said = Phrase(template, **values)
            if said == text:
                return said
    return text


BAD = N_("bad expression {text}: {problem}")
NOT_WHOLE = N_("{value} is not a whole number")
NONE = N_("none")


def plain_message(exc: Exception) -> str:
    """Jinja's message without its jargon: what a designer can act on."""
    said = reason(exc)
    if isinstance(said, Phrase):
        return said
    text = (getattr(exc, "message", None) or str(exc)).strip() or type(exc).__name__
    undefined = re.match(r"'([^']+)' is undefined", text)
    if undefined:
        return Phrase(N_("no field {name}"), name=repr(undefined.group(1)))
    text = re.sub(r"unexpected '?end of (template|print statement)'?", "the expression ends too soon", text)
    text = (
        re.sub(r"\bint\b|\bfloat\b", "number", text).replace("'str'", "text").replace("'number'", "a number")
    )
    text = text.replace("between instances of ", "between ")
    text = re.sub(r"\bstr\b", "text", text)
    text = re.sub(r"expected token '([^']+)', got '([^']+)'", r"expected '\1' but found '\2'", text)
    text = text.replace("access to attribute", "attribute access (a `.name`)").replace(
        " is unsafe", " is not allowed"
    )
    if "has no attribute" in text or "unsafe" in text.lower():
        return Phrase.word(
            N_("attribute access (a `.name`) is not allowed in an expression; use the row's fields")
        )
    return _jinja_phrase(text)


Compiled = Callable[["Context"], Any]  # evaluates in a row's context


@lru_cache(maxsize=4096)
def compile_expression(text: str) -> Compiled:
    """Compile once; raises ExpressionError with a plain message (an empty expression is false).

    The expression becomes a one-statement template (`result = EXPR`), as Jinja's own compile_expression
    makes it, but evaluated in a context made once per row and shared by all of that row's expressions.
    """
    if len(text) > limits.EXPRESSION_CHARS:
        raise ExpressionError(
            Phrase(N_("the expression is longer than {most} characters"), most=limits.EXPRESSION_CHARS)
        )
    if not text.strip():
        return lambda _: False
    if _depth(text) > limits.EXPRESSION_NESTING:
        raise ExpressionError(
            Phrase(N_("the expression nests brackets more than {most} deep"), most=limits.EXPRESSION_NESTING)
        )
    from jinja2 import TemplateSyntaxError, Undefined, nodes
    from jinja2.parser import Parser

    env = _env()
    try:
        parser = Parser(env, text, state="variable")
        parsed = parser.parse_expression()
        if not parser.stream.eos:
            unexpected = Phrase(
                N_("unexpected {token} after the expression"), token=repr(parser.stream.current.value)
            )
            raise TemplateSyntaxError(unexpected, 1, None, None)
        if isinstance(parsed, nodes.Getattr) or parsed.find(nodes.Getattr) is not None:
            raise ExpressionError(
                Phrase(
                    N_(
                        "bad expression {text}: attribute access (a `.name`) is not allowed; use the "
                        "row's fields"
                    ),
                    text=repr(text),
                )
            )
        body = [nodes.Assign(nodes.Name("result", "store"), parsed, lineno=1)]
        template = env.from_string(nodes.Template(body, lineno=1))
    except TemplateSyntaxError as exc:
        raise ExpressionError(Phrase(BAD, text=repr(text), problem=plain_message(exc))) from None
    except (RecursionError, MemoryError, SyntaxError):  # a long chain of operators: Python's own limits
        raise ExpressionError(
            Phrase(N_("bad expression {text}…: nested too deeply"), text=repr(text[:40]))
        ) from None
    render = template.root_render_func

    def run(context: Context) -> Any:
        context.vars.clear()  # a field named `result` is the field, not the last expression's value
        for _ in render(context):
            pass
        value = context.vars["result"]
        if isinstance(value, Undefined):
            str(value)  # StrictUndefined raises what is missing
        return value

    return run


def _depth(text: str) -> int:
    deepest = depth = 0
    for char in text:
        if char in "([{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in ")]}":
            depth -= 1
    return deepest


@lru_cache(maxsize=1024)
def names_read(text: str) -> tuple[str, ...]:
    """The names an expression reads (its row fields), in the order written; () when it does not
    compile (`check` says why)."""
    tree = _plain(text)
    if tree is not None:
        return plainexpr.names(tree)
    from jinja2 import TemplateSyntaxError, nodes
    from jinja2.parser import Parser

    env = _env()
    try:
        parsed = Parser(env, text, state="variable").parse_expression()
    except (TemplateSyntaxError, RecursionError, MemoryError, SyntaxError):
        return ()
    found = (node.name for node in parsed.find_all(nodes.Name) if node.ctx == "load")
    return tuple(dict.fromkeys(name for name in found if name not in env.globals))


def check(text: str) -> str | None:
    """The problem with an expression as written (None when it compiles), for located load errors."""
    if _plain(text) is not None:  # in the plain subset: Jinja compiles it
        return None
    try:
        compile_expression(text)
    except ExpressionError as exc:
        return reason(exc)
    return None


def number(value: Any) -> Any:
    """A CSV cell that reads as a number is one in expressions ("3" -> 3, "2.5" -> 2.5); else as it is."""
    if isinstance(value, str) and value.isdigit() and value.isascii() and len(value) <= _WHOLE_DIGITS:
        return int(value)  # the most common number cell, without the patterns
    if isinstance(value, str) and value[:1] in _NUMBER_START and _NUMBER.match(value):
        if _WHOLE.match(value):
            return int(value)
        parsed = float(value)
        return parsed if math.isfinite(parsed) else value
    return value


def _field(row: Mapping[str, Any], key: str, suffixes: tuple[str, ...]) -> Any:
    """The row's value for name `key` as an expression reads it (a number when it reads as one): the
    field itself, even empty (None), else `key_<lang>`, else `key_en`; plainexpr.MISSING when none."""
    value = row.get(key)
    if value is None and key not in row:
        for suffix in suffixes:
            value = row.get(key + suffix)
            if value is not None:
                break
        else:
            return plainexpr.MISSING
    return number(value)


@lru_cache(maxsize=64)
def _suffixes(lang: str) -> tuple[str, str]:
    return (f"_{lang}", "_en")


class RowNames(dict[str, Any]):
    """The names an expression sees, looked up when it reads them (most rows hold many fields and an
    expression reads one or two): a field, a number when it reads as one; for `name_<lang>` (else
    `name_en`) also `name`, as `{name}` picks it, without hiding a field the row has itself; then the
    few global functions."""

    def __init__(self, row: Mapping[str, Any], lang: str) -> None:
        super().__init__()
        self.row = row
        self.suffixes = _suffixes(lang)

    def _load_row(self, key: str) -> bool:
        value = _field(self.row, key, self.suffixes)
        if value is plainexpr.MISSING:
            return False
        dict.__setitem__(self, key, value)
        return True

    def _load(self, key: str) -> bool:
        if self._load_row(key):
            return True
        known = _env().globals
        if key in known:
            dict.__setitem__(self, key, known[key])
            return True
        return False

    def __contains__(self, key: object) -> bool:
        return dict.__contains__(self, key) or (isinstance(key, str) and self._load(key))

    def __getitem__(self, key: str) -> Any:
        if dict.__contains__(self, key) or self._load(key):
            return dict.__getitem__(self, key)
        raise KeyError(key)


def names(row: Mapping[str, Any], lang: str) -> dict[str, Any]:
    """Every name an expression over `row` may read, with its value (for tests and tools)."""
    found = RowNames(row, lang)
    keys = [*row, *(k[: -len(s)] for k in row for s in found.suffixes if k.endswith(s) and len(k) > len(s))]
    return {key: found[key] for key in dict.fromkeys(keys) if key in found}


_NAMES_KEPT = 4096
_names: dict[tuple[int, str], tuple[Mapping[str, Any], RowNames]] = {}
_local = threading.local()  # one context per thread, its names swapped per row (builds may run in threads)


def _row_names(row: Mapping[str, Any], lang: str) -> RowNames:
    """One row's names, made once per row object and language."""
    key = (id(row), lang)
    hit = _names.get(key)
    if hit is None or hit[0] is not row:
        if len(_names) >= _NAMES_KEPT:
            _names.clear()
        hit = _names[key] = (row, RowNames(row, lang))
    return hit[1]


def row_context(row: Mapping[str, Any], lang: str) -> Context:
    """A Jinja context holding one row's names (made once per row object and language: a row's pieces
    and elements evaluate many expressions); the context object itself is reused, row after row."""
    names_ = _row_names(row, lang)
    context: Context | None = getattr(_local, "context", None)
    if context is None:
        from jinja2.runtime import new_context

        context = _local.context = new_context(_env(), None, {}, {}, shared=True)
    context.parent = names_
    return context


@lru_cache(maxsize=4096)
def _plain(text: str) -> plainexpr.Node | None:
    """The expression's tree when plainexpr reads it without Jinja (within the limits checked first)."""
    if len(text) > limits.EXPRESSION_CHARS or _depth(text) > limits.EXPRESSION_NESTING:
        return None
    return plainexpr.parse(text)


@lru_cache(maxsize=4096)
def _runner(text: str, most: int) -> plainexpr.Runner | None:
    """The plain expression made once into Python functions (plainexpr.compiled), else None: Jinja's."""
    tree = _plain(text)
    if tree is None:
        return None
    try:
        return plainexpr.compiled(tree, most)
    except Exception:  # noqa: BLE001 - a form plainexpr does not run: Jinja compiles it
        return None


def evaluate(text: str, row: Mapping[str, Any], lang: str) -> Any:
    """The value of expression `text` for one row; raises ExpressionError saying what went wrong.

    A plain expression is run without Jinja; whatever that is unsure of (an error above all) Jinja
    evaluates again, so a value or an error is always the one Jinja gives."""
    runner = _runner(text, limits.EXPRESSION_NUMBER)
    if runner is not None:
        try:
            suffixes = _suffixes(lang)
            return runner(lambda key: _field(row, key, suffixes))  # nothing kept per row: a deck has many
        except Exception:  # noqa: BLE001 - unsure or failing: Jinja says what happens, in its words
            pass
    compiled = compile_expression(text)
    try:
        return compiled(row_context(row, lang))
    except _UndefinedError as exc:
        known = sorted(row) or Phrase.word(NONE)
        raise ExpressionError(
            Phrase(
                N_("{text}: {problem} in the data row (fields: {known})"),
                text=repr(text.strip()),
                problem=plain_message(exc),
                known=known,
            )
        ) from None
    except Exception as exc:  # any failure of the user's expression on this row: said, not raised raw
        raise ExpressionError(
            Phrase(N_("{text}: {problem}"), text=repr(text.strip()), problem=plain_message(exc))
        ) from None


def truth(value: Any) -> bool:
    """Whether a `when:`/`where:` value holds: Python truth, but the text "0"/"false" is false too."""
    if isinstance(value, str):
        return value.strip().lower() not in ("", "0", "false")
    return bool(value)


def text_of(value: Any) -> str:
    """An expression's value inside a text: whole floats without `.0`, like a spreadsheet shows them."""
    if isinstance(value, float) and value.is_integer() and abs(value) < limits.EXPRESSION_NUMBER:
        return str(int(value))
    if isinstance(value, bool):
        return "true" if value else "false"
    text = "" if value is None else str(value)
    if len(text) > limits.EXPRESSION_TEXT:  # the text is laid out next: its length bounds that work
        raise ExpressionError(
            Phrase(N_("the value is longer than {most} characters"), most=limits.EXPRESSION_TEXT)
        )
    return text


def whole(value: Any) -> int:
    """An expression's value as a count: a whole number, or ExpressionError."""
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise ExpressionError(Phrase(NOT_WHOLE, value=repr(value)))
    value = number(value)
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if not isinstance(value, int):
        raise ExpressionError(Phrase(NOT_WHOLE, value=repr(value)))
    return value
