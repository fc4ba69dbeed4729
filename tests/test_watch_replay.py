"""`watch` draws again only the pages a change touched and plays the others back as it recorded them:
the PDF and the warnings must be a whole build's, byte for byte and line for line.

Each test builds a real spec the way `watch` does (a PageMemory kept between builds), counts the pages
the face engine really drew, and compares with a fresh whole build of the same files.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from test_drafts import SPEC, changed_deck, deck, write_spec

from pnpforge import draw as engine
from pnpforge.build import BuildOptions, DocPage, Plan, plan
from pnpforge.building import BuildRequest, build
from pnpforge.components.load import load_target
from pnpforge.drafts.watching import PageMemory
from pnpforge.draw import Drawing, warnings, write
from pnpforge.output.recording import PageDrawing, Recording


def watched_build(folder: Path, memory: PageMemory, out: Path) -> tuple[Plan, bytes]:
    """One build as `watch` makes it (the one build function, given the PageMemory)."""
    result = build(BuildRequest(folder, BuildOptions(out_dir=out), watch=memory))
    assert result.plan is not None  # drawn, not played back from a kept build
    return result.plan, (out / f"{result.plan.id}.pdf").read_bytes()


def whole_build(folder: Path, out: Path) -> tuple[Plan, bytes]:
    options = BuildOptions(out_dir=out)
    the_plan = plan(load_target(folder), options)
    write(the_plan, options)
    return the_plan, (out / f"{the_plan.id}.pdf").read_bytes()


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The sheet numbers of the piece pages the face engine draws (0 for the cover and others)."""
    pages: list[int] = []
    real = engine.draw_page

    def counting(canvas: engine.Canvas, plan_: Plan, page: DocPage) -> None:
        pages.append(page.sheet if page.kind == "pieces" else 0)
        real(canvas, plan_, page)

    monkeypatch.setattr(engine, "draw_page", counting)
    return pages


def test_only_the_changed_sheets_are_drawn_and_the_pdf_is_a_whole_builds(
    tmp_path: Path, drawn: list[int]
) -> None:
    folder = write_spec(tmp_path / "game", deck())
    memory = PageMemory()
    first, _ = watched_build(folder, memory, tmp_path / "watched")
    assert len(drawn) == len(first.pages) == 11  # the cover and 5 sheets, front and back
    drawn.clear()
    write_spec(folder, changed_deck())  # c07 (sheet 1), c19 (sheet 3), c33 (sheet 4)
    second, watched = watched_build(folder, memory, tmp_path / "watched")
    assert sorted(drawn) == [0, 1, 3, 4]  # the cover (its counts) and the three fronts; every back kept
    drawn.clear()
    _, whole = whole_build(folder, tmp_path / "whole")
    assert watched == whole
    assert len(drawn) == len(second.pages)


def test_a_page_that_warned_is_drawn_again_so_its_warnings_stay(tmp_path: Path, drawn: list[int]) -> None:
    rows = deck()
    rows[0] = ("c01", "Strike 1", "A rule text far too long " * 12)  # does not fit its box: a warning
    tight = SPEC.replace("h: 20mm, size: 10pt}", "h: 20mm, size: 10pt, fit: none}")
    folder = write_spec(tmp_path / "game", rows, spec=tight)
    memory = PageMemory()
    first, _ = watched_build(folder, memory, tmp_path / "watched")
    said = [str(w) for w in warnings(first)]
    assert any("c01" in w or ":2" in w for w in said), said  # the row that does not fit is named
    drawn.clear()
    rows[32] = ("c33", "Strike 33", "Gain 7")  # sheet 4 only
    write_spec(folder, rows, spec=tight)
    second, watched = watched_build(folder, memory, tmp_path / "watched")
    assert 1 in drawn and 4 in drawn and 2 not in drawn  # sheet 1 warned: drawn again, not played back
    whole_plan, whole = whole_build(folder, tmp_path / "whole")
    assert watched == whole
    assert [str(w) for w in warnings(second)] == [str(w) for w in warnings(whole_plan)] == said


def test_a_page_whose_reused_drawings_no_longer_fit_is_drawn(tmp_path: Path, drawn: list[int]) -> None:
    """A recorded page that defined the shared back is offered where the back is already defined: played
    back, it would draw the back onto the page instead of into the form. It is drawn instead."""
    folder = write_spec(tmp_path / "game", deck())
    options = BuildOptions(out_dir=tmp_path / "offered")
    the_plan = plan(load_target(folder), options)
    recorded = Recording()
    write(the_plan, options, Drawing(recording=recorded, kept=lambda k: None))
    backs = [k for k, page in enumerate(the_plan.pages) if page.side == "back"]
    defining = recorded.drawing(backs[0])
    assert any(here for _, here in defining.forms) and not defining.fits({key for key, _ in defining.forms})
    offered: dict[int, PageDrawing] = {backs[1]: defining}  # the first back defines it first this time
    drawn.clear()
    write(the_plan, options, Drawing(recording=Recording(), kept=offered.get))
    assert len(drawn) == len(the_plan.pages)  # nothing was played back
    _, whole = whole_build(folder, tmp_path / "whole")
    assert (tmp_path / "offered" / f"{the_plan.id}.pdf").read_bytes() == whole


def test_fits_follows_the_forms_in_order() -> None:
    page = PageDrawing([], (("back", True), ("back", False), ("marks", False)))
    assert page.fits({"marks"})
    assert not page.fits(set())  # uses marks before anything defined them
    assert not page.fits({"back", "marks"})  # would define back a second time


def test_an_image_changed_on_disk_redraws_the_pages_that_show_it(tmp_path: Path, drawn: list[int]) -> None:
    """The rows' values are the same; only the bytes of the image one row names changed."""
    from PIL import Image

    with_art = SPEC.replace(
        '        - {type: text, text: "{id} {version}"',
        '        - {type: image, src: "art/{id}.png", x: 20mm, y: 15mm, w: 20mm, h: 20mm}\n'
        '        - {type: text, text: "{id} {version}"',
    )
    folder = write_spec(tmp_path / "game", deck()[:12], spec=with_art)
    (folder / "art").mkdir()
    for i in range(1, 13):
        Image.new("RGB", (8, 8), (200, 40, 40)).save(folder / "art" / f"c{i:02d}.png")
    memory = PageMemory()
    watched_build(folder, memory, tmp_path / "watched")
    drawn.clear()
    Image.new("RGB", (8, 8), (40, 40, 200)).save(folder / "art" / "c11.png")  # on sheet 2
    _, watched = watched_build(folder, memory, tmp_path / "watched")
    assert 2 in drawn and 1 not in drawn
    _, whole = whole_build(folder, tmp_path / "whole")
    assert watched == whole
