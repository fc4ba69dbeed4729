"""Pictures encoded once (output/encodecache.py): a PNG's compressed pixels are kept by the file's bytes in
the user's cache folder, and the next build, in another process and another output folder, embeds them
without decoding the PNG again; a kept file this user's pnpforge did not sign is never used."""

from __future__ import annotations

import hashlib
import io
import marshal
import os
import subprocess
import sys
import zlib
from pathlib import Path

import pytest
from conftest import SpecMaker
from PIL import Image
from pypdf import PdfReader

from pnpforge import usercache
from pnpforge.output import encodecache

SPEC = """\
game: {id: pictured, title: Pictured}
defaults: {page: a4, bleed: 3mm, duplex: none}
components:
  - name: cards
    kind: card
    size: poker
    count: 2
    face:
      background: white
      elements:
        - {type: image, src: art.png, x: 0mm, y: 0mm, w: 63mm, h: 40mm, fit: stretch}
"""
RED, GREEN = (200, 40, 40), (40, 200, 40)


def _png(colour: tuple[int, int, int]) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (40, 20), colour).save(out, format="PNG")
    return out.getvalue()


def _build(spec: Path, out: Path, cache: Path) -> Path:
    """`pnpforge build` in a process of its own (nothing kept in memory from before)."""
    env = {**os.environ, "XDG_CACHE_HOME": str(cache)}
    command = [sys.executable, "-m", "pnpforge", "build", str(spec), "-o", str(out), "--no-cache"]
    subprocess.run(command, check=True, capture_output=True, env=env)
    return out / "pictured.pdf"


def _picture(pdf: Path) -> tuple[int, ...]:
    """The colour of the first picture embedded in the PDF's first sheet."""
    image = PdfReader(pdf).pages[1].images[0]
    pixel: tuple[int, ...] = image.image.convert("RGB").getpixel((0, 0))
    return pixel


@pytest.fixture
def spec(make_spec: SpecMaker) -> Path:
    return make_spec(SPEC, **{"art__png": _png(RED)})


def test_the_next_build_embeds_the_kept_pixels_and_an_unsigned_file_is_not_used(
    spec: Path, tmp_path: Path
) -> None:
    cache = tmp_path / "user-cache"
    first = _build(spec, tmp_path / "a", cache)
    assert _picture(first)[:3] == RED
    key = encodecache.key_of((spec / "art.png").read_bytes(), "auto", a85=False)
    entry = cache / "pnpforge" / "images" / encodecache.entry_file(key).name
    assert entry.is_file()
    assert _build(spec, tmp_path / "b", cache).read_bytes() == first.read_bytes()  # kept: the same bytes

    # A kept entry signed with this user's key is what the next build embeds: its pixels, not the PNG's.
    raw = entry.read_bytes()
    head = len(encodecache.MAGIC) + usercache.KEY_BYTES
    state = marshal.loads(raw[head:])
    state["streamContent"] = zlib.compress(bytes(GREEN) * (40 * 20))
    payload = marshal.dumps(state)
    user = (cache / "pnpforge" / "cache-key").read_bytes()
    signature = hashlib.blake2b(
        key.encode() + b"\0" + payload, key=user, digest_size=32, person=b"pnpforge"
    ).digest()
    entry.write_bytes(encodecache.MAGIC + signature + payload)
    assert _picture(_build(spec, tmp_path / "c", cache))[:3] == GREEN

    # The same entry with a byte changed and not signed again is refused: the PNG is encoded afresh.
    entry.write_bytes(encodecache.MAGIC + signature + payload[:-1] + bytes([payload[-1] ^ 1]))
    again = _build(spec, tmp_path / "d", cache)
    assert again.read_bytes() == first.read_bytes()
