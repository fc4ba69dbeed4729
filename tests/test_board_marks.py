"""The marks on a checked board (web/board.py): outlines and numbered badges that never fill a tile,
drawn where the fault is: a Gods disconnection on the two groups' cells (not on a side between two
tiles that touch), each Ankh caravan's faults one line through its camels, not a pile of rings."""

from __future__ import annotations

import re
from typing import Any

from pnpforge import contract
from pnpforge.geometry import hexgrid
from pnpforge.table.setupfile import dump_yaml
from pnpforge.web import board


def gods_apart() -> str:
    tiles = [("temple-red", 0, 0), ("wilderness", 1, 0), ("temple-blue", 3, 0)]
    board_ = [{"tile": name, "at": [q, r]} for name, q, r in tiles]
    return dump_yaml(
        {"game": "gods", "players": 2, "gods": ["red", "blue"], "stage": "play", "board": board_}
    )


def marks(svg: str) -> list[str]:
    group = svg[svg.index('<g class="marks"') :]
    return re.findall(r"<(?:polygon|circle|path|line)[^>]*class=\"mark[^\"]*\"[^>]*>", group)


def test_a_disconnection_is_marked_on_the_groups_not_on_a_join() -> None:
    checked = board.check(gods_apart(), "gods")
    assert [v.code for v in checked.report.errors] == ["tiles-disconnected"]
    drawn = marks(checked.svg)
    outlines = [m for m in drawn if m.startswith("<polygon")]
    assert len(outlines) == 3  # the cells of both groups: [0, 0], [1, 0] and [3, 0]
    assert not [m for m in drawn if m.startswith(("<path", "<line"))]  # no side between tiles that touch
    assert checked.svg.count('class="badge"') == 1 and ">1</text>" in checked.svg


def test_no_mark_fills_a_tile() -> None:
    checked = board.check(gods_apart(), "gods")
    for mark in marks(checked.svg):
        assert "fill=" not in mark and "style=" not in mark  # the page's CSS draws them as outlines


def test_an_ankh_caravans_faults_are_one_line_not_a_pile_of_rings() -> None:
    checks: Any = contract.load("ankh").module("checks")
    m = checks.bundled_map()
    inland = next(
        c
        for c in sorted(m.land())
        if all(m.is_land(n) and frozenset((c, n)) not in m.river for n in hexgrid.neighbours(c))
    )
    around = [[list(inland), list(n)] for n in hexgrid.neighbours(inland)]
    extra = hexgrid.neighbours(inland)[0]
    seven = [*around, [list(extra), list(hexgrid.neighbours(extra)[0])]]  # 7 camels, not one line
    data = _yaml(board.deal_text("ankh", 2, 1, {}))
    data["caravans"] = [seven]
    checked = board.check(dump_yaml(data), "ankh")
    codes = [v.code for v in checked.report.errors]
    assert {"camel-count", "camel-broken"} <= set(codes), codes
    lines = [m for m in marks(checked.svg) if m.startswith("<path")]
    assert len(lines) == 1, lines  # both faults of the caravan: one line through its sides
    assert "camel-count" in lines[0] and "camel-broken" in lines[0]
    assert not [m for m in marks(checked.svg) if 'class="mark ring"' in m and "camel" in m]


def _yaml(text: str) -> Any:
    from pnpforge.sourcefile import read_yaml_text

    return read_yaml_text(text, "dealt").data
