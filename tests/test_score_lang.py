"""The Japanese score sheet: the table page with `?lang=ja` and `pnpforge score --lang ja`.

What a player reads must be Japanese: choice values (their submitted values unchanged), sentences with
numbers inside (a `Phrase` said through the game's `JA` table), the log tables, the headings. Player
names and numbers stay as given; English output stays what it was.
"""

from __future__ import annotations

import copy
import html
import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from test_serve import PLAYERS, SHEETS, example_sheet

from pnpforge import catalog
from pnpforge.cli import main
from pnpforge.scoring import Phrase

REPO = Path(__file__).parents[1]
GAMES = sorted(PLAYERS)
LATIN_WORD = re.compile(r"[A-Za-z]{2,}")


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Any:
    from starlette.testclient import TestClient

    from pnpforge.web import app as web

    with TestClient(web.create_app(build_root=tmp_path_factory.mktemp("builds"))) as test_client:
        yield test_client


def _options(page: str) -> list[tuple[str, str]]:
    """(submitted value, shown text) of every option of every select on the page."""
    return [
        (html.unescape(value), html.unescape(shown))
        for value, shown in re.findall(r'<option value="([^"]*)"[^>]*>([^<]*)</option>', page)
    ]


def _result(page: str) -> str:
    """The result block under the sheet, as text (tags dropped)."""
    start = page.index(">", page.index('id="result"')) + 1
    block = page[start : page.index("</form>", start)]
    return html.unescape(re.sub(r"<[^>]+>", " ", block))


def _english(text: str, names: set[str]) -> set[str]:
    """Latin-letter words in `text` that are not a player's name (nor the codes ``VP`` and ``YAML``)."""
    return set(LATIN_WORD.findall(text)) - names - {"VP", "YAML", "PDF", "PNG"}


def _score_ja(client: Any, game: str, **changes: str) -> str:
    form = {**SHEETS[game], "count": str(PLAYERS[game]), "lang": "ja", **changes}
    answer = client.post(f"/g/{game}/score", data=form)
    assert answer.status_code == 200, answer.text[-2000:]
    return answer.text


@pytest.mark.parametrize("game", GAMES)
def test_every_choice_on_the_japanese_page_is_shown_in_japanese(client: Any, game: str) -> None:
    """Deal pickers, sheet choices, paper and PDF language: shown in Japanese, submitted unchanged."""
    page = client.get(f"/g/{game}?lang=ja").text
    options = _options(page)
    assert options, game
    english = [(value, shown) for value, shown in options if LATIN_WORD.search(shown)]
    assert english == [], english
    english_page = client.get(f"/g/{game}?lang=en").text
    assert [value for value, _ in _options(english_page)] == [value for value, _ in options]


def test_the_choices_keep_their_values_and_say_the_rulebooks_words(client: Any) -> None:
    shepherds = dict(_options(client.get("/g/good-shepherds?lang=ja").text))
    assert shepherds["settlement"] == "決算" and shepherds["no-placement"].startswith("ユニットを置けない")
    gods = dict(_options(client.get("/g/gods?lang=ja").text))
    assert gods["stack"].startswith("タイルの山") and gods["bag"].startswith("袋")
    ankh = dict(_options(client.get("/g/ankh?lang=ja").text))
    assert (ankh["OldKingdom"], ankh["MiddleKingdom"], ankh["temple"]) == ("古王国", "中王国", "神殿")
    delphi = dict(_options(client.get("/g/delphi?lang=ja").text))
    assert delphi["true"].startswith("はい") and delphi["false"].startswith("いいえ")
    # a Japanese choice scores as its value: the immediate end of Good Shepherds
    ended = _score_ja(client, "good-shepherds", **{"g:ending": "no-placement"})
    assert "ユニットを一切置けなくなったプレイヤーがいるため" in _result(ended)


@pytest.mark.parametrize("game", GAMES)
def test_the_japanese_result_has_no_english_left(client: Any, game: str) -> None:
    """The game's example score file on the Japanese sheet: only players' names stay in Latin letters."""
    form = example_sheet(client, game)
    names = {v for k, v in form.items() if k.endswith(":name")} | {form.get("g:start_player", "")}
    answer = client.post(f"/g/{game}/score", data={**form, "lang": "ja"})
    assert answer.status_code == 200, answer.text[-2000:]
    shown = _result(answer.text)
    assert _english(shown, names) == set(), shown


def test_sentences_with_numbers_are_said_in_japanese(client: Any) -> None:
    ends = _result(_score_ja(client, "good-shepherds", **{"p0:money": "95"}))
    assert "ゲームはただちに終了します: Annは117金(" in ends and "The game ends" not in ends
    settlement = {"g:settlement.player": "Ann", "g:settlement.cards": "4", "g:settlement.areas": "5"}
    change = _result(_score_ja(client, "quo-vadis", **settlement))
    assert "世代交代の決算: Annは 枚数4 × 支配力数5 = 20VP を得ます。" in change
    assert "Generation change" not in change
    battle = _result(_score_ja(client, "ankh"))
    assert "総戦力 Amun 3、Isis 2、Anubis 1: Amunの勝利" in battle and "strength" not in battle
    delphi = _result(_score_ja(client, "delphi"))
    assert "進み具合(タスク12)" in delphi and "はい" in delphi and "Progress" not in delphi


def test_the_first_rule_break_of_an_empty_quo_vadis_sheet_is_japanese(client: Any) -> None:
    # counted as it is (an untouched sheet shows no verdict until Count: issue 21)
    page = html.unescape(client.post("/g/quo-vadis/score", data={"lang": "ja", "action": "count"}).text)
    assert "プレイヤー 1が配置した世代のカードは0枚です" in page and "placed 0 generation cards" not in page
    english = html.unescape(client.post("/g/quo-vadis/score", data={"lang": "en", "action": "count"}).text)
    assert "Player 1 placed 0 generation cards" in english


def test_ankh_seats_are_offered_as_the_gods_japanese_names_and_score_as_them(client: Any) -> None:
    page = client.get("/g/ankh?lang=ja").text
    assert '<option value="アムン">' in page and 'placeholder="アムン"' in page
    form = {
        k: v for k, v in {"count": "3", "lang": "ja", **SHEETS["ankh"]}.items() if not k.endswith(":name")
    }
    scored = client.post("/api/g/ankh/score", data=form).json()
    assert not scored["problems"], scored["problems"]
    assert scored["result"]["winners"] == ["アムン"]
    assert scored["result"]["said"] == "勝者: アムン(8点)。"


def test_the_shared_table_is_in_the_pages_language(client: Any) -> None:
    form = {**SHEETS["gods"], "count": "3"}
    ja = client.post("/api/g/gods/score", data={**form, "lang": "ja"}).json()["result"]
    en = client.post("/api/g/gods/score", data={**form, "lang": "en"}).json()["result"]
    assert ja["shown_table"].startswith("ゴッド: 得点表") and "勝利ポイントカード" in ja["shown_table"]
    assert en["shown_table"] == en["table"] and en["table"].startswith("Gods: score sheet")
    assert ja["table"] == en["table"]  # the CLI's own English text is still there for tools


# -- pnpforge score --lang -------------------------------------------------------------------------


def _cli(*args: str) -> Any:
    return CliRunner().invoke(main, ["score", *args])


@pytest.mark.parametrize("game", GAMES)
def test_the_cli_prints_the_japanese_sheet(game: str) -> None:
    path = catalog.BUNDLED_DIR / game / "example-score.yaml"
    ja = _cli(str(path), "--lang", "ja")
    assert ja.exit_code == 0, ja.output
    names = set(re.findall(r"name: (\w+)", path.read_text()))
    assert ": 得点表" in ja.output and "プレイヤー" in ja.output
    assert _english(ja.output, names) == set(), ja.output
    en = _cli(str(path))
    assert en.output == _cli(str(path), "--lang", "en").output and ": score sheet" in en.output
    assert json.loads(_cli(str(path), "--json", "--lang", "ja").output) == json.loads(
        _cli(str(path), "--json").output
    )


def test_the_cli_says_the_games_sentences_in_japanese() -> None:
    ankh = _cli(str(catalog.BUNDLED_DIR / "ankh" / "example-score.yaml"), "--lang", "ja").output
    assert "総戦力 Isis 4、Amun 4: 同点、バトルタイブレークトークンでIsisの勝利" in ankh
    assert "勝者: Amun(7点で同点、信心トラック上の積み重ねの順で決定)。" in ankh
    shepherds = _cli(
        str(catalog.BUNDLED_DIR / "good-shepherds" / "example-score.yaml"), "--lang", "ja"
    ).output
    assert "ゲームはただちに終了します: Annは118金(" in shepherds


def test_the_cli_says_ankh_notes_and_a_rule_break_in_japanese(tmp_path: Path) -> None:
    top = tmp_path / "top.yaml"
    top.write_text(
        "game: ankh\ntop: 8\nplayers:\n  - {name: Amun, devotion: 7}\n  - {name: Isis, devotion: 5}\n"
        "regions:\n  - name: 1\n    gods:\n      Amun: {figures: 2}\n"
    )
    reached = _cli(str(top), "--lang", "ja")
    assert (
        reached.exit_code == 0
        and "Amunが信心トラックの一番上のスペース(8)に到達し、即座に勝利します。" in reached.output
    )
    assert "Amunが支配: +1、記念碑の過半数で+0" in reached.output
    empty = tmp_path / "qv.yaml"
    empty.write_text("game: quo-vadis\nplayers:\n  - {name: Ann}\n  - {name: Bob}\n  - {name: Cy}\n")
    broken = _cli(str(empty), "--lang", "ja")
    assert broken.exit_code == 1
    assert f"{empty}:3:5: error [too-few-cards] Annが配置した世代のカードは0枚です" in broken.output
    assert broken.output.rstrip().endswith("3件のルール違反。得点は計算していません")
    assert "Ann placed 0 generation cards" in _cli(str(empty)).output


def test_help_shows_the_language_option() -> None:
    shown = _cli("--help").output
    assert "--lang [en|ja]" in shown and "pnpforge score final.yaml --lang ja" in shown
    assert _cli("x.yaml", "--lang", "fr").exit_code == 2


def test_a_phrase_reads_as_its_english_text() -> None:
    said = Phrase("{name} has {money}", name="Ann", money=105)
    assert said == "Ann has 105" and json.dumps({"note": said}) == '{"note": "Ann has 105"}'
    twin = copy.deepcopy(said)  # report JSON copies its violations
    assert twin.template == said.template and twin.values == said.values
    listed = Phrase("ends: {why}", why=[said, Phrase("{name} has {money}", name="Bob", money=-1)])
    assert listed == "ends: Ann has 105, Bob has -1"


def test_interactive_questions_are_asked_in_japanese() -> None:
    answers = "2\nAnn\n2\n1\n3\n5\nBob\n1\n1\n2\n4\n"
    ja = CliRunner().invoke(main, ["score", "gods", "-i", "--lang", "ja"], input=answers)
    assert ja.exit_code == 0, ja.output
    assert "ゴッドの得点を計算します。" in ja.stderr and "プレイヤー数(2-4)" in ja.stderr
    assert "Ann: 村落カード (1枚3点。" in ja.stderr and "Scoring" not in ja.stderr
    assert "勝者: Ann(12点)。" in ja.stdout
    as_json = ["score", "gods", "-i", "--json"]
    en = CliRunner().invoke(main, as_json, input=answers)
    assert json.loads(
        CliRunner().invoke(main, [*as_json, "--lang", "ja"], input=answers).stdout
    ) == json.loads(en.stdout)


# -- the dealt set-up's "What goes where" ---------------------------------------------------------


def _steps(client: Any, game: str, lang: str) -> str:
    page = client.post(
        f"/g/{game}/deal", data={"players": str(PLAYERS[game]), "seed": "1", "lang": lang}
    ).text
    start = page.index('class="steps"')
    steps = re.sub(r"</?button[^>]*>", "", page[start : page.index("</details>", start)])  # a cell's button
    return html.unescape(re.sub(r"<[^>]+>", " ", steps))


def _keys(value: Any) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in _keys(v)}
    return {k for v in value for k in _keys(v)} if isinstance(value, list) else set()


@pytest.mark.parametrize("game", GAMES)
def test_every_key_of_a_dealt_set_up_is_said_in_japanese(client: Any, game: str) -> None:
    from pnpforge import catalog
    from pnpforge.web import board
    from pnpforge.web.hooks import setup_words as _setup_words

    _, data = board.deal(game, PLAYERS[game], 1, {})
    say = _setup_words(catalog.find_game(game), "ja")
    unsaid = {key for key in _keys(data) - {"game"} if say(key) == key}
    assert not unsaid, unsaid
    steps = _steps(client, game, "ja")
    assert "配置の手順" in steps and "プレイヤー数" in steps and "players" not in steps


def test_the_set_up_steps_name_things_in_the_rulebooks_words(client: Any) -> None:
    ankh = _steps(client, "ankh", "ja")
    assert (
        "席 1、神 ラー" in ankh
        and "中王国" in ankh
        and "コマ ピラミッド、位置 [0, 3]、プレイヤー なし" in ankh
    )
    assert "seat 1, god ra" in _steps(client, "ankh", "en")
    gods = _steps(client, "gods", "ja")
    assert "タイル 赤の神殿、位置 [0, 0]" in gods and "最初の配置" in gods and "people-red" not in gods
    shepherds = _steps(client, "good-shepherds", "ja")
    assert "位置 [-1, 3]、ユニット 小屋、プレイヤー 1" in shepherds
    assert "at [-1, 3], unit hut, player 1" in _steps(client, "good-shepherds", "en")


# -- rule breaks in Japanese ----------------------------------------------------------------------

# per game: a score file breaking the rules, a Japanese sentence it must show, and the English one
BROKEN = {
    "gods": (
        "game: gods\nplayers:\n  - {name: Ann, villages: {red: 3, blue: -1}, temples: 7}\n"
        "  - {name: Bob}\n  - {name: Cy}\n",
        "Annの村落カード(青)が-1です。数は負にできません",
        "Ann's village cards (blue) is -1; a count cannot be negative",
    ),
    "delphi": (
        "game: delphi\nplayers:\n  - {name: Ann, statue: 4, zeus: true, favour: -2}\n  - {name: Bob}\n",
        "Annの彫像のタスクが4です。このゲームで認められる3を超えています",
        "Ann's statue tasks is 4, more than the 3 the game allows",
    ),
    "ankh": (
        "game: ankh\nplayers:\n  - {name: Isis, devotion: 1, used_cards: [Drought]}\n"
        "  - {name: Amun}\n  - {name: Ra}\nregions:\n  - name: 1\n    gods:\n"
        "      Isis: {figures: 2, desert: 2, fertile: 1, card: Drought, radiant: 1, bid: 1}\n",
        "Isisは干ばつを使用済みで、マアトの循環でまだ手札に戻していません",
        "Isis already played Drought and has not taken it back with Cycle of Ma'at",
    ),
    "good-shepherds": (
        "game: good-shepherds\nplayers:\n  - {name: Ann, money: 120, sheep: -4, huts: 0}\n"
        "  - {name: Bob, money: 10, huts: 1}\n",
        "Annのこの決算の前の所持金は120金ですが、所持金が100金以上もしくは0金未満になった時点で"
        "ゲームは終了しています",
        "Ann had 120 before this settlement, but the game ended when anyone reached 100 or fell below 0",
    ),
    "quo-vadis": (
        "game: quo-vadis\nplayers:\n  - {name: Ann, towns: 5, destroyed_towns: 2, "
        "generations: [1, 0, 9, 0, 0, 0]}\n  - {name: Bob, generations: [10, 0, 0, 0, 0, 0], skills: -1}\n"
        "  - {name: Cy, generations: [10, 0, 0, 0, 0, 0]}\n",
        "Annは第3世代にカードがありますが、第2世代にはありません。世代は左から順に配置します",
        "Ann has cards in generation 3 but none in generation 2; generations fill from left to right",
    ),
}
BREAK_LINE = re.compile(r"^\S+:\d+:\d+: error \[[a-z-]+\] (.*)$")


@pytest.mark.parametrize("game", sorted(BROKEN))  # a case per game, written by hand
def test_every_rule_break_is_said_in_japanese(tmp_path: Path, game: str) -> None:
    """`score --lang ja`: each rule break in the rulebook's words, the engine's own sentences too;
    English (and JSON) keeps its messages."""
    text, japanese, english = BROKEN[game]
    path = tmp_path / "broken.yaml"
    path.write_text(text)
    ja = _cli(str(path), "--lang", "ja")
    assert ja.exit_code == 1 and japanese in ja.output, ja.output
    said = [BREAK_LINE.match(line) for line in ja.output.splitlines()[:-1]]
    assert len(said) >= 2 and all(said), ja.output
    names = set(re.findall(r"name: (\w+)", text)) | {"build"}
    assert _english(" ".join(m.group(1) for m in said if m), names) == set(), ja.output
    en = _cli(str(path))
    assert en.exit_code == 1 and english in en.output and japanese not in en.output
    assert len(en.output.splitlines()) == len(ja.output.splitlines())
    report = json.loads(_cli(str(path), "--json", "--lang", "ja").output)
    assert english in [v["message"] for v in report["errors"]]


def test_the_engines_own_sentences_are_translated_once() -> None:
    from pnpforge import contract
    from pnpforge.scoring.inputs import Rules, owned
    from pnpforge.sourcefile import read_yaml_text

    rules = Rules("x", read_yaml_text("a: 1\n", "x.yaml"))
    rules.nonnegative(("a",), -1, owned("Ann", "sheep"))
    rules.at_most("too-many", ("a",), 9, 5, "fish")
    negative, many = (v.message for v in rules.report.errors)
    assert (negative, many) == (
        "Ann's sheep is -1; a count cannot be negative",
        "fish is 9, more than the 5 the game allows",
    )
    # only the game's nouns; the sentence is the engine's
    tr = contract.load("good-shepherds").translator("ja")
    assert tr(negative) == "Annの羊が-1です。数は負にできません"
    assert tr(many) == "fishが9です。このゲームで認められる5を超えています"
    assert contract.load("good-shepherds").translator("en")(negative) == negative


PAGE_BREAKS = {
    "gods": ({"p0:temples": "7"}, "Annの神殿が7です。このゲームで認められる6を超えています"),
    "delphi": ({"p0:statue": "4"}, "Annの彫像のタスクが4です。このゲームで認められる3を超えています"),
    "ankh": ({"p0:devotion": "-1"}, "Amunの信心が-1です。数は負にできません"),
    "good-shepherds": ({"p1:huts": "0"}, "Bobの小屋が0軒ですが、最初の小屋はボードに印刷されています"),
    "quo-vadis": (
        {"p0:generations.1": "0"},
        "Annは第5世代にカードがありますが、第2世代にはありません。世代は左から順に配置します",
    ),
}


@pytest.mark.parametrize("game", sorted(PAGE_BREAKS))  # a case per game, written by hand
def test_the_japanese_page_says_rule_breaks_in_japanese(client: Any, game: str) -> None:
    changes, japanese = PAGE_BREAKS[game]
    form = {**SHEETS[game], "count": str(PLAYERS[game]), "lang": "en", **changes}
    answer = client.post(f"/g/{game}/score", data={**form, "lang": "ja"})
    assert answer.status_code == 400 and japanese in html.unescape(answer.text)
    english = client.post(f"/api/g/{game}/score", data=form).json()["problems"]
    japanese_api = client.post(f"/api/g/{game}/score", data={**form, "lang": "ja"}).json()["problems"]
    assert [p["code"] for p in english] == [p["code"] for p in japanese_api] != []
    shown = " ".join(p["message"] for p in japanese_api)
    assert japanese in shown and _english(shown, {"Ann", "Bob", "Cy", "Amun", "Isis", "Anubis"}) == set()


# -- set-up check violations in Japanese ----------------------------------------------------------


def _dealt(game: str, players: int, changes: dict[str, str]) -> str:
    dealt = CliRunner().invoke(main, ["setup", game, "-p", str(players), "--seed", "1"])
    assert dealt.exit_code == 0, dealt.output
    text = dealt.stdout
    for old, new in changes.items():
        assert old in text, old
        text = text.replace(old, new, 1)
    return text


# per game: an illegal set-up (a dealt one changed, or a short file) and a Japanese violation it shows
ILLEGAL = {
    "good-shepherds": (
        lambda: (
            "game: good-shepherds\nplayers: 2\nboard: farm\nunits:\n"
            "  - {at: [-1, 3], unit: hut, player: 1}\n  - {at: [0, 3], unit: hut, player: 1}\n"
            "  - {at: [8, 3], unit: hut, player: 2}\n  - {at: [8, 3], unit: sheep, player: 2}\n"
        ),
        "[-1, 3]と[0, 3]の小屋が隣接しています。小屋は他の小屋と隣接しないように配置します",
        "huts at [-1, 3] and [0, 3] touch",
    ),
    "quo-vadis": (
        lambda: (
            "game: quo-vadis\nplayers: 3\nmap:\n  - {tile: a2-5, at: [0, 0], rotation: 0}\n"
            "  - {tile: a3-5, at: [0, 0], rotation: 3}\n  - {tile: a4-5, at: [0, 1], rotation: 3}\n"
        ),
        "タイル[0, 0]のa2-5と[0, 0]のa3-5が重なっています",
        "tiles a2-5 at [0, 0] and a3-5 at [0, 0] overlap",
    ),
    "gods": (
        lambda: (
            "game: gods\nplayers: 2\ngods: [blue, red]\nvariant: bag\nstage: play\nboard:\n"
            "  - {tile: temple-red, at: [0, 0]}\n  - {tile: temple-blue, at: [2, 0]}\n"
            "  - {tile: people-red, at: [1, 0], marker: blue}\n"
            "  - {tile: wilderness, at: [-1, 0], marker: red}\n"
            "bag: [game-end, people-red]\n"
        ),
        "荒野のタイルにゴッドマーカーがあります。ゴッドマーカーを置くのは民族タイルだけです",
        "a god marker on a wilderness tile: only people tiles carry them",
    ),
    "ankh": (
        lambda: _dealt(
            "ankh", 3, {"{seat: 2, god: amun}": "{seat: 2, god: ra}", "caravans: []": "caravans: [[]]"}
        ),
        "各神を選べるのは1人だけです(ラーが2回選ばれています)",
        "each god is played by one player (ra chosen twice)",
    ),
    "delphi": (
        lambda: _dealt("delphi", 3, {"colour: red, count: 3}": "colour: blue, count: 3}"}),
        "に青の彫像があります(赤のシティ)。青のシティに置きます",
        "blue statues at [-7, 7] (the red city); they belong on the blue city",
    ),
}
SETUP_ID = re.compile(r"\b[a-z0-9]+(?:-[a-z0-9]+)+\b")  # tile ids (a2-5, cluster-7-2, city-red)


def _no_english(text: str) -> set[str]:
    return _english(SETUP_ID.sub(" ", text), set())


@pytest.mark.parametrize("game", sorted(ILLEGAL))  # a case per game, written by hand
def test_validate_says_the_violations_in_japanese(tmp_path: Path, game: str) -> None:
    make, japanese, english = ILLEGAL[game]
    path = tmp_path / "setup.yaml"
    path.write_text(make())
    ja = CliRunner().invoke(main, ["validate", str(path), "--lang", "ja"])
    assert ja.exit_code == 1 and japanese in ja.output, ja.output
    lines = ja.output.splitlines()
    said = [re.sub(r"^\S+: (error|warning) \[[a-z-]+\] ", "", line) for line in lines[:-1]]
    assert _no_english(" ".join(said)) == set(), ja.output
    assert lines[-1].endswith("件のルール違反")
    en = CliRunner().invoke(main, ["validate", str(path)])
    assert en.exit_code == 1 and english in en.output and len(en.output.splitlines()) == len(lines)
    as_json = CliRunner().invoke(main, ["validate", str(path), "--json", "--lang", "ja"]).output
    assert as_json == CliRunner().invoke(main, ["validate", str(path), "--json"]).output


@pytest.mark.parametrize("game", sorted(ILLEGAL))  # a case per game, written by hand
def test_the_japanese_page_shows_the_set_up_check_in_japanese(client: Any, game: str) -> None:
    make, japanese, english = ILLEGAL[game]
    text = make()

    def violations(lang: str) -> str:
        page = client.post(f"/g/{game}/check", data={"setup": text, "lang": lang}).text
        start = page.index('<ol class="violations">')
        listed = page[start : page.index("</ol>", start)]
        return html.unescape(re.sub(r"<code>[^<]*</code>|<[^>]+>", " ", listed))

    shown = violations("ja")
    assert japanese in shown and _no_english(shown) == set(), shown
    assert english in violations("en")


def test_a_score_files_linked_set_up_is_said_in_japanese(tmp_path: Path) -> None:
    farm = tmp_path / "farm.yaml"
    farm.write_text(
        "game: good-shepherds\nfarm:\n  board: farm\n  units:\n    - {at: [-1, 3], unit: hut, player: 1}\n"
        "    - {at: [0, 3], unit: hut, player: 1}\n    - {at: [8, 3], unit: hut, player: 2}\n"
        "players: [{name: Ann, money: 20}, {name: Bob, money: 15}]\n"
    )
    ja = _cli(str(farm), "--lang", "ja")
    assert ja.exit_code == 1 and "[-1, 3]と[0, 3]の小屋が隣接しています" in ja.output, ja.output
    assert "huts at [-1, 3] and [0, 3] touch" in _cli(str(farm)).output


def test_a_legal_set_up_is_said_legal_in_japanese(tmp_path: Path) -> None:
    path = tmp_path / "legal.yaml"
    path.write_text(_dealt("delphi", 3, {}))
    ja = CliRunner().invoke(main, ["validate", str(path), "--lang", "ja"])
    assert ja.exit_code == 0 and ja.output.strip().endswith(": 正しいデルフォイの神託のセットアップです")
    assert CliRunner().invoke(main, ["validate", str(path)]).output.strip().endswith(": legal delphi set-up")
    assert "--lang [en|ja]" in CliRunner().invoke(main, ["validate", "--help"]).output
