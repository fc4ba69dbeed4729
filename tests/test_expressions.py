"""The expression language of a spec, through real builds: `when:`, `{{ }}` in texts, `where:`, `count:`
expressions, the `\\{` escape, and bad expressions located at game.yaml or at the data row."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import SpecMaker
from pypdf import PdfReader

from pnpforge.cli import main
from pnpforge.components.expressions import ExpressionError, evaluate

DECK = """\
game: {id: twotype, title: Two types}
components:
  - name: deck
    kind: card
    size: poker
    csv: cards.csv
    WHERE
    COUNT
    face:
      elements:
        - {type: text, when: "WHEN", text: "EVENT {name}", x: 3mm, y: 3mm, w: 57mm, h: 8mm}
        - {type: text, text: "{name} costs {{ cost * 2 }} coins", x: 3mm, y: 20mm, w: 57mm, h: 8mm}
        - {type: text, text: 'braces \\{kept\\}', x: 3mm, y: 40mm, w: 57mm, h: 8mm}
"""
CARDS = "name,type,cost\nStorm,event,3\nKnight,unit,2.5\nGiant,unit,10\n"


def deck(make_spec: SpecMaker, when: str = "type == 'event'", where: str = "", count: str = "") -> Path:
    text = DECK.replace("WHEN", when).replace("WHERE", where).replace("COUNT", count)
    return make_spec(text, cards__csv=CARDS)


def build(runner: CliRunner, folder: Path, out: Path) -> tuple[int, str, str]:
    result = runner.invoke(main, ["build", str(folder), "-o", str(out)])
    text = ""
    if result.exit_code == 0:
        text = "\n".join(page.extract_text() for page in PdfReader(out / "twotype.pdf").pages)
    return result.exit_code, result.output, text


def test_when_and_inline_expressions(make_spec: SpecMaker, runner: CliRunner, tmp_path: Path) -> None:
    code, output, text = build(runner, deck(make_spec), tmp_path / "out")
    assert code == 0, output
    assert text.count("EVENT") == 1 and "EVENT Storm" in text  # only the event row draws it
    assert "Storm costs 6 coins" in text and "Knight costs 5 coins" in text  # "2.5" is a number: 2.5*2 = 5
    assert "Giant costs 20 coins" in text
    assert text.count("braces {kept}") == 3


def test_when_false_for_every_row(make_spec: SpecMaker, runner: CliRunner, tmp_path: Path) -> None:
    code, output, text = build(runner, deck(make_spec, when="cost > 100"), tmp_path / "out")
    assert code == 0, output
    assert "EVENT" not in text and "Storm costs 6 coins" in text


def test_where_and_count_expression(make_spec: SpecMaker, runner: CliRunner, tmp_path: Path) -> None:
    folder = deck(make_spec, where='where: "cost < 9"', count="count: \"{{ 3 if type == 'event' else 1 }}\"")
    code, output, text = build(runner, folder, tmp_path / "out")
    assert code == 0, output
    assert "Giant" not in text  # where: left it out
    assert text.count("Storm costs") == 3 and text.count("Knight costs") == 1
    inventory = runner.invoke(main, ["inventory", str(folder), "--json"])
    assert '"count": 4' in inventory.output


def test_bad_expression_located_at_game_yaml(make_spec: SpecMaker, runner: CliRunner, tmp_path: Path) -> None:
    code, output, _ = build(runner, deck(make_spec, when="type ==="), tmp_path / "out")
    assert code == 2
    lines = [line for line in output.splitlines() if line.startswith("error:")]
    assert len(lines) == 1 and "game.yaml:11:" in lines[0] and "bad expression 'type ==='" in lines[0]
    assert "Traceback" not in output and not (tmp_path / "out" / "twotype.pdf").exists()


def test_attribute_access_refused(make_spec: SpecMaker, runner: CliRunner, tmp_path: Path) -> None:
    code, output, _ = build(runner, deck(make_spec, when="name.__class__"), tmp_path / "out")
    assert code == 2 and "game.yaml:11:" in output and "attribute access" in output


def test_evaluation_error_located_at_row(make_spec: SpecMaker, runner: CliRunner, tmp_path: Path) -> None:
    code, output, _ = build(runner, deck(make_spec, when="colour == 'red'"), tmp_path / "out")
    # a name no row has: once, at the expression's line (issue 30), not at every row
    lines = [line for line in output.splitlines() if line.startswith("error")]
    assert code == 2 and len(lines) == 1 and "game.yaml:11:" in lines[0], output
    assert "no data row has a field 'colour'" in output and "fields: cost, name, type" in output
    code, output, _ = build(runner, deck(make_spec, where="where: \"cost < 'x'\""), tmp_path / "out2")
    # the same message at every row is said once, naming the rows it holds for (issue 17's error volume)
    assert code == 2 and "cards.csv:2:" in output and "(and 2 more rows: cards.csv:3–4)" in output
    assert "where:" in output


def test_unclosed_expression(make_spec: SpecMaker, runner: CliRunner, tmp_path: Path) -> None:
    folder = deck(make_spec)
    spec = folder / "game.yaml"
    spec.write_text(spec.read_text().replace("{{ cost * 2 }}", "{{ cost"), encoding="utf-8")
    code, output, _ = build(runner, folder, tmp_path / "out")
    assert code == 2 and "game.yaml:12:" in output and "no `}}` closes" in output


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("'ab' * 100000", "longer than"),
        ("2 ** 100000", "exponent"),
        ("range(10**9) | list", "Range too big"),
    ],
)
def test_work_is_bounded(text: str, message: str) -> None:
    with pytest.raises(ExpressionError, match=message):
        evaluate(text, {}, "en")


def test_long_value_refused_in_a_text() -> None:
    from pnpforge.components.template import fill

    with pytest.raises(ExpressionError, match="longer than 10000"):
        fill("{{ range(99999) | join(',') }}", {}, "en")


def test_functions_and_filters() -> None:
    row = {"cost": "3", "name": "knight"}
    assert evaluate("max(cost, 5) + min(1, 2) + abs(-1)", row, "en") == 7
    assert evaluate("name | upper", row, "en") == "KNIGHT"
    assert evaluate("range(3) | sum", row, "en") == 3
    with pytest.raises(ExpressionError):
        evaluate("name['upper']()", row, "en")


def test_language_fields() -> None:
    row = {"name_en": "Knight", "name_ja": "騎士", "cost": "3"}
    assert evaluate("name", row, "ja") == "騎士" and evaluate("name", row, "en") == "Knight"
    assert evaluate("cost + 1", row, "en") == 4


def test_fields_read_by_expressions() -> None:
    """A row's own field wins even empty; a language's field stands in for a missing one; cells that
    read as numbers are numbers (a leading zero dropped; past 18 digits a float, as a spreadsheet)."""
    row = {"name": None, "name_ja": "騎士", "title_ja": "王", "title_en": "King", "n": "007", "big": "1" * 19}
    assert evaluate("name is none", row, "ja") is True
    assert evaluate("title", row, "ja") == "王" and evaluate("title", row, "fr") == "King"
    assert evaluate("n + 1", row, "en") == 8
    assert evaluate("big + 0", row, "en") == float("1" * 19)
    with pytest.raises(ExpressionError, match="'nope'"):
        evaluate("nope + 1", row, "en")


def test_text_filled_in_order() -> None:
    """Escaped braces, fields and expressions side by side, filled left to right: the first failing
    placeholder is the one said."""
    from pnpforge.components.template import MissingField, fill

    row = {"name_en": "Knight", "name_ja": "騎士", "cost": "3"}
    assert fill("\\{{name}\\} pays {{ cost * 2 }}{{ cost }}\\}!", row, "ja") == "{騎士} pays 63}!"
    assert fill("{name}{name} {{ cost }}", row, "en") == "KnightKnight 3"
    with pytest.raises(ExpressionError):
        fill("{{ nope + 1 }} {missing}", row, "en")
    with pytest.raises(MissingField):
        fill("{missing} {{ nope + 1 }}", row, "en")


def test_schema_knows_every_new_key(runner: CliRunner) -> None:
    import json

    result = runner.invoke(main, ["schema"])
    assert result.exit_code == 0
    schema = json.loads(result.output)
    defs = schema["$defs"]
    assert {"styles", "icons"} <= set(schema["properties"])
    assert {"where", "sheet", "face_by", "back_by", "count"} <= set(defs["Component"]["properties"])
    assert {"string", "integer"} <= {t.get("type") for t in defs["Component"]["properties"]["count"]["anyOf"]}
    assert {"field", "faces", "default"} <= set(defs["SideBy"]["properties"])
    for element in ("TextElement", "RectElement", "ImageElement", "HexMapElement"):
        assert {"when", "style"} <= set(defs[element]["properties"]), element


def test_where_keeping_nothing_is_said(make_spec: SpecMaker, runner: CliRunner, tmp_path: Path) -> None:
    code, output, _ = build(runner, deck(make_spec, where='where: "cost > 100"'), tmp_path / "out")
    assert code == 2 and "game.yaml:7:" in output and "leaves out all 3 rows" in output


def test_count_from_a_field(make_spec: SpecMaker, runner: CliRunner, tmp_path: Path) -> None:
    folder = make_spec(
        DECK.replace("WHEN", "true").replace("WHERE", "").replace("COUNT", 'count: "{cost}"'),
        cards__csv="name,type,cost\nStorm,event,3\nKnight,unit,1\n",
    )
    code, output, text = build(runner, folder, tmp_path / "out")
    assert code == 0, output
    assert text.count("Storm costs") == 3 and text.count("Knight costs") == 1


def test_diff_sees_a_field_only_an_expression_reads(make_spec: SpecMaker, runner: CliRunner) -> None:
    old = deck(make_spec)
    new = make_spec(
        DECK.replace("WHEN", "type == 'event'").replace("WHERE", "").replace("COUNT", ""),
        folder="new",
        cards__csv=CARDS.replace("Storm,event", "Storm,unit"),
    )
    result = runner.invoke(main, ["diff", str(old), str(new)])
    assert result.exit_code == 1, result.output
    assert "Storm" in result.output and "1 changed" in result.output
