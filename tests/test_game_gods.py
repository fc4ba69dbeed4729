"""Gods as a print-and-play kit: counts from the seed, sizes, one common back, both languages.

Expected numbers cite seeds/000_7c5fb61d3078145b.txt ("内容") and RULINGS.md; each game is built once
per module (English and Japanese) through the real CLI and measured with pypdf.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from conftest import MM, assert_every_page_is
from pypdf import PdfReader

from pnpforge.build import BuildOptions, plan
from pnpforge.components.load import load_target
from pnpforge.fonts import FontRegistry
from pnpforge.layouts.faces.render import side_is_shared

GAME = "gods"
# the seed's names: 神殿, 民族, 荒野, 嵐, 追加アクション, ゲームエンド, 勝利ポイント, 村落
JA_WORDS = ("赤の神殿", "青の民族", "荒野", "嵐", "追加アクション", "ゲームエンド", "勝利ポイント", "村落")


def _squeeze(text: str) -> str:
    """Text without any whitespace: PDF extraction breaks lines where wrapping or the font changes."""
    return "".join(text.split())


def _text(pdf: Path) -> str:
    return _squeeze("\n".join(page.extract_text() for page in PdfReader(pdf).pages))


def test_inventory_matches_the_seed(counts: dict[str, int]) -> None:
    assert counts == {
        "tiles": 72,  # 荒野11 + 嵐2 + 神殿(4色×6=24) + 民族(4色×8=32) + 追加アクション2 + ゲームエンド1
        "vp-cards": 12,  # 勝利ポイントカード(4色×3=12)
        "village-cards": 8,  # 村落カード(4色×2=8)
        "crystals": 50,  # エネルギークリスタル(50)
        "god-markers": 60,  # ゴッドマーカー(60)
        "player-aid": 4,  # assumption: one per player, 2-4 players
    }


def test_tile_kinds_and_colours_match_the_seed() -> None:
    loaded = load_target(GAME)
    kinds: Counter[str] = Counter()
    per_colour: Counter[tuple[str, str]] = Counter()
    for row in loaded.rows["tiles"]:
        kinds[row.values["kind"]] += row.count
        if row.values["colour"]:
            per_colour[(row.values["kind"], row.values["colour"])] += row.count
    assert kinds == {
        "temple": 24,  # 神殿タイル(4色×6=24)
        "people": 32,  # 民族タイル(4色×8=32)
        "wilderness": 11,  # 荒野タイル:11
        "storm": 2,  # 嵐タイル:2
        "extra-action": 2,  # 追加アクションタイル:2
        "game-end": 1,  # ゲームエンドタイル:1
    }
    colours = {"red", "blue", "green", "yellow"}  # RULINGS.md: god and people colours are the same four
    assert {k: v for k, v in per_colour.items() if k[0] == "temple"} == {("temple", c): 6 for c in colours}
    assert {k: v for k, v in per_colour.items() if k[0] == "people"} == {("people", c): 8 for c in colours}


def test_pieces_read_without_colour() -> None:
    """People tiles and god markers carry one pattern per colour; temples carry none (RULINGS.md)."""
    loaded = load_target(GAME)
    rows = [r.values for r in loaded.rows["tiles"]]
    people = {r["colour"]: r["pattern"] for r in rows if r["kind"] == "people"}
    temples = {r["pattern"] for r in rows if r["kind"] == "temple"}
    markers = {r.values["colour"]: r.values["pattern"] for r in loaded.rows["god-markers"]}
    assert len(set(people.values())) == 4 and "none" not in people.values()
    assert temples == {"none"}
    assert markers == people


def test_all_72_tiles_share_one_back() -> None:
    tiles = load_target(GAME).component("tiles")
    assert tiles.back is not None and side_is_shared(tiles, "back")


def test_pages_and_piece_sizes(built_en: tuple[Path, str]) -> None:
    pdf, _ = built_en
    reader = PdfReader(pdf)
    assert_every_page_is(reader, 210, 297)  # A4
    # cover + tiles (3 sheets, 32 a sheet with their whole bleed, each with its back) + the cards, the
    # tokens and the player aids: small pieces share sheets (one sheet per component took 1 + 4 + 5 pages)
    assert len(reader.pages) == 1 + 6 + 3
    the_plan = plan(load_target(GAME), BuildOptions(), FontRegistry(search=False), check=False)
    sizes: dict[str, set[tuple[float, float]]] = {}
    for page in the_plan.pages:
        if page.layout is None or page.component is None:
            continue
        for placed in page.layout.placements:  # a shared sheet holds several components
            w, h = sorted((placed.width / MM, placed.height / MM))
            sizes.setdefault(page.pieces[placed.index].component.name, set()).add((round(w, 2), round(h, 2)))
    assert sizes["tiles"] == {(38.0, round(38 * 2 / 3**0.5, 2))}  # 38 mm flat to flat, pointy
    assert sizes["vp-cards"] == sizes["village-cards"] == {(44.0, 63.0)}
    assert sizes["crystals"] == {(14.0, 14.0)} and sizes["god-markers"] == {(16.0, 16.0)}
    assert sizes["player-aid"] == {(70.0, 120.0)}


def test_english_build_has_no_warnings(built_en: tuple[Path, str]) -> None:
    pdf, output = built_en
    assert "warning" not in output.lower()
    text = _text(pdf)
    for word in ("Red temple", "Blue people", "Wilderness", "Storm", "Extra action", "Game end", "Village"):
        assert _squeeze(word) in text


def test_japanese_names_are_in_the_pdf(built_ja: tuple[Path, str]) -> None:
    pdf, output = built_ja
    assert "warning" not in output.lower()
    text = _text(pdf)
    for word in JA_WORDS:
        assert word in text
