"""Every word pnpforge itself prints on a sheet goes through the message catalogs (issue "Message
catalogs"): the cover, the sheets' labels, the fold line, the DRAFT mark, the duplex-test and assembly
pages.

The real CLI builds in the pseudo-locale `xx` (every catalog message «wrapped and àççéñtéd»). Once the
spec's own data is taken out (the game's title, designer and draft, the components' names, titles and
parts, sizes, numbers, option names), no English word may be left outside a «…» span. On a sheet of
pieces only what lies outside the art area is pnpforge's (the label band, the fold word, DRAFT): the art
is the spec's, so the words there are read with their positions (pdfium), the whole-page texts of the
cover, duplex-test and assembly pages with pypdf. A Japanese build shows the Japanese of ja.po there.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import click
import pytest
from click.testing import CliRunner
from conftest import MM, TINY_QUEST, SpecMaker, require_cjk, untranslated
from pypdf import PdfReader

from pnpforge.cli import Language, main
from pnpforge.components.load import load_target
from pnpforge.components.template import localise

MARGIN_MM = 5.0
INSET = (MARGIN_MM + 2.5) * MM  # the art area's edge: the printer margin, then the crop marks' band
_DATA = (
    r"\d+(?:\.\d+)? × \d+(?:\.\d+)? mm",  # a component's size
    r"pnpforge \d+\.\d+\.\d+\S*",  # the version that built it
    r"--[a-z][a-z-]*",  # option names stay as they are
    r"(?<![A-Za-z])mm(?![A-Za-z])",  # the unit, the same in every language
    r"\b[XY]\b",  # the duplex test's "X mm right, Y mm down"
    r"\d+(?:\.\d+)?",
)
BOARD = """\
game: {id: tabletop, title: Tabletop, players: [2, 2]}
defaults: {duplex: none}
components:
  - name: map
    title: Map
    kind: board
    size: 400x300mm
    rows: [{id: m}]
    face:
      background: "#8fbc8f"
      elements: [{type: rect, x: 10mm, y: 10mm, w: 380mm, h: 280mm, stroke: black}]
"""


@pytest.fixture
def xx(pseudo_locale: str) -> str:
    """`build --lang xx`: the build command offers every language with a catalog (cli.Language)."""
    command = main.get_command(click.Context(main), "build")
    assert command is not None
    option = next(p for p in command.params if p.name == "lang")
    assert isinstance(option.type, Language) and pseudo_locale in option.type.choices
    return pseudo_locale


def build(target: str, out: Path, lang: str, *args: str) -> Path:
    """The PDF the real CLI writes for `target` in `lang`."""
    command = ["build", target, "-o", str(out), "--lang", lang, "--margin", f"{MARGIN_MM:g}mm", "--no-cache"]
    result = CliRunner().invoke(main, [*command, *args])
    assert result.exit_code == 0, result.output
    (pdf,) = out.glob("*.pdf")
    return pdf


def spec_data(target: str, lang: str) -> list[str]:
    """The spec's own texts a build shows as they are: the game's title (either language), designer and
    draft, each component's name, title and parts (`pnpforge inventory`), longest first."""
    loaded = load_target(target)
    game = loaded.spec.game
    result = CliRunner().invoke(
        main, ["inventory", target, "--json", "--lang", "ja" if lang == "ja" else "en"]
    )
    assert result.exit_code == 0, result.output
    lines = json.loads(result.output)
    texts = [localise(game.title, "en"), localise(game.title, "ja"), game.designer or "", game.version or ""]
    texts += [loaded.id]
    texts += [
        t for line in lines for t in (line["name"], line["title"], *(p["title"] for p in line["parts"]))
    ]
    return sorted({t for t in texts if t}, key=len, reverse=True)


def english(text: str, data: list[str]) -> list[str]:
    """The English words left in `text`, outside every «…», once the spec's data is taken out."""
    for item in data:
        text = text.replace(item, " ")
    for pattern in _DATA:
        text = re.sub(pattern, " ", text)
    return untranslated(text)


def marks_text(pdf: Path, index: int) -> str:
    """What a sheet of pieces shows outside its art area: pnpforge's own words there (label, fold, DRAFT),
    read character by character with the page's geometry (forms and turned pieces included)."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(str(pdf))
    try:
        page = document[index]
        width, height = page.get_size()
        chars = page.get_textpage()
        said = []
        for k in range(chars.count_chars()):
            left, bottom, right, top = chars.get_charbox(k)
            x, y = (left + right) / 2, (bottom + top) / 2
            outside = not (INSET < x < width - INSET and INSET < y < height - INSET)
            said.append(chars.get_text_range(k, 1) if outside else "\n")
        return re.sub(r"\n+", "\n", "".join(said)).strip()
    finally:
        document.close()


def page_texts(pdf: Path, whole: set[int]) -> list[str]:
    """Each page's words that are pnpforge's: the whole text of the `whole` pages (pypdf), the marks of
    the other pages."""
    reader = PdfReader(pdf)
    return [page.extract_text() if k in whole else marks_text(pdf, k) for k, page in enumerate(reader.pages)]


PSEUDO = {  # name -> (target, options, the pages read whole: cover, duplex test, assembly)
    "tiny-quest": (str(TINY_QUEST), ("--duplex-test", "--draft", "--back-offset", "1,-0.5"), {0, 1, 2}),
    "gods": ("gods", ("--duplex", "short", "--duplex-test", "--sheets", "2-4"), {0, 1, 2}),
    "gods folded": ("gods", ("--duplex", "fold"), {0}),
}


@pytest.mark.parametrize("name", list(PSEUDO))
def test_every_word_on_the_sheets_is_a_catalog_message(xx: str, tmp_path: Path, name: str) -> None:
    target, options, whole = PSEUDO[name]
    pdf = build(target, tmp_path / "out", xx, *options)
    data = spec_data(target, xx)
    texts = page_texts(pdf, whole)
    assert len(texts) > 4
    for k, text in enumerate(texts):
        assert "«" in text, (k, text)  # the label, the cover, the test page: said in xx
        assert english(text, data) == [], (k, text)


def test_the_assembly_page_is_said_in_the_language(xx: str, make_spec: SpecMaker, tmp_path: Path) -> None:
    """A board larger than the page: its assembly page (heading and how to put it together), then its
    parts, each marked with its place on the board ("A1 (1/2, 1/3)": no words)."""
    spec = make_spec(BOARD)
    pdf = build(str(spec), tmp_path / "out", xx)
    texts = page_texts(pdf, {0, 1})
    assert len(texts) >= 4
    assert "«Àssémblý: Map»" in texts[1] and "«Bàçks àré ñöt prîñtéd (--dûpléx ñöñé).»" in texts[0]
    assert re.search(r"«\d+ pàgés, \d+ röw\(s\)", texts[1]), texts[1]
    for k, text in enumerate(texts):
        assert english(text, spec_data(str(spec), xx)) == [], (k, text)


LABEL_WORDS = re.compile(r"\b(sheet|front|back|fold|DRAFT)\b")


def test_japanese_sheets_say_their_labels_in_japanese(tmp_path: Path) -> None:
    """Gods on A4 in Japanese: each sheet's label says シート and 表面 or 裏面 (ja.po's words), the cover
    and the duplex test page are Japanese, and no English word of pnpforge's is left."""
    require_cjk()
    pdf = build("gods", tmp_path / "out", "ja", "--page", "a4", "--duplex-test", "--draft")
    data = [*spec_data("gods", "ja"), "a4"]
    cover, *test_pages = PdfReader(pdf).pages[:3]
    said = cover.extract_text()
    for word in (
        "コンポーネント",
        "種類",
        "サイズ",
        "枚数",
        "シート",
        "合計",
        "2–4人用",
        "タイル・六角形",
        "下書き",
    ):
        assert word in said, word
    assert english(said, data) == [], said
    for page in test_pages:
        text = page.extract_text()
        assert "両面テスト" in text and "長辺とじ" in text, text
        assert english(text, data) == [], text
    sheets = page_texts(pdf, {0, 1, 2})[3:]
    assert len(sheets) == 7  # five sheets; the two of tiles each with its back
    for k, text in enumerate(sheets):
        assert re.search(r"シート\d+ · .+ · (表面|裏面)", text), (k, text)
        assert "下書き" in text, (k, text)
        assert not LABEL_WORDS.findall(text), (k, text)
        assert english(text, data) == [], (k, text)
