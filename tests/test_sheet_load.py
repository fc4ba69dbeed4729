"""Lossless load: every score file of the docs and every game's example score file, loaded on the page
("Continue from a score file") and then sent back as the rendered sheet, gives what `pnpforge score`
gives (totals, winners, tie-break), or a refusal that names its place in the file. Never a different
result."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from conftest import REPO

from pnpforge.cli import main

DOCS = REPO / "docs" / "scoring.md"
ISSUE_FILES = {  # the three files the page once changed silently
    "ankh-two-regions": """game: ankh
players:
  - {name: Isis, devotion: 6}
  - {name: Amun, devotion: 4}
  - {name: Ra, devotion: 4}
regions:
  - name: 1
    gods:
      Isis: {figures: 2}
      Amun: {figures: 1}
  - name: 2
    gods:
      Amun: {figures: 3, card: flood}
      Ra: {figures: 1}
""",
    "gods-per-colour": """game: gods
players:
  - {name: Ann, villages: {red: 2, blue: 2, green: 1}, vp_cards: 1, temples: 1, crystals: 1}
  - {name: Bob, villages: 1, vp_cards: {red: 3, blue: 2}, temples: 2}
""",
    "good-shepherds-inline-farm": None,  # made from the bundled farm (below)
}


def _examples() -> Iterator[tuple[str, str]]:
    blocks = DOCS.read_text(encoding="utf-8").split("```")[1::2]
    for n, block in enumerate(blocks):
        info, _, body = block.partition("\n")  # ```yaml score: the docs' fences say what a block is
        if info.split()[:1] == ["yaml"] and "\ngame: " in "\n" + body:
            yield f"docs-{n}", body
    for path in sorted((REPO / "src" / "pnpforge" / "games").glob("*/example-score.yaml")):
        yield f"{path.parent.name}-example", path.read_text(encoding="utf-8")
    for name, text in ISSUE_FILES.items():
        if text is not None:
            yield name, text


EXAMPLES = dict(_examples())


FARM_UNITS = """\
board: farm
units:
  - {at: [-1, 3], unit: hut, player: 1}
  - {at: [8, 3], unit: hut, player: 2}
  - {at: [0, 3], unit: pasture, player: 1}
  - {at: [1, 3], unit: pasture, player: 1}
  - {at: [3, 3], unit: sheep, player: 1}
  - {at: [2, 3], unit: pasture, player: 1, destroyed: true}
  - {at: [3, 1], unit: hut, player: 1}
  - {at: [7, 3], unit: pasture, player: 2}
  - {at: [5, 3], unit: sheep, player: 2}
  - {at: [6, 3], unit: pasture, player: 2, destroyed: true}
  - {at: [5, 4], unit: sheep, player: 2}
"""


def _farm_file(destroyed: bool) -> str:
    """Good Shepherds with its farm inline; without `destroyed` a pasture is left standing beside a sheep
    (`pasture-not-destroyed`: the CLI finds the rule broken)."""
    units = FARM_UNITS if destroyed else FARM_UNITS.replace(", destroyed: true", "")
    body = "".join(f"  {line}\n" for line in units.splitlines())
    players = "players:\n  - {name: Ann, money: 12}\n  - {name: Bob, money: 12}\n"
    return f"game: good-shepherds\nfarm:\n{body}{players}"


EXAMPLES["good-shepherds-inline-farm"] = _farm_file(False)
EXAMPLES["good-shepherds-inline-farm-counted"] = _farm_file(True)


class _Form(HTMLParser):
    """The fields a browser would send from the sheet form (#sheet)."""

    def __init__(self) -> None:
        super().__init__()
        self.inside = False
        self.fields: dict[str, str] = {}
        self.select: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form":
            self.inside = a.get("id") == "sheet"
        if not self.inside or "name" not in a:
            if tag == "option" and self.select and "selected" in a:
                self.fields[self.select] = a.get("value", "")
            return
        if tag == "input":
            if a.get("type") == "checkbox":
                if "checked" in a:
                    self.fields[a["name"]] = a.get("value", "on")
            else:
                self.fields.setdefault(a["name"], a.get("value", ""))
        elif tag == "select":
            self.select = a["name"]
            self.fields.setdefault(a["name"], "")

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.inside = False
        if tag == "select":
            self.select = None


def _cli(path: Path) -> tuple[int, Any]:
    result = CliRunner().invoke(main, ["score", str(path), "--json"])
    return result.exit_code, json.loads(result.stdout) if result.stdout.strip().startswith("{") else None


def _outcome(result: dict[str, Any]) -> Any:
    return ([(p["name"], p["total"]) for p in result["players"]], result["winners"], result["tiebreak"])


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Any:
    from starlette.testclient import TestClient

    from pnpforge.web.app import create_app

    with TestClient(create_app(build_root=tmp_path_factory.mktemp("b"))) as test_client:
        yield test_client


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_a_loaded_file_scores_as_the_cli_scores_it_or_is_refused_with_its_place(
    client: Any, tmp_path: Path, name: str
) -> None:
    text = EXAMPLES[name]
    path = tmp_path / "score.yaml"
    path.write_text(text, encoding="utf-8")
    code, cli = _cli(path)
    game = re.search(r"^game: (\S+)", text, re.M).group(1)  # type: ignore[union-attr]
    page = client.post(f"/g/{game}/score", files={"file": ("score.yaml", text.encode())}, data={"lang": "en"})
    if code != 0:  # the CLI refuses it (exit 2) or finds a rule broken (exit 1): so does the page
        assert page.status_code == 400
        if code == 1:  # each broken rule by its code
            assert cli["errors"] and all(f"<code>{v['code']}</code>" in page.text for v in cli["errors"]), (
                name
            )
        else:
            assert re.search(r"score\.yaml:\d+:\d+: ", page.text), name
        return
    if page.status_code == 400:  # refused: only with the place in the file named
        assert "the sheet cannot hold" in page.text and re.search(r"score\.yaml:\d+:\d+: ", page.text), name
        return
    winners = re.search(r'data-winners="([^"]*)"', page.text).group(1)  # type: ignore[union-attr]
    assert (winners.split(",") if winners else []) == cli["winners"], name
    form = _Form()
    form.feed(page.text)
    again = client.post(f"/api/g/{game}/score", data=form.fields)
    assert again.status_code == 200, again.text
    assert _outcome(again.json()["result"]) == _outcome(cli), name
    SEEN.append(name)


SEEN: list[str] = []


def test_every_kind_of_file_is_tried() -> None:
    scored = {"ankh-two-regions", "gods-per-colour", "ankh-example", "good-shepherds-inline-farm-counted"}
    assert scored <= set(SEEN)  # scored as the CLI scores them, not refused
    games = {re.search(r"^game: (\S+)", t, re.M).group(1) for t in EXAMPLES.values()}  # type: ignore[union-attr]
    assert games == {"ankh", "delphi", "gods", "good-shepherds", "quo-vadis"} and len(EXAMPLES) >= 15


def test_ankh_takes_every_region_and_cards_by_their_name_in_the_page_s_language(client: Any) -> None:
    fields = {
        "lang": "ja",
        "count": "3",
        "p0:name": "Isis",
        "p1:name": "Amun",
        "p2:name": "Ra",
        "p0:devotion": "6",
        "p1:devotion": "4",
        "p2:devotion": "4",
        "g:regions.0.name": "1",
        "e0:regions.0.gods.{player}.figures": "2",
        "e1:regions.0.gods.{player}.figures": "1",
        "g:regions.1.name": "2",
        "e1:regions.1.gods.{player}.figures": "3",
        "e1:regions.1.gods.{player}.card": "フラッド",
        "e2:regions.1.gods.{player}.figures": "1",
    }
    answer = client.post("/api/g/ankh/score", data=fields).json()
    cli_text = EXAMPLES["ankh-two-regions"]
    assert "card: flood" in cli_text and answer["ok"], answer["problems"]
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        file = Path(folder) / "s.yaml"
        file.write_text(cli_text)
        code, cli = _cli(file)
    assert code == 0 and _outcome(answer["result"]) == _outcome(cli)
    assert "Flood" in answer["yaml"]  # フラッド is the Flood card


def test_the_gods_table_shows_crystals(client: Any) -> None:
    text = EXAMPLES["gods-per-colour"]
    page = client.post("/g/gods/score", files={"file": ("score.yaml", text.encode())}, data={"lang": "en"})
    assert re.search(r'<tr class="info"><th>crystals</th><td>1</td><td>0</td></tr>', page.text), page.text[
        -3000:
    ]
    assert 'value="red: 2, blue: 2, green: 1"' in page.text  # per colour, as the file gives it
