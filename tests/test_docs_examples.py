"""The docs' examples are run: each does what the docs say it does (issue 30).

A YAML example in docs/ says what it is in its fence's info string (GitHub shows the first word only):

- ```` ```yaml spec ````: a complete game.yaml. Built into a PDF with no warning, its companion files
  written from the blocks named after them (```` ```csv heroes.csv ````).
- ```` ```yaml setup ````: a complete set-up (or board state) file. `pnpforge validate` finds it legal.
- ```` ```yaml score ````: a complete score file. `pnpforge score` scores it; when a plain block follows,
  that is what it prints, exactly.
- ```` ```yaml excerpt ````: part of what the command on its first line (`# pnpforge setup ...`) prints.
  The command is run; each value shown is in its output (a list's shown items at its head and, after
  `...`, at its tail; the list items naming a `tile` among its items).
- Any other ```` ```yaml ```` block is a fragment. A fragment may not look like a whole file (a mapping
  with `game` and `components`, or with `game: <id>`): such a block must say which of the above it is.
"""

from __future__ import annotations

import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from ruamel.yaml import YAML
from ruamel.yaml.error import YAMLError

from pnpforge.cli import main

DOCS = Path(__file__).resolve().parents[1] / "docs"
FENCE = re.compile(r"^```(?P<info>[^\n]*)\n(?P<body>.*?)^```[ \t]*$", re.S | re.M)
KINDS = ("spec", "setup", "score", "excerpt")


@dataclass(frozen=True)
class Example:
    file: Path
    line: int
    language: str
    kind: str  # for a YAML example: spec, setup, score, excerpt or "" (a fragment); else a file name
    body: str
    output: str | None  # the plain block right after it (what the command prints), if any

    def __str__(self) -> str:
        return f"{self.file.name}:{self.line}"


def examples() -> list[Example]:
    found: list[Example] = []
    for file in sorted(DOCS.rglob("*.md")):
        text = file.read_text(encoding="utf-8")
        blocks = list(FENCE.finditer(text))
        for number, block in enumerate(blocks):
            language, *words = block["info"].split() or [""]  # later words are other tests' (file=NAME)
            after = blocks[number + 1] if number + 1 < len(blocks) else None
            follows = (
                after is not None and not text[block.end() : after.start()].strip() and not after["info"]
            )
            line = text.count("\n", 0, block.start()) + 1
            output = after["body"] if follows and after is not None else None
            found.append(Example(file, line, language, words[0] if words else "", block["body"], output))
    return found


EXAMPLES = examples()
YAML_EXAMPLES = [e for e in EXAMPLES if e.language == "yaml"]


def of_kind(kind: str) -> list[Example]:
    return [e for e in YAML_EXAMPLES if e.kind == kind]


def load(text: str) -> Any:
    return YAML(typ="safe", pure=True).load(text)


def test_every_yaml_example_says_what_it_is() -> None:
    assert all(of_kind(kind) for kind in KINDS), "a kind of example the docs no longer hold"
    for example in YAML_EXAMPLES:
        assert example.kind in (*KINDS, ""), f"{example}: unknown kind {example.kind!r} (expected {KINDS})"
        if example.kind:
            continue
        try:
            data = load(example.body)
        except YAMLError:  # alternatives side by side (`group: kind` then `group: {...}`): a fragment
            continue
        whole = isinstance(data, dict) and (
            {"game", "components"} <= set(data) or isinstance(data.get("game"), str)
        )
        assert not whole, f"{example}: a whole file marked as a fragment (mark it: ```yaml {KINDS})"


def companions(example: Example) -> dict[str, str]:
    """The blocks after a spec named as files (```csv heroes.csv), up to the next YAML example."""
    out: dict[str, str] = {}
    same = [e for e in EXAMPLES if e.file == example.file and e.line > example.line]
    for other in same:
        if other.language == "yaml":
            break
        if other.kind:
            out[other.kind] = other.body
    return out


@pytest.mark.parametrize("example", of_kind("spec"), ids=str)
def test_spec_example_builds(example: Example, runner: CliRunner, tmp_path: Path) -> None:
    folder = tmp_path / "spec"
    folder.mkdir()
    (folder / "game.yaml").write_text(example.body, encoding="utf-8")
    for name, body in companions(example).items():
        (folder / name).write_text(body, encoding="utf-8")
    result = runner.invoke(main, ["build", str(folder), "-o", str(tmp_path / "out")])
    assert result.exit_code == 0, f"{example}: {result.output}"
    assert "warning" not in result.output, f"{example}: {result.output}"
    game_id = load(example.body)["game"]["id"]
    assert (tmp_path / "out" / f"{game_id}.pdf").stat().st_size > 0


@pytest.mark.parametrize("example", of_kind("setup"), ids=str)
def test_setup_example_is_legal(example: Example, runner: CliRunner, tmp_path: Path) -> None:
    path = tmp_path / "setup.yaml"
    path.write_text(example.body, encoding="utf-8")
    result = runner.invoke(main, ["validate", str(path)])
    assert result.exit_code == 0 and "legal" in result.output, f"{example}: {result.output}"


def pnpforge(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pnpforge", *args], cwd=cwd, capture_output=True, text=True, check=False
    )


def _good_shepherds_state() -> str:
    """docs/setups.md's Good Shepherds state file: the `farm.yaml` scoring.md scores from."""
    (found,) = [e for e in of_kind("setup") if load(e.body).get("game") == "good-shepherds"]
    return found.body


# Files a score example names, made as the docs' words around it say they are made.
MADE = {
    "farm.yaml": lambda folder: (folder / "farm.yaml").write_text(_good_shepherds_state(), encoding="utf-8"),
    "qv-map.yaml": lambda folder: pnpforge(
        "setup", "quo-vadis", "--players", "3", "--seed", "1", "-o", "qv-map.yaml", cwd=folder
    ),
}


@pytest.mark.parametrize("example", of_kind("score"), ids=str)
def test_score_example_prints_what_the_docs_show(example: Example, tmp_path: Path) -> None:
    for name, make in MADE.items():
        if re.search(rf":\s*{re.escape(name)}\b", example.body):
            make(tmp_path)
    (tmp_path / "score.yaml").write_text(example.body, encoding="utf-8")
    result = pnpforge("score", "score.yaml", cwd=tmp_path)
    assert result.returncode == 0, f"{example}: {result.stderr}"
    if example.output is not None:
        assert result.stdout.strip() == example.output.strip(), f"{example}: prints\n{result.stdout}"


@pytest.mark.parametrize("example", of_kind("excerpt"), ids=str)
def test_excerpt_is_what_its_command_prints(example: Example, tmp_path: Path) -> None:
    command = example.body.splitlines()[0]
    assert command.startswith("# pnpforge "), f"{example}: the first line names no command"
    result = pnpforge(*command.removeprefix("# pnpforge ").split(), cwd=tmp_path)
    assert result.returncode == 0, f"{example}: {result.stderr}"
    shown, printed = load(example.body), load(result.stdout)
    for key, value in shown.items():
        if key not in printed:
            continue  # an optional key the docs describe beside the output
        said = printed[key]
        if isinstance(value, list):
            if any(isinstance(item, dict) and "tile" in item for item in value):
                tiles = [item for item in value if isinstance(item, dict) and "tile" in item]
                assert all(item in said for item in tiles), f"{example}: {key} {tiles} not in {said}"
                continue
            cut = value.index("...") if "..." in value else len(value)
            head, tail = value[:cut], value[cut + 1 :]
            assert said[: len(head)] == head, f"{example}: {key} starts {said[: len(head)]}"
            assert not tail or said[-len(tail) :] == tail, f"{example}: {key} ends {said[-len(tail) :]}"
        else:
            assert said == value, f"{example}: {key} is {said!r}, the docs show {value!r}"
