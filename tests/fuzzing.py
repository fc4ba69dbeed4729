"""Hostile-input fuzzing shared by tests/test_fuzz.py (quick, hypothesis) and tests/fuzz_campaign.py (long).

A case is a seed input (a component spec folder, a bundled game, a dealt set-up or a score file)
mutated the way a hostile or careless user would (retyped values, deleted or duplicated keys,
huge/NaN/inf numbers, deep nesting, aliases, control characters, foreign encodings), run through the
real CLI in-process, and judged: exit 0/1/2 only, every `error:` line located (a line and column in
any text file the case wrote, unless the message is about the whole file), no traceback, nothing
written outside the case's output folder, no file read outside the spec folder (an audit hook on
`open` watches the planted secrets), and a failed run leaves the output folder byte for byte as it
was. The `command` kind runs what the others do not: export, preview, PNG/SVG builds, `--lang ja`,
`setup` with `--draw`, and `watch`, on seeds mostly left intact so they get past the first check.
"""

from __future__ import annotations

import json
import math
import os
import random
import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from pnpforge.cli import main

REPO = Path(__file__).resolve().parent.parent
TINY = REPO / "examples" / "tiny-quest"
KINDS = ("spec", "setup", "score", "command")
RAW = "\x01RAW:"  # a value written into the YAML text as it is (e.g. .nan), not as a quoted string
BUNDLED = ".bundled"  # marks a bundled game's files among the spec seeds

# A second spec seed reaching the readers tiny-quest does not: rows_from, lookup data, hexmap
# sources, polyhex cells, SVG artwork, boards split over pages.
FEATURE_SPEC = """\
game: {id: feature-seed, title: Feature seed, players: [1, 4]}
defaults: {page: a4, bleed: 3mm, margin: 5mm}
components:
  - name: places
    kind: card
    size: mini
    rows_from: {data: places.yaml, list: places}
    lookup: [{fields: [terrain], data: places.yaml, map: terrains}]
    face:
      background: "{terrain_colour}"
      elements:
        - {type: text, text: "{name}", y: 10%, h: 20%, size: 9pt, rotate: 15}
        - {type: image, src: art.svg, x: 20%, y: 40%, w: 60%, h: 40%}
  - name: island
    kind: tile
    shape: polyhex
    size: 20mm
    cells: {data: places.yaml, list: islands, match: {id: a}, cells: cells}
    face:
      elements:
        - {type: line, points: [[0, 0], [10, 10]], dash: [2, 1]}
  - name: map
    kind: board
    size: 250x200mm
    overlap: 10mm
    face:
      elements:
        - {type: hexmap, source: {data: places.yaml, list: cells, cells: ""}, hex: 30mm, fill_by: [terrain]}
"""
FEATURE_DATA = """\
terrains:
  sea: {colour: "#3a7fe0"}
  land: {colour: "#7a9a3a"}
places:
  - {name: Port, terrain: sea, count: 2}
  - {name: Farm, terrain: land}
islands:
  - {id: a, cells: [[0, 0], [1, 0], [0, 1]]}
cells:
  - {at: [0, 0], terrain: sea}
  - {at: [1, 0], terrain: land}
  - {at: [0, 1], terrain: land}
"""
FEATURE_SVG = """\
<svg xmlns="http://www.w3.org/2000/svg" width="20" height="10" viewBox="0 0 20 10">
  <rect x="1" y="1" width="18" height="8" fill="#c33"/>
</svg>
"""
HOSTILE_SVG = (
    '<?xml version="1.0"?>\n<!DOCTYPE svg [<!ENTITY e SYSTEM "file:///etc/passwd">]>\n'
    '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="9" '
    'height="9">\n<text>&e;</text><image xlink:href="../outside/secret.png" width="9" height="9"/>\n</svg>\n'
)
# secrets beside the spec folder that no command may open (the audit hook watches them), and old
# outputs a failed run must leave as they were
SECRETS = ("outside/secret.yaml", "outside/secret.ttf", "outside/secret.png", "outside/secret.csv")
OLD_OUTPUTS = ("tiny-quest.pdf", "feature-seed.pdf", "tiny-quest-p001.png", "heroes.pdf", "manifest.csv")
BROKEN_PNG = bytes.fromhex("89504e470d0a1a0a0000000d494844520000006400000064080200000001") + bytes(30)


_PLANTED = {
    "trunc.ttf": b"\x00\x01\x00\x00\x00\x0c" + bytes(40),
    "evil.svg": HOSTILE_SVG.encode(),
    "broken.png": BROKEN_PNG,
}


@dataclass
class Case:
    """One fuzz case: files to write (relative to the case folder) and the CLI arguments."""

    kind: str
    files: dict[str, bytes]
    args: list[str]
    note: str = ""


@dataclass
class Verdict:
    exit_code: int | None
    output: str
    faults: list[str] = field(default_factory=list)  # empty when the case kept every promise


# -- seeds ---------------------------------------------------------------------------------------------


def score_seeds() -> list[str]:
    """The score-file examples of docs/scoring.md (each YAML block that names its game)."""
    text = (REPO / "docs" / "scoring.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```yaml[^\n]*\n(.*?)```", text, flags=re.S)
    return [block for block in blocks if block.startswith("game: ")]


def setup_seeds() -> list[str]:
    """One dealt set-up per bundled game that deals, in the set-up file format."""
    from pnpforge import catalog, contract
    from pnpforge.table import setupfile

    seeds = []
    for game in catalog.games():
        if contract.of(game).deal is None:
            continue
        low, _ = catalog.players_range(game)
        data = setupfile.deal_setup(game.id, max(low, 2), 1, {})
        seeds.append(setupfile.dump_yaml(data))
    return seeds


def spec_seeds(bundled: bool = True) -> list[dict[str, bytes]]:
    """tiny-quest, the feature seed and (for `inventory` only: they are slow to draw) the bundled games."""
    tiny = {p.name: p.read_bytes() for p in TINY.iterdir() if p.is_file()}
    feature = {
        "game.yaml": FEATURE_SPEC.encode(),
        "places.yaml": FEATURE_DATA.encode(),
        "art.svg": FEATURE_SVG.encode(),
    }
    seeds = [tiny, feature]
    if bundled:
        games = sorted(p.parent for p in (REPO / "src" / "pnpforge" / "games").glob("*/game.yaml"))
        for game in games:
            files = {p.name: p.read_bytes() for p in game.iterdir() if p.suffix in (".yaml", ".csv")}
            seeds.append({**files, BUNDLED: b""})
    return seeds


# -- mutations -----------------------------------------------------------------------------------------


def _nested(rng: random.Random) -> str:
    depth = rng.choice([150, 800, 5000, 20000])
    if rng.random() < 0.5:
        return RAW + "[" * depth + "1" + "]" * depth
    return RAW + "{a: " * depth + "1" + "}" * depth


def _bomb(rng: random.Random) -> str:
    levels = rng.randint(6, 9)
    lines = ["&l0 [x, x, x, x, x, x, x, x, x]"]
    lines += [f"&l{i} [{', '.join([f'*l{i - 1}'] * 9)}]" for i in range(1, levels)]
    return RAW + "[" + ", ".join(lines) + "]"


def hostile_value(rng: random.Random) -> Any:
    """A value a careless or hostile user might write anywhere."""
    choices = [
        lambda: None,
        lambda: rng.choice([True, False]),
        lambda: rng.randint(-(10**6), 10**6),
        lambda: rng.choice([0, -1, 1, 2**31, 2**63, -(2**63)]),
        lambda: RAW + "1" + "0" * rng.choice([19, 25, 400, 5000]),
        lambda: RAW + rng.choice([".nan", ".inf", "-.inf", "1e400", "-1e400", "1e-400"]),
        lambda: rng.choice(["inf", "nan", "inf%", "nan%", "-inf%", "1e400%", "99999999999999999999999mm"]),
        lambda: rng.choice(["1e400x297mm", "0x0", "-5x-5mm", "99999x99999mm", "3.9pt", "0mm", "-3mm"]),
        lambda: rng.choice(["", " ", "{", "{nope}", "{name}", "%", "x" * 3000, "\u202e", "日本語"]),
        lambda: rng.choice(["../outside/secret.yaml", "/etc/passwd", "../../x.csv", "/dev/zero", "."]),
        lambda: rng.choice(
            ["trunc.ttf", "../outside/secret.ttf", "art.svg", "evil.svg", "game.yaml", "broken.png"]
        ),
        lambda: [hostile_value(rng) for _ in range(rng.randint(0, 3))],
        lambda: {rng.choice(["a", "x", "type", "name", "size"]): hostile_value(rng)},
        lambda: rng.uniform(-1e6, 1e6),
        lambda: rng.choice(["1999mm", "0.001mm", "-1999mm", "1000%", "-1000%", "0", "2000x2000mm", "1x1mm"]),
        lambda: rng.choice([0, 1999, 0.0001, 3599.0, -3599.0, 1e-9, 10**17, 20000, 60, 99]),
        lambda: rng.choice(["0.1pt", "3.9pt", "200pt", "{count}", "{nope}mm", "a4", "letter", "wrap"]),
        lambda: _nested(rng),
        lambda: _bomb(rng),
    ]
    return rng.choice(choices)()


def plausible_value(rng: random.Random, current: Any) -> Any:
    """A value of the same type as `current`, pushed to an edge: gets past the schema, into drawing."""
    if isinstance(current, bool):
        return not current
    if isinstance(current, int | float):
        return rng.choice([0, -1, 1, 1999, -1999, 0.0001, 3599.5, 20000, 20001, 59, 61, 10**17, -(10**17)])
    if isinstance(current, str):
        unit = rng.choice(["mm", "pt", "in", "cm", "%", ""])
        number = rng.choice(["0", "0.001", "1999", "-1999", "999", "78.7", "-0.5", "1000"])
        return rng.choice(
            [number + unit, current * rng.choice([0, 2, 50]), f"{{{current}}}", current.upper()]
        )
    return hostile_value(rng)


def _paths(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path]
    if isinstance(node, dict):
        for key, value in node.items():
            out += _paths(value, (*path, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            out += _paths(value, (*path, index))
    return out


def _get(node: Any, path: tuple[Any, ...]) -> Any:
    for part in path:
        node = node[part]
    return node


def mutate_data(data: Any, rng: random.Random, steps: int) -> Any:
    """Retype, delete, add or nest values at random places of parsed YAML data."""
    for _ in range(steps):
        paths = [p for p in _paths(data) if p]
        if not paths:
            return hostile_value(rng)
        path = rng.choice(paths)
        parent = _get(data, path[:-1])
        last = path[-1]
        action = rng.random()
        if action < 0.3:
            parent[last] = plausible_value(rng, parent[last])
        elif action < 0.6:
            parent[last] = hostile_value(rng)
        elif action < 0.75:
            del parent[last]
        elif action < 0.85 and isinstance(parent, dict):
            parent[rng.choice(["extra", "count", "size", "x", "font", "src", "data"])] = hostile_value(rng)
        elif isinstance(parent, list):
            parent.insert(rng.randrange(len(parent) + 1), _get(data, path))
        else:
            parent[last] = [_get(data, path)]
    return data


def _raw_floats(node: Any) -> Any:
    """Infinite and NaN floats as YAML writes them (.inf, .nan), not as JSON's strings."""
    if isinstance(node, float) and not math.isfinite(node):
        return RAW + (".nan" if math.isnan(node) else "-.inf" if node < 0 else ".inf")
    if isinstance(node, dict):
        return {k: _raw_floats(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_raw_floats(v) for v in node]
    return node


def dump(data: Any) -> str:
    """Flow-style YAML (JSON with raw values spliced back in), the way a mutated file would be written."""
    text = json.dumps(_raw_floats(data), ensure_ascii=False)
    return re.sub(r'"\\u0001RAW:((?:[^"\\]|\\.)*)"', lambda m: json.loads(f'"{m.group(1)}"'), text) + "\n"


def mutate_text(text: str, rng: random.Random) -> bytes:
    """Byte-level damage: control characters, duplicated keys, cuts, foreign encodings, a BOM."""
    lines = text.splitlines(keepends=True) or [""]
    action = rng.random()
    if action < 0.15:
        at = rng.randrange(len(text) + 1)
        text = text[:at] + rng.choice(["\x00", "\x07", "\x1b", "\ufffe", "\x0c"]) + text[at:]
    elif action < 0.3 and len(lines) > 1:
        at = rng.randrange(len(lines))
        lines.insert(at, lines[at])  # a key given twice (or a list item)
        text = "".join(lines)
    elif action < 0.4:
        text = text[: rng.randrange(len(text) + 1)]
    elif action < 0.5 and len(lines) > 1:
        del lines[rng.randrange(len(lines))]
        text = "".join(lines)
    elif action < 0.55:
        text = (
            "a: &a ["
            + ", ".join(["x"] * 9)
            + "]\n"
            + "".join(
                f"b{i}: &b{i} [" + ", ".join([f"*{'a' if i == 0 else f'b{i - 1}'}"] * 9) + "]\n"
                for i in range(8)
            )
        )
    encoded = text.encode("utf-8", errors="surrogatepass")
    roll = rng.random()
    if roll < 0.1:
        return text.encode("shift_jis", errors="replace") + "é".encode("latin-1")
    if roll < 0.15:
        return text.encode("utf-16")
    if roll < 0.2:
        return b"\xef\xbb\xbf" + encoded
    if roll < 0.25:
        return encoded.replace(b"e", b"\x93", 1)
    return encoded


def _parse(text: str) -> Any:
    from pnpforge.sourcefile import read_yaml_text

    return read_yaml_text(text, "seed").data


# -- cases ---------------------------------------------------------------------------------------------


class Seeds:
    """The seed inputs, made once per process."""

    def __init__(self, bundled: bool = True) -> None:
        self.specs = spec_seeds(bundled)
        self.setups = setup_seeds()
        self.scores = score_seeds()


def make_case(seeds: Seeds, kind: str, rng: random.Random) -> Case:
    if kind == "command":
        return command_case(seeds, rng)
    structural = rng.random() < 0.8
    steps = rng.choice([1, 1, 1, 2, 3])
    if kind == "spec":
        files = dict(rng.choice(seeds.specs[:2] if rng.random() < 0.75 else seeds.specs))
        names = [n for n in files if n.endswith((".yaml", ".csv", ".svg"))]
        name = rng.choice(names + ["game.yaml"] * len(names))
        text = files[name].decode("utf-8")
        if name.endswith(".yaml") and structural:
            text = dump(mutate_data(_parse(text), rng, steps))
        elif name.endswith(".svg") and rng.random() < 0.5:
            text = HOSTILE_SVG
        files[name] = mutate_text(text, rng) if not structural or rng.random() < 0.2 else text.encode()
        files.update(_PLANTED)
        command = "inventory" if BUNDLED in files else rng.choice(["inventory", "build", "build"])
        args = [command, "spec"]
        if command == "build":
            args += ["-o", "out"]
            if rng.random() < 0.2:
                args += ["--page", str(hostile_value(rng)).replace(RAW, "")]
            if rng.random() < 0.1:
                args += ["--duplex-test"]
            if rng.random() < 0.1:
                args += ["--font", rng.choice(["spec/trunc.ttf", "spec/game.yaml", "nope.ttf"])]
        elif rng.random() < 0.2:
            args += ["--page", str(hostile_value(rng)).replace(RAW, "")]
        return Case(kind, {f"spec/{k}": v for k, v in files.items()}, args, f"{name}")
    if kind == "setup" and rng.random() < 0.05:  # a pile of one Quo Vadis tile: the checks stay linear
        copies = rng.choice([400, 1500, 2001])
        pile = {"game": "quo-vadis", "players": 3, "map": [{"tile": "a2-5", "at": [0, 0]}] * copies}
        return Case(kind, {"input.yaml": dump(pile).encode()}, ["validate", "input.yaml"], "pile")
    seed = rng.choice(seeds.setups if kind == "setup" else seeds.scores)
    text = dump(mutate_data(_parse(seed), rng, steps)) if structural else seed
    body = mutate_text(text, rng) if not structural or rng.random() < 0.2 else text.encode()
    suffix = rng.choice([".yaml", ".yaml", ".json"])
    if kind == "setup":
        command = "caravans" if "game: ankh" in seed and rng.random() < 0.3 else "validate"
        lang = ["--lang", "ja"] if command == "validate" and rng.random() < 0.3 else []
        return Case(kind, {f"input{suffix}": body}, [command, f"input{suffix}", *lang])
    lang = ["--lang", "ja"] if rng.random() < 0.3 else []
    return Case(kind, {f"input{suffix}": body}, ["score", f"input{suffix}", *lang])


# -- the commands the other kinds do not run ---------------------------------------------------------------


def _bundled_spec(rng: random.Random) -> tuple[dict[str, bytes], list[str]]:
    """A bundled game's folder (its data, not its code) and `--only` one of its components."""
    games = sorted(p for p in (REPO / "src" / "pnpforge" / "games").iterdir() if (p / "game.yaml").is_file())
    game = rng.choice(games)
    files = {
        str(p.relative_to(game)): p.read_bytes()
        for p in game.rglob("*")
        if p.is_file() and p.suffix not in (".py", ".pyc") and "__pycache__" not in p.parts
    }
    names = [c["name"] for c in _parse(files["game.yaml"].decode())["components"]]
    return files, ["--only", rng.choice(names)]


def command_case(seeds: Seeds, rng: random.Random) -> Case:
    """Export, preview, PNG/SVG builds, --lang ja, setup --draw and watch, on seeds that mostly pass."""
    if rng.random() < 0.2:
        game = rng.choice(["ankh", "delphi", "gods", "good-shepherds", "quo-vadis"])
        players = str(rng.choice([1, 2, 3, 4, 5, 6, 0, -1]))
        draw = rng.choice(["out/board.png", "out/board.pdf", "out/board.svg", "out/board.txt"])
        args = ["setup", game, "-p", players, "--seed", str(rng.randrange(1000)), "-o", "out/s.yaml"]
        args += ["--draw", draw] + (["--lang", "ja"] if rng.random() < 0.5 else [])
        if rng.random() < 0.3:
            args += ["--option", rng.choice(["short=true", "remove=99999", "x", "scenario=Nope", "=", "a=b"])]
        return Case("command", {}, args, "setup")
    only: list[str] = []
    if rng.random() < 0.3:
        files, only = _bundled_spec(rng)
    else:
        files = dict(rng.choice(seeds.specs[:2]))
    work = rng.random() < 0.3 and not only  # a work-bound case: big asks on a seed that otherwise passes
    if work:
        files = _ask_for_work(files, rng)
    elif rng.random() < 0.5:  # one plausible change: far enough to reach the drawing, rarely stopped early
        data = _parse(files["game.yaml"].decode())
        paths = [p for p in _paths(data) if p]
        path = rng.choice(paths)
        parent = _get(data, path[:-1])
        parent[path[-1]] = plausible_value(rng, parent[path[-1]])
        files["game.yaml"] = dump(data).encode()
    files.update(_PLANTED)
    command = rng.choice(["export", "export", "preview", "build-png", "build-svg", "watch"])
    lang = ["--lang", "ja"] if rng.random() < 0.4 else []
    if command == "export":
        kind = rng.choice(["images", "print-shop", "tts", "print-shop"])
        args = ["export", "spec", "--to", kind, "-o", "out", "--dpi", str(rng.choice([10, 20, 30]))]
        if kind == "print-shop" and rng.random() < 0.3:
            args += ["--format", "png"]
        args += ["--jobs", "1"]
    elif command == "preview":
        args = ["preview", "spec", "-o", "out", "--dpi", "10"]
    elif command == "watch":
        args = ["watch", "spec", "-o", "out", "--max-builds", "1", "--format", "pdf"]
    else:
        formats = "png" if command == "build-png" else rng.choice(["svg", "pdf,svg"])
        args = ["build", "spec", "-o", "out", "--format", formats, "--dpi", "10"]
    if work and command in ("build-png", "preview") and rng.random() < 0.5:
        args += ["--page", "600x600mm", "--dpi", "1200"]  # 28,346 px square pages: refused, not drawn
    return Case("command", {f"spec/{k}": v for k, v in files.items()}, [*args, *only, *lang], command)


def _bomb_png(side: int) -> bytes:
    """A PNG whose header says side × side px, with a little data: a decoder would try to allocate it all."""
    import struct
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", side, side, 8, 0, 0, 0, 0)
    body = zlib.compress(bytes(side + 1) * 64)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", body) + chunk(b"IEND", b"")


def _ask_for_work(files: dict[str, bytes], rng: random.Random) -> dict[str, bytes]:
    """One of the asks the work bounds refuse (docs/spec.md, "Work bounds"), else a folder-rule probe."""
    files = dict(files)
    data = _parse(files["game.yaml"].decode())
    defaults = data.setdefault("defaults", {})
    ask = rng.choice(["font", "bleed", "count", "surrogate", "image", "pieces"])
    if ask == "font":
        defaults["font"] = rng.choice(["../outside/secret.ttf", "/etc/passwd", "../outside/secret.yaml"])
    elif ask == "bleed":
        defaults["bleed"] = rng.choice(["1000mm", "500mm", "1999mm"])
        data["components"][0].setdefault("face", {})["pattern"] = "dots"
    elif ask == "count" and "heroes.csv" in files:
        files["heroes.csv"] += b"Giant,#112233," + b"9" * rng.choice([19, 400, 5000]) + b",x\n"
    elif ask == "surrogate":
        data["game"]["title"] = RAW + '"T\\ud800"'
    elif ask == "image":
        files["bomb.png"] = _bomb_png(rng.choice([13000, 40000]))
        face = data["components"][0].setdefault("face", {})
        face.setdefault("elements", []).append({"type": "image", "src": "bomb.png"})
    else:
        for component in data["components"]:
            component["count"] = rng.choice([20000, 5000])
    files["game.yaml"] = dump(data).encode()
    return files


# -- judging -------------------------------------------------------------------------------------------

LOCATED = re.compile(r"^error: (?:[^:\s][^:]*:\d+:\d+|[^:\s][^:]*): \S")
WITH_LINE = re.compile(r"^error: ([^:\s][^:]*):(\d+):(\d+): \S")
NAMED = re.compile(r"^error: ([^:\s][^:]*): ")
TEXT_FILES = (".yaml", ".yml", ".json", ".csv", ".svg")
# what is said of a whole file, with no line to point at
WHOLE_FILE = (
    "file larger than", "text longer than", "cannot use this path", "cannot write here", "not found",
    "not a usable TrueType font", "no data rows", "is a folder", "is a directory", "not a file",
    "not UTF-8", "empty", "outside the spec folder", "no such",
)  # fmt: skip


def unlocated(line: str, inputs: set[str]) -> bool:
    """An `error:` line that does not say where: no FILE at all, or a text input of the case named
    without its line and column (and not about the whole file)."""
    if not LOCATED.match(line) or WITH_LINE.match(line):
        return not LOCATED.match(line)
    named = NAMED.match(line)
    name = named.group(1) if named else ""
    if not any(name == i or name.endswith("/" + i) for i in inputs) or not name.endswith(TEXT_FILES):
        return False
    return not any(phrase in line for phrase in WHOLE_FILE)


def judge(
    exit_code: int | None,
    output: str,
    exception: BaseException | None,
    written: list[str],
    *,
    inputs: set[str] = frozenset(),  # type: ignore[assignment]
    reads: list[str] = (),  # type: ignore[assignment]
    changed: list[str] = (),  # type: ignore[assignment]
    memory: int = 0,
) -> list[str]:
    faults = []
    if "Traceback (most recent call last)" in output or exception is not None:
        faults.append("traceback")
    if "internal error:" in output or exit_code == 3:
        faults.append("internal")
    elif exit_code not in (0, 1, 2) and exception is None:
        faults.append(f"exit {exit_code}")
    errors = [line for line in output.splitlines() if line.startswith("error:")]
    if any(unlocated(line, inputs) for line in errors) or (exit_code == 2 and not errors):
        faults.append("unlocated")
    if written:
        faults.append("outside")
    if reads:
        faults.append("outside reads")
    if changed:
        faults.append("changed outputs")
    if memory > MEMORY_FLAG:
        faults.append("memory")
    return faults


MEMORY_FLAG = 1_500_000_000  # bytes of peak memory a single case may grow a worker to
_opened: list[str] = []
_watched: list[Path] = []


def _audit(event: str, args: tuple[Any, ...]) -> None:
    if event == "open" and _watched and isinstance(args[0], str | bytes | Path):
        path = args[0].decode(errors="replace") if isinstance(args[0], bytes) else str(args[0])
        path = os.path.normpath(os.path.join(os.getcwd(), path))  # as the system will find it
        if any(path == str(w) or path.startswith(str(w) + "/") for w in _watched) or path in _FORBIDDEN:
            _opened.append(path)


_FORBIDDEN = {"/etc/passwd", "/dev/zero"}
_hooked: list[bool] = []


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def _snapshot(folder: Path) -> set[str]:
    return {str(p.relative_to(folder)) for p in folder.rglob("*")}


def _peak_rss() -> int:
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # kB on Linux


def run_case(case: Case, folder: Path) -> Verdict:
    """Write the case into `folder` (emptied first), run it in-process, and judge it."""
    import sys

    if not _hooked:  # one hook per process: audit hooks cannot be removed
        sys.addaudithook(_audit)
        _hooked.append(True)
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    for name, data in case.files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(data)
    for secret in SECRETS:
        (folder / secret).parent.mkdir(parents=True, exist_ok=True)
        (folder / secret).write_bytes(b"secret: do not read\n")
    for name in OLD_OUTPUTS:
        (folder / "out").mkdir(exist_ok=True)
        (folder / "out" / name).write_bytes(f"old {name}\n".encode())
    outputs_before = _files(folder / "out")
    before = _snapshot(folder)
    old = os.getcwd()
    os.chdir(folder)
    _opened.clear()
    _watched[:] = [(folder / "outside").resolve(), Path("outside").absolute()]
    rss_before = _peak_rss()
    try:
        result = CliRunner().invoke(main, case.args, catch_exceptions=True)
    finally:
        _watched.clear()
        os.chdir(old)
    grown = _peak_rss() if _peak_rss() > rss_before else 0
    exception = result.exception if not isinstance(result.exception, SystemExit) else None
    output = result.output
    if exception is not None:
        output += f"\nTraceback (most recent call last): {type(exception).__name__}: {exception}"
    written = sorted(p for p in _snapshot(folder) - before if not (p == "out" or p.startswith("out/")))
    changed: list[str] = []
    if result.exit_code not in (0, 1) and (folder / "out").is_dir():
        after = _files(folder / "out")
        changed = sorted(k for k in set(after) | set(outputs_before) if after.get(k) != outputs_before.get(k))
    inputs = {name.removeprefix("spec/") for name in case.files} | set(case.files)
    faults = judge(
        result.exit_code,
        output,
        exception,
        written,
        inputs=inputs,
        reads=sorted(set(_opened)),
        changed=changed,
        memory=grown,
    )
    if changed:
        output += f"\nchanged by a failed run: {', '.join(changed[:5])}"
    if _opened:
        output += f"\nopened outside the folder: {', '.join(sorted(set(_opened))[:5])}"
    return Verdict(result.exit_code, output, faults)
