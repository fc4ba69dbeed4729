"""Every YAML construct the parser accepts gets a located answer from every command that reads a file,
never an internal error: complex keys, tags, merge keys, anchors and aliases on keys; and a set-up or
score file's size is bounded before it is parsed (limits.FILE_BOUNDS)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnpforge.cli import main

LOCATED = re.compile(r"^error: .+:\d+:\d+: ")
CONSTRUCTS = {
    "list key": ("game: gods\n? [a, b]\n: 1\nplayers: []\n", ":2:3: a list as a mapping key"),
    "mapping key": ("game: gods\n? {a: 1}\n: 1\nplayers: []\n", ":2:3: a mapping as a mapping key"),
    "flow list key": ("{game: gods, [a]: 1}\n", "a list as a mapping key"),
    "alias of a list as key": ("x: &l [a]\n*l : 1\ngame: gods\n", ":2:1: a list as a mapping key"),
    "set tag": ("game: gods\nplayers: !!set {a, b}\n", ":2:10: the YAML tag '!!set'"),
    "object tag": (
        "game: gods\nplayers: !!python/object:os.system x\n",
        "the YAML tag '!!python/object:os.system'",
    ),
    "local tag": ("game: !mine gods\nplayers: []\n", ":1:7: the YAML tag '!mine'"),
    "timestamp tag": ("game: gods\nwhen: !!timestamp 2001-12-14\n", "the YAML tag '!!timestamp'"),
    "merge key": ("base: &b {game: gods}\n<<: *b\nplayers: []\n", ""),
    "anchor on a key": ("&k game: gods\n*k : x\nplayers: []\n", ":1:1: duplicate key 'game'"),
    "binary tag": ("game: gods\nplayers: !!binary aGVsbG8=\n", "the YAML tag '!!binary'"),
}


@pytest.mark.parametrize("name", sorted(CONSTRUCTS))
@pytest.mark.parametrize("command", ["score", "validate", "caravans"])
def test_every_construct_is_answered_where_it_stands(tmp_path: Path, name: str, command: str) -> None:
    text, expected = CONSTRUCTS[name]
    path = tmp_path / "s.yaml"
    path.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(main, [command, str(path)])
    assert result.exit_code == 2, (result.exit_code, result.output)
    lines = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert lines and all(LOCATED.match(line) for line in lines), result.output
    assert "internal error" not in result.output and "Traceback" not in result.output
    assert expected in result.stderr, result.stderr


def test_a_huge_inline_board_is_refused_before_it_is_parsed(tmp_path: Path) -> None:
    cells = ", ".join(
        f"{{at: [{q}, {r}], terrain: fertile}}" for q in range(-150, 151) for r in range(-200, 201)
    )
    path = tmp_path / "huge.yaml"
    path.write_text(f"game: ankh\nplayers: 2\nmap:\n  cells: [{cells}]\n", encoding="utf-8")
    for command in ("validate", "caravans"):
        result = CliRunner().invoke(main, [command, str(path)])
        assert result.exit_code == 2
        assert "a set-up file larger than 512 kB" in result.stderr, result.stderr


def test_a_set_up_of_too_many_values_is_refused_at_the_first_value_past_the_bound(tmp_path: Path) -> None:
    cells = "\n".join(f"- [{q % 90}, {q // 90}]" for q in range(21_000))  # 63,000 values, ~250 kB
    path = tmp_path / "many.yaml"
    path.write_text(f"game: ankh\nplayers: 2\ncaravans:\n{cells}\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["validate", str(path)])
    assert result.exit_code == 2
    line = next(line for line in result.stderr.splitlines() if "values" in line)
    assert "a set-up file of more than 60,000 values" in line and LOCATED.match(line)
    assert int(line.split(":")[2]) < 21_000  # located at the value past the bound, not at the end
