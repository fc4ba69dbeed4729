"""`build NEW --changed-since OLD`: only the pieces added or changed since an older draft, with their
backs, laid out on as few sheets as the build's imposition makes of them, behind a cover that lists
what the reprint holds and which pieces of the older print to throw away.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from pnpforge.build import BuildOptions, stamp_of
from pnpforge.components.load import LoadedSpec
from pnpforge.drafts.diff import Change, Diff, compare, spec_prints
from pnpforge.drafts.keys import rows_of
from pnpforge.generator.expand import ComponentPieces

NAMED = 40  # pieces named on the cover per list; the rest are counted
WORDS: dict[str, dict[str, str]] = {
    "en": {
        "title": "reprint",
        "head": "Reprint: only the pieces added or changed since {since}{stamp}, with their backs.",
        "stamp": ", drawn as {stamp}",
        "holds": "In this reprint ({count} pieces): {list}.",
        "discard": "Throw away from the print of {since} ({count} pieces): {list}.",
        "keep": "Keep every other piece of the print of {since}.",
        "more": "… and {count} more (pnpforge diff lists them all)",
        "changed": "changed",
        "added": "new",
        "removed": "no longer in the game",
        "more_copies": "{count} more",
        "fewer_copies": "{count} fewer",
    },
    "ja": {
        "title": "差し替え印刷",
        "head": "差し替え印刷:{since}から追加・変更された駒だけ{stamp}(裏面つき)。",
        "stamp": "({stamp})",
        "holds": "この印刷に含まれる駒({count}個):{list}。",
        "discard": "{since}の印刷から捨てる駒({count}個):{list}。",
        "keep": "{since}の印刷のほかの駒はそのまま使えます。",
        "more": "…ほか{count}件(pnpforge diff で全件を表示)",
        "changed": "変更",
        "added": "新規",
        "removed": "削除",
        "more_copies": "{count}枚追加",
        "fewer_copies": "{count}枚減",
    },
}


def reprint_options(
    new: LoadedSpec, old: LoadedSpec, options: BuildOptions, since: str
) -> tuple[BuildOptions, Diff]:
    """The build options that lay out only what changed from `old` to `new`, and the diff itself."""
    found = compare(spec_prints(old, options), spec_prints(new, options))
    chosen = {(c.row.component, c.new.number, p.copy) for c in found.changes if c.new for p in c.reprinted()}

    def pick(groups: list[ComponentPieces]) -> list[ComponentPieces]:
        out = []
        for group in groups:
            name = group.component.name
            kept = [
                piece
                for number, row in enumerate(rows_of(group.pieces), start=1)
                for piece in row
                if (name, number, piece.copy) in chosen
            ]
            out.append(ComponentPieces(group.component, kept))
        return out

    lang = options.lang or new.spec.defaults.lang
    said = WORDS.get(lang, WORDS["en"])
    old_stamp = stamp_of(old, replace(options, stamp=None))
    if old_stamp and old_stamp != since:  # the older draft as its sheets say it, and as it was named
        since = f"{old_stamp} ({since})"
    notes = cover_notes(found, since, stamp_of(new, options), lang)
    return (
        replace(
            options,
            pick=pick,
            cover_notes=tuple(notes),
            name=f"{new.id}-reprint",
            cover_heading=said["title"],
        ),
        found,
    )


def cover_notes(found: Diff, since: str, stamp: str, lang: str) -> list[str]:
    said = WORDS.get(lang, WORDS["en"])
    shown_stamp = said["stamp"].format(stamp=stamp) if stamp else ""
    printed = [(c, len(c.reprinted())) for c in found.changes if c.reprinted()]
    thrown = [(c, c.discarded()) for c in found.changes if c.discarded()]
    notes = [said["head"].format(since=since, stamp=shown_stamp)]
    notes.append(
        said["holds"].format(count=sum(n for _, n in printed), list=_listed(printed, said, new=True))
    )
    if thrown:
        notes.append(
            said["discard"].format(since=since, count=sum(n for _, n in thrown), list=_listed(thrown, said))
        )
    notes.append(said["keep"].format(since=since))
    return notes


def _listed(changes: Sequence[tuple[Change, int]], said: dict[str, str], new: bool = False) -> str:
    """`cards c07 (Strike 7), c12 ×2 (new); tokens #3`: per component, each row with how many copies
    (when more than one) and why, the first NAMED of them."""
    parts: dict[str, list[str]] = {}
    for change, copies in changes[:NAMED]:
        row = (change.new if new else change.old) or change.row
        title = f" {row.title}" if row.title and row.title != row.key else ""
        if change.kind == "copies":
            why = said["more_copies" if change.copies > 0 else "fewer_copies"].format(count=copies)
        else:
            why = said[change.kind]
        count = f" ×{copies}" if copies > 1 and change.kind != "copies" else ""
        parts.setdefault(change.component, []).append(f"{row.key}{title}{count} ({why})")
    text = "; ".join(f"{name} {', '.join(items)}" for name, items in parts.items())
    if len(changes) > NAMED:
        text += " " + said["more"].format(count=len(changes) - NAMED)
    return text
