"""`pnpforge export`: the real files measured (PNG pixels, PDF boxes and page order, TTS JSON)."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import MM, SpecMaker, render_page
from PIL import Image, ImageChops, ImageStat
from pypdf import PdfReader

from pnpforge.build import BuildOptions, plan
from pnpforge.cli import main
from pnpforge.components.load import load_target
from pnpforge.export import ExportOptions, export


def run(target: Path, kind: str, out: Path, *args: str) -> list[Path]:
    result = CliRunner().invoke(main, ["export", str(target), "--to", kind, "-o", str(out), *args])
    assert result.exit_code == 0, result.output
    return [Path(line) for line in result.stdout.splitlines()]


def manifest(folder: Path) -> list[dict[str, str]]:
    with (folder / "manifest.csv").open(encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def test_images_have_exact_pixel_sizes_and_one_file_per_row(tiny_quest: Path, tmp_path: Path) -> None:
    out = tmp_path / "img"
    files = run(tiny_quest, "images", out, "--only", "heroes")
    names = sorted(p.name for p in files)
    names_by_row = ("knight", "archer", "mage", "scout")  # numbered rows without ids: number and name
    fronts = [f"heroes-00{n}-{name}-front.png" for n, name in enumerate(names_by_row, start=1)]
    assert names == sorted([*fronts, "heroes-back.png", "manifest.csv"])  # 8 cards, 4 rows, one shared back
    for name in [*fronts, "heroes-back.png"]:
        with Image.open(out / name) as image:  # 63 x 88 mm + 3 mm bleed each edge = 69 x 94 mm at 300 dpi
            assert image.size == (815, 1110)
    rows = manifest(out)
    assert [(r["file"], r["row"], r["side"], r["count"]) for r in rows] == [
        ("heroes-001-knight-front.png", "1", "front", "2"),
        ("heroes-002-archer-front.png", "2", "front", "2"),
        ("heroes-003-mage-front.png", "3", "front", "1"),
        ("heroes-004-scout-front.png", "4", "front", "3"),
        ("heroes-back.png", "", "back", "8"),
    ]
    assert {(r["width_mm"], r["height_mm"], r["width_px"], r["height_px"]) for r in rows} == {
        ("69.00", "94.00", "815", "1110")
    }


def test_a_card_image_matches_the_same_card_on_the_home_sheet(tiny_quest: Path, tmp_path: Path) -> None:
    dpi = 100
    run(tiny_quest, "images", tmp_path / "img", "--only", "heroes", "--dpi", str(dpi))
    options = BuildOptions(out_dir=tmp_path / "home", only=("heroes",))
    the_plan = plan(load_target(tiny_quest), options)
    index, page = next((k, p) for k, p in enumerate(the_plan.pages) if p.kind == "pieces")
    placement = page.layout.placements[0]  # type: ignore[union-attr]
    assert placement.quarter == 0 and page.pieces[placement.index].row["name_en"] == "Knight"
    from pnpforge.draw import write

    write(the_plan, options)
    home = render_page(tmp_path / "home" / "tiny-quest.pdf", index, dpi)
    px = dpi / 72
    inset = 1 * MM  # compare inside the trim: the bleed beyond may be cut by the neighbour's gutter
    bleed = 3 * MM
    with Image.open(tmp_path / "img" / "heroes-001-knight-front.png") as image:
        box = (bleed + inset, bleed + inset, bleed + 63 * MM - inset, bleed + 88 * MM - inset)
        own = image.convert("RGB").crop(tuple(round(v * px) for v in box))
    x0, y0 = round((placement.x + inset) * px), round((placement.y + inset) * px)
    cut = home.crop((x0, y0, x0 + own.width, y0 + own.height))  # same pixel size, whatever the rounding
    difference = ImageStat.Stat(ImageChops.difference(own, cut).convert("L")).mean[0]
    assert difference < 6, difference  # anti-aliasing at sub-pixel offsets only
    other = (
        Image.open(tmp_path / "img" / "heroes-002-archer-front.png").convert("RGB").crop((0, 0, *cut.size))
    )
    assert ImageStat.Stat(ImageChops.difference(other, cut).convert("L")).mean[0] > 20  # a real comparison


@pytest.mark.usefixtures("cmyk_profile")
def test_print_shop_pdf_pages_are_trim_plus_bleed_front_then_back(tiny_quest: Path, tmp_path: Path) -> None:
    out = tmp_path / "shop"
    files = run(tiny_quest, "print-shop", out, "--only", "heroes", "--only", "coins")
    assert [p.name for p in files] == ["heroes.pdf", "coins.pdf"]
    reader = PdfReader(out / "heroes.pdf")
    assert len(reader.pages) == 16  # 8 cards, each a front page and a back page
    for page in reader.pages:
        trim, bleed = page.trimbox, page.bleedbox
        assert (round(float(trim.width) / MM, 2), round(float(trim.height) / MM, 2)) == (63, 88)
        assert (round(float(bleed.width) / MM, 2), round(float(bleed.height) / MM, 2)) == (69, 94)
        assert round(float(trim.left) / MM, 2) == 3 and tuple(page.mediabox) == tuple(bleed)
    texts = [page.extract_text() for page in reader.pages]
    assert all("Tiny Quest" in t for t in texts[1::2])  # every back follows its front
    names = [next(n for n in ("Knight", "Archer", "Mage", "Scout") if n in t) for t in texts[0::2]]
    assert names == ["Knight"] * 2 + ["Archer"] * 2 + ["Mage"] + ["Scout"] * 3
    for path in files:
        for page in PdfReader(path).pages:
            for font in page["/Resources"]["/Font"].values():
                descriptor = (
                    font.get_object().get("/FontDescriptor") or font.get_object()["/DescendantFonts"][0]
                )
                assert "/FontFile2" in descriptor.get_object(), font.get_object()["/BaseFont"]
    coins = PdfReader(out / "coins.pdf")
    assert len(coins.pages) == 24
    assert round(float(coins.pages[0].trimbox.width) / MM, 2) == 20


def test_print_shop_png_gives_a_back_after_every_front(tiny_quest: Path, tmp_path: Path) -> None:
    out = tmp_path / "shop"
    run(tiny_quest, "print-shop", out, "--only", "land", "--only", "coins", "--format", "png", "--dpi", "50")
    rows = manifest(out)
    assert [r["file"] for r in rows] == [
        *(f"land-00{n}-front.png" for n in (1, 2, 3)),
        "coins-001-front.png",
        "coins-001-back.png",
    ]
    with Image.open(out / "coins-001-back.png") as image:
        assert image.size == (round(26 / 25.4 * 50), round(26 / 25.4 * 50))


CARDS = """\
game: {{id: deck, title: Deck}}
defaults: {{bleed: 3mm}}
components:
  - name: cards
    kind: card
    size: poker
    rows: [{rows}]
    face: {{background: "{{colour}}", elements: [{{type: text, text: "{{title}}", size: 20pt}}]}}
    back: {{background: "#2b3a55"}}
"""


def deck_spec(make_spec: SpecMaker, cards: int) -> Path:
    rows = ", ".join(f'{{title: "Card {k}", colour: "#{(40 * k) % 256:02x}8040"}}' for k in range(cards))
    return make_spec(CARDS.format(rows=rows))


def test_tts_deck_names_exactly_the_sheets_written(make_spec: SpecMaker, tmp_path: Path) -> None:
    out = tmp_path / "tts"
    files = run(deck_spec(make_spec, 75), "tts", out)
    data = json.loads((out / "cards.json").read_text(encoding="utf-8"))
    deck = data["ObjectStates"][0]
    urls = {(out / e[k]).resolve() for e in deck["CustomDeck"].values() for k in ("FaceURL", "BackURL")}
    pngs = {p.resolve() for p in files if p.suffix == ".png"}
    assert (
        urls
        == pngs
        == {(out / n).resolve() for n in ("cards-sheet-1.png", "cards-sheet-2.png", "cards-back.png")}
    )
    assert deck["DeckIDs"] == [
        *range(100, 169),
        *range(200, 206),
    ]  # 69 per sheet: the 70th slot is the hidden card
    assert [c["Nickname"] for c in deck["ContainedObjects"]][:2] == ["Card 0", "Card 1"]
    assert [c["CardID"] for c in deck["ContainedObjects"]] == deck["DeckIDs"]
    with Image.open(out / "cards-back.png") as back:
        cell = back.size
    for key, entry in deck["CustomDeck"].items():
        assert (entry["NumWidth"], entry["NumHeight"]) == (10, 7)
        with Image.open(out / f"cards-sheet-{key}.png") as sheet:
            assert sheet.size == (10 * cell[0], 7 * cell[1])
            assert max(sheet.size) <= 4096 and 4096 - sheet.width < 10  # 300 dpi shrunk to fit
    assert abs(cell[0] / cell[1] - 63 / 88) < 0.01


def test_tts_counts_copies_and_cuts_tiles_to_their_shape(tiny_quest: Path, tmp_path: Path) -> None:
    out = tmp_path / "tts"
    run(tiny_quest, "tts", out, "--only", "heroes", "--only", "land", "--only", "coins", "--dpi", "60")
    deck = json.loads((out / "heroes.json").read_text(encoding="utf-8"))["ObjectStates"][0]
    assert len(deck["DeckIDs"]) == 8 and deck["DeckIDs"].count(103) == 3  # Scout, count 3
    assert deck["SidewaysCard"] is False and deck["Transform"]["scaleX"] == round(63 / 63.5, 4)  # poker
    entry = deck["CustomDeck"]["1"]
    assert (entry["NumWidth"], entry["NumHeight"]) == (3, 2)  # 4 faces + the hidden card
    with Image.open(out / "heroes-sheet-1.png") as sheet, Image.open(out / "heroes-back.png") as back:
        assert sheet.size == (3 * back.width, 2 * back.height)
        hidden = sheet.crop((2 * back.width, back.height, 3 * back.width, 2 * back.height))
        assert ImageStat.Stat(ImageChops.difference(hidden, back.convert("RGB")).convert("L")).mean[0] < 2
    land = json.loads((out / "land.json").read_text(encoding="utf-8"))["ObjectStates"][0]
    assert land["Name"] == "Bag" and len(land["ContainedObjects"]) == 10
    assert {t["CustomImage"]["CustomTile"]["Type"] for t in land["ContainedObjects"]} == {1}  # hexagons
    coins = json.loads((out / "coins.json").read_text(encoding="utf-8"))["ObjectStates"][0]
    tile = coins["ContainedObjects"][0]["CustomImage"]
    assert tile["CustomTile"]["Type"] == 2 and tile["ImageSecondaryURL"].endswith("coins-back.png")


def test_bad_input_is_one_located_line_and_nothing_is_written(tiny_quest: Path, tmp_path: Path) -> None:
    out = tmp_path / "never"
    for args, expected in (
        (["--only", "dragons"], "<command line>: --only dragons: no such component"),
        (["--dpi", "5"], "<command line>: --dpi 5: out of range (expected 10 to 1200)"),
        (["--format", "png"], "--format applies to --to print-shop only"),
    ):
        result = CliRunner().invoke(
            main, ["export", str(tiny_quest), "--to", "images", "-o", str(out), *args]
        )
        assert result.exit_code == 2 and expected in result.stderr, result.output
        assert "Traceback" not in result.output
    assert not out.exists()


def test_same_input_same_bytes_with_or_without_the_pool(make_spec: SpecMaker, tmp_path: Path) -> None:
    spec = deck_spec(make_spec, 40)
    one, two = tmp_path / "one", tmp_path / "two"
    export(spec, "images", ExportOptions(out_dir=one, dpi=20, processes=1))
    export(spec, "images", ExportOptions(out_dir=two, dpi=20, processes=2))  # 41 images: over two workers
    names = sorted(p.name for p in one.iterdir())
    assert len(names) == 42 and names == sorted(p.name for p in two.iterdir())
    assert all((one / n).read_bytes() == (two / n).read_bytes() for n in names)


@pytest.mark.parametrize("lang", ["ja"])
def test_nicknames_follow_the_language(tiny_quest: Path, tmp_path: Path, lang: str) -> None:
    out = tmp_path / "tts"
    run(tiny_quest, "tts", out, "--only", "heroes", "--lang", lang, "--dpi", "20")
    deck = json.loads((out / "heroes.json").read_text(encoding="utf-8"))["ObjectStates"][0]
    assert [c["Nickname"] for c in deck["ContainedObjects"]][:3] == ["騎士", "騎士", "弓兵"]


def test_dice_faces_and_own_backs(make_spec: SpecMaker, tmp_path: Path) -> None:
    spec = make_spec(
        """\
        game: {id: kit, title: Kit}
        components:
          - name: dice
            kind: die
            size: 15mm
            face: {background: white, elements: [{type: text, text: "{face}", size: 12pt}]}
          - name: twins
            kind: card
            size: 88x63mm
            rows: [{a: Sun, b: Moon}, {a: Fire, b: Ice}]
            face: {background: "#ffd27a", elements: [{type: text, text: "{a}", size: 14pt}]}
            back: {background: "#27408b", elements: [{type: text, text: "{b}", size: 14pt}]}
        """
    )
    out = tmp_path / "img"
    run(spec, "images", out, "--dpi", "40")
    assert [(r["file"], r["count"]) for r in manifest(out)] == [
        *((f"dice-001-face{n}.png", "1") for n in range(1, 7)),
        ("twins-001-front.png", "1"),
        ("twins-001-back.png", "1"),
        ("twins-002-front.png", "1"),
        ("twins-002-back.png", "1"),
    ]
    tts = tmp_path / "tts"
    result = CliRunner().invoke(main, ["export", str(spec), "--to", "tts", "-o", str(tts), "--dpi", "40"])
    assert result.exit_code == 0 and "dice are not exported" in result.stderr
    twins = json.loads((tts / "twins.json").read_text(encoding="utf-8"))["ObjectStates"][0]
    assert twins["SidewaysCard"] is True  # landscape: X along the long side, Z along the short one
    assert (twins["Transform"]["scaleX"], twins["Transform"]["scaleZ"]) == (
        round(88 / 88.9, 4),
        round(63 / 63.5, 4),
    )
    entry = twins["CustomDeck"]["1"]
    assert entry["UniqueBack"] is True and entry["BackURL"].endswith("twins-backs-1.png")
    with Image.open(tts / "twins-sheet-1.png") as faces, Image.open(tts / "twins-backs-1.png") as backs:
        assert faces.size == backs.size
        assert backs.convert("RGB").getpixel((2, 2)) == (0x27, 0x40, 0x8B)  # the first card's own back


@pytest.mark.usefixtures("cmyk_profile")
def test_a_bad_value_in_a_row_is_located_there_and_old_files_stay(
    make_spec: SpecMaker, tmp_path: Path
) -> None:
    good = deck_spec(make_spec, 3)
    out = tmp_path / "shop"
    run(good, "print-shop", out)
    before = (out / "cards.pdf").read_bytes()
    bad = make_spec(
        CARDS.format(rows='{title: A, colour: "#ff0000"}, {title: B, colour: "not-a-colour"}'), folder="bad"
    )
    result = CliRunner().invoke(main, ["export", str(bad), "--to", "print-shop", "-o", str(out)])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert result.stderr.startswith(f"error: {bad / 'game.yaml'}:7:")  # the inline row of card B
    assert "not-a-colour" in result.stderr
    assert (out / "cards.pdf").read_bytes() == before
