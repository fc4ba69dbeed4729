"""Text layout: wrapping at spaces and between CJK characters with kinsoku, shrink-to-fit, alignment."""

from __future__ import annotations

import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pnpforge.fonts import FontRegistry, find_cjk_font
from pnpforge.layouts.text import MIN_SIZE, NO_END, NO_START, break_allowed, layout_text, units


@pytest.fixture(scope="module")
def fonts() -> FontRegistry:
    if find_cjk_font() is None:
        if os.environ.get("PNPFORGE_REQUIRE_CJK") == "1":
            pytest.fail("no CJK TrueType font found but PNPFORGE_REQUIRE_CJK=1")
        pytest.skip("no CJK TrueType font on this machine")
    return FontRegistry()


def lay(fonts: FontRegistry, text: str, w: float, h: float = 1000, **kw: object):  # type: ignore[no-untyped-def]
    options: dict[str, object] = {"font": "Helvetica", "size": 10.0, **kw}
    return layout_text(text, 0, 0, w, h, fonts=fonts, **options)  # type: ignore[arg-type]


def test_break_rules() -> None:
    assert break_allowed("神", "殿")
    assert not break_allowed("神", "。")  # no line starts with a full stop
    assert not break_allowed("「", "神")  # none ends with an opening bracket
    assert not break_allowed("a", "b")  # inside a Latin word
    assert break_allowed(" ", "b") and not break_allowed("a", " ")
    assert not break_allowed("カ", "ー") and not break_allowed("き", "ょ")
    assert units("神殿は「聖」。ok go") == ["神", "殿", "は", "「聖」。", "ok ", "go"]


def test_wraps_latin_at_spaces(fonts: FontRegistry) -> None:
    limit = max(fonts.width("alpha beta", "Helvetica", 10), fonts.width("gamma delta", "Helvetica", 10)) + 0.5
    layout = lay(fonts, "alpha beta gamma delta", limit, fit="wrap")
    assert [line.text for line in layout.lines] == ["alpha beta", "gamma delta"]
    assert all(line.width <= limit for line in layout.lines)


def test_explicit_newlines_and_fit_none(fonts: FontRegistry) -> None:
    assert [line.text for line in lay(fonts, "one\ntwo", 500).lines] == ["one", "two"]
    assert [line.text for line in lay(fonts, "one\\ntwo", 500).lines] == ["one", "two"]  # from a CSV cell
    wide = lay(fonts, "a very long line that does not wrap", 20, fit="none")
    assert len(wide.lines) == 1 and not wide.fits and wide.size == 10.0


def test_japanese_wraps_between_characters(fonts: FontRegistry) -> None:
    layout = lay(fonts, "神殿は聖なる場所です。", 40.5, fit="wrap")  # four full-width glyphs a line
    texts = [line.text for line in layout.lines]
    assert "".join(texts) == "神殿は聖なる場所です。"
    assert texts[0] == "神殿は聖"
    assert all(not t.startswith("。") for t in texts)
    assert texts[-1].endswith("す。")  # the full stop pulled "す" down with it


CJK_ALPHABET = "神殿聖場所あいうかきくアイウ。、」』）！？ー「『（ょっ"


@settings(max_examples=60, deadline=None)
@given(text=st.text(alphabet=CJK_ALPHABET, min_size=1, max_size=40), glyphs=st.integers(3, 9))
def test_kinsoku_holds_for_any_text(fonts: FontRegistry, text: str, glyphs: int) -> None:
    layout = lay(fonts, text, glyphs * 10 + 0.5, fit="wrap")
    lines = [line.text for line in layout.lines]
    assert "".join(lines) == text
    for index, line in enumerate(lines):
        assert line
        if index > 0 and len(line) > 0 and lines[index - 1][-1] not in NO_END:
            # a forced break (a run of forbidden characters longer than a line) is the only exception
            assert (
                line[0] not in NO_START
                or fonts.width(lines[index - 1] + line[0], "Helvetica", 10) > glyphs * 10
            )
        if index < len(lines) - 1:
            assert line[-1] not in NO_END or len(line) == glyphs


def test_shrink_to_fit_stays_inside_the_box(fonts: FontRegistry) -> None:
    text = "A long description of the temple, which is holy ground for every player. 神殿は聖なる場所です。"
    layout = lay(fonts, text, 100, 40, size=20.0)
    assert layout.fits
    assert MIN_SIZE <= layout.size < 20.0
    assert layout.height <= 40 + 1e-6 and layout.width <= 100 + 1e-6
    bigger = lay(fonts, text, 100, 40, size=layout.size + 0.3, fit="wrap")
    assert bigger.height > 40 or bigger.width > 100  # the size found is (nearly) the largest that fits


def test_shrink_floor_and_forced_breaks(fonts: FontRegistry) -> None:
    layout = lay(fonts, "Supercalifragilistic " * 40, 30, 20, size=12.0)
    assert layout.size == MIN_SIZE and not layout.fits
    assert all(line.width <= 30 + 1e-6 for line in layout.lines)  # words broken to keep the width


def test_alignment_and_vertical_alignment(fonts: FontRegistry) -> None:
    right = lay(fonts, "ab\nabcdef", 100, 50, align="right", valign="bottom", fit="none")
    assert all(line.x + line.width == pytest.approx(100) for line in right.lines)
    descent = 0.207 * 10  # Helvetica's descent
    assert right.lines[-1].baseline + descent == pytest.approx(50, abs=0.01)
    top = lay(fonts, "ab", 100, 50, align="left", valign="top")
    assert top.lines[0].x == 0 and top.lines[0].baseline == pytest.approx(0.718 * 10, abs=0.01)
    middle = lay(fonts, "ab", 100, 50, leading=1.5)
    assert middle.lines[0].x == pytest.approx((100 - middle.lines[0].width) / 2)


def test_runs_carry_positions_per_font(fonts: FontRegistry) -> None:
    line = lay(fonts, "AB神殿CD", 500, align="left").lines[0]
    assert [run.text for run in line.runs] == ["AB", "神殿", "CD"]
    assert line.runs[1].font == fonts.cjk
    assert line.runs[1].x == pytest.approx(fonts.width("AB", "Helvetica", 10))
    assert line.runs[2].x == pytest.approx(fonts.width("AB神殿", "Helvetica", 10))
