"""Encoding done once: a picture is decoded and compressed once per content, a stream once per content.

reportlab embeds a PNG by decoding it and compressing its pixels again in every build (a JPEG goes in
as it is). Here the encoded picture (its compressed pixels and soft mask, as reportlab would write
them) is kept by the SHA-256 of the file's bytes: in memory for the process (`watch` builds again and
again; two file names with the same bytes are encoded once), and in the user's cache folder
(`~/.cache/pnpforge/images/`, signed as usercache.py signs, at most `DISK_FILES` files and
`DISK_BYTES` bytes, the least recently used removed first), so the next build, in any output folder,
finds it. The key also names reportlab's version and the encoding asked, so an upgrade misses.

Every stream (a page's drawing, a font subset) is compressed by reportlab's one Flate filter; its
results are remembered by the content's digest (`MEMORY_BYTES` of them), so a page that `watch` plays
back unchanged is not compressed again. Either way the bytes are the very ones reportlab makes.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import marshal
import os
import zlib
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from pnpforge import usercache
from pnpforge.internals import reportlab_private

FORMAT = 1  # bump when what is kept changes shape
MAGIC = b"pnpforge encoded image\n"
MEMORY_BYTES = 96 * 1024 * 1024  # encoded pictures and compressed streams kept in the process, each
DISK_FILES = 1_000
DISK_BYTES = 256 * 1024 * 1024
ENTRY_BYTES = 64 * 1024 * 1024  # a picture file, or one encoded, larger than this is not kept
SMALL_STREAM = 512  # bytes: a stream shorter than this is compressed again (its digest costs as much)
JPEG = (".jpg", ".jpeg")  # embedded as they are: nothing to keep


class _Memory:
    """At most `limit` bytes of values, the least recently used dropped first."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.items: OrderedDict[Any, tuple[Any, int]] = OrderedDict()
        self.size = 0

    def get(self, key: Any) -> Any:
        found = self.items.get(key)
        if found is None:
            return None
        self.items.move_to_end(key)
        return found[0]

    def put(self, key: Any, value: Any, size: int) -> None:
        if size > self.limit:
            return
        old = self.items.pop(key, None)
        self.size += size - (old[1] if old else 0)
        self.items[key] = (value, size)
        while self.size > self.limit:
            _, (_, dropped) = self.items.popitem(last=False)
            self.size -= dropped


_images = _Memory(MEMORY_BYTES)
_streams = _Memory(MEMORY_BYTES)


def folder() -> Path:
    return usercache.folder() / "images"


@contextmanager
def pictures_encoded_once(made: Callable[[Any], None] | None = None) -> Iterator[None]:
    """While inside, a picture reportlab embeds is taken from what was kept when it can be; `made`, when
    given, is told of each image XObject made (a picture new to the document)."""

    def image(original: Any, name: str, source: Any, mask: Any) -> Any:
        made_now = _image(original, name, source, mask)
        if made is not None:
            made(made_now)
        return made_now

    with reportlab_private.images_made_by(image):
        yield


def _image(made: Any, name: str, source: Any, mask: Any) -> Any:
    """reportlab's image XObject for `source`, from what was kept for its bytes, else encoded and kept."""
    if not isinstance(source, str) or Path(source).suffix.lower() in JPEG:
        return made(name, source, mask=mask)
    with open(source, "rb") as handle:
        data = handle.read(ENTRY_BYTES + 1)
    if len(data) > ENTRY_BYTES:  # a file this large is not read into memory whole: reportlab reads it
        return made(name, source, mask=mask)
    from reportlab import rl_config

    key = key_of(data, mask, bool(rl_config.useA85))
    state = _recall(key)
    if state is not None:
        return reportlab_private.image_from_state(made, name, state)
    image = made(name, None, mask=mask)  # reportlab's placeholder, then loaded from the bytes read
    if rl_config.useA85:
        image.loadImageFromA85(io.BytesIO(data))
    else:
        image.loadImageFromRaw(io.BytesIO(data))
    _keep(key, reportlab_private.image_state(image))
    return image


def key_of(data: bytes, mask: object, a85: bool) -> str:
    """What a picture is kept by: its bytes' SHA-256, the mask and encoding asked, reportlab's version."""
    from reportlab import Version

    return f"{FORMAT}:{Version}:{int(a85)}:{mask!r}:{hashlib.sha256(data).hexdigest()}"


def entry_file(key: str) -> Path:
    """Where the picture kept by `key` lies in the user's cache folder."""
    return folder() / f"{hashlib.sha256(key.encode()).hexdigest()[:40]}.bin"


def _recall(key: str) -> dict[str, Any] | None:
    state = _images.get(key)
    if state is not None:
        return dict(state)
    path = entry_file(key)
    payload = usercache.read_signed(path, MAGIC, key, ENTRY_BYTES)
    if payload is None:
        return None
    try:
        state = marshal.loads(payload)
    except (ValueError, EOFError, TypeError):  # signed by us: only a pnpforge that changed shape
        return None
    if not isinstance(state, dict) or not all(k in state for k in (*reportlab_private.IMAGE_STATE, "smask")):
        return None
    with contextlib.suppress(OSError):  # recently used: removed last
        os.utime(path)
    _images.put(key, state, len(payload))
    return dict(state)


def _keep(key: str, state: dict[str, Any]) -> None:
    try:
        payload = marshal.dumps(state)
    except ValueError:  # not plain data (a reportlab that changed shape): simply not kept
        return
    _images.put(key, state, len(payload))
    path = entry_file(key)
    if usercache.write_signed(path, MAGIC, key, payload, ENTRY_BYTES):
        usercache.prune(path.parent, ".bin", DISK_FILES, DISK_BYTES)


def remember_streams() -> None:
    """From now on, reportlab's Flate filter gives a stream it compressed before from memory."""
    if getattr(reportlab_private.flate_encoder(), "remembers", False):
        return
    reportlab_private.set_flate_encoder(_compressed)


def _compressed(text: bytes | str) -> bytes:
    data = text.encode("utf8") if isinstance(text, str) else text
    if len(data) < SMALL_STREAM:
        return zlib.compress(data)
    key = (len(data), hashlib.blake2b(data, digest_size=20).digest())
    found: bytes | None = _streams.get(key)
    if found is None:
        found = zlib.compress(data)
        _streams.put(key, found, len(found) + 64)
    return found


_compressed.remembers = True  # type: ignore[attr-defined]
