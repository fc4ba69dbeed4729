"""The rules the score files gained, through the real CLI: files and `score --interactive` answers."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner, Result

from pnpforge.cli import main


def run(*args: str, stdin: str | None = None) -> Result:
    return CliRunner().invoke(main, ["score", *args], input=stdin)


def run_file(path: Path, text: str, *args: str) -> Result:
    path.write_text(text, encoding="utf-8")
    return run(str(path), *args)


def test_good_shepherds_immediate_end_from_a_file_and_from_the_prompts(tmp_path: Path) -> None:
    from_file = run_file(
        tmp_path / "stuck.yaml",
        "game: good-shepherds\nending: no-placement\nplayers:\n"
        "  - {name: Ann, money: 47, sheep: 2, pastures: 3, huts: 4}\n"
        "  - {name: Bob, money: 52, sheep: 3, pastures: 3, huts: 1}\n",
        "--json",
    )
    assert from_file.exit_code == 0, from_file.output
    data = json.loads(from_file.stdout)
    assert data["winners"] == ["Bob"] and data["details"]["ending"] == "no-placement"
    assert {p["name"]: p["total"] for p in data["players"]} == {"Ann": 47, "Bob": 52}  # nothing added
    answers = "no-placement\nAnn\n47\n2\n3\n4\nBob\n52\n3\n3\n1\n"
    asked = run("good-shepherds", "--interactive", "--json", stdin=answers)
    assert asked.exit_code == 0, asked.output
    assert json.loads(asked.stdout) == data
    assert "no-placement" in asked.stderr and "no settlement" in asked.stderr  # the question and its rule
    wrong = run("good-shepherds", "--interactive", stdin="stuck\n")
    assert wrong.exit_code == 2 and "Traceback" not in wrong.output


def test_quo_vadis_prompts_ask_destroyed_towns_and_check_ten_cards() -> None:
    def player(name: str, towns: int, destroyed: int, cards: str) -> str:
        return f"{name}\n10\n{towns}\n{destroyed}\n0\n0\n{cards}\n0\n"

    ten = "4 3 3 0 0 0"
    answers = "3\n" + player("Ann", 3, 3, ten) + player("Bob", 1, 0, "9 0 0 0 0 0") + player("Cy", 0, 0, ten)
    result = run("quo-vadis", "--interactive", stdin=answers)
    assert result.exit_code == 1
    assert "error [too-many-towns]" in result.stdout and "error [too-few-cards]" in result.stdout
    assert "Ann: destroyed towns (face down)" in result.stderr
    answers = "3\n" + player("Ann", 2, 3, ten) + player("Bob", 1, 0, "10 0 0 0 0 0") + player("Cy", 0, 0, ten)
    result = run("quo-vadis", "--interactive", "--json", stdin=answers)
    assert result.exit_code == 0, result.output
    ann = next(p for p in json.loads(result.stdout)["players"] if p["name"] == "Ann")
    assert ann["breakdown"]["towns"] == 6  # the three destroyed towns earn nothing


def test_ankh_merge_from_a_file_and_a_merged_god_from_the_prompts(tmp_path: Path) -> None:
    result = run_file(
        tmp_path / "third.yaml",
        "game: ankh\nmerge: true\nplayers:\n"
        "  - {name: Osiris, devotion: 9}\n  - {name: Isis, devotion: 8}\n"
        "  - {name: Amun, devotion: 4}\n  - {name: Ra, devotion: 3}\n",
    )
    assert result.exit_code == 0, result.output
    assert "Amun and Ra merge into Amun-Ra on space 3" in result.stdout
    # final standings after the merge: Amun-Ra (listed once) against Osiris
    answers = "2\ny\nAmun\n12\nn\nRa\nOsiris\n11\nn\n\n\n"
    asked = run("ankh", "--interactive", "--json", stdin=answers)
    assert asked.exit_code == 0, asked.output
    data = json.loads(asked.stdout)
    assert data["winners"] == ["Amun"] and any("Amun-Ra" in note for note in data["notes"])
    assert "god merged into this one" in asked.stderr
