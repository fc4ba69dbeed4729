"""Right answers on the table page: every input path through the same validator as the CLI, no JSON or
stack text shown to a player, language links that work after any POST, every message on a ja page in
Japanese, untouched sheets neutral, and violation marks that land in their hex for every game."""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from pnpforge import catalog
from pnpforge.cli import main
from pnpforge.web import board
from pnpforge.web.app import create_app

HUGE = "9" * 4301  # past Python's int-from-text limit: once a 500 with a traceback
TOO_LARGE = "number too large (expected at most 18 digits)"
GAMES = [g.id for g in catalog.games() if g.bundled]
PLAYERS = {"ankh": 3, "delphi": 3, "gods": 3, "good-shepherds": 2, "quo-vadis": 3}


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Any:
    from starlette.testclient import TestClient

    with TestClient(create_app(build_root=tmp_path_factory.mktemp("builds"))) as test_client:
        yield test_client


def _shown(page: str) -> str:
    """What a player reads: the page's main text, tags and scripts removed."""
    main_part = page.split("<main>", 1)[-1].split("</main>", 1)[0]
    return html.unescape(re.sub(r"<[^>]+>", " ", main_part))


def _no_machine_text(page: str) -> None:
    shown = _shown(page)
    assert "Traceback" not in shown and '"ok"' not in shown and '{"' not in shown


@pytest.mark.parametrize(
    ("path", "field"),
    [
        ("/g/gods/score", "p0:villages"),
        ("/g/gods/score.yaml", "p0:villages"),
        ("/g/gods/score.png", "p0:villages"),
        ("/g/gods/score.pdf", "p0:villages"),
        ("/g/quo-vadis/score", "p0:generations.0"),
        ("/g/ankh/score", "e0:regions.0.gods.{player}.figures"),
        ("/g/good-shepherds/score", "p0:money"),
    ],
)
def test_a_4301_digit_number_is_refused_on_its_field_as_a_file_says_it(
    client: Any, path: str, field: str
) -> None:
    page = client.post(path, data={field: HUGE, "g:regions.0.name": "1"})
    assert page.status_code == 400 and page.headers["content-type"].startswith("text/html")
    assert TOO_LARGE in page.text and f'name="{field}"' in page.text
    assert re.search(rf'name="{re.escape(field)}"[^>]*aria-invalid="true"', page.text)
    _no_machine_text(page.text)


def test_the_same_number_through_the_api_and_the_yaml_route(client: Any) -> None:
    api = client.post("/api/g/gods/score", data={"p0:villages": HUGE})
    assert api.status_code == 400
    assert [p["field"] for p in api.json()["problems"]] == ["p0:villages"]
    assert api.json()["problems"][0]["message"] == TOO_LARGE
    as_file = client.post("/api/score", content=f"game: gods\nplayers:\n  - {{name: A, villages: {HUGE}}}\n")
    assert as_file.status_code == 400 and TOO_LARGE in as_file.json()["problems"][0]["message"]
    for form in ({"count": HUGE}, {"round": HUGE, "action": "next"}):
        page = client.post("/g/gods/score", data=form)
        assert page.status_code in (200, 400) and "Traceback" not in page.text
    deal = client.post("/g/gods/deal", data={"players": "9" * 100})
    assert deal.status_code == 400 and TOO_LARGE in html.unescape(deal.text)
    assert client.post("/g/gods/deal", data={"players": HUGE}).status_code == 413  # over its 4 kB


def test_a_fifth_gods_player_is_refused_in_the_clis_words(client: Any, tmp_path: Path) -> None:
    five = "game: gods\nplayers:\n" + "".join(f"  - {{name: P{i}, villages: 1}}\n" for i in range(5))
    (tmp_path / "score.yaml").write_text(five, encoding="utf-8")
    cli = CliRunner().invoke(main, ["score", str(tmp_path / "score.yaml")])
    assert cli.exit_code == 2
    said = re.search(r"score\.yaml:(\d+:\d+: .*)", cli.output)
    assert said and said.group(1) == "3:3: gods is played by 2–4 players, not 5"
    page = client.post("/g/gods/score", files={"file": ("score.yaml", five.encode())})
    assert page.status_code == 400
    assert f"score.yaml:{said.group(1)}" in html.unescape(page.text)
    ja = client.post("/g/gods/score", data={"lang": "ja"}, files={"file": ("score.yaml", five.encode())})
    assert "gods のプレイヤー数は 2–4 人です(5 人ではありません)" in html.unescape(ja.text)


def test_sharing_a_sheet_with_an_error_shows_the_sheet_not_json(client: Any) -> None:
    for kind in ("png", "pdf"):
        page = client.post(f"/g/gods/score.{kind}", data={"p0:villages": "7", "p0:name": "Ann"})
        assert page.status_code == 400 and page.headers["content-type"].startswith("text/html")
        assert "[too-many-villages]" in html.unescape(page.text) and 'value="Ann"' in page.text
        _no_machine_text(page.text)
    ankh = client.post("/g/ankh/score.png", data={"p0:name": "Ann", "p1:name": "Bob", "p2:name": "Cy"})
    assert ankh.status_code == 400 and ankh.headers["content-type"].startswith("text/html")
    assert "unknown god 'Ann'" in html.unescape(ankh.text)
    _no_machine_text(ankh.text)


def test_an_unknown_file_kind_and_a_missing_build_are_pages(client: Any) -> None:
    for page in (client.post("/g/gods/score.exe"), client.get("/g/gods/build/a4-en-long/gods.pdf")):
        assert page.status_code == 404 and page.headers["content-type"].startswith("text/html")
        _no_machine_text(page.text)


def _lang_links(page: str) -> dict[str, str]:
    nav = re.search(r'<nav class="langs"[^>]*>(.*?)</nav>', page, re.S)
    assert nav
    return {
        code: html.unescape(href) for href, code in re.findall(r'href="([^"]+)"[^>]*>(EN|JA)<', nav.group(1))
    }


@pytest.mark.parametrize(
    ("path", "form"),
    [
        ("/g/delphi/deal", {"players": "3", "seed": "7"}),
        ("/g/delphi/check", {"setup": "game: delphi\n"}),
        ("/g/gods/score", {"p0:villages": "2", "action": "add"}),
        ("/g/gods/score", {"p0:villages": "2", "action": "count"}),
        ("/g/gods/build", {"page": "tabloid"}),
        ("/g/gods/setup.yaml", {"setup": "game: [\n"}),
    ],
)
def test_language_links_work_after_every_post(client: Any, path: str, form: dict[str, str]) -> None:
    page = client.post(path, data=form)
    links = _lang_links(page.text)
    assert set(links) == {"EN", "JA"}
    for code, href in links.items():
        followed = client.get(href)
        assert followed.status_code == 200, href
        assert f'<html lang="{code.lower()}">' in followed.text


def test_the_language_link_after_a_deal_keeps_the_deal(client: Any) -> None:
    page = client.post("/g/delphi/deal", data={"players": "3", "seed": "7", "lang": "en"})
    ja = client.get(_lang_links(page.text)["JA"])
    assert ja.status_code == 200 and '<strong id="seed">7</strong>' in ja.text
    assert "配置の手順" in ja.text  # the deal's steps, now in Japanese


def test_messages_on_a_ja_page_are_japanese(client: Any) -> None:
    cases = [
        (
            "/g/delphi/deal",
            {"players": "3", "seed": "x"},
            "シード: 「x」は整数ではありません。",  # the page's field, not the CLI's --seed
        ),
        ("/g/delphi/deal", {"players": "9"}, "delphi のプレイヤー数は 2〜4 人です(9 人は選べません)"),
        ("/g/delphi/check", {"setup": "game: delphi\n  : ["}, "YAML の書式が正しくありません"),
        ("/g/ankh/score", {"p0:name": "太郎"}, "神「太郎」はありません"),
        ("/g/gods/score", {"p0:villages": HUGE}, "数が大きすぎます(18 桁まで)"),
        ("/g/gods/build", {"page": "tabloid"}, "a4, letter のいずれかを選んでください"),
        ("/g/gods/score", {"p0:villages": "x"}, "整数、または人々の色ごとの数"),
        (
            "/g/delphi/check",
            {"setup": "game: delphi\nplayers: 9\n"},
            "のプレイヤー数は 2〜4 人です(9 人ではありません)",
        ),
        ("/g/delphi/check", {"setup": "game: gods\n"}, "これは gods のファイルです(delphi ではありません)"),
    ]
    for path, form, expected in cases:
        page = client.post(path, data={**form, "lang": "ja"})
        assert expected in html.unescape(page.text), (path, form)


def test_an_untouched_sheet_is_neutral(client: Any) -> None:
    for game in ("quo-vadis", "gods", "ankh", "delphi", "good-shepherds"):
        page = client.get(f"/g/{game}?lang=en")
        shown = _shown(page.text)
        assert "Fill in the counts to see the totals." in shown
        assert 'class="verdict bad"' not in page.text and "Winner" not in shown and "Draw" not in shown
        assert 'aria-invalid="true"' not in page.text
    ja = client.get("/g/quo-vadis?lang=ja").text
    assert "数を入力すると合計が表示されます。" in ja


def test_a_broken_set_up_download_stays_on_the_page_with_its_text(client: Any) -> None:
    page = client.post("/g/gods/setup.yaml", data={"setup": "game: gods\nplayers: [\n"})
    assert page.status_code == 400 and page.headers["content-type"].startswith("text/html")
    assert "players: [" in html.unescape(page.text) and "setup.yaml:" in page.text
    assert 'id="setup"' in page.text  # the game page, not a dead-end error page


def test_number_inputs_take_a_minus_where_negatives_are_legal(client: Any) -> None:
    page = client.get("/g/good-shepherds?lang=en").text
    money = re.search(r'<input[^>]*name="p0:money"[^>]*>', page)
    assert money and 'inputmode="numeric"' not in money.group(0)  # digits-only keypads have no minus
    assert 'type="number"' in money.group(0) and 'step="1"' in money.group(0)


# -- marks ---------------------------------------------------------------------------------------------


def _cells_of(data: Any) -> set[tuple[int, int]]:
    found = set()
    for item in board._coords(data):
        if isinstance(item[0], int):
            found.add(item)  # type: ignore[arg-type]
    return found


@pytest.mark.parametrize("game", GAMES)
def test_a_marks_centre_lies_in_its_hex(game: str) -> None:
    """Every cell a dealt set-up names, marked as a violation, is ringed around the hex the picture
    draws for it (Ankh's board is turned 30°: the marks turn with it)."""
    from shapely.geometry import Point, Polygon

    from pnpforge.table.setupfile import load_source
    from pnpforge.validator.report import Violation

    text, data = board.deal(game, PLAYERS[game], 7, {})
    loaded = load_source(board.read_text(text, board.SETUP_FILE))
    picture = loaded.rules.picture
    if picture is None:
        pytest.skip(f"{game} draws no board")
    pic = picture(loaded.setup)
    drawn = [Polygon(c.points) for c in pic.cells if len(c.points) == 6]
    cells = sorted(_cells_of(data))
    assert cells, "the dealt set-up names no cells"
    errors = [Violation("test", f"cell {q},{r}", [q, r]) for q, r in cells]
    svg, unmarked = board.marked_svg(pic, errors)
    rings = {
        int(i): (float(x), float(y))
        for i, x, y in re.findall(
            r'class="mark ring" data-error="(\d+)"[^>]*cx="([-\d.]+)" cy="([-\d.]+)"', svg
        )
    }
    shapes = dict(re.findall(r'<polygon class="mark" data-error="(\d+)"[^>]*points="([^"]+)"', svg))
    on_board = [i for i in range(len(cells)) if i not in unmarked]
    assert len(on_board) >= len(cells) * 0.9, f"{len(unmarked)} of {len(cells)} cells not marked"
    if not drawn:  # Quo Vadis: the cells are tiles' places, drawn as spaces with the tile's badge
        circles = re.findall(
            r'<circle class="mark" data-error="(\d+)"[^>]*cx="([-\d.]+)" cy="([-\d.]+)"', svg
        )
        badges = [p.at for p in pic.pieces if p.icon == "badge"]
        spaces = [Polygon(c.points) for c in pic.cells]
        for _index, x, y in circles:
            centre = (float(x), float(y))
            assert any(abs(centre[0] - bx) < 0.01 and abs(centre[1] - by) < 0.01 for bx, by in badges)
            assert any(space.buffer(0.01).contains(Point(centre)) for space in spaces)
        assert len(circles) == len(on_board)
        return
    for index in on_board:
        assert str(index) in shapes, f"{cells[index]}: marked by a loose circle, not its hex"
        centre = Point(rings[index])
        hexes = [h for h in drawn if h.contains(centre)]
        assert len(hexes) == 1, f"{cells[index]}: the ring's centre is in no drawn hex"
        points = [tuple(map(float, p.split(","))) for p in shapes[str(index)].split()]
        assert (
            Polygon(points).equals_exact(hexes[0], 0.01)
            or Polygon(points).symmetric_difference(hexes[0]).area < 0.01 * hexes[0].area
        )


def test_the_sheet_speaks_in_sheet_words_not_file_words(client: Any) -> None:
    ankh = client.post("/g/ankh/score", data={"p0:devotion": "3", "lang": "en"})
    shown = _shown(ankh.text)
    assert "No winner yet: tick “was this the last event of the game” after the last event" in shown
    assert "`final: true`" not in shown
    ja = _shown(client.post("/g/ankh/score", data={"p0:devotion": "3", "lang": "ja"}).text)
    assert "「ゲーム最後のイベントだったか」にチェック" in ja and "final: true" not in ja
    for lang in ("en", "ja"):
        quo = _shown(client.get(f"/g/quo-vadis?lang={lang}").text)
        assert "game.yaml" not in quo and ("3 VP each" in quo or "1つにつき3VP" in quo)


def test_raw_utf8_in_a_form_body_is_read_as_utf8(client: Any) -> None:
    kind = {"content-type": "application/x-www-form-urlencoded"}
    for body in ("p0:name=太郎&p0:villages=2", "p0:name=%E5%A4%AA%E9%83%8E&p0:villages=2"):
        page = client.post("/g/gods/score", content=body.encode(), headers=kind)
        assert page.status_code == 200 and 'name="p0:name" value="太郎"' in page.text
    bad = client.post("/g/gods/score", content=b"p0:name=\xff", headers=kind)
    assert bad.status_code == 400 and "not UTF-8 text" in bad.text


@pytest.mark.parametrize("game", ["ankh", "delphi", "gods", "good-shepherds", "quo-vadis"])
def test_every_cell_of_the_written_steps_is_found_on_the_board(client: Any, game: str) -> None:
    """ "What goes where" names cells as `[q, r]`, which the picture does not label: each is a button
    whose `data-cell` names a ring drawn over that cell of the board."""
    from shapely.geometry import Point, Polygon

    page = client.get(f"/g/{game}?lang=en&players={PLAYERS[game]}&seed=7").text
    steps = page[page.index('class="steps"') : page.index("</details>")]
    named = set(re.findall(r'<button type="button" class="spot" data-cell="(-?\d+,-?\d+)">', steps))
    assert named
    svg = page[page.index("<svg") : page.index("</svg>")]
    spots = {
        c: (float(x), float(y))
        for c, x, y in re.findall(r'class="spot" data-cell="([^"]+)" cx="([-\d.]+)" cy="([-\d.]+)"', svg)
    }
    assert named <= set(spots)
    from pnpforge.table.setupfile import load_source

    text, _ = board.deal(game, PLAYERS[game], 7, {})
    loaded = load_source(board.read_text(text, board.SETUP_FILE))
    pic = loaded.rules.picture(loaded.setup)
    drawn = [Polygon(c.points).buffer(0.01) for c in pic.cells]
    for cell in named:  # each ring is over a space of the board as drawn (turned, for Ankh)
        assert any(space.contains(Point(spots[cell])) for space in drawn), cell


def _catalog_ids() -> set[tuple[str | None, str]]:
    from babel.messages.pofile import read_po

    po = Path(__file__).resolve().parents[1] / "src" / "pnpforge" / "locale" / "ja.po"
    with po.open("rb") as file:
        return {(m.context, m.id) for m in read_po(file) if isinstance(m.id, str) and m.id}


@pytest.mark.parametrize("game", GAMES)
def test_every_row_label_of_the_english_sheet_is_a_catalog_phrase(client: Any, game: str) -> None:
    """A label is a phrase of the catalogs in English too, never a score file's bare key (Ankh's 'bid')."""
    page = client.get(f"/g/{game}").text
    found = re.findall(r'<div class="label">(.*?)(?:<small>.*?)?</div>', page, re.S)  # the hint aside
    labels = [html.unescape(text).strip() for text in found]
    assert labels, game
    ids = _catalog_ids()
    assert [label for label in labels if (game, label) not in ids and (None, label) not in ids] == []


def test_ankh_region_rows_read_as_phrases_not_keys(client: Any) -> None:
    labels = set(re.findall(r'<div class="label">(.*?)</div>', client.get("/g/ankh").text))
    assert {"top", "merge", "name", "card", "bid"}.isdisjoint(labels)
    assert {"Plague of Locusts bid (followers)", "battle card played"} <= labels
