"""Gods' gods on the page's deal form: a picker per seat, each god in words (Red / 赤), not a typed list.

Gods rulebook, ゲームの準備: each player takes a god (its colour); turns go round the table in seat order.
The form has a picker per seat up to the game's most players, each with "—" (not chosen); the script
shows only the chosen player count's seats. The pickers send `opt:gods` once per seat: the deal's
address has them joined (`opt:gods=green,red,blue`), exactly what `pnpforge setup gods --option
gods=green,red,blue` takes, and an old address with that comma form still deals and pre-selects them.
"""

from __future__ import annotations

import html
import re
import subprocess
import sys
from collections.abc import Iterator
from html.parser import HTMLParser
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit

import pytest
from test_browser import PHONE, _no_sideways_scroll, _type, _wait, browser, server  # noqa: F401

WORDS = {
    "en": {"red": "Red", "blue": "Blue", "green": "Green", "yellow": "Yellow"},
    "ja": {"red": "赤", "blue": "青", "green": "緑", "yellow": "黄"},
}
LEGEND = {"en": "Gods (in seat order)", "ja": "神(席順)"}
SEAT = {"en": "Seat {}", "ja": "席 {}"}
FORM = {"content-type": "application/x-www-form-urlencoded"}


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    from starlette.testclient import TestClient

    from pnpforge.web.app import create_app

    with TestClient(create_app(build_root=tmp_path_factory.mktemp("builds"))) as test_client:
        yield test_client


class _Seats(HTMLParser):
    """The deal form's pickers per seat: the fieldset's legend, and each seat's label, its options
    (value, words) and the value selected."""

    def __init__(self) -> None:
        super().__init__()
        self.inside = False
        self.where = ""  # "legend", "label", "option": what the text read belongs to
        self.legend = ""
        self.seats: list[dict[str, Any]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "fieldset" and "seats" in a.get("class", "").split():
            self.inside = True
        elif not self.inside:
            return
        elif tag == "legend":
            self.where = "legend"
        elif tag == "small":
            self.where = ""  # the hint, not the legend's words
        elif tag == "label":
            self.seats.append({"label": "", "options": [], "selected": None, "seat": a.get("data-seat")})
            self.where = "label"
        elif tag == "select":
            self.seats[-1]["name"] = a.get("name")
            self.where = ""
        elif tag == "option":
            self.seats[-1]["options"].append([a.get("value", ""), ""])
            if "selected" in a:
                self.seats[-1]["selected"] = a.get("value", "")
            self.where = "option"

    def handle_endtag(self, tag: str) -> None:
        if tag == "fieldset":
            self.inside = False
        elif tag in ("legend", "option", "label"):
            self.where = ""

    def handle_data(self, data: str) -> None:
        if self.where == "legend":
            self.legend += data
        elif self.where == "label":
            self.seats[-1]["label"] += data
        elif self.where == "option":
            self.seats[-1]["options"][-1][1] += data


def _seats(page: str) -> _Seats:
    found = _Seats()
    found.feed(page)
    return found


def _selected(page: str) -> list[str | None]:
    return [seat["selected"] for seat in _seats(page).seats]


def _dealt_file(page: str) -> str:
    found = re.search(r'<textarea name="setup"[^>]*>(.*?)</textarea>', page, re.S)
    assert found is not None
    return html.unescape(found.group(1)).strip()


def _problems(page: str) -> str:
    block = page.split('class="problems"')[1].split("</ul>")[0]
    return html.unescape(re.sub(r"<[^>]+>", "", block))


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pnpforge", "setup", "gods", *args],
        capture_output=True,
        text=True,
        check=False,
    )


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_picker_per_seat_lists_the_gods_in_words(client: Any, lang: str) -> None:
    page = client.get(f"/g/gods?lang={lang}")
    assert page.status_code == 200
    form = _seats(page.text)
    assert form.legend.strip() == LEGEND[lang]
    words = [["", "—"], *([key, word] for key, word in WORDS[lang].items())]
    # the most players the game allows (game.yaml: 2–4), each seat "—" at first: gods drawn at random
    assert [(s["seat"], s["label"], s["name"], s["options"], s["selected"]) for s in form.seats] == [
        (str(n), SEAT[lang].format(n), "opt:gods", words, None) for n in range(1, 5)
    ]
    assert 'name="opt:gods" value=' not in page.text  # no field left to type keys into


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_gods_picked_per_seat_deal_as_the_command_lines_comma_form(client: Any, lang: str) -> None:
    """The form as a browser sends it without a script: every seat, the unchosen ones blank. The deal's
    address has the gods joined as the CLI writes them, and its set-up file is the CLI's."""
    sent = [("lang", lang), ("players", "3"), ("seed", "41"), ("opt:variant", "")]
    sent += [("opt:gods", god) for god in ("green", "red", "blue", "")]
    posted = client.post("/g/gods/deal", content=urlencode(sent), headers=FORM, follow_redirects=False)
    assert posted.status_code == 303
    location = posted.headers["location"]
    assert urlsplit(location).query == f"players=3&seed=41&opt%3Agods=green%2Cred%2Cblue&lang={lang}"
    shown = client.get(location)
    assert shown.status_code == 200
    assert _selected(shown.text) == ["green", "red", "blue", None]  # the form under the deal, as picked
    cli = _cli("--players", "3", "--seed", "41", "--option", "gods=green,red,blue")
    assert cli.returncode == 0, cli.stderr
    assert _dealt_file(shown.text) == cli.stdout.strip()
    assert "\ngods: [green, red, blue]\n" in cli.stdout  # the seats in the order picked


def test_an_old_address_with_the_comma_form_deals_and_pre_selects_the_pickers(client: Any) -> None:
    """Each address deals what the CLI deals with the same `gods=` (its file's first line repeats it)."""
    for query, given in (
        ("opt%3Agods=yellow%2Cblue%2Cred%2Cgreen", "yellow,blue,red,green"),  # the address a deal led to
        ("opt:gods=yellow, blue, red, green", "yellow, blue, red, green"),  # typed by hand, as the CLI takes
        ("opt:gods=yellow&opt:gods=blue&opt:gods=red&opt:gods=green", "yellow,blue,red,green"),  # a GET form
    ):
        cli = _cli("--players", "4", "--seed", "8", "--option", f"gods={given}")
        assert cli.returncode == 0, cli.stderr
        shown = client.get(f"/g/gods/setup?players=4&seed=8&{query}&lang=ja")
        assert shown.status_code == 200, query
        assert _selected(shown.text) == ["yellow", "blue", "red", "green"], query
        assert _dealt_file(shown.text) == cli.stdout.strip(), query
    plain = client.get("/g/gods?players=4&seed=8&opt%3Agods=yellow%2Cblue%2Cred%2Cgreen&lang=en")
    assert plain.status_code == 200 and _dealt_file(plain.text) == cli.stdout.strip()


def test_no_god_picked_deals_them_at_random_and_the_address_leaves_them_out(client: Any) -> None:
    sent = [("lang", "en"), ("players", "2"), ("seed", "3")] + [("opt:gods", "")] * 4
    posted = client.post("/g/gods/deal", content=urlencode(sent), headers=FORM, follow_redirects=False)
    assert urlsplit(posted.headers["location"]).query == "players=2&seed=3&lang=en"
    cli = _cli("--players", "2", "--seed", "3")
    assert _dealt_file(client.get(posted.headers["location"]).text) == cli.stdout.strip()


PROBLEMS = {
    ("red", "blue", "red"): {
        "en": "«Gods (in seat order)»: red is at seat 1 and at seat 3 (expected a different god at each "
        "seat)",
        "ja": "«神(席順)»: 赤が席 1 と席 3 の両方にいます(席ごとに異なる神を選んでください)",
        "cli": "--option gods: red is at seat 1 and at seat 3",
    },
    ("red", "", "blue"): {
        "en": "«Gods (in seat order)»: seat 2 has no god (expected a god at each of the 3 seats, or none "
        "for gods drawn at random)",
        "ja": "«神(席順)»: 席 2 に神がいません(3 席すべてに神を選ぶか、すべて — にして"
        "ランダムにしてください)",
        "cli": "--option gods: seat 2 has no god",
    },
    ("green", "", ""): {
        "en": "«Gods (in seat order)»: seat 2 has no god (expected a god at each of the 3 seats",
        "ja": "«神(席順)»: 席 2 に神がいません",
        "cli": "--option gods: seat 2 has no god",
    },
}


@pytest.mark.parametrize("picked", sorted(PROBLEMS))
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_god_twice_or_a_seat_left_out_is_a_problem_at_the_field(
    client: Any, lang: str, picked: tuple[str, ...]
) -> None:
    sent = [("lang", lang), ("players", "3"), ("seed", "5")] + [("opt:gods", g) for g in (*picked, "")]
    posted = client.post("/g/gods/deal", content=urlencode(sent), headers=FORM, follow_redirects=False)
    assert posted.status_code == 303
    shown = client.get(posted.headers["location"])
    assert shown.status_code == 400
    said = _problems(shown.text)
    assert PROBLEMS[picked][lang] in said, said
    assert "--option" not in said and "Traceback" not in shown.text
    assert _selected(shown.text) == [g or None for g in picked] + [None]  # kept as picked, to mend
    joined = dict(parse_qsl(urlsplit(posted.headers["location"]).query))["opt:gods"]
    cli = _cli("--players", "3", "--seed", "5", "--option", f"gods={joined}")
    assert cli.returncode == 2 and "Traceback" not in cli.stderr
    assert PROBLEMS[picked]["cli"] in cli.stderr, cli.stderr


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_god_at_a_seat_beyond_the_player_count_is_a_problem(client: Any, lang: str) -> None:
    """Without the script every seat shows: a god picked at seat 3 of a 2-player deal is refused."""
    expected = {
        "en": "«Gods (in seat order)»: a god at seat 3 with 2 players (expected gods at seats 1 to 2)",
        "ja": "«神(席順)»: 2 人プレイで席 3 に神がいます(神は席 1 から席 2 までに選んでください)",
    }
    picked = ("red", "", "green", "")
    sent = [("lang", lang), ("players", "2"), ("seed", "5")] + [("opt:gods", g) for g in picked]
    posted = client.post("/g/gods/deal", content=urlencode(sent), headers=FORM, follow_redirects=False)
    shown = client.get(posted.headers["location"])
    assert shown.status_code == 400 and expected[lang] in _problems(shown.text)
    assert _selected(shown.text) == ["red", None, "green", None]
    cli = _cli("--players", "2", "--seed", "5", "--option", "gods=red,,green")
    assert cli.returncode == 2 and "--option gods: a god at seat 3 with 2 players" in cli.stderr


def test_a_colour_that_is_no_god_is_the_old_problem(client: Any) -> None:
    """An address typed by hand with a key that is no god: the value as typed, the gods there are."""
    shown = client.get("/g/gods/setup?players=2&seed=5&opt:gods=red,purple&lang=en")
    expected = (
        "«Gods (in seat order)»='red,purple': expected 2 different colours from red, blue, green, yellow"
    )
    assert shown.status_code == 400 and expected in _problems(shown.text)


# -- in chromium at a phone's size, with and without the script ---------------------------------------


def _shown_seats(driver: Any) -> list[int]:
    """The seats whose picker the browser shows."""
    seats: list[int] = driver.execute_script(
        "return Array.from(document.querySelectorAll('form.deal label[data-seat]'))"
        ".filter((l) => l.checkVisibility()).map((l) => Number(l.dataset.seat));"
    )
    return seats


def _inside_the_screen(driver: Any) -> None:
    """Every field of the deal form lies inside the phone's width (the body clips what overflows, so the
    page's width alone would not tell)."""
    _no_sideways_scroll(driver)
    outside = driver.execute_script(
        "return Array.from(document.querySelectorAll('form.deal select, form.deal input, form.deal button,"
        " form.deal legend')).filter((e) => e.checkVisibility()).map((e) => e.getBoundingClientRect())"
        ".filter((r) => r.left < 0 || r.right > window.innerWidth).length;"
    )
    assert outside == 0


@pytest.mark.parametrize("script", [True, False], ids=["js", "no-js"])
def test_picking_gods_by_their_words_in_chromium_deals_the_command_lines_set_up(
    browser: Any,  # noqa: F811
    server: str,  # noqa: F811
    script: bool,
) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.select import Select

    browser.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": PHONE[0], "height": PHONE[1], "deviceScaleFactor": 2, "mobile": True},
    )
    browser.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": not script})
    try:
        browser.get(f"{server}/g/gods?lang=ja")
        _wait(lambda: browser.find_elements(By.CSS_SELECTOR, "form.deal"))
        players = Select(browser.find_element(By.NAME, "players"))
        assert players.first_selected_option.text == "2"
        assert _shown_seats(browser) == ([1, 2] if script else [1, 2, 3, 4])
        players.select_by_visible_text("3")
        assert _shown_seats(browser) == ([1, 2, 3] if script else [1, 2, 3, 4])
        _inside_the_screen(browser)
        pickers = browser.find_elements(By.CSS_SELECTOR, 'form.deal select[name="opt:gods"]')
        for picker, word in zip(pickers, ("緑", "赤", "青"), strict=False):
            Select(picker).select_by_visible_text(word)
        _type(browser, "seed", "29")
        browser.find_element(By.CSS_SELECTOR, "form.deal button").click()
        _wait(lambda: browser.find_elements(By.ID, "seed"))
        address = urlsplit(browser.current_url)
        assert address.query == "players=3&seed=29&opt%3Agods=green%2Cred%2Cblue&lang=ja", address
        cli = _cli("--players", "3", "--seed", "29", "--option", "gods=green,red,blue")
        assert cli.returncode == 0, cli.stderr
        assert browser.find_element(By.NAME, "setup").get_attribute("value").strip() == cli.stdout.strip()
        chosen = [
            Select(p).first_selected_option.get_attribute("textContent")  # a hidden seat too
            for p in browser.find_elements(By.CSS_SELECTOR, 'form.deal select[name="opt:gods"]')
        ]
        assert chosen == ["緑", "赤", "青", "—"]  # the form under the deal: the gods picked, in words
        assert _shown_seats(browser) == ([1, 2, 3] if script else [1, 2, 3, 4])
        _inside_the_screen(browser)
    finally:
        browser.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": False})
