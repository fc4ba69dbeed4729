"""Loading specs and expanding them into pieces: rows, counts, languages, polyhex cells, targets."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import SpecMaker

from pnpforge.components.load import load_spec, load_target
from pnpforge.components.model import MAX_PIECES
from pnpforge.errors import InputError
from pnpforge.generator.expand import expand
from pnpforge.units import mm

PAGE = (mm(200), mm(287))


def test_tiny_quest_rows_keep_their_lines(tiny_quest: Path) -> None:
    loaded = load_spec(tiny_quest)
    assert loaded.id == "tiny-quest"
    heroes = loaded.rows["heroes"]
    assert [r.ref.line for r in heroes] == [2, 3, 4, 5]
    assert heroes[0].ref.file.endswith("heroes.csv")
    assert [r.count for r in heroes] == [2, 2, 1, 3]
    assert loaded.piece_total(loaded.component("heroes")) == 8
    land = loaded.rows["land"]
    assert land[0].values["terrain_ja"] == "森"  # inline {en, ja} becomes terrain_en / terrain_ja
    assert land[0].ref.file.endswith("game.yaml") and land[0].ref.line > 1


def test_component_count_multiplies_row_counts(make_spec: SpecMaker) -> None:
    folder = make_spec(
        """\
        game: {id: t, title: T}
        components:
          - {name: a, kind: card, size: mini, count: 3, rows: [{n: 1, count: 2}, {n: 2}]}
          - {name: b, kind: token, size: 20mm, count: 5}
        """
    )
    groups = expand(load_spec(folder), "en", PAGE)
    assert [len(g.pieces) for g in groups] == [9, 5]
    assert [p.row["n"] for p in groups[0].pieces] == [1] * 6 + [2] * 3
    assert groups[0].pieces[0].width == pytest.approx(mm(44))


def test_only_picks_components(tiny_quest: Path) -> None:
    groups = expand(load_spec(tiny_quest), "en", PAGE, only=["coins"])
    assert [g.component.name for g in groups] == ["coins"]
    with pytest.raises(InputError, match="no such component"):
        expand(load_spec(tiny_quest), "en", PAGE, only=["dragons"])


def test_total_pieces_refused_above_max(make_spec: SpecMaker) -> None:
    folder = make_spec(
        f"""\
        game: {{id: t, title: T}}
        components:
          - {{name: a, kind: card, size: mini, count: {MAX_PIECES}, rows: [{{n: 1}}, {{n: 2}}]}}
        """
    )
    with pytest.raises(InputError, match=f"at most {MAX_PIECES}"):
        expand(load_spec(folder), "en", PAGE)


def test_templated_sizes_per_row(make_spec: SpecMaker) -> None:
    folder = make_spec(
        """\
        game: {id: t, title: T}
        components:
          - {name: a, kind: token, size: "{d}", rows: [{d: 20mm}, {d: 30mm}, {d: wide}]}
        """
    )
    with pytest.raises(InputError) as info:
        expand(load_spec(folder), "en", PAGE)
    assert "game.yaml:3:" in str(info.value) and "'wide'" in str(info.value)


def test_polyhex_tiles_from_a_data_file(make_spec: SpecMaker) -> None:
    folder = make_spec(
        """\
        game: {id: t, title: T}
        components:
          - name: islands
            kind: tile
            shape: polyhex
            size: 20mm
            cells: {data: tiles.yaml, list: tiles, match: {group: island}}
          - name: named
            kind: tile
            shape: polyhex
            size: 20mm
            rows: [{id: b}]
            cells: {data: tiles.yaml, list: tiles, match: {id: "{id}"}}
        """,
        tiles__yaml="""\
        tiles:
          - {id: a, group: island, cells: [{at: [0, 0]}, {at: [1, 0]}, {at: [0, 1]}]}
          - {id: b, group: island, cells: [{at: [0, 0]}, {at: [1, 0]}]}
          - {id: c, group: city, cells: [{at: [0, 0]}]}
        """,
    )
    islands, named = expand(load_spec(folder), "en", PAGE)
    assert [p.row["id"] for p in islands.pieces] == ["a", "b"]
    assert islands.pieces[0].cells == ((0, 0), (1, 0), (0, 1))
    assert islands.pieces[0].row_ref.file.endswith("tiles.yaml") and islands.pieces[0].row_ref.line == 2
    assert named.pieces[0].cells == ((0, 0), (1, 0))
    assert named.pieces[0].width == pytest.approx(2 * mm(20))  # two pointy hexes side by side


def test_target_by_id_folder_or_file(
    make_spec: SpecMaker, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = make_spec(
        "game: {id: mine, title: Mine}\ncomponents: [{name: a, kind: card, size: poker}]\n", "games/mine"
    )
    monkeypatch.setenv("PNPFORGE_GAMES_DIR", str(tmp_path / "games"))
    assert load_target("mine").folder == folder
    assert load_target(str(folder)).id == "mine"
    assert load_target(str(folder / "game.yaml")).id == "mine"
    with pytest.raises(InputError, match="unknown game"):
        load_target("not-a-game")
