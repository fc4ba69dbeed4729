"""`pnpforge serve` in a real browser: the system chromium at a phone's viewport, driven by Selenium.

Only the system chromium and chromedriver are used (their paths are given, so Selenium never looks for
or downloads a driver). Without them the tests skip and say why; PNPFORGE_REQUIRE_BROWSER=1 (set by
.ci/run) makes that a failure instead.
"""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
PHONE = (390, 844)


def _need_browser() -> None:
    missing = [p for p in (CHROMIUM, CHROMEDRIVER) if not Path(p).is_file()]
    try:
        import selenium  # noqa: F401
    except ImportError:
        missing.append("the selenium package")
    if missing:
        reason = (
            "no browser to drive: missing "
            + ", ".join(missing)
            + " (apt-get install chromium chromium-driver)"
        )
        if os.environ.get("PNPFORGE_REQUIRE_BROWSER") == "1":
            pytest.fail(reason + "; PNPFORGE_REQUIRE_BROWSER=1 asks for these tests to run")
        pytest.skip(reason)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    _need_browser()
    import uvicorn

    from pnpforge.web.app import create_app

    port = _free_port()
    config = uvicorn.Config(create_app(), host="127.0.0.1", port=port, log_level="warning")
    running = uvicorn.Server(config)
    thread = threading.Thread(target=running.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not running.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    running.should_exit = True
    thread.join(10)


@pytest.fixture(scope="module")
def browser(server: str) -> Iterator[Any]:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.selenium_manager import SeleniumManager

    def refuse(*args: Any) -> Any:
        raise AssertionError("Selenium Manager was asked for a driver: nothing may be downloaded")

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--lang=en-US",
    ):
        options.add_argument(flag)
    options.add_argument(f"--window-size={PHONE[0]},{PHONE[1]}")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(SeleniumManager, "binary_paths", refuse)
        driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": PHONE[0], "height": PHONE[1], "deviceScaleFactor": 2, "mobile": True},
    )
    yield driver
    driver.quit()


def _wait(condition: Any, seconds: float = 15.0) -> Any:
    from selenium.common.exceptions import WebDriverException

    deadline = time.monotonic() + seconds
    while True:
        try:
            value = condition()
        except WebDriverException:  # a live update replaced the element, or a page is loading: look again
            value = None
        if value:
            return value
        assert time.monotonic() < deadline, "timed out waiting for the page"
        time.sleep(0.05)


def _replaced(element: Any) -> bool:
    """Whether the page holding `element` has been replaced by another (a form's POST answered)."""
    from selenium.common.exceptions import WebDriverException

    try:
        return element.tag_name == ""  # reading it raises once its page is gone
    except WebDriverException:  # stale, or mid-navigation: "node does not belong to the document"
        return True


def _no_sideways_scroll(driver: Any) -> None:
    width = driver.execute_script("return document.documentElement.scrollWidth")
    assert width <= PHONE[0], f"the page is {width} px wide at a {PHONE[0]} px viewport"


def _type(driver: Any, name: str, value: str) -> None:
    from selenium.webdriver.common.by import By

    box = driver.find_element(By.NAME, name)
    box.clear()
    box.send_keys(value)


def test_gods_score_sheet_for_three_players(browser: Any, server: str, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By

    browser.get(f"{server}/g/gods?lang=en")
    browser.find_element(By.CSS_SELECTOR, "button[name=action][value=add]").click()
    _wait(lambda: browser.find_elements(By.NAME, "p2:name"))
    table = {
        "Ann": {"villages": "2", "vp_cards": "1", "temples": "1", "crystals": "3"},
        "Bob": {"villages": "1", "vp_cards": "3", "temples": "2", "crystals": "1"},
        "Cy": {"villages": "0", "vp_cards": "1", "temples": "0", "crystals": "5"},
    }
    for index, (name, numbers) in enumerate(table.items()):
        _type(browser, f"p{index}:name", name)
        for key, value in numbers.items():
            _type(browser, f"p{index}:{key}", value)
    # Ann 2*3 + 1*2 = 8; Bob 1*3 + 3*2 + 4 (most temples) = 13; Cy 2: Bob wins, read from the live update
    _wait(lambda: browser.find_element(By.ID, "verdict").text == "Winner: Bob with 13.")
    # read inside _wait: a late live update (the "change" after the last keystroke) may replace the table
    _wait(lambda: [td.text for td in browser.find_elements(By.CSS_SELECTOR, "td.total")] == ["8", "13", "2"])
    _no_sideways_scroll(browser)
    browser.save_screenshot(str(tmp_path / "gods-score.png"))
    # a rule break shows next to its field, with the CLI's code
    _type(browser, "p0:villages", "7")
    note = _wait(lambda: browser.find_element(By.CSS_SELECTOR, '.err[data-for="p0:villages"]').text)
    assert "[too-many-villages]" in note
    assert (tmp_path / "gods-score.png").stat().st_size > 10_000


def test_delphi_deal_and_check_marks_the_violation(browser: Any, server: str, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    browser.get(f"{server}/g/delphi?lang=en")
    Select(browser.find_element(By.NAME, "players")).select_by_visible_text("3")
    _type(browser, "seed", "7")
    browser.find_element(By.CSS_SELECTOR, "form.deal button").click()
    _wait(lambda: browser.find_elements(By.ID, "seed"))
    assert browser.find_element(By.ID, "seed").text == "7"
    assert browser.find_element(By.ID, "report").get_attribute("data-valid") == "yes"
    assert not browser.find_elements(By.CSS_SELECTOR, ".marks .mark")
    _no_sideways_scroll(browser)
    browser.save_screenshot(str(tmp_path / "delphi-dealt.png"))
    area = browser.find_element(By.NAME, "setup")
    dealt = area.get_attribute("value")
    legal = "{at: [-3, -4], colour: red, count: 3}"
    assert legal in dealt
    broken = dealt.replace(legal, "{at: [4, -5], colour: red, count: 3}")  # red statues on the pink city
    browser.execute_script("arguments[0].value = arguments[1]", area, broken)
    browser.find_element(By.CSS_SELECTOR, "form.checkform button.primary").click()
    _wait(lambda: browser.find_elements(By.CSS_SELECTOR, "#report[data-valid=no]"))
    items = browser.find_elements(By.CSS_SELECTOR, ".violations li[data-error]")
    assert [i.find_element(By.TAG_NAME, "code").text for i in items] == ["statue-wrong-city"]
    marks = browser.find_elements(By.CSS_SELECTOR, ".marks .mark[data-code=statue-wrong-city]")
    assert marks, "the violation is not marked on the board"
    assert marks[0].size["width"] > 5 and marks[0].is_displayed()
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", marks[0])
    _no_sideways_scroll(browser)
    browser.save_screenshot(str(tmp_path / "delphi-marked.png"))
    assert (tmp_path / "delphi-marked.png").stat().st_size > 10_000


# -- issue 21: marks in their hex, language links after a POST, offline, readable at phone sizes ----


def _metrics(driver: Any, width: int, height: int) -> None:
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 2, "mobile": True},
    )


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    """The browser at 390×844, online, put back so after each test."""
    _metrics(browser, *PHONE)
    yield browser
    browser.execute_cdp_cmd("Network.emulateNetworkConditions", _network(offline=False))
    _metrics(browser, *PHONE)


def _network(offline: bool) -> dict[str, Any]:
    return {"offline": offline, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}


def test_an_ankh_mark_lies_in_its_hex_on_the_turned_board(phone: Any, server: str) -> None:
    from selenium.webdriver.common.by import By

    phone.get(f"{server}/g/ankh?lang=en&players=3&seed=7")
    area = _wait(lambda: phone.find_element(By.NAME, "setup"))
    dealt = area.get_attribute("value")
    warrior = "{piece: warrior, at: [1, 5], player: 3}"
    assert warrior in dealt
    broken = dealt.replace(warrior, "{piece: warrior, at: [0, 5], player: 3}")  # onto the obelisk
    phone.execute_script("arguments[0].value = arguments[1]", area, broken)
    phone.find_element(By.CSS_SELECTOR, "form.checkform button.primary").click()
    _wait(lambda: phone.find_elements(By.CSS_SELECTOR, "#report[data-valid=no]"))
    ring = phone.find_element(By.CSS_SELECTOR, ".mark.ring[data-code=space-occupied]")
    phone.execute_script("arguments[0].scrollIntoView({block: 'center', inline: 'center'})", ring)
    found = phone.execute_script(
        """
        const ring = arguments[0].getBoundingClientRect();
        const x = ring.left + ring.width / 2, y = ring.top + ring.height / 2;
        const cell = document.querySelector('polygon.mark[data-code=space-occupied]').getBoundingClientRect();
        const under = document.elementsFromPoint(x, y)
          .filter(e => e.tagName === 'polygon' && !e.classList.contains('mark'))
          .map(e => e.getBoundingClientRect());
        return {x: x, y: y, cell: [cell.left, cell.top, cell.right, cell.bottom],
                under: under.map(r => [r.left, r.top, r.right, r.bottom])};
        """,
        ring,
    )
    left, top, right, bottom = found["cell"]
    assert left < found["x"] < right and top < found["y"] < bottom, "the ring is off its marked hex"
    # the hex drawn under the ring's centre is the marked one: the mark turned with the board
    assert any(all(abs(a - b) < 1.0 for a, b in zip(u, found["cell"], strict=True)) for u in found["under"])


def test_language_links_work_after_a_post(phone: Any, server: str) -> None:
    from selenium.webdriver.common.by import By

    phone.get(f"{server}/g/delphi?lang=en")
    _type(phone, "seed", "7")
    phone.find_element(By.CSS_SELECTOR, "form.deal button").click()
    _wait(lambda: phone.find_elements(By.ID, "seed"))
    phone.find_element(By.CSS_SELECTOR, ".langs a:not([aria-current])").click()
    _wait(lambda: phone.find_element(By.TAG_NAME, "html").get_attribute("lang") == "ja")
    assert phone.find_element(By.ID, "seed").text == "7"  # the same deal, now in Japanese
    before = phone.find_element(By.TAG_NAME, "html")
    phone.find_element(By.CSS_SELECTOR, "#sheet button[value=count]").click()  # a POST from the ja page
    _wait(lambda: _replaced(before))  # the links below are the answer page's, not the sheet's
    _wait(lambda: phone.find_elements(By.ID, "verdict"))
    phone.find_element(By.CSS_SELECTOR, ".langs a:not([aria-current])").click()
    _wait(lambda: phone.find_element(By.TAG_NAME, "html").get_attribute("lang") == "en")
    assert "405" not in phone.title and phone.find_elements(By.ID, "sheet")


def test_offline_says_so_and_keeps_the_typed_values(phone: Any, server: str) -> None:
    from selenium.webdriver.common.by import By

    phone.get(f"{server}/g/gods?lang=en")
    _type(phone, "p0:villages", "2")
    _wait(lambda: "Winner" in phone.find_element(By.ID, "verdict").text)
    phone.execute_cdp_cmd("Network.enable", {})
    phone.execute_cdp_cmd("Network.emulateNetworkConditions", _network(offline=True))
    _type(phone, "p0:villages", "3")
    banner = phone.find_element(By.ID, "offline")
    _wait(banner.is_displayed)
    assert "Offline" in banner.text and not phone.find_element(By.CSS_SELECTOR, ".js-hint").is_displayed()
    phone.find_element(By.CSS_SELECTOR, "#sheet button[value=count]").click()
    time.sleep(0.5)
    assert phone.find_element(By.NAME, "p0:villages").get_attribute("value") == "3"  # still the page
    assert "stale" in phone.find_element(By.ID, "result").get_attribute("class")
    phone.execute_cdp_cmd("Network.emulateNetworkConditions", _network(offline=False))
    _wait(lambda: not phone.find_element(By.ID, "offline").is_displayed())
    _wait(lambda: "stale" not in phone.find_element(By.ID, "result").get_attribute("class"))


def _label_heights(driver: Any) -> list[float]:
    script = "return Array.from(document.querySelectorAll('svg.board text'))"
    script += ".map(t => t.getBoundingClientRect().height).filter(h => h > 0)"
    return list(driver.execute_script(script))


def _label_sizes(driver: Any) -> list[float]:
    """The board's labels as the screen shows them: each one's font size times the scale (CSS px per
    unit of the drawing) the browser draws it at."""
    script = """return Array.from(document.querySelectorAll('svg.board text')).map(t => {
        const m = t.getScreenCTM();
        return parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b); });"""
    return list(driver.execute_script(script))


def _caption(driver: Any) -> dict[str, Any]:
    """The board's title and legend as the page shows them: font sizes (CSS px), right edges, and
    whether every swatch picture was drawn."""
    script = """
    const title = document.querySelector('.boardtitle'), items = document.querySelectorAll('.legend li');
    const size = e => parseFloat(getComputedStyle(e).fontSize);
    return {title: size(title), titleRight: title.getBoundingClientRect().right,
            titleCut: title.scrollWidth > title.clientWidth,
            legend: Array.from(items).map(size),
            legendRight: Math.max(...Array.from(items).map(e => e.getBoundingClientRect().right)),
            legendShown: Array.from(items).every(e => e.getBoundingClientRect().height > 0),
            swatches: Array.from(document.querySelectorAll('.legend img')).map(i => i.naturalWidth)};"""
    return dict(driver.execute_script(script))


UNLABELLED = {"gods", "good-shepherds"}  # boards whose dealt picture has marks and no words on it


@pytest.mark.parametrize("game", ["delphi", "ankh", "good-shepherds", "gods", "quo-vadis"])
@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("script", ["js", "no-js"])
def test_board_labels_are_readable_at_390_and_whole_in_landscape(
    phone: Any, server: str, game: str, lang: str, script: str, tmp_path: Path
) -> None:
    """The whole board fits the screen with its title and legend as the page's text (>= 12 CSS px, not
    shrunk with the board, nothing cut at the right); zoomed, every label is >= 12 CSS px."""
    from selenium.webdriver.common.by import By

    players = 2 if game == "good-shepherds" else 3
    phone.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": script == "no-js"})
    try:
        phone.get(f"{server}/g/{game}/setup?lang={lang}&players={players}&seed=7")
        _wait(lambda: phone.find_elements(By.CSS_SELECTOR, "svg.board"))
        # the whole board first, inside the screen's width, its labels too (nothing cut at the right)
        edges = phone.execute_script(
            """const svg = document.querySelector('svg.board').getBoundingClientRect();
            const texts = Array.from(document.querySelectorAll('svg.board text'))
              .map(t => t.getBoundingClientRect());
            return [svg.left, svg.right, Math.max(svg.left, ...texts.map(t => t.right)),
                    Math.min(svg.right, ...texts.map(t => t.left))];"""
        )
        assert edges[1] <= PHONE[0] and edges[2] <= edges[1] + 1 and edges[3] >= edges[0] - 1, edges
        whole = _caption(phone)
        assert whole["title"] >= 12 and whole["titleRight"] <= PHONE[0] and not whole["titleCut"], whole
        assert whole["legend"] and min(whole["legend"]) >= 12, whole
        assert whole["legendRight"] <= PHONE[0] and whole["legendShown"], whole
        assert all(width > 0 for width in whole["swatches"]), whole  # each swatch drawn (CSP allows it)
        phone.save_screenshot(str(tmp_path / f"{game}-{lang}-{script}-whole.png"))
        width = "return document.querySelector('svg.board').getBoundingClientRect().width"
        fitted = phone.execute_script(width)
        phone.find_element(By.CSS_SELECTOR, "label.boardpic").click()  # a tap: zoomed, labels readable
        _wait(lambda: phone.find_element(By.ID, "zoom-board").is_selected())
        sizes = _label_sizes(phone)
        zoomed = phone.execute_script(width)
        assert zoomed > 1.1 * fitted, (fitted, zoomed)  # the tap shows more than the whole view did
        if game in UNLABELLED:  # no labels to size it by: twice the width
            assert not sizes and abs(zoomed - 2 * fitted) < 2, (sizes, fitted, zoomed)
        else:
            assert sizes and min(sizes) >= 12, f"the smallest label is {min(sizes or [0]):.1f} CSS px"
        assert _caption(phone)["legend"] == whole["legend"]  # the legend keeps its size
        _no_sideways_scroll(phone)
        phone.save_screenshot(str(tmp_path / f"{game}-{lang}-{script}-zoomed.png"))
        _metrics(phone, 844, 390)  # on its side: the whole board in view at once
        board = phone.find_element(By.CSS_SELECTOR, "svg.board")
        phone.execute_script("arguments[0].scrollIntoView({block: 'start'})", board)
        box = phone.execute_script(
            "const r = arguments[0].getBoundingClientRect(); return [r.top, r.bottom, r.left, r.right]",
            board,
        )
        assert box[0] >= -1 and box[1] <= 390 + 1 and box[2] >= 0 and box[3] <= 844, box
        phone.save_screenshot(str(tmp_path / f"{game}-{lang}-{script}-landscape.png"))
    finally:
        phone.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": False})


def _sticky_height(driver: Any) -> float:
    """CSS px of the viewport covered by elements that stay put as the page scrolls."""
    script = """
    let covered = 0;
    for (const e of document.querySelectorAll('body *')) {
      const style = getComputedStyle(e);
      if ((style.position === 'sticky' || style.position === 'fixed') && e.offsetParent !== null) {
        const r = e.getBoundingClientRect();
        const inView = Math.max(0, Math.min(r.bottom, innerHeight) - Math.max(r.top, 0));
        if (inView > 0 && (r.top <= 1 || r.bottom >= innerHeight - 1)) covered += inView;
      }
    }
    return covered;
    """
    return float(driver.execute_script(script))


@pytest.mark.parametrize(("width", "height"), [(390, 844), (844, 390)])
def test_sticky_bars_take_at_most_a_quarter_and_the_verdict_shows(
    phone: Any, server: str, width: int, height: int
) -> None:
    from selenium.webdriver.common.by import By

    _metrics(phone, width, height)
    phone.get(f"{server}/g/quo-vadis?lang=en")
    for name in ("p0:name", "p1:name", "p2:name"):
        _type(phone, name, name[:2])
    before = phone.find_element(By.TAG_NAME, "html")  # the page the POST replaces (live updates keep it)
    phone.find_element(By.CSS_SELECTOR, "#sheet button[value=count]").click()  # no JS needed: a POST
    _wait(lambda: _replaced(before))
    # after Count the verdict comes into view (the answer page scrolls to it) and not under a sticky bar
    in_view = (
        "const r = document.getElementById('verdict')?.getBoundingClientRect();"
        "return r && r.top >= 0 && r.bottom <= arguments[0] ? [r.top, r.bottom] : null"
    )
    _wait(lambda: phone.execute_script(in_view, height), seconds=5)
    verdict = phone.find_element(By.ID, "verdict")
    centre = phone.execute_script(
        "const r = arguments[0].getBoundingClientRect();"
        "const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);"
        "return hit.closest('#verdict') !== null",
        verdict,
    )
    assert centre, "the verdict is covered"
    for y in (height, 2 * height, 3 * height):  # anywhere on the sheet
        phone.execute_script("window.scrollTo(0, arguments[0])", y)
        covered = _sticky_height(phone)
        assert covered <= height * 0.25, f"sticky bars cover {covered:.0f} of {height} px"


def test_untouched_sheet_is_neutral_and_money_takes_a_minus(phone: Any, server: str) -> None:
    from selenium.webdriver.common.by import By

    phone.get(f"{server}/g/quo-vadis?lang=en")
    assert phone.find_element(By.ID, "verdict").text == "Fill in the counts to see the totals."
    assert not phone.find_elements(By.CSS_SELECTOR, ".verdict.bad, [aria-invalid]")
    phone.get(f"{server}/g/good-shepherds?lang=en")
    money = phone.find_element(By.NAME, "p0:money")
    money.send_keys("-5")
    assert money.get_attribute("value") == "-5"
    _type(phone, "p0:name", "Ann")
    _wait(lambda: phone.find_element(By.ID, "verdict").text != "Fill in the counts to see the totals.")


def test_the_pdf_link_is_in_view_after_a_build(phone: Any, server: str) -> None:
    from selenium.webdriver.common.by import By

    phone.get(f"{server}/g/good-shepherds?lang=en")
    phone.find_element(By.CSS_SELECTOR, "form.build button").click()
    link = _wait(lambda: phone.find_elements(By.ID, "pdf"), seconds=120)[0]
    top, bottom = phone.execute_script(
        "const r = arguments[0].getBoundingClientRect(); return [r.top, r.bottom]", link
    )
    assert top >= 0 and bottom <= PHONE[1], (top, bottom)


# -- issue 28: another site's page refused, the page's own forms kept (with and without JS), a deal's address


def test_another_sites_page_cannot_post_but_this_page_can_without_js(phone: Any, server: str) -> None:
    from selenium.webdriver.common.by import By

    port = server.rsplit(":", 1)[1]
    phone.get(f"http://localhost:{port}/?lang=en")  # another origin: the same server under another name
    phone.execute_script(
        """
        const form = document.createElement('form');
        form.method = 'post';
        form.action = arguments[0];
        const field = document.createElement('input');
        field.name = 'players'; field.value = '3';
        form.appendChild(field);
        document.body.appendChild(form);
        form.submit();
        """,
        f"{server}/g/gods/deal",
    )
    _wait(lambda: "another site" in phone.find_element(By.TAG_NAME, "body").text)
    assert "/g/gods/deal" in phone.current_url and not phone.find_elements(By.ID, "seed")
    phone.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": True})
    try:  # the page's own forms, posted by the browser itself (no script), are answered
        phone.get(f"{server}/g/gods?lang=en")
        _type(phone, "seed", "5")
        phone.find_element(By.CSS_SELECTOR, "form.deal button").click()
        _wait(lambda: phone.find_elements(By.ID, "seed"))
        assert phone.find_element(By.ID, "seed").text == "5"
        before = phone.find_element(By.TAG_NAME, "html")
        phone.find_element(By.CSS_SELECTOR, "form.checkform button.primary").click()
        _wait(lambda: _replaced(before))
        _wait(lambda: phone.find_elements(By.CSS_SELECTOR, "#report[data-valid=yes]"))
    finally:
        phone.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": False})


def test_a_deal_is_an_address_that_a_reload_shows_again(phone: Any, server: str) -> None:
    from selenium.webdriver.common.by import By

    phone.get(f"{server}/g/delphi?lang=en")
    _type(phone, "seed", "11")
    phone.find_element(By.CSS_SELECTOR, "form.deal button").click()
    _wait(lambda: phone.find_elements(By.ID, "seed"))
    address = phone.current_url
    assert "/g/delphi/setup?" in address and "seed=11" in address, address
    dealt = phone.find_element(By.NAME, "setup").get_attribute("value")
    phone.refresh()  # a GET of the deal's address: no "resubmit the form?" and the same deal
    _wait(
        lambda: phone.execute_script("return performance.getEntriesByType('navigation')[0].type") == "reload"
    )
    assert phone.execute_script("return performance.getEntriesByType('navigation')[0].name") == address
    assert phone.find_element(By.ID, "seed").text == "11"
    assert phone.find_element(By.NAME, "setup").get_attribute("value") == dealt


def test_a_marked_tile_keeps_its_colour_and_the_board_opens_whole(
    phone: Any, server: str, tmp_path: Path
) -> None:
    """Pixels inside a marked (and focused) tile are the same with the marks shown and hidden."""
    import io

    from PIL import Image
    from selenium.webdriver.common.by import By

    phone.get(f"{server}/g/delphi?lang=en&players=3&seed=7")
    dealt = _wait(lambda: phone.find_element(By.NAME, "setup"))
    text = dealt.get_attribute("value")
    broken = text.replace("{at: [-3, -4], colour: red, count: 3}", "{at: [4, -5], colour: red, count: 3}")
    phone.execute_script("arguments[0].value = arguments[1]", dealt, broken)
    phone.find_element(By.CSS_SELECTOR, "form.checkform button.primary").click()
    _wait(lambda: phone.find_elements(By.CSS_SELECTOR, "#report[data-valid=no]"))
    width = phone.execute_script("return document.querySelector('svg.board').getBoundingClientRect().width")
    assert width <= PHONE[0]  # the whole board first
    phone.find_element(By.CSS_SELECTOR, ".violations li[data-error='0']").click()  # focused, zoomed in
    _wait(lambda: phone.find_element(By.ID, "zoom-board").is_selected())
    time.sleep(0.8)  # the smooth scroll to the mark
    points = phone.execute_script(
        """const m = document.querySelector('polygon.mark.focus');
        const r = m.getBoundingClientRect(), cx = r.left + r.width / 2, cy = r.top + r.height / 2;
        return [[cx, cy], [cx - r.width * .3, cy], [cx + r.width * .3, cy], [cx, cy - r.height * .3]];"""
    )
    phone.save_screenshot(str(tmp_path / "delphi-focused.png"))
    shown = Image.open(io.BytesIO(phone.get_screenshot_as_png())).convert("RGB")
    phone.execute_script("document.querySelector('g.marks').style.visibility = 'hidden'")
    hidden = Image.open(io.BytesIO(phone.get_screenshot_as_png())).convert("RGB")
    phone.execute_script("document.querySelector('g.marks').style.visibility = ''")
    scale = shown.width / PHONE[0]
    for x, y in points:
        at = (int(x * scale), int(y * scale))
        assert shown.getpixel(at) == hidden.getpixel(at), (at, shown.getpixel(at), hidden.getpixel(at))
    fills = phone.execute_script(
        "return Array.from(document.querySelectorAll('.marks .mark')).map(m => getComputedStyle(m).fill)"
    )
    assert fills and all(f == "none" for f in fills), fills


def test_without_js_the_board_opens_whole_and_a_tap_zooms(phone: Any, server: str, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By

    phone.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": True})
    try:
        phone.get(f"{server}/g/ankh/setup?lang=en&players=3&seed=7")
        board = _wait(lambda: phone.find_element(By.CSS_SELECTOR, "svg.board"))
        whole = phone.execute_script("return arguments[0].getBoundingClientRect().width", board)
        assert whole <= PHONE[0]
        phone.execute_script("arguments[0].scrollIntoView({block: 'center'})", board)
        phone.save_screenshot(str(tmp_path / "ankh-whole-nojs.png"))
        phone.find_element(By.CSS_SELECTOR, "label.boardpic").click()
        zoomed = phone.execute_script("return arguments[0].getBoundingClientRect().width", board)
        assert zoomed > 1.5 * PHONE[0] and min(_label_heights(phone)) >= 12
        _no_sideways_scroll(phone)
    finally:
        phone.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": False})


# -- a deal option's label: the rulebook's words, with and without JS, in English and Japanese

OPTION_LABELS = {
    ("delphi", "en"): {"short": "Short game", "remove": "Tasks to remove"},
    ("delphi", "ja"): {"short": "ショートゲーム", "remove": "減らすタスク数"},
    ("gods", "en"): {"variant": "Variant", "gods": "Gods (in seat order)"},
    ("gods", "ja"): {"variant": "ヴァリアント", "gods": "神(席順)"},
    ("ankh", "en"): {"scenario": "Scenario"},
    ("ankh", "ja"): {"scenario": "シナリオ"},
}


def _shown_option_labels(driver: Any) -> dict[str, str]:
    """Each deal option's label as the browser shows it (its label's first line, without the hint; a
    picker per seat: its fieldset's legend)."""
    shown: dict[str, str] = driver.execute_script(
        """
        const out = {};
        for (const field of document.querySelectorAll('form.deal [name^="opt:"]')) {
          const box = field.closest('fieldset');
          const label = box ? box.querySelector('legend') : field.closest('label');
          if (!label || !label.checkVisibility()) continue;
          const words = Array.from(label.childNodes)
            .filter((n) => n.nodeType === Node.TEXT_NODE).map((n) => n.textContent).join(' ');
          out[field.name.slice(4)] = words.trim();
        }
        return out;
        """
    )
    return shown


# and each picker's values in words, the value each sends being the key (the count of tasks: a number)
OPTION_VALUES = {
    ("delphi", "en"): {"short": {"true": "Yes (8 tasks)", "false": "No (12 tasks)"}},
    ("delphi", "ja"): {"short": {"true": "はい(8タスク)", "false": "いいえ(12タスク)"}},
    ("gods", "en"): {
        "variant": {"stack": "Tile stack (standard)", "bag": "Tile bag (variant)"},
        "gods": {"red": "Red", "blue": "Blue", "green": "Green", "yellow": "Yellow"},
    },
    ("gods", "ja"): {
        "variant": {"stack": "タイルの山(通常)", "bag": "袋(ヴァリアント)"},
        "gods": {"red": "赤", "blue": "青", "green": "緑", "yellow": "黄"},
    },
    ("ankh", "en"): {"scenario": {"MiddleKingdom": "Middle Kingdom", "OldKingdom": "Old Kingdom"}},
    ("ankh", "ja"): {"scenario": {"MiddleKingdom": "中王国", "OldKingdom": "古王国"}},
}


def _shown_option_values(driver: Any) -> dict[str, dict[str, str]]:
    """Each picker's values as the browser lists them: the value sent -> the words shown (not a count)."""
    shown: dict[str, dict[str, str]] = driver.execute_script(
        """
        const out = {};
        for (const select of document.querySelectorAll('form.deal select[name^="opt:"]')) {
          const words = {};
          for (const option of select.options) {
            if (option.value && !/^[0-9]+$/.test(option.value)) words[option.value] = option.text;
          }
          if (Object.keys(words).length) out[select.name.slice(4)] = words;
        }
        return out;
        """
    )
    return shown


@pytest.mark.parametrize("script", [True, False], ids=["js", "no-js"])
def test_the_deal_form_says_each_option_in_the_players_words(phone: Any, server: str, script: bool) -> None:
    phone.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": not script})
    try:
        for (game, lang), labels in OPTION_LABELS.items():
            phone.get(f"{server}/g/{game}?lang={lang}")
            _wait(lambda: phone.find_elements("css selector", "form.deal"))
            assert _shown_option_labels(phone) == labels, (game, lang)
            assert _shown_option_values(phone) == OPTION_VALUES[game, lang], (game, lang)
    finally:
        phone.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": False})


@pytest.mark.parametrize("script", [True, False], ids=["js", "no-js"])
def test_a_value_picked_by_its_words_deals_with_its_key(phone: Any, server: str, script: bool) -> None:
    """Pick はい(8タスク) by the words shown and deal: the address and the set-up say `short=true`."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.select import Select

    phone.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": not script})
    try:
        phone.get(f"{server}/g/delphi?lang=ja")
        Select(phone.find_element(By.NAME, "opt:short")).select_by_visible_text("はい(8タスク)")
        _type(phone, "seed", "5")
        phone.find_element(By.CSS_SELECTOR, "form.deal button").click()
        _wait(lambda: phone.find_elements(By.ID, "seed"))
        assert "opt%3Ashort=true" in phone.current_url, phone.current_url
        assert "--option short=true" in phone.find_element(By.NAME, "setup").get_attribute("value")
        picked = Select(phone.find_element(By.NAME, "opt:short")).first_selected_option
        assert (picked.get_attribute("value"), picked.text) == ("true", "はい(8タスク)")
    finally:
        phone.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": False})
