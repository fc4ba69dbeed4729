"""The compiled spec kept in the output folder (compiled.py): a warm build gives the very bytes of a full
one, any changed input misses, and a damaged, crafted or unwritable cache never breaks a build."""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import SpecMaker, require_cjk
from PIL import Image
from pypdf import PdfReader

from pnpforge import compiled, usercache
from pnpforge.buildoptions import BuildOptions
from pnpforge.cli import main
from pnpforge.fonts import twin_file

SPEC = """\
game: {id: kept, title: Kept Quest, version: draft 3}
defaults: {page: a4, bleed: 3mm, duplex: long}
components:
  - name: cards
    kind: card
    size: poker
    csv: cards.csv
    face:
      background: "{colour}"
      elements:
        - {type: image, src: art.png, x: 0mm, y: 0mm, w: 63mm, h: 30mm}
        - {type: rect, x: 3mm, y: 32mm, w: 57mm, h: 12mm, fill: white, radius: 2mm}
        - {type: text, text: "{title}", x: 3mm, y: 32mm, w: 57mm, h: 12mm, size: 14pt, font: sans-bold}
        - {type: text, text: "{body}", x: 5mm, y: 50mm, w: 53mm, h: 20mm, size: 9pt, font: own.ttf}
        - {type: text, text: "{ja}", x: 5mm, y: 72mm, w: 53mm, h: 8mm, size: 9pt}
    back:
      background: "#2b3a55"
      elements:
        - {type: text, text: "Kept Quest {version}", size: 16pt, font: sans-bold, colour: white}
"""
CSV = "title,body,ja,colour\n" + "".join(
    f"Card {k},Gain {k} gold and draw a card.,金貨を{k}枚得る。,#{'c05040' if k % 2 else '4aa0c0'}\n"
    for k in range(1, 13)
)


def _png(colour: tuple[int, int, int]) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (40, 20), colour).save(out, format="PNG")
    return out.getvalue()


def _font(standard: str) -> bytes:
    path = twin_file(standard)
    if path is None:
        pytest.skip("no Liberation fonts on this machine")
    return path.read_bytes()


@pytest.fixture(autouse=True)
def own_key(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Each test signs with its own key (never the user's real cache folder)."""
    home = tmp_path / "user-cache"
    monkeypatch.setenv("XDG_CACHE_HOME", str(home))
    return home


@pytest.fixture
def spec(make_spec: SpecMaker) -> Path:
    return make_spec(
        SPEC, **{"cards__csv": CSV, "art__png": _png((200, 40, 40)), "own__ttf": _font("Helvetica")}
    )


def build(spec: Path, out: Path, *extra: str, fresh: bool = False) -> bytes:
    """`pnpforge build` in this process, or with `fresh` in its own (fonts are registered once per
    process, so a font file's new bytes show only in a new one)."""
    arguments = ["build", str(spec), "-o", str(out), *extra]
    if fresh:
        done = subprocess.run([sys.executable, "-m", "pnpforge", *arguments], capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
    else:
        ran = CliRunner().invoke(main, arguments)
        assert ran.exit_code == 0, ran.output
    return (out / "kept.pdf").read_bytes()


def entries(out: Path) -> list[Path]:
    return sorted((out / compiled.FOLDER).glob("build-*.bin"))


def full_build(spec: Path, tmp_path: Path, fresh: bool = False) -> bytes:
    """The spec built with nothing kept: what every build must equal."""
    out = tmp_path / "full"
    shutil.rmtree(out, ignore_errors=True)
    data = build(spec, out, "--no-cache", fresh=fresh)
    assert not (out / compiled.FOLDER).exists()
    return data


def test_a_warm_build_writes_the_very_bytes_of_a_full_one(spec: Path, tmp_path: Path) -> None:
    require_cjk()
    out = tmp_path / "out"
    cold = build(spec, out)
    assert len(entries(out)) == 1
    warm = build(spec, out)
    assert warm == cold == full_build(spec, tmp_path)
    text = PdfReader(io.BytesIO(warm)).pages[1].extract_text()
    assert "金貨を7枚得る。" in text and "Card 7" in text  # Japanese too, in its embedded font
    built = build(spec, out, "--page", "letter")  # other options: kept apart
    assert built != cold and len(entries(out)) == 2


def test_a_warm_build_loads_neither_the_spec_models_nor_the_face_engine(spec: Path, tmp_path: Path) -> None:
    """In a fresh process, as a user runs it: the second build plays the kept pages back."""
    out = tmp_path / "out"
    script = (
        "import sys\nfrom pnpforge.cli import main\n"
        "try:\n    main(['build', sys.argv[1], '-o', sys.argv[2]])\nexcept SystemExit:\n    pass\n"
        "print(sorted(m for m in ('pydantic', 'pnpforge.components.model', 'pnpforge.layouts.faces.render')"
        " if m in sys.modules))"
    )
    env = {**os.environ, "XDG_CACHE_HOME": os.environ["XDG_CACHE_HOME"]}
    runs = [
        subprocess.run(
            [sys.executable, "-c", script, str(spec), str(out)], capture_output=True, text=True, env=env
        )
        for _ in range(2)
    ]
    assert runs[0].stdout.splitlines()[-1] != "[]"  # the first build loads the spec
    assert runs[1].stdout.splitlines()[-1] == "[]", runs[1].stderr
    assert (out / "kept.pdf").read_bytes() == full_build(spec, tmp_path)


@pytest.mark.parametrize(
    "change",
    ["csv cell", "image bytes", "font bytes", "game.yaml", "a new file in the folder"],
)
def test_a_changed_input_misses(spec: Path, tmp_path: Path, change: str) -> None:
    out = tmp_path / "out"
    fresh = change == "font bytes"
    before = build(spec, out, fresh=fresh)
    if change == "csv cell":
        (spec / "cards.csv").write_text(CSV.replace("Card 7,", "Card 77,"), encoding="utf-8")
    elif change == "image bytes":
        (spec / "art.png").write_bytes(_png((40, 40, 200)))
    elif change == "font bytes":
        (spec / "own.ttf").write_bytes(_font("Times-Roman"))
    elif change == "game.yaml":
        (spec / "game.yaml").write_text(SPEC.replace("draft 3", "draft 4"), encoding="utf-8")
    else:  # a file the spec does not name yet: still an input, so nothing is taken on trust
        (spec / "notes.txt").write_text("playtest 4", encoding="utf-8")
    after = build(spec, out, fresh=fresh)
    assert after == full_build(spec, tmp_path, fresh=fresh)
    if change != "a new file in the folder":
        assert after != before


def test_another_pnpforge_version_misses(spec: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "out"
    build(spec, out)
    monkeypatch.setattr(compiled, "__version__", "99.0")
    calls: list[str] = []
    real = compiled.keep

    def counted(*args: object, **kwargs: object) -> object:
        calls.append("built")
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(compiled, "keep", counted)
    assert build(spec, out) == full_build(spec, tmp_path)
    assert calls == ["built"]  # this build was made in full, not played back
    assert len(entries(out)) == 2


def _craft(entry: Path, how: str) -> None:
    raw = entry.read_bytes()
    head = len(compiled.MAGIC) + usercache.KEY_BYTES
    if how == "truncated":
        entry.write_bytes(raw[: len(raw) // 2])
    elif how == "garbage":
        entry.write_bytes(os.urandom(len(raw)))
    elif how == "header only":
        entry.write_bytes(raw[:head])
    elif how == "right shape, wrong contents":  # the same file with one card's title changed
        assert b"Card 7" in raw[head:]
        entry.write_bytes(raw[:head] + raw[head:].replace(b"Card 7", b"Card 9"))
    elif how == "signed by another key":
        entry.write_bytes(raw[: len(compiled.MAGIC)] + bytes(usercache.KEY_BYTES) + raw[head:])
    elif how == "a directory":
        entry.unlink()
        entry.mkdir()
    elif how == "a fifo":
        entry.unlink()
        os.mkfifo(entry)
    elif how == "a link to another file":
        target = entry.with_name("elsewhere")
        entry.rename(target)
        entry.symlink_to(target)


@pytest.mark.parametrize(
    "how",
    [
        "truncated",
        "garbage",
        "header only",
        "right shape, wrong contents",
        "signed by another key",
        "a directory",
        "a fifo",
        "a link to another file",
    ],
)
def test_a_damaged_or_crafted_cache_file_is_a_miss_and_the_pdf_is_right(
    spec: Path, tmp_path: Path, how: str
) -> None:
    out = tmp_path / "out"
    build(spec, out)
    (entry,) = entries(out)
    _craft(entry, how)
    crafted = entry.read_bytes() if entry.is_file() and not entry.is_symlink() else None
    assert build(spec, out) == full_build(spec, tmp_path)
    if how in ("truncated", "garbage", "header only", "right shape, wrong contents", "signed by another key"):
        assert entry.read_bytes() != crafted  # rewritten whole on the miss
        assert build(spec, out) == full_build(spec, tmp_path)  # and then used


def test_a_cache_that_cannot_be_written_does_not_break_the_build(spec: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / compiled.FOLDER).write_text("not a folder", encoding="utf-8")  # nothing can be kept under it
    assert build(spec, out) == build(spec, out) == full_build(spec, tmp_path)
    assert (out / compiled.FOLDER).read_text(encoding="utf-8") == "not a folder"


def test_no_signing_key_means_no_cache_and_a_good_build(
    spec: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocked = tmp_path / "blocked"
    blocked.write_text("a file where the cache folder would be", encoding="utf-8")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocked))
    out = tmp_path / "out"
    assert build(spec, out) == build(spec, out) == full_build(spec, tmp_path)
    assert entries(out) == []


def test_builds_at_once_into_one_folder_all_succeed(spec: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    command = [sys.executable, "-m", "pnpforge", "build", str(spec), "-o", str(out)]
    running = [subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE) for _ in range(3)]
    for process in running:
        _, error = process.communicate(timeout=120)
        assert process.returncode == 0, error.decode()
    expected = full_build(spec, tmp_path)
    assert (out / "kept.pdf").read_bytes() == expected
    assert build(spec, out) == expected
    assert len(entries(out)) == 1
    assert not list((out / compiled.FOLDER).glob("*.tmp"))


def test_the_cache_folder_stays_bounded(spec: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    for draft in range(compiled.MAX_ENTRIES + 3):
        build(spec, out, "--stamp", f"draft {draft}")
    assert len(entries(out)) == compiled.MAX_ENTRIES


def test_the_spec_folder_output_inside_it_is_not_an_input(spec: Path) -> None:
    """A build into a folder inside the spec folder (or next to another such) still hits."""
    first = build(spec, spec / "out-a4")
    build(spec, spec / "out-letter", "--page", "letter")
    assert build(spec, spec / "out-a4") == first
    found = compiled.inputs((spec / "game.yaml").resolve(), BuildOptions(out_dir=spec / "out-a4"))
    assert found is not None and sorted(Path(p).name for p in found) == [
        "art.png",
        "cards.csv",
        "game.yaml",
        "own.ttf",
    ]


def test_no_cache_is_in_the_help() -> None:
    done = CliRunner().invoke(main, ["build", "--help"])
    assert "--no-cache" in done.output and ".pnpforge-cache" in done.output


def test_pnpforge_environment_is_part_of_the_key(
    spec: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A folder of catalogs or fonts named in the environment may change what a build says: a new
    setting, or a changed file in such a folder, is another build."""
    out = tmp_path / "out"
    build(spec, out)
    extra = tmp_path / "catalogs"
    extra.mkdir()
    monkeypatch.setenv("PNPFORGE_LOCALE_DIR", str(extra))
    build(spec, out)
    (extra / "xx.mo").write_bytes(b"not yet a catalog")
    assert build(spec, out) == full_build(spec, tmp_path)
    assert len(entries(out)) == 3


def test_a_warm_build_says_the_same_warnings_and_writes_the_same_pngs(
    make_spec: SpecMaker, tmp_path: Path
) -> None:
    """--draft with a missing picture: the placeholder's warning is said by the warm build too, and the
    PNG pages are the full build's."""
    spec = make_spec(
        SPEC.replace("src: art.png", "src: sketch.png"),
        **{"cards__csv": CSV, "own__ttf": _font("Helvetica")},
    )
    out = tmp_path / "out"
    arguments = ["build", str(spec), "-o", str(out), "--draft", "--format", "pdf,png", "--dpi", "20"]
    said = []
    for _ in range(2):
        done = CliRunner().invoke(main, arguments)
        assert done.exit_code == 0, done.output
        said.append(done.stderr)
        assert len(entries(out)) == 1
    assert "sketch.png" in said[0] and said[1] == said[0]
    full = tmp_path / "full"
    assert CliRunner().invoke(main, [*arguments[:3], str(full), *arguments[4:], "--no-cache"]).exit_code == 0
    pages = sorted(p.name for p in full.iterdir())
    assert len(pages) > 2 and sorted(p.name for p in out.iterdir() if not p.name.startswith(".")) == pages
    for name in pages:
        assert (out / name).read_bytes() == (full / name).read_bytes(), name
