"""`build NEW --changed-since OLD`: only the pieces added or changed since an older draft, with their
backs, laid out on as few sheets as the build's imposition makes of them, behind a cover that lists
what the reprint holds and which pieces of the older print to throw away.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from pnpforge import i18n
from pnpforge.build import BuildOptions, stamp_of
from pnpforge.components.load import LoadedSpec
from pnpforge.drafts.diff import Change, Diff, compare, spec_prints
from pnpforge.generator.expand import ComponentPieces
from pnpforge.generator.keys import rows_of
from pnpforge.i18n import N_
from pnpforge.phrase import Phrase, series

NAMED = 40  # pieces named on the cover per list; the rest are counted
TITLE = N_("reprint")  # the cover's heading, after the game's title
HEAD = N_("Reprint: only the pieces added or changed since {since}, with their backs.")
HEAD_STAMPED = N_(
    "Reprint: only the pieces added or changed since {since}, drawn as {stamp}, with their backs."
)
HOLDS = N_("In this reprint ({count} pieces): {list}.")
DISCARD = N_("Throw away from the print of {since} ({count} pieces): {list}.")
KEEP = N_("Keep every other piece of the print of {since}.")
MORE = N_("{list} … and {count} more (pnpforge diff lists them all)")
WHY = {  # a piece on the cover, by why it is reprinted or thrown away
    "changed": N_("{piece} (changed)"),
    "added": N_("{piece} (new)"),
    "removed": N_("{piece} (no longer in the game)"),
    "more_copies": N_("{piece} ({count} more)"),
    "fewer_copies": N_("{piece} ({count} fewer)"),
}
GROUP = "{component} {pieces}"  # a component's name and its pieces: layout, no words to translate


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
            cover_heading=i18n.translator(lang)(TITLE),
        ),
        found,
    )


def cover_notes(found: Diff, since: str, stamp: str, lang: str) -> list[str]:
    """The reprint's lines on its cover, said in the build's language `lang`."""
    printed = [(c, len(c.reprinted())) for c in found.changes if c.reprinted()]
    thrown = [(c, c.discarded()) for c in found.changes if c.discarded()]
    head = Phrase(HEAD_STAMPED, since=since, stamp=stamp) if stamp else Phrase(HEAD, since=since)
    notes = [head, Phrase(HOLDS, count=sum(n for _, n in printed), list=_listed(printed, new=True))]
    if thrown:
        notes.append(Phrase(DISCARD, since=since, count=sum(n for _, n in thrown), list=_listed(thrown)))
    notes.append(Phrase(KEEP, since=since))
    say = i18n.translator(lang)
    return [say(note) for note in notes]


def _listed(changes: Sequence[tuple[Change, int]], new: bool = False) -> str:
    """`cards c07 Strike 7 (changed), c12 ×2 (new); tokens #3`: per component, each row with how many
    copies (when more than one) and why, the first NAMED of them."""
    parts: dict[str, list[Phrase]] = {}
    for change, copies in changes[:NAMED]:
        row = (change.new if new else change.old) or change.row
        title = f" {row.title}" if row.title and row.title != row.key else ""
        if change.kind == "copies":
            why = WHY["more_copies" if change.copies > 0 else "fewer_copies"]
            piece = f"{row.key}{title}"
        else:
            why = WHY[change.kind]
            piece = f"{row.key}{title}{f' ×{copies}' if copies > 1 else ''}"
        parts.setdefault(change.component, []).append(Phrase(why, piece=piece, count=copies))
    groups = [Phrase(GROUP, component=name, pieces=items) for name, items in parts.items()]
    text: str = series(groups) if groups else ""  # nothing changed: the cover is not printed
    if len(changes) > NAMED:
        text = Phrase(MORE, list=text, count=len(changes) - NAMED)
    return text
