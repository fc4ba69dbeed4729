"""The shared plumbing: lengths, located YAML errors, atomic writes, the CLI shell."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from pnpforge import __version__, catalog
from pnpforge.cli import main
from pnpforge.errors import InputError
from pnpforge.files import write_atomic
from pnpforge.sourcefile import read_csv, read_yaml_text
from pnpforge.units import parse_length, parse_size


def test_lengths_are_physical() -> None:
    assert parse_length("25.4mm") == pytest.approx(72.0)
    assert parse_length("1in") == 72.0
    assert parse_length("12pt") == 12.0
    assert parse_length(10) == pytest.approx(parse_length("1cm"))
    assert parse_size("63x88mm") == pytest.approx((178.58, 249.45), abs=0.01)
    with pytest.raises(ValueError):
        parse_length("12 parsecs")


def test_yaml_errors_say_where() -> None:
    with pytest.raises(InputError) as info:
        read_yaml_text("a: 1\nb: 2\na: 3\n", "spec.yaml")
    assert str(info.value).startswith("spec.yaml:3:1: duplicate key 'a'")
    with pytest.raises(InputError) as info:
        read_yaml_text("a: [1, 2\n", "spec.yaml")
    assert "spec.yaml:2:" in str(info.value) and "YAML syntax error" in str(info.value)


def test_yaml_never_builds_objects() -> None:
    """A tag that would build an object is refused where it stands, before anything is built."""
    with pytest.raises(InputError, match=r"x.yaml:1:4: the YAML tag '!!python/object/apply:os.system'"):
        read_yaml_text("a: !!python/object/apply:os.system ['echo hi']\n", "x.yaml")


def test_csv_rows_keep_their_lines(tmp_path: Path) -> None:
    path = tmp_path / "cards.csv"
    path.write_text("name,count\nA,1\n\nB,2\n", encoding="utf-8")
    table = read_csv(path)
    assert [r["name"] for r in table.rows] == ["A", "B"]
    assert table.lines == [2, 4]


def test_atomic_write_keeps_old_file_on_failure(tmp_path: Path) -> None:
    target = tmp_path / "out.pdf"
    write_atomic(target, b"good")
    with pytest.raises(RuntimeError):
        from pnpforge.files import atomic_writer

        with atomic_writer(target) as handle:
            handle.write(b"half")
            raise RuntimeError("crash")
    assert target.read_bytes() == b"good"
    assert list(tmp_path.iterdir()) == [target]


def test_cli_version_and_help() -> None:
    runner = CliRunner()
    assert __version__ in runner.invoke(main, ["--version"]).output
    result = runner.invoke(main, ["--help"])
    assert result.exit_code == 0 and "Examples:" in result.output


def test_yaml_merge_keys_work_and_keep_positions() -> None:
    source = read_yaml_text("base: &b {x: 1, y: 2}\nitem:\n  <<: *b\n  z: 3\n", "m.yaml")
    assert source.data["item"] == {"x": 1, "y": 2, "z": 3}
    assert source.where(("item", "z")) == (4, 6)


def test_unwritable_output_is_bad_input_not_a_traceback(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("not a folder", encoding="utf-8")
    with pytest.raises(InputError) as info:
        write_atomic(tmp_path / "file" / "out.pdf", b"x")
    assert "cannot write here" in str(info.value)
    runner = CliRunner()
    result = runner.invoke(main, ["build", "examples/tiny-quest", "-o", str(tmp_path / "file" / "out")])
    assert result.exit_code == 2 and "cannot write here" in result.output


def test_a_game_header_s_problem_is_located_at_its_line_in_the_file(tmp_path: Path) -> None:
    spec = tmp_path / "game.yaml"
    spec.write_text(
        "# my game\n# v2\n\ngame:\n  id: mine\n  players: [2, 4\ncomponents: []\n", encoding="utf-8"
    )
    with pytest.raises(InputError) as raised:
        catalog._header(spec, 0.0)
    assert (raised.value.problems[0].file, raised.value.problems[0].line) == (str(spec), 7)
    spec.write_text("# my game\n\ngame:\n  id: mine\n  players: [2, 4]\ncomponents: []\n", encoding="utf-8")
    assert catalog._header(spec, 1.0) == {"id": "mine", "players": [2, 4]}
