"""The message catalogs: every language complete, compiled copies current, the lookups' rules.

`make catalogs` (tools/catalogs.py update) keeps locale/*.po in step with the messages marked in the
code; these tests fail while a message lacks its translation or a compiled catalog is stale.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import SpecMaker

from pnpforge import i18n
from pnpforge.phrase import Phrase

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tools"))
import catalogs  # noqa: E402

LANGUAGES = sorted(catalogs.LOCALE.glob("*.po"))


@pytest.fixture(scope="module")
def template() -> catalogs.Catalog:
    return catalogs.extract()


@pytest.mark.parametrize("po", LANGUAGES, ids=lambda p: p.stem)
def test_every_message_is_translated(po: Path, template: catalogs.Catalog) -> None:
    untranslated, left_over = catalogs.missing(catalogs.read(po), template)
    assert not untranslated, f"{po.name} lacks {len(untranslated)} (run `make catalogs`): {untranslated[:10]}"
    assert not left_over, (
        f"{po.name} holds ids the code no longer says (run `make catalogs`): {left_over[:10]}"
    )


def test_japanese_is_a_language() -> None:
    assert (catalogs.LOCALE / "ja.po") in LANGUAGES and "ja" in i18n.languages()


@pytest.mark.parametrize("po", LANGUAGES, ids=lambda p: p.stem)
def test_compiled_catalog_is_current(po: Path) -> None:
    """The .mo pnpforge reads says what the .po says (make compiles it; a stale one would mislead)."""
    import gettext

    mo = po.with_suffix(".mo")
    assert mo.is_file(), f"{mo.name} is not compiled (make compiles it)"
    with mo.open("rb") as file:
        compiled = gettext.GNUTranslations(file)
    for message in catalogs.read(po):
        if message.id and message.string and not message.fuzzy:
            said = compiled.pgettext(message.context, message.id) if message.context else None
            said = said if message.context else compiled.gettext(message.id)
            assert said == message.string, f"{mo.name} is older than {po.name}: {message.id!r}"


def test_placeholders_survive_translation(template: catalogs.Catalog) -> None:
    """A translation names exactly the placeholders its English does (else filling it in fails)."""
    for po in LANGUAGES:
        for message in catalogs.read(po):
            if message.id and message.string:
                english = set(catalogs._PLACEHOLDER.findall(str(message.id)))
                said = set(catalogs._PLACEHOLDER.findall(str(message.string)))
                assert said == english, f"{po.name}: {message.id!r} -> {message.string!r}"


def test_pseudo_locale_wraps_and_keeps_placeholders() -> None:
    assert catalogs.pseudo_text("{count} tiles on {cell}") == "«{count} tîlés öñ {cell}»"
    assert catalogs.pseudo_text(", ") == ", "


def test_english_is_the_text_as_written(pseudo_locale: str) -> None:
    phrase = Phrase("{count} tiles on cell {cell}", count=3, cell="A1")
    assert i18n.translator("en")(phrase) == "3 tiles on cell A1"
    assert "xx" in i18n.languages() and i18n.languages()[0] == "en"


def test_a_phrase_is_said_with_its_values_said_too(pseudo_locale: str) -> None:
    list_joined = Phrase("{names}", names=[Phrase.word("x1"), "Ann"])  # not a message: stays as written
    assert i18n.translator("xx")(list_joined) == "x1, Ann"
    assert i18n.translator("ja")(Phrase("{names}", names=["A", "B"])) == "A、B"


def test_unknown_language_is_refused() -> None:
    with pytest.raises(ValueError, match="no catalog for language 'zz'"):
        i18n.translator("zz")


def test_terminal_language_follows_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PNPFORGE_LANG", "ja")
    assert i18n.terminal_language() == "ja"
    monkeypatch.setenv("PNPFORGE_LANG", "zz")
    assert i18n.terminal_language() == "en"


SPEC_JA = """\
game: {id: words, title: {en: Words, ja: ことば}}
defaults: {lang: ja}
components:
  - name: deck
    kind: card
    size: poker
    rows: [{name: {en: Storm, ja: 嵐}}]
    face:
      elements:
        - {type: text, text: "{name}", x: 3mm, y: 3mm, w: 57mm, h: 10mm}
"""


def _pdf_text(path: Path) -> str:
    from pypdf import PdfReader

    return "\n".join(page.extract_text() for page in PdfReader(path).pages)


def test_a_po_without_its_mo_is_read(
    monkeypatch: pytest.MonkeyPatch, make_spec: SpecMaker, runner: CliRunner, tmp_path: Path
) -> None:
    """An editable install has the .po and no .mo (no build step compiled it): Japanese all the same,
    for `--lang ja`, for `defaults.lang: ja` and for pnpforge's own words on the page."""
    from pnpforge.cli import main

    folder = tmp_path / "locale"
    folder.mkdir()
    (folder / "ja.po").write_bytes((catalogs.LOCALE / "ja.po").read_bytes())
    monkeypatch.setattr(i18n, "LOCALE", folder)
    assert i18n.languages() == ("en", "ja")
    assert i18n.translator("ja")(Phrase("{names}", names=["A", "B"])) == "A、B"
    spec = make_spec(SPEC_JA)
    for args in (["--lang", "ja"], []):
        out = tmp_path / f"out{len(args)}"
        result = runner.invoke(main, ["build", str(spec), "-o", str(out), *args])
        assert result.exit_code == 0, result.output
        text = _pdf_text(out / "words.pdf")
        assert "嵐" in text and "Storm" not in text
        assert i18n.said("ja", "sheet {number}", number=1) in text  # pnpforge's own words, from the .po


def test_a_po_newer_than_its_mo_wins(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A .po edited after `make` compiled it is read as it is now, not as the stale .mo says."""
    import os

    po = catalogs.read(catalogs.LOCALE / "ja.po")
    po.get("sheet").string = "古い"
    catalogs.write(po, tmp_path / "ja.po")
    catalogs.compile_([str(tmp_path / "ja.po")])
    po.get("sheet").string = "新しい"
    catalogs.write(po, tmp_path / "ja.po")
    mo_time = (tmp_path / "ja.mo").stat().st_mtime
    os.utime(tmp_path / "ja.po", (mo_time + 10, mo_time + 10))
    monkeypatch.setattr(i18n, "LOCALE", tmp_path)
    assert i18n.said("ja", "sheet") == "新しい"


def test_a_spec_language_without_a_catalog_is_located(
    monkeypatch: pytest.MonkeyPatch, make_spec: SpecMaker, runner: CliRunner, tmp_path: Path
) -> None:
    from pnpforge.cli import main

    monkeypatch.setattr(i18n, "LOCALE", tmp_path / "nothing")
    result = runner.invoke(main, ["build", str(make_spec(SPEC_JA)), "-o", str(tmp_path / "out")])
    assert result.exit_code == 2, result.output
    assert "game.yaml:2:18: pnpforge has no catalog for language 'ja' (expected one of: en)" in result.output
