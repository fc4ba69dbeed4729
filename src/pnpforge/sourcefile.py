"""Reading user files (YAML, JSON, CSV) with the line and column of every value kept.

Specs, set-up files and score files all come through here, so every later check can say
`FILE:LINE:COL`. YAML is parsed safely (no tags that build objects, no code), and duplicate
keys are errors. `validate` turns a pydantic model's errors into `Problem`s at the right line.
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from pnpforge.errors import InputError, Problem

if TYPE_CHECKING:
    from pydantic import BaseModel

Path_ = tuple[str | int, ...]
M = TypeVar("M", bound="BaseModel")


class Source:
    """Plain data read from one file, plus where each value stood in it.

    Positions are found lazily (a second, slower round-trip parse) the first time one is asked
    for: most files are valid, and the fast C parser alone reads them several times quicker.
    """

    def __init__(
        self,
        file: str,
        data: Any,
        positions: dict[Path_, tuple[int, int]] | None = None,
        text: str | None = None,
    ) -> None:
        self.file = file
        self.data = data
        self._positions = positions
        self._text = text

    @property
    def positions(self) -> dict[Path_, tuple[int, int]]:
        if self._positions is None:
            self._positions = _round_trip(self._text, self.file)[1] if self._text is not None else {}
        return self._positions

    def where(self, path: Path_) -> tuple[int, int]:
        """(line, col) of the deepest part of `path` that exists; keys the file lacks are skipped."""
        positions = self.positions
        best = positions.get((), (1, 1))
        known: Path_ = ()
        for part in path:
            candidate = (*known, part)
            if candidate in positions:
                known = candidate
                best = positions[candidate]
        return best

    def problem(self, path: Path_, message: str) -> Problem:
        line, col = self.where(path)
        return Problem(self.file, line, col, message)


def _plain(node: Any, path: Path_, positions: dict[Path_, tuple[int, int]]) -> Any:
    """Copy ruamel's round-trip nodes into dicts and lists, noting each value's position."""
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    if isinstance(node, CommentedMap):
        out: dict[str, Any] = {}
        for key, value in node.items():
            try:
                mark = node.lc.value(key) if value is not None else node.lc.key(key)
            except KeyError:  # a key merged in with `<<: *anchor` stands where the anchor was
                mark = None
            line, col = mark or positions.get(path, (0, 0))
            positions[(*path, str(key))] = (line + 1, col + 1)
            out[str(key)] = _plain(value, (*path, str(key)), positions)
        return out
    if isinstance(node, CommentedSeq):
        items = []
        for index, value in enumerate(node):
            line, col = node.lc.item(index) or positions.get(path, (0, 0))
            positions[(*path, index)] = (line + 1, col + 1)
            items.append(_plain(value, (*path, index), positions))
        return items
    if node is None or isinstance(node, bool | int | float):
        return node
    return str(node)  # ruamel's scalar string types, timestamps, etc. become plain text


def _round_trip(text: str, file: str) -> tuple[Any, dict[Path_, tuple[int, int]]]:
    """Parse with ruamel's round-trip loader, which knows every value's line and column."""
    from ruamel.yaml import YAML
    from ruamel.yaml.constructor import DuplicateKeyError
    from ruamel.yaml.error import MarkedYAMLError

    yaml = YAML(typ="rt")
    yaml.allow_duplicate_keys = False
    try:
        node = yaml.load(text)
    except DuplicateKeyError as exc:
        mark = exc.problem_mark
        key = str(exc.problem).split('"')[1] if '"' in str(exc.problem) else "a key"
        problem = Problem(
            file,
            mark.line + 1,
            mark.column + 1,
            f"duplicate key {key!r} (expected each key once per mapping)",
        )
        raise InputError([problem]) from None
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (0, 0)
        what = (exc.problem or exc.context or "unreadable YAML").strip()
        raise InputError([Problem(file, line, col, f"YAML syntax error: {what}")]) from None
    positions: dict[Path_, tuple[int, int]] = {(): (1, 1)}
    return _plain(node, (), positions), positions


def _normalise(node: Any) -> Any:
    """The fast loader's values made the same as the round-trip ones: text keys, scalars as text."""
    if isinstance(node, dict):
        return {str(k): _normalise(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_normalise(v) for v in node]
    if node is None or isinstance(node, bool | int | float | str):
        return node
    return str(node)


_CORE = "tag:yaml.org,2002:"
_MAP, _SEQ, _STR = _CORE + "map", _CORE + "seq", _CORE + "str"
_SCALARS = {_CORE + "int": "construct_yaml_int", _CORE + "float": "construct_yaml_float",
            _CORE + "bool": "construct_yaml_bool", _CORE + "null": "construct_yaml_null"}  # fmt: skip


class _Unusual(Exception):
    """The text uses a YAML feature the fast path leaves to ruamel's own loader (merge keys, tags...)."""


def _fast_data(node: Any, constructor: Any, open_nodes: set[int]) -> Any:
    """Plain data from a node tree the C parser composed: ruamel's safe loader builds the same in
    Python several times slower. Scalars use ruamel's own constructors, so values are its values."""
    tag = node.ctag.suffix
    if tag == _STR:
        return node.value
    if tag in _SCALARS:
        return getattr(constructor, _SCALARS[tag])(node)
    if id(node) in open_nodes or tag not in (_MAP, _SEQ):
        raise _Unusual
    open_nodes.add(id(node))
    if tag == _SEQ:
        out: Any = [_fast_data(item, constructor, open_nodes) for item in node.value]
    else:
        out, keys = {}, set()
        for key_node, value_node in node.value:
            key = _fast_data(key_node, constructor, open_nodes)
            if isinstance(key, dict | list) or key in keys or str(key) in out:  # ruamel words the error
                raise _Unusual
            keys.add(key)
            out[str(key)] = _fast_data(value_node, constructor, open_nodes)
    open_nodes.discard(id(node))
    return out


def _safe_load(text: str) -> Any:
    """YAML text as plain data (text keys; str, int, float, bool, None, lists and dicts)."""
    from ruamel.yaml import YAML  # imported here: commands that read no YAML start faster
    from ruamel.yaml.resolver import VersionedResolver

    class Resolver(VersionedResolver):
        """ruamel's resolver, with the YAML version looked up once per file rather than per scalar."""

        @property
        def versioned_resolver(self) -> Any:
            if not hasattr(self, "_table"):
                self._table = VersionedResolver.versioned_resolver.fget(self)  # type: ignore[attr-defined]
            return self._table

    yaml = YAML(typ="safe")  # C-accelerated with ruamel.yaml.clib; never builds objects
    yaml.Resolver = Resolver
    node = yaml.compose(text)
    if node is None:
        return None
    try:
        return _fast_data(node, yaml.constructor, set())
    except _Unusual:
        return _normalise(YAML(typ="safe").load(text))


def read_yaml_text(text: str, file: str) -> Source:
    """Parse YAML text (JSON is YAML too); raise InputError with the location of a syntax error."""
    try:
        data = _safe_load(text)
    except Exception:  # any complaint: let the round-trip parser say it with a location
        data, positions = _round_trip(text, file)
        return Source(file, data, positions, text)
    return Source(file, data, None, text)


def read_yaml(path: str | Path) -> Source:
    """Read a YAML or JSON file; a missing or unreadable file is an InputError, not a traceback."""
    file = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError.single(file, "file not found") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError.single(file, f"cannot read file: {exc}") from None
    if file.endswith(".json"):
        try:
            json.loads(text)
        except json.JSONDecodeError as exc:
            raise InputError.single(file, f"JSON syntax error: {exc.msg}", exc.lineno, exc.colno) from None
    return read_yaml_text(text, file)


@dataclass
class CsvTable:
    """Rows of a CSV file as dicts, with the line each row starts on."""

    file: str
    rows: list[dict[str, str]]
    lines: list[int]


def read_csv(path: str | Path, shown_as: str | None = None) -> CsvTable:
    """Read a UTF-8 CSV with a header row; blank lines are skipped."""
    file = shown_as or str(path)
    try:
        text = Path(path).read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise InputError.single(file, "file not found") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError.single(file, f"cannot read file: {exc}") from None
    reader = csv.DictReader(io.StringIO(text))
    rows: list[dict[str, str]] = []
    lines: list[int] = []
    try:
        for row in reader:
            line = reader.line_num  # where the row ends: its own line unless a cell spans lines
            if None in row:
                raise InputError.single(file, "more cells than the header has columns", line, 1) from None
            if any((value or "").strip() for value in row.values()):
                rows.append({k.strip(): (v or "").strip() for k, v in row.items() if k})
                lines.append(line)
    except csv.Error as exc:
        raise InputError.single(file, f"CSV syntax error: {exc}", reader.line_num, 1) from None
    return CsvTable(file, rows, lines)


def _describe(error: dict[str, Any]) -> str:
    kind = error["type"]
    message = error["msg"]
    if message.startswith("Value error, "):
        message = message.removeprefix("Value error, ")
    if kind == "extra_forbidden":
        return f"unknown key {str(error['loc'][-1])!r} (expected one of the documented keys)"
    if kind == "missing":
        return f"missing key {str(error['loc'][-1])!r}"
    shown = error.get("input")
    if "input" in error and not isinstance(shown, dict | list) and repr(shown) not in message:
        return f"{message} (got {shown!r})"
    return message


def validate(model: type[M], source: Source, path: Path_ = ()) -> M:
    """Build `model` from the data at `path` in `source`; every error becomes a located Problem."""
    from pydantic import ValidationError

    data: Any = source.data
    for part in path:
        data = data[part]
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        problems = []
        for error in exc.errors():
            loc = (*path, *[p for p in error["loc"] if isinstance(p, int | str)])
            problems.append(source.problem(loc, _describe(error)))
        raise InputError(_dedupe(problems)) from None


def _dedupe(problems: list[Problem]) -> list[Problem]:
    seen: set[Problem] = set()
    return [p for p in problems if not (p in seen or seen.add(p))]
