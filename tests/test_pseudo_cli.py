"""The designer's terminal in the pseudo-locale and in Japanese: every error and warning of the print path
goes through the catalogs (issue "Message catalogs").

The real CLI builds a small deck with one mistake at a time under PNPFORGE_LANG=xx (every catalog message
«wrapped and àççéñtéd»). Once the data put in is taken out (the folder, the values written in the spec,
numbers, option names), no English word may be left: neither outside a «…» span (`untranslated`) nor
inside one (a word with an unaccented vowel is English that a message carried in as a plain value).
"""

from __future__ import annotations

import re
from pathlib import Path

import click
import pytest
from click.testing import CliRunner, Result
from conftest import SpecMaker, untranslated
from test_mistakes import CSV, SPEC

from pnpforge import __version__
from pnpforge.cli import main

SIDE = ("cards", "face", "back", "text")  # a piece's component, side and element type, as the spec names them
FIELDS = ("colour", "count", "id", "text", "title", "type", "version")  # the deck's fields, listed by a hint
_DATA = (
    r"'[^'\n]*'",  # a value as the spec wrote it (repr)
    r"\"[^\"\n]*\"",
    r"--[a-z][a-z-]*",  # option names stay as they are
    r"\{\{[^}]*\}\}",  # an expression as written
    r"\{[a-z_]+\}",  # a field placeholder as written
    r"[\w.-]+\.(?:yaml|csv|xlsx|ttf|png)\b",
    r"U\+[0-9A-F]{4}",
    r"\d+(?:\.\d+)?",
)


def leaked(text: str, *data: str) -> list[str]:
    """English left in `text` once `data` (and the values every message quotes) are taken out."""
    paths = [item for item in data if "/" in item]  # the folder first, then the values it holds
    for item in [*paths, *_DATA, *sorted(set(data) - set(paths), key=len, reverse=True)]:
        text = re.sub(item, " ", text) if item in _DATA else text.replace(item, " ")
    outside = untranslated(text)
    inside = [
        w for w in re.findall(r"[A-Za-z\u00c0-\u00ff'’-]+", text) if re.search(r"[aceinouyACEINOUY]", w)
    ]
    return outside + inside


def run(folder: Path, *args: str, lang: str = "xx") -> Result:
    runner = CliRunner(env={"PNPFORGE_LANG": lang})
    return runner.invoke(main, ["build", str(folder), "-o", str(folder / "out"), *args])


MISTAKES = {  # name -> (spec, csv, extra arguments, the data the message quotes)
    "bad unit": (SPEC.replace("size: poker", "size: 63x88cmm"), CSV, (), ("cards",)),
    "unknown key": (
        SPEC.replace("size: 14pt}", "size: 14pt, colr: red}"),
        CSV,
        (),
        ("colr", "red", "colour"),
    ),
    "missing field": (SPEC.replace('text: "{title}"', 'text: "{titel}"'), CSV, (), ("titel", *FIELDS)),
    "bad expression": (
        SPEC.replace("fit: wrap}", 'fit: wrap, when: "{{ type == }}"}'),
        CSV,
        (),
        ("type", "when"),  # the key the expression is written at
    ),
    "a when that is no field reference": (
        SPEC.replace("fit: wrap}", 'fit: wrap, when: "{type} == event"}'),
        CSV,
        (),
        ("when", "type", "event", "bonus", "=="),
    ),
    "pydantic's own wording": (
        SPEC.replace(
            "game: {id: deck, title: Deck}",
            "game: {id: deck, title: Deck, players: [1, x]}\ndefaults: {duplex: sideways}",
        ).replace("kind: card", "kind: cardd"),
        CSV,
        (),
        (
            "sideways",
            "long",
            "short",
            "fold",
            "none",
            "cardd",
            "card",
            "tile",
            "token",
            "die",
            "board",
            "sheet",
        ),
    ),
    "unknown colour": (SPEC.replace("#2b2233", "gren"), CSV, (), ("seagreen", "green", "grey", "gren")),
    "bad count": (SPEC, CSV.replace("red,3,", "red,lots,"), (), ("lots",)),
    "too large count": (SPEC, CSV.replace("red,3,", "red,99999999,"), (), ()),
    "too many pieces": (SPEC.replace("size: poker", "size: poker\n    count: 9999"), CSV, (), ("cards",)),
    "two components of one name": (
        SPEC + SPEC.split("components:\n", 1)[1].replace("csv: cards.csv", "rows: [{title: A, text: B}]"),
        CSV,
        (),
        ("cards",),
    ),
    "bad page": (SPEC, CSV, ("--page", "a9000"), ("a9000",)),
    "bad sheets": (SPEC, CSV, ("--sheets", "x-y"), ()),
    "unknown component": (SPEC, CSV, ("--only", "cardz"), ("cardz", "cards")),
    "bad bleed": (
        SPEC.replace(
            "game: {id: deck, title: Deck}", "game: {id: deck, title: Deck}\ndefaults: {bleed: 90mm}"
        ),
        CSV,
        (),
        ("cards",),
    ),
    "not a spreadsheet": (SPEC.replace("cards.csv", "cards.xlsx"), CSV, (), ()),
    "bad length": (SPEC.replace("x: 4mm", "x: 4 furlongs"), CSV, (), ("furlongs",)),
    "bad icon": (
        SPEC.replace("text: Deck,", "text: 'Deck :skul:',"),
        CSV,
        (),
        ("skul", "skull", "Deck", *SIDE),
    ),
}


@pytest.mark.parametrize("mistake", list(MISTAKES))
def test_a_mistake_is_said_in_the_terminals_language(
    make_spec: SpecMaker, pseudo_locale: str, mistake: str
) -> None:
    spec, csv, args, data = MISTAKES[mistake]
    folder = make_spec(spec, cards__csv=csv) if "cards.xlsx" not in spec else make_spec(spec, cards__xlsx=csv)
    result = run(folder, *args, lang=pseudo_locale)
    assert result.exit_code == 2, result.output
    assert result.stderr.strip(), result.output
    assert "Traceback" not in result.output
    assert leaked(result.stderr, str(folder), *data) == [], result.stderr


def test_warnings_are_said_in_the_terminals_language(make_spec: SpecMaker, pseudo_locale: str) -> None:
    """A text that does not fit, a missing image drawn as a placeholder and a character no font has:
    warnings, the PDF written."""
    spec = SPEC.replace(
        "size: 16pt, colour: white}", "size: 16pt, colour: white}\n        - {type: image, src: art.png}"
    )
    csv = CSV.replace("Heal 1.", "Heal 1. " + "Then heal again. " * 30).replace("Storm,", "Storm 🎲,")
    folder = make_spec(spec, cards__csv=csv)
    result = run(folder, "--draft", lang=pseudo_locale)
    assert result.exit_code == 0, result.output
    assert (folder / "out" / "deck.pdf").is_file()
    lines = result.stderr.strip().splitlines()
    assert len(lines) >= 3, result.stderr  # the misfit, the placeholder and the glyph no font has
    assert "U+1F3B2" in result.stderr
    data = ("Heal", "Then heal again", "art.png", "Water", "Storm", "🎲", *SIDE)
    assert leaked(result.stderr, str(folder), *data) == [], result.stderr


def test_strict_says_warnings_as_errors_in_the_terminals_language(
    make_spec: SpecMaker, pseudo_locale: str
) -> None:
    folder = make_spec(SPEC, cards__csv=CSV.replace("Heal 1.", "Heal 1. " + "Then heal again. " * 30))
    result = run(folder, "--strict", lang=pseudo_locale)
    assert result.exit_code == 2
    assert not (folder / "out").exists()
    assert leaked(result.stderr, str(folder), "Heal", "Then heal again", "Water", *SIDE) == [], result.stderr


def test_english_stays_as_it_was(make_spec: SpecMaker) -> None:
    folder = make_spec(SPEC.replace('text: "{title}"', 'text: "{titel}"'), cards__csv=CSV)
    result = run(folder, lang="en")
    assert result.exit_code == 2
    assert result.stderr.startswith(f"error: {folder / 'game.yaml'}:")
    assert (
        "{titel}: no data row has a field 'titel' (none of 3 rows; did you mean title? fields:"
        in result.stderr
    )


@pytest.mark.parametrize(
    ("mistake", "said"),
    [
        (
            "missing field",
            "{titel}: フィールド 'titel' を持つデータ行がありません(3 行のどれにもありません。"
            "title のことですか? フィールド:",
        ),
        ("bad count", "count 'lots' は整数ではありません(正の整数が必要です)"),
        ("bad page", "ページ 'a9000' は用紙サイズではありません"),
        (
            "unknown key",
            "不明なキー「colr」(colour のことですか? 説明書にあるキーのみ)",
        ),  # quoted the Japanese way
    ],
)
def test_japanese_terminal(make_spec: SpecMaker, mistake: str, said: str) -> None:
    spec, csv, args, _ = MISTAKES[mistake]
    folder = make_spec(spec, cards__csv=csv)
    result = run(folder, *args, lang="ja")
    assert result.exit_code == 2
    first = result.stderr.splitlines()[0]
    assert first.startswith("エラー: "), result.stderr
    where = first.removeprefix("エラー: ")
    assert re.match(
        re.escape(str(folder)) + r"/(game\.yaml|cards\.csv):\d+:\d+: |<コマンドライン>: ", where
    ), first
    assert said in result.stderr, result.stderr


def test_japanese_warning_keeps_its_place(make_spec: SpecMaker) -> None:
    folder = make_spec(SPEC, cards__csv=CSV.replace("Heal 1.", "Heal 1. " + "Then heal again. " * 30))
    result = run(folder, lang="ja")
    assert result.exit_code == 0
    line = next(said for said in result.stderr.splitlines() if "警告" in said)
    assert re.match(
        re.escape(str(folder / "cards.csv")) + r":\d+:\d+: 警告: cards face 'Water' の要素 \d+: 文字列 ", line
    ), line
    assert "が収まりません" in line


COMMANDS = [[], *([name] for name in sorted(main.lazy))]  # type: ignore[attr-defined]
_HELP_DATA = (
    r"(?m)^\s*(?:printf .*\| )?pnpforge [^#\n]*",  # an example command line (its comment after # is said)
    r"\b[A-Z][A-Z_]*\b",  # metavars and placeholders: TARGET, DIR, FILE.pdf, X,Y
    r"\[[a-z|\s-]+\]",  # click's choices, [en|ja]
    r"[\w-]+(?:\|[\w-]+)+",  # choices as a metavar: pdf|png
    r"(?<![\w-])-[a-z]\b",  # short option names: -o, -i
    r"\{[a-z, ]+\}",  # JSON keys as the output writes them: {name, title, count}
    r"\b[a-z]+(?:-[a-z]+)*=[\w,|]+",  # a game option as written: short=true, gods=red,blue
)


@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: " ".join(a) or "pnpforge")
def test_help_is_said_in_the_terminals_language(pseudo_locale: str, args: list[str]) -> None:
    """`--help` of every command in xx: usage, help text, options, their defaults; names stay as written."""
    result = CliRunner(env={"PNPFORGE_LANG": pseudo_locale}).invoke(main, [*args, "--help"])
    assert result.exit_code == 0, result.output
    text = result.output
    for pattern in _HELP_DATA:
        text = re.sub(pattern, " ", text)
    words = ("main", "pnpforge", *main.lazy, "out", "en", "pdf", "rgb")  # type: ignore[attr-defined]  # names, defaults
    group = main.get_command(None, args[0]) if args else None  # type: ignore[arg-type]
    words += tuple(group.commands) if isinstance(group, click.Group) else ()  # a group's command names
    assert leaked(text, *words) == [], result.output


def test_japanese_help_keeps_names_and_command_lines() -> None:
    result = CliRunner(env={"PNPFORGE_LANG": "ja"}).invoke(main, ["build", "--help"])
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert lines[0] == "使い方: main build [OPTIONS] TARGET"
    assert "  TARGET(同梱ゲームの ID、仕様フォルダ、または game.yaml)の印刷用シートをビルドします。" in lines
    assert "    pnpforge build examples/tiny-quest -o out --page letter --lang ja" in lines  # as written
    assert any(
        line.startswith("  -o, --out DIRECTORY") and "出力フォルダ。  [既定: out]" in line for line in lines
    )
    assert "オプション:" in lines


def test_english_help_is_clicks_own() -> None:
    """English is never looked up: the usage line and the option table are click's, word for word."""
    result = CliRunner(env={"PNPFORGE_LANG": "en"}).invoke(main, ["build", "--help"])
    assert result.output.startswith(
        "Usage: main build [OPTIONS] TARGET\n\n  Build print-ready sheets for TARGET"
    )
    assert (
        "Options:\n  -o, --out DIRECTORY" in result.output
        and "Output folder.  [default: out]" in result.output
    )


def test_two_missing_fields_are_two_messages(make_spec: SpecMaker, pseudo_locale: str) -> None:
    spec = SPEC.replace('text: "{title}"', 'text: "{titel}"').replace('text: "{text}"', 'text: "{txet}"')
    folder = make_spec(spec, cards__csv=CSV)
    result = run(folder, lang=pseudo_locale)
    assert result.exit_code == 2
    assert "'titel'" in result.stderr and "'txet'" in result.stderr
    assert leaked(result.stderr, str(folder), "titel", "txet", *FIELDS) == [], result.stderr


USAGE_MISTAKES = {  # click's own complaints about the command line, and what they quote
    "unknown command": (["buld"], ("buld",)),
    "unknown option": (["--bogus"], ()),
    "missing argument": (["build"], ()),
    "not a number": (["build", "gods", "--dpi", "abc"], ("abc",)),
    "out of range": (["build", "gods", "--dpi", "5000"], ("x",)),
    "not a choice": (
        ["build", "gods", "--duplex", "sideways"],
        ("sideways", "long", "short", "fold", "none"),
    ),
    "extra arguments": (["build", "gods", "more", "things"], ("more", "things")),
    "no value": (["build", "gods", "--page"], ()),
}


@pytest.mark.parametrize("mistake", list(USAGE_MISTAKES))
def test_clicks_usage_errors_are_said_in_the_terminals_language(pseudo_locale: str, mistake: str) -> None:
    args, data = USAGE_MISTAKES[mistake]
    result = CliRunner(env={"PNPFORGE_LANG": pseudo_locale}).invoke(main, args)
    assert result.exit_code == 2, result.output
    text = result.stderr
    for pattern in _HELP_DATA:
        text = re.sub(pattern, " ", text)
    assert leaked(text, "main", *main.lazy, *data) == [], result.stderr  # type: ignore[attr-defined]


def test_clicks_usage_errors_in_english_and_japanese() -> None:
    english = CliRunner().invoke(main, ["build", "gods", "--duplex", "sideways"])
    assert english.stderr.splitlines()[-1] == (
        "Error: Invalid value for '--duplex': 'sideways' is not one of 'long', 'short', 'fold', 'none'."
    )
    japanese = CliRunner(env={"PNPFORGE_LANG": "ja"}).invoke(main, ["build", "gods", "--duplex", "sideways"])
    assert japanese.exit_code == 2
    assert japanese.stderr.splitlines()[-1] == (
        "エラー: '--duplex' の値が不正です: "
        "'sideways' は 'long', 'short', 'fold', 'none' のいずれでもありません。"
    )
    assert "ヘルプは 'main build --help' で表示できます。" in japanese.stderr


@pytest.mark.usefixtures("cmyk_profile")
def test_export_notes_are_said_in_the_terminals_language(make_spec: SpecMaker, pseudo_locale: str) -> None:
    folder = make_spec(SPEC, cards__csv=CSV)
    runner = CliRunner(env={"PNPFORGE_LANG": pseudo_locale})
    args = [
        "export",
        str(folder),
        "--to",
        "print-shop",
        "--shop",
        "makeplayingcards",
        "-o",
        str(folder / "shop"),
    ]
    result = runner.invoke(main, args)
    assert result.exit_code == 0, result.output
    assert "MakePlayingCards" in result.stderr  # the note on the card size the shop prints
    from pnpforge.export.pdfx import find_profile

    profile = find_profile(None, "PDF/X-4", "")  # the installed CMYK profile a note names: its own name
    values = (profile.file, profile.description) if profile.installed else ()
    assert leaked(result.stderr, str(folder), *values, "MakePlayingCards", "poker", "cards", "mm") == [], (
        result.stderr
    )


@pytest.mark.parametrize("lang", ["xx", "ja"])
def test_a_kept_build_says_its_warnings_in_the_terminals_language(
    make_spec: SpecMaker, pseudo_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lang: str
) -> None:
    """A warm build (compiled.py plays the kept pages back) says the same warnings, in the same language."""
    import pnpforge.build

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "user-cache"))
    monkeypatch.setenv("PNPFORGE_LOCALE_DIR", str(pseudo_dir))
    planned = []
    full_plan = pnpforge.build.plan
    monkeypatch.setattr(pnpforge.build, "plan", lambda *a, **k: planned.append(1) or full_plan(*a, **k))
    spec = SPEC.replace(
        "size: 16pt, colour: white}", "size: 16pt, colour: white}\n        - {type: image, src: art.png}"
    )
    csv = CSV.replace("Heal 1.", "Heal 1. " + "Then heal again. " * 30).replace("Storm,", "Storm 🎲,")
    folder = make_spec(spec, cards__csv=csv)
    said = [run(folder, "--draft", lang=lang).stderr for _ in range(2)]
    assert planned == [1]  # the second build was played back from what the first kept
    assert said[1] == said[0]
    if lang == "ja":
        assert said[0].count("警告") == 3 and "代わりの枠を描きます" in said[0]
    else:
        data = ("Heal", "Then heal again", "art.png", "Water", "Storm", "🎲", *SIDE)
        assert leaked(said[1], str(folder), *data) == [], said[1]


def test_version_line_in_english_japanese_and_the_pseudo_locale(pseudo_locale: str) -> None:
    assert CliRunner().invoke(main, ["--version"]).output == f"pnpforge, version {__version__}\n"
    japanese = CliRunner(env={"PNPFORGE_LANG": "ja"}).invoke(main, ["--version"])
    assert japanese.exit_code == 0 and japanese.output == f"pnpforge バージョン {__version__}\n"
    pseudo = CliRunner(env={"PNPFORGE_LANG": pseudo_locale}).invoke(main, ["--version"])
    assert pseudo.exit_code == 0 and leaked(pseudo.output, "pnpforge", __version__) == [], pseudo.output


def test_ctrl_c_is_said_in_the_terminals_language(
    pseudo_locale: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pnpforge.cli import print_cmds

    def interrupted(*_: object, **__: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(print_cmds, "_run_build", interrupted)
    english = CliRunner().invoke(main, ["build", "gods"])
    assert english.exit_code == 1 and english.stderr == "\nAborted!\n"
    japanese = CliRunner(env={"PNPFORGE_LANG": "ja"}).invoke(main, ["build", "gods"])
    assert japanese.exit_code == 1 and japanese.stderr == "\n中断しました。\n"
    pseudo = CliRunner(env={"PNPFORGE_LANG": pseudo_locale}).invoke(main, ["build", "gods"])
    assert pseudo.exit_code == 1 and pseudo.stderr.strip() and leaked(pseudo.stderr) == [], pseudo.stderr
