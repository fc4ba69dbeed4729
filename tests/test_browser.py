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
    from selenium.common.exceptions import StaleElementReferenceException

    deadline = time.monotonic() + seconds
    while True:
        try:
            value = condition()
        except StaleElementReferenceException:  # the live update replaced the element: look again
            value = None
        if value:
            return value
        assert time.monotonic() < deadline, "timed out waiting for the page"
        time.sleep(0.05)


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
