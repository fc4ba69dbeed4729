"""Work bounds (issue 21, the CLI half): each bound refuses its input before the work, with a located
error and exit 2, through the real CLI; huge inputs are made small by lowering the bound in
`pnpforge.limits` for the test. Also the outputs a failed run must leave alone, and the folder rule.
"""

from __future__ import annotations

import base64
import io
import json
import os
import re
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from pypdf import PdfReader

from pnpforge import limits, parsecache, sourcefile
from pnpforge.cli import main
from pnpforge.table import setupfile

REPO = Path(__file__).resolve().parent.parent
TINY = REPO / "examples" / "tiny-quest"
CARD_SPEC = """\
game: {id: t, title: T}
components:
  - name: cards
    kind: card
    size: poker
    csv: cards.csv
    face:
      elements:
        - {type: text, text: "{name}"}
"""


def run(*args: str, cwd: Path | None = None) -> Result:
    old = os.getcwd()
    if cwd is not None:
        os.chdir(cwd)
    try:
        return CliRunner().invoke(main, list(args), catch_exceptions=False)
    finally:
        os.chdir(old)


def refused(result: Result, where: str) -> str:
    """The one error of an exit-2 run, which must start `error: WHERE` (e.g. `game.yaml:3:9`)."""
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output and "internal error" not in result.output
    errors = [line for line in result.output.splitlines() if line.startswith("error:")]
    assert errors and re.match(rf"error: \S*{re.escape(where)}", errors[0]), errors
    return errors[0]


def spec(tmp_path: Path, text: str, **files: str | bytes) -> Path:
    folder = tmp_path / "spec"
    folder.mkdir(exist_ok=True)
    (folder / "game.yaml").write_text(textwrap.dedent(text), encoding="utf-8")
    for name, content in files.items():
        path = folder / name.replace("__", ".")
        path.write_bytes(content if isinstance(content, bytes) else content.encode())
    return folder


def png(width: int, height: int) -> bytes:
    from PIL import Image

    out = io.BytesIO()
    Image.new("RGB", (width, height), (200, 30, 30)).save(out, format="PNG")
    return out.getvalue()


# -- set-up checks: linear, and at most 100 violations listed -----------------------------------------


def quo_vadis_pile(tmp_path: Path, copies: int) -> Path:
    first = {"tile": "a2-5", "at": [0, 0], "rotation": 0}
    data = {"game": "quo-vadis", "players": 3, "map": [first] * copies}
    path = tmp_path / "pile.yaml"
    path.write_text(setupfile.dump_yaml(data), encoding="utf-8")  # one map entry a line, from line 4
    return path


def test_a_pile_of_400_tiles_lists_100_violations_and_counts_the_rest(tmp_path: Path) -> None:
    path = quo_vadis_pile(tmp_path, 400)
    result = run("validate", str(path))
    assert result.exit_code == 1
    listed = [line for line in result.output.splitlines() if ": error [" in line]
    assert len(listed) == limits.VIOLATIONS
    assert "tiles a2-5 at [0, 0] and a2-5 at [0, 0] overlap" in listed[0]
    # one overlap per tile on an earlier one (399), one repeated tile, the tile count: not 79,800 pairs
    assert "302 more violation(s) not listed (the first 100 are)" in result.output
    assert result.output.rstrip().endswith("402 rule violation(s)")  # and the base: no ring around
    report = json.loads(run("validate", str(path), "--json").output)
    assert len(report["errors"]) == 100 and report["unlisted_errors"] == 302


def test_a_pile_is_one_overlap_per_tile_and_the_rest_of_the_map_is_still_judged(tmp_path: Path) -> None:
    dealt = setupfile.deal_setup("quo-vadis", 3, 1, {})
    dealt["map"].append(dict(dealt["map"][3]) | {"rotation": 2})  # a second tile on a ring cell
    path = tmp_path / "map.yaml"
    path.write_text(setupfile.dump_yaml(dealt), encoding="utf-8")
    result = run("validate", str(path), "--json")
    codes = [e["code"] for e in json.loads(result.output)["errors"]]
    assert codes.count("tile-overlap") == 1 and "map-tile-count" in codes
    assert "tile-detached" not in codes and "map-disconnected" not in codes  # the pile is not cut off


def test_a_set_up_list_past_the_bound_is_refused_at_its_first_extra_entry(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(limits, "SETUP_LIST", 5)
    path = quo_vadis_pile(tmp_path, 7)
    line = refused(run("validate", str(path)), "pile.yaml:9:5")  # the sixth entry, index 5
    assert "7 entries in one list (expected at most 5" in line


def test_ankh_caravans_on_a_wide_board_are_found_from_floods_that_stop(tmp_path: Path) -> None:
    """A radius-12 board (469 cells) split by a river of water with a gap of land: each candidate line
    is tested by two floods that stop when they meet; the caravans closing the gap cut the board in two
    large halves, and every caravan found cuts its region into two parts of 6+."""
    cells = [
        {"at": [q, r], "terrain": "water" if q == 0 and r not in (0, 1) else "desert"}
        for q in range(-12, 13)
        for r in range(max(-12, -q - 12), min(12, -q + 12) + 1)
    ]
    data = {
        "game": "ankh",
        "players": 2,
        "seats": [{"seat": 1, "god": "ra"}, {"seat": 2, "god": "amun"}],
        "guardians": [],
        "caravans": [],
        "conflict_order": [],
        "pieces": [],
        "map": {"cells": cells},
    }
    path = tmp_path / "wide.yaml"
    path.write_text(setupfile.dump_yaml(data), encoding="utf-8")
    result = run("caravans", str(path), "--json")
    assert result.exit_code == 0, result.output
    found = json.loads(result.output)
    found = found["caravans"] if isinstance(found, dict) else found
    land = sum(1 for c in cells if c["terrain"] == "desert")
    assert found and all(min(c["sizes"]) >= 6 and sum(c["sizes"]) == c["region_size"] for c in found)
    assert any(min(c["sizes"]) > 100 and c["region_size"] == land for c in found)  # the gap closed


# -- located errors found fast -------------------------------------------------------------------------

TRICKY_YAML = """\
a:
  b: 1
  c:
  - x
  - {y: 2, z: [3, 4]}
  empty:
  'quoted': "q"
list:
- - 1
  - 2
- k: v
  m: null
"""


def test_positions_from_parser_events_are_the_round_trip_loaders() -> None:
    texts = [TRICKY_YAML, (TINY / "game.yaml").read_text(encoding="utf-8")]
    texts += [p.read_text(encoding="utf-8") for p in (REPO / "src/pnpforge/games").glob("*/game.yaml")]
    compared = 0
    for text in texts:
        try:
            fast = sourcefile._event_positions(text)
        except sourcefile._Unusual:  # numeric keys and the like: the round-trip loader answers
            continue
        assert fast == sourcefile._round_trip(text, "x.yaml")[1]
        compared += 1
    assert compared >= 4


def test_a_large_set_up_with_one_unknown_key_is_located(tmp_path: Path) -> None:
    lines = ["game: quo-vadis", "players: 3", "map:"]
    lines += [f"  - {{tile: a2-5, at: [{i % 40}, {i // 40}], rotation: 0}}" for i in range(1500)]
    lines += ["areas:"] + [f"  - {{id: t{i}, numbers: [1, 2], spaces: [sea, sea, sea]}}" for i in range(1500)]
    lines += ["colour: red"]
    path = tmp_path / "big.yaml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    line = refused(run("validate", str(path)), f"big.yaml:{len(lines)}:9")
    assert "colour" in line


def test_more_than_100_problems_are_counted_not_all_listed(tmp_path: Path) -> None:
    rows = "\n".join(f"n{i},x{i}" for i in range(150))  # 150 different messages (a repeated one is said once)
    folder = spec(tmp_path, CARD_SPEC, cards__csv=f"name,count\n{rows}\n")
    result = run("build", str(folder), "-o", str(tmp_path / "out"))
    assert result.exit_code == 2
    assert len([line for line in result.output.splitlines() if line.startswith("error:")]) == 100
    assert "50 more problem(s) not listed (the first 100 are)." in result.output


# -- bad values that were internal errors --------------------------------------------------------------


def test_a_5000_digit_csv_count_is_located(tmp_path: Path) -> None:
    folder = spec(tmp_path, CARD_SPEC, cards__csv="name,count\na," + "9" * 5000 + "\n")
    line = refused(run("build", str(folder), "-o", str(tmp_path / "out")), "cards.csv:2:3")
    assert "is too large (expected at most 20000)" in line and len(line) < 200


@pytest.mark.parametrize("where", ["title", "name"])
def test_a_lone_surrogate_escape_is_located(tmp_path: Path, where: str) -> None:
    text = CARD_SPEC.replace("title: T", 'title: "T\\ud800"' if where == "title" else "title: T")
    text = text.replace("name: cards", 'name: "c\\udc00"' if where == "name" else "name: cards")
    folder = spec(tmp_path, text, cards__csv="name\na\n")
    line = refused(run("build", str(folder), "-o", str(tmp_path / "out")), "game.yaml:")
    assert "lone surrogate" in line


HEX_SPEC = """\
game: {id: h, title: H}
components:
  - name: map
    kind: board
    size: 200x200mm
    face:
      elements:
        - {type: hexmap, source: {data: cells.yaml, list: cells, cells: ""}, hex: 20mm}
  - name: island
    kind: tile
    shape: polyhex
    size: 20mm
    cells: {data: cells.yaml, list: islands, match: {id: a}, cells: cells}
    face: {elements: []}
"""


@pytest.mark.parametrize("cell", ["[1.5, 0]", "[true, 0]", "['1', 0]", "[99999, 0]"])
def test_a_hex_map_cell_that_is_not_two_whole_numbers_is_located(tmp_path: Path, cell: str) -> None:
    data = f"cells:\n  - {{at: [0, 0]}}\n  - {{at: {cell}}}\nislands:\n  - {{id: a, cells: [[0, 0]]}}\n"
    folder = spec(tmp_path, HEX_SPEC, cells__yaml=data)
    line = refused(run("build", str(folder), "-o", str(tmp_path / "out")), "cells.yaml:3:")
    assert "two whole numbers" in line


def test_polyhex_cells_must_touch_and_are_bounded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    apart = "cells:\n  - {at: [0, 0]}\nislands:\n  - {id: a, cells: [[0, 0], [1, 0], [5, 5]]}\n"
    folder = spec(tmp_path, HEX_SPEC, cells__yaml=apart)
    line = refused(run("build", str(folder), "-o", str(tmp_path / "out")), "cells.yaml:4:")
    assert "cell [5, 5] is not next to the tile's other cells" in line
    monkeypatch.setattr(limits, "POLYHEX_CELLS", 2)
    touching = apart.replace("[5, 5]", "[0, 1]")
    (folder / "cells.yaml").write_text(touching, encoding="utf-8")
    line = refused(run("build", str(folder), "-o", str(tmp_path / "out")), "cells.yaml:4:")
    assert "3 cells in one tile (expected at most 2" in line


# -- counts ----------------------------------------------------------------------------------------------


def test_the_total_piece_cap_is_said_at_the_component_that_passes_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(limits, "PIECES_TOTAL", 30)
    text = CARD_SPEC + (
        "  - name: more\n    kind: token\n    size: 20mm\n    count: 20\n    face: {elements: []}\n"
    )
    folder = spec(tmp_path, text, cards__csv="name,count\na,15\n")
    line = refused(run("build", str(folder), "-o", str(tmp_path / "out")), "game.yaml:13:")
    assert "brings the spec to 35 pieces (expected at most 30 in all" in line
    assert not (tmp_path / "out").exists()


def test_csv_rows_past_the_bound_are_refused_at_the_first_extra_row(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(limits, "ROWS", 5)
    rows = "".join(f"n{i}\n" for i in range(9))
    folder = spec(tmp_path, CARD_SPEC, cards__csv="name\n" + rows)
    line = refused(run("build", str(folder), "-o", str(tmp_path / "out")), "cards.csv:7:1")
    assert "more than 5 rows" in line


def test_a_csv_with_cr_line_ends_reads_as_lines_and_is_located(tmp_path: Path) -> None:
    folder = spec(tmp_path, CARD_SPEC, cards__csv="name,count\rab,1\rcd,x\r")
    line = refused(run("build", str(folder), "-o", str(tmp_path / "out")), "cards.csv:3:4")
    assert "count 'x' is not a whole number" in line
    (folder / "cards.csv").write_text("name,count\rab,1\rcd,2\r", encoding="utf-8")
    assert run("build", str(folder), "-o", str(tmp_path / "out")).exit_code == 0


def test_the_page_bound_is_checked_before_layout(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The pieces' area says at least how many pages they need: refused at the component that passes
    the bound, before any is laid out; the count after layout (backs, gaps) is checked too."""
    monkeypatch.setattr(limits, "PAGES", 2)
    line = refused(run("build", str(TINY), "-o", str(tmp_path / "out")), "game.yaml:75:12")
    assert "component 'pad' brings the build to at least 3 pages (expected at most 2" in line
    monkeypatch.setattr(limits, "PAGES", 3)
    line = refused(run("build", str(TINY), "-o", str(tmp_path / "out")), "game.yaml:19:3")
    assert "the build would be" in line and "pages (expected at most 3" in line
    assert not (tmp_path / "out").exists()


def test_polyhex_tiles_past_the_nesting_bound_are_refused_when_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(limits, "NESTED_PIECES", 10)
    text = HEX_SPEC.replace("    face: {elements: []}", "    count: 11\n    face: {elements: []}")
    data = "cells:\n  - {at: [0, 0]}\nislands:\n  - {id: a, cells: [[0, 0], [1, 0]]}\n"
    folder = spec(tmp_path, text, cells__yaml=data)
    line = refused(run("build", str(folder), "-o", str(tmp_path / "out")), "game.yaml:14:12")
    assert "brings the spec to 11 polyhex tiles (expected at most 10 in all" in line


# -- pixels ----------------------------------------------------------------------------------------------

IMAGE_SPEC = CARD_SPEC.replace('- {type: text, text: "{name}"}', "- {type: image, src: art.png}")


def test_an_image_over_the_pixel_budget_is_refused_from_its_header(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(limits, "IMAGE_PIXELS", 100 * 100)
    folder = spec(tmp_path, IMAGE_SPEC, cards__csv="name\na\n", art__png=png(120, 100))
    line = refused(run("build", str(folder), "-o", str(tmp_path / "out")), "game.yaml:9:11")
    assert "it is 120 × 100 px (expected at most 10,000 px decoded" in line
    (folder / "art.png").write_bytes(png(100, 100))
    assert run("build", str(folder), "-o", str(tmp_path / "out")).exit_code == 0


def test_a_13000_px_square_png_is_refused_not_decoded(tmp_path: Path) -> None:
    """The real bound: a 13000 × 13000 PNG (169 Mpx) made of a header and a few kB of zeros."""
    import struct
    import zlib

    side = 13000
    squeeze = zlib.compressobj(9)
    body = b"".join(squeeze.compress(bytes(side + 1)) for _ in range(side)) + squeeze.flush()

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", side, side, 8, 0, 0, 0, 0)
    bomb = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", body) + chunk(b"IEND", b"")
    folder = spec(tmp_path, IMAGE_SPEC, cards__csv="name\na\n", art__png=bomb)
    line = refused(run("build", str(folder), "-o", str(tmp_path / "out")), "game.yaml:9:11")
    assert "13,000 × 13,000 px" in line


def test_an_svg_embedded_image_over_the_budget_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(limits, "IMAGE_PIXELS", 50 * 50)
    data = base64.b64encode(png(60, 60)).decode()
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
        'width="10" height="10">\n'
        f'<image xlink:href="data:image/png;base64,{data}" width="10" height="10"/>\n'
        "</svg>\n"
    )
    text = IMAGE_SPEC.replace("art.png", "art.svg")
    folder = spec(tmp_path, text, cards__csv="name\na\n", art__svg=svg)
    result = run("build", str(folder), "-o", str(tmp_path / "out"))
    assert result.exit_code == 2 and "art.svg:2:" in result.output and "60 × 60 px" in result.output


@pytest.mark.parametrize("command", ["build", "preview"])
def test_png_pages_over_the_budget_are_refused_before_layout(tmp_path: Path, command: str) -> None:
    args = [command, str(TINY), "-o", str(tmp_path / "out"), "--page", "600x600mm", "--dpi", "1200"]
    if command == "build":
        args += ["--format", "png"]
    started = time.monotonic()
    line = refused(run(*args), "<command line>")
    assert "--dpi 1200: a 600x600mm page is 28,346 × 28,346 px" in line
    assert time.monotonic() - started < 5 and not (tmp_path / "out").exists()


def test_bleed_larger_than_the_pieces_is_located(tmp_path: Path) -> None:
    text = CARD_SPEC.replace("components:", "defaults: {bleed: 1000mm}\ncomponents:")
    text = text.replace("      elements:", "      pattern: dots\n      elements:")
    folder = spec(tmp_path, text, cards__csv="name\na\n")
    for args in (
        ["build", str(folder), "-o", str(tmp_path / "out")],
        ["export", str(folder), "--to", "print-shop"],
    ):
        line = refused(run(*args, cwd=tmp_path), "game.yaml:2:")
        assert "bleed 1000 mm is more than the pieces of 'cards' (88 mm" in line


# -- the folder rule, and no content in errors ---------------------------------------------------------


def test_export_reads_defaults_font_under_the_folder_rule(tmp_path: Path) -> None:
    secret = tmp_path / "secret.ttf"
    secret.write_text("Zork:x:0:0:Zork:/Zork:/bin/bash\n", encoding="utf-8")
    text = CARD_SPEC.replace("components:", f"defaults: {{font: {secret}}}\ncomponents:")
    folder = spec(tmp_path, text, cards__csv="name\na\n")
    out = tmp_path / "shop"
    line = refused(run("export", str(folder), "--to", "print-shop", "-o", str(out)), "game.yaml:2:")
    assert "outside the spec folder" in line and not out.exists()
    allowed = run("export", str(folder), "--to", "print-shop", "-o", str(out), "--allow-outside-files")
    assert allowed.exit_code == 2 and "not a usable TrueType font" in allowed.output
    assert "5A6F726B" not in allowed.output.upper() and "Zork" not in allowed.output  # "Zork" in hex


# -- outputs of a failed or killed run -------------------------------------------------------------------


@pytest.mark.usefixtures("cmyk_profile")
def test_a_failed_export_leaves_the_old_outputs_as_they_were(tmp_path: Path) -> None:
    long_name = "c" * 300
    text = CARD_SPEC + (
        f"  - name: {long_name}\n    kind: card\n    size: poker\n    rows: [{{name: b}}]\n"
        "    face: {elements: []}\n"
    )
    folder = spec(tmp_path, text, cards__csv="name\na\n")
    out = tmp_path / "shop"
    out.mkdir()
    (out / "cards.pdf").write_bytes(b"old")
    result = run("export", str(folder), "--to", "print-shop", "-o", str(out))
    assert result.exit_code == 2 and "cannot write here" in result.output
    assert sorted(p.name for p in out.iterdir()) == ["cards.pdf"]
    assert (out / "cards.pdf").read_bytes() == b"old"


def test_a_killed_builds_staging_folder_is_removed_by_the_next_build(tmp_path: Path) -> None:
    finished = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True)
    dead = int(finished.stdout)
    out = tmp_path / "out"
    stale = out / f".pnpforge-staging-{dead}-abc"
    stale.mkdir(parents=True)
    (stale / "tiny-quest.pdf").write_bytes(b"half")
    assert run("build", str(TINY), "-o", str(out), "--no-cache").exit_code == 0
    assert sorted(p.name for p in out.iterdir()) == ["tiny-quest.pdf"]
    assert len(PdfReader(out / "tiny-quest.pdf").pages) > 1


def test_a_build_killed_while_writing_leaves_no_mix(tmp_path: Path) -> None:
    """SIGKILL a pdf,svg build as soon as its staging folder appears: the folder then holds the old
    files only (and the staging folder, which the next run removes)."""
    out = tmp_path / "out"
    out.mkdir()
    (out / "tiny-quest.pdf").write_bytes(b"old")
    command = [sys.executable, "-m", "pnpforge", "build", str(TINY), "-o", str(out), "--format", "pdf,svg"]
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and not any(out.glob(".pnpforge-staging-*")) and child.poll() is None:
        time.sleep(0.002)
    child.kill()
    child.wait()
    visible = sorted(p.name for p in out.iterdir() if not p.name.startswith("."))
    if (out / "tiny-quest.pdf").read_bytes() == b"old":
        assert visible == ["tiny-quest.pdf"]  # killed before the move: nothing new
    else:  # finished first: everything new
        assert len(visible) > 2 and all(not name.endswith(".tmp") for name in visible)


# -- smaller cases -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["日本語", "{0}", 'a"b', "x{title}"])
def test_new_makes_a_spec_that_builds_whatever_its_name(tmp_path: Path, name: str) -> None:
    assert run("new", name, cwd=tmp_path).exit_code == 0
    result = run("build", name, "-o", "out", cwd=tmp_path)
    assert result.exit_code == 0, result.output
    pdf = next((tmp_path / "out").glob("*.pdf"))
    assert name.title() in PdfReader(pdf).metadata.title


def test_watch_with_its_output_inside_the_spec_folder_rebuilds(tmp_path: Path) -> None:
    assert run("new", "game", cwd=tmp_path).exit_code == 0
    command = [sys.executable, "-m", "pnpforge", "watch", "game", "-o", "game", "--interval", "0.05"]
    child = subprocess.Popen([*command, "--max-builds", "2"], cwd=tmp_path, stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None and child.stdout.readline().strip() == "game/game.pdf"
        with (tmp_path / "game" / "cards.csv").open("a", encoding="utf-8") as handle:
            handle.write("Air,#dddddd,1,Fly.\n")
        output, _ = child.communicate(timeout=30)
    finally:
        child.kill()
    assert child.returncode == 0 and output.strip() == "game/game.pdf"


def test_a_parse_cache_that_is_not_a_plain_small_file_is_not_used(tmp_path: Path) -> None:
    text = "a: [1, 2]\n"
    cache = tmp_path / "x.yaml.json"
    parsecache.store(cache, text, {"a": [1, 2]})
    assert parsecache.load(cache, text) == {"a": [1, 2]}
    key = parsecache._key(text)
    cache.write_text(json.dumps({"key": key, "data": {"a": [1, 2]}, "pad": "x" * 100_000}))
    assert parsecache.load(cache, text) is parsecache.MISSING  # far larger than its text's data
    deep = "[" * 150 + "]" * 150
    cache.write_text(f'{{"key": "{key}", "data": {deep}}}')
    assert parsecache.load(cache, text) is parsecache.MISSING
    cache.write_text(f'{{"key": "{key}", "data": {"[" * 100_000 + "]" * 100_000}}}')
    assert parsecache.load(cache, text) is parsecache.MISSING  # json's own recursion, caught
    cache.unlink()
    os.mkfifo(cache)  # a reader opening a FIFO would wait for a writer for ever
    started = time.monotonic()
    assert parsecache.load(cache, text) is parsecache.MISSING
    assert time.monotonic() - started < 1
