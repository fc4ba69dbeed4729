"""Shared fixtures: the example game, throw-away spec folders, the CLI runner, PDF measuring helpers."""

from __future__ import annotations

import json
import os
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from pnpforge.cli import main

REPO = Path(__file__).resolve().parents[1]
TINY_QUEST = REPO / "examples" / "tiny-quest"
MM = 72 / 25.4


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
