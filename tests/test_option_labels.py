"""A deal option's label: the words the page's deal form (and its problems) say for an `--option` key.

Every bundled game's dealer declares a label per option (`Dealer.labels`, a catalog message of the
game's domain), so the page reads "Short game", not "short", in English and in Japanese; a dealer
that declares none still shows readable words (the game's word for the key, else the key made
readable). The command line keeps the keys: they are what one types.
"""

from __future__ import annotations

from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from gamecopies import served_with_dealer

from pnpforge import catalog, contract
from pnpforge.cli import main
from pnpforge.contract import Dealer
from pnpforge.web import hooks

# the words the rulebooks use (Delphi, セットアップ: ショートゲーム, 減らすタスク; Gods, ゲームの準備 and
# ヴァリアント; Ankh, セットアップ: シナリオ)
LABELS = {
    "delphi": {"short": ("Short game", "ショートゲーム"), "remove": ("Tasks to remove", "減らすタスク数")},
    "gods": {"variant": ("Variant", "ヴァリアント"), "gods": ("Gods (in seat order)", "神(席順)")},
    "ankh": {"scenario": ("Scenario", "シナリオ")},
}
DEALERS = [g.id for g in catalog.games() if g.bundled and contract.of(g).deal is not None]


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    from starlette.testclient import TestClient

    from pnpforge.web.app import create_app

    with TestClient(create_app(build_root=tmp_path_factory.mktemp("builds"))) as test_client:
        yield test_client


class _DealForm(HTMLParser):
    """Each `opt:KEY` field of the page's deal form with the words of the label around it (a picker
    per seat: its fieldset's legend, the seat's own label being "Seat 1")."""

    def __init__(self) -> None:
        super().__init__()
        self.inside = False
        self.hidden = 0  # inside <small> (the free-text hint) or <select> (its values): not the label
        self.words: list[str] = []
        self.labels: dict[str, str] = {}
        self.legend: str | None = None  # the words of the fieldset's legend, inside a fieldset

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form":
            self.inside = "deal" in a.get("class", "").split()
        elif self.inside and tag in ("label", "legend"):
            self.words = []
        elif self.inside and tag == "fieldset":
            self.legend = ""
        elif self.inside and tag in ("small", "select"):
            self.hidden += 1
        if self.inside and tag in ("select", "input") and a.get("name", "").startswith("opt:"):
            said = self.legend if self.legend else " ".join("".join(self.words).split())
            self.labels[a["name"].removeprefix("opt:")] = said

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.inside = False
        elif self.inside and tag == "legend":
            self.legend = " ".join("".join(self.words).split())
        elif tag == "fieldset":
            self.legend = None
        elif self.inside and tag in ("small", "select"):
            self.hidden -= 1

    def handle_data(self, data: str) -> None:
        if self.inside and not self.hidden:
            self.words.append(data)


def _deal_labels(page: str) -> dict[str, str]:
    form = _DealForm()
    form.feed(page)
    return form.labels


@pytest.mark.parametrize("game", DEALERS)
def test_every_bundled_deal_option_has_an_english_and_a_japanese_label(game: str) -> None:
    found = contract.load(game)
    dealer = found.dealer()
    ja = found.translator("ja")
    for key in dealer.options:
        label = dealer.labels.get(key, "")
        # a phrase a player reads ("Scenario", "Short game"), not the key one types ("scenario")
        assert label != key and label[:1].isupper() and "_" not in label, (game, key, label)
        assert ja(label) not in (label, key) and not ja(label).isascii(), (game, key, ja(label))
    assert set(dealer.labels) == set(dealer.options)  # no label for an option the dealer does not take


def test_the_games_with_options_are_the_ones_the_rulebooks_name() -> None:
    """Delphi, Gods and Ankh take options (the others deal with none): the test above has work to do."""
    taking = {g: contract.load(g).dealer().options for g in DEALERS if contract.load(g).dealer().options}
    assert {g: set(keys) for g, keys in taking.items()} == {g: set(keys) for g, keys in LABELS.items()}


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("game", sorted(LABELS))
def test_the_deal_form_shows_the_labels(client: Any, game: str, lang: str) -> None:
    said = {key: pair[lang == "ja"] for key, pair in LABELS[game].items()}
    page = client.get(f"/g/{game}?lang={lang}").text
    assert _deal_labels(page) == said
    dealt = client.get(f"/g/{game}/setup?players=3&seed=4&lang={lang}")  # the form again, under a deal
    assert dealt.status_code == 200 and _deal_labels(dealt.text) == said


@pytest.mark.parametrize(
    ("lang", "form", "expected"),
    [
        (
            "en",
            {"opt:short": "true", "opt:remove": "2"},
            "«Short game»=«Yes (8 tasks)» removes 4 tasks; drop «Tasks to remove»= or",
        ),
        (
            "ja",
            {"opt:short": "true", "opt:remove": "2"},
            "«ショートゲーム»=«はい(8タスク)» はタスクを4つ減らします: «減らすタスク数»= を",
        ),
        ("en", {"opt:remove": "9"}, "«Tasks to remove»='9': expected a whole number from 0 to 4"),
        ("ja", {"opt:remove": "9"}, "«減らすタスク数»='9': 0 から 4 までの整数"),
    ],
)
def test_a_deals_problem_names_the_fields_label(
    client: Any, lang: str, form: dict[str, str], expected: str
) -> None:
    answer = client.post("/g/delphi/deal", data={"players": "2", "lang": lang, **form})
    problems = answer.text.replace("&#39;", "'").split('class="problems"')[1].split("</ul>")[0]
    assert answer.status_code == 400 and expected in problems, problems
    assert "remove=" not in problems and "short=" not in problems


def test_a_value_typed_like_a_key_is_left_as_typed(client: Any) -> None:
    """Only the sentence's own `key=` becomes the label, never the user's value in quotes."""
    answer = client.post("/g/gods/deal", data={"players": "3", "opt:gods": "gods=red", "lang": "en"})
    assert answer.status_code == 400 and "«Gods (in seat order)»='gods=red'" in answer.text.replace(
        "&#39;", "'"
    )


def test_a_dealer_without_labels_still_shows_readable_words(client: Any, tmp_path: Path) -> None:
    """A designer's dealer that declares no labels: its keys made readable (`max_rounds`: "Max rounds"),
    or the game's word for a key where its catalog has one."""
    dealer = "def _changed():\n    return _replace(_dealt(), options=('variant', 'max_rounds'), labels={})\n"
    with served_with_dealer(tmp_path, "plain", dealer) as mine:
        for lang in ("en", "ja"):
            page = mine.get(f"/g/plain?lang={lang}")
            assert page.status_code == 200
            assert _deal_labels(page.text) == {"variant": "Variant", "max_rounds": "Max rounds"}


def test_option_label_falls_back_to_the_games_word_then_the_key_made_readable() -> None:
    def deal(players: int, seed: int, options: dict[str, str]) -> dict[str, Any]:
        return {}

    plain = Dealer(deal, options=("scenario", "max-rounds", "x"), labels={"x": "Extra"})
    words = {"scenario": "シナリオ", "Extra": "追加"}
    tr = lambda text: words.get(text, text)  # noqa: E731
    assert [hooks.option_label(plain, key, tr) for key in plain.options] == ["シナリオ", "Max rounds", "追加"]
    assert hooks.option_label(None, "short", str) == "Short"


def test_the_command_line_keeps_the_keys() -> None:
    """`setup --help` shows what one types (`short=true`); the labels are the page's."""
    shown = CliRunner().invoke(main, ["setup", "--help"]).output
    assert "short=true" in shown and "--option KEY=VALUE" in shown
    dealt = CliRunner().invoke(main, ["setup", "delphi", "-p", "2", "--seed", "1", "--option", "short=maybe"])
    assert dealt.exit_code == 2 and "--option short='maybe': expected true or false" in dealt.output
