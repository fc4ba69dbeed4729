"""Every data row's identity and a fingerprint of what its pieces draw.

A row's key (generator/keys.py) is its `id` field when every row of its component has a distinct one
(`c07`), else its row number (`#7`). Its fingerprint is a SHA-256 of what is drawn: the piece's
outline, each side's background and pattern, and each element with its `{field}`s filled from the
row, plus the bytes of every file those values name (images, fonts, data files) and of the Japanese
font. Row fields that no face shows do not count: changing them changes no printed piece. The
`{version}` field is left unfilled, so a new stamp alone does not make every piece new.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pnpforge.build import die_face, face_numbers
from pnpforge.components.load import RowRef
from pnpforge.components.model import Component
from pnpforge.components.template import FILL_ERRORS, fill
from pnpforge.generator.expand import ComponentPieces
from pnpforge.generator.keys import row_keys, row_title, rows_of
from pnpforge.generator.pieces import Piece
from pnpforge.layouts.faces.context import RenderContext
from pnpforge.layouts.faces.render import SideName, side_spec, wanted
from pnpforge.layouts.faces.templates import filled_fields, has_placeholder

VERSION_TOKEN = "\x00version\x00"  # stands for the stamp while fingerprinting
MAX_NAME = 300  # a value longer than this is text, never a file name
SIDES: tuple[SideName, ...] = ("face", "back")


@dataclass
class RowPrint:
    """One data row of one component: its key, its copies and the fingerprint of what it draws."""

    component: str
    key: str  # "c07" (the row's id) or "#7" (its row number)
    number: int  # 1-based, in the component's data order
    pieces: list[Piece]
    fingerprint: str
    files: dict[str, str] = field(default_factory=dict)  # file named -> SHA-256 of its bytes
    title: str = ""  # the row's `title` or `name` field in the build's language, if it has one

    @property
    def count(self) -> int:
        return len(self.pieces)

    @property
    def values(self) -> dict[str, Any]:
        return {k: v for k, v in self.pieces[0].row.items() if not (k == "version" and v == VERSION_TOKEN)}

    @property
    def ref(self) -> RowRef:
        return self.pieces[0].row_ref

    @property
    def label(self) -> str:
        """How messages and the reprint cover name the row: `cards c07`, or `cards #7 (Strike)`."""
        named = f" ({self.title})" if self.title and self.title != self.key else ""
        return f"{self.component} {self.key}{named}"


def fingerprints(groups: Sequence[ComponentPieces], ctx: RenderContext) -> list[RowPrint]:
    """Each row of each component, in spec and data order, with its key and fingerprint."""
    printer = Printer(ctx)
    out: list[RowPrint] = []
    for group in groups:
        rows = rows_of(group.pieces)
        for number, (key, pieces) in enumerate(zip(row_keys(rows), rows, strict=True), start=1):
            digest, named = printer.row_print(pieces[0])
            title = row_title(pieces[0], ctx.lang)
            out.append(RowPrint(group.component.name, key, number, pieces, digest, named, title))
    return out


RowMemo = dict[tuple[Any, ...], tuple[tuple[str, dict[str, str]], dict[str, str]]]


class Printer:
    """Fingerprints of pieces drawn in one context, each component's common part digested once and
    each data row once (the copies of a row share their row's values).

    `before` holds the rows a printer of the build before printed (`watch`): a row with the same
    values in a component drawn the same way keeps its fingerprint when every file its faces name
    (or might have named) still has the bytes it had. `kept` is this build's, for the next."""

    def __init__(self, ctx: RenderContext, before: RowMemo | None = None) -> None:
        self.ctx = ctx
        self.files = _Files(ctx)
        self.common: dict[int, _Common] = {}
        self.rows: dict[tuple[int, SideName | None], tuple[dict[str, Any], tuple[str, dict[str, str]]]] = {}
        self.before = before  # None: nothing to reuse, and nothing kept (a diff's printer)
        self.kept: RowMemo = {}

    def row_print(self, piece: Piece, only: SideName | None = None) -> tuple[str, dict[str, str]]:
        """The piece's fingerprint and the files it names (of one side with `only`)."""
        key = (id(piece.row), only)
        hit = self.rows.get(key)
        if hit is not None and hit[0] is piece.row:
            return hit[1]
        component = piece.component
        common = self.common.get(id(component))
        if common is None or common.component is not component:
            common = self.common[id(component)] = _Common(component, self.files)
        if self.before is None:
            found = common.row_print(piece, self.ctx, only)[0]
        else:
            found = self._remembered(common, piece, only)
        self.rows[key] = (piece.row, found)
        return found

    def _remembered(self, common: _Common, piece: Piece, only: SideName | None) -> tuple[str, dict[str, str]]:
        """The row's print as the build before made it when nothing it depends on changed, else anew."""
        assert self.before is not None
        size = (piece.width, piece.height, piece.cells)
        same = (common.digest, self.ctx.lang, only, repr(piece.row), repr(size))
        kept = self.before.get(same)
        if kept is None or any(self.files.digest(name) != digest for name, digest in kept[1].items()):
            found, names = common.row_print(piece, self.ctx, only)
            kept = found, {name: self.files.digest(name) for name in names}
        self.kept[same] = kept
        return kept[0]

    def __call__(self, piece: Piece, only: SideName | None = None) -> str:
        return self.row_print(piece, only)[0]


class _Common:
    """What every piece of one component draws alike (its sides as written in game.yaml, the files
    they name, the Japanese font), digested once; each row then adds what it fills in."""

    def __init__(self, component: Component, files: _Files) -> None:
        self.component = component
        self.files = files
        sides = {
            side: spec.model_dump(mode="json") if (spec := side_spec(component, side)) else None
            for side in SIDES
        }
        shape = [component.kind, component.shape, component.corner, component.orientation, component.faces]
        self.candidates = set(_names(sides))
        self.named = self._digests(sides)
        body = {"sides": sides, "shape": shape, "files": self.named, "cjk": files.cjk()}
        self.digest = _json_digest(body)

    def _digests(self, value: Any) -> dict[str, str]:
        return {name: digest for name in sorted(set(_names(value))) if (digest := self.files.digest(name))}

    def row_print(
        self, piece: Piece, ctx: RenderContext, only: SideName | None = None
    ) -> tuple[tuple[str, dict[str, str]], set[str]]:
        """The row's fingerprint, and the files it names (with their digests); with `only`, the
        fingerprint of that side alone (a back page does not change with its fronts). Then every text
        of its faces that could name a file, found or not."""
        if self.component.kind == "die":
            numbers = face_numbers(self.component)
            own: Any = {str(n): self._side(die_face(piece, n), "face", ctx) for n in numbers}
        else:
            own = {side: self._side(piece, side, ctx) for side in SIDES if only in (None, side)}
        size = [round(piece.width, 4), round(piece.height, 4), [list(cell) for cell in piece.cells]]
        named = {**self.named, **self._digests(own)}
        found = _json_digest({"common": self.digest, "size": size, "own": own, "files": named}), named
        return found, {*self.candidates, *_names(own)}  # and every text that could name a file

    @staticmethod
    def _side(piece: Piece, side: SideName, ctx: RenderContext) -> Any:
        """What the row fills into one side: background, pattern and each templated element's values."""
        spec = side_spec(piece.component, side)
        if spec is None:
            return None
        drawn: list[Any] = [_filled(spec.background, piece, ctx), _filled(spec.pattern, piece, ctx)]
        for element in spec.elements:
            try:
                if not wanted(element.when, piece.row, ctx.lang):  # a when: expression leaves it out
                    drawn.append(False)
                    continue
                if has_placeholder(element):
                    drawn.append(filled_fields(element, piece.row, ctx.lang))
            except FILL_ERRORS as exc:  # a build would refuse it; the diff still compares
                drawn.append(str(exc))
        return drawn


def _json_digest(value: Any) -> str:
    text = json.dumps(value, sort_keys=True, ensure_ascii=False, default=repr)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _filled(value: str | None, piece: Piece, ctx: RenderContext) -> str | None:
    if value is None:
        return None
    try:
        return fill(value, piece.row, ctx.lang)
    except FILL_ERRORS:
        return value


def _names(value: Any) -> Iterator[str]:
    """Every text in a drawn side that could name a file: short, one line, with a suffix of 1 to 5
    letters or digits (`art/c07.png`; not `Gain 2.5 gold.`)."""
    if isinstance(value, str):
        suffix = value.rsplit(".", 1)[-1] if "." in value else ""
        if len(value) <= MAX_NAME and "\n" not in value and 0 < len(suffix) <= 5 and suffix.isalnum():
            yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _names(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _names(item)


class _Files:
    """SHA-256 of the files a spec's faces name, each read once (files outside the spec folder only
    with --allow-outside-files, as drawing reads them)."""

    def __init__(self, ctx: RenderContext) -> None:
        self.folder = Path(ctx.spec_dir).resolve()
        self.allow_outside = ctx.allow_outside_files
        self.fonts = ctx.fonts
        self.known: dict[str, str] = {}

    def digest(self, name: str) -> str:
        if name not in self.known:
            self.known[name] = ""
            try:
                path = (self.folder / name).resolve()
                inside = self.allow_outside or self.folder in path.parents
                if inside and path.is_file():
                    self.known[name] = _sha256(path)
            except (OSError, ValueError, RuntimeError):
                pass  # not a file name after all
        return self.known[name]

    def cjk(self) -> str:
        """The Japanese font's bytes: Japanese text is drawn in it."""
        path = getattr(self.fonts, "cjk_path", None)
        if path is None:
            return ""
        key = f"\x00cjk:{path}"
        if key not in self.known:
            try:
                self.known[key] = _sha256(Path(path))
            except OSError:
                self.known[key] = ""
        return self.known[key]


_digests: dict[tuple[str, int, int], str] = {}  # (path, size, mtime) -> SHA-256: a font is read once


def _sha256(path: Path) -> str:
    stat = path.stat()
    key = (str(path), stat.st_size, stat.st_mtime_ns)
    if key not in _digests:
        digest = hashlib.sha256()
        with path.open("rb") as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                digest.update(block)
        _digests[key] = digest.hexdigest()
    return _digests[key]
