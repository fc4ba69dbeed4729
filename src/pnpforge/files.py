"""Atomic file writing: a crash or a bad input never leaves half a file where a good one was.

A command that writes many files (build, preview, export) runs inside `staged(out_dir)`: each file
meant for the folder is written to a staging folder inside it instead, and all are moved into place
only when every one succeeded. A failed run leaves the folder as it was; a killed one leaves only its
staging folder, which the next run there removes.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

from pnpforge.errors import InputError

STAGING_PREFIX = ".pnpforge-staging-"


@dataclass
class _Stage:
    """A staged run: its output folder, the folder its files wait in, and each file's final place."""

    root: Path  # the output folder, resolved
    folder: Path  # where its files are written until the run succeeds
    moves: dict[Path, Path] = field(default_factory=dict)  # final path -> staged path


_stage: ContextVar[_Stage | None] = ContextVar("pnpforge_stage", default=None)


def destination(path: str | Path) -> Path:
    """Where to write `path` now: its staged twin inside a `staged` run's folder, else `path` itself."""
    stage = _stage.get()
    target = Path(path)
    if stage is None:
        return target
    resolved = target.resolve()
    if resolved.is_relative_to(stage.folder):  # already staged (a worker process given its path)
        return target
    try:
        relative = resolved.relative_to(stage.root)
    except ValueError:  # not under the output folder (a --draw file elsewhere): written directly
        return target
    staged_path = stage.folder / relative
    stage.moves[stage.root / relative] = staged_path
    return staged_path


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # someone else's process: alive
        return True
    return True


def _remove_stale(root: Path) -> None:
    """Staging folders of runs that were killed (their process is gone)."""
    for old in root.glob(STAGING_PREFIX + "*"):
        pid = old.name.removeprefix(STAGING_PREFIX).split("-")[0]
        if pid.isdigit() and not alive(int(pid)):
            shutil.rmtree(old, ignore_errors=True)


@contextmanager
def staged(out_dir: str | Path) -> Iterator[None]:
    """Write every file under `out_dir` to a staging folder; move them all into place on success."""
    root = Path(out_dir)
    created = not root.exists()
    try:
        root.mkdir(parents=True, exist_ok=True)
        root = root.resolve()
        _remove_stale(root)
        folder = Path(tempfile.mkdtemp(prefix=f"{STAGING_PREFIX}{os.getpid()}-", dir=root))
    except OSError as exc:
        raise InputError.single(out_dir, f"cannot write here: {exc.strerror or exc}") from None
    stage = _Stage(root, folder)
    token = _stage.set(stage)
    try:
        yield
        for final, staged_path in stage.moves.items():
            if staged_path.exists():
                final.parent.mkdir(parents=True, exist_ok=True)
                os.replace(staged_path, final)
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        if created:
            shutil.rmtree(root, ignore_errors=True)
        raise
    finally:
        _stage.reset(token)
    shutil.rmtree(folder, ignore_errors=True)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


@contextmanager
def atomic_writer(path: str | Path) -> Iterator[BinaryIO]:
    """Yield a binary file that replaces `path` only when the block finishes without error."""
    target = destination(path)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    except OSError as exc:  # a parent that is a file, no permission, a full disk...
        raise InputError.single(path, f"cannot write here: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "wb") as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp_name, 0o666 & ~_umask())  # mkstemp makes 0600; give the user's usual permissions
        os.replace(tmp_name, target)
    except BaseException:
        Path(tmp_name).unlink(missing_ok=True)
        raise


def write_atomic(path: str | Path, data: bytes | str) -> None:
    """Write all of `data` to `path` atomically (text is encoded as UTF-8)."""
    payload = data.encode("utf-8") if isinstance(data, str) else data
    with atomic_writer(path) as handle:
        handle.write(payload)


def write_all_atomic(items: Iterable[tuple[Path, bytes | Callable[[BinaryIO], object]]]) -> None:
    """Write many files atomically with one flush to disk for all of them (an fsync per file costs
    ~9 ms: most of an image export's time): every file is written aside, the disk synced once, then
    each replaces its target. A failure before the replacing leaves every target as it was."""
    written: list[tuple[str, Path]] = []
    try:
        for path, data in items:
            target = destination(path)  # its staged twin inside a `staged` run
            target.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
            written.append((tmp_name, target))
            with os.fdopen(fd, "wb") as handle:
                handle.write(data) if isinstance(data, bytes) else data(handle)  # or a writer, streaming
        os.sync()
        mode = 0o666 & ~_umask()
        for tmp_name, target in written:
            os.chmod(tmp_name, mode)
            os.replace(tmp_name, target)
    except OSError as exc:
        for tmp_name, _ in written:
            Path(tmp_name).unlink(missing_ok=True)
        where = f" ({exc.filename})" if exc.filename else ""
        raise InputError.single(
            written[-1][1] if written else "<output>", f"cannot write here: {exc.strerror or exc}{where}"
        ) from None
    except BaseException:
        for tmp_name, _ in written:
            Path(tmp_name).unlink(missing_ok=True)
        raise
