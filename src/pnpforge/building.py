"""The one way pnpforge builds: `build(BuildRequest(...))` serves `build`, a reprint (`--changed-since`,
`--rev`), `preview`, `watch`, the kept build and the web page's builds.

What a request may add to the build options (buildoptions.py):
- a reprint, `since` (an older spec folder) or `rev` (a git revision): only the pieces that changed
  are laid out (drafts/reprint.py); the result lists the changes, and an unchanged spec writes nothing;
- `watch`, the memory of the build before (drafts/watching.py): pages whose digest is unchanged are
  played back, not drawn, and only the changed pages are rendered to PNG;
- `progress`, a progress bar (the command line's, on a terminal).

With `options.cache` (and neither of the two above), the build is played back from the output folder's
kept build when every input is unchanged, else made in full and kept (compiled.py). Bad input raises
InputError, its problems located (FILE:LINE:COL), before any file is written.

This module imports the engine only when a build is made in full: a played-back build imports neither
the spec models nor the face engine.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from pnpforge import compiled
from pnpforge.buildoptions import BUILDING, BuildOptions, Progress
from pnpforge.errors import Problem
from pnpforge.longlived import long_lived
from pnpforge.phrase import Phrase

if TYPE_CHECKING:
    from pnpforge.build import Plan
    from pnpforge.components.load import LoadedSpec
    from pnpforge.drafts.diff import Change
    from pnpforge.drafts.watching import PageMemory


@contextmanager
def no_progress(total: int, label: str) -> Iterator[Callable[[int], None] | None]:
    """No progress bar: nothing told of the pages drawn."""
    yield None


@dataclass
class BuildRequest:
    """One build: what to build (a game id, a spec folder or game.yaml, or a spec already loaded), with
    which options, and what a reprint or `watch` adds (see the module's docstring)."""

    target: str | Path | LoadedSpec
    options: BuildOptions = field(default_factory=BuildOptions)
    since: str | None = None
    rev: str | None = None
    watch: PageMemory | None = None
    progress: Progress = no_progress

    @property
    def reprint(self) -> str | None:
        """The older draft a reprint is measured against, as the user named it; None: not a reprint."""
        return self.rev or self.since


@dataclass
class BuildResult:
    """What a build wrote and said: its files, its page count, its warnings (the PDF was still written),
    a reprint's changes (`unchanged`: none, and nothing written), and the plan when it was drawn in full
    (None when it was played back from the kept build)."""

    files: list[Path]
    pages: int
    warnings: list[Problem | str]
    changes: list[Change] = field(default_factory=list)
    unchanged: bool = False
    plan: Plan | None = None


def build(request: BuildRequest) -> BuildResult:
    """Build as the request says; an InputError (every problem found, located) before any file is written."""
    options = request.options
    target = request.target
    kept = None
    if request.reprint is None and request.watch is None and isinstance(target, str | Path):
        kept = compiled.slot_of(target, options)
    if kept is not None:
        played = compiled.played_back(kept, options, request.progress)
        if played is not None:
            return BuildResult(played.files, played.pages, played.warnings)
    with long_lived():  # the engine's many imports, with the cycle collector paused
        from pnpforge.build import plan
        from pnpforge.components.load import LoadedSpec, load_target
        from pnpforge.draw import Drawing, warnings, write
        from pnpforge.output.recording import Recording

    loaded = target if isinstance(target, LoadedSpec) else load_target(target, options.allow_outside_files)
    changes: list[Change] = []
    if request.reprint is not None:
        from pnpforge.drafts.reprint import reprint_options
        from pnpforge.drafts.revision import old_spec

        with old_spec(loaded, request.since, request.rev) as old:
            options, found = reprint_options(loaded, old, options, request.reprint)
        changes = list(found.changes)
        if found.equal:
            return BuildResult([], 0, [], changes, unchanged=True)
    the_plan = plan(loaded, options)
    watch = request.watch
    how = Drawing(recording=Recording() if watch is not None or kept is not None else None)
    if watch is not None:  # the pages unchanged since its last build are played back, not drawn
        how.kept = watch.kept(the_plan)
        how.png_pages = partial(watch.changed, the_plan, options)  # asked once drawn: the cover shows
    bar: AbstractContextManager[Callable[[int], None] | None]  # what drawing warned of
    bar = request.progress(len(the_plan.pages), Phrase(BUILDING, game=the_plan.id))
    with bar as how.progress:
        files = write(the_plan, options, how)
    said = warnings(the_plan)
    if watch is not None and how.recording is not None:
        watch.built(the_plan, options, how.recording)
    if kept is not None and how.recording is not None:
        compiled.keep(kept, the_plan, options, how.recording, said)
    return BuildResult(files, len(the_plan.pages), said, changes, plan=the_plan)
