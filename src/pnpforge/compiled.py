"""The compiled spec, kept: a build's pages as plain data in the output folder, for the next build.

Before it writes a byte, a build reads the spec, validates it, expands its rows into pieces, lays
them out and runs every face through the face engine (templates, text fitting, the bleed). None of
that changes while the inputs do not. `build` keeps what it comes to, every page's canvas calls
(output/recording.py) with the fonts they name and the warnings the build gave, in
`<out>/.pnpforge-cache/`, one file per spec and set of options. The next build with the same inputs
plays the calls back on a fresh PDF canvas: the same bytes, without importing the spec models,
the face engine or the layouts.

Such a file can only miss, never mislead:
- it is found by a key naming the spec file, the target as written and the folder it was written
  in, every option, pnpforge's version and a stamp of its own files (an upgraded or edited pnpforge
  misses);
- it holds the SHA-256 of every file in the spec folder (game.yaml, CSV and spreadsheets, images,
  fonts, templates), taken before any was read, and of every font file the drawing used; all are
  hashed again and compared, and the fonts this machine would choose now must be the same ones;
- it is signed (keyed BLAKE2b, usercache.py) with a key kept in the user's cache folder
  (`~/.cache/pnpforge/cache-key`, `$XDG_CACHE_HOME` honoured): a file this user's pnpforge did not
  write (truncated, crafted, copied from elsewhere) is never read further;
- anything unexpected (a FIFO or a link in its place, a wrong size, a call it does not know, a
  failure while playing it back) is a miss: the build is done in full and the file rewritten whole
  (written aside, then renamed over it). A folder that cannot be written to is built in full each time.
The folder holds at most `MAX_ENTRIES` files of at most `MAX_ENTRY_BYTES`; the least recently used go
first. `build --no-cache` neither reads nor writes it. Builds with SVG pages, reprints and builds
allowed files from outside the spec folder are not kept.
"""

from __future__ import annotations

import contextlib
import hashlib
import marshal
import os
import stat
import sys
from dataclasses import dataclass, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pnpforge import __version__, usercache
from pnpforge.buildoptions import BUILDING, Progress
from pnpforge.errors import InputError, Problem
from pnpforge.files import STAGING_PREFIX, alive
from pnpforge.longlived import long_lived
from pnpforge.phrase import Phrase
from pnpforge.saying import plain, unplain

if TYPE_CHECKING:
    from pnpforge.build import Plan
    from pnpforge.buildoptions import BuildOptions
    from pnpforge.output.recording import Call, Recording

FOLDER = ".pnpforge-cache"
FORMAT = 2  # bump when what is kept changes shape
MAGIC = b"pnpforge compiled spec\n"
MAX_ENTRIES = 8  # builds (specs and option sets) kept per output folder
MAX_ENTRY_BYTES = 64 * 1024 * 1024  # a cache's size (not a work bound): a larger build is built, not kept
MAX_INPUT_FILES = 2_000  # a spec folder beyond these is not kept (hashing it would cost more than building)
MAX_INPUT_BYTES = 256 * 1024 * 1024  # not a work bound: a larger spec folder is built, not kept
PACKAGE_DIR = Path(__file__).resolve().parent
ENV_PREFIX = "PNPFORGE_"
NOT_INPUTS = {".git", ".hg", ".svn", "__pycache__", FOLDER}  # folders inside a spec folder never read
# options that change nothing drawn (where files go, whether to keep), or cannot be named (a reprint's)
UNKEYED = {"out_dir", "pick", "cache"}


class Miss(Exception):
    """The kept file is not one to use."""


def _stamp(folder: Path) -> str:
    """The files under `folder` (names, sizes and times, bytecode left out): for pnpforge's own files
    (code, bundled games, icons, catalogs), so an edited install (a developer's checkout) misses as an
    upgrade does, and for a folder of extra catalogs."""
    found: list[str] = []

    def walk(where: str) -> None:
        with os.scandir(where) as entries:
            for entry in entries:
                if entry.is_dir(follow_symlinks=False):
                    if entry.name != "__pycache__":
                        walk(entry.path)
                else:
                    info = entry.stat(follow_symlinks=False)
                    found.append(f"{entry.path}\0{info.st_size}\0{info.st_mtime_ns}")

    with contextlib.suppress(OSError):
        walk(str(folder))
    return hashlib.sha256("\n".join(sorted(found)).encode("utf-8", "surrogateescape")).hexdigest()


def _environment() -> list[tuple[str, str]]:
    """pnpforge's own environment variables (a language, a folder of catalogs or fonts), and the files
    of a catalog folder named there: what a build says may depend on them."""
    found = sorted((name, value) for name, value in os.environ.items() if name.startswith(ENV_PREFIX))
    return found + [(name, _stamp(Path(value))) for name, value in found if name.endswith("_DIR")]


def spec_file(target: str | Path) -> Path | None:
    """The game.yaml a build target names, resolved, as `load_target` finds it (None: loading will say
    what is wrong)."""
    from pnpforge import catalog

    path = Path(target)
    try:
        if path.exists():
            return (path / catalog.SPEC_NAME if path.is_dir() else path).resolve()
        text = str(target)
        if "/" in text or "\\" in text or text.endswith((".yaml", ".yml")):
            return None
        return catalog.find_game(text).spec_file.resolve()
    except (InputError, OSError, RuntimeError):
        return None


def slot(target: str | Path, spec: Path, options: BuildOptions) -> str | None:
    """What a kept build is for; None for a build that is not kept (a reprint's chosen pieces, files
    allowed from anywhere: they would not all be hashed)."""
    if options.pick is not None or options.allow_outside_files or options.allow_outside_images:
        return None
    chosen = {f.name: getattr(options, f.name) for f in fields(options) if f.name not in UNKEYED}
    version = (FORMAT, __version__, sys.version_info[:2], _stamp(PACKAGE_DIR), _environment())
    # the target as written and the folder it was written in: the files a build names (its images)
    # are found from them
    return repr((version, str(spec), str(target), os.getcwd(), sorted(chosen.items())))


def _hash(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        while block := handle.read(1 << 20):
            digest.update(block)
    return digest.hexdigest()


def inputs(spec: Path, options: BuildOptions) -> dict[str, str] | None:
    """The SHA-256 of every file the build may read from the spec folder (and --font); None when the
    folder is too large to be worth it or cannot be read."""
    out = Path(options.out_dir).resolve()
    found: dict[str, str] = {}
    total = 0

    def walk(folder: Path) -> None:
        nonlocal total
        with os.scandir(folder) as entries:
            for entry in sorted(entries, key=lambda e: e.name):
                path = Path(entry.path)
                if entry.is_dir(follow_symlinks=True):
                    # version control, bytecode, a killed build's staging folder, an output folder
                    # (this build's, or any with kept builds): no input lies there
                    skipped = entry.name in NOT_INPUTS or entry.name.startswith(STAGING_PREFIX)
                    if skipped or path.resolve() == out or (path / FOLDER).is_dir():
                        continue
                    walk(path)
                elif entry.is_file(follow_symlinks=True):
                    total += entry.stat(follow_symlinks=True).st_size
                    if len(found) >= MAX_INPUT_FILES or total > MAX_INPUT_BYTES:
                        raise Miss
                    found[str(path)] = _hash(path)

    try:
        walk(spec.parent)
        found[str(spec)] = _hash(spec)  # a game.yaml is always kept apart, even named by a link
        if options.font is not None:
            found[str(Path(options.font).resolve())] = _hash(Path(options.font))
    except (Miss, OSError, RecursionError):
        return None
    return found


def entry_file(out_dir: Path, key: str) -> Path:
    return Path(out_dir) / FOLDER / f"build-{hashlib.sha256(key.encode()).hexdigest()[:32]}.bin"


def load(out_dir: Path, key: str, found: dict[str, str]) -> dict[str, Any] | None:
    """What was kept for exactly this key and these inputs' bytes, or None (a miss, whatever the file)."""
    payload = usercache.read_signed(entry_file(out_dir, key), MAGIC, key, MAX_ENTRY_BYTES)
    if payload is None:
        return None
    try:
        kept = marshal.loads(payload)
    except (ValueError, EOFError, TypeError):  # signed by us, so only a pnpforge that changed shape
        return None
    if not isinstance(kept, dict) or kept.get("slot") != key or kept.get("inputs") != found:
        return None
    return kept


def store(out_dir: Path, key: str, kept: dict[str, Any]) -> None:
    """Keep `kept` (plain data) for `key`, written whole or not at all; nothing said if it cannot be."""
    try:
        payload = marshal.dumps(kept)
    except ValueError:  # not plain data: simply not kept
        return
    path = entry_file(out_dir, key)
    if usercache.write_signed(path, MAGIC, key, payload, MAX_ENTRY_BYTES):
        with contextlib.suppress(OSError):
            _prune(path.parent)


def _prune(folder: Path) -> None:
    """At most MAX_ENTRIES kept builds, the least recently used removed first; stale partial files too."""
    kept: list[tuple[int, Path]] = []
    for entry in os.scandir(folder):
        info = entry.stat(follow_symlinks=False)
        if entry.name.endswith(".tmp") and not stat.S_ISDIR(info.st_mode):
            pid = entry.name.split(".")[-2]
            if pid.isdigit() and int(pid) != os.getpid() and not alive(int(pid)):
                with contextlib.suppress(OSError):
                    os.unlink(entry.path)
        elif entry.name.startswith("build-") and stat.S_ISREG(info.st_mode):
            kept.append((info.st_mtime_ns, Path(entry.path)))
    for _, old in sorted(kept, reverse=True)[MAX_ENTRIES:]:
        with contextlib.suppress(OSError):
            old.unlink()


Warning = Problem | str


@dataclass(frozen=True)
class Slot:
    """Where a build is kept: its key (`slot`) and its inputs' bytes (`inputs`), hashed before loading."""

    key: str
    inputs: dict[str, str]


@dataclass
class PlayedBack:
    """A kept build played back and written: its files, its page count and the warnings it gave."""

    files: list[Path]
    pages: int
    warnings: list[Warning]


def slot_of(target: str | Path, options: BuildOptions) -> Slot | None:
    """The slot `target` built with `options` is kept in, or None for a build that is not kept (one
    that keeps nothing, a reprint's, one allowed files from anywhere, a folder too large to hash)."""
    if not options.cache or "svg" in options.formats:
        return None
    spec = spec_file(target)
    key = slot(target, spec, options) if spec is not None else None
    found = inputs(spec, options) if spec is not None and key is not None else None  # before loading
    return Slot(key, found) if key is not None and found is not None else None


def played_back(where: Slot, options: BuildOptions, progress: Progress) -> PlayedBack | None:
    """The build kept in `where`, played back on a fresh PDF and written as a full build writes it; None
    when nothing usable is kept there (the build is then made in full, and `keep` keeps it)."""
    kept = load(options.out_dir, where.key, where.inputs)
    done = _played_back(kept, options, progress) if kept is not None else None
    if done is not None:
        with contextlib.suppress(OSError):  # recently used: pruned last
            os.utime(entry_file(options.out_dir, where.key))
    return done


def keep(
    where: Slot, the_plan: Plan, options: BuildOptions, recording: Recording, said: list[Warning]
) -> None:
    """Keep the build just drawn (its recorded pages, fonts and warnings) in `where` for the next one."""
    from pnpforge.draw import metadata

    fonts = the_plan.ctx.fonts
    loaded = the_plan.loaded
    explicit = options.font is not None or bool(loaded.spec.defaults.font)
    kept = {
        "slot": where.key,
        "inputs": where.inputs,
        "stem": options.name or the_plan.id,
        "file": loaded.file,
        "size": (the_plan.frame.width, the_plan.frame.height),
        "metadata": tuple(metadata(the_plan)),
        "cjk": str(fonts.cjk_path) if fonts.cjk_path is not None else None,
        "explicit": explicit,
        "font_warnings": plain(list(fonts.warnings)),  # Phrases as plain data, said again when played
        "fonts": [(name, str(path), _hash(path)) for name, path in fonts.files.items()],
        "warnings": [
            plain(w) if isinstance(w, str) else (w.file, w.line, w.col, plain(w.message)) for w in said
        ],
        "pages": recording.pages,
    }
    store(options.out_dir, where.key, kept)


def _played_back(kept: dict[str, Any], options: BuildOptions, progress: Progress) -> PlayedBack | None:
    """The kept pages drawn again and written, or None when they cannot be (the fonts differ now)."""
    with long_lived():
        from pnpforge.files import atomic_writer, staged, write_atomic
        from pnpforge.fonts import FontRegistry
        from pnpforge.output import pdf
        from pnpforge.output.info import Metadata
        from pnpforge.output.page import PageFrame
        from pnpforge.output.recording import replay

    try:
        said: list[Warning] = [
            Problem(w[0], w[1], w[2], unplain(w[3])) if isinstance(w, tuple) else unplain(w)
            for w in kept["warnings"]
        ]
        cjk = kept["cjk"]
        fonts = FontRegistry(Path(cjk) if kept["explicit"] and cjk else None)
        same = plain(list(fonts.warnings)) == kept["font_warnings"] and str(fonts.cjk_path or "") == (
            cjk or ""
        )
        for name, path, digest in kept["fonts"]:
            same = same and _hash(Path(path)) == digest and fonts.register(Path(path), name)
        if not same or (options.strict and said):  # --strict with warnings: the full build says them
            return None
        pages: list[list[Call]] = kept["pages"]
        width, height = kept["size"]
        with progress(len(pages), Phrase(BUILDING, game=kept["stem"])) as bar:
            data = pdf.render(pages, PageFrame(width, height, 0, 0), replay, Metadata(*kept["metadata"]), bar)
        stem, out = kept["stem"], Path(options.out_dir)
        outputs = [(out / f"{stem}.pdf", data)] if "pdf" in options.formats else []
        from pnpforge.output import png

        shown = range(len(pages)) if "png" in options.formats else range(0)
        pictures = [out / png.page_name(stem, k + 1, "png") for k in shown]
    except Exception:  # whatever went wrong (a font gone, an image unreadable), the full build decides
        return None
    with staged(out):  # all moved into place together, as a full build does
        for path, payload in outputs:
            write_atomic(path, payload)
        for path, write_png in zip(
            pictures, png.writers(data, options.dpi, shown) if pictures else (), strict=True
        ):
            with atomic_writer(path) as handle:  # written as drawn, band by band: no page held whole
                write_png(handle)
    return PlayedBack([path for path, _ in outputs] + pictures, len(pages), said)
