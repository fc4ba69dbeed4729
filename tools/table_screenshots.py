"""The pictures of docs/serve.md (Tables) and docs/plays.md: headless Chromium at a phone's 390 × 844.

    python tools/table_screenshots.py          # writes docs/img/table-*.png and docs/img/plays-*.png

A server on a free loopback port with a throw-away database: a Gods table filled in as at the end of a
game, then a few plays recorded from the gods example score file, then the plays page.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from test_table_browser import _phone  # noqa: E402
from test_tables import Server  # noqa: E402


def main() -> None:
    folder = Path(tempfile.mkdtemp(prefix="pnpforge-shots-"))
    db = folder / "shots.db"
    server = Server(db)
    server.start()
    try:
        fields = {"lang": "en", "count": "3", "p0:name": "Ann", "p1:name": "Bob", "p2:name": "Cy"}
        _, url, _ = server.post("/g/gods/table", fields)
        code = url.split("/t/")[1].split("?")[0]
        numbers = {
            "p0:villages": "3",
            "p1:villages": "2",
            "p2:villages": "1",
            "p0:vp_cards": "2",
            "p1:vp_cards": "4",
            "p2:vp_cards": "1",
            "p0:temples": "2",
            "p1:temples": "2",
            "p0:crystals": "3",
            "f0:faction": "red",
            "f1:faction": "blue",
            "f2:faction": "green",
            "p1:crystals": "1",
        }
        server.post(f"/t/{code}", {**fields, **numbers, "action": "count"})
        phone = _phone()
        try:
            phone.get(f"{server.url}/t/{code}#score")
            phone.execute_script("document.getElementById('score').scrollIntoView()")
            phone.save_screenshot(str(ROOT / "docs" / "img" / "table-sheet.png"))
            phone.execute_script("document.getElementById('result').scrollIntoView()")
            phone.save_screenshot(str(ROOT / "docs" / "img" / "table-result.png"))
            env = {**os.environ, "PNPFORGE_DB": str(db)}
            for day, faction in (("2026-11-01", "red"), ("2026-11-08", "blue"), ("2026-11-15", "red")):
                command = [
                    sys.executable,
                    "-m",
                    "pnpforge",
                    "score",
                    str(ROOT / "src/pnpforge/games/gods/example-score.yaml"),
                    "--record",
                    "--date",
                    day,
                    "--faction",
                    f"Ann={faction}",
                ]
                subprocess.run(command, env=env, check=True, capture_output=True)
            server.post(f"/t/{code}", {"action": "close", "lang": "en"})
            phone.get(f"{server.url}/g/gods/plays")
            phone.save_screenshot(str(ROOT / "docs" / "img" / "plays-page.png"))
        finally:
            phone.quit()
    finally:
        server.stop()


if __name__ == "__main__":
    main()
