"""The set-up commands through the real CLI: validate, setup (deal + draw) and caravans."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from click.testing import CliRunner
from conftest import require_cjk
from pypdf import PdfReader

from pnpforge import catalog, contract
from pnpforge.cli import main
from pnpforge.layouts import boardpic
from pnpforge.table.setupfile import dump_yaml, parse_options
from pnpforge.units import mm

runner = CliRunner()


def invoke(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(main, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture(scope="module")
def delphi_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("setups") / "delphi.yaml"
    code, _, err = invoke("setup", "delphi", "--players", "3", "--seed", "7", "-o", str(path))
    assert code == 0, err
    return path


def test_validate_exit_codes_and_output(delphi_file: Path, tmp_path: Path) -> None:
    code, out, _ = invoke("validate", str(delphi_file))
    assert code == 0 and "legal delphi set-up" in out
    code, out, _ = invoke("validate", str(delphi_file), "--json")
    assert code == 0 and json.loads(out) == {"valid": True, "game": "delphi", "errors": [], "warnings": []}

    broken = tmp_path / "broken.yaml"
    text = delphi_file.read_text()
    broken.write_text(text.replace("favour: 4", "favour: 9").replace("count: 3", "count: 1", 1))
    code, out, _ = invoke("validate", str(broken))
    assert code == 1
    assert "error [favour-count]" in out and "error [statue-count]" in out and "2 rule violation(s)" in out
    code, out, _ = invoke("validate", str(broken), "--json")
    report = json.loads(out)
    assert code == 1 and report["valid"] is False and report["game"] == "delphi"
    assert {e["code"] for e in report["errors"]} == {"favour-count", "statue-count"}
    assert all(set(e) == {"code", "message", "where"} for e in report["errors"])


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("game: delphi\nplayers: [\n", "bad.yaml:3:1: YAML syntax error"),
        ("- just\n- a list\n", "bad.yaml:1:1: a set-up file must be a mapping"),
        ("players: 2\n", "missing key 'game'"),
        ("game: chess\n", "bad.yaml:1:7: unknown game 'chess'"),
        ("game: delphi\nplayers: 9\n", "bad.yaml:2:10: The Oracle of Delphi is for 2-4 players, not 9"),
        (
            "game: ankh\nplayers: 2\ncaravans: [[[[0, 1], [0, 2]]]]\nwhat: 1\n",
            "bad.yaml:4:7: unknown key 'what'",
        ),
    ],
)
def test_malformed_files_exit_2_with_a_location(tmp_path: Path, text: str, expected: str) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(text)
    code, out, err = invoke("validate", str(path))
    assert code == 2 and expected.replace("bad.yaml", str(path)) in err, err
    assert "Traceback" not in err + out


def test_missing_file_exits_2(tmp_path: Path) -> None:
    code, _, err = invoke("validate", str(tmp_path / "nope.yaml"))
    assert code == 2 and "file not found" in err


def test_setup_is_deterministic_and_records_its_seed(tmp_path: Path) -> None:
    a = invoke("setup", "delphi", "-p", "2", "--seed", "42")
    b = invoke("setup", "delphi", "-p", "2", "--seed", "42")
    assert a[0] == 0 and a[1] == b[1]
    assert a[1].startswith("# dealt by: pnpforge setup delphi --players 2 --seed 42\n")
    c = invoke("setup", "delphi", "-p", "2", "--seed", "43")
    assert c[1] != a[1]
    d = invoke("setup", "ankh", "-p", "4")  # a fresh seed, written down so the deal can be repeated
    seed = d[1].splitlines()[0].split("--seed ")[1].split()[0]
    assert invoke("setup", "ankh", "-p", "4", "--seed", seed)[1] == d[1]


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (("setup", "delphi", "-p", "5"), "delphi is for 2 to 4 players (got --players 5)"),
        (("setup", "gnome", "-p", "2"), "unknown game 'gnome'"),
        (("setup", "delphi", "-p", "2", "--option", "short"), "is not KEY=VALUE"),
        (("setup", "delphi", "-p", "2", "--option", "colour=red"), "unknown --option 'colour'"),
        (("setup", "ankh", "-p", "2", "--option", "scenario=NewKingdom"), "unknown scenario 'NewKingdom'"),
        (("setup", "ankh", "-p", "2", "--draw", "x.jpg"), "expected a .pdf, .svg or .png file"),
    ],
)
def test_setup_bad_arguments_exit_2(args: tuple[str, ...], expected: str) -> None:
    code, out, err = invoke(*args)
    assert code == 2 and expected in err, err


def test_dealt_file_validates_and_draws_at_physical_scale(tmp_path: Path) -> None:
    yaml_path, pdf_path, png_path, svg_path = (tmp_path / f"b.{s}" for s in ("yaml", "pdf", "png", "svg"))
    code, _, err = invoke(
        "setup", "ankh", "-p", "3", "--seed", "2", "-o", str(yaml_path), "--draw", str(pdf_path)
    )
    assert code == 0, err
    assert invoke("validate", str(yaml_path))[0] == 0

    checks = contract.load("ankh").module("checks")
    loaded = checks.Setup.model_validate(
        __import__("ruamel.yaml").yaml.YAML(typ="safe").load(yaml_path.read_text())
    )
    pic = checks.picture(loaded)
    width, height = boardpic.page_size(pic)
    box = PdfReader(pdf_path).pages[0].mediabox
    assert float(box.width) == pytest.approx(mm(width), abs=0.01)
    assert float(box.height) == pytest.approx(mm(height), abs=0.01)
    x0, _, x1, _ = pic.bounds()
    board_mm = x1 - x0  # flat-top hexes, as the board prints (checked in test_ankh_setup)
    px_per_mm = 4
    page = pdfium.PdfDocument(str(pdf_path))[0]
    image = page.render(scale=px_per_mm * 25.4 / 72).to_pil().convert("L")
    layout = boardpic.frame(pic)
    top, bottom = (
        (boardpic.MARGIN + boardpic.TITLE) * px_per_mm,
        image.height - layout.legend_height * px_per_mm,
    )
    inked = (
        image.crop((0, int(top), image.width, int(bottom))).point(lambda v: 255 if v < 250 else 0).getbbox()
    )
    assert inked is not None
    measured_mm = (inked[2] - inked[0]) / px_per_mm
    assert measured_mm == pytest.approx(board_mm, abs=1.0)  # 1 mm of hex outline stroke and pixel rounding
    assert pdf_path.read_bytes() == boardpic.pdf_bytes(pic)  # deterministic

    for path in (png_path, svg_path):
        code, _, err = invoke("setup", "ankh", "-p", "3", "--seed", "2", "--draw", str(path))
        assert code == 0, err
    assert png_path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    svg = svg_path.read_text()
    svg_width = re.search(r'<svg[^>]* width="([\d.]+)mm"', svg)
    assert svg_width and float(svg_width.group(1)) == pytest.approx(width, abs=0.01) and "<polygon" in svg


def test_caravans_command(tmp_path: Path) -> None:
    path = tmp_path / "ankh.yaml"
    assert (
        invoke("setup", "ankh", "-p", "2", "--seed", "1", "--option", "scenario=OldKingdom", "-o", str(path))[
            0
        ]
        == 0
    )
    code, out, _ = invoke("caravans", str(path))
    lines = out.strip().splitlines()
    assert code == 0 and lines[-1].endswith("legal caravan(s)")
    assert "splits Delta (22) into 16 + 6" in out
    code, out, _ = invoke("caravans", str(path), "--json")
    data = json.loads(out)
    assert data["game"] == "ankh" and data["count"] == len(data["caravans"]) == len(lines) - 1
    first = data["caravans"][0]
    assert set(first) == {"camels", "sides", "region", "region_size", "sizes"}

    delphi = tmp_path / "d.yaml"
    assert invoke("setup", "delphi", "-p", "2", "--seed", "1", "-o", str(delphi))[0] == 0
    code, _, err = invoke("caravans", str(delphi))
    assert code == 2 and "has no camel caravans" in err


def test_help_texts_have_examples() -> None:
    for command in ("validate", "setup", "caravans"):
        code, out, _ = invoke(command, "--help")
        assert code == 0 and "Example:" in out


def test_options_and_yaml_writer() -> None:
    assert parse_options(["short=true", "remove = 2"]) == {"short": "true", "remove": "2"}
    text = dump_yaml(
        {"game": "x", "cells": [[0, 1], [2, -3]], "name": "yes", "note": "a: b", "none": None, "e": []}
    )
    assert text == 'game: x\ncells: [[0, 1], [2, -3]]\nname: "yes"\nnote: "a: b"\nnone: null\ne: []\n'


def test_replay_line_is_shell_quoted(tmp_path: Path) -> None:
    code, out, err = invoke("setup", "gods", "--players", "2", "--seed", "1", "--option", "gods=red, blue")
    assert code == 0, err
    first = out.splitlines()[0]
    assert first == "# dealt by: pnpforge setup gods --players 2 --seed 1 --option 'gods=red, blue'"
    assert shlex.split(first.removeprefix("# dealt by: "))[-1] == "gods=red, blue"


def test_far_away_coordinates_are_refused_quickly(tmp_path: Path) -> None:
    code, out, err = invoke("setup", "delphi", "--players", "3", "--seed", "1")
    assert code == 0, err
    far = re.sub(r"at: \[0, 0\]", "at: [1000000, 0]", out, count=1)
    assert far != out
    (tmp_path / "far.yaml").write_text(far, encoding="utf-8")
    code, _, err = invoke("validate", str(tmp_path / "far.yaml"))
    assert code == 2 and "less than or equal to 200" in err


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_small_board_s_caption_and_legend_stay_on_the_picture(lang: str) -> None:
    import io

    from PIL import Image

    from pnpforge.table.setupfile import deal_setup
    from pnpforge.validator.picture import said

    if lang == "ja":
        require_cjk()
    for game in ("gods", "good-shepherds", "delphi"):
        low, _ = catalog.players_range(catalog.find_game(game))
        checks = contract.load(game).module("checks")
        pic = said(
            checks.picture(checks.Setup.model_validate(deal_setup(game, low, 3, {}))),
            contract.load(game).translator(lang),
        )
        image = Image.open(io.BytesIO(boardpic.png_bytes(pic, dpi=100))).convert("L")
        ink = image.point(lambda v: 255 if v < 200 else 0)
        px = 100 / 25.4
        title = ink.crop((0, 0, image.width, int(boardpic.TITLE * px))).getbbox()
        legend = ink.crop(
            (0, int(image.height - boardpic.frame(pic).legend_height * px), image.width, image.height)
        )
        for box in (title, legend.getbbox()):
            assert box is not None, game
            assert box[0] >= 5 * px and image.width - box[2] >= 5 * px, (game, lang, box, image.width)
