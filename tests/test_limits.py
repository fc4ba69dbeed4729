"""limits.py is the one home of the work bounds: docs/spec.md's tables mirror it, no other module defines
a `MAX_*` bound of its own (those left elsewhere are listed here with the reason they are not one), and a
PNG over the pixel budget is refused at once, naming the largest --dpi that fits."""

from __future__ import annotations

import ast
import io
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from PIL import Image, ImageChops

from pnpforge import limits
from pnpforge.cli import main

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "pnpforge"
TINY = ROOT / "examples" / "tiny-quest"

# MAX_* constants outside limits.py, each with why it is not a bound on the work an input may ask for
NOT_BOUNDS = {
    ("compiled.py", "MAX_ENTRIES"): "a cache's size: builds kept per output folder",
    ("compiled.py", "MAX_ENTRY_BYTES"): "a cache's size: a larger build is not kept, still built",
    ("compiled.py", "MAX_INPUT_FILES"): "a cache's policy: a larger spec folder is built, not kept",
    ("compiled.py", "MAX_INPUT_BYTES"): "a cache's policy: a larger spec folder is built, not kept",
    ("components/model.py", "MAX_PIECES"): "limits.PIECES_PER_COMPONENT under its schema name",
    ("components/model.py", "MAX_ROTATE"): "a value's range in the schema (degrees), not work",
    ("components/model.py", "MAX_LEADING"): "a value's range in the schema (line spacing), not work",
    ("components/model.py", "MAX_DASH_MM"): "a value's range in the schema (a dash's length), not work",
    ("components/model.py", "MAX_REPEAT"): "the schema's range of one `repeat`; the work is limits.REPEATED",
    ("components/model.py", "MAX_GRID"): "the schema's range of a grid's sides; the work is limits.REPEATED",
    ("components/plainexpr.py", "MAX_DEPTH"): "tuning: a deeper expression goes to Jinja, not refused",
    ("layouts/imposition/boards.py", "MAX_STRIP_PARTS"): "layout tuning: parts tried for a board strip",
    ("drafts/identity.py", "MAX_NAME"): "a heuristic: a longer value is text, never a file name",
    ("build.py", "MAX_BACK_OFFSET_MM"): "an option's range (--back-offset), not work",
    ("export/tts.py", "MAX_SIDE"): "Tabletop Simulator's own largest sheet, not ours",
    ("scoring/inputs.py", "MAX_COUNT"): "a count's range: limits.DIGITS digits, as a file's",
    ("store/tables.py", "MAX_FIELDS"): "the table page's stored sheet (docs/serve.md), not a command's work",
    ("store/tables.py", "MAX_VALUE"): "the table page's stored sheet (docs/serve.md), not a command's work",
    ("store/plays.py", "MAX_IMPORTED"): "a play log's schema range (docs/plays.md)",
    ("store/plays.py", "MAX_SEATS"): "a play's range of seats, not work",
    ("web/guards.py", "MAX_BODY"): "the page's request limits (guards.LIMITS), in docs/serve.md",
    ("web/tables.py", "MAX_EDIT_FIELDS"): "the page's request limits, in docs/serve.md",
    ("web/sheet.py", "MAX_PLAYERS_ON_PAGE"): "the page's layout: players a sheet offers",
    ("web/sheet.py", "MAX_ENTRIES"): "the page's layout: entries of a list a sheet offers",
    ("games/ankh/checks.py", "MAX_CAMELS"): "a rule of the game",
    ("games/delphi/deal.py", "MAX_REDRAWS"): "tuning of the deal's redraws, not an input's work",
}


def module_constants() -> dict[tuple[str, str], int]:
    """Every module-level `MAX_*` assignment under src/pnpforge but limits.py, with its line."""
    found = {}
    for path in sorted(SRC.rglob("*.py")):
        where = path.relative_to(SRC).as_posix()
        if where == "limits.py":
            continue
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            targets = (
                node.targets
                if isinstance(node, ast.Assign)
                else [node.target]
                if isinstance(node, ast.AnnAssign)
                else []
            )
            for target in targets:
                if isinstance(target, ast.Name) and target.id.startswith("MAX_"):
                    found[(where, target.id)] = node.lineno
    return found


def test_no_module_but_limits_defines_a_max_bound() -> None:
    found = module_constants()
    unexplained = sorted(
        f"{where}:{line}: {name}" for (where, name), line in found.items() if (where, name) not in NOT_BOUNDS
    )
    assert not unexplained, "move these to limits.py, or say in NOT_BOUNDS why each is not a bound"
    assert not set(NOT_BOUNDS) - set(found), "NOT_BOUNDS names constants that are gone"


def limits_bounds() -> dict[str, object]:
    """limits.py's public bounds: its upper-case module-level numbers (not its messages, nor CLI)."""
    tree = ast.parse((SRC / "limits.py").read_text(encoding="utf-8"))
    names = [
        t.id for n in tree.body if isinstance(n, ast.Assign) for t in n.targets if isinstance(t, ast.Name)
    ]
    values = {name: getattr(limits, name) for name in names if name.isupper() and not name.startswith("_")}
    return {name: value for name, value in values.items() if isinstance(value, int | float | dict)}


def doc_rows() -> dict[str, str]:
    """Each `NAME` of docs/spec.md's "Input limits" and "Work bounds" tables, with its row."""
    text = (ROOT / "docs" / "spec.md").read_text(encoding="utf-8")
    rows: dict[str, str] = {}
    for title in ("## Input limits", "## Work bounds"):
        section = text[text.index(title) :]
        section = section[: section.find("\n## ", 4) % (len(section) + 1)]
        for line in section.splitlines():
            if line.startswith("| "):
                for name in re.findall(r"`([A-Z][A-Z_]+)`", line):
                    rows.setdefault(name, line)  # the first row naming it says its value
    return rows


def shown(value: object) -> list[str]:
    """The ways a table may write a bound's value."""
    if not isinstance(value, int | float):
        return []
    ways = [f"{value:,}", f"{value:g}", f"{value:,}".replace(",", " ")]
    if isinstance(value, int) and value > 1 and str(value).strip("0") == "1":
        ways.append(f"10^{len(str(value)) - 1}")
    for unit, size in (("kB", 1000), ("kB", 1024), ("MB", 10**6), ("MB", 2**20), ("GB", 10**9)):
        if value >= size and value % size == 0:
            ways.append(
                f"{value // size:g} {unit}" if isinstance(value, float) else f"{value // size} {unit}"
            )
        if value >= size:
            ways.append(f"{value / size:g} {unit}")
    return ways


def test_the_spec_tables_and_limits_py_agree() -> None:
    bounds, rows = limits_bounds(), doc_rows()
    assert sorted(set(bounds) - set(rows)) == [], "bounds of limits.py missing from docs/spec.md's tables"
    assert sorted(name for name in rows if name not in bounds and not name.startswith("MAX_")) == []
    wrong = {
        name: rows[name]
        for name, value in bounds.items()
        if shown(value) and not any(w in rows[name] for w in shown(value))
    }
    assert wrong == {}, "the table says another value than limits.py"


def test_a_bound_is_read_at_the_time_of_the_check(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A bound moved here is read as limits.X when checked: lowering it refuses a file that passed."""
    from pnpforge.errors import InputError
    from pnpforge.sourcefile import read_yaml

    path = tmp_path / "deep.yaml"
    path.write_text("a: [[[[1]]]]\n", encoding="utf-8")
    read_yaml(path)
    monkeypatch.setattr(limits, "NESTING", 3)
    with pytest.raises(InputError, match="deep"):
        read_yaml(path)


# -- the pixel budget of a PNG written -------------------------------------------------------------


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return result.exit_code, result.output


@pytest.mark.parametrize("command", ["images", "print-shop", "build"])
def test_a_png_over_the_budget_is_refused_at_once_with_the_largest_dpi_that_fits(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    monkeypatch.setattr(limits, "DECODED_PIXELS", 400_000)  # a 69 x 94 mm card at 200 dpi: 543 x 740 px
    out = tmp_path / "out"
    if command == "build":
        args = [
            "build",
            str(TINY),
            "-o",
            str(out),
            "--format",
            "png",
            "--page",
            "150x150mm",
            "--only",
            "heroes",
        ]
    else:
        args = ["export", str(TINY), "--to", command, "-o", str(out), "--only", "heroes"]
        args += ["--format", "png"] if command == "print-shop" else []
    code, output = run(*args, "--dpi", "300")
    assert code == 2 and "Traceback" not in output, output
    line = next(x for x in output.splitlines() if x.startswith("error:"))
    assert (
        line.startswith("error: <command line>: --dpi 300: ")
        and "expected at most 400,000 px decoded" in line
    )
    fit = int(re.search(r"--dpi (\d+) or less", line).group(1))  # type: ignore[union-attr]
    assert not out.exists()  # nothing written, not even the folder
    code, output = run(*args, "--dpi", str(fit))
    assert code == 0, output
    pictures = sorted(out.rglob("*.png"))
    assert pictures
    for picture in pictures:
        with Image.open(picture) as image:
            assert image.width * image.height <= 400_000
    code, output = run(*args, "--dpi", str(fit + 3), "-o", str(tmp_path / "over"))
    assert code == 2, "the dpi said is not far below the largest that fits"


def test_a_page_drawn_in_bands_is_the_page_drawn_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A large page is drawn a band of rows at a time (output/png.py): the same pixels, to a level or
    two of antialiasing, at exactly the page's size, in a valid PNG of several IDAT chunks."""
    import pypdfium2 as pdfium

    from pnpforge.output import png

    code, output = run("build", str(TINY), "-o", str(tmp_path), "--only", "heroes")
    assert code == 0, output
    document = pdfium.PdfDocument(next(tmp_path.glob("*.pdf")).read_bytes())
    width, height = png.size_at(*document.get_page_size(1), 100)
    whole = Image.open(io.BytesIO(png.page_png(document, 1, width, height, 100))).convert("RGB")
    monkeypatch.setattr(png, "BAND_PIXELS", width * 37)  # bands of 37 rows, the last one shorter
    banded_bytes = png.page_png(document, 1, width, height, 100)
    assert banded_bytes.count(b"IDAT") > 1  # written as the bands came (zlib keeps small ones back)
    banded = Image.open(io.BytesIO(banded_bytes)).convert("RGB")
    assert banded.size == whole.size == (width, height)
    diff = ImageChops.difference(whole, banded)
    assert max(high for _, high in diff.getextrema()) <= 8
    assert whole.getextrema() != ((255, 255), (255, 255), (255, 255))  # the page has something drawn
    document.close()


def test_export_workers_fit_the_memory_budget_with_their_own_interpreters() -> None:
    from pnpforge.export.raster import BYTES_PER_PIXEL, DECODED_IMAGE, WORKER_BYTES, Shot, memory_workers
    from pnpforge.output import png

    cards = [Shot(k, 800, 1100, Path(f"{k}.png"), 300) for k in range(64)]
    pdf = b"%PDF " + bytes(1000)
    each = WORKER_BYTES + len(pdf) + 800 * 1100 * BYTES_PER_PIXEL
    assert memory_workers(cards, pdf) == limits.IMAGE_MEMORY // each < 64  # not one worker per --jobs
    with_images = b"%PDF /Subtype /Image" + bytes(1000)
    assert memory_workers(cards, with_images) < memory_workers(cards, pdf)
    boards = [Shot(k, 10_000, 12_000, Path(f"{k}.png"), 600) for k in range(8)]  # drawn a band at a time
    band = png.BAND_PIXELS * BYTES_PER_PIXEL
    each = WORKER_BYTES + len(with_images) + band + limits.IMAGE_PIXELS * DECODED_IMAGE
    assert memory_workers(boards, with_images) == limits.IMAGE_MEMORY // each
