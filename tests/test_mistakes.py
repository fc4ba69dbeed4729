"""Designer mistakes (issue "never silently wrong"): each is said at its file and line, through the real CLI.

A small deck like a new designer's (a CSV with two card types, a back, texts that wrap) is built clean
first; then one mistake at a time is made in it and the exact located line asserted. Errors exit 2 and
write nothing; warnings exit 0, write the PDF and print one located line each; --strict makes them errors.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from conftest import SpecMaker, render_page
from pypdf import PdfReader

from pnpforge import catalog
from pnpforge.cli import main

SPEC = """\
game: {id: deck, title: Deck}
components:
  - name: cards
    kind: card
    size: poker
    csv: cards.csv
    face:
      background: "{colour}"
      elements:
        - {type: text, text: "{title}", x: 4mm, y: 4mm, w: 55mm, h: 12mm, size: 14pt}
        - {type: text, text: "{text}", x: 6mm, y: 50mm, w: 51mm, h: 32mm, size: 10pt, fit: wrap}
    back:
      background: "#2b2233"
      elements:
        - {type: text, text: Deck, size: 16pt, colour: white}
"""
CSV = """\
id,title,type,colour,count,text
fire,Fire,action,red,3,Deal 2 damage.
water,Water,action,blue,2,Heal 1.
storm,Storm,event,grey,1,Every player discards a card.
"""


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


def build(runner: CliRunner, folder: Path, *args: str) -> Result:
    return runner.invoke(main, ["build", str(folder), "-o", str(folder / "out"), *args])


def errors(result: Result) -> list[str]:
    return [line for line in result.stderr.splitlines() if line.startswith("error: ")]


def warnings(result: Result) -> list[str]:
    return [line for line in result.stderr.splitlines() if ": warning: " in line]


def deck(make_spec: SpecMaker, spec: str = SPEC, csv: str | bytes = CSV) -> Path:
    return make_spec(spec, cards__csv=csv)


def test_the_clean_deck_builds_without_a_word(make_spec: SpecMaker, runner: CliRunner) -> None:
    folder = deck(make_spec)
    result = build(runner, folder, "--strict")
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    assert len(PdfReader(folder / "out" / "deck.pdf").pages) > 1


def test_a_colour_hidden_by_a_yaml_comment(make_spec: SpecMaker, runner: CliRunner) -> None:
    folder = deck(make_spec, SPEC.replace('background: "#2b2233"', "background: #2b2233"))
    result = build(runner, folder)
    assert result.exit_code == 2
    assert errors(result) == [
        f"error: {folder / 'game.yaml'}:13:7: background is empty: a `#` starts a comment in YAML; "
        'write it quoted: background: "#2b2233"'
    ]
    assert not (folder / "out").exists()


def test_a_comment_after_a_key_with_a_value_below_is_no_mistake(
    make_spec: SpecMaker, runner: CliRunner
) -> None:
    folder = deck(make_spec, SPEC.replace("    back:\n", "    back: #the same for every card\n"))
    assert build(runner, folder).exit_code == 0


@pytest.mark.parametrize(
    ("csv", "expected"),
    [
        (
            CSV.replace("water,Water,action,blue,2,Heal 1.", "water,Water,action,blue"),
            "cards.csv:3:1: row has 4 cells, fewer than the header's 6 columns "
            "(expected 6: id, title, type, colour, count, text)",
        ),
        (
            CSV.replace("Heal 1.", "Heal 1, then draw."),
            "cards.csv:3:1: row has 7 cells, more than the header's 6 columns "
            "(expected 6: id, title, type, colour, count, text; a comma inside a cell needs the cell quoted)",
        ),
        (
            CSV.replace("id,title,type,colour,count,text", "id,title,count,colour,count,text"),
            "cards.csv:1:1: column 'count' appears twice in the header (columns 3 and 5; "
            "expected each column name once)",
        ),
        (
            CSV.replace("storm,Storm", "fire,Storm"),
            "cards.csv:4:1: id=fire repeats the row at cards.csv:2 (expected each id once)",
        ),
        (
            CSV.replace("Heal 1.", '"Heal 1.'),
            "cards.csv:3:27: a quote opens a cell and is never closed "
            '(expected a closing " before the cell ends)',
        ),
    ],
    ids=["short row", "long row", "duplicate header", "duplicate id", "unclosed quote"],
)
def test_csv_mistakes_are_located(make_spec: SpecMaker, runner: CliRunner, csv: str, expected: str) -> None:
    folder = deck(make_spec, csv=csv)
    result = build(runner, folder)
    assert result.exit_code == 2
    assert errors(result) == [f"error: {folder / expected}"]


def test_csv_lines_are_the_files_own_after_a_cell_on_two_lines(
    make_spec: SpecMaker, runner: CliRunner
) -> None:
    csv = CSV.replace("Heal 1.", '"Heal 1,\nthen draw."').replace("grey", "gray-ish")
    folder = deck(make_spec, csv=csv)
    result = build(runner, folder)
    assert result.exit_code == 2
    assert errors(result)[0].startswith(
        f"error: {folder / 'cards.csv'}:5:1: cards face: 'gray-ish' is not a colour"
    )


@pytest.mark.parametrize("separator", [";", "\t"], ids=["semicolon", "tab"])
def test_a_spreadsheets_separator_is_read_right(
    make_spec: SpecMaker, runner: CliRunner, separator: str
) -> None:
    folder = deck(make_spec, csv=CSV.replace(",", separator))
    result = build(runner, folder, "--strict")
    assert result.exit_code == 0, result.output
    listed = runner.invoke(main, ["inventory", str(folder), "--json"])
    assert '"count": 6' in listed.output  # 3 + 2 + 1 cards: every column where it belongs


def test_a_missing_field_is_one_error_at_its_template(make_spec: SpecMaker, runner: CliRunner) -> None:
    folder = deck(make_spec, SPEC.replace('text: "{title}"', 'text: "{titel}"'))
    result = build(runner, folder)
    assert result.exit_code == 2
    assert errors(result) == [
        f"error: {folder / 'game.yaml'}:10:30: {{titel}}: no data row has a field 'titel' (none of 3 rows; "
        "did you mean title? fields: colour, count, id, text, title, type, version)"
    ]


def test_a_when_that_is_no_field_reference(make_spec: SpecMaker, runner: CliRunner) -> None:
    spec = SPEC.replace("fit: wrap}", 'fit: wrap, when: "{type} == event"}')
    result = build(runner, deck(make_spec, spec))
    assert result.exit_code == 2
    assert len(errors(result)) == 1
    assert errors(result)[0].endswith(
        "game.yaml:11:104: when: '{type} == event' mixes a {field} with other text, so it always holds "
        '(expected one field, when: "{bonus}", or an expression without braces, when: "type == \'event\'")'
    )


def test_a_repeated_component_name_is_said_at_its_line(make_spec: SpecMaker, runner: CliRunner) -> None:
    spec = SPEC + "  - {name: cards, kind: token, size: 20mm}\n"
    result = build(runner, deck(make_spec, spec))
    assert result.exit_code == 2
    assert [e.split("game.yaml", 1)[1] for e in errors(result)] == [
        ":16:12: component name 'cards' is used twice (first at line 3; expected each name once)"
    ]


@pytest.mark.parametrize(
    ("old", "new", "hint"),
    [
        ("background: \"{colour}\"", "background: golden", "did you mean goldenrod, gold, palegoldenrod?"),
        ("size: poker", "size: pokr", "did you mean poker?"),
        ("size: 14pt}", "size: 14pt, font: sans-bol}", "did you mean sans-bold"),
        ("kind: card", "kind: crad", "did you mean card?"),
        ("kind: card", "kind: card\n    shape: rectangle", "did you mean rect?"),
        ("{type: text, text: Deck, size: 16pt, colour: white}", "{type: icon, name: stra}",
         "did you mean star"),
    ],
    ids=["colour", "size", "font", "kind", "shape", "icon"],
)  # fmt: skip
def test_did_you_mean(make_spec: SpecMaker, runner: CliRunner, old: str, new: str, hint: str) -> None:
    result = build(runner, deck(make_spec, SPEC.replace(old, new, 1)))
    assert result.exit_code == 2
    assert any(hint in line for line in errors(result)), result.stderr


def test_did_you_mean_a_component(make_spec: SpecMaker, runner: CliRunner) -> None:
    result = build(runner, deck(make_spec), "--only", "crads")
    assert errors(result) == [
        "error: <command line>: --only crads: no such component (did you mean cards? expected one of: cards)"
    ]


def test_one_message_for_many_rows_is_said_once(make_spec: SpecMaker, runner: CliRunner) -> None:
    rows = "".join(f"c{n},Card {n},action,golden,1,Text.\n" for n in range(35))
    folder = deck(make_spec, csv="id,title,type,colour,count,text\n" + rows)
    result = build(runner, folder)
    assert result.exit_code == 2
    assert errors(result) == [
        f"error: {folder / 'cards.csv'}:2:1: cards face: 'golden' is not a colour (did you mean goldenrod, "
        "gold, palegoldenrod? expected a name like 'red', '#rgb', '#rrggbb' or 'none') "
        "(and 34 more rows: cards.csv:3–36)"
    ]


LONG = "Every player discards a card, then draws two cards, then discards one more card of their choice."


@pytest.mark.parametrize(
    ("fit", "height", "expected"),
    [
        ("wrap", 8, "2 lines (8.0 mm) run below its box"),
        ("none", 8, "runs 99.4 mm past its box"),
        ("shrink", 4, "1 line (0.5 mm) run below its box even at the 6 pt floor"),
    ],
)
def test_text_that_does_not_fit_is_a_warning_at_its_row(
    make_spec: SpecMaker, runner: CliRunner, fit: str, height: int, expected: str
) -> None:
    expected = (
        f"cards face 'Storm' element 2: text 'Every player discards a…' does not fit: {expected} "
        "(expected a larger box, less text or min_size)"
    )
    spec = SPEC.replace("h: 32mm, size: 10pt, fit: wrap", f"h: {height}mm, size: 10pt, fit: {fit}")
    folder = deck(make_spec, spec, CSV.replace("Every player discards a card.", f'"{LONG}"'))
    result = build(runner, folder)
    assert result.exit_code == 0, result.output
    assert warnings(result) == [f"{folder / 'cards.csv'}:4:1: warning: {expected}"]
    assert (folder / "out" / "deck.pdf").is_file()
    pdf = (folder / "out" / "deck.pdf").read_bytes()
    strict = build(runner, folder, "--strict", "-o", str(folder / "strict"))
    assert strict.exit_code == 2
    assert errors(strict) == [
        f"error: {folder / 'cards.csv'}:4:1: {expected} (--strict: warnings are errors)"
    ]
    assert not (folder / "strict").exists() and (folder / "out" / "deck.pdf").read_bytes() == pdf


def test_min_size_lets_a_text_shrink_further(make_spec: SpecMaker, runner: CliRunner) -> None:
    spec = SPEC.replace("h: 32mm, size: 10pt, fit: wrap", "h: 8mm, size: 10pt, min_size: 3pt")
    result = build(
        runner, deck(make_spec, spec, CSV.replace("Every player discards a card.", f'"{LONG}"')), "--strict"
    )
    assert result.exit_code == 0, result.output


def ink_rows(image, box: tuple[int, int, int, int]) -> list[int]:  # type: ignore[no-untyped-def]
    """The rows of `box` (left, top, right, bottom; pixels) holding dark ink."""
    left, top, right, bottom = box
    gray = image.convert("L")
    return [y for y in range(top, bottom) if any(gray.getpixel((x, y)) < 100 for x in range(left, right))]


def test_a_word_too_wide_for_its_box_is_shrunk_not_broken(make_spec: SpecMaker, runner: CliRunner) -> None:
    """`fit: wrap` at 14 pt would set "Aphrodite" as "Aphrod" / "ite" in a 16 mm box; it is set on one line,
    smaller: the page shows one band of ink where the box is, not two."""
    spec = """\
        game: {id: word, title: Word}
        components:
          - name: discs
            kind: token
            size: 30mm
            count: 1
            face:
              background: white
              elements:
                - {type: text, text: Aphrodite, x: 7mm, y: 5mm, w: 16mm, h: 20mm, size: 14pt, fit: wrap}
    """
    folder = make_spec(spec)
    result = build(runner, folder, "--margin", "0")
    assert result.exit_code == 0, result.output
    import pypdfium2 as pdfium

    pdf = folder / "out" / "word.pdf"
    page = pdfium.PdfDocument(str(pdf))[1]
    text = page.get_textpage()
    letters = [k for k in range(text.count_chars()) if text.get_text_range(k, 1).isalpha()][:9]
    boxes = [text.get_charbox(k) for k in letters]  # the name's letters, on however many lines
    centre_x = (min(b[0] for b in boxes) + max(b[2] for b in boxes)) / 2  # points, y up
    centre_y = (min(b[1] for b in boxes) + max(b[3] for b in boxes)) / 2
    dpi = 200
    image = render_page(pdf, 1, dpi)
    px = dpi / 72
    mm = 72 / 25.4 * px
    cx, cy = centre_x * px, image.height - centre_y * px
    rows = ink_rows(
        image, (int(cx - 8 * mm), int(cy - 10 * mm), int(cx + 8 * mm), int(cy + 10 * mm))
    )  # the box
    bands = 1 + sum(1 for a, b in zip(rows, rows[1:], strict=False) if b - a > 2) if rows else 0
    assert bands == 1, rows
    assert text.get_text_range().startswith("Aphrodite\r\n")  # one line (the sheet's label follows)
    assert result.stderr == ""  # kept whole, and so no warning


def test_a_katakana_name_is_never_split(make_spec: SpecMaker, runner: CliRunner) -> None:
    from pnpforge.fonts import FontRegistry
    from pnpforge.layouts.text import layout_text

    fonts = FontRegistry()
    if fonts.cjk is None:
        pytest.skip("no Japanese font on this machine")
    font = fonts.resolve("sans-bold")
    name = layout_text("アフロディーテ", 0, 0, 30, 20, fonts=fonts, font=font, size=9, fit="wrap", min_size=4)
    assert [line.text for line in name.lines] == ["アフロディーテ"] and name.fits
    # a katakana word longer than 8 characters breaks only when no size keeps it whole
    tie = layout_text(
        "同点ならタイブレークトークン", 0, 0, 100, 40, fonts=fonts, font=font, size=9, fit="wrap"
    )
    assert [line.text for line in tie.lines] == ["同点なら", "タイブレークトークン"]


@pytest.fixture(scope="module")
def bundled_builds(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, str, str], Result]:
    """Every bundled game built with --strict on A4 and Letter, in English and Japanese (once per module)."""
    runner = CliRunner()
    out = tmp_path_factory.mktemp("bundled")
    results = {}
    for game in catalog.games():
        for page in ("a4", "letter"):
            for lang in ("en", "ja"):
                folder = out / f"{game.id}-{page}-{lang}"
                args = ["build", game.id, "-o", str(folder), "--page", page, "--lang", lang, "--strict"]
                results[(game.id, page, lang)] = runner.invoke(main, args)
    return results


def test_every_bundled_game_builds_strict(bundled_builds: dict[tuple[str, str, str], Result]) -> None:
    assert len(bundled_builds) >= 20
    failed = {key: r.stderr for key, r in bundled_builds.items() if r.exit_code != 0 or r.stderr}
    assert failed == {}
