"""Ankh as a print-and-play kit: counts from the seed, the bundled map on the board, sizes, both languages.

Expected numbers cite the component list of seeds/001_4fd641f46dd5b34c.txt (lines 31-70) and RULINGS.md;
the game is built once per module (English and Japanese) through the real CLI and measured with pypdf.
"""

from __future__ import annotations

from collections import Counter
from functools import cache
from pathlib import Path

from conftest import MM, assert_every_page_is, missing_words
from pypdf import PdfReader

from pnpforge.build import BuildOptions, plan
from pnpforge.catalog import find_game
from pnpforge.components.load import LoadedSpec, load_target
from pnpforge.components.model import HexMapElement
from pnpforge.fonts import FontRegistry
from pnpforge.layouts.faces.hexdata import cells_from
from pnpforge.sourcefile import read_csv

GAME = "ankh"
GODS = {"amun", "anubis", "isis", "osiris", "ra"}


@cache
def _loaded() -> LoadedSpec:
    return load_target(GAME)


def _rows(component: str) -> Counter[str]:
    """Pieces per value of the rows' first column (e.g. per god, per monument kind)."""
    loaded = _loaded()
    out: Counter[str] = Counter()
    for row in loaded.rows[component]:
        out[next(iter(row.values.values()))] += row.count * loaded.component(component).count
    return out


def test_inventory_matches_the_seed(counts: dict[str, int]) -> None:
    assert counts == {
        "board": 1,  # ゲームボード 1枚 (line 50)
        "devotion-track": 1,  # 信心ダッシュボード 1枚 (51)
        "god-dashboards": 5,  # ゴッドダッシュボード 5枚 (52)
        "merged-dashboards": 5,  # 融合ゴッドダッシュボード 5枚 (54)
        "central-dashboard": 1,  # 中央ダッシュボード 1枚 (53)
        "battle-cards": 30,  # バトルカード(1神につき6枚) 30枚 (56)
        "guardian-cards": 6,  # ガーディアンの参照カード 6枚 (57)
        "player-aids": 5,  # プレーヤー補助カード 5枚 (55)
        "ankh-tokens": 80,  # アンクトークン(神につき16) 80枚 (58)
        "followers": 70,  # 信者トークン 70枚 (59)
        "space-tokens": 33,  # ピラミッド10 + 神殿10 + オベリスク10 (62-64) + 地下世界トークン3 (70)
        "markers": 18,  # 紛争順序8+アムン1+太陽3+タイブレーク1 (66-69), イベント1+アクション4 (60-61)
        "camels": 30,  # ラクダ 30頭 (47)
        "bases": 20,  # 土台(大)10 + 土台(小)10 (48-49)
        "figure-standees": 20,  # 神5 (31-39) + ガーディアン2+3+3+2+3+2 (41-46)
        "warrior-standees": 30,  # 各神の戦士 6体 × 5 (32-40)
    }


def test_rows_break_down_as_the_seed_lists() -> None:
    assert _rows("space-tokens") == {
        "pyramid": 10,
        "temple": 10,
        "obelisk": 10,
        "underworld": 3,
    }  # lines 62-64, 70
    markers = _loaded().rows["markers"]
    assert Counter(r.values["kind"] for r in markers for _ in range(r.count)) == {
        "conflict": 8,  # 紛争順序トークン 8枚 (66)
        "amun": 1,  # アムントークン 1枚 (67)
        "sun": 3,  # 太陽トークン 3枚 (68)
        "tie-break": 1,  # バトルタイブレークトークン 1枚 (69)
        "event": 1,  # イベントトークン 1枚 (60)
        "action": 4,  # アクションマーカー 4枚 (61)
    }
    assert _rows("figure-standees") == {"god": 5, "guardian": 15}
    guardians = {
        r.values["id"]: r.count for r in _loaded().rows["figure-standees"] if r.values["figure"] == "guardian"
    }
    assert guardians == {
        "androsphinx": 2,
        "mummy": 3,
        "satet": 3,
        "giant-scorpion": 2,
        "cat-mummy": 3,
        "apep": 2,
    }  # 41-46
    assert _rows("ankh-tokens") == {g: 16 for g in GODS}  # 神につき16 (58)
    assert _rows("warrior-standees") == {g: 6 for g in GODS}  # 戦士 6体 (32)
    assert _rows("bases") == {g: 4 for g in GODS}  # 土台(大)(神につき2つ) + 土台(小)(神につき2つ) (48-49)


def test_battle_cards_six_per_god_with_the_seed_strengths() -> None:
    rows = read_csv(find_game(GAME).path / "battle_cards.csv").rows
    per_god = Counter(r["god"] for r in rows)
    assert per_god == {g: 6 for g in GODS}  # 各自6枚 (line 135)
    names = {r["name_en"] for r in rows}
    assert names == {"Plague of Locusts", "Build Monument", "Cycle of Ma'at", "Drought", "Flood", "Miracle"}
    for row in rows:
        if row["card"] == "drought":
            assert row["strength"] == "2"  # 「干ばつ」カードは、+2の戦力ボーナス (line 368)
        if row["card"] == "flood":
            assert row["strength"] == "0"  # 「フラッド」カードは…戦力ボーナスを提供しません (line 367)


def test_the_board_prints_the_bundled_map() -> None:
    game = find_game(GAME)
    board = _loaded().component("board")
    (hexmap,) = [e for e in board.face.elements if isinstance(e, HexMapElement)]
    assert hexmap.source.data == "map.yaml" and hexmap.edges == "river.edges"
    cells = cells_from(hexmap.source, game.path)
    terrain = Counter(c.fields["terrain"] for c in cells)
    assert terrain == {"fertile": 43, "desert": 39, "water": 19}  # RULINGS.md: 101 hexes


def test_gods_read_without_colour() -> None:
    gods = read_csv(find_game(GAME).path / "gods.csv").rows
    assert len({g["mark"] for g in gods}) == 5 and len({g["pattern"] for g in gods}) == 5


def test_pages_and_piece_sizes(built_en: tuple[Path, str]) -> None:
    pdf, _ = built_en
    reader = PdfReader(pdf)
    assert_every_page_is(reader, 210, 297)  # A4
    the_plan = plan(_loaded(), BuildOptions(), FontRegistry(search=False), check=False)
    assert len(reader.pages) == len(the_plan.pages)
    sizes: dict[str, set[tuple[float, float]]] = {}
    parts = []
    for page in the_plan.pages:
        if page.layout is None or page.component is None:
            continue
        if page.layout.board is not None:
            parts.append(page.layout.board)
        for placed in page.layout.placements:  # a shared sheet holds several components
            w, h = sorted((placed.width / MM, placed.height / MM))
            sizes.setdefault(page.pieces[placed.index].component.name, set()).add((round(w, 2), round(h, 2)))
    assert len(parts) == 6 and {p.board_size for p in parts} == {
        (378 * MM, 446 * MM)
    }  # the board over 3 × 2 sheets: each part keeps room for the bleed past the board's edges
    assert sizes["battle-cards"] == sizes["guardian-cards"] == {(63.0, 88.0)}
    assert sizes["ankh-tokens"] == sizes["followers"] == {(16.0, 16.0)}
    assert sizes["space-tokens"] == {
        (30.0, round(30 * 2 / 3**0.5, 2))
    }  # a monument fills most of a 38 mm space
    assert sizes["camels"] == {(8.0, 18.0)}  # lies along a hex side of 38 / √3 = 21.9 mm
    assert sizes["god-dashboards"] == {(128.0, 185.0)}
    # small pieces share sheets (one component per sheet took 36 pages); every piece keeps its bleed
    assert len(reader.pages) <= 33


def test_english_build_has_no_warnings(built_en: tuple[Path, str]) -> None:
    pdf, output = built_en
    assert "warning" not in output.lower()
    words = (
        "West Egypt",
        "Devotion",
        "Mysterious Form",
        "Central dashboard",
        "Plague of Locusts",
        "Cycle of Ma'at",
    )
    assert missing_words(pdf, words) == []


def test_japanese_names_are_in_the_pdf(built_ja: tuple[Path, str]) -> None:
    pdf, output = built_ja
    assert "warning" not in output.lower()
    # the seed's names: board and region, devotion, gods and powers, dashboards, battle cards
    words = (
        "ゲームボード",
        "ナイルデルタ",
        "信心",
        "アムン",
        "指揮",
        "中央ダッシュボード",
        "イナゴの疫病",
        "マアトの循環",
    )
    assert missing_words(pdf, words) == []
