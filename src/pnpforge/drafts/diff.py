"""What changed between two drafts of a spec, piece by piece.

Rows are paired per component: first by key with the same fingerprint, then by fingerprint alone
(a row moved or renumbered is the same piece: a reorder is not a change), then by key (a changed
piece); what is left was added or removed. A row whose count changed while it draws the same gains
or loses copies.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from pnpforge.build import BuildOptions, drawing_setup, pieces_of
from pnpforge.components.load import LoadedSpec
from pnpforge.drafts.identity import VERSION_TOKEN, RowPrint, fingerprints
from pnpforge.generator.pieces import Piece
from pnpforge.i18n import N_
from pnpforge.phrase import Phrase, series

ChangeKind = Literal["changed", "added", "removed", "copies"]
SHOWN = 60  # characters of a field's value shown in a change line
FIELD_CHANGE = "{field} {old} → {new}"  # the spec's field name and its values: no words of ours
_KIND_LINES = {  # (kind, more than one copy) -> the line of a row added or removed
    ("added", False): N_("{row}: added"),
    ("added", True): N_("{row}: added ({count} copies)"),
    ("removed", False): N_("{row}: removed"),
    ("removed", True): N_("{row}: removed ({count} copies)"),
}
_COUNTED = {  # a diff's summary, one count per kind of change
    "changed": N_("{count} changed"),
    "added": N_("{count} added"),
    "removed": N_("{count} removed"),
    "copies": N_("{count} with other copy counts"),
}


@dataclass
class Change:
    """One row added, removed or changed (or some of its copies added or removed)."""

    kind: ChangeKind
    old: RowPrint | None
    new: RowPrint | None
    fields: list[tuple[str, Any, Any]] = field(default_factory=list)  # (field, old value, new value)
    files: list[str] = field(default_factory=list)  # files named by both whose bytes differ
    copies: int = 0  # kind "copies" (the row draws the same, its count changed): new count - old count

    @property
    def row(self) -> RowPrint:
        found = self.new or self.old
        assert found is not None
        return found

    @property
    def component(self) -> str:
        return self.row.component

    @property
    def key(self) -> str:
        return self.row.key

    def reprinted(self) -> list[Piece]:
        """The pieces of the new draft to print for this change: all of a new or changed row, the
        extra copies of a row that draws the same."""
        if self.new is None:
            return []
        if self.kind == "copies":
            return self.new.pieces[-self.copies :] if self.copies > 0 else []
        return list(self.new.pieces)

    def discarded(self) -> int:
        """How many copies of the old draft to throw away: every copy of a changed or removed row, the
        copies a row that draws the same no longer has."""
        if self.old is None:
            return 0
        if self.kind == "copies":
            return max(0, -self.copies)
        return self.old.count

    def line(self) -> Phrase:
        """`cards c07: text "Gain 2" → "Gain 3"`: the spec's names and values as written, our words
        said in the terminal's language (a Phrase)."""
        row = self.row.label
        if self.kind == "copies":
            old = self.old.count if self.old else 0
            new = self.new.count if self.new else 0
            return Phrase(N_("{row}: {old} → {new} copies"), row=row, old=old, new=new)
        if self.kind != "changed":
            many = self.row.count > 1
            return Phrase(_KIND_LINES[self.kind, many], row=row, count=self.row.count)
        said = [Phrase(FIELD_CHANGE, field=name, old=_shown(a), new=_shown(b)) for name, a, b in self.fields]
        said += [Phrase(N_("{file} changed (its bytes)"), file=name) for name in self.files]
        how = series(said) if said else Phrase.word(N_("drawn differently (the face in game.yaml)"))
        return Phrase("{row}: {changes}", row=row, changes=how)  # layout alone: not a message

    def as_json(self) -> dict[str, Any]:
        return {
            "component": self.component,
            "key": self.key,
            "change": self.kind,
            "old_row": self.old.number if self.old else None,
            "new_row": self.new.number if self.new else None,
            "copies": {"old": self.old.count if self.old else 0, "new": self.new.count if self.new else 0},
            "fields": [{"field": n, "old": a, "new": b} for n, a, b in self.fields],
            "files": self.files,
        }


@dataclass
class Diff:
    changes: list[Change]
    old_rows: int
    new_rows: int

    @property
    def equal(self) -> bool:
        return not self.changes

    def counts(self) -> dict[str, int]:
        return {k: sum(c.kind == k for c in self.changes) for k in ("changed", "added", "removed", "copies")}

    def summary(self) -> Phrase:
        """`3 changed, 1 added (40 → 40 rows)`, said in the terminal's language (a Phrase)."""
        if self.equal:
            return Phrase(N_("no piece changed ({rows} rows)"), rows=self.new_rows)
        counted = [Phrase(_COUNTED[k], count=n) for k, n in self.counts().items() if n]
        return Phrase(
            N_("{counts} ({old} → {new} rows)"), counts=counted, old=self.old_rows, new=self.new_rows
        )

    def reprinted(self) -> list[Piece]:
        return [p for c in self.changes for p in c.reprinted()]

    def as_json(self) -> dict[str, Any]:
        return {
            "equal": self.equal,
            **self.counts(),
            "rows": {"old": self.old_rows, "new": self.new_rows},
            "changes": [c.as_json() for c in self.changes],
        }


def _shown(value: Any) -> str:
    """A field's value as JSON writes it (cut to SHOWN characters); no value at all is our word."""
    if value is None:
        return Phrase.word(N_("(none)"))
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= SHOWN else text[: SHOWN - 2] + "…" + text[-1]


def spec_prints(loaded: LoadedSpec, options: BuildOptions) -> list[RowPrint]:
    """Each row's identity and fingerprint, as a build with `options` would draw it (the stamp left out)."""
    unstamped = replace(options, stamp=VERSION_TOKEN, only=())
    frame, _, ctx = drawing_setup(loaded, unstamped)
    return fingerprints(pieces_of(loaded, unstamped, frame, ctx, check=False), ctx)


def compare(old: Sequence[RowPrint], new: Sequence[RowPrint]) -> Diff:
    """The changes from `old` to `new`, component by component in the new spec's order (then the old's)."""
    names = list(dict.fromkeys([r.component for r in new] + [r.component for r in old]))
    changes: list[Change] = []
    for name in names:
        changes += _compare_rows(
            [r for r in old if r.component == name], [r for r in new if r.component == name]
        )
    return Diff(changes, len(old), len(new))


def _compare_rows(old: list[RowPrint], new: list[RowPrint]) -> list[Change]:
    pairs: dict[int, RowPrint] = {}  # index in `new` -> its old row
    left = list(old)

    def pair(match: Any) -> None:
        for index, row in enumerate(new):
            if index in pairs:
                continue
            found = next((o for o in left if match(o, row)), None)
            if found is not None:
                pairs[index] = found
                left.remove(found)

    pair(lambda o, n: o.key == n.key and o.fingerprint == n.fingerprint)
    pair(lambda o, n: o.fingerprint == n.fingerprint)
    pair(lambda o, n: o.key == n.key)
    changes: list[Change] = []
    for index, row in enumerate(new):
        before = pairs.get(index)
        if before is None:
            changes.append(Change("added", None, row))
        elif before.fingerprint != row.fingerprint:
            changes.append(Change("changed", before, row, _fields(before, row), _files(before, row)))
        elif row.count != before.count:
            changes.append(Change("copies", before, row, copies=row.count - before.count))
    changes += [Change("removed", row, None) for row in left]
    return changes


def _fields(old: RowPrint, new: RowPrint) -> list[tuple[str, Any, Any]]:
    a, b = old.values, new.values
    return [(k, a.get(k), b.get(k)) for k in dict.fromkeys([*b, *a]) if a.get(k) != b.get(k)]


def _files(old: RowPrint, new: RowPrint) -> list[str]:
    return [name for name, digest in new.files.items() if name in old.files and old.files[name] != digest]
