"""The set-up board picture in Japanese: the page's board after a deal or a check (`?lang=ja`) and
`pnpforge setup --draw FILE --lang ja`. Its title, legend and space labels are said through the game's
words (the message catalogs); the English picture keeps its texts (and so its bytes) as before.
"""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from conftest import require_cjk
from test_score_lang import ILLEGAL, LATIN_WORD
from test_serve import GAMES, PLAYERS

from pnpforge import contract
from pnpforge.cli import main

CJK = re.compile(r"[\u3000-\u30ff\u4e00-\u9fff\uff00-\uffef]")

# what the English picture of `pnpforge setup GAME --players N --seed 11` reads (numbers-only labels left out)
ENGLISH: dict[str, list[str]] = {
    "gods": ["Gods: 3 players (yellow, green, blue), opening", "solid: temple", "48 tiles in the stack"],
    "good-shepherds": [
        "Good Shepherds: the farm board",
        "player 1",
        "player 2",
        "hatched: a starting hut's cell; disc sheep, triangle pasture, square hut; X crossed out",
    ],
    "ankh": [
        "Ankh: Gods of Egypt: 3 players",
        *["1: Ra", "2: Osiris", "3: Anubis", "temple", "pyramid", "obelisk"],
        *["fertile", "desert", "water", "river", "camels"],
    ],
    "delphi": [
        "The Oracle of Delphi: 3 players",
        *["city", "monster", "offering", "temple", "shrine", "monster x2", "statue", "Zeus"],
        *["red", "yellow", "green", "blue", "pink", "black", "island", "shallows"],
    ],
    "quo-vadis": [
        "Quo Vadis: the map for 3 players",
        *["Desert", "Plains", "Mountain", "Sea", "Tundra", "double (4-5 players)"],
    ],
}


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Any:
    from starlette.testclient import TestClient

    from pnpforge.web import app as web

    with TestClient(web.create_app(build_root=tmp_path_factory.mktemp("builds"))) as test_client:
        yield test_client


def _texts(svg: str) -> list[str]:
    """Every text drawn in an SVG (or the page's board: its title, the SVG, its legend), in reading
    order, numbers-only labels (ids, counts) left out."""
    found = re.findall(
        r'<p class="boardtitle">([^<]*)</p>|<text[^>]*>([^<]*)</text>|<li><img[^>]*>([^<]*)</li>', svg
    )
    said = [html.unescape("".join(groups)) for groups in found]
    return [t for t in said if not re.fullmatch(r"[\d\s-]*", t)]


def _board(page: str) -> str:
    """The page's board: its title, the SVG and its legend."""
    start = page.index('<p class="boardtitle">')
    return page[start : page.index("</ul>", page.index('class="legend"', start))]


def _deal(client: Any, game: str, lang: str) -> str:
    form = {"players": str(PLAYERS[game]), "seed": "11", "lang": lang}
    page = client.post(f"/g/{game}/deal", data=form)
    assert page.status_code == 200, page.text
    return _board(page.text)


@pytest.mark.parametrize("game", GAMES)
def test_the_japanese_page_draws_the_board_in_japanese(client: Any, game: str) -> None:
    checked = client.post(f"/g/{game}/check", data={"setup": ILLEGAL[game][0](), "lang": "ja"})
    for board in (_deal(client, game, "ja"), _board(checked.text)):
        texts = _texts(board)
        assert texts[0].startswith(contract.load(game).title("ja").split("(")[0]), texts[0]  # no draft number
        english = {word for text in texts for word in LATIN_WORD.findall(text)}
        assert english == set(), texts  # ids and names that stay are numbers or one letter
        assert all(CJK.search(text) for text in texts if len(text) > 1), texts
        labels = re.findall(r"<text[^>]*>([^<]*)</text>", board)
        if any(CJK.search(label) for label in labels):  # the SVG names the Japanese font for them
            assert "IPAexGothic" in board


def test_the_gods_legend_in_play_names_the_rulebooks_tiles(client: Any) -> None:
    def texts(lang: str) -> list[str]:
        page = client.post("/g/gods/check", data={"setup": ILLEGAL["gods"][0](), "lang": lang}).text
        return _texts(_board(page))

    ja = texts("ja")
    assert ja[0] == "ゴッド: 2人プレイ(青、赤)、ゲーム中"
    assert {"斜線: 民族タイル", "円: ゴッドマーカー", "民族", "荒野", "袋にタイル2枚", "青", "赤"} <= set(
        ja
    ), ja
    en = texts("en")
    assert en[0] == "Gods: 2 players (blue, red), play"
    assert {
        "hatched: people",
        "disc: god marker",
        "people",
        "wilderness",
        "2 tiles in the bag",
        "B",
        "R",
    } <= set(en)


FARM = (
    "game: good-shepherds\nboard: farm\nunits:\n  - {at: [-1, 3], unit: hut, player: 1}\n"
    "  - {at: [8, 3], unit: hut, player: 2}\n  - {at: [0, 3], unit: sheep, player: 2}\n"
    "  - {at: [1, 3], unit: pasture, player: 1, destroyed: true}\n"
)


def test_a_crossed_out_pasture_is_marked_as_the_rulebook_marks_it(client: Any) -> None:
    def texts(lang: str) -> list[str]:
        return _texts(_board(client.post("/g/good-shepherds/check", data={"setup": FARM, "lang": lang}).text))

    assert "×" in texts("ja") and "X" not in texts("ja")
    assert "X" in texts("en")


@pytest.mark.parametrize("game", GAMES)
def test_the_english_picture_reads_as_before(client: Any, game: str, tmp_path: Path) -> None:
    board = _deal(client, game, "en")
    assert list(dict.fromkeys(_texts(board))) == ENGLISH[game]
    assert "IPAex" not in board and ("</text>" not in board or 'font-family="sans-serif"' in board)
    args = ["setup", game, "--players", str(PLAYERS[game]), "--seed", "11", "-o", str(tmp_path / "s.yaml")]
    plain, en = tmp_path / "plain.svg", tmp_path / "en.svg"
    assert CliRunner().invoke(main, [*args, "--draw", str(plain)]).exit_code == 0
    assert CliRunner().invoke(main, [*args, "--draw", str(en), "--lang", "en"]).exit_code == 0
    assert plain.read_bytes() == en.read_bytes()
    assert list(dict.fromkeys(_texts(plain.read_text()))) == ENGLISH[game]


def test_setup_draws_the_japanese_picture_with_an_embedded_japanese_font(tmp_path: Path) -> None:
    require_cjk()
    from pypdf import PdfReader

    pdf = tmp_path / "gods.pdf"
    args = ["setup", "gods", "-p", "4", "--seed", "2", "-o", str(tmp_path / "s.yaml"), "--draw", str(pdf)]
    result = CliRunner().invoke(main, [*args, "--lang", "ja"])
    assert result.exit_code == 0, result.output
    page = PdfReader(pdf).pages[0]
    text = page.extract_text()
    for said in ("ゴッド: 4人プレイ(赤、黄、緑、青)、最初のボード配置", "荒野", "タイルの山にタイル47枚"):
        assert said in text, text
    fonts = {str(f["/BaseFont"]) for f in page["/Resources"]["/Font"].values()}
    assert any("IPAex" in name for name in fonts), fonts  # glyphs from the Japanese font, not boxes
    assert "--lang [en|ja]" in CliRunner().invoke(main, ["setup", "--help"]).output
