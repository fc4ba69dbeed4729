"""Regression tests for each class of hostile input found by fuzzing (issue 8), through the real CLI.

Each test writes the example input of its class and checks the promise: one located `error:` line
per problem and exit 2 (or a clean build), never a traceback, a hang, a crash or a file read from
outside the spec folder.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner, Result
from pypdf import PdfReader

from pnpforge import limits
from pnpforge.cli import main
from pnpforge.errors import InputError
from pnpforge.sourcefile import check_text, read_yaml

REPO = Path(__file__).resolve().parent.parent
TINY = REPO / "examples" / "tiny-quest"
LOCATED = re.compile(r"^error: [^:\s][^:]*(:\d+:\d+)?: \S")
GODS_SCORE = (
    "game: gods\nplayers:\n  - {name: Ann, villages: 2, vp_cards: 2, temples: 3, crystals: 5}\n"
    "  - {name: Bob, villages: 1, vp_cards: 1, temples: 2, crystals: 7}\n"
)


def png_bytes() -> bytes:
    import io

    from PIL import Image

    out = io.BytesIO()
    Image.new("RGB", (4, 4), (200, 30, 30)).save(out, format="PNG")
    return out.getvalue()


def run(*args: str, cwd: Path | None = None) -> Result:
    if cwd is None:
        return CliRunner().invoke(main, list(args))
    with CliRunner().isolated_filesystem(temp_dir=cwd):
        return CliRunner().invoke(main, list(args))


def errors(result: Result) -> list[str]:
    lines = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert "Traceback" not in result.output
    assert all(LOCATED.match(line) for line in lines), lines
    return lines


def bad(result: Result, pattern: str) -> str:
    """The one error line matching `pattern`; the run must have exited 2 with every error located."""
    assert result.exit_code == 2, result.output
    found = [line for line in errors(result) if re.search(pattern, line)]
    assert found, result.output
    return found[0]


@pytest.fixture
def spec(tmp_path: Path) -> Path:
    folder = tmp_path / "spec"
    shutil.copytree(TINY, folder)
    return folder


def edit(folder: Path, old: str, new: str, name: str = "game.yaml") -> None:
    text = (folder / name).read_text(encoding="utf-8")
    assert old in text
    (folder / name).write_text(text.replace(old, new, 1), encoding="utf-8")


def board_spec(folder: Path, board: str, extra: str = "") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "game.yaml").write_text(
        f"game: {{id: hostile, title: Hostile}}\ncomponents:\n{board}{extra}", encoding="utf-8"
    )
    return folder


# -- numbers ------------------------------------------------------------------------------------------


def test_an_integer_of_5000_digits_is_number_too_large_in_score_and_setup_files(tmp_path: Path) -> None:
    score = tmp_path / "final.yaml"
    score.write_text(GODS_SCORE.replace("crystals: 5", "crystals: 1" + "0" * 5000), encoding="utf-8")
    line = bad(run("score", str(score)), "number too large")
    assert line.startswith(f"error: {score}:3:")
    setup = tmp_path / "board.yaml"
    setup.write_text("game: delphi\nplayers: 1" + "0" * 5000 + "\n", encoding="utf-8")
    assert bad(run("validate", str(setup)), "number too large").startswith(f"error: {setup}:2:10:")


def test_infinite_nan_and_huge_lengths_are_located_errors(spec: Path) -> None:
    edit(spec, "y: 35%, h: 30%", "y: inf%, h: 30%")
    line = bad(run("build", str(spec), "-o", str(spec / "out")), "out of range")
    assert ":37:70:" in line and "'inf%'" in line  # the value of y, not of text
    edit(spec, "y: inf%", "y: 35%")
    edit(spec, "bleed: 3mm", "bleed: 99999999999999999999999mm")
    assert ":12:" in bad(run("inventory", str(spec)), "out of range|number too large")
    edit(spec, "bleed: 99999999999999999999999mm", "bleed: .nan")
    assert ":12:" in bad(run("inventory", str(spec)), "finite number")
    assert not (spec / "out").exists()


@pytest.mark.parametrize("page", ["1e400x297mm", "99999999999999999999x297mm", "5000x297mm", "nanxnan"])
def test_page_argument_out_of_range(spec: Path, page: str) -> None:
    bad(run("inventory", str(spec), "--page", page), "<command line>: page")


def test_each_infinite_number_is_located_at_its_own_key(tmp_path: Path) -> None:
    element = ["- type: text", "  text: x", "  rotate: .nan", "  leading: .inf", "  size: 1e400"]
    text = "  - name: aid\n    kind: sheet\n    face:\n      elements:\n"
    folder = board_spec(tmp_path / "spec", text + "".join(f"        {line}\n" for line in element))
    lines = errors(run("inventory", str(folder)))  # lines 9-11: rotate, leading, size
    assert [line.split(":")[-3:-1] for line in lines] == [["9", "19"], ["11", "17"], ["10", "20"]]
    assert all(line.endswith(("(got nan)", "(got inf)")) and "finite number" in line for line in lines)


def test_board_overlap_nan_or_wider_than_the_page(tmp_path: Path) -> None:
    board = "  - {name: map, kind: board, size: 1999x1999mm, overlap: OVERLAP}\n"
    folder = board_spec(tmp_path / "nan", board.replace("OVERLAP", ".nan"))
    assert ":3:" in bad(run("build", str(folder), "-o", str(tmp_path / "out")), "finite number")
    folder = board_spec(tmp_path / "wide", board.replace("OVERLAP", "200mm"))
    bad(run("build", str(folder), "-o", str(tmp_path / "out")), "overlap '200mm' does not fit the page")
    folder = board_spec(tmp_path / "negative", board.replace("OVERLAP", "-5mm"))
    assert ":3:58:" in bad(
        run("build", str(folder), "-o", str(tmp_path / "out")), "'-5mm' must be zero or more"
    )
    folder = board_spec(tmp_path / "templated", board.replace("OVERLAP", "'{gap}'"))
    assert ":3:58:" in bad(run("inventory", str(folder)), "spacing is one length")


def test_small_rotated_text_with_duplex_test_builds(tmp_path: Path) -> None:
    aid = (
        "  - name: aid\n    kind: sheet\n    face: {elements: [{type: text, text: 'Turn order: roll, move, "
        "trade', size: 3.9pt, rotate: 33, fit: wrap}, {type: text, text: x, size: 3.9pt, rotate: 3599}]}\n"
    )
    folder = board_spec(tmp_path / "aid", aid)
    result = run("build", str(folder), "-o", str(tmp_path / "out"), "--duplex-test")
    assert result.exit_code == 0, result.output
    assert len(PdfReader(tmp_path / "out" / "hostile.pdf").pages) == 4  # cover, duplex test x2, aid


# -- structure ----------------------------------------------------------------------------------------


def test_deep_nesting_is_refused_where_it_passes_the_limit(spec: Path) -> None:
    edit(spec, "  designer: pnpforge example", "  designer: " + "[" * 800 + "]" * 800)
    line = bad(run("inventory", str(spec)), "nested more than 100 levels")
    assert line.startswith(f"error: {spec / 'game.yaml'}:8:")


def test_deep_nesting_does_not_crash_the_yaml_loader(tmp_path: Path) -> None:
    """The segfault class: run in a real process, which a crash would kill (exit -11)."""
    score = tmp_path / "deep.yaml"
    score.write_text("game: gods\nplayers: " + "[" * 50_000 + "]" * 50_000 + "\n", encoding="utf-8")
    deep_json = tmp_path / "deep.json"
    deep_json.write_text('{"game": "gods", "players": ' + "[" * 50_000 + "]" * 50_000 + "}", encoding="utf-8")
    for path in (score, deep_json):
        done = subprocess.run(
            [sys.executable, "-m", "pnpforge", "score", str(path)], capture_output=True, text=True, timeout=60
        )
        assert done.returncode == 2, done.stderr
        assert "Traceback" not in done.stderr
        assert "nested more than 100 levels deep" in done.stderr


def test_alias_bomb_is_refused_at_its_first_offending_alias(tmp_path: Path) -> None:
    lines = ["game: gods", "a: &a [x, x, x, x, x, x, x, x, x]"]
    lines += [f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join([f'*{chr(97 + i)}'] * 9)}]" for i in range(8)]
    bomb = tmp_path / "bomb.yaml"
    bomb.write_text("\n".join(lines) + "\n", encoding="utf-8")
    # values each anchor holds: a 10, b 91, c 820, d 7381, e 66430; the aliases of lines 3-6 copy in
    # 74,718 values, and the first alias of line 7 (`f`) takes the total past limits.ALIAS_VALUES
    assert 74_718 < limits.ALIAS_VALUES < 74_718 + 66_430
    with pytest.raises(InputError) as refused:  # any YAML file: the aliases' guard
        read_yaml(bomb)
    assert str(refused.value.problems[0]).startswith(f"{bomb}:7:8: aliases copy in more than")
    # a score file has a tighter bound of its own on every value, aliases' copies included (line 6: d)
    line = bad(run("score", str(bomb)), "a score file of more than 20,000 values")
    assert line.startswith(f"error: {bomb}:6:")


def test_self_referencing_alias(tmp_path: Path) -> None:
    path = tmp_path / "loop.yaml"
    path.write_text("game: gods\nplayers: &p [1, *p]\n", encoding="utf-8")
    assert ":2:" in bad(run("score", str(path)), r"alias \*p is inside its own anchor")


def test_nul_and_control_characters_are_located(tmp_path: Path) -> None:
    for char, code in (("\x00", "U+0000"), ("\x1b", "U+001B")):
        path = tmp_path / "final.yaml"
        path.write_text(GODS_SCORE.replace("Ann", f"A{char}nn"), encoding="utf-8")
        line = bad(run("score", str(path)), "non-printable character")
        assert line.startswith(f"error: {path}:3:13:") and code in line


def test_file_over_the_size_limit(tmp_path: Path) -> None:
    path = tmp_path / "huge.yaml"
    path.write_text("game: gods\n# " + "x" * (10 * 2**20) + "\n", encoding="utf-8")
    with pytest.raises(InputError, match="file larger than 10 MB"):  # any file
        read_yaml(path)
    bad(run("score", str(path)), "a score file larger than 256 kB")  # a score file's own, tighter bound
    bad(run("validate", str(path)), "a set-up file larger than 512 kB")


# -- encodings ----------------------------------------------------------------------------------------


def test_shift_jis_csv_names_the_first_bad_byte(spec: Path) -> None:
    text = "name,colour,count,power,text\nFire,red,1,2,ok\nWater,blue,1,3,“Deal” 2 damage.\n"
    (spec / "heroes.csv").write_bytes(text.encode("cp932"))  # the curly quote is 0x81 0x67 in CP932
    line = bad(run("inventory", str(spec)), "not UTF-8 text")
    assert line == f"error: {spec / 'heroes.csv'}:3:16: not UTF-8 text (byte 0x81); save it as UTF-8"


def test_utf8_bom_is_accepted(spec: Path, tmp_path: Path) -> None:
    (spec / "heroes.csv").write_bytes(b"\xef\xbb\xbf" + (spec / "heroes.csv").read_bytes())
    assert run("inventory", str(spec)).exit_code == 0
    score = tmp_path / "final.yaml"
    score.write_bytes(b"\xef\xbb\xbf" + GODS_SCORE.encode())
    assert run("score", str(score)).exit_code == 0


def test_latin1_score_file(tmp_path: Path) -> None:
    path = tmp_path / "final.yaml"
    path.write_bytes(GODS_SCORE.replace("Ann", "Zoë").encode("latin-1"))
    assert bad(run("score", str(path)), "not UTF-8").startswith(
        f"error: {path}:3:14: not UTF-8 text (byte 0xeb)"
    )


# -- fonts --------------------------------------------------------------------------------------------


def test_truncated_font(spec: Path, tmp_path: Path) -> None:
    font = tmp_path / "trunc.ttf"
    font.write_bytes(Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf").read_bytes()[:300])
    line = bad(run("build", str(spec), "-o", str(tmp_path / "out"), "--font", str(font)), "TrueType")
    assert line.startswith(f"error: <command line>: --font '{font}': not a usable TrueType font (")
    assert not (tmp_path / "out").exists()
    shutil.copy(font, spec / "trunc.ttf")  # chosen by the spec: said at the line that chose it
    edit(spec, "  lang: en ", "  font: trunc.ttf\n  lang: en ")
    line = bad(run("build", str(spec), "-o", str(tmp_path / "out")), "TrueType")
    number = (spec / "game.yaml").read_text(encoding="utf-8").split("  font: trunc.ttf")[0].count("\n") + 1
    assert line.startswith(
        f"error: {spec / 'game.yaml'}:{number}:9: font 'trunc.ttf': not a usable TrueType font ("
    )


# -- paths --------------------------------------------------------------------------------------------


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    folder = tmp_path / "outside"
    folder.mkdir()
    (folder / "secret.yaml").write_text("items: [{name: SECRET}]\ncells: [[0, 0]]\n", encoding="utf-8")
    (folder / "secret.png").write_bytes(png_bytes())
    shutil.copy("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", folder / "secret.ttf")
    return folder


def test_svg_with_external_href_is_refused_with_its_line(spec: Path, outside: Path, tmp_path: Path) -> None:
    (spec / "art.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="9" '
        'height="9">\n  <rect width="9" height="9"/>\n  <image xlink:href="../../outside/secret.png" '
        'width="9" height="9"/>\n</svg>\n',
        encoding="utf-8",
    )
    edit(
        spec,
        "        - {type: rect, x: 4mm, y: 42mm",
        "        - {type: image, src: art.svg}\n        - {type: rect, x: 4mm, y: 42mm",
    )
    line = bad(run("build", str(spec), "-o", str(tmp_path / "out")), "external reference")
    assert "art.svg:3:10: external reference '../../outside/secret.png' refused" in line


def test_svg_entities_are_refused(spec: Path, tmp_path: Path) -> None:
    (spec / "art.svg").write_text(
        '<?xml version="1.0"?>\n<!DOCTYPE svg [<!ENTITY e SYSTEM "file:///etc/passwd">]>\n'
        '<svg xmlns="http://www.w3.org/2000/svg" width="9" height="9"><text>&e;</text></svg>\n',
        encoding="utf-8",
    )
    edit(
        spec,
        "        - {type: rect, x: 4mm, y: 42mm",
        "        - {type: image, src: art.svg}\n        - {type: rect, x: 4mm, y: 42mm",
    )
    assert "art.svg:2:1: SVG with 'DOCTYPE' refused" in bad(
        run("build", str(spec), "-o", str(tmp_path / "o")), "SVG"
    )


def test_svg_with_embedded_data_image_is_drawn(spec: Path, tmp_path: Path) -> None:
    import base64

    data = base64.b64encode(png_bytes()).decode()
    (spec / "art.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="9" '
        f'height="9"><image xlink:href="data:image/png;base64,{data}" width="9" height="9"/></svg>\n',
        encoding="utf-8",
    )
    edit(
        spec,
        "        - {type: rect, x: 4mm, y: 42mm",
        "        - {type: image, src: art.svg}\n        - {type: rect, x: 4mm, y: 42mm",
    )
    result = run("build", str(spec), "-o", str(tmp_path / "out"))
    assert result.exit_code == 0, result.output
    import pypdfium2

    page = pypdfium2.PdfDocument(tmp_path / "out" / "tiny-quest.pdf")[1].render(scale=0.5).to_pil()
    red, green, blue = page.convert("RGB").getpixel((int(page.width * 0.17), int(page.height * 0.12)))
    assert red > 150 and green < 80 and blue < 80  # the embedded 4x4 red picture, scaled up


def test_broken_png_is_a_located_error(spec: Path, tmp_path: Path) -> None:
    (spec / "art.png").write_bytes(png_bytes()[:45])  # cut inside the picture data
    edit(
        spec,
        "        - {type: rect, x: 4mm, y: 42mm",
        "        - {type: image, src: art.png}\n        - {type: rect, x: 4mm, y: 42mm",
    )
    bad(run("build", str(spec), "-o", str(tmp_path / "out")), "cannot read image 'art.png'")


def rows_from(name: str) -> str:
    return (
        f"  - {{name: secrets, kind: card, size: poker, rows_from: {{data: {name}, list: items}},\n"
        "     face: {elements: [{type: text, text: '{name}'}]}}\n"
    )


def test_rows_from_outside_the_spec_folder(tmp_path: Path, outside: Path) -> None:
    folder = board_spec(tmp_path / "spec", rows_from("../outside/secret.yaml"))
    line = bad(run("inventory", str(folder)), "outside the spec folder")
    assert "--allow-outside-files" in line and line.startswith(f"error: {folder / 'game.yaml'}:3:")
    allowed = run("build", str(folder), "-o", str(tmp_path / "out"), "--allow-outside-files")
    assert allowed.exit_code == 0, allowed.output
    assert "SECRET" in PdfReader(tmp_path / "out" / "hostile.pdf").pages[1].extract_text()


def test_a_link_inside_the_folder_to_a_file_outside_is_refused(tmp_path: Path, outside: Path) -> None:
    folder = board_spec(tmp_path / "spec", rows_from("data.yaml"))
    (folder / "data.yaml").symlink_to(outside / "secret.yaml")
    bad(run("inventory", str(folder)), "'data.yaml' is outside the spec folder")


def refused_outside(tmp_path: Path, name: str, component: str) -> Path:
    """A spec of one component naming ../outside/...: the build must refuse it and write nothing."""
    folder = board_spec(tmp_path / name, component)
    bad(run("build", str(folder), "-o", str(tmp_path / "out")), "outside the spec folder")
    assert not (tmp_path / "out").exists()
    return folder


def test_hexmap_and_polyhex_sources_outside(tmp_path: Path, outside: Path) -> None:
    hexmap = "{type: hexmap, source: {data: ../outside/secret.yaml, list: cells, cells: ''}}"
    refused_outside(
        tmp_path,
        "hexmap",
        f"  - {{name: map, kind: board, size: 100x100mm, face: {{elements: [{hexmap}]}}}}\n",
    )
    cells = "{data: ../outside/secret.yaml, list: items, cells: cells}"
    refused_outside(
        tmp_path, "polyhex", f"  - {{name: isle, kind: tile, shape: polyhex, size: 20mm, cells: {cells}}}\n"
    )


def test_fonts_named_by_the_spec_outside_its_folder(spec: Path, outside: Path, tmp_path: Path) -> None:
    edit(spec, "  lang: en ", "  font: ../outside/secret.ttf\n  lang: en ")
    shutil.move(str(outside), spec.parent / "outside")
    line = bad(run("build", str(spec), "-o", str(tmp_path / "out")), "font")
    assert "outside the spec folder" in line and line.startswith(f"error: {spec / 'game.yaml'}:")
    edit(spec, "  font: ../outside/secret.ttf\n", "")
    edit(spec, "font: sans-bold}", "font: ../outside/secret.ttf}")
    bad(run("build", str(spec), "-o", str(tmp_path / "out")), "outside the spec folder")
    system = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
    edit(spec, "font: ../outside/secret.ttf}", f"font: {system}}}")
    result = run("build", str(spec), "-o", str(tmp_path / "out"))
    assert result.exit_code == 0, result.output  # a system font folder is allowed


def test_allow_outside_images_allows_images_only(tmp_path: Path, outside: Path) -> None:
    image = "[{type: image, src: ../outside/secret.png}]"
    folder = refused_outside(
        tmp_path, "spec", f"  - {{name: pic, kind: card, size: poker, face: {{elements: {image}}}}}\n"
    )
    assert run("build", str(folder), "-o", str(tmp_path / "out"), "--allow-outside-images").exit_code == 0
    assert "--allow-outside-images" in run("build", "--help").output
    hexmap = "{type: hexmap, source: {data: ../outside/secret.yaml, list: cells, cells: ''}}"
    (tmp_path / "second").mkdir()
    shutil.copytree(outside, tmp_path / "second" / "outside")
    board = f"  - {{name: map, kind: board, size: 100x100mm, face: {{elements: [{hexmap}]}}}}\n"
    folder = refused_outside(tmp_path / "second", "map", board)
    for command in (
        ["build", "-o", str(tmp_path / "out2")],
        ["export", "--to", "images", "-o", str(tmp_path / "x")],
    ):
        line = bad(
            run(command[0], str(folder), *command[1:], "--allow-outside-images"), "outside the spec folder"
        )
        assert "secret.yaml" in line  # a hexmap's data file is not an image: still refused
    assert not (tmp_path / "out2").exists()


# -- the last-resort guard ----------------------------------------------------------------------------


@pytest.fixture
def broken_command() -> click.Command:
    @click.command("explode")
    def explode() -> None:
        raise RecursionError("maximum recursion depth exceeded")

    main.add_command(explode)
    yield explode
    del main.commands["explode"]


def test_unexpected_exception_is_one_internal_error_line(broken_command: click.Command) -> None:
    result = CliRunner().invoke(main, ["explode"])
    assert result.exit_code == 3
    assert result.stderr.strip().splitlines() == [
        "internal error: RecursionError: maximum recursion depth exceeded "
        "(please report; --debug shows where)"
    ]
    debug = CliRunner().invoke(main, ["--debug", "explode"])
    assert isinstance(debug.exception, RecursionError)  # re-raised: Python prints the traceback


@pytest.mark.parametrize("command", ["build", "inventory", "score", "validate"])
def test_a_path_the_system_refuses_is_bad_input(command: str) -> None:
    result = run(command, "x" * 300 + "/game.yaml")
    assert result.exit_code == 2, result.output
    assert len(errors(result)) == 1 and "internal error" not in result.output


def test_exactly_the_characters_yaml_does_not_allow_are_refused() -> None:
    """YAML 1.2 (5.1) allows tab, LF, CR, 20-7E, 85, A0-D7FF, E000-FFFD and 10000-10FFFF: every one of them
    passes in one text, and every other code point is refused where it stands."""
    allowed = [(0x09, 0x0A), (0x0D, 0x0D), (0x20, 0x7E), (0x85, 0x85), (0xA0, 0xD7FF), (0xE000, 0xFFFD)]
    allowed.append((0x10000, 0x10FFFF))
    ok = {code for low, high in allowed for code in range(low, high + 1)}
    check_text("".join(map(chr, sorted(ok))), "all.yaml")  # no error
    for code in sorted(set(range(0x10000)) - ok):
        with pytest.raises(InputError, match=f"all.yaml:1:3: non-printable character U\\+{code:04X} "):
            check_text(f"ab{chr(code)}c", "all.yaml")
