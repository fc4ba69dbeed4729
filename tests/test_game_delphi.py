"""The Oracle of Delphi as a print-and-play kit: counts, board tiles from tiles.yaml, sizes, both languages.

Expected numbers cite seeds/004_f435431784adc11c.txt and RULINGS.md (where the seed gives no count, the
number is our assumption, named in docs/games/delphi.md); the game is built once per module (English and
Japanese) through the real CLI and measured with pypdf.
"""

from __future__ import annotations

from collections import Counter
from functools import cache
from pathlib import Path

from click.testing import CliRunner
from conftest import MM, assert_every_page_is, missing_words
from pypdf import PdfReader

from pnpforge.build import BuildOptions, plan
from pnpforge.catalog import find_game
from pnpforge.cli import main
from pnpforge.components.load import LoadedSpec, load_target
from pnpforge.fonts import FontRegistry
from pnpforge.generator.expand import expand
from pnpforge.geometry.kite import KITE_WIDTH
from pnpforge.sourcefile import read_yaml

GAME = "delphi"
PLAYERS = 4  # 2-4 players; every per-player set is printed for four


@cache
def _loaded() -> LoadedSpec:
    return load_target(GAME)


def test_inventory_matches_the_seed(counts: dict[str, int]) -> None:
    assert counts == {
        "island-tiles": 12,  # 12のボードタイル (line 26)
        "city-tiles": 6,  # 6枚のシティタイル (29)
        "player-boards": PLAYERS,  # プレイヤーボード (72), with the oracle colour wheel the dice sit on (84)
        "zeus-tiles": 12 * PLAYERS,  # 各3枚 × シュライン・像・捧げ物・モンスター = 12 per player (101-104)
        "island-shrine-tiles": 12,  # 島タイル(全12枚) (55): 3 per player colour (RULINGS.md)
        "monsters": 6 * PLAYERS,  # モンスタータイル(各色プレイ人数分) (47)
        "offering-cubes": 6 * PLAYERS,  # 捧げ物キューブ(各色プレイ人数分) (39)
        "temples": 6,  # 神殿を6カ所の神殿ヘックスに (43)
        "statues": 18,  # 像(全6色・各3個) (51)
        "player-pieces": 10 * PLAYERS,  # 聖廟駒3個 (89) + 6柱の神様ディスク (91) + シールド (96)
        "favour-tokens": 40,  # assumption; set-up alone hands out 3+4+5+6 = 18 (77)
        "standees": PLAYERS + 1,  # 船駒 (97) and ゼウス (35)
        "ship-tiles": 8,  # assumption; 4 named for the first game (82), a draft needs players + 1 (81)
        "companion-cards": 18,  # 6 colours × 英雄・半神半人・クリーチャー (257-262)
        "oracle-cards": 30,  # assumption: 5 per colour
        "injury-cards": 36,  # assumption: 6 per colour
        "equipment-cards": 24,  # assumption; effects are placeholders
        "battle-die": 1,  # 戦闘ダイ(10面ダイ) (179): a d10 net, faces 0-9
        "oracle-dice": 3 * PLAYERS,  # 三つのオラクルダイス (146)
        "titan-die": 1,  # タイタンダイ (83)
        "player-aids": PLAYERS,  # プレイヤーエイド (108)
    }


def test_board_tiles_are_the_cells_of_tiles_yaml() -> None:
    loaded = _loaded()
    facts = read_yaml(find_game(GAME).path / "tiles.yaml").data
    cells = {t["id"]: sorted(tuple(c["at"]) for c in t["cells"]) for t in facts["tiles"]}
    groups = expand(loaded, "en", (190 * MM, 277 * MM), only=("island-tiles", "city-tiles"))
    printed = {p.row["id"]: sorted(p.cells) for g in groups for p in g.pieces}
    assert printed == cells
    hexes = Counter(g.component.name for g in groups for p in g.pieces for _ in p.cells)
    assert hexes == {"island-tiles": 102, "city-tiles": 18}  # RULINGS.md: 102 island hexes; a city tile is 3


def test_zeus_tiles_are_the_same_twelve_for_every_player() -> None:
    rows = _loaded().rows["zeus-tiles"]
    per_player: dict[str, Counter[str]] = {}
    for row in rows:
        per_player.setdefault(row.values["player"], Counter())[row.values["task"]] += row.count
    # 3 shrine + 3 statue + 6 offering/monster double-sided: offering face up for 3, monster for 3 (103)
    assert per_player == {
        p: {"shrine": 3, "statue": 3, "offering": 6} for p in ("red", "blue", "green", "yellow")
    }
    whites = sum(r.count for r in rows if r.values["colour"] == "white")
    assert whites == 2 * PLAYERS  # 「白」はタスクの2色以外の任意の色 (178): one offering, one monster
    assert _loaded().component("zeus-tiles").back is not None


def test_dice_show_the_oracle_wheel() -> None:
    facts = read_yaml(find_game(GAME).path / "tiles.yaml").data
    (row,) = _loaded().rows["oracle-dice"]
    faces = [row.values[f"face{k}"] for k in range(1, 7)]
    assert faces == facts["oracle_wheel_clockwise"]  # red → black → pink → blue → yellow → green


def test_board_tiles_show_colours_as_letters_pedestals_and_the_two_monster_mark(tmp_path: Path) -> None:
    """Each water, city and shrine hex prints its colour's letter; each statue its 3 pedestal colours;
    the 3 two-monster islands a "2" badge (tiles.yaml, the facts the set-up checks read too)."""
    out = tmp_path / "tiles"
    result = CliRunner().invoke(
        main, ["build", GAME, "-o", str(out), "--only", "island-tiles", "--only", "city-tiles"]
    )
    assert result.exit_code == 0, result.output
    words: list[str] = []
    for page in PdfReader(out / f"{GAME}.pdf").pages[1:]:
        words += [w for line in page.extract_text().splitlines() if "sheet" not in line for w in line.split()]
    letters = {"red": "R", "black": "K", "pink": "P", "blue": "B", "yellow": "Y", "green": "G"}
    expected: Counter[str] = Counter()
    twos = 0
    for tile in read_yaml(find_game(GAME).path / "tiles.yaml").data["tiles"]:
        for cell in tile["cells"]:
            colour = cell.get("colour", cell.get("explore"))
            expected.update([letters[colour]] if colour else [])
            expected.update(letters[p["colour"]] for p in cell.get("pedestals", []))
            twos += cell.get("monsters") == 2
    # the text layer may run a tile's letters and its "2" badge into one word ("BB2"), as placed
    marks = [w for w in words if set(w) <= {*letters.values(), "2"}]
    printed = Counter(ch for w in marks for ch in w if ch != "2")
    assert (
        printed == expected and sum(expected.values()) == 72 + 6 + 12 + 18
    )  # water, cities, shrines, pedestals
    assert sum(w.count("2") for w in marks) == twos == 3  # RULINGS.md: 3 two-monster islands


def test_oracle_dice_speak_the_build_language(built_ja: tuple[Path, str]) -> None:
    pdf, _ = built_ja
    dice = [
        page.extract_text()
        for page in PdfReader(pdf).pages
        if "· oracle-dice · 表面" in page.extract_text()  # ja.po: front
    ]
    assert len(dice) == 1
    names = Counter(ch for ch in dice[0] if ch in "赤黒桃青黄緑")
    assert names == {ch: 3 * PLAYERS for ch in "赤黒桃青黄緑"}  # one face of each colour per die
    assert "red" not in dice[0] and "Red" not in dice[0]


def test_colours_read_without_colour() -> None:
    rows = _loaded().rows["monsters"]
    assert len({r.values["mark_en"] for r in rows}) == 6 and len({r.values["mark_ja"] for r in rows}) == 6


def test_pages_and_piece_sizes(built_en: tuple[Path, str]) -> None:
    pdf, _ = built_en
    reader = PdfReader(pdf)
    assert_every_page_is(reader, 210, 297)  # A4
    the_plan = plan(_loaded(), BuildOptions(), FontRegistry(search=False), check=False)
    assert (
        len(reader.pages) == len(the_plan.pages) <= 32
    )  # shared sheets (one component per sheet: 38); every piece's bleed inside the marks' band
    sizes: dict[str, set[tuple[float, float]]] = {}
    for page in the_plan.pages:
        if page.layout is None or page.component is None:
            continue
        for placed in page.layout.placements:  # a shared sheet holds several components
            w, h = placed.width / MM, placed.height / MM
            sizes.setdefault(page.pieces[placed.index].component.name, set()).add((round(w, 2), round(h, 2)))
    # 30 mm hexes (a ship standee's 22 mm foot fits): a 7-hex flower is 3 hexes wide
    assert (90.0, round(30 * 5 / 3**0.5, 2)) in sizes["island-tiles"]
    assert sizes["city-tiles"] == {(60.0, round(30 * (2 + 1.5) / 3**0.5, 2))}
    assert sizes["zeus-tiles"] == {(14.0, 14.0)}
    cards = [sizes[name] for name in ("companion-cards", "oracle-cards", "injury-cards")]
    assert [{tuple(sorted(size)) for size in found} for found in cards] == [{(40.0, 56.0)}] * 3  # or turned
    assert sizes["oracle-dice"] == sizes["titan-die"] == {(14.0, 14.0)}  # die faces
    assert sizes["battle-die"] == {(round(24 * KITE_WIDTH, 2), 24.0)}  # kites: short × long diagonal
    # turned on A4: 190 mm across leaves 2.5 mm of bleed each side inside the 195 mm band, upright 3 mm
    assert sizes["player-boards"] == {(138.0, 190.0)}


def test_english_build_has_no_warnings(built_en: tuple[Path, str]) -> None:
    pdf, output = built_en
    assert "warning" not in output.lower()
    assert (
        missing_words(pdf, ("Red hero", "Green creature", "Oracle", "Injury", "Zeus", "Poseidon", "Shield"))
        == []
    )


def test_japanese_names_are_in_the_pdf(built_ja: tuple[Path, str]) -> None:
    pdf, output = built_ja
    assert "warning" not in output.lower()
    words = (
        "デルフォイの神託",
        "ポセイドン",
        "ゼウス",
        "恩寵",
        "赤の英雄",
        "半神半人",
        "クリーチャー",
        "負傷",
    )
    assert missing_words(pdf, words) == []


def test_the_aid_gives_the_short_games_removal_order(built_en: tuple[Path, str]) -> None:
    """Delphi rulebook, short game: tiles removed first statue, then shrine (with its island tiles),
    monster, offering."""
    pdf, _ = built_en
    assert missing_words(pdf, ("statue, shrine with its island tiles, monster,",)) == []
