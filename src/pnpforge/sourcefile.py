"""Reading user files (YAML, JSON, CSV) with the line and column of every value kept.

Specs, set-up files and score files all come through here, so every later check can say
`FILE:LINE:COL`. YAML is parsed safely (no tags that build objects, no code), and duplicate
keys are errors. `validate` turns a pydantic model's errors into `Problem`s at the right line.

This is also the one guard against hostile input (docs/spec.md, "Input limits"): files are at
most limits.FILE_BYTES of UTF-8 text without control characters, and a YAML event scan (the parser
alone, which never recurses) refuses deep nesting, alias bombs and huge integers before any
recursive code (ruamel's composer and constructor, pydantic) sees the document.
"""

from __future__ import annotations

import csv
import io
import json
import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar, cast

from pnpforge import limits, parsecache
from pnpforge.errors import InputError, Problem, quoted
from pnpforge.i18n import N_
from pnpforge.phrase import Phrase
from pnpforge.suggest import did_you_mean

if TYPE_CHECKING:
    from pydantic import BaseModel
    from pydantic_core import ErrorDetails

    from pnpforge import lightmodel

__all__ = [
    "decode_utf8",
    "line_col",
    "named_file",
    "read_bytes",
    "read_csv",
    "read_yaml",
    "read_yaml_text",
    "validate",
    "FileRefError",
    "Path_",
    "Source",
]


Path_ = tuple[str | int, ...]
M = TypeVar("M", bound="BaseModel | lightmodel.BaseModel")  # pydantic's models, or pnpforge.lightmodel's


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
            self._positions = _positions(self._text, self.file) if self._text is not None else {}
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


# -- guards against hostile input ------------------------------------------------------------------

# what YAML does not allow in a file (YAML 1.2, 5.1: the complement of \t \n \r, 20-7E, 85, A0-D7FF,
# E000-FFFD and 10000-10FFFF), refused with its position, in CSV too; spelt as the characters refused,
# since that class compiles in a tenth of the time of its negated twin (~5 ms at every start)
_NON_PRINTABLE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x84\x86-\x9f\ud800-\udfff\ufffe\uffff]")
_SURROGATE = re.compile("[\ud800-\udfff]")
_INTEGER = re.compile(r"[-+]?(?:0x[0-9a-fA-F_]+|0o[0-7_]+|0b[01_]+|[0-9][0-9_]*)")
_COLLECTION_START = ("MappingStartEvent", "SequenceStartEvent")
_COLLECTION_END = ("MappingEndEvent", "SequenceEndEvent")


def line_col(text: str, index: int) -> tuple[int, int]:
    """1-based line and column of character `index` of `text`."""
    line_start = text.rfind("\n", 0, index) + 1
    return text.count("\n", 0, index) + 1, index - line_start + 1


def read_bytes(path: str | Path, file: str, kind: str = "") -> bytes:
    """The file's bytes, refusing more than limits.FILE_BYTES (or its kind's bound, `limits.FILE_BOUNDS`)
    without reading them all."""
    if kind in limits.FILE_BOUNDS:
        most = limits.FILE_BOUNDS[kind][0]
        try:
            with open(path, "rb") as handle:
                head = handle.read(most + 1)
        except OSError:
            head = b""  # said below, as for any file
        if len(head) > most:
            raise too_big(file, kind)
    try:
        with open(path, "rb") as handle:
            raw = handle.read(limits.FILE_BYTES + 1)
    except FileNotFoundError:
        raise InputError.single(file, N_("file not found")) from None
    except IsADirectoryError:
        raise InputError.single(file, N_("is a folder (expected a file)")) from None
    except OSError as exc:
        said = Phrase(N_("cannot read file: {reason}"), reason=exc.strerror or exc)
        raise InputError.single(file, said) from None
    if len(raw) > limits.FILE_BYTES:
        template = N_("file larger than {mb} MB (expected a smaller file; see Input limits in docs/spec.md)")
        raise InputError.single(file, Phrase(template, mb=limits.FILE_BYTES // 2**20))
    return raw


KINDS = {"setup": N_("set-up file"), "score": N_("score file")}  # the kinds of file FILE_BOUNDS bounds
TOO_BIG = N_("a {kind} larger than {kb} kB (expected a few kB; see Work bounds in docs/spec.md)")
TOO_MANY_VALUES = N_(
    "a {kind} of more than {count} values (expected a few hundred; see Work bounds in docs/spec.md)"
)


def _too_many(kind: str, most: int) -> Phrase:
    return Phrase(TOO_MANY_VALUES, kind=Phrase.word(KINDS[kind]), count=f"{most:,}")


def too_big(file: str, kind: str) -> InputError:
    """A file over its kind's byte bound (`limits.FILE_BOUNDS`)."""
    kb = limits.FILE_BOUNDS[kind][0] // 1000
    return InputError.single(file, Phrase(TOO_BIG, kind=Phrase.word(KINDS[kind]), kb=f"{kb:,}"))


def decode_utf8(raw: bytes, file: str) -> str:
    """UTF-8 text (a leading BOM dropped); any other encoding is refused at its first bad byte."""
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        start = raw.rfind(b"\n", 0, exc.start) + 1
        col = len(raw[start : exc.start].decode("utf-8", errors="replace")) + 1
        line = raw.count(b"\n", 0, exc.start) + 1
        message = Phrase(N_("not UTF-8 text (byte 0x{byte}); save it as UTF-8"), byte=f"{raw[exc.start]:02x}")
        raise InputError.single(file, message, line, col) from None


SYNTAX = N_("YAML syntax error: {reason}")
UNREADABLE = N_("unreadable YAML")
GOT = N_("{message} (got {value})")  # a value refused, and the value as the file gives it
TOO_LONG = N_("number too large (expected at most {digits} digits)")
# pydantic's own words for a value of the wrong type, by kind: its English stays as it is (the CLI's
# messages never change), another language says what was expected
_PYDANTIC = {
    "int_parsing": N_("expected a whole number"),
    "int_type": N_("expected a whole number"),
    "int_from_float": N_("expected a whole number"),
    "bool_parsing": N_("expected true or false"),
    "bool_type": N_("expected true or false"),
    "string_type": N_("expected text"),
    "list_type": N_("expected a list"),
    "tuple_type": N_("expected a list"),
    "dict_type": N_("expected a mapping of keys to values"),
    "model_type": N_("expected a mapping of keys to values"),
    "float_parsing": N_("expected a number"),
    "float_type": N_("expected a number"),
    "finite_number": N_("expected a finite number"),
}
# ruamel's words for a YAML syntax error, as messages (their English as ruamel says it)
_YAML_SAID = [
    (
        re.compile(r"expected (?P<wanted>.+), but found (?P<found>.+)"),
        N_("expected {wanted}, but found {found}"),
    ),
    (re.compile(r"expected (?P<wanted>.+), but got (?P<found>.+)"), N_("expected {wanted}, but got {found}")),
    (
        re.compile(r"found character (?P<char>.+) that cannot start any token"),
        N_("found character {char} that cannot start any token"),
    ),
    (re.compile(r"found unknown escape character (?P<char>.+)"), N_("found unknown escape character {char}")),
]
_YAML_WORDS = {
    N_("mapping values are not allowed here"),
    N_("found unexpected end of stream"),
    N_("could not find expected ':'"),
    N_("did not find expected key"),
    N_("did not find expected '-' indicator"),
    N_("did not find expected node content"),
    N_("found undefined alias"),
    N_("special characters are not allowed"),  # the reader's refusal of a binary file
    UNREADABLE,
}


def yaml_words(what: str) -> str:
    """ruamel's description of a syntax error, as a message that reads as ruamel's English and is said
    in the user's language when it is one ruamel often gives (any other stays as ruamel says it)."""
    for pattern, template in _YAML_SAID:
        match = pattern.fullmatch(what)
        if match:
            return Phrase(template, **match.groupdict())
    return Phrase.word(what) if what in _YAML_WORDS else what


def too_long_number() -> Phrase:
    """The refusal of an integer longer than limits.DIGITS, in a file, a form or a typed answer."""
    return Phrase(TOO_LONG, digits=limits.DIGITS)


def check_text(text: str, file: str) -> None:
    """Refuse text over the size limit or holding control characters (NUL, escape...), located."""
    if len(text) > limits.FILE_BYTES:
        said = Phrase(
            N_("text longer than {mb} MB (expected less; see Input limits in docs/spec.md)"),
            mb=limits.FILE_BYTES // 2**20,
        )
        raise InputError.single(file, said)
    bad = _NON_PRINTABLE.search(text)
    if bad:
        line, col = line_col(text, bad.start())
        code = ord(bad.group())
        said = Phrase(
            N_("non-printable character U+{code} (expected text; delete it or save the file as text)"),
            code=f"{code:04X}",
        )
        raise InputError.single(file, said, line, col)


def _events(text: str, fast: bool) -> Any:
    """YAML parser events, one at a time; the parser is a state machine, so nothing here recurses."""
    from ruamel.yaml import YAML

    if fast:
        try:
            from _ruamel_yaml import CParser  # ruamel.yaml.clib: the libyaml parser
        except ImportError:
            fast = False
        else:
            parser = CParser(text)
            while (event := parser.get_event()) is not None:
                yield event
            return
    yield from YAML(typ="rt").parse(text)


def _mark_problem(file: str, mark: Any, message: str) -> InputError:
    line, col = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
    return InputError([Problem(file, line, col, message)])


def _scan_limits(text: str, file: str, kind: str = "") -> None:
    """Walk the YAML events once and refuse what would make the loader recurse or blow up.

    Checked: nesting depth (aliases counted where they are used), the values aliases copy in, an
    alias inside its own anchor, and integer literals longer than limits.DIGITS. A syntax error found
    by the fast parser is looked at again by the pure one (the one that reports it to the user),
    so no parser ever goes past a point the scan has not checked.
    """
    from ruamel.yaml.error import MarkedYAMLError, YAMLError

    most = limits.FILE_BOUNDS[kind][1] if kind in limits.FILE_BOUNDS else 0
    try:
        _walk(_events(text, fast=True), file, most, kind)
    except MarkedYAMLError:
        try:
            _walk(_events(text, fast=False), file, most, kind)
        except MarkedYAMLError as exc:
            mark = exc.problem_mark or exc.context_mark
            what = (exc.problem or exc.context or UNREADABLE).strip()
            raise _mark_problem(file, mark, Phrase(SYNTAX, reason=yaml_words(what))) from None
        except YAMLError as exc:
            raise InputError.single(file, Phrase(SYNTAX, reason=yaml_words(str(exc))), 1, 1) from None


COMPLEX_KEY = N_("a {what} as a mapping key (expected a plain name or number before the ':')")
TAGGED = N_("the YAML tag {tag} (expected plain values: these files use no tags)")
_SHAPES = {"list": N_("list"), "mapping": N_("mapping")}  # what stands where a key should
_PLAIN_TAGS = frozenset(
    f"tag:yaml.org,2002:{name}" for name in ("str", "int", "float", "bool", "null", "seq", "map")
)


def _node(event: Any, frames: list[list[Any]], file: str, collection: str = "") -> None:
    """Count a node in its parent; refuse a list or mapping (`collection`) where a key stands, and a
    tag that would make something other than plain data (a set, a date, an object)."""
    tag = getattr(event, "tag", None)
    if tag is not None and tag not in _PLAIN_TAGS and not (tag == "!" and collection == ""):
        shown = "!!" + tag.removeprefix(_CORE) if tag.startswith(_CORE) else tag
        raise _mark_problem(file, event.start_mark, Phrase(TAGGED, tag=quoted(shown)))
    if not frames:
        return
    parent = frames[-1]
    if parent[4] and parent[5] % 2 == 0 and collection:
        raise _mark_problem(
            file, event.start_mark, Phrase(COMPLEX_KEY, what=Phrase.word(_SHAPES[collection]))
        )
    parent[5] += 1


def _walk(events: Any, file: str, most: int = 0, file_kind: str = "") -> None:
    """The scan's one pass; `most`: the values the file may hold (0: no bound but the aliases')."""
    depth = 0
    # open collections: [anchor, values before it, its level, deepest level, a mapping?, nodes in it]
    frames: list[list[Any]] = []
    sizes: dict[str, tuple[int, int]] = {}  # anchor -> (values it holds, levels it adds)
    shapes: dict[str, str] = {}  # anchor of a collection -> "list" or "mapping"
    values = copied = 0
    for event in events:
        kind = type(event).__name__
        if kind == "ScalarEvent":  # the most common event first: this loop runs for every file read
            values += 1
            if event.tag is not None:
                _node(event, frames, file)
            elif frames:
                frames[-1][5] += 1
            if event.anchor is not None:
                sizes[event.anchor] = (1, 0)
            value = event.value
            if event.style == '"' and _SURROGATE.search(value):  # only a double-quoted escape makes one
                said = N_("a lone surrogate escape like \\ud800 (expected a whole character)")
                raise _mark_problem(file, event.start_mark, said)
            plain = event.style in (None, "") and event.implicit[0]
            if len(value) > limits.DIGITS and plain and _too_long_integer(value):
                raise _mark_problem(file, event.start_mark, too_long_number())
            if most and values > most:
                raise _mark_problem(file, event.start_mark, _too_many(file_kind, most))
        elif kind in _COLLECTION_START:
            shape = "mapping" if kind == "MappingStartEvent" else "list"
            _node(event, frames, file, shape)
            if event.anchor is not None:
                shapes[event.anchor] = shape
            depth += 1
            if depth > limits.NESTING:
                said = Phrase(
                    N_(
                        "nested more than {depth} levels deep "
                        "(expected at most {depth}; see Input limits in docs/spec.md)"
                    ),
                    depth=limits.NESTING,
                )
                raise _mark_problem(file, event.start_mark, said)
            frames.append([event.anchor, values, depth, depth, shape == "mapping", 0])
            values += 1
        elif kind in _COLLECTION_END:
            anchor, before, level, deepest, _, _ = frames.pop()
            depth -= 1
            if frames:
                frames[-1][3] = max(frames[-1][3], deepest)
            if anchor is not None:
                sizes[anchor] = (values - before, deepest - level + 1)
        elif kind == "AliasEvent":
            _alias(event, file, sizes, frames, depth)
            _node(event, frames, file, shapes.get(event.anchor, ""))
            count, height = sizes[event.anchor]
            values += count
            copied += count
            if copied > limits.ALIAS_VALUES:
                said = Phrase(
                    N_(
                        "aliases copy in more than {count} values "
                        "(expected far fewer: an alias bomb?; see Input limits in docs/spec.md)"
                    ),
                    count=limits.ALIAS_VALUES,
                )
                raise _mark_problem(file, event.start_mark, said)
            if most and values > most:
                raise _mark_problem(file, event.start_mark, _too_many(file_kind, most))
            if frames:
                frames[-1][3] = max(frames[-1][3], depth + height)


def _alias(
    event: Any, file: str, sizes: dict[str, tuple[int, int]], frames: list[list[Any]], depth: int
) -> None:
    """An alias must name an anchor already complete, and must not nest the data too deep."""
    name = event.anchor
    if name not in sizes:
        if any(frame[0] == name for frame in frames):
            said = Phrase(
                N_("alias *{name} is inside its own anchor &{name} (expected no self-reference)"), name=name
            )
            raise _mark_problem(file, event.start_mark, said)
        said = Phrase(N_("alias *{name} names no anchor (expected &{name} above it)"), name=name)
        raise _mark_problem(file, event.start_mark, said)
    if depth + sizes[name][1] > limits.NESTING:
        said = Phrase(
            N_(
                "alias *{name} nests the data more than {depth} levels deep "
                "(expected at most {depth}; see Input limits in docs/spec.md)"
            ),
            name=name,
            depth=limits.NESTING,
        )
        raise _mark_problem(file, event.start_mark, said)


def _too_long_integer(value: str) -> bool:
    if not _INTEGER.fullmatch(value):
        return False
    digits = value.lstrip("+-").replace("_", "")
    if digits[:2] in ("0x", "0o", "0b"):
        digits = digits[2:]
    return len(digits.lstrip("0")) > limits.DIGITS


# -- files a spec names ----------------------------------------------------------------------------

OUTSIDE_FLAG = "--allow-outside-files"
FILE_WORDS = (
    N_("data file"),
    N_("image"),
    N_("font"),
    N_("icon"),
)  # what `named_file` is asked for, said in messages


class FileRefError(ValueError):
    """A file named in a spec that may not or cannot be used; the message says which and why."""


def named_file(
    folder: Path, name: str, what: str, *, allow_outside: bool = False, roots: tuple[Path, ...] = ()
) -> Path:
    """The existing file `name` (written in a spec) names, relative to the spec `folder`.

    Symbolic links are resolved first, so the file must really lie inside `folder` (or one of
    `roots`, e.g. the system's font folders) unless the user opted in with --allow-outside-files.
    """
    if not isinstance(name, str) or not name.strip() or len(name) > limits.FILE_NAME or "\x00" in name:
        template = N_("{what} {name} is not a usable file name (expected e.g. art.png)")
        raise FileRefError(Phrase(template, what=Phrase.word(what), name=repr(str(name)[:80])))
    try:
        base = folder.resolve()
        path = (base / name).resolve()
        outside = not any(path.is_relative_to(root.resolve()) for root in (base, *roots))
        if outside and not allow_outside:
            template = N_(
                "{what} {name} is outside the spec folder (expected a path inside it; {flag} allows others)"
            )
            raise FileRefError(Phrase(template, what=Phrase.word(what), name=repr(name), flag=OUTSIDE_FLAG))
        if not path.is_file():
            near = _written_otherwise(base, name)
            if near is not None:
                template = N_("{what} {name} not found (did you mean {near}? expected a file in {folder})")
                said = Phrase(template, what=Phrase.word(what), name=repr(name), near=repr(near), folder=base)
                raise FileRefError(said)
            template = N_("{what} {name} not found (expected a file in {folder})")
            raise FileRefError(Phrase(template, what=Phrase.word(what), name=repr(name), folder=base))
    except OSError as exc:
        template = N_("{what} {name} cannot be used: {reason}")
        said = Phrase(template, what=Phrase.word(what), name=repr(name[:80]), reason=exc.strerror or exc)
        raise FileRefError(said) from None
    return path


def _written_otherwise(base: Path, name: str) -> str | None:
    """The file a missing `name` most likely means, as it should be written: with `/` for a Windows
    `\\`, or in the case the file's name has on disk (`art/Timber.png` written, `art/timber.png` on
    disk: found on Windows and macOS, not on Linux nor in a zip sent to a print shop); None when there
    is none."""
    parts = [part for part in name.replace("\\", "/").split("/") if part not in ("", ".")]
    folder = base
    written: list[str] = []
    for part in parts:
        if part == "..":
            return None
        if (folder / part).exists():
            found = part
        else:
            try:
                entries = [
                    entry.name
                    for _, entry in zip(range(limits.FOLDER_LISTED), folder.iterdir(), strict=False)
                ]
            except OSError:
                return None
            same = [entry for entry in entries if entry.lower() == part.lower()]
            if len(same) != 1:
                return None
            found = same[0]
        written.append(found)
        folder = folder / found
    shown = "/".join(written)
    return shown if shown != name and folder.is_file() else None


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
        said = Phrase(N_("duplicate key {key} (expected each key once per mapping)"), key=quoted(key))
        problem = Problem(file, mark.line + 1, mark.column + 1, said)
        raise InputError([problem]) from None
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (0, 0)
        what = (exc.problem or exc.context or UNREADABLE).strip()
        raise InputError([Problem(file, line, col, Phrase(SYNTAX, reason=yaml_words(what)))]) from None
    positions: dict[Path_, tuple[int, int]] = {(): (1, 1)}
    return _plain(node, (), positions), positions


def _positions(text: str, file: str) -> dict[Path_, tuple[int, int]]:
    """Where every value stands: from the C parser's events when the file is plain (a 10 MB file in
    seconds), else from ruamel's round-trip loader (aliases, merge keys, keys that are not text)."""
    try:
        return _event_positions(text)
    except _Unusual:
        return _round_trip(text, file)[1]


_NULLS = ("", "~", "null", "Null", "NULL")
# a plain key that may load as a number, boolean or null: its text is left to ruamel's own loader
_NOT_TEXT_KEY = re.compile(r"[-+]?\.?[0-9]|[-+]?\.(?:inf|nan)$|(?:true|false|null|~)?$", re.IGNORECASE)


def _event_positions(text: str) -> dict[Path_, tuple[int, int]]:
    """`_round_trip`'s positions from parser events alone: a mapping value stands where its value
    starts (where its key does when the value is empty), a list item where the item starts."""
    positions: dict[Path_, tuple[int, int]] = {(): (1, 1)}
    frames: list[list[Any]] = []  # [path, is_mapping, next item index or key, key's mark]
    for event in _events(text, fast=True):
        kind = type(event).__name__
        if kind in _COLLECTION_END:
            frames.pop()
            continue
        if kind not in ("ScalarEvent", *_COLLECTION_START):
            if kind == "AliasEvent":
                raise _Unusual
            continue
        mark = event.start_mark
        path: Path_ = ()
        if frames:
            frame = frames[-1]
            if frame[1] and frame[2] is None:  # a key
                plain = event.style in (None, "") and kind == "ScalarEvent"
                if kind != "ScalarEvent" or event.anchor or (plain and _NOT_TEXT_KEY.match(event.value)):
                    raise _Unusual
                if event.value == "<<" and plain:
                    raise _Unusual
                frame[2], frame[3] = event.value, mark
                continue
            if frame[1]:
                path = (*frame[0], frame[2])
                empty = kind == "ScalarEvent" and event.style in (None, "") and event.value in _NULLS
                mark = frame[3] if empty else mark
                frame[2] = None
            else:
                path = (*frame[0], frame[2])
                frame[2] += 1
            positions[path] = (mark.line + 1, mark.column + 1)
        if kind in _COLLECTION_START:
            frames.append(
                [path, kind == "MappingStartEvent", None if kind == "MappingStartEvent" else 0, None]
            )
    return positions


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


def _fast_data(node: Any, constructor: Any, open_nodes: set[int], scalars: dict[Any, Any]) -> Any:
    """Plain data from a node tree the C parser composed: ruamel's safe loader builds the same in
    Python several times slower. Scalars use ruamel's own constructors, so values are its values;
    `scalars` keeps each distinct one of this file (ints, floats, booleans, null: immutable)."""
    tag = node.ctag.suffix
    if tag == _STR:
        return node.value
    if tag in _SCALARS:
        key = (tag, node.value)
        if key not in scalars:
            scalars[key] = getattr(constructor, _SCALARS[tag])(node)
        return scalars[key]
    if id(node) in open_nodes or tag not in (_MAP, _SEQ):
        raise _Unusual
    open_nodes.add(id(node))
    if tag == _SEQ:
        out: Any = [_fast_data(item, constructor, open_nodes, scalars) for item in node.value]
    else:
        out, keys = {}, set()
        for key_node, value_node in node.value:
            key = _fast_data(key_node, constructor, open_nodes, scalars)
            if isinstance(key, dict | list) or key in keys or str(key) in out:  # ruamel words the error
                raise _Unusual
            keys.add(key)
            out[str(key)] = _fast_data(value_node, constructor, open_nodes, scalars)
    open_nodes.discard(id(node))
    return out


def _safe_load(text: str) -> Any:
    """YAML text as plain data (text keys; str, int, float, bool, None, lists and dicts)."""
    from ruamel.yaml import YAML  # imported here: commands that read no YAML start faster

    from pnpforge.internals.ruamel_private import caching_resolver

    yaml = YAML(typ="safe")  # C-accelerated with ruamel.yaml.clib; never builds objects
    yaml.Resolver = caching_resolver()
    node = yaml.compose(text)
    if node is None:
        return None
    try:
        return _fast_data(node, yaml.constructor, set(), {})
    except _Unusual:
        return _normalise(YAML(typ="safe").load(text))


def read_yaml_text(text: str, file: str, kind: str = "") -> Source:
    """Parse YAML text (JSON is YAML too); raise InputError with the location of any problem.

    Every YAML reader (files, set-ups dealt in memory, answers typed in, the web) comes here, so the
    input limits are checked here, before any parser builds a tree; `kind` ("setup", "score") bounds
    the text's size and values more tightly (`limits.FILE_BOUNDS`).
    """
    if kind in limits.FILE_BOUNDS and len(text) > limits.FILE_BOUNDS[kind][0]:
        raise too_big(file, kind)
    check_text(text, file)
    _scan_limits(text, file, kind)
    try:
        data = _safe_load(text)
    except Exception:  # any complaint: let the round-trip parser say it with a location
        data, positions = _round_trip(text, file)
        return Source(file, data, positions, text)
    return Source(file, data, None, text)


_COMMENTED_VALUE = re.compile(r"^[ \t]*(?:-[ \t]+)?([^\s:#{}\[\],]+):[ \t]+(#\S+)", re.MULTILINE)


def hidden_by_comment(source: Source) -> list[Problem]:
    """Keys left empty because their value starts with `#` (`background: #2b2233`): YAML reads the `#`
    as a comment, so the value is null and the spec would silently lose it. Each is said at its line."""
    text = source._text
    if text is None or "#" not in text:
        return []
    suspects = {}
    for match in _COMMENTED_VALUE.finditer(text):
        suspects[text.count("\n", 0, match.start()) + 1] = (match.group(1), match.group(2))
    if not suspects:
        return []
    problems = []
    for path, (line, col) in source.positions.items():
        if not path or line not in suspects or suspects[line][0] != str(path[-1]):
            continue
        node: Any = source.data
        for part in path:
            if isinstance(node, dict):
                node = node.get(part)
            elif isinstance(node, list) and isinstance(part, int):
                node = node[part]
            else:
                node = None
        if node is None:
            key, value = suspects[line]
            problems.append(
                Problem(
                    source.file,
                    line,
                    col,
                    Phrase(
                        N_(
                            "{key} is empty: a `#` starts a comment in YAML; "
                            'write it quoted: {key}: "{value}"'
                        ),
                        key=key,
                        value=value,
                    ),
                )
            )
    return problems


def read_yaml(path: str | Path, kind: str = "") -> Source:
    """Read a YAML or JSON file; a missing, unreadable or hostile file is an InputError, not a traceback.

    pnpforge's own data files are parsed once and then read from their cache (parsecache.py).
    """
    file = str(path)
    text = decode_utf8(read_bytes(path, file, kind), file)
    cache = parsecache.cache_file(Path(path))
    if cache is None:
        return _parse(text, file, kind)
    data = parsecache.load(cache, text)
    if data is not parsecache.MISSING:
        return Source(file, data, None, text)
    source = _parse(text, file)
    parsecache.store(cache, text, source.data)
    return source


def _parse(text: str, file: str, kind: str = "") -> Source:
    if file.endswith(".json"):
        check_text(text, file)
        _scan_limits(text, file, kind)  # json's own parser recurses and converts any integer: check first
        try:
            json.loads(text)
        except json.JSONDecodeError as exc:
            said = Phrase(N_("JSON syntax error: {reason}"), reason=exc.msg)  # the json module's words
            raise InputError.single(file, said, exc.lineno, exc.colno) from None
    return read_yaml_text(text, file, kind)


@dataclass
class CsvTable:
    """Rows of a CSV file as dicts, with the line each row starts on (the file's own numbering)."""

    file: str
    rows: list[dict[str, str]]
    lines: list[int]
    header: list[str] = field(default_factory=list)
    delimiter: str = ","

    def column(self, name: str) -> int:
        """1-based column number of a header name (1 when the file has no such column)."""
        return self.header.index(name) + 1 if name in self.header else 1


SEPARATORS = {";": N_("semicolon"), "\t": N_("tab")}  # what spreadsheets save instead of commas


def csv_separator(header: str) -> str:
    """The separator of a CSV file, read from its header: a comma, unless the header holds none and
    a semicolon or tab instead (what many European and Japanese spreadsheets save)."""
    if "," in header:
        return ","
    found = [sep for sep in SEPARATORS if sep in header]
    return found[0] if len(found) == 1 else ","


def _unclosed_quote(text: str, delimiter: str) -> tuple[int, int] | None:
    """(line, col) of a quote that opens a cell and is never closed, or None (quotes as csv reads them:
    a quote opens a cell only at its start, and "" inside a quoted cell is a quote)."""
    quoted = False
    at_start = True
    opened = 0
    index = 0
    while index < len(text):
        char = text[index]
        if quoted:
            if char == '"':
                if text.startswith('"', index + 1):
                    index += 1  # an escaped quote
                else:
                    quoted = False
        elif char == '"' and at_start:
            quoted, opened = True, index
        at_start = not quoted and char in (delimiter, "\n")
        index += 1
    return line_col(text, opened) if quoted else None


def read_csv(path: str | Path, shown_as: str | None = None) -> CsvTable:
    """Read a UTF-8 CSV with a header row; blank lines are skipped. Other encodings are refused.

    Refused, each at its line: a row with more or fewer cells than the header has columns (empty
    cells past the header's end are allowed), a header naming a column twice, a quote never closed.
    A header with semicolons or tabs and no comma is read with that separator."""
    file = shown_as or str(path)
    text = decode_utf8(read_bytes(path, file), file)
    check_text(text, file)
    text = text.replace("\r\n", "\n").replace("\r", "\n")  # a lone CR (old Mac files) ends a line too
    delimiter = csv_separator(text.split("\n", 1)[0])
    if text.count('"') % 2 and (where := _unclosed_quote(text, delimiter)):
        said = N_('a quote opens a cell and is never closed (expected a closing " before the cell ends)')
        raise InputError.single(file, said, *where)
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    problems: list[Problem] = []
    header: list[str] = []
    rows: list[dict[str, str]] = []
    lines: list[int] = []
    end = 0
    try:
        for cells in reader:
            start, end = end + 1, reader.line_num
            if not any(cell.strip() for cell in cells):
                continue
            if not header:
                header = [cell.strip() for cell in cells]
                problems += _header_problems(file, start, header)
                continue
            if len(rows) >= limits.ROWS:
                template = N_("more than {count} rows (expected fewer; see Work bounds in docs/spec.md)")
                message = Phrase(template, count=limits.ROWS)
                raise InputError.single(file, message, start, 1)
            if len(cells) != len(header) and not (
                len(cells) > len(header) and not any(c.strip() for c in cells[len(header) :])
            ):
                problems.append(_width_problem(file, start, len(cells), header, delimiter))
                continue
            rows.append({name: cell.strip() for name, cell in zip(header, cells, strict=False) if name})
            lines.append(start)
    except csv.Error as exc:
        where = _unclosed_quote(text, delimiter) or (end + 1, 1)
        what = N_("a cell longer than 128 kB") if "field larger" in str(exc) else N_("unreadable CSV")
        template = N_("{what} (expected comma-separated cells; quote a cell holding commas)")
        raise InputError.single(file, Phrase(template, what=Phrase.word(what)), *where) from None
    if problems:
        raise InputError(problems)
    return CsvTable(file, rows, lines, header, delimiter)


def _header_problems(file: str, line: int, header: list[str]) -> list[Problem]:
    """A column named twice shifts no value silently: both columns are named."""
    problems = []
    first: dict[str, int] = {}
    for number, name in enumerate(header, start=1):
        if not name:
            continue
        if name in first:
            problems.append(
                Problem(
                    file,
                    line,
                    1,
                    Phrase(
                        N_(
                            "column {name} appears twice in the header (columns {first} and {second}; "
                            "expected each column name once)"
                        ),
                        name=quoted(name),
                        first=first[name],
                        second=number,
                    ),
                )
            )
        else:
            first[name] = number
    return problems


def _width_problem(file: str, line: int, cells: int, header: list[str], delimiter: str) -> Problem:
    named = ", ".join(name for name in header if name)
    if cells < len(header):
        template = N_(
            "row has {cells} cells, fewer than the header's {columns} columns (expected {columns}: {named})"
        )
        return Problem(file, line, 1, Phrase(template, cells=cells, columns=len(header), named=named))
    template = N_(
        "row has {cells} cells, more than the header's {columns} columns "
        "(expected {columns}: {named}; a {separator} inside a cell needs the cell quoted)"
    )
    separator = Phrase.word(SEPARATORS.get(delimiter, N_("comma")))
    return Problem(
        file, line, 1, Phrase(template, cells=cells, columns=len(header), named=named, separator=separator)
    )


@cache
def model_keys(model: type[BaseModel | lightmodel.BaseModel]) -> frozenset[str]:
    """Every key a spec may write anywhere under `model`: its fields' names and aliases, and those of
    every model its fields hold (through lists, unions and mappings)."""
    import typing

    keys: set[str] = set()
    seen: set[type] = set()
    waiting: list[Any] = [model]
    while waiting:
        kind = waiting.pop()
        if is_model(kind):
            if kind in seen:
                continue
            seen.add(kind)
            for name, info in kind.model_fields.items():
                keys.update(k for k in (name, info.alias) if k)
                waiting.append(info.annotation)
        else:
            waiting.extend(typing.get_args(kind))
    return frozenset(keys)


COLOUR_SPELLINGS = (("color", "colour"), ("gray", "grey"), ("center", "centre"))  # US -> the spec's words


def _key_hint(key: str, known: frozenset[str]) -> str:
    """'did you mean colour? ' for `color` (the spec writes British English), else the nearest keys."""
    for us, uk in COLOUR_SPELLINGS:
        if us in key and key.replace(us, uk) in known:
            return Phrase(N_("did you mean {names}? "), names=[key.replace(us, uk)])
    return did_you_mean(key, known, n=1)


def _describe(error: ErrorDetails, known: frozenset[str] = frozenset()) -> str:
    from pnpforge.saying import pydantic_message

    kind = error["type"]
    message = error["msg"]
    if message.startswith("Value error, "):
        message = message.removeprefix("Value error, ")
        raised = error.get("ctx", {}).get("error")
        if isinstance(raised, ValueError) and raised.args and isinstance(raised.args[0], Phrase):
            message = raised.args[0]  # the sentence a validator raised, to be said in the reader's language
    elif kind in _PYDANTIC:  # pydantic's English as it is, said in another language in our words
        message = Phrase.word(message, _PYDANTIC[kind])
    else:  # pydantic's wording with its values ('a', 'b' or 'c'; >= 1), as catalog messages
        message = pydantic_message(error)
    if kind == "extra_forbidden":
        written = str(error["loc"][-1])
        hint = _key_hint(written, known)
        if hint:
            return Phrase(
                N_("unknown key {key} ({hint}expected one of the documented keys)"),
                key=quoted(written),
                hint=hint,
            )
        return Phrase(N_("unknown key {key} (expected one of the documented keys)"), key=quoted(written))
    if kind == "missing":
        return Phrase(N_("missing key {key}"), key=quoted(str(error["loc"][-1])))
    if kind == "literal_error":  # kinds, shapes, fits...: the nearest of the allowed words first
        allowed = re.findall(r"'([^']*)'", str(error.get("ctx", {}).get("expected", "")))
        hint = did_you_mean(str(error.get("input")), allowed) if isinstance(error.get("input"), str) else ""
        if isinstance(hint, Phrase):  # the names nearest to what was written
            hint = Phrase(N_("did you mean {names}?"), **hint.values)
            message = Phrase(N_("{message} ({hint})"), message=message, hint=hint)
    shown = error.get("input")
    if "input" in error and not isinstance(shown, dict | list) and repr(shown) not in message:
        return Phrase(GOT, message=message, value=repr(shown))
    return message


def is_model(kind: Any) -> bool:
    """Whether `kind` is a model class: pydantic's, or pnpforge.lightmodel's (asked without importing
    pydantic's model machinery, which a table command never loads)."""
    return isinstance(kind, type) and isinstance(getattr(kind, "model_fields", None), dict)


def validate(model: type[M], source: Source, path: Path_ = ()) -> M:
    """Build `model` from the data at `path` in `source`; every error becomes a located Problem."""
    from pnpforge.internals.pydantic_core_private import validation_error

    ValidationError = validation_error()  # noqa: N806  # pydantic_core's, without its package (speed)
    data: Any = source.data
    for part in path:
        data = data[part]
    try:
        return cast(M, model.model_validate(data))
    except ValidationError as exc:
        problems = []
        errors = exc.errors()
        infinite = {e["loc"][:-1] for e in errors if e["type"] == "finite_number" and _member(e)}
        for error in errors:
            if _member(error) and error["loc"][:-1] in infinite and error["type"] != "finite_number":
                continue  # `.nan` for a text-or-number value: "not finite" is the one to say
            loc = (*path, *_in_data(data, error["loc"]))
            problems.append(source.problem(loc, _describe(error, model_keys(model))))  # type: ignore[arg-type]
        raise InputError(_dedupe(problems)) from None


def _enter(node: Any, part: Any) -> tuple[bool, Any]:
    if isinstance(node, dict) and isinstance(part, str) and part in node:
        return True, node[part]
    if (
        isinstance(node, list)
        and isinstance(part, int)
        and not isinstance(part, bool)
        and 0 <= part < len(node)
    ):
        return True, node[part]
    return False, None


def _in_data(data: Any, loc: tuple[Any, ...]) -> tuple[str | int, ...]:
    """pydantic's error location as a path in the data: union members and tags (`text`, `float`) left out.

    A tag may share its name with a key (an element `type: text` has a `text` key), so a part is
    followed only if the part after it is found there too, or is not found one level up either.
    """
    out: list[str | int] = []
    node = data
    for index, part in enumerate(loc):
        found, inner = _enter(node, part)
        if not found:
            continue
        if index + 1 < len(loc) and not _enter(inner, loc[index + 1])[0] and _enter(node, loc[index + 1])[0]:
            continue  # a tag named like a key: the next part belongs here
        out.append(part)
        node = inner
    return tuple(out)


def _member(error: ErrorDetails) -> bool:
    """Whether the error is about one member of a union (its location ends in the member's type)."""
    last = str(error["loc"][-1]) if error["loc"] else ""
    return last in ("str", "int", "float") or last.startswith("function-")


def _dedupe(problems: list[Problem]) -> list[Problem]:
    return list(dict.fromkeys(problems))  # each once, in the order first said
