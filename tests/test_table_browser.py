"""Two Chromium sessions (two phones) on one table, on the real server: a value typed on one appears on
the other, and survives reload, Back and the language switch; the page without JavaScript keeps its
values too."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_browser import CHROMEDRIVER, CHROMIUM, PHONE, _need_browser, _wait
from test_tables import Server, _new_table


def _phone(javascript: bool = True) -> Any:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

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
    if not javascript:
        options.add_experimental_option("prefs", {"profile.managed_default_content_settings.javascript": 2})
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    metrics = {"width": PHONE[0], "height": PHONE[1], "deviceScaleFactor": 2, "mobile": True}
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride", metrics
    )  # a phone's viewport, as test_browser
    return driver


@pytest.fixture
def table(tmp_path: Path) -> Iterator[tuple[Server, str]]:
    _need_browser()
    running = Server(tmp_path / "phones.db")
    running.start()
    yield running, _new_table(running)
    running.stop()


def _field(driver: Any, name: str) -> Any:
    from selenium.webdriver.common.by import By

    return driver.find_element(By.NAME, name)


def test_two_phones_share_one_sheet(table: tuple[Server, str]) -> None:
    server, code = table
    one, two = _phone(), _phone()
    try:
        for phone in (one, two):
            phone.get(f"{server.url}/t/{code}")
            _wait(lambda phone=phone: phone.execute_script("return document.readyState") == "complete")
        _field(one, "p1:villages").send_keys("4")
        _wait(lambda: _field(two, "p1:villages").get_attribute("value") == "4", 5)  # pushed to phone two
        _wait(lambda: "12" in two.find_element("css selector", "td.total[data-player='1']").text, 5)
        _field(two, "p0:crystals").send_keys("2")
        _wait(lambda: _field(one, "p0:crystals").get_attribute("value") == "2", 5)
        one.refresh()  # Reload
        assert _field(one, "p1:villages").get_attribute("value") == "4"
        one.find_element("css selector", "a.home").click()  # to "All games", then Back
        _wait(lambda: "/t/" not in one.current_url)
        one.back()
        _wait(lambda: _field(one, "p1:villages").get_attribute("value") == "4")
        one.find_element("css selector", "nav.langs a[href$='lang=ja']").click()  # the language switch
        _wait(lambda: one.find_element("tag name", "html").get_attribute("lang") == "ja")
        assert _field(one, "p1:villages").get_attribute("value") == "4"
        assert _field(one, "p0:crystals").get_attribute("value") == "2"
        # the same cell on both: the later edit wins, the other phone is told
        _field(one, "p2:villages").send_keys("1")
        _wait(lambda: _field(two, "p2:villages").get_attribute("value") == "1", 5)
        _field(two, "p2:villages").clear()
        _field(two, "p2:villages").send_keys("2")
        _wait(lambda: _field(one, "p2:villages").get_attribute("value") == "2", 5)
        _wait(lambda: one.find_element("id", "table-notice").is_displayed(), 5)
    finally:
        one.quit()
        two.quit()


def test_the_page_without_javascript_keeps_its_values(table: tuple[Server, str]) -> None:
    server, code = table
    plain = _phone(javascript=False)
    try:
        plain.get(f"{server.url}/t/{code}")
        _field(plain, "p0:villages").send_keys("3")
        _field(plain, "p1:vp_cards").send_keys("2")
        plain.find_element("css selector", "button[name='action'][value='count']").click()
        _wait(lambda: _field(plain, "p0:villages").get_attribute("value") == "3")
        plain.refresh()
        assert _field(plain, "p0:villages").get_attribute("value") == "3"
        assert _field(plain, "p1:vp_cards").get_attribute("value") == "2"
        plain.find_element("css selector", "button[name='action'][value='add']").click()  # + Player
        _wait(lambda: len(plain.find_elements("name", "p3:villages")) == 1)
        assert _field(plain, "p0:villages").get_attribute("value") == "3"
    finally:
        plain.quit()


def test_the_plays_page_reads_on_a_phone(table: tuple[Server, str]) -> None:
    import subprocess
    import sys

    from conftest import REPO

    server, _ = table
    for day in ("2026-11-01", "2026-11-02"):
        command = [
            sys.executable,
            "-m",
            "pnpforge",
            "score",
            str(REPO / "src/pnpforge/games/ankh/example-score.yaml"),
            "--record",
            "--db",
            str(server.path),
            "--date",
            day,
        ]
        subprocess.run(command, check=True, capture_output=True)
    phone = _phone()
    try:
        phone.get(f"{server.url}/g/ankh/plays?lang=ja")
        assert phone.find_element("tag name", "h1").text.endswith("のプレイ記録")
        chart = phone.find_element("css selector", "svg.charts")
        assert 300 <= chart.size["width"] <= PHONE[0] and "勢力ごとの勝率" in chart.text
        assert phone.execute_script("return document.documentElement.scrollWidth") <= PHONE[0]
        assert "アムン" in phone.find_element("css selector", "table[data-stats='by_faction']").text
    finally:
        phone.quit()


def test_start_a_table_from_the_game_s_sheet(table: tuple[Server, str]) -> None:
    server, _ = table
    phone = _phone()
    try:
        phone.get(f"{server.url}/g/gods")
        _field(phone, "p0:villages").send_keys("3")
        phone.find_element("id", "start-table").click()
        _wait(lambda: "/t/" in phone.current_url)
        assert _field(phone, "p0:villages").get_attribute("value") == "3"  # the sheet as it was, now saved
        assert phone.find_element("css selector", ".table-head svg")  # its QR code
        code = phone.current_url.split("/t/")[1].split("?")[0]
        assert code in phone.find_element("id", "table-url").text
    finally:
        phone.quit()
