"""Files pnpforge keeps for itself, signed so that only what this user's pnpforge wrote is ever read.

A kept build (compiled.py, in the output folder) and an encoded image (output/imagecache.py, in the
user's cache folder) are files anyone with access to those folders could replace. Each is written as
`MAGIC + MAC(key, label + "\\0" + payload) + payload`, with a key made once per user and kept in
`~/.cache/pnpforge/cache-key` (`$XDG_CACHE_HOME` honoured, readable by the user alone). The MAC is
keyed BLAKE2b (RFC 7693's keyed mode, a 256-bit tag): as strong as HMAC-SHA256, and it is hashlib's own
BLAKE2 module, which needs no OpenSSL, whose loading (~2 ms) was most of a table command's cost of
reading a kept schema (pnpforge.lightmodel). A file whose
signature does not match its label and payload (truncated, crafted, copied from another machine) is
never read further; one that cannot be written (a read-only folder, a full disk) is simply not kept.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

from pnpforge.parsecache import read_regular

KEY_BYTES = 32


def folder() -> Path:
    """pnpforge's folder in the user's cache folder."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "pnpforge"


def user_key() -> bytes | None:
    """This user's signing key, made on first use; None where it can be neither read nor made."""
    path = folder() / "cache-key"
    found = read_regular(path, KEY_BYTES)
    if found is None or len(found) != KEY_BYTES:  # none yet (or a damaged one): make it
        partial = path.with_name(f"cache-key.{os.getpid()}.tmp")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "wb") as handle:
                handle.write(os.urandom(KEY_BYTES))
            os.replace(partial, path)
        except OSError:
            with contextlib.suppress(OSError):
                partial.unlink()
            return None
        found = read_regular(path, KEY_BYTES)  # two first builds at once: both use the one that won
    return found if found is not None and len(found) == KEY_BYTES else None


def digest(data: bytes, key: bytes = b"") -> bytes:
    """BLAKE2b-256 of `data`, keyed by `key` when one is given (then a MAC, RFC 7693)."""
    try:  # hashlib's BLAKE2, without hashlib's loading of OpenSSL (~2 ms; hmac loads it too)
        from _blake2 import blake2b
    except ImportError:  # a Python built without it: hashlib's (the same function)
        from hashlib import blake2b
    return blake2b(data, key=key, digest_size=32, person=b"pnpforge").digest()


def _sign(key: bytes, label: str, payload: bytes) -> bytes:
    return digest(label.encode() + b"\0" + payload, key)


def _same(signature: bytes, expected: bytes) -> bool:
    """Compared in time that does not depend on where they differ (as hmac.compare_digest, its function)."""
    try:
        from _operator import _compare_digest
    except ImportError:
        from hmac import compare_digest as _compare_digest
    return _compare_digest(signature, expected)


def read_signed(path: Path, magic: bytes, label: str, limit: int) -> bytes | None:
    """The payload of `path` when this user's pnpforge wrote it for `label`; else None (whatever is there)."""
    key = user_key()
    if key is None:
        return None
    raw = read_regular(path, limit)
    head = len(magic) + KEY_BYTES
    if raw is None or len(raw) <= head or len(raw) > limit or not raw.startswith(magic):
        return None
    signature, payload = raw[len(magic) : head], raw[head:]
    if not _same(signature, _sign(key, label, payload)):
        return None
    return payload


def write_signed(path: Path, magic: bytes, label: str, payload: bytes, limit: int) -> bool:
    """Write `payload` signed for `label`, whole or not at all (aside, then renamed over `path`); False
    when it is not kept (no key, larger than `limit`, the folder cannot be written to)."""
    key = user_key()
    if key is None or len(payload) + len(magic) + KEY_BYTES > limit:
        return False
    partial = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(partial, "wb") as handle:
            handle.write(magic + _sign(key, label, payload) + payload)
        os.replace(partial, path)
    except OSError:
        with contextlib.suppress(OSError):
            partial.unlink()
        return False
    return True


def prune(where: Path, suffix: str, files: int, size: int) -> None:
    """At most `files` files named `*suffix` in `where` and `size` bytes of them, the oldest changed
    (written, or touched when read) removed first; a folder that cannot be read or changed is left."""
    kept = []
    with contextlib.suppress(OSError):
        for entry in os.scandir(where):
            if entry.name.endswith(suffix) and entry.is_file(follow_symlinks=False):
                info = entry.stat(follow_symlinks=False)
                kept.append((info.st_mtime_ns, info.st_size, entry.path))
    kept.sort(reverse=True)
    total = 0
    for count, (_, bytes_, path) in enumerate(kept):
        total += bytes_
        if count >= files or total > size:
            with contextlib.suppress(OSError):
                os.unlink(path)
