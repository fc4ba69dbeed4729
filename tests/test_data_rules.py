"""A game whose rules are data (`scoring:` and `setup:` in game.yaml): the `new --template game` scaffold
scores, validates, deals and draws its set-up, and serves its sheet with no Python; each mistake in the
two sections is one located error (exit 2); each set-up rule kind finds what it should, located."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from PIL import Image

from pnpforge import catalog
from pnpforge.cli import main


@pytest.fixture
def game(tmp_path: Path) -> Path:
    """A fresh `pnpforge new --template game` folder, `my-game` inside tmp_path/games."""
    folder = tmp_path / "games" / "my-game"
    made = CliRunner().invoke(main, ["new", str(folder), "--template", "game"])
    assert made.exit_code == 0, made.output
    return folder


def run(*args: str, input: str | None = None) -> Any:
    return CliRunner().invoke(main, list(args), input=input)


def test_the_scaffold_scores_its_example_at_once(game: Path) -> None:
    scored = run("score", str(game / "score.yaml"), "--json")
    assert scored.exit_code == 0, scored.output
    result = json.loads(scored.stdout)
    rows = {p["name"]: (p["total"], p["breakdown"]) for p in result["players"]}
    # Ann: 6 villages (12), 3 forests (table: 6), lake 2 tied with Bob (5 split: 2); Bob: 10 + 10 + 2
    assert rows == {
        "Ann": (20, {"villages": 12, "forests": 6, "lake": 2}),
        "Bob": (22, {"villages": 10, "forests": 10, "lake": 2}),
    }
    assert result["winners"] == ["Bob"] and result["details"] == {"game_ends": True}
    text = run("score", str(game / "score.yaml"), "--lang", "ja")
    assert text.exit_code == 0 and "建てた村" not in text.output and "湖岸" in text.output


def test_the_game_goes_on_until_someone_built_every_village(game: Path) -> None:
    path = game / "score.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("villages: 6", "villages: 5"), encoding="utf-8")
    result = json.loads(run("score", str(path), "--json").stdout)
    assert result["winners"] == [] and result["details"] == {"game_ends": False}
    shown = run("score", str(path))
    assert "No winner yet: nobody has built all 6 villages." in shown.output


def test_tables_majority_ties_and_tiebreak_lower_wins(game: Path) -> None:
    path = game / "tie.yaml"
    path.write_text(
        "game: my-game\nplayers:\n"
        "  - {name: Ann, villages: 6, forests: 9, lake: 3, towers: 2}\n"
        "  - {name: Bob, villages: 6, forests: 4, lake: 1, towers: 0}\n"
        "  - {name: Cy, villages: 1, lake: 1}\n",
        encoding="utf-8",
    )
    result = json.loads(run("score", str(path), "--json").stdout)
    totals = {p["name"]: p["total"] for p in result["players"]}
    assert totals == {"Ann": 27, "Bob": 22, "Cy": 2}  # forests: min(9, 4) looks up 10; lake: 5 to Ann alone
    path.write_text(path.read_text(encoding="utf-8").replace("lake: 3", "lake: 1"), encoding="utf-8")
    path.write_text(path.read_text(encoding="utf-8").replace("forests: 4", "forests: 9"), encoding="utf-8")
    result = json.loads(run("score", str(path), "--json").stdout)
    assert result["winners"] == ["Bob"] and result["tiebreak"] == "towers"  # 22 each; fewer towers wins


def test_rule_breaks_are_located_in_the_score_file(game: Path) -> None:
    path = game / "bad.yaml"
    path.write_text(
        "game: my-game\nplayers:\n"
        "  - {name: Ann, villages: 7, lake: 1}\n  - {name: Bob, villages: 1, lake: 3}\n",
        encoding="utf-8",
    )
    scored = run("score", str(path))
    assert scored.exit_code == 1
    assert "[too-many-villages]" in scored.output and "Ann's villages is 7, more than the 6" in scored.output
    assert (
        "[lake-above-villages]" in scored.output
        and "Bob has 3 villages on the shore but only 1" in scored.output
    )
    assert f"{path}:4:36: error [lake-above-villages]" in scored.output  # at Bob's lake


def test_interactive_answers_score_as_a_file(game: Path) -> None:
    answers = "2\nAnn\n6\n3\n2\n1\nBob\n5\n4\n2\n2\n"
    typed = run("--games-dir", str(game.parent), "score", "my-game", "--interactive", "--json", input=answers)
    assert typed.exit_code == 0, typed.output
    filed = run("score", str(game / "score.yaml"), "--json")
    assert json.loads(typed.stdout[typed.stdout.index("{") :]) == json.loads(filed.stdout)
    assert "villages built (2 points each; at most 6)" in typed.output


def test_the_scaffold_validates_deals_and_draws_its_set_up(game: Path, tmp_path: Path) -> None:
    checked = run("validate", str(game / "setup.yaml"))
    assert checked.exit_code == 0 and "legal my-game set-up" in checked.output
    picture = tmp_path / "start.png"
    dealt = run("--games-dir", str(game.parent), "setup", "my-game", "-p", "3", "--draw", str(picture))
    assert dealt.exit_code == 0, dealt.output
    assert dealt.stdout.count("piece: village") == 3  # the printed starting villages of three seats
    dealt_file = tmp_path / "dealt.yaml"
    dealt_file.write_text(dealt.stdout, encoding="utf-8")
    assert run("validate", str(dealt_file)).exit_code == 0
    image = Image.open(picture).convert("RGB")
    colours = {colour for _, colour in image.getcolors(maxcolors=1 << 20) or []}
    assert (0x9C, 0xC7, 0xE6) in colours and (0x6F, 0x9A, 0x5A) in colours  # the lake and the forests


def test_every_rule_kind_finds_its_break(game: Path) -> None:
    path = game / "broken.yaml"
    path.write_text(
        "game: my-game\nplayers: 2\npieces:\n"
        "  - {piece: village, at: [-3, 1], player: 1}\n"
        "  - {piece: village, at: [-3, 2], player: 1}\n"  # touches the first
        "  - {piece: village, at: [0, -3], player: 2}\n"  # on forest; player 2's start missing
        "  - {piece: tower, at: [2, 0], player: 2}\n"  # next to no village
        "  - {piece: tower, at: [2, 0], player: 2}\n"  # the same cell twice
        "  - {piece: tower, at: [-2, 1], player: 2}\n",  # a third tower
        encoding="utf-8",
    )
    checked = run("validate", str(path), "--json")
    assert checked.exit_code == 1
    errors = {(e["code"], e["message"]) for e in json.loads(checked.stdout)["errors"]}
    assert errors == {
        ("cell-occupied", "cell [2, 0] holds 2 pieces; one only"),
        ("village-off-grass", "the village at [0, -3] is on forest; villages are built on grass"),
        ("villages-touch", "the villages at [-3, 1] and [-3, 2] touch"),
        ("tower-alone", "the tower at [2, 0] stands next to no village"),
        ("too-many-towers", "player 2 has 3 towers (at most 2)"),
        ("start-village", "player 2's first village is printed at [3, -1]"),
    }
    said = run("validate", str(path), "--lang", "ja")
    assert "[-3, 1]と[-3, 2]の村が隣接" in said.output


def test_connected_max_group_and_regions(game: Path) -> None:
    spec = game / "game.yaml"
    text = spec.read_text(encoding="utf-8")
    cells = game / "cells.yaml"
    cells.write_text(
        cells.read_text(encoding="utf-8").replace("at: [0, 0], terrain: water", "at: [0, 0], terrain: grass"),
        encoding="utf-8",
    )
    extra = (
        "    - {kind: max-group, code: tower-row, pieces: tower, most: 1,"
        ' message: "towers {cells}: {count}"}\n'
        "    - {kind: regions-at-least, code: cut-off, pieces: [village, tower], at_least: 3,"
        ' message: "{count} cells cut off: {cells}"}\n'
    )
    spec.write_text(text + extra, encoding="utf-8")
    path = game / "towers.yaml"
    path.write_text(
        "game: my-game\nplayers: 2\npieces:\n"
        "  - {piece: village, at: [-3, 1], player: 1}\n  - {piece: village, at: [3, -1], player: 2}\n"
        "  - {piece: tower, at: [-3, 2], player: 1}\n  - {piece: tower, at: [-2, 2], player: 1}\n"
        "  - {piece: village, at: [-2, 3], player: 1}\n",  # with the towers, walls [-3, 3] in
        encoding="utf-8",
    )
    errors = {
        (e["code"], e["message"], json.dumps(e["where"]))
        for e in json.loads(run("validate", str(path), "--json").stdout)["errors"]
    }
    assert ("tower-row", "towers [-3, 2], [-2, 2]: 2", "[[-3, 2], [-2, 2]]") in errors
    assert ("cut-off", "1 cells cut off: [-3, 3]", "[[-3, 3]]") in errors
    assert any(code == "lake-split" and "2 parts" in message for code, message, _ in errors)


SCORE_LINE = '    - {name: villages, label: {en: villages, ja: 村}, points: "villages * 2"}'
MISTAKES = [
    # (what is replaced, by what, the one error's place and words)
    (SCORE_LINE, SCORE_LINE.replace('"villages * 2"', '"vilages * 2"'), "no field 'vilages'"),
    (SCORE_LINE, SCORE_LINE.replace('"villages * 2"', '"villages *"'), "the expression ends too soon"),
    (SCORE_LINE, SCORE_LINE.replace("points:", "pionts:"), "unknown key 'pionts'"),
    ("      max: 2\n      info: true", "      max: two\n      info: true", "no field 'two'"),
    ('broken: "lake > villages"', 'broken: "lake > vilages"', "no field 'vilages'"),
    ("at: lake\n", "at: lakes\n", "unknown field 'lakes'"),
    ("{kind: one-per-cell,", "{kind: one-per-cel,", "unknown rule kind 'one-per-cel'"),
    ("      most: 2\n", "      most: two\n", "valid integer"),
    ("      most: 2\n", "      most: 2\n      terrain: grass\n", "rule count takes no 'terrain'"),
    (
        "      pieces: tower\n      to: village",
        "      pieces: towers\n      to: village",
        "unknown piece 'towers'",
    ),
    ("the tower at {cell} stands", "the tower at {cel} stands", "unknown name 'cel' in the message"),
    ("board: {hexmap: board}", "board: {hexmap: boards}", "no component 'boards' with a hexmap element"),
]


@pytest.mark.parametrize(("old", "new", "words"), MISTAKES)
@pytest.mark.parametrize("command", ["score", "validate"])
def test_each_mistake_is_one_located_error(game: Path, old: str, new: str, words: str, command: str) -> None:
    spec = game / "game.yaml"
    text = spec.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    spec.write_text(text.replace(old, new), encoding="utf-8")
    differs = next((i for i, (a, b) in enumerate(zip(old, new, strict=False)) if a != b), len(old))
    line = text[: text.index(old) + differs].count("\n") + 1  # the line the mistake is on
    in_scoring = text.index(old) < text.index("\nsetup:")
    file = game / ("score.yaml" if command == "score" else "setup.yaml")
    result = run(command, str(file))
    if (command == "score") != in_scoring:  # a mistake in the other section does not stop this command
        assert result.exit_code in (0, 1), result.output
        return
    assert result.exit_code == 2, result.output
    errors = [entry for entry in result.output.splitlines() if entry.startswith("error:")]
    assert len(errors) == 1 and words in errors[0], result.output
    where = errors[0].split(": ", 2)[1]
    assert where.startswith(f"{spec}:") and int(where.split(":")[-2]) in (line, line + 1), (where, line)


def test_a_data_game_serves_its_sheet(game: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from starlette.testclient import TestClient

    from pnpforge.web import app as web

    monkeypatch.setenv(catalog.GAMES_DIR_ENV, str(game.parent))
    with TestClient(web.create_app(build_root=tmp_path / "builds")) as client:
        page = client.get("/g/my-game?lang=en")
        assert page.status_code == 200 and 'name="p0:villages"' in page.text and "villages built" in page.text
        form = {"count": "2", "p0:name": "Ann", "p0:villages": "6", "p0:forests": "3", "p0:lake": "2"}
        form |= {"p0:towers": "1", "p1:name": "Bob", "p1:villages": "5", "p1:forests": "4", "p1:lake": "2"}
        form |= {"p1:towers": "2"}
        scored = client.post("/api/g/my-game/score", data=form)
        assert scored.status_code == 200, scored.text
        cli = json.loads(run("score", str(game / "score.yaml"), "--json").stdout)
        assert [(p["name"], p["total"]) for p in scored.json()["result"]["players"]] == [
            (p["name"], p["total"]) for p in cli["players"]
        ]
        dealt = client.post("/g/my-game/deal", data={"players": "2", "seed": "1"})
        assert dealt.status_code == 200 and 'data-valid="yes"' in dealt.text
        broken = (game / "setup.yaml").read_text(
            encoding="utf-8"
        ) + "  - {piece: village, at: [-3, 2], player: 1}\n"
        page = client.post("/g/my-game/check", files={"file": ("mine.yaml", broken.encode())})
        assert page.status_code == 200 and 'data-valid="no"' in page.text
        assert "<code>villages-touch</code>" in page.text and 'data-code="villages-touch"' in page.text
        api = client.post("/api/g/my-game/check", data={"setup": broken}).json()
        codes = [e["code"] for e in api["report"]["errors"]]
        assert codes == ["villages-touch"] and api["unmarked"] == []
        japanese = client.get("/g/my-game?lang=ja")
        assert "建てた村" in japanese.text


def _section(doc: str, heading: str) -> str:
    text = (Path(__file__).parents[1] / "docs" / doc).read_text(encoding="utf-8")
    section = text[text.index(f"## {heading}\n") :]
    return section[: section.index("\n## ", 1)]


def _fenced_after(section: str, lead: str) -> str:
    """The inside of the fenced block after `lead` in `section` (its language line left out)."""
    after = section[section.index(lead) :]
    return after.split("```")[1].split("\n", 1)[1]


def test_the_docs_show_the_scaffold_and_what_it_prints(game: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    scoring, setup = (
        _section("scoring.md", "Score sheets as data"),
        _section("setups.md", "Set-up rules as data"),
    )
    spec = (game / "game.yaml").read_text(encoding="utf-8")
    sheet, rules = (
        _fenced_after(scoring, "The scaffold's sheet"),
        _fenced_after(setup, "The scaffold's rules"),
    )
    assert sheet.startswith("scoring:\n") and sheet in spec
    assert rules.startswith("setup:\n") and rules in spec
    example = (game / "setup.yaml").read_text(encoding="utf-8")
    assert "game: my-game\nplayers: 2\n" + _fenced_after(setup, "Its example set-up") in example
    monkeypatch.chdir(game.parent)
    for section in (scoring, setup):
        shown = section[section.index("```\n$ pnpforge ") + 4 :].split("```")[0]
        command, *printed = shown.strip().splitlines()
        result = run(*command.removeprefix("$ pnpforge ").split())
        assert result.exit_code == 0 and result.output.strip().splitlines() == printed, result.output


@pytest.mark.parametrize(
    ("game", "heading"), [("good-shepherds", "Good Shepherds"), ("quo-vadis", "Quo Vadis")]
)
def test_the_docs_show_a_game_s_sheet_whole(game: str, heading: str) -> None:
    """docs/scoring.md shows the game's own `scoring:` whole (its examples there are scored)."""
    shown = _fenced_after(_section("scoring.md", heading), f"{heading}' sheet, whole")
    spec = (catalog.BUNDLED_DIR / game / "game.yaml").read_text(encoding="utf-8")
    assert shown.startswith("scoring:\n") and spec.endswith("\n" + shown)


GENERATIONS = """\
game:
  id: gens
  title: Gens
  players: [2, 4]
components:
  - {name: card, kind: card, size: poker, face: {elements: []}}
scoring:
  fields:
    - {key: first, per: game, seat: true, label: start player, ask: false}
    - {key: who, group: bonus, per: game, seat: true, required: true, label: who}
    - {key: gold, group: bonus, per: game, optional: true, label: gold, noun: bonus gold}
    - key: slots
      label: cards per slot
      size: 3
      size_message: "give {size} slots (got {count})"
      noun: "cards in slot {n}"
  items:
    - {name: bonus, points: "bonus_gold * 2", when: bonus}
    - name: slots
      points: 5
      majority: {of: slots, each: true, ties: first, start: first}
      when: "not bonus"
  rows: "not bonus or name == bonus_who"
  checks:
    - {code: gap, per: position, of: slots, once: true, broken: "value <= 0 and n < slots_last",
       message: "{name}: slot {n} is empty before slot {slots_last} ({slots_sum} cards)"}
    - {code: much-gold, per: game, when: bonus, value: bonus_gold, most: 9, at: gold, what: "bonus gold"}
  shows:
    - {name: from first, value: "(seat - first_seat) % players + 1", when: "not bonus"}
  no_winner: {when: bonus, says: "A bonus names no winner."}
"""


def _gens(tmp_path: Path, spec: str, body: str, *args: str) -> Any:
    folder = tmp_path / "gens"
    folder.mkdir(exist_ok=True)
    (folder / "game.yaml").write_text(spec, encoding="utf-8")
    (folder / "f.yaml").write_text("game: gens\n" + body, encoding="utf-8")
    return run("score", str(folder / "f.yaml"), *args)


@pytest.mark.parametrize(
    ("first", "slots", "won"),
    [  # a majority at each of the 3 slots, ties to the first in seat order from `first`
        ("Ann", ([2, 1, 0], [2, 0, 0], [1, 1, 1]), {"Ann": 10, "Bob": 0, "Cy": 5}),
        ("Bob", ([2, 1, 0], [2, 0, 0], [1, 1, 1]), {"Ann": 0, "Bob": 5, "Cy": 10}),
        ("Cy", ([2, 1, 0], [2, 0, 0], [1, 1, 1]), {"Ann": 5, "Bob": 0, "Cy": 10}),
        ("Cy", ([0, 0, 0], [0, 0, 0], [0, 0, 0]), {"Ann": 0, "Bob": 0, "Cy": 0}),  # none: nobody's
    ],
)
def test_a_majority_at_each_position_of_a_list(
    tmp_path: Path, first: str, slots: tuple[list[int], ...], won: dict[str, int]
) -> None:
    players = "".join(
        f"  - {{name: {n}, slots: {s}}}\n" for n, s in zip(["Ann", "Bob", "Cy"], slots, strict=True)
    )
    result = _gens(tmp_path, GENERATIONS, f"first: {first}\nplayers:\n{players}", "--json")
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)["players"]
    assert {p["name"]: p["breakdown"]["slots"] for p in rows} == won


def test_a_majority_at_each_position_needs_a_list(tmp_path: Path) -> None:
    spec = GENERATIONS.replace("majority: {of: slots, each: true,", "majority: {of: slots_sum, each: true,")
    result = _gens(tmp_path, spec, "players: [{name: Ann, slots: [1, 0, 0]}, {name: Bob}]\n")
    assert result.exit_code == 2 and "Traceback" not in result.output, result.output
    line = spec[: spec.index("majority: {of: slots_sum")].count("\n") + 1
    assert f"game.yaml:{line}:" in result.output and "expected a list of numbers" in result.output


def test_a_list_s_length_positions_and_a_group(tmp_path: Path) -> None:
    wrong = _gens(tmp_path, GENERATIONS, "players: [{name: Ann, slots: [1, 2]}, {name: Bob}]\n")
    assert wrong.exit_code == 2 and "f.yaml:2:30: give 3 slots (got 2)" in wrong.output, wrong.output
    gap = _gens(
        tmp_path, GENERATIONS, "players: [{name: Ann, slots: [0, 0, 2]}, {name: Bob, slots: [-1, 1, 0]}]\n"
    )
    assert gap.exit_code == 1, gap.output
    said = [line for line in gap.output.splitlines() if "error" in line]
    assert "f.yaml:2:31: error [gap] Ann: slot 1 is empty before slot 3 (2 cards)" in said[0]  # once
    assert "[negative-count] Bob's cards in slot 1 is -1" in said[1] and "[gap] Bob: slot 1" in said[2]
    assert len(said) == 3  # Ann's slot 2 is empty too: once is once
    bonus = _gens(tmp_path, GENERATIONS, "bonus: {who: Bob, gold: 4}\nplayers: [{name: Ann}, {name: Bob}]\n")
    assert bonus.exit_code == 0 and "A bonus names no winner." in bonus.output, bonus.output
    assert [line.split()[:3] for line in bonus.output.splitlines() if "Bob" in line] == [["1", "Bob", "8"]]
    much = _gens(tmp_path, GENERATIONS, "bonus: {who: Bob, gold: 12}\nplayers: [{name: Ann}, {name: Bob}]\n")
    assert much.exit_code == 1 and "f.yaml:2:25: error [much-gold] bonus gold is 12" in much.output
    unknown = _gens(tmp_path, GENERATIONS, "bonus: {who: Zed}\nplayers: [{name: Ann}, {name: Bob}]\n")
    assert unknown.exit_code == 2 and "f.yaml:2:14: unknown player 'Zed'" in unknown.output
    missing = _gens(tmp_path, GENERATIONS, "bonus: {gold: 1}\nplayers: [{name: Ann}, {name: Bob}]\n")
    assert missing.exit_code == 2 and "missing key 'who'" in missing.output


@pytest.mark.parametrize(
    ("old", "new", "words"),
    [
        ("{key: who, group: bonus, per: game,", "{key: who, group: bonus, per: player,", "a `group:` field"),
        ("per: position, of: slots,", "per: position, of: first,", "per: position needs `of:`"),
        ("when: bonus, value:", "when: bonuss, value:", "no field 'bonuss'"),
        ('"give {size} slots (got {count})"', '"give {sise} slots"', "unknown name 'sise'"),
        ('when: "not bonus"}', 'when: "not bonu"}', "no field 'bonu'"),
        ('rows: "not bonus', 'rows: "not bonos', "no field 'bonos'"),
        ("no_winner: {when: bonus,", "no_winner: {when: slots_last,", "no field 'slots_last'"),
        ("majority: {of: slots, each: true,", "majority: {of: slots, each: yes,", "valid boolean"),
    ],
)
def test_a_mistake_in_lists_groups_and_rows_is_one_located_error(
    tmp_path: Path, old: str, new: str, words: str
) -> None:
    assert GENERATIONS.count(old) == 1, old
    line = GENERATIONS[: GENERATIONS.index(old)].count("\n") + 1
    result = _gens(tmp_path, GENERATIONS.replace(old, new), "players: [{name: Ann}, {name: Bob}]\n")
    assert result.exit_code == 2, result.output
    errors = [entry for entry in result.output.splitlines() if entry.startswith("error:")]
    assert len(errors) == 1 and words in errors[0], result.output
    where = errors[0].split(": ", 2)[1]
    assert where.split(":")[0].endswith("game.yaml") and int(where.split(":")[-2]) in (line, line + 1), where


NOTES = """\
game:
  id: race
  title: Race
  players: [2, 4]
components:
  - {name: card, kind: card, size: poker, face: {elements: []}}
scoring:
  fields:
    - {key: laps, label: laps}
  values:
    goal: "3"
  items:
    - {name: laps, points: laps}
  ends_when: "total_all | max >= goal"
  notes:
    - when: game_ends
      text: {en: "Over the line: {who}.", ja: "ゴール: {who}。"}
      lists:
        who: {text: {en: "{name} with {total}", ja: "{name}({total})"}, when: "total >= goal"}
    - {when: "not game_ends", text: "Nobody has {goal} laps yet."}
"""


@pytest.mark.parametrize(
    ("laps", "json_notes", "ja"),
    [
        ([3, 1, 4], ["Over the line: Ann with 3, Cy with 4."], "ゴール: Ann(3)、Cy(4)。"),
        ([2, 1, 0], ["Nobody has 3 laps yet."], "Nobody has 3 laps yet."),
    ],
)
def test_notes_say_their_lists_of_players(
    tmp_path: Path, laps: list[int], json_notes: list[str], ja: str
) -> None:
    folder = tmp_path / "race"
    folder.mkdir()
    (folder / "game.yaml").write_text(NOTES, encoding="utf-8")
    players = "".join(
        f"  - {{name: {n}, laps: {k}}}\n" for n, k in zip(["Ann", "Bob", "Cy"], laps, strict=True)
    )
    path = folder / "final.yaml"
    path.write_text(f"game: race\nplayers:\n{players}", encoding="utf-8")
    result = run("score", str(path), "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["notes"] == json_notes
    said = run("score", str(path), "--lang", "ja")
    assert said.exit_code == 0 and said.output.strip().endswith(ja), said.output


@pytest.mark.parametrize(
    ("old", "new", "words"),
    [
        ("when: game_ends", "when: game_end", "no field 'game_end'"),
        ('when: "total >= goal"', 'when: "totl >= goal"', "no field 'totl'"),
        ("{name} with {total}", "{name} with {totl}", "unknown name 'totl' in the message"),
        ("Over the line: {who}.", "Over the line: {whom}.", "unknown name 'whom' in the message"),
        ("      lists:", "      list:", "unknown key 'list'"),
    ],
)
def test_a_mistake_in_a_note_is_one_located_error(tmp_path: Path, old: str, new: str, words: str) -> None:
    folder = tmp_path / "race"
    folder.mkdir()
    assert NOTES.count(old) == 1
    (folder / "game.yaml").write_text(NOTES.replace(old, new), encoding="utf-8")
    line = NOTES[: NOTES.index(old)].count("\n") + 1
    (folder / "final.yaml").write_text("game: race\nplayers: [{name: Ann}, {name: Bob}]\n", encoding="utf-8")
    result = run("score", str(folder / "final.yaml"))
    assert result.exit_code == 2, result.output
    errors = [entry for entry in result.output.splitlines() if entry.startswith("error:")]
    assert len(errors) == 1 and words in errors[0], result.output
    where = errors[0].split(": ", 2)[1]  # a mapping's unknown key is told where its value starts
    assert int(where.split(":")[-2]) in (line, line + 1), (where, line)


MAJORITIES = """\
game:
  id: ties
  title: Ties
  players: [2, 5]
components:
  - {name: card, kind: card, size: poker, face: {elements: []}}
scoring:
  fields:
    - {key: first, per: game, seat: true, label: start player}
    - {key: gold, label: gold}
  items:
    - {name: everyone, points: 6, majority: {of: gold, ties: everyone}}
    - {name: nobody, points: 6, majority: {of: gold, ties: nobody}}
    - {name: split, points: 6, majority: {of: gold, ties: split}}
    - {name: first, points: 6, majority: {of: gold, ties: first, start: first}}
    - {name: at least 5, points: 6, majority: {of: gold, at_least: 5}}
"""


@pytest.mark.parametrize(
    ("start", "golds", "expected"),
    [  # expected: each player's (everyone, nobody, split, first, at least 5)
        ("Cy", [3, 1, 3, 0], [(6, 0, 3, 0, 0), (0, 0, 0, 0, 0), (6, 0, 3, 6, 0), (0, 0, 0, 0, 0)]),
        ("Ann", [3, 1, 3, 0], [(6, 0, 3, 6, 0), (0, 0, 0, 0, 0), (6, 0, 3, 0, 0), (0, 0, 0, 0, 0)]),
        ("Dee", [5, 5, 5, 1], [(6, 0, 2, 6, 6), (6, 0, 2, 0, 6), (6, 0, 2, 0, 6), (0, 0, 0, 0, 0)]),
        ("Bob", [5, 5, 5, 1], [(6, 0, 2, 0, 6), (6, 0, 2, 6, 6), (6, 0, 2, 0, 6), (0, 0, 0, 0, 0)]),
        ("Bob", [0, 2, 0, 0], [(0, 0, 0, 0, 0), (6, 6, 6, 6, 0), (0, 0, 0, 0, 0), (0, 0, 0, 0, 0)]),
    ],
)
def test_majority_tie_rules(
    tmp_path: Path, start: str, golds: list[int], expected: list[tuple[int, ...]]
) -> None:
    folder = tmp_path / "ties"
    folder.mkdir()
    (folder / "game.yaml").write_text(MAJORITIES, encoding="utf-8")
    names = ["Ann", "Bob", "Cy", "Dee"]
    players = "".join(f"  - {{name: {n}, gold: {g}}}\n" for n, g in zip(names, golds, strict=True))
    path = folder / "final.yaml"
    path.write_text(f"game: ties\nfirst: {start}\nplayers:\n{players}", encoding="utf-8")
    result = run("score", str(path), "--json")
    assert result.exit_code == 0, result.output
    rows = {p["name"]: tuple(p["breakdown"].values()) for p in json.loads(result.stdout)["players"]}
    assert [rows[n] for n in names] == expected
    path.write_text(
        path.read_text(encoding="utf-8").replace(f"first: {start}", "first: Zed"), encoding="utf-8"
    )
    refused = run("score", str(path))
    assert refused.exit_code == 2 and "final.yaml:2:8: unknown player 'Zed'" in refused.output


def test_the_json_schema_describes_both_sections() -> None:
    shown = run("schema")
    assert shown.exit_code == 0
    schema = json.loads(shown.stdout)
    scoring, setup = (schema["properties"][key]["anyOf"][0] for key in ("scoring", "setup"))
    assert {"kit", "fields", "items", "checks", "tiebreaks", "eligible", "ends_when", "notes"} <= set(
        scoring["properties"]
    )
    assert {"board", "pieces", "rules"} <= set(setup["properties"])
    refs = json.dumps(schema)
    for name in (
        "FieldSpec",
        "Item",
        "Check",
        "Note",
        "Listed",
        "RuleSpec",
        "PieceSpec",
        "Board",
    ):  # each reference resolves
        assert f'"#/$defs/{name}"' in refs and name in schema["$defs"], name


def test_a_data_game_s_plays_are_recorded_and_summarised(game: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from pnpforge.store import db

    monkeypatch.setenv(db.ENV, str(game.parent / "plays.db"))
    recorded = run("score", str(game / "score.yaml"), "--record")
    assert recorded.exit_code == 0 and "Recorded as play 1." in recorded.output
    listed = run("--games-dir", str(game.parent), "plays", "my-game")
    assert listed.exit_code == 0 and "Ann 20, Bob 22  Bob" in listed.output
    stats = run("--games-dir", str(game.parent), "plays", "stats", "my-game")
    assert stats.exit_code == 0 and "villages" in stats.output and "forests" in stats.output
