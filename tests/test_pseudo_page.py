"""The table page in the pseudo-locale `xx`: every word a player reads went through the catalogs.

Every page of every bundled game (the list, set-up with a deal, a legal and an illegal check and the
upload errors, the score sheet with totals, errors and rule breaks, print with its build error) is
asked for with `?lang=xx`; the text a player sees (tags, scripts and the attributes nobody reads
removed; title, placeholder, aria-label and alt kept) must hold no English word outside a «…» span
once the data the test put in (names, numbers, the set-up text, the game's own spec texts) is taken
out. The Japanese page says what it said before the catalogs (the input layer's messages as the old
translation table said them).
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from typing import Any

import pytest
from conftest import untranslated
from test_score_lang import BROKEN, ILLEGAL
from test_serve import PLAYERS, example_sheet

from pnpforge import catalog, sourcefile
from pnpforge.components.template import localise
from pnpforge.errors import InputError
from pnpforge.phrase import Phrase
from pnpforge.table import setupfile
from pnpforge.validator import setupkit
from pnpforge.web import board, forms, guards, pages, setup_routes
from pnpforge.web.app import create_app

GAMES = sorted(PLAYERS)
SHOWN_ATTRIBUTES = ("title", "placeholder", "aria-label", "alt", "data-wait", "data-fit", "data-zoom")
# not words of ours: the program's name, the language codes of the picker, files the page names
NOT_WORDS = {"pnpforge", "EN", "JA", "XX", "en", "ja", "xx", "YAML", "PDF", "PNG"}
FILES = ("setup.yaml", "score.yaml")  # the names the page gives a posted set-up and score file


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Any:
    from starlette.testclient import TestClient

    with TestClient(create_app(build_root=tmp_path_factory.mktemp("builds"))) as test_client:
        yield test_client


def visible(page: str) -> str:
    """The text a player reads: element text (scripts, styles, the user's own set-up text and the
    stable codes in <code> left out) and the attributes a screen or a reader shows."""
    page = re.sub(r"<(script|style|textarea|code)\b[^>]*>.*?</\1>", " ", page, flags=re.S)

    shown_attribute = re.compile(r"\s(?:" + "|".join(SHOWN_ATTRIBUTES) + r')="([^"]*)"')

    def tag(match: re.Match[str]) -> str:
        said = shown_attribute.findall(match.group(0))
        return " " + " ".join(said) + " "

    text = re.sub(r"<[^>]*>", tag, page)
    return html.unescape(text)


def game_data(game: str) -> set[str]:
    """Words that are the game's own data: its id, its spec's title and component names, the names its
    kit's data files print for its ids (the spec's texts are the designer's, not ours)."""
    found = catalog.find_game(game)
    info = catalog.game_info(found)
    words = {game, *game.split("-"), *_words(localise(info.get("title", game), "en"))}
    from pnpforge import contract
    from pnpforge.web.builds import inventory

    kit = contract.load(game)
    names = kit.names("en") if kit.names else {}  # what the kit's data files print for its ids
    words |= _words(" ".join([*names, *names.values()]))
    for line in inventory(found, "en"):
        words |= _words(f"{line['title'] or ''} {line['name']}")
    return words


def _words(text: str) -> set[str]:
    return set(re.findall(r"[A-Za-z][A-Za-z'’-]*[A-Za-z]", str(text)))


def english_left(page: str, *data: str, game: str | None = None) -> set[str]:
    """English words outside «…» on the page, less the data the test put in."""
    allowed = set(NOT_WORDS)
    for item in (*data, *FILES):
        allowed |= _words(item)
    if game is not None:
        allowed |= game_data(game)
    return set(untranslated(_without_codes(visible(page)))) - allowed


def _without_codes(text: str) -> str:
    """`text` less the codes it quotes: a problem's code beside its field ("[too-many]") and the YAML
    parser's names of what it met ("<block mapping start>", the grammar's own terms)."""
    return re.sub(r"\[[a-z0-9-]+\]|<[a-z ]+>", " ", text)


def _where(text: str, words: set[str]) -> list[str]:
    """The lines of `text` holding any of `words`: what a failure shows."""
    return [line.strip()[:300] for line in text.splitlines() if _words(line) & words]


def assert_said(send: Callable[[str], Any], *data: str, game: str | None = None, status: int = 0) -> str:
    """`send("xx")` answered with no English of ours left (the test's data aside); the xx page."""
    xx = send("xx")
    if status:
        assert xx.status_code == status, xx.text[-1500:]
    left = english_left(xx.text, *data, game=game)
    assert sorted(left) == [], _where(visible(xx.text), left)
    return str(xx.text)


def test_the_language_picker_offers_xx(client: Any, pseudo_locale: str) -> None:
    page = client.get("/?lang=xx").text
    assert '<html lang="xx">' in page
    assert re.search(r'<a href="/\?lang=xx" aria-current="true">XX</a>', page)
    game = client.get("/g/gods?lang=xx").text
    assert '<option value="xx" selected>' in game  # the PDF language picker too
    chosen = client.get("/", headers={"accept-language": "xx, en;q=0.5"}).text
    assert '<html lang="xx">' in chosen  # the browser's language, when the page has it


def test_the_list_of_games(client: Any, pseudo_locale: str) -> None:
    data = [w for game in GAMES for w in game_data(game)]
    page = assert_said(lambda lang: client.get(f"/?lang={lang}"), *data, status=200)
    assert "«" in visible(page)


@pytest.mark.parametrize("game", GAMES)
def test_a_games_page(client: Any, pseudo_locale: str, game: str) -> None:
    assert_said(lambda lang: client.get(f"/g/{game}?lang={lang}"), game=game, status=200)


@pytest.mark.parametrize("game", GAMES)
def test_a_deal_and_a_legal_set_up(client: Any, pseudo_locale: str, game: str) -> None:
    form = {"players": str(PLAYERS[game]), "seed": "7"}
    values = " ".join(_values(board.deal(game, PLAYERS[game], 7, {})[1]))  # the set-up's ids, as dealt
    page = assert_said(
        lambda lang: client.post(f"/g/{game}/deal", data={**form, "lang": lang}),
        values,
        game=game,
        status=200,
    )
    assert 'id="seed">7<' in page
    legal = board.deal_text(game, PLAYERS[game], 7, {})
    page = assert_said(
        lambda lang: client.post(f"/g/{game}/check", data={"setup": legal, "lang": lang}),
        values,
        game=game,
        status=200,
    )
    assert 'data-valid="yes"' in page


@pytest.mark.parametrize("game", GAMES)
def test_an_illegal_set_up(client: Any, pseudo_locale: str, game: str) -> None:
    text = ILLEGAL[game][0]()
    page = assert_said(
        lambda lang: client.post(f"/g/{game}/check", data={"setup": text, "lang": lang}),
        game=game,
        status=200,
    )
    assert 'data-valid="no"' in page


UPLOAD_ERRORS = {
    "not YAML": "game: delphi\n  : [\n",
    "a mapping value where none may be": "game: delphi\nplayers: 3: 4\n",
    "a quote never closed": "game: delphi\nplayers: 'three\n",
    "not text": "game: delphi\x00\x01\n",
    "wrong game": "game: {other}\n",
    "unknown game": "game: chess\n",
    "no game": "players: 3\n",
    "not a mapping": "- game: {game}\n",
    "a number too large": "game: {game}\nplayers: 12345678901234567890\n",
    "unknown key": "game: {game}\nplayers: 3\nflavour: salty\n",
    "too many players": "game: {game}\nplayers: 9\n",
    "a key twice": "game: {game}\ngame: {game}\n",
    "empty": "   \n",
}


# every error on one game's page; those a game's own rules word (its keys, its players) on every game's
BY_GAME = ("unknown key", "too many players", "wrong game", "a number too large")
UPLOADS = [(case, "gods") for case in sorted(UPLOAD_ERRORS) if case not in BY_GAME]
UPLOADS += [(case, game) for case in BY_GAME for game in GAMES]


@pytest.mark.parametrize(("case", "game"), UPLOADS)
def test_set_up_upload_errors(client: Any, pseudo_locale: str, game: str, case: str) -> None:
    other = next(g for g in GAMES if g != game)
    body = UPLOAD_ERRORS[case].format(game=game, other=other).encode()

    def send(lang: str) -> Any:
        return client.post(f"/g/{game}/check", data={"lang": lang}, files={"file": ("setup.yaml", body)})

    page = assert_said(send, body.decode("utf-8", "replace"), *GAMES, game=game, status=400)
    assert 'class="problems"' in page


def test_a_set_up_file_that_is_not_utf8_nor_too_large(client: Any, pseudo_locale: str) -> None:
    latin1 = b"game: g\xf6ds\n"
    assert_said(
        lambda lang: client.post(
            "/g/gods/check", data={"lang": lang}, files={"file": ("setup.yaml", latin1)}
        ),
        game="gods",
        status=400,
    )
    big = "# " + "x" * guards.MAX_BODY + "\ngame: delphi\n"
    for asked in ({"params": {"lang": "xx"}}, {"headers": {"accept-language": "xx"}}):
        answer = client.post("/g/delphi/check", data={"setup": big}, **asked)
        assert answer.status_code == 413
        message = answer.json()["problems"][0]["message"]
        assert message.startswith("«") and untranslated(message) == [], message


@pytest.mark.parametrize("game", GAMES)
def test_a_deal_refused(client: Any, pseudo_locale: str, game: str) -> None:
    for form in ({"players": "99"}, {"seed": "seven"}, {"players": "9" * 30}):
        page = assert_said(
            lambda lang, form=form: client.post(f"/g/{game}/deal", data={**form, "lang": lang}),  # type: ignore[misc]
            "seven",
            game=game,
            status=400,
        )
        assert 'class="problems"' in page


def _values(data: Any) -> list[str]:
    """The text values of a dealt set-up (ids and names as the file holds them)."""
    if isinstance(data, dict):
        return [v for item in data.values() for v in _values(item)]
    if isinstance(data, list):
        return [v for item in data for v in _values(item)]
    return [data] if isinstance(data, str) else []


def _names(form: dict[str, str]) -> list[str]:
    return [v for k, v in form.items() if k.endswith(":name") or k == "g:start_player"]


@pytest.mark.parametrize("game", GAMES)
def test_a_scored_sheet(client: Any, pseudo_locale: str, game: str) -> None:
    form = {**example_sheet(client, game), "action": "count"}  # any game's example score file
    page = assert_said(
        lambda lang: client.post(f"/g/{game}/score", data={**form, "lang": lang}),
        *_names(form),
        game=game,
        status=200,
    )
    assert 'class="totals"' in page

    class Live:  # the totals as the page's script receives them, as a page to read
        def __init__(self, lang: str) -> None:
            self.status_code = 200
            self.text = client.post(f"/api/g/{game}/score", data={**form, "lang": lang}).json()["html"]

    assert_said(Live, *_names(form), game=game)


@pytest.mark.parametrize("game", GAMES)
def test_score_errors(client: Any, pseudo_locale: str, game: str) -> None:
    typed = example_sheet(client, game)
    field = next(k for k in typed if k.startswith("p0:") and not k.endswith(":name"))
    for form in ({**typed, field: "x"}, {**typed, field: "9" * 30}, {**typed, "count": "99"}):
        page = assert_said(
            lambda lang, form=form: client.post(f"/g/{game}/score", data={**form, "lang": lang}),  # type: ignore[misc]
            *_names(typed),
            game=game,
            status=400,
        )
        assert 'class="verdict bad"' in page or 'class="problems"' in page
    other = next(g for g in GAMES if g != game)
    wrong = f"game: {other}\n".encode()
    assert_said(
        lambda lang: client.post(
            f"/g/{game}/score", data={"lang": lang}, files={"file": ("score.yaml", wrong)}
        ),
        other,
        game=game,
        status=400,
    )


@pytest.mark.parametrize("game", GAMES)
def test_rule_breaks_on_the_sheet(client: Any, pseudo_locale: str, game: str) -> None:
    text = BROKEN[game][0].encode()
    names = re.findall(r"name: ([A-Za-z]+)", BROKEN[game][0])
    page = assert_said(
        lambda lang: client.post(
            f"/g/{game}/score", data={"lang": lang}, files={"file": ("score.yaml", text)}
        ),
        *names,
        game=game,
    )
    assert 'class="verdict bad"' in page


def test_print_form_and_a_build_error(client: Any, pseudo_locale: str) -> None:
    for form in ({"page": "a0"}, {"pdf_lang": "klingon"}, {"duplex": "sideways"}):
        page = assert_said(
            lambda lang, form=form: client.post("/g/good-shepherds/build", data={**form, "lang": lang}),  # type: ignore[misc]
            *form.values(),
            "long",
            "short",
            game="good-shepherds",
            status=400,
        )
        assert 'class="problems"' in page.split('id="print"', 1)[1]


def test_a_build_stopped_at_its_time_limit(pseudo_locale: str, tmp_path: Any) -> None:
    from starlette.testclient import TestClient

    with TestClient(create_app(build_root=tmp_path, build_seconds=0.01)) as own:
        page = assert_said(
            lambda lang: own.post("/g/good-shepherds/build", data={"lang": lang}),
            game="good-shepherds",
            status=503,
        )
    assert 'class="problems"' in page.split('id="print"', 1)[1]


def test_pages_that_are_not_there(client: Any, pseudo_locale: str) -> None:
    for path, status in (
        ("/g/chess", 404),
        ("/nowhere", 404),
        ("/g/gods/build/x/y.pdf", 404),
        ("/g/gods/deal", 405),
    ):
        page = assert_said(
            lambda lang, path=path: client.get(f"{path}?lang={lang}"),  # type: ignore[misc]
            "chess",
            *GAMES,
            status=status,
        )
        assert 'class="problems"' in page


# -- the Japanese page says what it said before the catalogs ---------------------------------------------


def _score(text: str) -> None:
    from pnpforge.sourcefile import read_yaml_text
    from pnpforge.table.scorefile import score_source

    score_source(read_yaml_text(text, "score.yaml"))


def _raise(message: str) -> None:
    raise InputError.single("setup.yaml", message)


# (how the input layer is made to refuse, the game whose page shows it, the CLI's English, the Japanese
# the page said through web/messages.py's pattern table before the catalogs): the table was the spec,
# but for a list of names, which the games' messages now join with the language's own separator
SAID_BEFORE: list[tuple[Callable[[], object], str | None, str, str]] = [
    (
        lambda: catalog.find_game("chess"),
        None,
        # then any local games another test added
        "unknown game 'chess' (expected one of: ankh, delphi, gods, good-shepherds, quo-vadis",
        "ゲーム「chess」はありません(次のいずれか: ankh, delphi, gods, good-shepherds, quo-vadis",
    ),
    (
        lambda: setupkit.option_bool({"short": "maybe"}, "short"),
        "delphi",
        "--option short='maybe': expected true or false",
        "--option short='maybe': true か false を指定してください",
    ),
    (
        lambda: setupkit.option_int({"n": "x"}, "n", 1, 1, 5),
        None,
        "--option n='x': expected a whole number from 1 to 5",
        "--option n='x': 1 から 5 までの整数を指定してください",
    ),
    (
        lambda: setupfile.deal_setup("delphi", 9, 1, {}),
        "delphi",
        "delphi is for 2 to 4 players (got --players 9)",
        "delphi のプレイヤー数は 2〜4 人です(9 人は選べません)",
    ),
    (
        lambda: forms.whole({"seed": "x"}, "seed", "seed"),
        None,
        "Invalid value for '--seed': 'x' is not a valid integer.",
        "--seed の値が正しくありません: 「x」は整数ではありません。",
    ),
    (
        lambda: forms.whole({"seed": "9" * 30}, "seed", "seed"),
        None,
        "Invalid value for '--seed': number too large (expected at most 18 digits)",
        "--seed の値が正しくありません: 数が大きすぎます(18 桁まで)",
    ),
    (
        lambda: board.check("game: delphi\nplayers: 9\nboard: {tiles: []}\nzeus: [0, 0]\n", "delphi"),
        "delphi",
        "The Oracle of Delphi is for 2-4 players, not 9",
        "The Oracle of Delphi のプレイヤー数は 2〜4 人です(9 人ではありません)",
    ),
    (
        lambda: board.check("game: delphi\nplayers: 3\nzeus: [0, 0]\n", "delphi"),
        "delphi",
        "missing key 'board'",
        "キー「board」がありません",
    ),
    (
        lambda: board.check(
            "game: delphi\nplayers: 3\nboard: {tiles: []}\nzeus: [0, 0]\nflavour: x\n", "delphi"
        ),
        "delphi",
        "unknown key 'flavour' (did you mean favour? expected one of the documented keys)",
        "不明なキー「flavour」(favour のことですか? 説明書にあるキーのみ)",
    ),
    (
        lambda: board.check("game: gods\n", "delphi"),
        "delphi",
        "this is a gods set-up, not delphi",
        "これは gods のファイルです(delphi ではありません)",
    ),
    (
        lambda: _score("game: gods\nplayers:\n  - {name: A, villages: x}\n  - {name: B}\n"),
        "gods",
        "expected a whole number, or a number per people colour like {red: 1} (got 'x')",
        "整数、または人々の色ごとの数({red: 1} のように)を入れてください(入力: 'x')",
    ),
    (
        lambda: _score("game: delphi\nplayers:\n  - {name: A, shrine: x}\n  - {name: B}\n"),
        "delphi",
        "expected a whole number (got 'x')",
        "整数を入れてください(入力: 'x')",
    ),
    (
        lambda: _score(
            "game: quo-vadis\nstart_player: Zed\nplayers:\n  - {name: A}\n  - {name: B}\n  - {name: C}\n"
        ),
        "quo-vadis",
        "unknown player 'Zed' (expected one of: A, B, C)",
        "プレイヤー「Zed」はありません(次のいずれか: A、B、C)",  # a list: joined the language's way
    ),
    (
        lambda: _score("game: ankh\nplayers:\n  - {name: Zed}\n  - {name: Ra}\n  - {name: Isis}\n"),
        "ankh",
        "unknown god 'Zed' (expected one of: amun, anubis, isis, osiris, ra)",
        "神「Zed」はありません(次のいずれか: amun、anubis、isis、osiris、ra)",
    ),
    (
        lambda: board.check(
            "game: delphi\nplayers: 3\nboard: {tiles: [{tile: nope, at: [0, 0]}]}\nzeus: [0, 0]\n"
        ),
        "delphi",
        "unknown tile 'nope' (expected one of: ",
        "タイル「nope」はありません(次のいずれか: ",
    ),
    (
        lambda: _raise(setup_routes.EMPTY),
        None,
        "empty set-up file (expected e.g. 'game: delphi')",
        "セットアップファイルが空です(例: 'game: delphi')",
    ),
]


@pytest.mark.parametrize(
    ("refuse", "game", "english", "japanese"), SAID_BEFORE, ids=[c[2][:40] for c in SAID_BEFORE]
)
def test_the_japanese_page_says_what_it_said_before(
    refuse: Callable[[], object], game: str | None, english: str, japanese: str
) -> None:
    """The CLI's English is byte for byte what it was; the page says it in the Japanese it said before."""
    with pytest.raises(InputError) as raised:
        refuse()
    problems = raised.value.problems
    matching = [p for p in problems if str(p.message).startswith(english)]
    assert matching, [str(p.message) for p in problems]
    said = pages.located(matching[0], "ja", game=game)["message"]
    assert said.startswith(japanese), said


def test_a_collapsed_run_of_rows_reads_as_before_and_is_said_in_the_language() -> None:
    from pnpforge.errors import Problem, collapse

    rows = [Problem("cards.csv", line, 2, Phrase(sourcefile.TOO_LONG, digits=18)) for line in (3, 4, 9)]
    (said,) = collapse(rows)
    assert (
        str(said)
        == "cards.csv:3:2: number too large (expected at most 18 digits) (and 2 more rows: cards.csv:4–9)"
    )
    assert pages.located(said, "ja")["message"] == "数が大きすぎます(18 桁まで)(ほかに 2 行: cards.csv:4–9)"
