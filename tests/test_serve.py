"""`pnpforge serve` through Starlette's TestClient: every route, each game's deal/check/score round trip
(numbers equal to `pnpforge score` on the downloaded file) and the bad inputs of the CLI tests."""

from __future__ import annotations

import asyncio
import base64
import html
import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from pypdf import PdfReader

from pnpforge import catalog, contract
from pnpforge.cli import main
from pnpforge.errors import InputError
from pnpforge.web import app as web
from pnpforge.web import builds, guards

# every bundled game with rules: what the page deals, checks and scores comes from its GAME alone
GAMES = [g.id for g in catalog.games() if g.bundled and contract.of(g).score is not None]


def _players(game: str) -> int:
    """A table of three, or the nearest count the game's game.yaml allows."""
    low, high = catalog.players_range(catalog.find_game(game))
    return min(max(3, low), high)


PLAYERS = {game: _players(game) for game in GAMES}
EXAMPLES = catalog.BUNDLED_DIR  # <id>/example-score.yaml: each game's example score file


def example_sheet(client: Any, game: str) -> dict[str, str]:
    """The form a table would post for the game's example score file: the file loaded onto the page's
    sheet, read back as a browser would send it (any game with a GAME.score and an example file)."""
    text = (EXAMPLES / game / "example-score.yaml").read_text(encoding="utf-8")
    page = client.post(f"/g/{game}/score", files={"file": ("score.yaml", text.encode())})
    assert page.status_code == 200, page.text[-1500:]
    count = re.search(r'name="count" value="(\d+)"', page.text)
    assert count is not None, "the sheet names no player count"
    return {**_inputs(page.text), "count": count.group(1)}


# hand-typed sheets for the game-specific cases below (a tie, a tie-break, a rule break): form field -> text
SHEETS: dict[str, dict[str, str]] = {
    "gods": {
        **{"p0:name": "Ann", "p0:villages": "2", "p0:vp_cards": "1", "p0:temples": "1", "p0:crystals": "3"},
        **{"p1:name": "Bob", "p1:villages": "1", "p1:vp_cards": "3", "p1:temples": "2", "p1:crystals": "1"},
        **{"p2:name": "Cy", "p2:villages": "1", "p2:vp_cards": "2", "p2:temples": "2", "p2:crystals": "5"},
    },
    "delphi": {
        **{f"p0:{k}": "3" for k in ("shrine", "statue", "offering", "monster")},
        **{"p0:name": "Ann", "p0:zeus": "on", "p0:oracle_cards": "2", "p0:favour": "1"},
        **{f"p1:{k}": "3" for k in ("shrine", "statue", "offering", "monster")},
        **{"p1:name": "Bob", "p1:zeus": "on", "p1:oracle_cards": "2", "p1:favour": "4"},
        **{"p2:name": "Cy", "p2:shrine": "2", "p2:statue": "1"},
    },
    "ankh": {
        **{"p0:name": "Amun", "p0:devotion": "7", "p1:name": "Isis", "p1:devotion": "5", "p2:name": "Anubis"},
        **{"p2:devotion": "6", "g:final": "on", "g:regions.0.name": "1"},
        "e0:regions.0.gods.{player}.figures": "3",
        "e1:regions.0.gods.{player}.figures": "2",
        "e1:regions.0.gods.{player}.temple": "1",
        "e2:regions.0.gods.{player}.figures": "1",
    },
    "good-shepherds": {
        **{"p0:name": "Ann", "p0:money": "40", "p0:sheep": "3", "p0:pastures": "4", "p0:huts": "2"},
        **{"p1:name": "Bob", "p1:money": "35", "p1:sheep": "5", "p1:pastures": "3", "p1:huts": "1"},
    },
    "quo-vadis": {
        **{"g:start_player": "Bob", "p0:name": "Ann", "p0:vp": "20", "p0:towns": "2", "p0:territory": "5"},
        **{"p1:name": "Bob", "p1:vp": "18", "p1:towns": "3", "p1:aptitude_workers": "2"},
        **{"p2:name": "Cy", "p2:vp": "25", "p2:skills": "2"},
        **{f"p0:generations.{k}": str(v) for k, v in enumerate([3, 2, 2, 2, 1, 0])},
        **{f"p1:generations.{k}": str(v) for k, v in enumerate([2, 2, 2, 2, 2, 0])},
        **{f"p2:generations.{k}": str(v) for k, v in enumerate([4, 3, 2, 1, 0, 0])},
    },
}


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Any:
    from starlette.testclient import TestClient

    app = web.create_app(build_root=tmp_path_factory.mktemp("builds"))
    with TestClient(app) as test_client:
        yield test_client


def _cli_score(path: Path) -> tuple[int, Any]:
    result = CliRunner().invoke(main, ["score", str(path), "--json"])
    return result.exit_code, json.loads(result.stdout) if result.stdout.strip() else None


def test_index_lists_every_game(client: Any) -> None:
    page = client.get("/", headers={"accept-language": "en"})
    assert page.status_code == 200
    for game in GAMES:
        assert f'href="/g/{game}?lang=en"' in page.text


def test_language_follows_the_browser_and_the_switch(client: Any) -> None:
    assert "ゴッド" in client.get("/g/gods", headers={"accept-language": "ja,en;q=0.5"}).text
    english = client.get("/g/gods?lang=en", headers={"accept-language": "ja"}).text
    assert "<h1>Gods</h1>" in english and 'lang="en"' in english
    assert "得点" in client.get("/g/gods?lang=ja").text


def test_pages_load_nothing_from_elsewhere(client: Any) -> None:
    page = client.get("/g/delphi")
    assert page.headers["content-security-policy"].startswith("default-src 'self'")
    assert page.headers["x-frame-options"] == "DENY"
    assert not re.search(r'(src|href)="(https?:)?//', page.text)  # no CDN: works offline


def test_static_files_are_served(client: Any) -> None:
    assert "fetch(" in client.get("/static/app.js").text
    assert "grid-template-columns" in client.get("/static/app.css").text


@pytest.mark.parametrize("game", GAMES)
def test_deal_then_check_round_trip(client: Any, game: str, tmp_path: Path) -> None:
    page = client.post(f"/g/{game}/deal", data={"players": str(PLAYERS[game]), "seed": "11"})
    assert page.status_code == 200, page.text
    assert '<strong id="seed">11</strong>' in page.text
    assert 'data-valid="yes"' in page.text and "<svg" in page.text
    dealt = _textarea(page.text)
    cli = CliRunner().invoke(main, ["setup", game, "--players", str(PLAYERS[game]), "--seed", "11"])
    assert dealt == cli.stdout  # the same file `pnpforge setup` prints
    checked = client.post(f"/api/g/{game}/check", data={"setup": dealt})
    assert checked.status_code == 200 and checked.json()["report"]["valid"] is True
    # the picture's title and legend come beside the board, as `setup --draw` writes them in its SVG
    players, out = str(PLAYERS[game]), str(tmp_path / "s.yaml")
    drawn = CliRunner().invoke(
        main,
        ["setup", game, "--players", players, "--seed", "11", "-o", out, "--draw", str(tmp_path / "b.svg")],
    )
    assert drawn.exit_code == 0, drawn.output
    texts = [
        html.unescape(t) for t in re.findall(r"<text[^>]*>([^<]*)</text>", (tmp_path / "b.svg").read_text())
    ]
    said = checked.json()
    assert said["title"] == texts[0] and said["legend"]
    assert [key["text"] for key in said["legend"]] == texts[-len(said["legend"]) :]
    for key in said["legend"]:
        assert base64.b64decode(key["swatch"].removeprefix("data:image/svg+xml;base64,")).startswith(b"<svg")
    assert said["title"] not in said["svg"]  # the board itself is drawn without them
    download = client.post(f"/g/{game}/setup.yaml", data={"setup": dealt})
    assert download.status_code == 200 and download.text == dealt
    assert "attachment" in download.headers["content-disposition"]


def _textarea(html: str) -> str:
    import html as entities

    found = re.search(r'<textarea name="setup"[^>]*>(.*?)</textarea>', html, re.S)
    assert found
    return entities.unescape(found.group(1))


def test_check_marks_a_violation_on_the_board(client: Any) -> None:
    dealt = CliRunner().invoke(main, ["setup", "delphi", "--players", "3", "--seed", "7"]).stdout
    legal = "{at: [-3, -4], colour: red, count: 3}"
    broken = dealt.replace(legal, "{at: [4, -5], colour: red, count: 3}")
    page = client.post("/g/delphi/check", files={"file": ("mine.yaml", broken.encode())})
    assert page.status_code == 200
    assert 'data-valid="no"' in page.text and "<code>statue-wrong-city</code>" in page.text
    assert re.search(r'<polygon class="mark" data-error="0" data-code="statue-wrong-city"', page.text)
    api = client.post("/api/g/delphi/check", data={"setup": broken}).json()
    assert [e["code"] for e in api["report"]["errors"]] == ["statue-wrong-city"] and api["unmarked"] == []


@pytest.mark.parametrize("game", GAMES)
def test_score_sheet_agrees_with_pnpforge_score(client: Any, game: str, tmp_path: Path) -> None:
    form = example_sheet(client, game)
    api = client.post(f"/api/g/{game}/score", data=form)
    assert api.status_code == 200, api.json()["problems"]
    scored = api.json()
    download = client.post(f"/g/{game}/score.yaml", data=form)
    assert download.status_code == 200 and download.text == scored["yaml"]
    path = tmp_path / "score.yaml"
    path.write_text(download.text, encoding="utf-8")
    code, cli = _cli_score(path)
    assert code == 0
    page = scored["result"]
    assert [(p["name"], p["total"], p["breakdown"]) for p in page["players"]] == [
        (p["name"], p["total"], p["breakdown"]) for p in cli["players"]
    ]
    assert page["winners"] == cli["winners"] and page["tiebreak"] == cli["tiebreak"]
    html = client.post(f"/g/{game}/score", data=form)  # the same sheet submitted without JavaScript
    assert html.status_code == 200 and page["verdict"] in html.text.replace("&#39;", "'")


@pytest.mark.parametrize("game", GAMES)
def test_a_downloaded_score_file_loads_back_onto_the_sheet(client: Any, game: str) -> None:
    form = example_sheet(client, game)
    download = client.post(f"/g/{game}/score.yaml", data=form).text
    page = client.post(f"/g/{game}/score", files={"file": ("score.yaml", download.encode())})
    assert page.status_code == 200, page.text[-1500:]
    again = client.post(f"/g/{game}/score.yaml", data={**_inputs(page.text), "count": form["count"]})
    assert again.text == download  # the sheet shows exactly what the file holds


def _inputs(html: str) -> dict[str, str]:
    """The values a browser would post from the score sheet on a page."""
    import html as entities

    sheet_form = html[html.index('id="sheet"') : html.index("</form>", html.index('id="sheet"'))]
    values = {}
    for tag in re.findall(r"<input [^>]*>", sheet_form):
        name = re.search(r'name="([^"]+)"', tag)
        value = re.search(r'value="([^"]*)"', tag)
        if not name or 'type="hidden"' in tag:
            continue
        if 'type="checkbox"' in tag:
            if " checked" in tag:
                values[entities.unescape(name.group(1))] = "on"
        elif value:
            values[entities.unescape(name.group(1))] = entities.unescape(value.group(1))
    for select in re.findall(r'<select name="([^"]+)"[^>]*>(.*?)</select>', sheet_form, re.S):
        chosen = re.search(r'<option value="([^"]*)" selected>', select[1])  # the value, not what is shown
        if chosen:
            values[entities.unescape(select[0])] = entities.unescape(chosen.group(1))
    return values


def test_a_score_file_of_another_game_is_refused(client: Any) -> None:
    page = client.post("/g/gods/score", files={"file": ("x.yaml", b"game: delphi\nplayers: []\n")})
    assert page.status_code == 400 and "score.yaml:1:7: this is a delphi score file, not gods" in page.text


def test_score_names_the_tie_break_that_decided(client: Any) -> None:
    form = {"count": "3", **SHEETS["delphi"]}
    result = client.post("/api/g/delphi/score", data=form).json()["result"]
    assert result["winners"] == ["Bob"] and "favour" in result["verdict"]


def test_rule_breaks_show_next_to_their_field_with_the_cli_code(client: Any) -> None:
    form = {"count": "3", **SHEETS["gods"], "p0:villages": "7"}
    answer = client.post("/api/g/gods/score", data=form)
    assert answer.status_code == 400
    problems = answer.json()["problems"]
    assert {"p0:villages"} <= {p["field"] for p in problems}
    assert "too-many-villages" in {p["code"] for p in problems}
    page = client.post("/g/gods/score", data=form)
    assert page.status_code == 400 and "[too-many-villages]" in page.text


def test_non_numbers_get_the_cli_message_on_their_field(client: Any, tmp_path: Path) -> None:
    form = {"count": "2", "p0:name": "Ann", "p0:villages": "three", "p1:name": "Bob", "p1:temples": "1.5"}
    problems = client.post("/api/g/gods/score", data=form).json()["problems"]
    by_field = {p["field"]: p for p in problems}
    assert "expected a whole number" in by_field["p0:villages"]["message"]
    assert "expected a whole number" in by_field["p1:temples"]["message"]
    path = tmp_path / "score.yaml"
    path.write_text(client.post("/g/gods/score.yaml", data=form).text, encoding="utf-8")
    cli = CliRunner().invoke(main, ["score", str(path)])
    assert cli.exit_code == 2
    for problem in problems:  # the page's message is the CLI's line for the downloaded file
        assert f"error: {problem['where'].replace('score.yaml', str(path), 1)}" in cli.output


def test_players_are_added_and_removed_within_the_games_range(client: Any) -> None:
    page = client.post("/g/gods/score", data={"count": "2", "action": "add"})
    assert page.status_code == 200 and 'name="p2:name"' in page.text and 'name="p3:name"' not in page.text
    page = client.post("/g/gods/score", data={"count": "4", "action": "add"})
    assert page.status_code == 400 and "gods is played by 2–4 players, not 5" in page.text
    api = client.post("/api/g/gods/score", data={"count": "1"})
    assert api.status_code == 400 and "not 1" in api.json()["problems"][0]["message"]


def test_good_shepherds_carries_money_to_the_next_settlement(client: Any) -> None:
    form = {"count": "2", "p0:money": "10", "p0:sheep": "2", "p0:pastures": "3", "p1:huts": "1"}
    scored = client.post("/api/g/good-shepherds/score", data=form).json()
    totals = [p["total"] for p in scored["result"]["players"]]
    assert scored["carry"] == {"p0:money": totals[0], "p1:money": totals[1]}
    page = client.post("/g/good-shepherds/score", data={**form, "action": "next"})
    assert f'name="p0:money" value="{totals[0]}"' in page.text
    assert '<p class="round" id="round">Round 2</p>' in page.text


def test_ankh_conflict_for_one_region(client: Any) -> None:
    form = {"count": "3", **SHEETS["ankh"], "g:final": ""}
    result = client.post("/api/g/ankh/score", data=form).json()["result"]
    assert result["tables"][0]["title"].startswith("Conflict")
    assert [row[0] for row in result["tables"][0]["rows"]] == ["1"] * len(result["tables"][0]["rows"])
    bad = {**form, "e0:regions.0.gods.{player}.card": "no-such-card"}
    problems = client.post("/api/g/ankh/score", data=bad).json()["problems"]
    assert problems[0]["field"] == "e0:regions.0.gods.{player}.card"
    assert "unknown battle card 'no-such-card'" in problems[0]["message"]


def test_deal_options_with_known_values_are_pickers(client: Any) -> None:
    """An option whose values a game declares is a select (no typing a scenario's name on a phone)."""
    scenarios = list(contract.load("ankh").dealer().choices()["scenario"])
    page = client.get("/g/ankh?lang=en").text
    assert '<select name="opt:scenario">' in page
    assert all(f'<option value="{name}">' in page for name in scenarios)  # said in words: test_option_values
    dealt = client.post("/g/ankh/deal", data={"players": "3", "seed": "1", "opt:scenario": scenarios[-1]})
    assert dealt.status_code == 200 and f'<option value="{scenarios[-1]}" selected>' in dealt.text
    gods = client.get("/g/gods?lang=en").text
    assert '<select name="opt:variant">' in gods and gods.count('<select name="opt:gods">') == 4  # per seat


def test_ankh_players_start_as_gods(client: Any) -> None:
    """Ankh's players are their gods: an untouched sheet names gods, so it scores without an error."""
    page = client.get("/g/ankh?lang=en").text
    assert '<datalist id="player-names"><option value="Amun">' in page and 'placeholder="Amun"' in page
    form = {k: v for k, v in {"count": "2", **SHEETS["ankh"]}.items() if not k.endswith(":name")}
    scored = client.post("/api/g/ankh/score", data=form).json()
    assert not scored["problems"], scored["problems"]
    assert [p["name"] for p in scored["result"]["players"]][:2] != ["Player 1", "Player 2"]


def test_quo_vadis_generation_bonus(client: Any) -> None:
    form = {"count": "3", **SHEETS["quo-vadis"]}
    result = client.post("/api/g/quo-vadis/score", data=form).json()["result"]
    bonus = [k for k in result["players"][0]["breakdown"] if "generation" in k]
    assert bonus, result["players"][0]["breakdown"]
    page = client.get("/g/quo-vadis").text
    assert all(f'name="p0:generations.{k}"' in page for k in range(6))


@pytest.mark.parametrize("kind", ["png", "pdf"])
def test_share_the_table_as_an_image(client: Any, kind: str) -> None:
    form = {"count": "3", **SHEETS["gods"], "p0:name": "あん"}
    answer = client.post(f"/g/gods/score.{kind}", data=form)
    assert answer.status_code == 200
    if kind == "png":
        from PIL import Image

        image = Image.open(io.BytesIO(answer.content))
        assert image.width > 300 and image.height > 100
    else:
        text = PdfReader(io.BytesIO(answer.content)).pages[0].extract_text()
        assert "Bob" in text and "13" in text


def test_only_the_three_share_formats_exist(client: Any) -> None:
    assert client.post("/g/gods/score.exe", data={"count": "2"}).status_code == 404


def test_whole_score_file_api_matches_the_cli(client: Any) -> None:
    text = "game: gods\nplayers: [{name: Ann, villages: 2}, {name: Bob, vp_cards: 4}]\n"
    answer = client.post("/api/score", content=text.encode(), headers={"content-type": "application/yaml"})
    assert answer.status_code == 200 and answer.json()["winners"] == ["Bob"]
    broken = client.post(
        "/api/score", content=b"game: gods\nplayers: [{name: Ann, villages: 9}, {name: B}]\n"
    )
    assert broken.status_code == 422 and broken.json()["errors"][0]["code"] == "too-many-villages"


@pytest.mark.parametrize(
    ("game", "key"), [("quo-vadis", "map"), ("ankh", "setup"), ("good-shepherds", "farm")]
)
def test_score_files_never_make_the_server_read_a_file(
    client: Any, game: str, key: str, tmp_path: Path
) -> None:
    secret = tmp_path / "setup.yaml"
    secret.write_text(f"game: {game}\n", encoding="utf-8")
    text = f"game: {game}\n{key}: {secret}\nplayers: [{{name: Amun}}, {{name: Isis}}, {{name: Ra}}]\n"
    answer = client.post("/api/score", content=text.encode())
    assert answer.status_code == 400
    message = f"the server reads no files: give the set-up inline under {key!r}, not a path"
    assert answer.json()["problems"][0]["where"] == f"score.yaml:2:{len(key) + 3}: {message}"


# -- bad input: the CLI tests' cases, posted to the endpoints ----------------------------------------

SETUP_CASES = [
    ("game: delphi\nplayers: [\n", "setup.yaml:3:1: YAML syntax error"),
    ("- just\n- a list\n", "setup.yaml:1:1: a set-up file must be a mapping"),
    ("players: 2\n", "missing key 'game'"),
    ("game: chess\n", "setup.yaml:1:7: unknown game 'chess'"),
    ("game: delphi\nplayers: 9\n", "setup.yaml:2:10: The Oracle of Delphi is for 2-4 players, not 9"),
    ("game: gods\nplayers: 2\n", "setup.yaml:1:7: this is a gods set-up, not delphi"),
    ("", "empty set-up file"),
    ("\x00\x01binary", "setup.yaml"),
]


@pytest.mark.parametrize(("text", "expected"), SETUP_CASES)
def test_bad_setup_files(client: Any, text: str, expected: str) -> None:
    for url in ("/g/delphi/check", "/api/g/delphi/check"):
        answer = client.post(url, data={"setup": text})
        assert answer.status_code == 400, answer.text
        assert expected in answer.text.replace("&#39;", "'"), answer.text[-2000:]
        assert "Traceback" not in answer.text


SCORE_CASES = [
    (
        "game: gods\nplayers: [{name: Ann, villages: 1.5}, {name: Bob}]\n",
        "score.yaml:2:33: expected a whole number",
    ),
    ("game: gods\nplayers: [{name: Ann}, {name: Ann}]\n", "score.yaml:2:31: player 'Ann' is listed twice"),
    ("game: gods\nplayers: [{name: Ann}, {name: Bob}, {name: C}, {name: D}, {name: E}]\n", "not 5"),
    ("game: gods\nplayers: [{name: Ann, money: 3}, {name: Bob}]\n", "it is a field of good-shepherds"),
    ("game: chess\nplayers: []\n", "score.yaml:1:7: unknown game 'chess'"),
    ("players: []\n", "missing key 'game'"),
    ("game: gods\nplayers: [{name: Ann}\n", "YAML syntax error"),
]


@pytest.mark.parametrize(("text", "expected"), SCORE_CASES)
def test_bad_score_files(client: Any, text: str, expected: str) -> None:
    answer = client.post("/api/score", content=text.encode())
    assert answer.status_code == 400
    assert any(expected in p["where"] for p in answer.json()["problems"]), answer.json()


@pytest.mark.parametrize(
    ("form", "expected"),
    [
        ({"players": "9"}, "delphi is for 2 to 4 players (got «Players» 9)"),  # the page's fields, not flags
        ({"players": "two"}, "Players: 'two' is not a valid integer."),
        ({"players": "3", "seed": "x"}, "Seed: 'x' is not a valid integer."),
        ({"players": "3", "seed": "1" * 20}, "Seed: number too large (expected at most 18 digits)"),
        ({"players": "2", "opt:short": "maybe"}, "«Short game»='maybe': expected true or false"),
        ({"players": "2", "opt:remove": "9"}, "expected a whole number from 0 to 4"),
    ],
)
def test_bad_deal_requests(client: Any, form: dict[str, str], expected: str) -> None:
    answer = client.post("/g/delphi/deal", data=form)
    assert answer.status_code == 400 and expected in answer.text.replace("&#39;", "'")
    assert "--" not in answer.text.split('class="problems"')[1].split("</ul>")[0]


@pytest.mark.parametrize(
    "request_",
    [
        ("get", "/g/chess"),
        ("post", "/g/chess/deal"),
        ("post", "/g/chess/check"),
        ("post", "/g/chess/score"),
        ("post", "/api/g/chess/score"),
        ("post", "/g/chess/build"),
        ("get", "/g/chess/build/a4-en-long/chess.pdf"),
    ],
)
def test_unknown_game_is_404_with_the_cli_message(client: Any, request_: tuple[str, str]) -> None:
    method, url = request_
    answer = getattr(client, method)(url)
    assert answer.status_code == 404
    assert "unknown game &#39;chess&#39;" in answer.text or "unknown game 'chess'" in answer.text


def test_oversize_bodies_get_413(client: Any) -> None:
    big = "# " + "x" * guards.MAX_BODY + "\ngame: delphi\n"
    assert client.post("/g/delphi/check", data={"setup": big}).status_code == 413
    assert client.post("/api/score", content=big.encode()).status_code == 413

    def chunks() -> Any:  # no Content-Length: counted as it streams in
        for _ in range(20):
            yield b"x" * 100_000

    answer = client.post("/api/score", content=chunks(), headers={"content-type": "application/yaml"})
    assert answer.status_code == 413


def test_bad_build_choice_and_a_real_build(client: Any) -> None:
    bad = client.post("/g/good-shepherds/build", data={"page": "a0"})
    assert bad.status_code == 400 and "Paper &#39;a0&#39;: expected one of a4, letter" in bad.text
    page = client.post("/g/good-shepherds/build", data={"page": "letter", "pdf_lang": "en", "duplex": "long"})
    assert page.status_code == 200, page.text[-2000:]
    link = re.search(r'href="(/g/good-shepherds/build/letter-en-long/good-shepherds\.pdf)"', page.text)
    assert link
    pdf = client.get(link.group(1))
    assert pdf.status_code == 200
    box = PdfReader(io.BytesIO(pdf.content)).pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) in ((612, 792), (792, 612))  # US Letter
    thumbs = re.findall(r'<img src="(/g/good-shepherds/build/letter-en-long/[^"]+\.png)"', page.text)
    assert thumbs and client.get(thumbs[0]).headers["content-type"] == "image/png"
    assert client.get("/g/good-shepherds/build/letter-en-long/..%2F..%2Fetc%2Fpasswd").status_code == 404


def test_a_build_refused_names_the_line_of_the_spec(
    client: Any, tiny_quest: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The page builds through the build function in a worker: a bad spec comes back as located problems
    (the file, line and column of the spec), said in the page's language."""
    import shutil

    folder = tmp_path / "more" / "broken"
    shutil.copytree(tiny_quest, folder)
    spec = folder / "game.yaml"
    spec.write_text(spec.read_text(encoding="utf-8").replace("csv: heroes.csv", "csv: nothere.csv"), "utf-8")
    line = spec.read_text(encoding="utf-8").splitlines().index("    csv: nothere.csv") + 1
    monkeypatch.setenv(catalog.GAMES_DIR_ENV, str(tmp_path / "more"))
    choice = {"page": "a4", "pdf_lang": "en", "duplex": "long"}
    for lang, words in (("en", "not found"), ("ja", "が見つかりません")):
        page = client.post(f"/g/broken/build?lang={lang}", data={**choice, "lang": lang})
        assert page.status_code == 400
        said = html.unescape(page.text)
        assert f"game.yaml:{line}:10:" in said and "nothere.csv" in said and words in said, said[-3000:]
    jobs = builds.Builds(tmp_path / "jobs", 60.0)
    try:  # the problem itself, as the worker gave it: located in the spec, not a line of text at 0:0
        with pytest.raises(InputError) as refused:
            asyncio.run(
                builds.run_build(jobs, catalog.find_game("broken"), choice | {"lang": "en"}, tmp_path)
            )
    finally:
        jobs.close()
    (problem,) = refused.value.problems
    assert (Path(problem.file), problem.line, problem.col) == (spec, line, 10)
    assert not list((tmp_path / "jobs").iterdir())  # the refused build's folder is gone


def test_inventory_is_listed(client: Any) -> None:
    page = client.get("/g/gods?lang=en").text
    assert "Hex tiles (one common back)" in page


def test_a_game_from_games_dir_gets_its_page(
    client: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import shutil

    folder = tmp_path / "more" / "gods-copy"
    shutil.copytree(catalog.BUNDLED_DIR / "gods", folder)  # its id is its folder's: no file changes
    monkeypatch.setenv(catalog.GAMES_DIR_ENV, str(tmp_path / "more"))
    assert "gods-copy" in client.get("/").text
    page = client.get("/g/gods-copy")
    assert page.status_code == 200 and 'name="p0:villages"' in page.text
    dealt = client.post("/g/gods-copy/deal", data={"players": "2", "seed": "3"})
    assert dealt.status_code == 200 and 'data-valid="yes"' in dealt.text


def test_serve_is_a_cli_command_with_an_example() -> None:
    result = CliRunner().invoke(main, ["serve", "--help"])
    assert result.exit_code == 0 and "Example:" in result.output and "--host" in result.output


@pytest.mark.parametrize("host", ["127.0.0.1", "0.0.0.0"])
def test_serve_prints_its_address_and_a_qr_code_on_the_lan(
    monkeypatch: pytest.MonkeyPatch, host: str
) -> None:
    import uvicorn

    started: dict[str, Any] = {}

    def run(server: uvicorn.Server) -> None:
        started.update(host=server.config.host, port=server.config.port, app=server.config.app)
        started["stop"] = server.config.timeout_graceful_shutdown

    monkeypatch.setattr(uvicorn.Server, "run", run)
    result = CliRunner().invoke(main, ["serve", "--host", host, "--port", "8123"])
    assert result.exit_code == 0, result.output
    assert started["host"] == host and started["port"] == 8123 and callable(started["app"])
    assert started["stop"] is not None and started["stop"] < 1  # Ctrl+C does not wait for slow requests
    address = re.search(r"pnpforge table page: (http://\S+:8123/)", result.output)
    assert address
    from starlette.testclient import TestClient

    shown = address.group(1).rstrip("/")  # the printed address is answered, any other Host is not
    with TestClient(started["app"], base_url=shown) as printed:
        assert printed.get("/static/app.css").status_code == 200
        assert printed.get("/static/app.css", headers={"host": "evil.example"}).status_code == 400
    blocks = sum(line.count("█") + line.count("▀") + line.count("▄") for line in result.output.splitlines())
    if host == "127.0.0.1":
        assert address.group(1) == "http://127.0.0.1:8123/" and blocks == 0
    else:
        assert "Scan to open it" in result.output and blocks > 200  # a QR code drawn in the terminal


def test_fuzzed_forms_never_crash_the_server(client: Any) -> None:
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    junk = st.text(st.characters(codec="utf-8"), max_size=40)
    names = ["count", "p0:name", "p0:villages", "p1:temples", "p0:zeus", "g:final", "g:regions.0.name"]
    names += ["e0:regions.0.gods.{player}.card", "p0:generations.3", "g:start_player", "g:settlement.cards"]

    @settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
    @given(st.sampled_from(GAMES), st.dictionaries(st.sampled_from(names), junk, max_size=6), junk)
    def post(game: str, form: dict[str, str], text: str) -> None:
        for url, data in (
            (f"/api/g/{game}/score", form),
            (f"/g/{game}/deal", form),
            (f"/api/g/{game}/check", {"setup": text}),
        ):
            answer = client.post(url, data=data)
            assert answer.status_code < 500, (url, data, answer.text[-500:])
        assert client.post("/api/score", content=text.encode()).status_code < 500

    post()


def test_the_cli_does_not_import_the_web_stack() -> None:
    import subprocess
    import sys

    code = "import sys, pnpforge.cli; print(sorted({m.split('.')[0] for m in sys.modules}))"
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    for heavy in ("starlette", "uvicorn", "jinja2", "segno", "multipart"):
        assert f"'{heavy}'" not in loaded


def test_builds_run_one_at_a_time_per_game(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import asyncio

    running: list[str] = []
    most: list[int] = [0]
    runs: list[str] = []

    async def slow_build(builds: Any, game: Any, choice: dict[str, str], folder: Path, lang: str) -> None:
        running.append(game.id)
        most[0] = max(most[0], running.count(game.id))
        runs.append(game.id)
        await asyncio.sleep(0.05)
        folder.mkdir(parents=True)
        (folder / f"{game.id}.pdf").write_bytes(b"%PDF")
        running.remove(game.id)

    monkeypatch.setattr(builds, "run_build", slow_build)
    jobs = builds.Builds(tmp_path, 5.0)
    gods, ankh = catalog.find_game("gods"), catalog.find_game("ankh")
    choice = {"page": "a4", "lang": "en", "duplex": "long"}

    async def clicks() -> list[dict[str, Any]]:
        return await asyncio.gather(*(builds.build(jobs, g, choice) for g in (gods, gods, gods, ankh)))

    results = asyncio.run(clicks())
    assert most[0] == 1  # never two builds of one game at once
    assert sorted(runs) == ["ankh", "gods"]  # the clicks that waited found the first build's files
    assert [r["pdf"] for r in results] == ["gods.pdf", "gods.pdf", "gods.pdf", "ankh.pdf"]


def test_a_build_over_its_time_limit_is_stopped(tmp_path: Path) -> None:
    from starlette.testclient import TestClient

    with TestClient(web.create_app(build_seconds=0.05, build_root=tmp_path)) as quick:
        answer = quick.post("/g/gods/build", data={"page": "a4", "pdf_lang": "en", "duplex": "long"})
    assert answer.status_code == 503
    assert "the build took longer than 0.05 s and was stopped" in answer.text
    assert not list(tmp_path.glob("gods/*/gods.pdf"))


def test_a_game_with_only_a_spec_gets_a_print_page(client: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(catalog.GAMES_DIR_ENV, str(Path(__file__).parents[1] / "examples"))
    page = client.get("/g/tiny-quest?lang=en")
    assert page.status_code == 200
    assert 'id="print"' in page.text and 'id="score"' not in page.text and 'id="setup"' not in page.text
    for url in ("/g/tiny-quest/score", "/g/tiny-quest/deal", "/g/tiny-quest/check"):
        answer = client.post(url, data={"players": "2", "setup": "game: tiny-quest\n"})
        assert answer.status_code == 400 and "tiny-quest" in answer.text


@pytest.mark.parametrize("game", GAMES)
def test_the_japanese_sheet_asks_every_question_in_the_games_own_words(client: Any, game: str) -> None:
    import html

    scorer = contract.load(game).scorer()
    tr = contract.load(game).translator("ja")
    page = html.unescape(client.get(f"/g/{game}?lang=ja").text)
    for f in scorer.fields:
        for english in (f.label, f.rule):
            assert tr(english) != english, f"{game}: no Japanese for {english!r}"
            # the sheet leaves out notes on the designer's files ("(game.yaml: scoring values, town)")
            assert re.sub(r"\s*[(（][\w.]+\.yaml:[^)）]*[)）]", "", tr(english)) in page
            assert f">{english}<" not in page and f'"{english}' not in page, english
    english_page = html.unescape(client.get(f"/g/{game}?lang=en").text)
    assert all(f.label in english_page for f in scorer.fields)  # English stays the default


def test_the_japanese_verdict_names_the_winner_and_the_tie_break(client: Any) -> None:
    tied = {**SHEETS["gods"], "p1:vp_cards": "3", "p1:temples": "1", "p2:vp_cards": "3", "p2:temples": "1"}
    ja = client.post("/g/gods/score", data={**tied, "count": "3", "lang": "ja"}).text
    en = client.post("/g/gods/score", data={**tied, "count": "3", "lang": "en"}).text
    verdict = re.search(r'id="verdict"[^>]*>([^<]*)<', ja)
    assert verdict is not None
    assert verdict.group(1) == "勝者: Cy(13点で同点、エネルギークリスタルで決定)。"
    assert re.search(r'id="verdict"[^>]*>Winner: Cy \(tied on 13; decided by crystals\)\.<', en)
    assert "<th>村落カード</th>" in ja and "<th>神殿ボーナス</th>" in ja and "<th>villages</th>" not in ja
    assert "<th>villages</th>" in en
    plain = client.post("/g/gods/score", data={**SHEETS["gods"], "count": "3", "lang": "ja"}).text
    assert re.search(r'id="verdict"[^>]*>勝者: \w+\(\d+点\)。<', plain)


def test_unnamed_players_are_named_in_the_pages_language(client: Any) -> None:
    """An empty name field scores as its placeholder says: "プレイヤー 1" on the Japanese page."""
    for lang, word in (("ja", "プレイヤー"), ("en", "Player")):
        scored = client.post("/api/g/gods/score", data={"count": "2", "lang": lang}).json()
        assert [p["name"] for p in scored["result"]["players"]] == [f"{word} 1", f"{word} 2"]
