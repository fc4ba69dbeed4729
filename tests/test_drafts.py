"""From one draft to the next: the version stamp, `pnpforge diff`, and reprints of only what changed.

Every test runs the real CLI on real spec folders and reads the real PDF (pypdf's text and document
information).
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import require_cjk
from pypdf import PdfReader

from pnpforge.cli import main

SPEC = """\
game:
  id: strike
  title: {en: Strike, ja: ストライク}
  version: draft 31
  designer: A. Designer
defaults: {page: a4, bleed: 3mm, duplex: long}
components:
  - name: cards
    kind: card
    size: poker
    csv: cards.csv
    face:
      background: "#f0e0c0"
      elements:
        - {type: text, text: "{name}", x: 3mm, y: 3mm, w: 57mm, h: 12mm, size: 14pt, font: sans-bold}
        - {type: text, text: "{text}", x: 5mm, y: 40mm, w: 53mm, h: 20mm, size: 10pt}
        - {type: text, text: "{id} {version}", x: 3mm, y: 80mm, w: 57mm, h: 5mm, size: 6pt}
    back:
      background: "#2b3a55"
      elements:
        - {type: text, text: Strike back, size: 16pt, font: sans-bold, colour: white}
"""
CHANGED = {"c07": "Gain 9", "c19": "Gain 8", "c33": "Gain 7"}


def csv_text(rows: list[tuple[str, str, str]]) -> str:
    return "id,name,text\n" + "".join(f"{a},{b},{c}\n" for a, b, c in rows)


def deck() -> list[tuple[str, str, str]]:
    return [(f"c{i:02d}", f"Strike {i}", f"Gain {i % 5}") for i in range(1, 41)]


def write_spec(
    folder: Path, rows: list[tuple[str, str, str]], version: str = "draft 31", spec: str = SPEC
) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "game.yaml").write_text(spec.replace("draft 31", version), encoding="utf-8")
    (folder / "cards.csv").write_text(csv_text(rows), encoding="utf-8")
    return folder


def changed_deck() -> list[tuple[str, str, str]]:
    return [(i, n, CHANGED.get(i, t)) for i, n, t in deck()]


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


def texts(pdf: Path) -> list[str]:
    return [page.extract_text() for page in PdfReader(pdf).pages]


# ---- the version stamp ----------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_version_on_cover_every_sheet_label_and_face(tmp_path: Path, lang: str) -> None:
    if lang == "ja":
        require_cjk()
    spec = write_spec(tmp_path / "v31", deck())
    code, out, err = run("build", str(spec), "-o", str(tmp_path / "out"), "--lang", lang)
    assert code == 0, err
    pages = texts(tmp_path / "out" / "strike.pdf")
    assert "draft 31" in pages[0].splitlines()[1]  # the cover's line under the title
    sheets = pages[1:]
    assert len(sheets) == 10  # 40 poker cards, 9 to an A4 sheet: 5 fronts, each with its back
    sheet, front, back = (
        ("シート", "表面", "裏面") if lang == "ja" else ("sheet ", "front", "back")
    )  # ja.po's
    for number, page in enumerate(sheets):
        label = page.splitlines()[-1]
        assert label.startswith(f"strike · draft 31 · {sheet}"), label
        assert label.endswith(back if number % 2 else front), label
    assert "c07 draft 31" in pages[1]  # {version} on the face
    info = PdfReader(tmp_path / "out" / "strike.pdf").metadata
    assert info.author == "A. Designer"
    assert info.title == ("ストライク" if lang == "ja" else "Strike")
    assert info.subject == f"{info.title} — draft 31"


def test_stamp_replaces_the_version_everywhere(tmp_path: Path) -> None:
    spec = write_spec(tmp_path / "v31", deck()[:3])
    code, _, err = run("build", str(spec), "-o", str(tmp_path / "out"), "--stamp", "test print 4")
    assert code == 0, err
    pages = texts(tmp_path / "out" / "strike.pdf")
    assert "test print 4" in pages[0]
    assert "strike · test print 4 · sheet 1 · cards · front" in pages[1]
    assert "c01 test print 4" in pages[1]
    assert "draft 31" not in "".join(pages)


# ---- diff -----------------------------------------------------------------------------------------


def test_diff_equal_and_reordered_rows_are_no_change(tmp_path: Path) -> None:
    old = write_spec(tmp_path / "old", deck())
    same = write_spec(tmp_path / "same", deck(), version="draft 32")  # a new stamp alone is no change
    moved = write_spec(tmp_path / "moved", list(reversed(deck())))
    for new in (same, moved):
        code, out, _ = run("diff", str(old), str(new))
        assert code == 0, out
        assert out.strip().endswith("no piece changed (40 rows)")


def test_diff_reorder_without_ids_is_no_change(tmp_path: Path) -> None:
    rows = [(f"x{i}", f"Strike {i}", f"Gain {i}") for i in range(1, 6)]
    no_ids = SPEC.replace("{id} {version}", "{version}")
    old = write_spec(tmp_path / "old", rows, spec=no_ids)
    (old / "cards.csv").write_text(
        "name,text\n" + "".join(f"{n},{t}\n" for _, n, t in rows), encoding="utf-8"
    )
    new = write_spec(tmp_path / "new", rows, spec=no_ids)
    (new / "cards.csv").write_text("name,text\n" + "".join(f"{n},{t}\n" for _, n, t in rows[::-1]), "utf-8")
    assert run("diff", str(old), str(new))[0] == 0
    (new / "cards.csv").write_text(
        "name,text\nStrike 5,Gain 6\n" + "".join(f"{n},{t}\n" for _, n, t in rows[3::-1])
    )
    code, out, _ = run("diff", str(old), str(new))
    assert code == 1
    assert "cards #1 (Strike 5): added" in out  # no id: a row is known by its number and its look
    assert "cards #5 (Strike 5): removed" in out


def test_diff_changed_added_removed_and_copies(tmp_path: Path) -> None:
    old = write_spec(tmp_path / "old", deck())
    rows = [r for r in changed_deck() if r[0] != "c40"] + [("c41", "Strike 41", "Gain 1")]
    new = write_spec(tmp_path / "new", rows, version="draft 32")
    code, out, _ = run("diff", str(old), str(new))
    assert code == 1
    lines = out.splitlines()
    assert 'cards c07 (Strike 7): text "Gain 2" → "Gain 9"' in lines
    assert 'cards c19 (Strike 19): text "Gain 4" → "Gain 8"' in lines
    assert "cards c41 (Strike 41): added" in lines
    assert "cards c40 (Strike 40): removed" in lines
    assert lines[-1].endswith("3 changed, 1 added, 1 removed (40 → 40 rows)")
    code, out, _ = run("diff", str(old), str(new), "--json")
    found = json.loads(out)
    assert (found["equal"], found["changed"], found["added"], found["removed"]) == (False, 3, 1, 1)
    c07 = next(c for c in found["changes"] if c["key"] == "c07")
    assert c07["fields"] == [{"field": "text", "old": "Gain 2", "new": "Gain 9"}]


def test_diff_sees_image_bytes_change(tmp_path: Path) -> None:
    from PIL import Image

    spec = SPEC.replace(
        '        - {type: text, text: "{name}"',
        '        - {type: image, src: "art/{id}.png", x: 0, y: 0, w: 20mm, h: 20mm}\n'
        '        - {type: text, text: "{name}"',
    )
    rows = deck()[:3]
    old = write_spec(tmp_path / "old", rows, spec=spec)
    (old / "art").mkdir()
    for key, _, _ in rows:
        Image.new("RGB", (8, 8), (200, 0, 0)).save(old / "art" / f"{key}.png")
    new = tmp_path / "new"
    shutil.copytree(old, new)
    assert run("diff", str(old), str(new))[0] == 0
    Image.new("RGB", (8, 8), (0, 0, 200)).save(new / "art" / "c02.png")
    code, out, _ = run("diff", str(old), str(new))
    assert code == 1
    assert out.splitlines()[0] == "cards c02 (Strike 2): art/c02.png changed (its bytes)"


def test_diff_against_a_git_revision(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    spec = write_spec(repo / "game", deck())
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"]
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    subprocess.run([*git, "-C", str(repo), "add", "."], check=True)
    subprocess.run([*git, "-C", str(repo), "commit", "-qm", "v31"], check=True)
    subprocess.run([*git, "-C", str(repo), "tag", "v31"], check=True)
    assert run("diff", str(spec), "--rev", "v31")[0] == 0
    write_spec(spec, changed_deck(), version="draft 32")
    code, out, _ = run("diff", str(spec), "--rev", "v31")
    assert code == 1
    assert out.splitlines()[-1] == f"v31 → {spec}: 3 changed (40 → 40 rows)"
    code, _, err = run("diff", str(spec), "--rev", "v99")
    assert code == 2
    assert "--rev v99: no such revision" in err
    code, _, err = run("diff", str(tmp_path / "repo" / "game"), "--rev", "--help")
    assert code == 2


def test_diff_outside_git_and_bad_arguments(tmp_path: Path) -> None:
    spec = write_spec(tmp_path / "v31", deck()[:2])
    code, _, err = run("diff", str(spec), "--rev", "HEAD")
    assert code == 2 and "is not in a git work tree" in err
    code, _, err = run("diff", str(spec))
    assert code == 2 and "expected OLD NEW, or NEW --rev REV" in err
    code, _, err = run("build", str(spec), "--changed-since", "v30", "-o", str(tmp_path / "out"))
    assert code == 2 and "v30: no such spec folder, game.yaml or game" in err and "--rev v30" in err
    assert not (tmp_path / "out").exists()


# ---- reprints --------------------------------------------------------------------------------------


def test_reprint_holds_exactly_the_changed_cards_and_their_backs(tmp_path: Path) -> None:
    old = write_spec(tmp_path / "v31", deck())
    new = write_spec(tmp_path / "v32", changed_deck(), version="draft 32")
    out = tmp_path / "out"
    code, printed, err = run("build", str(new), "--changed-since", str(old), "-o", str(out))
    assert code == 0, err
    assert printed.strip() == str(out / "strike-reprint.pdf")
    pages = texts(out / "strike-reprint.pdf")
    assert len(pages) == 3  # the cover, one sheet's front, its back
    cover, front, back = pages
    assert cover.startswith("Strike · reprint")
    assert (
        "In this reprint (3 pieces): cards c07 Strike 7 (changed), c19 Strike 19 (changed), c33 Strike 33"
        in cover
    )
    assert f"Throw away from the print of draft 31 ({old}) (3 pieces)" in cover.replace("\n", " ")
    names = [line for line in front.splitlines() if line.startswith("Strike ")]
    assert names == ["Strike 7", "Strike 19", "Strike 33"]
    assert [t for t in CHANGED.values() if t in front] == list(CHANGED.values())
    assert front.splitlines()[-1] == "strike · draft 32 · sheet 1 · cards · front"
    assert back.count("Strike back") == 3
    assert back.splitlines()[-1] == "strike · draft 32 · sheet 1 · cards · back"


def test_reprint_of_nothing_writes_nothing(tmp_path: Path) -> None:
    old = write_spec(tmp_path / "v31", deck())
    code, printed, err = run("build", str(old), "--changed-since", str(old), "-o", str(tmp_path / "out"))
    assert code == 0
    assert "nothing to reprint" in err and printed == ""
    assert not (tmp_path / "out").exists()


def test_reprint_in_japanese(tmp_path: Path) -> None:
    require_cjk()
    old = write_spec(tmp_path / "v31", deck())
    new = write_spec(tmp_path / "v32", changed_deck(), version="draft 32")
    code, _, err = run("build", str(new), "--changed-since", str(old), "-o", str(tmp_path), "--lang", "ja")
    assert code == 0, err
    cover = texts(tmp_path / "strike-reprint.pdf")[0]
    assert "差し替え印刷" in cover and "draft 32" in cover


def test_sheets_and_only_rows(tmp_path: Path) -> None:
    spec = write_spec(tmp_path / "v31", deck())
    code, _, err = run("build", str(spec), "-o", str(tmp_path / "a"), "--sheets", "2,4-5")
    assert code == 0, err
    pages = texts(tmp_path / "a" / "strike.pdf")
    assert len(pages) == 1 + 3 * 2
    labels = [p.splitlines()[-1] for p in pages[1:]]
    assert [label.split(" · ")[2] for label in labels] == [
        "sheet 2",
        "sheet 2",
        "sheet 4",
        "sheet 4",
        "sheet 5",
        "sheet 5",
    ]
    assert "sheets 2, 4, 5 of 5 (--sheets)" in pages[0].replace("\n", " ")
    code, _, err = run("build", str(spec), "-o", str(tmp_path / "b"), "--sheets", "9")
    assert code == 2 and "no sheet 9: this build has 5 sheets" in err
    code, _, err = run("build", str(spec), "-o", str(tmp_path / "c"), "--only", "cards:c07,12")
    assert code == 0, err
    front = texts(tmp_path / "c" / "strike.pdf")[1]
    assert [line for line in front.splitlines() if line.startswith("Strike ")] == ["Strike 7", "Strike 12"]
    code, _, err = run("build", str(spec), "-o", str(tmp_path / "d"), "--only", "cards:c99")
    assert code == 2 and "--only cards:c99: no such row in cards" in err
    assert not (tmp_path / "d").exists()


def test_exported_images_are_named_by_id_and_title(tmp_path: Path) -> None:
    spec = write_spec(tmp_path / "v31", deck()[:8])
    code, out, err = run("export", str(spec), "--to", "images", "-o", str(tmp_path / "img"), "--dpi", "20")
    assert code == 0, err
    names = sorted(Path(line).name for line in out.splitlines())
    assert names[:3] == ["c01-strike-1-front.png", "c02-strike-2-front.png", "c03-strike-3-front.png"]
    assert "cards-back.png" in names and "c07-strike-7-front.png" in names
    code, out, err = run(
        "export", str(spec), "--to", "images", "-o", str(tmp_path / "one"), "--only", "cards:c07"
    )
    assert code == 0, err
    assert sorted(Path(line).name for line in out.splitlines()) == [
        "c07-strike-7-front.png",
        "cards-back.png",
        "manifest.csv",
    ]


def test_fingerprints_are_deterministic_and_see_the_face_in_game_yaml(tmp_path: Path) -> None:
    from pnpforge.build import BuildOptions
    from pnpforge.components.load import load_target
    from pnpforge.drafts.diff import spec_prints

    old = write_spec(tmp_path / "old", deck()[:4])
    first = [(r.key, r.fingerprint) for r in spec_prints(load_target(old), BuildOptions())]
    again = [(r.key, r.fingerprint) for r in spec_prints(load_target(old), BuildOptions())]
    assert first == again and len({f for _, f in first}) == 4
    new = write_spec(tmp_path / "new", deck()[:4], spec=SPEC.replace("#f0e0c0", "#e0f0c0"))
    code, out, _ = run("diff", str(old), str(new))
    assert code == 1
    assert out.splitlines()[0] == "cards c01 (Strike 1): drawn differently (the face in game.yaml)"
    assert out.splitlines()[-1].endswith("4 changed (4 → 4 rows)")


def test_watch_renders_only_changed_pages_and_matches_a_full_build(tmp_path: Path) -> None:
    import os
    import sys
    import time

    spec = write_spec(tmp_path / "game", deck())
    out, full = tmp_path / "watched", tmp_path / "full"
    command = [sys.executable, "-m", "pnpforge", "watch", str(spec), "-o", str(out), "--format", "pdf,png"]
    command += ["--dpi", "30", "--interval", "0.05", "--max-builds", "3"]
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    watch = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)

    def save(rows: list[tuple[str, str, str]], later: int) -> None:  # one whole save, never half of one
        temp = tmp_path / "cards.csv"
        temp.write_text(csv_text(rows), encoding="utf-8")
        os.utime(temp, ns=(time.time_ns(), time.time_ns() + later * 10**9))
        os.replace(temp, spec / "cards.csv")

    stdout, stderr = "", ""
    try:
        assert watch.stdout is not None
        while stdout.count("strike-p011.png") < 1:  # the first build: 40 cards, 5 sheets, 11 pages
            line = watch.stdout.readline()
            assert line, watch.communicate(timeout=10)[1]
            stdout += line
        first = {p.name: p.stat().st_mtime_ns for p in out.iterdir()}
        save(changed_deck(), 1)  # c07 (sheet 1), c19 (sheet 3) and c33 (sheet 4) changed
        while stdout.count("strike.pdf") < 2:
            line = watch.stdout.readline()
            assert line, watch.communicate(timeout=10)[1]
            stdout += line
        save(changed_deck()[:20], 2)  # 20 cards: 3 sheets, 7 pages
        stdout += watch.stdout.read()  # what readline has buffered too (communicate would skip it)
        watch.wait(timeout=60)
        stderr = watch.stderr.read() if watch.stderr else ""
    finally:
        if watch.poll() is None:
            watch.kill()
    assert watch.returncode == 0, stderr
    builds: list[list[str]] = []
    for name in (Path(line).name for line in stdout.splitlines()):
        builds += [[]] if name == "strike.pdf" else []
        builds[-1].append(name)
    assert len(builds) == 3  # each build lists the PDF, then the PNGs it rendered
    assert builds[1][1:] == [
        "strike-p002.png",
        "strike-p006.png",
        "strike-p008.png",
    ]
    assert builds[2][1:] == ["strike-p001.png", "strike-p006.png", "strike-p007.png"]  # cover counts, sheet 3
    assert first["strike-p003.png"] == (out / "strike-p003.png").stat().st_mtime_ns  # a back: not redrawn
    code, _, err = run(
        "build", str(spec), "-o", str(full), "--format", "pdf,png", "--dpi", "30", "--no-cache"
    )
    assert code == 0, err
    assert sorted(p.name for p in out.iterdir()) == sorted(p.name for p in full.iterdir())  # p008-p011 gone
    for path in full.iterdir():
        assert (out / path.name).read_bytes() == path.read_bytes(), path.name
