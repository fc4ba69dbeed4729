"""Tabletop Simulator decks: image paths relative to the JSON (the folder can move) or under
--base-url, and cards keeping their own proportions, sideways ones included (the real JSON and PNGs)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from PIL import Image

from pnpforge.cli import main

TTS_CARD = (63.5, 88.9)  # mm: TTS's card at scale 1


def _export(target: str | Path, out: Path, *args: str) -> None:
    result = CliRunner().invoke(
        main, ["export", str(target), "--to", "tts", "-o", str(out), "--dpi", "30", *args]
    )
    assert result.exit_code == 0, result.output


def _images(obj: dict) -> list[str]:
    """Every image address a saved object names."""
    found = [v for e in obj.get("CustomDeck", {}).values() for k, v in e.items() if k.endswith("URL")]
    if "CustomImage" in obj:
        found += [obj["CustomImage"]["ImageURL"], obj["CustomImage"]["ImageSecondaryURL"]]
    for inner in obj.get("ContainedObjects", []):
        found += _images(inner)
    return found


def test_paths_are_relative_to_the_json_and_survive_a_move(tmp_path: Path) -> None:
    out = tmp_path / "made"
    _export("quo-vadis", out, "--only", "race-cards", "--only", "worker-tokens")
    moved = tmp_path / "elsewhere" / "tts"
    shutil.move(str(out), moved)
    for name in ("race-cards.json", "worker-tokens.json"):
        saved = json.loads((moved / name).read_text(encoding="utf-8"))
        urls = _images(saved["ObjectStates"][0])
        assert urls and all("://" not in u and not Path(u).is_absolute() for u in urls)
        for url in urls:  # each one names an image beside the moved JSON
            with Image.open(moved / url) as image:
                assert image.width > 0


def test_base_url_prefixes_every_image(tmp_path: Path) -> None:
    out = tmp_path / "tts"
    _export("quo-vadis", out, "--only", "race-cards", "--base-url", "https://example.org/qv")
    deck = json.loads((out / "race-cards.json").read_text(encoding="utf-8"))["ObjectStates"][0]
    urls = set(_images(deck))
    assert urls == {
        "https://example.org/qv/race-cards-sheet-1.png",
        "https://example.org/qv/race-cards-back.png",
    }
    assert all((out / u.rsplit("/", 1)[1]).is_file() for u in urls)


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--to", "tts", "--base-url", "example.org/qv"], "is not a URL"),
        (["--to", "tts", "--base-url", "https://example.org/my game/"], "is not a URL"),
        (["--to", "images", "--base-url", "https://example.org/"], "--base-url applies to --to tts only"),
    ],
)
def test_bad_base_url_is_refused(args: list[str], said: str, tmp_path: Path) -> None:
    out = tmp_path / "never"
    result = CliRunner().invoke(main, ["export", "quo-vadis", "-o", str(out), *args])
    assert result.exit_code == 2 and said in result.output and "<command line>" in result.output
    assert "Traceback" not in result.output and not out.exists()


@pytest.mark.parametrize("component", ["race-cards", "epic-cards"])
def test_cards_keep_their_proportions_in_tts(component: str, tmp_path: Path) -> None:
    """The card TTS shows (its card scaled by scaleX across, scaleZ down; a sideways card turned a
    quarter, its long side across) has the proportions of the card's own image cell."""
    out = tmp_path / "tts"
    _export("quo-vadis", out, "--only", component, "--dpi", "150")
    deck = json.loads((out / f"{component}.json").read_text(encoding="utf-8"))["ObjectStates"][0]
    entry = deck["CustomDeck"]["1"]
    with Image.open(out / entry["FaceURL"]) as sheet:
        cell = (sheet.width / entry["NumWidth"], sheet.height / entry["NumHeight"])
    for obj in [deck, *deck["ContainedObjects"]]:
        scale = obj["Transform"]
        sideways = obj["SidewaysCard"]
        long_, short = TTS_CARD[1], TTS_CARD[0]
        across = (long_ if sideways else short) * scale["scaleX"]
        down = (short if sideways else long_) * scale["scaleZ"]
        assert sideways == (cell[0] > cell[1])
        rounding = 1.0 / min(cell)  # the cell is whole pixels
        assert across / down == pytest.approx(cell[0] / cell[1], rel=rounding)
    if component == "race-cards":  # 95 × 65 mm, in millimetres on the table
        assert (across, down) == pytest.approx((95, 65), abs=0.01)


def test_tokens_and_cards_are_named_by_title_else_by_row_id(tmp_path: Path) -> None:
    spec = tmp_path / "spec"
    spec.mkdir()
    (spec / "game.yaml").write_text(
        """game: {id: named, title: Named, players: [1, 2], designer: t}
components:
  - name: tokens
    title: Tokens
    kind: token
    shape: circle
    size: 20mm
    rows: [{id: t07, count: 2}, {id: t08, name: Gold}, {colour: red}]
    face: {elements: [{type: text, text: "x"}]}
  - name: cards
    kind: card
    size: poker
    rows: [{id: c01}, {id: c02, title: Storm}]
    face: {elements: [{type: text, text: "x"}]}
""",
        encoding="utf-8",
    )
    out = tmp_path / "tts"
    _export(spec, out)
    bag = json.loads((out / "tokens.json").read_text(encoding="utf-8"))["ObjectStates"][0]
    assert [t["Nickname"] for t in bag["ContainedObjects"]] == ["t07", "t07", "Gold", "Tokens 3"]
    deck = json.loads((out / "cards.json").read_text(encoding="utf-8"))["ObjectStates"][0]
    assert [c["Nickname"] for c in deck["ContainedObjects"]] == ["c01", "Storm"]
