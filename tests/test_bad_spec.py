"""Bad input: one located line per problem, all problems together, exit 2, no traceback, no file touched."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import SpecMaker

from pnpforge.cli import main
from pnpforge.components.model import MAX_PIECES

GOOD_CARD = "  - {name: ok, kind: card, size: poker}\n"
HEAD = "game: {id: bad, title: Bad}\ncomponents:\n"


def run_build(runner: CliRunner, folder: Path, out: Path, *extra: str) -> tuple[int, list[str]]:
    """Build into `out` over an existing bad.pdf; check it is untouched; return exit code and error lines."""
    out.mkdir(exist_ok=True)
    sentinel = out / "bad.pdf"
    sentinel.write_bytes(b"old good pdf")
    os.utime(sentinel, (1_000_000, 1_000_000))
    result = runner.invoke(main, ["build", str(folder), "-o", str(out), *extra])
    assert sentinel.read_bytes() == b"old good pdf" and sentinel.stat().st_mtime == 1_000_000
    assert sorted(p.name for p in out.iterdir()) == ["bad.pdf"]  # no temp file left either
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    return result.exit_code, [line for line in result.output.splitlines() if line.startswith("error: ")]


CASES = {
    "wrong type": (
        HEAD + "  - {name: a, kind: card, size: poker, count: many}\n",
        {},
        "game.yaml:3:",
        "whole number",
    ),
    "unknown key": (
        HEAD + "  - {name: a, kind: card, size: poker, colour: red}\n",
        {},
        "game.yaml:3:",
        "unknown key 'colour'",
    ),
    "missing csv": (
        HEAD + "  - {name: a, kind: card, size: poker, csv: cards.csv}\n",
        {},
        "game.yaml:3:",
        "'cards.csv' not found",
    ),
    "csv outside": (
        HEAD + "  - {name: a, kind: card, size: poker, csv: ../x.csv}\n",
        {},
        "game.yaml:3:",
        "outside the spec folder",
    ),
    "missing image": (
        HEAD + "  - {name: a, kind: card, size: poker, face: {elements: [{type: image, src: art.png}]}}\n",
        {},
        "game.yaml:3:",
        "'art.png' not found",
    ),
    "image outside": (
        HEAD + "  - {name: a, kind: card, size: poker, face: {elements: [{type: image, src: ../art.png}]}}\n",
        {},
        "game.yaml:3:",
        "outside the spec folder",
    ),
    "size not a length": (
        HEAD + "  - {name: a, kind: token, size: 3 parsecs}\n",
        {},
        "game.yaml:3:",
        "not a length",
    ),
    "card size not a size": (
        HEAD + "  - name: a\n    kind: card\n    size: huge\n",
        {},
        "game.yaml:5:11:",
        "not a size",
    ),
    "count not positive": (
        HEAD + "  - {name: a, kind: card, size: poker, count: 0}\n",
        {},
        "game.yaml:3:",
        "expected a positive whole number",
    ),
    "count too large": (
        HEAD + f"  - {{name: a, kind: card, size: poker, count: {MAX_PIECES + 1}}}\n",
        {},
        "game.yaml:3:",
        f"expected at most {MAX_PIECES}",
    ),
    "bad colour": (
        HEAD + "  - {name: a, kind: card, size: poker, face: {background: bluish}}\n",
        {},
        "game.yaml:3:",
        "not a colour",
    ),
    "yaml syntax": (HEAD + "  - {name: a, kind: card\n", {}, "game.yaml:4:", "YAML syntax error"),
    "duplicate key": (
        HEAD + "  - name: a\n    kind: card\n    kind: tile\n    size: poker\n",
        {},
        "game.yaml:5:5:",
        "duplicate key 'kind'",
    ),
    "csv row count": (
        HEAD + "  - {name: a, kind: card, size: poker, csv: c.csv}\n",
        {"c__csv": "name,count\nA,2\nB,-1\nC,x\n"},
        "c.csv:3:3:",
        "expected a positive whole number",
    ),
    "csv row colour": (
        HEAD + "  - {name: a, kind: card, size: poker, csv: c.csv, face: {background: '{c}'}}\n",
        {"c__csv": "c\nred\nreddish\n"},
        "c.csv:3:",
        "'reddish' is not a colour",
    ),
    "missing field": (
        HEAD + "  - {name: a, kind: card, size: poker, rows: [{x: 1}], face: {background: '{c}'}}\n",
        {},
        "game.yaml:3:",
        "no data row has a field 'c'",
    ),
    "too large for page": (
        HEAD + "  - {name: a, kind: card, size: 250x350mm}\n",
        {},
        "game.yaml:3:",
        "--page a3",
    ),
}


@pytest.mark.parametrize("case", list(CASES), ids=list(CASES))
def test_each_bad_input_is_located(
    case: str, make_spec: SpecMaker, runner: CliRunner, tmp_path: Path
) -> None:
    text, files, where, what = CASES[case]
    folder = make_spec(text, **files)
    code, errors = run_build(runner, folder, tmp_path / "out")
    assert code == 2
    hits = [line for line in errors if where in line and what in line]
    assert hits, errors
    assert re.match(r"error: .+:\d+:\d+: ", hits[0]), hits[0]  # FILE:LINE:COL: message


def test_all_problems_listed_together(make_spec: SpecMaker, runner: CliRunner, tmp_path: Path) -> None:
    folder = make_spec(
        HEAD
        + "  - {name: a, kind: card, size: poker, count: 0}\n"
        + "  - {name: b, kind: card, size: poker, csv: nope.csv}\n"
        + "  - {name: c, kind: card, size: poker, face: {background: bluish}, extra: 1}\n"
    )
    code, errors = run_build(runner, folder, tmp_path / "out")
    assert code == 2
    assert len(errors) == 4
    assert [int(line.split(":")[2]) for line in errors if "game.yaml" in line] == [3, 5, 5, 4]


def test_row_problems_and_face_problems_together(
    make_spec: SpecMaker, runner: CliRunner, tmp_path: Path
) -> None:
    folder = make_spec(
        HEAD + "  - {name: a, kind: card, size: poker, csv: c.csv, face: {background: '{c}'}}\n",
        c__csv="c,count\nred,0\nbluish,1\n",
    )
    code, errors = run_build(runner, folder, tmp_path / "out")
    assert code == 2
    assert any("c.csv:2:" in e and "count" in e for e in errors)
    assert any("c.csv:3:" in e and "'bluish'" in e for e in errors)


def test_bad_command_line_values(make_spec: SpecMaker, runner: CliRunner, tmp_path: Path) -> None:
    folder = make_spec(HEAD + GOOD_CARD)
    for extra, message in [
        (("--page", "b5"), "is not a page size"),
        (("--format", "pdf,gif"), "unknown format"),
        (("--only", "nothing"), "no such component"),
        (("--font", str(tmp_path / "none.ttf")), "font file not found"),
    ]:
        code, errors = run_build(runner, folder, tmp_path / "out", *extra)
        assert code == 2 and any(message in e for e in errors), (extra, errors)


def test_unknown_target(runner: CliRunner, tmp_path: Path) -> None:
    result = runner.invoke(main, ["build", "no-such-game", "-o", str(tmp_path)])
    assert result.exit_code == 2 and "unknown game 'no-such-game'" in result.output
    result = runner.invoke(main, ["build", str(tmp_path / "missing" / "game.yaml")])
    assert result.exit_code == 2 and "no such spec folder" in result.output


def test_specs_never_execute_code(make_spec: SpecMaker, runner: CliRunner, tmp_path: Path) -> None:
    marker = tmp_path / "pwned"
    folder = make_spec(
        "game: {id: x, title: !!python/object/apply:os.system ['touch " + str(marker) + "']}\n"
        "components:\n" + GOOD_CARD
    )
    runner.invoke(main, ["build", str(folder), "-o", str(tmp_path / "out")])
    assert not marker.exists()


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ("size: 40mm", "size: 0mm", "'0mm' must be positive"),
        ("size: 20mm", "size: -5mm", "'-5mm' must be positive"),
    ],
)
def test_sizes_must_be_positive(tmp_path: Path, old: str, new: str, expected: str) -> None:
    spec = shutil.copytree("examples/tiny-quest", tmp_path / "spec")
    text = (spec / "game.yaml").read_text(encoding="utf-8")
    assert old in text
    (spec / "game.yaml").write_text(text.replace(old, new, 1), encoding="utf-8")
    result = CliRunner().invoke(main, ["build", str(spec), "-o", str(tmp_path / "out")])
    assert result.exit_code == 2 and expected in result.output and "Traceback" not in result.output
    assert not (tmp_path / "out").exists()


def test_defaults_cannot_wait_for_a_row(tmp_path: Path) -> None:
    spec = shutil.copytree("examples/tiny-quest", tmp_path / "spec")
    text = (spec / "game.yaml").read_text(encoding="utf-8")
    (spec / "game.yaml").write_text(text.replace("bleed: 3mm", 'bleed: "{x}"', 1), encoding="utf-8")
    result = CliRunner().invoke(main, ["inventory", str(spec)])
    assert result.exit_code == 2 and "needs a data row" in result.output
