"""Atomic file writing: a crash or a bad input never leaves half a file where a good one was."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO

from pnpforge.errors import InputError


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


@contextmanager
def atomic_writer(path: str | Path) -> Iterator[BinaryIO]:
    """Yield a binary file that replaces `path` only when the block finishes without error."""
    target = Path(path)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    except OSError as exc:  # a parent that is a file, no permission, a full disk...
        where = f" ({exc.filename})" if exc.filename else ""
        raise InputError.single(target, f"cannot write here: {exc.strerror or exc}{where}") from None
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
