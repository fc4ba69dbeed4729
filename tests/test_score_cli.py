"""`pnpforge score`: exit codes, the table, JSON, rule breaks, and interactive answers on stdin."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from pnpforge import catalog
from pnpforge.cli import main
from pnpforge.scoring import Field
from pnpforge.table.scorefile import calculator

GODS = """\
game: gods
players:
  - {name: Ann, villages: {red: 1, blue: 1}, vp_cards: 2, temples: 3, crystals: 5}
  - {name: Bob, villages: 2, vp_cards: 2, temples: 3, crystals: 7}
"""


def run(*args: str, stdin: str | None = None) -> Result:
    return CliRunner().invoke(main, ["score", *args], input=stdin)


@pytest.fixture
def gods_file(tmp_path: Path) -> Path:
    path = tmp_path / "final.yaml"
    path.write_text(GODS, encoding="utf-8")
    return path


def test_scored_file_prints_the_table_and_the_deciding_tie_break(gods_file: Path) -> None:
    result = run(str(gods_file))
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0] == "Gods: score sheet"
    assert lines[2].split() == [
        "#",
        "player",
        "villages",
        "VP",
        "cards",
        "temple",
        "bonus",
        "total",
        "temples",
        "crystals",
    ]
    assert lines[3].split() == ["1", "Bob", "6", "4", "4", "14", "3", "7"]
    assert "Winner: Bob (tied on 14; decided by crystals)." in result.stdout


def test_json_output(gods_file: Path) -> None:
    result = run(str(gods_file), "--json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["game"] == "gods" and data["winners"] == ["Bob"] and data["tiebreak"] == "crystals"
    assert data["players"][0] == {
        "name": "Ann",
        "total": 14,
        "breakdown": {"villages": 6, "VP cards": 4, "temple bonus": 4},
    }


def test_json_file_input(tmp_path: Path) -> None:
    path = tmp_path / "final.json"
    path.write_text(
        json.dumps({"game": "delphi", "players": [{"name": "A", "shrine": 1}, {"name": "B"}]}),
        encoding="utf-8",
    )
    result = run(str(path), "--json")
    assert result.exit_code == 0 and json.loads(result.stdout)["winners"] == []


def test_rule_break_exits_1_in_the_validate_format(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(GODS.replace("temples: 3, crystals: 7", "temples: 3, crystals: 13"), encoding="utf-8")
    result = run(str(path))
    assert result.exit_code == 1
    assert f"{path}:4:65: error [too-many-crystals] Bob's crystals is 13" in result.stdout
    assert "1 rule violation(s); nothing was scored" in result.stdout
    data = json.loads(run(str(path), "--json").stdout)
    assert data["valid"] is False and data["errors"][0]["code"] == "too-many-crystals"
    assert data["errors"][0]["where"] == f"{path}:4:65"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "game: gods\nplayers: [{name: Ann, villages: 1.5}, {name: Bob}]\n",
            ":2:33: expected a whole number",
        ),
        ("game: gods\nplayers: [{name: Ann}, {name: Ann}]\n", ":2:31: player 'Ann' is listed twice"),
        ("game: gods\nplayers: [{name: Ann}, {name: Bob}, {name: C}, {name: D}, {name: E}]\n", "not 5"),
        ("game: gods\nplayers: [{name: Ann, money: 3}, {name: Bob}]\n", "it is a field of good-shepherds"),
        ("game: chess\nplayers: []\n", ":1:7: unknown game 'chess'"),
        ("players: []\n", "missing key 'game'"),
        ("game: gods\nplayers: [{name: Ann}\n", "YAML syntax error"),
    ],
)
def test_malformed_files_exit_2_with_a_location(tmp_path: Path, text: str, expected: str) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(text, encoding="utf-8")
    result = run(str(path))
    assert result.exit_code == 2, result.output
    assert expected in result.stderr and "Traceback" not in result.output
    assert result.stderr.startswith(f"error: {path}")


def test_a_game_id_needs_interactive_and_a_missing_file_is_reported() -> None:
    result = run("gods")
    assert result.exit_code == 2 and "add --interactive" in result.stderr
    result = run("nowhere.yaml")
    assert result.exit_code == 2 and "nowhere.yaml: file not found" in result.stderr
    result = run("chess", "--interactive")
    assert result.exit_code == 2 and "unknown game 'chess'" in result.stderr


def test_interactive_piped_answers_give_the_same_table(gods_file: Path) -> None:
    answers = "2\nAnn\n2\n2\n3\n5\nBob\n2\n2\n3\n7\n"
    result = run("gods", "--interactive", "--json", stdin=answers)
    assert result.exit_code == 0, result.output
    from_prompts = json.loads(result.stdout)
    from_file = json.loads(run(str(gods_file), "--json").stdout)
    assert from_prompts == from_file
    assert "Ann: village cards (3 points each" in result.stderr  # the rule is in the prompt


def test_interactive_rule_break_and_early_end() -> None:
    result = run("delphi", "-i", stdin="2\n12\nA\n4\n0\n0\n0\nn\n0\n0\nB\n0\n0\n0\n0\nn\n0\n0\n")
    assert result.exit_code == 1 and "<interactive>: error [too-many-tasks]" in result.stdout
    result = run("delphi", "-i", stdin="2\n12\nA\n")
    assert result.exit_code == 2 and "answers ended" in result.stderr


def _answers(game: catalog.GameFolder) -> str:
    """Plain answers for every question a game asks: defaults, else zeros and 'no'; fewest players."""
    fields = calculator(game).fields
    low, high = catalog.players_range(game)
    answer = {"int": "0", "bool": "n", "text": "", "choice": ""}

    def reply(field: Field) -> str:
        return "" if field.default is not None else answer.get(field.kind, " ".join(["0"] * field.size))

    lines = [] if low == high else [str(low)]
    lines += [reply(f) for f in fields if not f.per_player and not f.after]
    for index in range(low):
        lines.append(f"P{index + 1}")
        lines += [reply(f) for f in fields if f.per_player]
    lines += [reply(f) for f in fields if not f.per_player and f.after]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("game", [g for g in catalog.games() if g.bundled], ids=lambda g: g.id)
def test_every_bundled_game_scores_interactively(game: catalog.GameFolder) -> None:
    answers = _answers(game)
    if game.id == "ankh":  # gods are players there: name them as gods
        answers = answers.replace("P1\n", "Isis\n").replace("P2\n", "Amun\n")
    if game.id == "quo-vadis":  # a final score has one card per round: all ten in generation 1
        answers = answers.replace("0 0 0 0 0 0\n", "10 0 0 0 0 0\n")
    result = run(game.id, "--interactive", "--json", stdin=answers)
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["game"] == game.id


def test_help_has_an_example() -> None:
    result = CliRunner().invoke(main, ["score", "--help"])
    assert result.exit_code == 0 and "Example:" in result.output and "--interactive" in result.output


def test_docs_worked_examples_print_what_the_docs_show(tmp_path: Path) -> None:
    docs = (Path(__file__).parent.parent / "docs" / "scoring.md").read_text(encoding="utf-8")
    blocks = docs.split("```")[1::2]  # the inside of every fenced block, in order
    checked = 0
    for first, second in zip(blocks, blocks[1:], strict=False):
        shown = second.strip().splitlines()
        if not first.startswith("yaml score\n") or not shown or not shown[0].endswith(": score sheet"):
            continue  # a score file's fence says so (tests/test_docs_examples.py)
        text = first.removeprefix("yaml score\n")
        if "\nmap:" in text or "\nfarm:" in text:
            continue  # those name files beside them; the calculators' own tests cover them
        path = tmp_path / f"example{checked}.yaml"
        path.write_text(text, encoding="utf-8")
        result = run(str(path))
        assert result.exit_code == 0, result.output
        assert result.stdout.strip() == second.strip(), text
        checked += 1
    assert checked == 7
