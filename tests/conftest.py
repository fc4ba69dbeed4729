"""Shared fixtures: the example game, throw-away spec folders, the CLI runner, PDF measuring helpers."""

from __future__ import annotations

import json
import os
import shutil
import textwrap
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from pnpforge.cli import main

REPO = Path(__file__).resolve().parents[1]
os.environ.pop("PNPFORGE_LANG", None)  # the tests expect pnpforge's terminal messages in English
# tables and plays go to a throw-away database, never the user's data folder (store/db.py)
os.environ["PNPFORGE_DB"] = os.path.join(__import__("tempfile").mkdtemp(prefix="pnpforge-test-db-"), "t.db")
TINY_QUEST = REPO / "examples" / "tiny-quest"
MM = 72 / 25.4


@pytest.fixture(autouse=True)
def _bundled_games_only() -> Iterator[None]:
    """`--games-dir` adds a folder for the rest of the process: each test starts with the bundled games."""
    from pnpforge import catalog

    saved = list(catalog._extra_dirs)
    yield
    catalog._extra_dirs[:] = saved


@pytest.fixture
def tiny_quest() -> Path:
    return TINY_QUEST


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


SpecMaker = Callable[..., Path]


@pytest.fixture
def make_spec(tmp_path: Path) -> SpecMaker:
    """Write a spec folder: `make_spec(yaml_text, **other_files)` -> the folder (text is dedented)."""

    def make(text: str, folder: str = "spec", **files: str | bytes) -> Path:
        root = tmp_path / folder
        root.mkdir(parents=True, exist_ok=True)
        (root / "game.yaml").write_text(textwrap.dedent(text), encoding="utf-8")
        for name, content in files.items():
            path = root / name.replace("__", ".")
            if isinstance(content, bytes):
                path.write_bytes(content)
            else:
                path.write_text(textwrap.dedent(content), encoding="utf-8")
        return root

    return make


def render_page(pdf: Path | bytes, index: int, dpi: int):  # type: ignore[no-untyped-def]
    """One PDF page as a PIL RGB image rendered by pdfium at `dpi`."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(pdf if isinstance(pdf, bytes) else str(pdf))
    try:
        return document[index].render(scale=dpi / 72).to_pil().convert("RGB")
    finally:
        document.close()


def extent_of(image, colour: tuple[int, int, int], tolerance: int = 40) -> tuple[int, int, int, int]:  # type: ignore[no-untyped-def]
    """Bounding box (x0, y0, x1, y1), in pixels, of the pixels near `colour`."""
    from PIL import Image, ImageChops

    solid = Image.new("RGB", image.size, colour)
    difference = ImageChops.difference(image, solid).convert("L")
    mask = difference.point(lambda v: 255 if v <= tolerance else 0)
    box = mask.getbbox()
    assert box is not None, f"no pixel of colour {colour}"
    return box


def red_length(image, line: int, vertical: bool = False) -> float:  # type: ignore[no-untyped-def]
    """Length in pixels of red-on-white along one row (or column), anti-aliased edges counted by coverage."""
    width, height = image.size
    cells = range(height) if vertical else range(width)
    total = 0.0
    for k in cells:
        r, g, b = image.getpixel((line, k) if vertical else (k, line))
        total += (255 - g) / 255 if r > 200 else 0.0
    return total


def require_cjk() -> None:
    """Skip a Japanese test on a machine without a Japanese font; in CI (PNPFORGE_REQUIRE_CJK=1) fail."""
    from pnpforge.fonts import find_cjk_font

    if find_cjk_font() is None:
        if os.environ.get("PNPFORGE_REQUIRE_CJK") == "1":
            pytest.fail("no Japanese TrueType font found but PNPFORGE_REQUIRE_CJK=1")
        pytest.skip("no Japanese TrueType font on this machine")


def require_cmyk_profile() -> Path:
    """The installed CMYK output profile a print-shop PDF is made with (Ghostscript's); without one the
    test is skipped, in CI (PNPFORGE_REQUIRE_ICC=1, .ci/run installs Ghostscript) it fails."""
    from pnpforge.export import pdfx

    found = [path for path in pdfx.INSTALLED if path.is_file()]
    if not found:
        if os.environ.get("PNPFORGE_REQUIRE_ICC") == "1":
            pytest.fail("no CMYK output profile found but PNPFORGE_REQUIRE_ICC=1")
        pytest.skip("no CMYK output profile on this machine (install Ghostscript: .ci/run does)")
    return found[0]


@pytest.fixture
def cmyk_profile() -> Path:
    """A print-shop PDF needs a CMYK output profile: the one installed (else the test is skipped)."""
    return require_cmyk_profile()


def _build_bundled(
    request: pytest.FixtureRequest, factory: pytest.TempPathFactory, lang: str
) -> tuple[Path, str]:
    """Build the test module's GAME through the real CLI: (the PDF, what the command printed)."""
    game = request.module.GAME
    out = factory.mktemp(f"{game}-{lang}")
    result = CliRunner().invoke(main, ["build", game, "-o", str(out), "--lang", lang])
    assert result.exit_code == 0, result.output
    return out / f"{game}.pdf", result.output


@pytest.fixture(scope="module")
def built_en(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    return _build_bundled(request, tmp_path_factory, "en")


@pytest.fixture(scope="module")
def built_ja(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    require_cjk()
    return _build_bundled(request, tmp_path_factory, "ja")


@pytest.fixture(scope="module")
def counts(request: pytest.FixtureRequest) -> dict[str, int]:
    """`pnpforge inventory GAME --json` of the test module's GAME: component name -> count."""
    result = CliRunner().invoke(main, ["inventory", request.module.GAME, "--json"])
    assert result.exit_code == 0, result.output
    return {line["name"]: line["count"] for line in json.loads(result.output)}


def missing_words(pdf: Path, words: tuple[str, ...]) -> list[str]:
    """The words no page's text holds (pages are read only until every word has been seen)."""
    from pypdf import PdfReader

    left = list(words)
    for page in PdfReader(pdf).pages:
        text = page.extract_text()
        left = [w for w in left if w not in text]
        if not left:
            break
    return left


def assert_every_page_is(reader: Any, width_mm: float, height_mm: float) -> None:
    """Every page of a pypdf reader measures width × height mm (to 0.1 mm)."""
    for page in reader.pages:
        assert float(page.mediabox.width) / MM == pytest.approx(width_mm, abs=0.1)
        assert float(page.mediabox.height) / MM == pytest.approx(height_mm, abs=0.1)


Segment = tuple[tuple[float, float], tuple[float, float]]


def _concat(n: list[float], m: list[float]) -> list[float]:
    """The PDF matrix `n` applied before `m` (as `cm` does to the current matrix)."""
    a, b, c, d, e, f = n
    return [
        a * m[0] + b * m[2],
        a * m[1] + b * m[3],
        c * m[0] + d * m[2],
        c * m[1] + d * m[3],
        e * m[0] + f * m[2] + m[4],
        e * m[1] + f * m[3] + m[5],
    ]


def pdf_crop_marks(
    pdf: Path, colour: tuple[float, ...] = (0.0, 0.0, 0.0), width: float = 0.25
) -> list[list[Segment]]:
    """Per page, every crop mark actually drawn in the PDF, in points from the top-left corner.

    A crop mark is a stroked two-point path in black at the hairline width (0.25 pt); other straight
    lines are found by their stroke `colour` and `width`. Form XObjects are followed, with the graphics
    state's transformation applied, so reused marks count too.
    """
    want_colour, want_width = colour, width
    import re

    from pypdf import PdfReader

    reader = PdfReader(pdf)
    token = re.compile(
        rb"\((?:\\.|[^\\)])*\)|<[0-9A-Fa-f\s]*>|/[^\s/\[\]()<>]+|[-+]?(?:\d+\.?\d*|\.\d+)|[A-Za-z'\"*]+"
    )

    parsed: dict[int, list[tuple[list[Any], bytes]]] = {}

    def operations(data: bytes) -> list[tuple[list[Any], bytes]]:
        """(operands, operator) pairs of a content stream (each form parsed once, however often drawn)."""
        key = hash(data)
        if key not in parsed:
            parsed[key] = list(_operations(data))
        return parsed[key]

    def _operations(data: bytes) -> Any:
        operands: list[Any] = []
        for match in token.finditer(data):
            word = match.group()
            head = word[:1]
            if head in b"(</" or head in b"+-.0123456789":
                operands.append(word)
            else:
                yield operands, word
                operands = []

    pages: list[list[Segment]] = []

    def walk(stream: Any, resources: Any, ctm: list[float], height: float, out: list[Segment]) -> None:
        stack: list[tuple[list[float], tuple[float, ...], float]] = []
        colour: tuple[float, ...] = (0.0, 0.0, 0.0)
        width = 1.0
        path: list[tuple[float, float]] = []
        segments = 0

        def apply(m: list[float], x: float, y: float) -> tuple[float, float]:
            return (m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5])

        data = stream.get_data() if hasattr(stream, "get_data") else b"".join(s.get_data() for s in stream)
        for operands, op in operations(data):
            if op == b"q":
                stack.append((ctm, colour, width))
            elif op == b"Q":
                ctm, colour, width = stack.pop()
            elif op == b"cm":
                ctm = _concat([float(v) for v in operands], ctm)
            elif op == b"RG":
                colour = tuple(float(v) for v in operands)
            elif op == b"w":
                width = float(operands[0])
            elif op == b"m":
                path, segments = [apply(ctm, float(operands[0]), float(operands[1]))], 0
            elif op == b"l":
                path.append(apply(ctm, float(operands[0]), float(operands[1])))
                segments += 1
            elif op in (b"S",):
                if segments == 1 and len(path) == 2 and width == want_width and colour == want_colour:
                    (x0, y0), (x1, y1) = path
                    out.append(((x0, height - y0), (x1, height - y1)))
                path, segments = [], 0
            elif op in (b"n", b"f", b"f*", b"B", b"B*", b"b", b"b*", b"s", b"re"):
                path, segments = [], 2
            elif op == b"Do":
                xobject = resources["/XObject"][operands[0].decode()].get_object()
                if xobject.get("/Subtype") == "/Form":
                    matrix = [float(v) for v in xobject.get("/Matrix", [1, 0, 0, 1, 0, 0])]
                    inner = _concat(matrix, ctm)
                    walk(xobject, xobject.get("/Resources", resources), inner, height, out)

    for page in reader.pages:
        found: list[Segment] = []
        walk(page.get_contents(), page["/Resources"], [1, 0, 0, 1, 0, 0], float(page.mediabox.height), found)
        pages.append(found)
    return pages


# --- message catalogs (pnpforge/i18n.py, tools/catalogs.py) --------------------------------------------

PSEUDO_SPAN = __import__("re").compile(r"«[^«»]*»")


@pytest.fixture(scope="session")
def pseudo_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding `xx.mo`, the pseudo-locale: every message of the code «wrapped and accented»."""
    import sys

    sys.path.insert(0, str(REPO / "tools"))
    import catalogs

    folder = tmp_path_factory.mktemp("pseudo")
    catalogs.pseudo(folder)
    return folder


@pytest.fixture
def pseudo_locale(pseudo_dir: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """The `xx` language made available to this test (in-process and to subprocesses it starts)."""
    monkeypatch.setenv("PNPFORGE_LOCALE_DIR", str(pseudo_dir))
    return "xx"


def untranslated(text: str) -> list[str]:
    """The words of `text` left outside every «…» span of the pseudo-locale: English that reached the
    user without going through the catalog (callers remove the data they put in: names, numbers)."""
    while True:
        stripped = PSEUDO_SPAN.sub(" ", text)
        if stripped == text:
            break
        text = stripped
    return __import__("re").findall(r"[A-Za-z][A-Za-z'’-]*[A-Za-z]", text)


# A game whose set-up check is slow on any machine (the page's scheduling tests) ---------------------
SLOW = "slowpoke"  # a copy of Gods whose set-up check takes CHECK_SECONDS: work that is slow on any machine
CHECK_SECONDS = 3
SLOW_HOOK = f"""

import time as _time
from dataclasses import replace as _replace

from pnpforge.gamekit import SetupRules as _SetupRules

_checked = GAME.setup


def _slow_setup():  # the game's own check, after {CHECK_SECONDS} s of work
    rules = _checked()

    def check(setup, source):
        _time.sleep({CHECK_SECONDS})
        return rules.check(setup, source)

    return _SetupRules(rules.model, check, picture=rules.picture)


GAME = _replace(GAME, setup=_slow_setup)
"""


@pytest.fixture(scope="module")
def slow_games(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A games folder holding SLOW (its id is its folder's name, so a copy needs no other change)."""
    from pnpforge.catalog import find_game

    folder = tmp_path_factory.mktemp("games")
    shutil.copytree(find_game("gods").path, folder / SLOW, ignore=shutil.ignore_patterns("__pycache__"))
    hook = folder / SLOW / "__init__.py"
    hook.write_text(hook.read_text(encoding="utf-8") + SLOW_HOOK, encoding="utf-8")
    return folder


@pytest.fixture
def slow_game(slow_games: Path) -> Path:
    """SLOW in the catalog for this test (each test starts with the bundled games only)."""
    from pnpforge.catalog import add_games_dir

    add_games_dir(slow_games)
    return slow_games
