"""The compiled spec, kept: what `plan` made of a spec, stored in the output folder for the next build.

A build reads the spec, validates it, expands its rows into pieces and lays them out on pages before
it draws anything. None of that changes while the inputs do not, so `build` keeps the result (the
plan without its fonts) in `<out>/.pnpforge-cache/`, one file per spec and set of options, and the
next build with the same inputs starts drawing at once.

Such a file can only miss, never mislead:
- it is found by a key naming the spec file, every option that changes the plan, pnpforge's version
  and a stamp of its own files (an edited or upgraded pnpforge misses);
- it holds the SHA-256 of every file in the spec folder (game.yaml, CSV and spreadsheets, images,
  fonts, templates) taken before they were read, and every one is hashed again and compared;
- it is signed with a key kept in the user's cache folder (`~/.cache/pnpforge/cache-key`,
  `$XDG_CACHE_HOME` honoured), so a file that was not written by this user's pnpforge, truncated,
  crafted or copied from another machine, is never unpickled: it misses;
- anything unexpected while reading it (a FIFO or a link in its place, a wrong size, a class it should
  not name) is a miss; the build then plans afresh and rewrites the file whole (written aside, then
  renamed over it). A folder that cannot be written to is built every time, as before.
The folder holds at most `MAX_ENTRIES` files of at most `MAX_ENTRY_BYTES`; the oldest go first.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import io
import os
import pickle
import stat
import sys
from dataclasses import fields
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pnpforge import __version__
from pnpforge.parsecache import _read_regular

if TYPE_CHECKING:
    from pnpforge.build import BuildOptions, Plan
    from pnpforge.components.load import LoadedSpec

FOLDER = ".pnpforge-cache"
FORMAT = 1  # bump when what is kept changes shape
MAGIC = b"pnpforge compiled spec\n"
MAX_ENTRIES = 8  # specs and option sets kept per output folder
MAX_ENTRY_BYTES = 64 * 1024 * 1024
MAX_INPUT_FILES = 2_000  # a spec folder beyond these is not kept (hashing it would cost more than planning)
MAX_INPUT_BYTES = 256 * 1024 * 1024
KEY_BYTES = 32
PACKAGE_DIR = Path(__file__).resolve().parent
# the only globals a kept plan names: pnpforge's own classes and these (a file naming any other misses)
ALLOWED = {
    ("builtins", "set"),
    ("builtins", "frozenset"),
    ("builtins", "complex"),
    ("builtins", "slice"),
    ("copyreg", "_reconstructor"),
    ("builtins", "object"),
    ("pathlib", "PosixPath"),
    ("pathlib", "WindowsPath"),
    ("collections", "OrderedDict"),
    ("decimal", "Decimal"),
    ("datetime", "date"),
    ("datetime", "datetime"),
}
# options that never change the plan (where files go, what drawing reports), or cannot be named
UNKEYED = {"out_dir", "pick", "cache"}


class Miss(Exception):
    """The kept file is not one to use."""


def _user_key() -> bytes | None:
    """This user's signing key, made on first use; None where it can be neither read nor made."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    path = Path(base) / "pnpforge" / "cache-key"
    found = _read_regular(path, KEY_BYTES)
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
        found = _read_regular(path, KEY_BYTES)  # two first builds at once: both use the one that won
    return found if found is not None and len(found) == KEY_BYTES else None


def _code_stamp() -> str:
    """pnpforge's own files (code, bundled games, icons): names, sizes and times, so an edited install
    (a developer's checkout) misses as an upgrade does."""
    found: list[str] = []

    def walk(folder: str) -> None:
        with os.scandir(folder) as entries:
            for entry in entries:
                if entry.is_dir(follow_symlinks=False):
                    if entry.name != "__pycache__":
                        walk(entry.path)
                else:
                    info = entry.stat(follow_symlinks=False)
                    found.append(f"{entry.path}\0{info.st_size}\0{info.st_mtime_ns}")

    with contextlib.suppress(OSError):
        walk(str(PACKAGE_DIR))
    return hashlib.sha256("\n".join(sorted(found)).encode("utf-8", "surrogateescape")).hexdigest()


def spec_file(target: str | Path) -> Path | None:
    """The game.yaml a build target names, resolved (None: let loading say what is wrong)."""
    from pnpforge.components.load import spec_path

    path = Path(target)
    try:
        if path.exists():
            return spec_path(path).resolve()
        from pnpforge import catalog

        return catalog.find_game(str(target)).spec_file.resolve()
    except Exception:  # any problem is loading's to report
        return None


def slot(target: str | Path, spec: Path, options: BuildOptions) -> str | None:
    """What a kept plan is for; None for a build that is not kept (a reprint's chosen pieces, files
    allowed from anywhere: they would not all be hashed)."""
    if options.pick is not None or options.allow_outside_files:
        return None
    chosen = {f.name: getattr(options, f.name) for f in fields(options) if f.name not in UNKEYED}
    version = (FORMAT, __version__, sys.version_info[:2], _code_stamp())
    # the target as written and the folder it was written in: the plan keeps the spec folder's path as
    # the user named it, and files are found from it
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
                    skipped = entry.name.startswith(".") or entry.name == "__pycache__"
                    # an output folder (this build's, or any with kept plans) holds no input
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
    return Path(out_dir) / FOLDER / f"plan-{hashlib.sha256(key.encode()).hexdigest()[:32]}.bin"


class _Unpickler(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> Any:
        if (module, name) in ALLOWED or module == "pnpforge" or module.startswith("pnpforge."):
            return super().find_class(module, name)
        raise Miss(f"{module}.{name}")


def _sign(key: bytes, slot_key: str, payload: bytes) -> bytes:
    return hmac.new(key, slot_key.encode() + b"\0" + payload, hashlib.sha256).digest()


def load(out_dir: Path, key: str, found: dict[str, str]) -> dict[str, Any] | None:
    """The plan kept for exactly this key and these inputs' bytes, or None (a miss, whatever the file)."""
    user = _user_key()
    if user is None:
        return None
    raw = _read_regular(entry_file(out_dir, key), MAX_ENTRY_BYTES)
    head = len(MAGIC) + KEY_BYTES
    if raw is None or len(raw) <= head or not raw.startswith(MAGIC):
        return None
    signature, payload = raw[len(MAGIC) : head], raw[head:]
    if not hmac.compare_digest(signature, _sign(user, key, payload)):
        return None
    try:
        kept = _Unpickler(io.BytesIO(payload)).load()
    except Exception:  # signed by us, so only a pnpforge that changed shape: a miss all the same
        return None
    if not isinstance(kept, dict) or kept.get("slot") != key or kept.get("inputs") != found:
        return None
    state = kept.get("plan")
    return state if isinstance(state, dict) else None


def store(out_dir: Path, key: str, found: dict[str, str], state: dict[str, Any]) -> None:
    """Keep `state` for `key` and `found`, written whole or not at all; nothing said if it cannot be."""
    user = _user_key()
    if user is None:
        return
    try:
        payload = pickle.dumps({"slot": key, "inputs": found, "plan": state}, protocol=5)
    except Exception:  # something in this plan does not pickle: it is simply not kept
        return
    if len(payload) + len(MAGIC) + KEY_BYTES > MAX_ENTRY_BYTES:
        return
    path = entry_file(out_dir, key)
    partial = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(partial, "wb") as handle:
            handle.write(MAGIC + _sign(user, key, payload) + payload)
        os.replace(partial, path)
        _prune(path.parent)
    except OSError:  # a read-only folder, a full disk: planned afresh next time
        with contextlib.suppress(OSError):
            partial.unlink()


def _prune(folder: Path) -> None:
    """At most MAX_ENTRIES kept plans, the least recently used removed first; stale partial files too."""
    kept: list[tuple[int, Path]] = []
    for entry in os.scandir(folder):
        info = entry.stat(follow_symlinks=False)
        if entry.name.endswith(".tmp") and not stat.S_ISDIR(info.st_mode):
            pid = entry.name.split(".")[-2]
            if pid.isdigit() and int(pid) != os.getpid() and not _alive(int(pid)):
                with contextlib.suppress(OSError):
                    os.unlink(entry.path)
        elif entry.name.startswith("plan-") and stat.S_ISREG(info.st_mode):
            kept.append((info.st_mtime_ns, Path(entry.path)))
    for _, old in sorted(kept, reverse=True)[MAX_ENTRIES:]:
        with contextlib.suppress(OSError):
            old.unlink()


def _alive(pid: int) -> bool:
    from pnpforge.files import _alive as alive

    return alive(pid)


def kept_state(the_plan: Plan) -> dict[str, Any]:
    """The plan without what is made afresh each run (its drawing context: fonts, warnings)."""
    return {f.name: getattr(the_plan, f.name) for f in fields(the_plan) if f.name != "ctx"}


def planned(target: str | Path, options: BuildOptions) -> Plan:
    """The build's plan: kept from the last build with the same inputs, else made and kept."""
    from pnpforge.build import Plan, drawing_setup, plan
    from pnpforge.components.load import load_target

    spec = spec_file(target)
    key = slot(target, spec, options) if spec is not None else None
    found = inputs(spec, options) if spec is not None and key is not None else None  # before loading
    if key is not None and found is not None:
        state = load(options.out_dir, key, found)
        if state is not None:
            loaded: LoadedSpec = state["loaded"]
            _, _, ctx = drawing_setup(loaded, options)
            with contextlib.suppress(OSError):  # recently used: pruned last
                os.utime(entry_file(options.out_dir, key))
            return Plan(**state, ctx=ctx)
    the_plan = plan(load_target(target, options.allow_outside_files), options)
    if key is not None and found is not None:
        store(options.out_dir, key, found, kept_state(the_plan))
    return the_plan
