"""CLI: `diff`, the pieces that changed between two drafts of a spec."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from pnpforge.cli import COMMAND_LINE, Language, import_long_lived
from pnpforge.cli.helptext import command, terminal_said
from pnpforge.i18n import N_
from pnpforge.phrase import Phrase

EXIT_DIFFERENT = 1


@command(
    "diff",
    N_("""List the pieces added, removed and changed from draft OLD to draft NEW, per component.

    OLD and NEW are spec folders (or game.yaml files, or game ids); with --rev, NEW alone is compared
    with its own spec as committed at that git revision. A piece is known by its row's `id` field
    (else its row number); a row moved to another place in its file is not a change, and neither is
    a new game.version. Exit code 0 when no piece changed, 1 when some did.

    \b
    Example:
      pnpforge diff drafts/v31 drafts/v32
      pnpforge diff my-game --rev v31
      pnpforge diff my-game --rev HEAD~1 --json
    """),
)
@click.argument("specs", nargs=-1, required=True, metavar="[OLD] NEW")
@click.option(
    "--rev", metavar="REV", help=N_("Compare NEW with its own spec as committed at git revision REV.")
)
@click.option("--json", "as_json", is_flag=True, help=N_("Print the changes as JSON."))
@click.option("--lang", type=Language(), help=N_("Language the pieces are drawn in (default: the spec's)."))
@click.option("--page", help=N_("Page size the pieces are sized for (default: the spec's)."))
@click.option(
    "--allow-outside-files", is_flag=True, help=N_("Let the specs name files outside their folders.")
)
def diff_cmd(
    specs: tuple[str, ...], rev: str | None, as_json: bool, lang: str | None, page: str | None,
    allow_outside_files: bool,
) -> None:  # fmt: skip
    # its help: the N_ text of @command above (said in the terminal's language)
    import_long_lived("pnpforge.build")
    from pnpforge.build import BuildOptions
    from pnpforge.components.load import load_target
    from pnpforge.drafts.diff import compare, spec_prints
    from pnpforge.drafts.revision import old_spec
    from pnpforge.errors import InputError

    if len(specs) > 2 or (len(specs) == 2) == (rev is not None):
        asked = Phrase(N_("diff {specs}: expected OLD NEW, or NEW --rev REV"), specs=" ".join(specs))
        raise InputError.single(COMMAND_LINE, asked)
    new = load_target(specs[-1], allow_outside_files)
    options = BuildOptions(page=page, lang=lang, allow_outside_files=allow_outside_files)
    with old_spec(new, specs[0] if len(specs) == 2 else None, rev) as old:
        found = compare(spec_prints(old, options), spec_prints(new, options))
    if as_json:
        click.echo(json.dumps(found.as_json(), ensure_ascii=False, indent=2))
    else:  # the spec's names and values as written, our words in the terminal's language
        say = terminal_said()
        for change in found.changes:
            click.echo(say(change.line()))
        where = f"{rev}" if rev else str(Path(specs[0]))
        line = "{old} → {new}: {summary}"  # layout alone: not a message
        click.echo(say(Phrase(line, old=where, new=specs[-1], summary=found.summary())))
    sys.exit(0 if found.equal else EXIT_DIFFERENT)
