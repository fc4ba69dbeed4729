"""A spec as committed at a git revision, read into a temporary folder (`--rev v31`).

The spec folder must lie in a git work tree; its tree at the revision is listed first (files and
sizes) and refused when too large, then extracted with `git archive` into a temporary folder that
is removed afterwards. Problems found in those files are named `REV:path` rather than by the
temporary path.
"""

from __future__ import annotations

import io
import subprocess
import tarfile
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from pnpforge import limits
from pnpforge.components.load import LoadedSpec, load_spec, load_target
from pnpforge.errors import InputError, Problem
from pnpforge.i18n import N_
from pnpforge.phrase import Phrase

CLI = "<command line>"
TIMEOUT = 60.0  # seconds for each git command


def _git(args: list[str], cwd: Path, what: str, refused: str = "") -> bytes:
    """git's output; on failure `refused` (else git's own last line of complaint) as an InputError."""
    try:
        done = subprocess.run(
            ["git", *args],
            cwd=cwd,
            capture_output=True,
            timeout=TIMEOUT,
            check=False,
            stdin=subprocess.DEVNULL,
        )
    except FileNotFoundError:
        raise InputError.single(
            CLI, Phrase(N_("{what}: git is not installed (expected the git command)"), what=what)
        ) from None
    except subprocess.TimeoutExpired:
        raise InputError.single(
            CLI, Phrase(N_("{what}: git took longer than {most} s"), what=what, most=f"{TIMEOUT:g}")
        ) from None
    if done.returncode != 0:
        said = done.stderr.decode("utf-8", "replace").strip().splitlines()
        told = refused or (said[-1] if said else Phrase.word(N_("git failed")))
        raise InputError.single(CLI, Phrase(N_("{what}: {problem}"), what=what, problem=told))
    return done.stdout


@contextmanager
def spec_at(folder: Path, rev: str, spec_name: str) -> Iterator[Path]:
    """The spec file `spec_name` of `folder` as it was at `rev`, in a temporary folder."""
    what = f"--rev {rev}"
    if not rev or rev.startswith("-") or any(ch in rev for ch in "\x00\n"):
        raise InputError.single(
            CLI, Phrase(N_("{what}: not a revision (expected e.g. v31, HEAD~2 or a commit id)"), what=what)
        )
    folder = folder.resolve()
    outside = Phrase(
        N_("{folder} is not in a git work tree (expected a spec folder tracked by git)"), folder=folder
    )
    top = Path(_git(["rev-parse", "--show-toplevel"], folder, what, outside).decode().strip()).resolve()
    prefix = folder.relative_to(top).as_posix() if folder != top else ""
    tree = f"{rev}:{prefix}" if prefix else f"{rev}:"
    missing = Phrase(
        N_("no such revision, or {folder} is not in it (expected e.g. v31 or HEAD~1)"),
        folder=prefix or Phrase.word(N_("the spec folder")),
    )
    _check_size(_git(["ls-tree", "-r", "-l", "-z", tree], top, what, missing), what)
    archive = _git(["archive", "--format=tar", tree], top, what)
    with tempfile.TemporaryDirectory(prefix="pnpforge-rev-") as temp:
        root = Path(temp)
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            members = [m for m in tar.getmembers() if (m.isfile() or m.isdir()) and _inside(m.name)]
            if hasattr(tarfile, "data_filter"):  # Python 3.11.4+: refuses anything unsafe itself
                tar.extractall(root, members=members, filter="data")
            else:
                tar.extractall(root, members=members)
        spec = root / spec_name
        if not spec.is_file():
            raise InputError.single(
                CLI,
                Phrase(
                    N_("{what}: {file} is not in that revision"),
                    what=what,
                    file=f"{prefix or '.'}/{spec_name}",
                ),
            )
        try:
            yield spec
        except InputError as error:
            raise InputError([_renamed(p, root, rev, prefix) for p in error.problems]) from None


def _inside(name: str) -> bool:
    """A member's name stays inside the folder it is extracted to (git archive writes no other)."""
    parts = Path(name).parts
    return not Path(name).is_absolute() and ".." not in parts


def _check_size(listing: bytes, what: str) -> None:
    """Refuse a tree too large to be a spec before anything is extracted."""
    entries = [e for e in listing.split(b"\0") if e]
    total = 0
    for entry in entries:
        fields = entry.split(b"\t", 1)[0].split()
        if len(fields) == 4 and fields[3].isdigit():
            total += int(fields[3])
    if len(entries) > limits.REVISION_FILES or total > limits.REVISION_BYTES:
        raise InputError.single(
            CLI,
            Phrase(
                N_(
                    "{what}: the spec folder holds {count} files, {size} MB at that revision "
                    "(expected at most {most} files, {most_size} MB)"
                ),
                what=what,
                count=len(entries),
                size=total // 1_000_000,
                most=limits.REVISION_FILES,
                most_size=limits.REVISION_BYTES // 1_000_000,
            ),
        )


def _renamed(problem: Problem, root: Path, rev: str, prefix: str) -> Problem:
    """A problem in a file of the revision, named `REV:path` as git names it."""
    try:
        inner = Path(problem.file).resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return problem
    name = f"{rev}:{prefix}/{inner}" if prefix else f"{rev}:{inner}"
    return Problem(name, problem.line, problem.col, problem.message)


@contextmanager
def old_spec(new: LoadedSpec, old: str | None, rev: str | None) -> Iterator[LoadedSpec]:
    """The older draft to compare `new` with: a folder (or game.yaml, or game id) `old`, or `new`'s own
    spec as committed at `rev`."""
    if (old is None) == (rev is None):
        raise InputError.single(
            CLI, Phrase.word(N_("give the older draft as a folder or as --rev REV (expected one of them)"))
        )
    if old is not None:
        try:
            loaded = load_target(old, new.allow_outside)
        except InputError:
            if Path(old).exists():
                raise
            raise InputError.single(
                CLI,
                Phrase(
                    N_(
                        "{old}: no such spec folder, game.yaml or game (expected the older draft; "
                        "for a git revision: --rev {old})"
                    ),
                    old=old,
                ),
            ) from None
        yield loaded
        return
    assert rev is not None
    spec_file = Path(new.file)
    with spec_at(spec_file.parent, rev, spec_file.name) as path:
        yield load_spec(path, new.allow_outside)
