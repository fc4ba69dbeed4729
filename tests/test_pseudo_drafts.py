"""The draft-to-draft commands and the print commands in the pseudo-locale and in Japanese: `diff`'s lines,
the reprint's cover (`build --changed-since`), `new`, `inventory`, `games` and `watch` say our words
through the catalogs; the spec's names and values stay as the designer wrote them.

The real CLI runs under PNPFORGE_LANG=xx (the terminal) and `--lang xx` (the printed pages). Once the
data put in is taken out (folders, ids, titles, values, numbers), no English word may be left
(test_pseudo_cli.leaked: neither outside a «…» span nor inside one).
"""

from __future__ import annotations

import json
import os
import re
import types
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from conftest import SpecMaker, require_cjk
from pypdf import PdfReader
from test_drafts import SPEC
from test_pseudo_cli import leaked

from pnpforge.cli import main

OLD = {f"c{i:02d}": (f"Strike {i}", f"Gain {i % 5}", 1 + i % 2) for i in range(1, 41)}
NEW = {  # two texts changed, c02 gains copies, c03 loses one, c40 removed, c46 added twice
    **{key: row for key, row in OLD.items() if key != "c40"},
    "c07": ("Strike 7", "Gain 9", 2),
    "c19": ("Strike 19", "Gain 8", 2),
    "c02": ("Strike 2", "Gain 2", 3),
    "c03": ("Strike 3", "Gain 3", 1),
    "c46": ("Strike 46", "Gain 1", 2),
}
REPRINTED = "cards:c07,c19,c02,c46"  # the rows the reprint holds (c02: only its new copies)
DATA = ("cards", "Strike", "Gain", "text", "draft", "mm")  # the spec's names, field, version and unit


def left(text: str, *data: str) -> list[str]:
    """English left in `text` once the data is out (longest first, numbers and all, then the rows'
    ids such as c07), then as `leaked` takes out quoted values and numbers."""
    for item in sorted(data, key=len, reverse=True):
        text = text.replace(item, " ")
    return leaked(re.sub(r"\bc\d\d\b", " ", text))


def drafts(make_spec: SpecMaker) -> tuple[Path, Path]:
    def spec(rows: dict[str, tuple[str, str, int]], folder: str, version: str) -> Path:
        csv = "id,name,text,count\n" + "".join(f"{k},{n},{t},{c}\n" for k, (n, t, c) in rows.items())
        return make_spec(SPEC.replace("draft 31", version), folder, cards__csv=csv)

    return spec(OLD, "v31", "draft 31"), spec(NEW, "v32", "draft 32")


def cli(*args: str, lang: str = "xx") -> Result:
    return CliRunner(env={"PNPFORGE_LANG": lang}).invoke(main, list(args))


def test_diff_says_its_lines_in_the_terminals_language(make_spec: SpecMaker, pseudo_locale: str) -> None:
    old, new = drafts(make_spec)
    result = cli("diff", str(old), str(new))
    assert result.exit_code == 1, result.output
    lines = result.stdout.splitlines()
    assert len(lines) == 7  # c07, c19 changed; c02, c03 copies; c46 added; c40 removed; the summary
    assert 'cards c07 (Strike 7): text "Gain 2" → "Gain 9"' in lines  # no word of ours: as written
    assert left(result.stdout, str(old), str(new), *DATA) == [], result.stdout
    bad = cli("diff", str(old))
    assert bad.exit_code == 2
    assert left(bad.stderr, str(old), "diff", "OLD", "NEW", "REV") == [], bad.stderr


def test_diff_json_stays_english(make_spec: SpecMaker, pseudo_locale: str) -> None:
    old, new = drafts(make_spec)
    found = json.loads(cli("diff", str(old), str(new), "--json").stdout)
    assert (found["changed"], found["added"], found["removed"], found["copies"]) == (2, 1, 1, 2)
    assert {c["change"] for c in found["changes"]} == {"changed", "added", "removed", "copies"}


def _numbered(line: str) -> str:
    return re.sub(r"\d+", "#", line)  # a count of pieces or sheets is not a word


def test_reprint_cover_and_lines_in_the_pseudo_locale(
    make_spec: SpecMaker, pseudo_locale: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pnpforge.drafts import reprint

    monkeypatch.setattr(reprint, "NAMED", 3)  # so the cover counts the rest ("… and 1 more")
    old, new = drafts(make_spec)
    out = tmp_path / "out"
    result = cli("build", str(new), "--changed-since", str(old), "-o", str(out), "--lang", "xx")
    assert result.exit_code == 0, result.output
    assert left(result.stderr, str(old), str(new), *DATA) == [], result.stderr  # the changes, one a line
    # the same pieces built whole: its cover holds every line of the cover that is not the reprint's
    same = cli("build", str(new), "--only", REPRINTED, "-o", str(tmp_path / "same"), "--lang", "xx")
    assert same.exit_code == 0, same.output
    whole = {_numbered(line) for line in _first_page(tmp_path / "same" / "strike.pdf").splitlines()}
    cover = _first_page(out / "strike-reprint.pdf")
    said = "\n".join(line for line in cover.splitlines() if _numbered(line) not in whole)
    # the heading, then what the reprint holds (c19), what to throw away (c03), what to keep
    assert said.startswith("Strike · ") and "c19" in said and "c03" in said, cover
    assert left(said, str(old), *DATA) == [], said


def _first_page(pdf: Path) -> str:
    return PdfReader(pdf).pages[0].extract_text()


def test_nothing_to_reprint_in_the_pseudo_locale(make_spec: SpecMaker, pseudo_locale: str) -> None:
    old, _ = drafts(make_spec)
    result = cli("build", str(old), "--changed-since", str(old), "-o", str(old / "out"))
    assert result.exit_code == 0 and result.stdout == ""
    assert left(result.stderr, str(old)) == [], result.stderr
    both = cli("build", str(old), "--changed-since", str(old), "--rev", "v1")
    assert both.exit_code == 2
    assert left(both.stderr, str(old), "--changed-since", "--rev") == [], both.stderr


def test_new_and_inventory_in_the_pseudo_locale(tmp_path: Path, pseudo_locale: str) -> None:
    folder = tmp_path / "my-game"
    made = cli("new", str(folder))
    assert made.exit_code == 0, made.output
    assert f"pnpforge build {folder}" in made.stdout  # the command line as the user types it
    assert left(made.stdout, str(folder), "pnpforge build") == [], made.stdout
    again = cli("new", str(folder))
    assert again.exit_code == 2
    assert left(again.stderr, str(folder)) == [], again.stderr
    listed = cli("inventory", str(folder), "--lang", "xx")
    assert listed.exit_code == 0, listed.output
    _, *rows = listed.stdout.splitlines()  # the heading, then a row per component
    assert len(rows) == 2 and rows[0].startswith("cards ") and "63 × 88 mm" in rows[0]
    data = ("cards", "markers", "card", "token", "rect", "circle", "mm")
    assert left(listed.stdout, *data) == [], listed.stdout


def test_games_players_in_the_pseudo_locale(pseudo_locale: str) -> None:
    result = cli("games")
    assert result.exit_code == 0
    games = json.loads(cli("games", "--json").stdout)  # what each game's own header says (and where)
    assert [line.split()[0] for line in result.stdout.splitlines()] == [game["id"] for game in games]
    data = [text for game in games for text in (game["id"], game["title"]["en"], game["path"])]
    assert left(result.stdout, *data) == [], result.stdout


def test_games_in_japanese_show_the_japanese_titles_in_columns() -> None:
    from unicodedata import east_asian_width

    listed = CliRunner(env={"PNPFORGE_LANG": "ja"}).invoke(main, ["games"])
    assert listed.exit_code == 0, listed.output
    lines = {line.split()[0]: line for line in listed.stdout.splitlines()}
    assert "ゴッド" in lines["gods"] and lines["gods"].endswith("2〜4人用")

    def width(text: str) -> int:
        return sum(2 if east_asian_width(ch) in "WF" else 1 for ch in text)

    # the players column starts at one terminal column on every line (a wide character takes two)
    players = [re.search(r"\d+(〜\d+)?人用", line) for line in lines.values()]
    starts = {
        width(line[: found.start()]) for line, found in zip(lines.values(), players, strict=True) if found
    }
    assert len(starts) == 1, listed.stdout


def test_watch_says_it_rebuilds_in_the_pseudo_locale(
    make_spec: SpecMaker, pseudo_locale: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pnpforge.cli import print_cmds

    old, _ = drafts(make_spec)

    def edit(_: float) -> None:  # the designer saves a file while watch waits (a second later)
        saved = old / "cards.csv"
        saved.write_text(saved.read_text() + "c41,Strike 41,Gain 1,1\n")
        later = saved.stat().st_mtime_ns + 10**9
        os.utime(saved, ns=(later, later))

    monkeypatch.setattr(print_cmds, "time", types.SimpleNamespace(sleep=edit))
    result = cli("watch", str(old), "-o", str(old.parent / "out"), "--max-builds", "2")
    assert result.exit_code == 0, result.output
    assert result.stdout.count("strike.pdf") == 2
    assert result.stderr.strip(), result.output
    assert left(result.stderr) == [], result.stderr


@pytest.mark.parametrize("command", ["build", "watch", "preview", "inventory", "diff", "export"])
def test_every_lang_option_offers_the_catalogs(pseudo_locale: str, command: str) -> None:
    shown = cli(command, "--help").stdout
    assert re.search(r"--lang \[en\|ja\|xx\]", shown), shown


def test_cut_file_title_in_the_builds_language(make_spec: SpecMaker, pseudo_locale: str) -> None:
    _, new = drafts(make_spec)
    out = new / "cut"
    result = cli("export", str(new), "--to", "cutfile", "-o", str(out), "--lang", "xx")
    assert result.exit_code == 0, result.output
    title = PdfReader(out / "strike-print.pdf").metadata.title
    assert left(title, "Strike") == [] and "Strike" in title, title


def test_reprint_and_diff_in_japanese(make_spec: SpecMaker, tmp_path: Path) -> None:
    require_cjk()
    old, new = drafts(make_spec)
    lines = cli("diff", str(old), str(new), lang="ja").stdout.splitlines()
    assert "cards c46 (Strike 46): 追加(2 枚)" in lines
    assert "cards c03 (Strike 3): 2 → 1 枚" in lines
    assert lines[-1].endswith(": 変更 2、追加 1、削除 1、枚数の変更 2(40 → 40 行)"), lines[-1]
    result = cli(
        "build", str(new), "--changed-since", str(old), "-o", str(tmp_path), "--lang", "ja", lang="ja"
    )
    assert result.exit_code == 0, result.output
    cover = re.sub(r"\s", "", _first_page(tmp_path / "strike-reprint.pdf"))  # a long folder wraps anywhere

    def said(text: str) -> bool:
        return re.sub(r"\s", "", text) in cover

    assert cover.startswith("ストライク·差し替え印刷")
    assert said(f"差し替え印刷:draft 31 ({old})から追加・変更された駒だけ(draft 32)(裏面つき)。")
    assert said("この印刷に含まれる駒(8個):cards c02 Strike 2 (2枚追加)、c07 Strike 7 ×2 (変更)")
    assert said("c46 Strike 46 ×2 (新規)。")
    assert said("cards c03 Strike 3 (1枚減)") and said("c40 Strike 40 (削除)。")
    assert said(f"draft 31 ({old})の印刷のほかの駒はそのまま使えます。")
