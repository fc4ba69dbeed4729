"""Quo Vadis (draft 32) as a print-and-play kit: every count from the seed (or RULINGS.md) kept in data.

Expected numbers cite seeds/002_fdd52a0416fae5bb.txt ("コンポーネント") and RULINGS.md; the game is built
once per module and language through the real CLI and measured with pypdf.
"""

from __future__ import annotations

import json
import shutil
from collections import Counter
from pathlib import Path

from click.testing import CliRunner
from conftest import MM, assert_every_page_is
from pypdf import PdfReader

from pnpforge.build import BuildOptions, plan
from pnpforge.cli import main
from pnpforge.components.load import load_target
from pnpforge.fonts import FontRegistry
from pnpforge.sourcefile import read_yaml

GAME = "quo-vadis"
# epic card types, creation, resources, wrath of god, the 6th generation, a terrain (seed wording)
JA_WORDS = ("祝福", "労働", "奇跡", "啓示", "繁栄", "創世", "戦意", "食料", "信仰", "神の怒り")
JA_WORDS += ("第6世代", "平地")


def _squeeze(text: str) -> str:
    """Text without any whitespace: PDF extraction breaks lines where wrapping or the font changes."""
    return "".join(text.split())


def _text(pdf: Path) -> str:
    return _squeeze("\n".join(page.extract_text() for page in PdfReader(pdf).pages))


def test_inventory_matches_the_seed() -> None:
    result = CliRunner().invoke(main, ["inventory", GAME, "--json"])
    assert result.exit_code == 0, result.output
    counts = {line["name"]: line["count"] for line in json.loads(result.output)}
    assert counts == {
        "area-tiles": 15,  # エリアタイル(15枚)
        "terrain-tokens": 20,  # 地形トークン(青8個、その他各3個) = 8 + 4 × 3
        "creation-cards": 6,  # 創世カード(6枚)
        "epic-cards": 80,  # エピックカード(80枚)
        "skill-cards": 60,  # スキルカード(5枚+60枚): the 60 ordinary skills
        "race-cards": 5,  # 種族カード(5枚)
        "race-skill-cards": 5,  # スキルカード(5枚+60枚): one double-sided race skill per race
        "facility-cards": 15,  # 施設カード(15枚)
        "generation-boards": 5,  # 【世代置き場】 per player, 3-5 players
        "worker-tokens": 50,  # ワーカーポーン(50個): 10 per race
        "town-tokens": 25,  # タウントークン(25枚): 5 per race
        "victory-tokens": 20,  # assumption: at most 4 per player (勝利トークンの最大数を4個) × 5
        "vp-tokens": 75,  # assumption: 30 × 1, 20 × 5, 20 × 10, 5 × 50
    }


def test_decks_hold_what_the_seed_and_rulings_say() -> None:
    loaded = load_target(GAME)
    per_type: Counter[str] = Counter()
    strengths: Counter[tuple[str, int]] = Counter()
    for row in loaded.rows["epic-cards"]:
        per_type[row.values["type"]] += row.count
        strengths[(row.values["type"], int(row.values["strength"]))] += row.count
    # seed: 祝福・労働・奇跡・啓示・繁栄, 16 each; RULINGS.md: strengths 10 × 1, 4 × 2, 2 × 3 per type
    assert per_type == {t: 16 for t in ("blessing", "labour", "miracle", "revelation", "prosperity")}
    assert all(strengths[(t, s)] == n for t in per_type for s, n in ((1, 10), (2, 4), (3, 2)))
    skills = loaded.rows["skill-cards"]
    assert len(skills) == 60 and all(1 <= int(r.values["cost"]) <= 4 for r in skills)
    assert all("skills.csv" in r.values["text_en"] for r in skills)  # placeholders say where to write
    facilities = Counter[str]()
    for row in loaded.rows["facility-cards"]:
        facilities[row.values["race"]] += int(row.values["population"])
    races = ("plains", "sea", "mountain", "desert", "tundra")
    assert facilities == {r: 9 for r in races}  # seed: 2・3・4で9マス
    terrain = {r.values["terrain"]: r.count for r in loaded.rows["terrain-tokens"]}
    assert terrain == {"sea": 8, "plains": 3, "mountain": 3, "desert": 3, "tundra": 3}
    assert loaded.component("race-skill-cards").back is not None  # double-sided


def test_area_tiles_are_read_from_areas_yaml() -> None:
    """areas.yaml (what the set-up checks, dealer and scorer read) is also what prints: no copy to drift."""
    loaded = load_target(GAME)
    assert loaded.component("area-tiles").rows_from is not None
    assert not (loaded.folder / "area_tiles.csv").exists()
    areas = read_yaml(loaded.folder / "areas.yaml").data
    printed = [
        (
            r.values["id"],
            r.values["numbers_0"],
            r.values["numbers_1"],
            [r.values[f"spaces_{k}"] for k in range(3)],
        )
        for r in loaded.rows["area-tiles"]
    ]
    assert printed == [(t["id"], *t["numbers"], t["spaces"]) for t in areas["tiles"]]
    pairs = {(low, high) for _, low, high, _ in printed}
    assert pairs == {(a, b) for a in range(1, 6) for b in range(a, 6)}  # every pair 1-1 ... 5-5
    first = loaded.rows["area-tiles"][0]
    assert first.ref.file.endswith("areas.yaml")  # a bad row is reported in areas.yaml
    assert (first.values["spaces_0_en"], first.values["spaces_0_ja"]) == ("Plains", "平地")  # terrains


def test_printed_tiles_follow_an_edit_of_areas_yaml(tmp_path: Path) -> None:
    """Change one space's terrain in areas.yaml: the printed sheet shows the new terrain, nothing else."""
    folder = tmp_path / GAME
    shutil.copytree(load_target(GAME).folder, folder)
    areas = folder / "areas.yaml"
    before = "{id: a1-2, numbers: [1, 2], spaces: [sea, desert, plains]}"
    assert before in areas.read_text(encoding="utf-8")
    areas.write_text(
        areas.read_text(encoding="utf-8").replace(before, before.replace("[sea,", "[tundra,")),
        encoding="utf-8",
    )

    def words(target: Path, out: Path) -> Counter[str]:
        result = CliRunner().invoke(main, ["build", str(target), "-o", str(out), "--only", "area-tiles"])
        assert result.exit_code == 0, result.output
        text = "\n".join(page.extract_text() for page in PdfReader(out / f"{GAME}.pdf").pages)
        return Counter(w for w in text.split() if w in ("Sea", "Tundra", "Desert", "Plains", "Mountain"))

    original, edited = words(load_target(GAME).folder, tmp_path / "a"), words(folder, tmp_path / "b")
    assert sum(original.values()) == sum(edited.values()) == 45  # 15 tiles × 3 named spaces
    assert edited["Tundra"] == original["Tundra"] + 1 and edited["Sea"] == original["Sea"] - 1


def test_pages_and_piece_sizes(built_en: tuple[Path, str]) -> None:
    pdf, _ = built_en
    reader = PdfReader(pdf)
    assert_every_page_is(reader, 210, 297)  # A4
    the_plan = plan(load_target(GAME), BuildOptions(), FontRegistry(search=False), check=False)
    sizes: dict[str, set[tuple[float, float]]] = {}
    placed: Counter[str] = Counter()
    for page in the_plan.pages:
        if page.layout is None or page.component is None or page.side != "face":
            continue
        for p in page.layout.placements:  # a shared sheet holds several components
            name = page.pieces[p.index].component.name
            w, h = sorted((p.width / MM, p.height / MM))
            sizes.setdefault(name, set()).add((round(w, 2), round(h, 2)))
            placed[name] += 1
    assert sizes["area-tiles"] == {(56.0, round(56 * 2 / 3**0.5, 2))}  # 56 mm flat to flat
    for deck in ("creation-cards", "epic-cards", "skill-cards", "race-skill-cards", "facility-cards"):
        assert sizes[deck] == {(44.0, 63.0)}
    assert sizes["race-cards"] == {(65.0, 95.0)}
    assert sizes["generation-boards"] == {(38.0, 276.0)}
    assert sizes["worker-tokens"] == {(13.0, 13.0)} and sizes["town-tokens"] == {(15.0, 15.0)}
    assert placed["area-tiles"] == 15 and placed["epic-cards"] == 80


def test_every_generation_board_is_placed() -> None:
    the_plan = plan(load_target(GAME), BuildOptions(), FontRegistry(search=False), check=False)
    faces = [p for p in the_plan.pages if p.component is not None and p.side == "face"]
    boards = [p.layout for p in faces if p.component and p.component.name == "generation-boards"]
    assert sum(len(layout.placements) for layout in boards if layout) == 5  # one per player


def test_english_build(built_en: tuple[Path, str]) -> None:
    pdf, output = built_en
    assert "warning" not in output.lower()
    text = _text(pdf)
    for word in ("Blessing", "Labour", "Miracle", "Revelation", "Prosperity", "Placeholder", "Glorious"):
        assert word in text
    assert _squeeze("Placeholder: the designer writes this skill's effect in skills.csv.") in text


def test_japanese_names_are_in_the_pdf(built_ja: tuple[Path, str]) -> None:
    pdf, output = built_ja
    assert "warning" not in output.lower()
    text = _text(pdf)
    for word in JA_WORDS:
        assert word in text
