"""A deal option's values in words: what the page's deal form shows for each value of an `--option`.

A picker shows each value in the game's words ("Yes (8 tasks)" / はい(8タスク), not "true"; Gods' gods,
a picker per seat: Red / 赤, tests/test_gods_seats.py), and a typed option lists the values its dealer
names beside it (a designer's dealer: Red(red)…); what the form sends stays the key (each `<option
value=…>`, the shareable address a deal leads to, the command line's KEY=VALUE), so a shared link and
`pnpforge setup` deal the same set-up as before.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from click.testing import CliRunner
from gamecopies import served_with_dealer

from pnpforge import catalog, contract
from pnpforge.cli import main
from pnpforge.contract import Dealer
from pnpforge.web import hooks

# each picker's values, key and words (Delphi, セットアップ: the short game has 8 tasks, the full one 12;
# Gods, ゲームの準備 and ヴァリアント; Ankh: the scenario sets, named for the two eras)
PICKERS = {
    ("delphi", "en"): {
        "short": [("true", "Yes (8 tasks)"), ("false", "No (12 tasks)")],
        "remove": [(n, n) for n in "01234"],
    },
    ("delphi", "ja"): {
        "short": [("true", "はい(8タスク)"), ("false", "いいえ(12タスク)")],
        "remove": [(n, n) for n in "01234"],
    },
    ("gods", "en"): {
        "variant": [("stack", "Tile stack (standard)"), ("bag", "Tile bag (variant)")],
        "gods": [("red", "Red"), ("blue", "Blue"), ("green", "Green"), ("yellow", "Yellow")],
    },
    ("gods", "ja"): {
        "variant": [("stack", "タイルの山(通常)"), ("bag", "袋(ヴァリアント)")],
        "gods": [("red", "赤"), ("blue", "青"), ("green", "緑"), ("yellow", "黄")],
    },
    ("ankh", "en"): {"scenario": [("MiddleKingdom", "Middle Kingdom"), ("OldKingdom", "Old Kingdom")]},
    ("ankh", "ja"): {"scenario": [("MiddleKingdom", "中王国"), ("OldKingdom", "古王国")]},
}
DEALERS = [g.id for g in catalog.games() if g.bundled and contract.of(g).deal is not None]


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    from starlette.testclient import TestClient

    from pnpforge.web.app import create_app

    with TestClient(create_app(build_root=tmp_path_factory.mktemp("builds"))) as test_client:
        yield test_client


class _DealForm(HTMLParser):
    """The page's deal form: each `opt:KEY` picker's (value, words, selected) and each typed field's
    value and the values listed beside it."""

    def __init__(self) -> None:
        super().__init__()
        self.inside = False
        self.select: str | None = None  # the picker being read
        self.option: tuple[str, bool] | None = None  # the <option> being read: its value, selected
        self.words: list[str] = []
        self.pickers: dict[str, list[tuple[str, str, bool]]] = {}
        self.typed: dict[str, str] = {}  # a typed field: its value
        self.listed: list[str] = []  # the words of each `small.values`, in order
        self.in_values = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form":
            self.inside = "deal" in a.get("class", "").split()
        if not self.inside:
            return
        name = a.get("name", "")
        if tag == "select" and name.startswith("opt:"):
            self.select = name.removeprefix("opt:")
            self.pickers[self.select] = []
        elif tag == "option" and self.select is not None and a.get("value"):  # "": the game's default
            self.option, self.words = (a["value"], "selected" in a), []
        elif tag == "input" and name.startswith("opt:"):
            self.typed[name.removeprefix("opt:")] = a.get("value", "")
        elif tag == "small" and "values" in a.get("class", "").split():
            self.in_values, self.words = True, []

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.inside = False
        elif tag == "select":
            self.select = None
        elif tag == "option" and self.option is not None and self.select is not None:
            self.pickers[self.select].append((self.option[0], "".join(self.words).strip(), self.option[1]))
            self.option = None
        elif tag == "small" and self.in_values:
            self.listed.append("".join(self.words).strip())
            self.in_values = False

    def handle_data(self, data: str) -> None:
        if self.option is not None or self.in_values:
            self.words.append(data)


def _form(page: str) -> _DealForm:
    form = _DealForm()
    form.feed(page)
    return form


def _pickers(page: str) -> dict[str, list[tuple[str, str]]]:
    return {key: [(v, w) for v, w, _ in values] for key, values in _form(page).pickers.items()}


@pytest.mark.parametrize(("game", "lang"), sorted(PICKERS))
def test_the_deal_form_says_each_value_in_words_and_sends_the_key(client: Any, game: str, lang: str) -> None:
    page = client.get(f"/g/{game}?lang={lang}")
    assert page.status_code == 200
    assert _pickers(page.text) == PICKERS[game, lang]  # Gods' gods: one picker per seat, each the same
    assert _form(page.text).listed == []  # no bundled option is typed with values to list
    # the values sent are the dealer's keys, in its order: exactly what the command line takes
    dealer = contract.load(game).dealer()
    choices = dealer.choices()
    assert {k: [v for v, _ in pairs] for k, pairs in _pickers(page.text).items()} == {
        k: list(choices[k]) for k in dealer.options if k in choices
    }


@pytest.mark.parametrize("game", DEALERS)
def test_every_bundled_value_reads_as_words_in_english_and_japanese(game: str) -> None:
    """A picker's word value (not a count) is said as words, not as the key, in both languages."""
    found = contract.load(game)
    dealer = found.dealer()
    for key, values in dealer.choices().items():
        for value in values:
            en = hooks.option_value(dealer, key, value, found.translator("en"))
            ja = hooks.option_value(dealer, key, value, found.translator("ja"))
            if value.isdigit():
                assert en == ja == value  # Delphi's counts: a number reads as itself
                continue
            assert en != value and (" " in en or en[:1].isupper()), (game, key, value, en)
            assert not ja.isascii(), (game, key, value, ja)


def test_a_typed_option_lists_its_values_with_the_key_to_type(tmp_path: Path) -> None:
    """A designer's dealer whose `gods` is typed (no `choices`, no `seats`) lists the values its
    `values` names beside the field, each with the key to type where the word differs."""
    dealer = (
        "def _changed():\n"
        "    dealer = _dealt()\n"
        "    choices = {'variant': dealer.choices()['variant']}\n"
        "    return _replace(dealer, choices=lambda: choices, seats=())\n"
    )
    # the engine's words in the page's language; the copy's own words (its catalog domain is its new id,
    # which the catalogs do not know) as written
    listed = {
        "en": "to type: Red (red), Blue (blue), Green (green), Yellow (yellow)",
        "ja": "入力する値: Red(red)、Blue(blue)、Green(green)、Yellow(yellow)",
    }
    with served_with_dealer(tmp_path, "typed", dealer) as mine:
        for lang, said in listed.items():
            page = mine.get(f"/g/typed/setup?players=3&seed=2&opt%3Agods=blue%2Cred%2Cyellow&lang={lang}")
            assert page.status_code == 200
            form = _form(page.text)
            assert form.typed == {"gods": "blue,red,yellow"}  # what was typed stays as typed: the keys
            assert form.listed == [said]


def _dealt_file(page: str) -> str:
    """The set-up file the page hands back (its textarea), unescaped."""
    import html

    found = re.search(r'<textarea name="setup"[^>]*>(.*?)</textarea>', page, re.S)
    assert found is not None
    return html.unescape(found.group(1)).strip()


@pytest.mark.parametrize(
    ("game", "lang", "picked", "typed"),
    [
        ("delphi", "ja", {"short": "はい(8タスク)"}, {}),
        ("delphi", "en", {"short": "No (12 tasks)", "remove": "2"}, {}),
        ("gods", "ja", {"variant": "袋(ヴァリアント)"}, {}),
        ("ankh", "en", {"scenario": "Old Kingdom"}, {}),
    ],
)
def test_a_deal_picked_by_its_words_is_the_command_lines_deal(
    client: Any, game: str, lang: str, picked: dict[str, str], typed: dict[str, str]
) -> None:
    """Pick each value by the words the form shows, send the form as a browser would: the address keeps
    the keys, and the page's set-up is byte for byte `pnpforge setup` with the same KEY=VALUE."""
    page = client.get(f"/g/{game}?lang={lang}").text
    words_to_key = {k: {w: v for v, w, _ in vs} for k, vs in _form(page).pickers.items()}
    chosen = {key: words_to_key[key][word] for key, word in picked.items()} | typed
    form = {"players": "3", "seed": "77", "lang": lang} | {f"opt:{k}": v for k, v in chosen.items()}
    posted = client.post(f"/g/{game}/deal", data=form, follow_redirects=False)
    assert posted.status_code == 303
    address = urlsplit(posted.headers["location"])
    query = {k: v[0] for k, v in parse_qs(address.query).items()}
    assert query == {"players": "3", "seed": "77", "lang": lang} | {f"opt:{k}": v for k, v in chosen.items()}
    shown = client.get(posted.headers["location"])
    assert shown.status_code == 200
    again = _form(shown.text)  # the form under the deal: the words picked, selected; the typed as typed
    for key, word in picked.items():
        assert [w for _, w, selected in again.pickers[key] if selected] == [word]
    assert {k: again.typed[k] for k in typed} == typed
    args = ["setup", game, "--players", "3", "--seed", "77"]
    for key, value in chosen.items():
        args += ["--option", f"{key}={value}"]
    cli = CliRunner().invoke(main, args)
    assert cli.exit_code == 0, cli.output
    assert _dealt_file(shown.text) == cli.output.strip()


def test_option_value_falls_back_to_the_games_word_for_the_value() -> None:
    def deal(players: int, seed: int, options: dict[str, str]) -> dict[str, Any]:
        return {}

    plain = Dealer(deal, options=("short", "mode"), values={"short": {"true": "Yes"}})
    words = {"Yes": "はい", "fast": "速い"}
    tr = lambda text: words.get(text, text)  # noqa: E731
    assert hooks.option_value(plain, "short", "true", tr) == "はい"  # the dealer's word, said
    assert hooks.option_value(plain, "short", "false", tr) == "false"  # none declared: as it is
    assert hooks.option_value(plain, "mode", "fast", tr) == "速い"  # the game's word for the value
    assert hooks.option_value(None, "mode", "fast", str) == "fast"
    pickers = hooks.option_pickers(
        Dealer(deal, options=("short", "mode"), choices=lambda: {"short": ["true"]}, values=plain.values), tr
    )
    assert [(o.key, o.values, o.picker, o.typed) for o in pickers] == [
        ("short", [("true", "はい")], True, ""),
        ("mode", [], False, ""),  # typed, with no values listed
    ]
