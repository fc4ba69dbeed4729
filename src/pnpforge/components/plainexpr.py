"""The plain part of the expression language, read and run without Jinja (components/expressions.py).

Most expressions of a score sheet are a name, a number, arithmetic, a comparison, `| sum`, a
`min(...)` or a `table[key]`: this module parses those the way Jinja's parser does (the same
precedence, the same tree, so the same names in the same order) and evaluates them the way Jinja's
compiled code would (the same Python operations, the sandbox's bound on `*`). Whatever it is unsure
of — any other syntax, a name the row lacks, a value of a surprising type, an operation that raises —
it gives up (`Unsure`) and Jinja decides, so the value or the error said is Jinja's own. It never
decides an error itself.
"""

from __future__ import annotations

import math
import operator
import re
from collections.abc import Callable, Iterator
from functools import lru_cache
from typing import Any, cast

__all__ = ["MISSING", "Node", "Runner", "Unsure", "compiled", "parse", "names", "run"]

MISSING = object()  # what a name's lookup gives when the row lacks it

Node = tuple[Any, ...]  # ("const", v) ("name", n) ("bin", op, l, r) ("unary", op, x) ("and"/"or", l, r)
# ("cond", test, yes, no) ("compare", first, ((op, x), ...)) ("concat", (x, ...)) ("filter", x, name)
# ("call", function, (x, ...)) ("item", x, key)


@lru_cache(maxsize=1)
def _patterns() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """The token pattern and the trailing space's, compiled by the first expression read (start-up speed)."""
    token = re.compile(
        r"\s*(?:"
        r"(?P<int>0|[1-9][0-9]*)(?![\w.])"
        r"|(?P<name>[A-Za-z_][A-Za-z0-9_]*)(?![^\x00-\x7f])"
        r"|(?P<str>'[^\x00-\x1f'\\\x7f]*'|\"[^\x00-\x1f\"\\\x7f]*\")"  # all but controls, quote, backslash
        r"|(?P<op>//|==|!=|<=|>=|[-+*/%~()<>|,\[\]])"
        r")"
    )
    return token, re.compile(r"\s*")


KEYWORDS = frozenset({"and", "or", "not", "if", "else", "in", "is"})
CONSTANTS = {"true": True, "True": True, "false": False, "False": False, "none": None, "None": None}
# names Jinja treats specially, or that the expression's own `result` assignment uses: Jinja reads them
RESERVED = frozenset({"result", "range", "loop", "self", "super", "caller", "varargs", "kwargs"})
CALLS: dict[str, Callable[..., Any]] = {"min": min, "max": max, "abs": abs, "round": round}
FILTERS: dict[str, Callable[[Any], Any]] = {
    "sum": lambda v: sum(v, 0),
    "length": len,
    "count": len,
    "max": max,  # Jinja's compares texts ignoring case: only numbers come here
    "min": min,
}
COMPARE = {
    "==": operator.eq,
    "!=": operator.ne,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
}
BINARY = {
    "+": operator.add,
    "-": operator.sub,
    "/": operator.truediv,
    "//": operator.floordiv,
    "%": operator.mod,
}
MAX_DEPTH = 40  # a deeper tree (or parse) is Jinja's to compile (its compiler may say "nested too deeply")


class Unsure(Exception):
    """Not for this module to say: Jinja parses or evaluates the expression."""


class _Reader:
    def __init__(self, text: str) -> None:
        self.tokens: list[tuple[str, Any]] = []
        at, end = 0, len(text)
        token, space = _patterns()
        while True:
            found = token.match(text, at)
            if found is None:
                rest = space.match(text, at)
                if rest is None or rest.end() != end:
                    raise Unsure(text)
                break
            kind = found.lastgroup
            assert kind is not None
            value = found.group(kind)
            self.tokens.append(
                (kind, int(value) if kind == "int" else value[1:-1] if kind == "str" else value)
            )
            at = found.end()
        self.at = 0
        self.nest = 0

    def deeper(self) -> None:
        self.nest += 1
        if self.nest > MAX_DEPTH:
            raise Unsure("deep")

    def peek(self, kind: str, value: Any = None) -> bool:
        if self.at >= len(self.tokens):
            return False
        token = self.tokens[self.at]
        return token[0] == kind and (value is None or token[1] == value)

    def take(self, kind: str, value: Any = None) -> Any:
        if not self.peek(kind, value):
            raise Unsure(kind)
        self.at += 1
        return self.tokens[self.at - 1][1]

    def word(self, value: str) -> bool:
        if self.peek("name", value):
            self.at += 1
            return True
        return False

    def op(self, *values: str) -> str | None:
        for value in values:
            if self.peek("op", value):
                self.at += 1
                return value
        return None

    # Jinja's parser (jinja2.parser.Parser), rule by rule, for the plain subset

    def condexpr(self) -> Node:
        self.deeper()
        node = self.or_()
        while self.word("if"):
            test = self.or_()
            if not self.word("else"):
                raise Unsure("if")  # no `else`: Jinja's undefined value, Jinja's to say
            node = ("cond", test, node, self.condexpr())
        self.nest -= 1
        return node

    def or_(self) -> Node:
        node = self.and_()
        while self.word("or"):
            node = ("or", node, self.and_())
        return node

    def and_(self) -> Node:
        node = self.not_()
        while self.word("and"):
            node = ("and", node, self.not_())
        return node

    def not_(self) -> Node:
        if self.word("not"):
            self.deeper()
            node = ("unary", "not", self.not_())
            self.nest -= 1
            return node
        return self.compare()

    def compare(self) -> Node:
        first = self.math1()
        ops = []
        while (op := self.op(*COMPARE)) is not None:
            ops.append((op, self.math1()))
        if self.peek("name", "in") or self.peek("name", "not"):
            raise Unsure("in")
        return ("compare", first, tuple(ops)) if ops else first

    def math1(self) -> Node:
        node = self.concat()
        while (op := self.op("+", "-")) is not None:
            node = ("bin", op, node, self.concat())
        return node

    def concat(self) -> Node:
        nodes = [self.math2()]
        while self.op("~"):
            nodes.append(self.math2())
        return ("concat", tuple(nodes)) if len(nodes) > 1 else nodes[0]

    def math2(self) -> Node:
        node = self.unary(True)
        while (op := self.op("//", "*", "/", "%")) is not None:
            if self.peek("op", "*"):
                raise Unsure("**")  # `* *` is not Jinja's `**`, but left to Jinja all the same
            node = ("bin", op, node, self.unary(True))
        return node

    def unary(self, with_filter: bool) -> Node:
        op = self.op("-", "+")
        self.deeper()
        node = ("unary", op, self.unary(False)) if op else self.primary()
        while self.op("["):  # Jinja's postfix: `table[key]`
            node = ("item", node, self.condexpr())
            self.take("op", "]")
        self.nest -= 1
        if self.peek("op", "("):
            raise Unsure("call")
        while with_filter and self.op("|"):
            name = self.take("name")
            if name not in FILTERS or self.peek("op", "("):
                raise Unsure(name)
            node = ("filter", node, name)
        if self.peek("name", "is") or self.peek("op", "("):
            raise Unsure("is")
        return node

    def primary(self) -> Node:
        if self.peek("int") or self.peek("str"):
            value = self.tokens[self.at][1]
            self.at += 1
            if self.peek("str"):
                raise Unsure("strings")  # Jinja joins 'a' 'b'
            return ("const", value)
        if self.op("("):
            node = self.condexpr()
            self.take("op", ")")
            return node
        name = self.take("name")
        if name in CONSTANTS:
            return ("const", CONSTANTS[name])
        if name in KEYWORDS or name in RESERVED:
            raise Unsure(name)
        if name in CALLS and self.op("("):
            args = [self.condexpr()]
            while self.op(","):
                args.append(self.condexpr())
            self.take("op", ")")
            return ("call", name, tuple(args))
        return ("name", name)


def _depth(node: Node) -> int:
    return 1 + max((_depth(child) for child in _children(node)), default=0)


def _children(node: Node) -> Iterator[Node]:
    """A node's sub-expressions in the order Jinja's `find_all` visits them (a condition's test first)."""
    kind = node[0]
    if kind == "bin":
        yield from node[2:]
    elif kind == "item":
        yield from node[1:]
    elif kind == "unary" or kind == "filter":
        yield node[2] if kind == "unary" else node[1]
    elif kind in ("and", "or") or kind == "cond":
        yield from node[1:]
    elif kind == "compare":
        yield node[1]
        yield from (x for _, x in node[2])
    elif kind == "concat" or kind == "call":
        yield from node[-1]


@lru_cache(maxsize=4096)
def parse(text: str) -> Node | None:
    """The expression's tree when it is in the plain subset (and so compiles in Jinja), else None."""
    try:
        reader = _Reader(text)
        if not reader.tokens:
            return None
        node = reader.condexpr()
        if reader.at != len(reader.tokens) or _depth(node) > MAX_DEPTH:
            return None
    except (Unsure, RecursionError):
        return None
    return node


def names(node: Node) -> tuple[str, ...]:
    """The names the expression reads, as Jinja's `find_all(Name)` lists them (the whole expression
    itself not among them, as there), without repeats; a call's function is no name read."""
    found: list[str] = []

    def visit(parent: Node) -> None:
        for child in _children(parent):
            if child[0] == "name" and child[1] not in CALLS:  # Jinja's globals are no row's names
                found.append(child[1])
            visit(child)

    visit(node)
    return tuple(dict.fromkeys(found))


def _numbers(a: Any, b: Any) -> None:
    if not (isinstance(a, int | float) and isinstance(b, int | float)):
        raise Unsure("type")


def _bounded(value: Any, most: int) -> Any:
    number = isinstance(value, int | float) and not isinstance(value, bool)
    if number and ((isinstance(value, float) and not math.isfinite(value)) or abs(value) > most):
        raise Unsure("large")  # the sandbox's error: Jinja's to say
    return value


Lookup = Callable[[str], Any]
Runner = Callable[[Lookup], Any]


def run(node: Node, lookup: Lookup, most: int) -> Any:
    """The expression's value, as Jinja's compiled code computes it; `lookup(name)` is a name's value
    (it raises Unsure when the row lacks it); numbers beyond `most` are the sandbox's to refuse."""
    return compiled(node, most)(lookup)


def compiled(node: Node, most: int) -> Runner:
    """The expression made once into nested Python functions (a deck runs it per card): called with a
    row's `lookup`, each computes what `run` says, in the same order, refusing (Unsure) the same things."""
    kind = node[0]
    if kind == "const":
        constant = node[1]
        return lambda lookup: constant
    if kind == "name":
        return _name(node[1])
    if kind == "bin":
        return _binary(node[1], compiled(node[2], most), compiled(node[3], most), most)
    if kind == "unary":
        return _unary(node[1], compiled(node[2], most))
    if kind in ("and", "or", "cond"):
        return _branch(kind, [compiled(part, most) for part in node[1:]])
    if kind == "compare":
        return _compare(compiled(node[1], most), [(COMPARE[op], compiled(x, most)) for op, x in node[2]])
    if kind == "concat":
        parts = [compiled(x, most) for x in node[1]]
        return lambda lookup: "".join(str(part(lookup)) for part in parts)
    if kind == "filter":
        return _filter(compiled(node[1], most), node[2])
    if kind == "item":
        return _item(compiled(node[1], most), compiled(node[2], most))
    if kind == "call":
        return _call(node[1], [compiled(x, most) for x in node[2]])
    raise Unsure(kind)


def _name(name: str) -> Runner:
    def value(lookup: Lookup) -> Any:
        found = lookup(name)
        if found is MISSING:
            raise Unsure(name)  # Jinja's undefined name, or a global function as a value
        return found

    return value


def _binary(op: str, left: Runner, right: Runner, most: int) -> Runner:
    how = BINARY.get(op)

    def value(lookup: Lookup) -> Any:
        a, b = left(lookup), right(lookup)
        _numbers(a, b)
        return _bounded(operator.mul(a, b), most) if how is None else how(a, b)

    if op != "*" and how is None:
        raise Unsure(op)
    return value


def _unary(op: str, operand: Runner) -> Runner:
    if op == "not":
        return lambda lookup: not operand(lookup)
    if op == "-":
        return lambda lookup: -operand(lookup)
    return lambda lookup: +operand(lookup)


def _branch(kind: str, parts: list[Runner]) -> Runner:
    if kind == "and":
        first, second = parts
        return lambda lookup: first(lookup) and second(lookup)
    if kind == "or":
        first, second = parts
        return lambda lookup: first(lookup) or second(lookup)
    test, yes, no = parts
    return lambda lookup: yes(lookup) if test(lookup) else no(lookup)


def _compare(first: Runner, chain: list[tuple[Callable[[Any, Any], Any], Runner]]) -> Runner:
    if len(chain) == 1:  # the usual `a >= b`: its one comparison's result
        how, second = chain[0]
        return lambda lookup: how(first(lookup), second(lookup))

    def value(lookup: Lookup) -> Any:
        left = first(lookup)
        result: Any = True
        for how, operand in chain:  # Python's chain, as Jinja writes it: `a < b < c`
            right = operand(lookup)
            result = how(left, right)
            if not result:
                return result
            left = right
        return result

    return value


def _filter(operand: Runner, name: str) -> Runner:
    how = FILTERS[name]

    def value(lookup: Lookup) -> Any:
        found = operand(lookup)
        if name == "sum" and not isinstance(found, list):
            raise Unsure("sum")
        numbers = isinstance(found, list) and found and all(isinstance(v, int | float) for v in found)
        if name in ("max", "min") and not numbers:
            raise Unsure(name)  # an empty list is Jinja's undefined; texts compare ignoring case
        return how(found)

    return value


def _item(container_of: Runner, key_of: Runner) -> Runner:
    def value(lookup: Lookup) -> Any:
        container: Any = container_of(lookup)
        key: Any = key_of(lookup)
        if not (isinstance(container, dict | list) and isinstance(key, int | str)):
            raise Unsure("item")
        return cast(Any, container)[key]  # a missing key: the sandbox's undefined, Jinja's to say

    return value


def _call(name: str, arguments: list[Runner]) -> Runner:
    how = CALLS[name]

    def value(lookup: Lookup) -> Any:
        if lookup(name) is not MISSING:  # a row's own `min` shadows the function: Jinja's to say
            raise Unsure(name)
        return how(*(argument(lookup) for argument in arguments))

    return value
