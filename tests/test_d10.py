"""d10 die nets: ten kite faces in a strip with glue tabs, numbered 0-9, measured in placements and pixels."""

from __future__ import annotations

import math
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import SpecMaker, render_page
from pypdf import PdfReader
from shapely.geometry import Polygon

from pnpforge.cli import main
from pnpforge.geometry.kite import KITE_SHOULDER, KITE_WIDTH
from pnpforge.layouts.imposition.dice import TAB_MIN, d10_nets, kite_points, tab_width
from pnpforge.layouts.imposition.placement import Point, page_area, to_page
from pnpforge.output.page import PageFrame
from pnpforge.units import mm

A4 = PageFrame(mm(210), mm(297), mm(5), mm(3))
SPEC = """\
    game: {{id: d10test, title: D10 test}}
    defaults: {{bleed: {bleed}}}
    components:
      - name: d10
        kind: die
        faces: 10
        size: {size}
        count: {count}
        rows:
          - {{face6: "6.", face9: "9."}}
        face:
          background: "#ff0000"
          elements:
            - {{type: text, x: 10%, y: 40%, w: 80%, h: 30%, text: "<{{value}}>", size: 9pt, colour: white}}
"""


def _angle(p: Point, a: Point, b: Point) -> float:
    u, v = (a[0] - p[0], a[1] - p[1]), (b[0] - p[0], b[1] - p[1])
    return math.degrees(math.acos((u[0] * v[0] + u[1] * v[1]) / math.hypot(*u) / math.hypot(*v)))


def test_the_kite_closes_into_a_trapezohedron() -> None:
    apex, right, foot, left = kite_points(100.0)
    assert foot[1] - apex[1] == 100.0  # size is the long diagonal
    assert right[0] - left[0] == 100.0 * KITE_WIDTH
    angles = [_angle(apex, right, left), _angle(right, apex, foot), _angle(foot, right, left)]
    assert [round(a, 6) for a in angles] == [36.0, 108.0, 108.0]
    # 5 apexes meet at each pole and 3 corners at each other vertex: both under 360°, so the solid is convex
    assert 5 * 36 < 360 and 3 * 108 < 360


def test_net_placements_are_ten_kites_numbered_0_to_9() -> None:
    size = mm(24)
    pages = d10_nets(7, size, A4)
    faces = [p for page in pages for p in page.placements]
    assert len(faces) == 70 and len(pages) == 1  # seven 24 mm nets share one A4 page
    for index in range(7):
        own = [p for p in faces if p.index == index]
        assert sorted(p.face - 1 for p in own) == list(range(10))
        assert {(round(p.width, 6), round(p.height, 6)) for p in own} == {
            (round(size * KITE_WIDTH, 6), round(size, 6))
        }
        assert Counter(p.quarter for p in own) == {0: 5, 2: 5}  # five up, five turned down
    x0, y0, x1, y1 = page_area(A4)
    for page in pages:
        for net in page.kite_nets:
            assert len(net.tabs) == 11 and len(net.folds) == 9 + 11  # one tab per seam; folds + tab bases
            for px, py in net.outline + tuple(v for tab in net.tabs for v in tab):
                assert x0 - 1e-6 <= px <= x1 + 1e-6 and y0 - 1e-6 <= py <= y1 + 1e-6
            assert Polygon(net.outline).is_valid
    # faces of different nets never overlap, and tabs stay off every face
    kites = [Polygon(to_page(p, kite_points(size), (p.width, p.height))) for p in faces]
    assert sum(k.area for k in kites) == pytest.approx(Polygon(pages[0].kite_nets[0].outline).area * 7)
    tabs = [Polygon(t) for net in pages[0].kite_nets for t in net.tabs]
    assert all(t.intersection(k).area < 1e-3 for t in tabs for k in kites)


def test_folds_join_equal_edges_and_opposite_faces_sum_to_9() -> None:
    size = mm(30)
    page = d10_nets(1, size, A4)[0]
    kites = {p.face - 1: to_page(p, kite_points(size), (p.width, p.height)) for p in page.placements}
    edges = {
        n: {frozenset((round(a[0], 3), round(a[1], 3)) for a in (k[i], k[(i + 1) % 4])) for i in range(4)}
        for n, k in kites.items()
    }
    shared = Counter(e for own in edges.values() for e in own)
    assert sum(1 for c in shared.values() if c == 2) == 9  # the strip: nine folds between faces
    up = [p.face - 1 for p in page.placements if p.quarter == 0]
    down = [p.face - 1 for p in page.placements if p.quarter == 2]
    assert up == [1, 3, 5, 7, 9] and down == [2, 0, 8, 6, 4]
    # up face k is opposite down face k+2 on the solid
    assert all(up[k] + down[(k + 2) % 5] == 9 for k in range(5))


def _build(runner: CliRunner, make_spec: SpecMaker, tmp_path: Path, **values: object) -> Path:
    spec = make_spec(SPEC.format(**({"bleed": "3mm", "size": "30mm", "count": 2} | values)))
    out = tmp_path / "out"
    result = runner.invoke(main, ["build", str(spec), "-o", str(out), "--format", "pdf,png", "--dpi", "60"])
    assert result.exit_code == 0, result.output
    return out


def test_printed_net_has_kites_of_the_size_and_every_number(make_spec: SpecMaker, tmp_path: Path) -> None:
    runner = CliRunner()
    out = _build(runner, make_spec, tmp_path, bleed="0mm", count=1)
    pdf = out / "d10test.pdf"
    text = PdfReader(pdf).pages[1].extract_text()
    assert sorted(text.count(f"<{n}") for n in range(10)) == [1] * 10  # each number once
    image = render_page(pdf, 1, 200)
    px = image.load()
    red = [(x, y) for y in range(image.height) for x in range(image.width) if _red(px[x, y])]
    width = (max(x for x, _ in red) - min(x for x, _ in red) + 1) / 200 * 25.4
    height = (max(y for _, y in red) - min(y for _, y in red) + 1) / 200 * 25.4
    w = 30 * KITE_WIDTH  # the strip: 5½ short diagonals wide, a long diagonal plus a shoulder tall
    assert abs(width - 5.5 * w) < 0.4
    assert abs(height - 30 * (1 + KITE_SHOULDER)) < 0.8  # its 36° tips fade out in anti-aliasing
    # the first up face, alone in its column left of the first down face: as wide as the kite
    left = min(x for x, _ in red)
    column = [(x, y) for x, y in red if x < left + w / 2 / 25.4 * 200 - 2]
    tall = (max(y for _, y in column) - min(y for _, y in column) + 1) / 200 * 25.4
    assert tall < 30 and tall > 30 * (1 - 2 * (1 - KITE_SHOULDER))  # the upper part of a 30 mm kite


def _red(rgb: tuple[int, int, int]) -> bool:
    return rgb[0] - rgb[1] > 40 and rgb[1] == rgb[2]  # red or partly red (anti-aliased tips)


def test_build_is_deterministic_and_inventory_names_the_d10(make_spec: SpecMaker, tmp_path: Path) -> None:
    runner = CliRunner()
    first = (_build(runner, make_spec, tmp_path) / "d10test-p002.png").read_bytes()
    second = (_build(runner, make_spec, tmp_path) / "d10test-p002.png").read_bytes()
    assert first == second
    assert d10_nets(3, mm(20), A4) == d10_nets(3, mm(20), A4)
    spec = tmp_path / "spec"
    result = runner.invoke(main, ["inventory", str(spec)])
    assert result.exit_code == 0 and "30 mm d10" in result.output


def test_a_net_too_large_for_the_page_is_refused(make_spec: SpecMaker, tmp_path: Path) -> None:
    spec = make_spec(SPEC.format(bleed="3mm", size="90mm", count=1))
    result = CliRunner().invoke(main, ["build", str(spec), "-o", str(tmp_path / "o")])
    assert result.exit_code == 2
    assert "game.yaml" in result.output and "d10: a" in result.output and "net does not fit" in result.output


@pytest.mark.parametrize("size", [mm(22), mm(30), mm(45)])
def test_glue_tabs_never_taper_to_slivers(size: float) -> None:
    """Every tab keeps at least 2 × TAB_MIN of width: an opening that removes anything narrower keeps
    (nearly) all of it; and each still runs along most of its seam."""
    (net,) = d10_nets(1, size, A4)[0].kite_nets
    assert len(net.tabs) == 11
    r = TAB_MIN * 0.98
    for tab in (Polygon(t) for t in net.tabs):
        opened = tab.buffer(-r).buffer(r)
        assert opened.area >= 0.985 * tab.area
        assert tab.area >= (tab_width(size) * 0.3) * (size * 0.3)  # a real tab, not a crumb
