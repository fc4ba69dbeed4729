"""The parsed form of pnpforge's own data files: kept beside them, never stale, never for a user's file."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from pnpforge import parsecache, sourcefile
from pnpforge.errors import InputError

DATA = (
    "cells:\n  - {at: [1, 0], terrain: fertile}\n  - {at: [2, -1], terrain: water, depth: 1.5}\nnote: null\n"
)


@pytest.fixture
def package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A stand-in for the installed package folder, holding one game's data file."""
    root = tmp_path / "pnpforge"
    (root / "games" / "demo").mkdir(parents=True)
    monkeypatch.setattr(parsecache, "PACKAGE_DIR", root.resolve())
    (root / "games" / "demo" / "map.yaml").write_text(DATA, encoding="utf-8")
    return root


def no_parsing(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(text: str, file: str) -> sourcefile.Source:
        raise AssertionError(f"{file} was parsed again")

    monkeypatch.setattr(sourcefile, "read_yaml_text", refuse)


def test_a_package_file_is_parsed_once_then_read_from_its_cache(
    package: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = package / "games" / "demo" / "map.yaml"
    first = sourcefile.read_yaml(path).data
    assert (path.parent / "__pycache__" / "map.yaml.json").is_file()
    no_parsing(monkeypatch)
    again = sourcefile.read_yaml(path)
    assert (
        again.data
        == first
        == {
            "cells": [
                {"at": [1, 0], "terrain": "fertile"},
                {"at": [2, -1], "terrain": "water", "depth": 1.5},
            ],
            "note": None,
        }
    )
    assert again.where(("cells", 1, "terrain")) == (3, 28)  # positions still come from the text


def test_an_edited_file_is_parsed_again_never_served_stale(package: Path) -> None:
    path = package / "games" / "demo" / "map.yaml"
    sourcefile.read_yaml(path)
    path.write_text(DATA.replace("fertile", "desert"), encoding="utf-8")
    assert sourcefile.read_yaml(path).data["cells"][0]["terrain"] == "desert"
    path.write_text("cells: [1, 2\n", encoding="utf-8")  # a designer's slip is still reported at its line
    with pytest.raises(InputError) as raised:
        sourcefile.read_yaml(path)
    assert raised.value.problems[0].file == str(path)
    assert raised.value.problems[0].line >= 1


def test_a_damaged_cache_is_ignored_and_rewritten(package: Path) -> None:
    path = package / "games" / "demo" / "map.yaml"
    sourcefile.read_yaml(path)
    cache = path.parent / "__pycache__" / "map.yaml.json"
    cache.write_text('{"key": "1:abc", "data": {"cells": [', encoding="utf-8")
    assert sourcefile.read_yaml(path).data["cells"][1]["depth"] == 1.5
    assert parsecache.load(cache, DATA) is not parsecache.MISSING


def test_a_user_file_is_never_cached(package: Path, tmp_path: Path) -> None:
    mine = tmp_path / "mine" / "setup.yaml"
    mine.parent.mkdir()
    mine.write_text(DATA, encoding="utf-8")
    sourcefile.read_yaml(mine)
    assert sorted(p.name for p in mine.parent.iterdir()) == ["setup.yaml"]
    assert parsecache.cache_file(mine) is None


def test_a_read_only_install_parses_every_time(package: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(path: Path, *args: object, **kwargs: object) -> int:
        raise PermissionError(13, "Permission denied", str(path))

    monkeypatch.setattr(Path, "write_text", refuse)  # as on a read-only install (root would write anyway)
    folder = package / "games" / "demo"
    parsed: list[str] = []
    real = sourcefile.read_yaml_text
    monkeypatch.setattr(
        sourcefile,
        "read_yaml_text",
        lambda text, file, kind="": parsed.append(file) or real(text, file, kind),
    )
    for _ in range(2):
        assert sourcefile.read_yaml(folder / "map.yaml").data["note"] is None
    assert len(parsed) == 2
    assert [p.name for p in (folder / "__pycache__").iterdir()] == []  # no cache, no partial file


def test_a_cache_that_cannot_be_written_is_left_alone(package: Path) -> None:
    path = package / "games" / "demo" / "map.yaml"
    (path.parent / "__pycache__").write_text("not a folder", encoding="utf-8")  # mkdir and write fail
    assert sourcefile.read_yaml(path).data["cells"][0]["at"] == [1, 0]
    assert (path.parent / "__pycache__").read_text(encoding="utf-8") == "not a folder"


def test_the_bundled_games_read_the_same_from_the_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    files = sorted(parsecache.PACKAGE_DIR.glob("games/*/*.yaml"))
    assert len(files) >= 10
    parsed = {
        path: sourcefile.read_yaml_text(path.read_text(encoding="utf-8"), str(path)).data for path in files
    }
    for path in files:
        sourcefile.read_yaml(path)  # writes the cache where it was missing
    no_parsing(monkeypatch)
    for path in files:
        assert sourcefile.read_yaml(path).data == parsed[path], path


# -- a fact drawn from a data file (parsecache.derived): kit.copies' counts, a game's player range -----


def _counting(seen: list[str], path: Path) -> Callable[[], int]:
    def make() -> int:
        seen.append("made")
        return len(sourcefile.read_yaml(path).data["cells"])

    return make


def test_a_fact_is_made_once_then_read_and_made_again_when_its_file_changes(package: Path) -> None:
    path = package / "games" / "demo" / "map.yaml"
    seen: list[str] = []
    make = _counting(seen, path)
    assert parsecache.derived(path, "cells", make) == 2
    assert (path.parent / "__pycache__" / "map.yaml.cells.json").is_file()
    assert parsecache.derived(path, "cells", make) == 2
    assert seen == ["made"]  # the second answer was read, not made
    edited = DATA.replace("note: null\n", "  - {at: [0, 0], terrain: desert}\n")
    path.write_text(edited, encoding="utf-8")  # another text: made again, never stale
    assert parsecache.derived(path, "cells", make) == 3
    assert seen == ["made", "made"]


def test_a_fact_of_a_user_file_is_made_every_time(package: Path, tmp_path: Path) -> None:
    path = tmp_path / "mine.yaml"
    path.write_text(DATA, encoding="utf-8")
    seen: list[str] = []
    make = _counting(seen, path)
    assert [parsecache.derived(path, "cells", make) for _ in range(2)] == [2, 2]
    assert seen == ["made", "made"] and not (tmp_path / "__pycache__").exists()


def test_a_fact_that_cannot_be_made_raises_and_nothing_is_kept(package: Path) -> None:
    path = package / "games" / "demo" / "map.yaml"
    path.write_text("cells: [unclosed\n", encoding="utf-8")
    with pytest.raises(InputError):
        parsecache.derived(path, "cells", lambda: sourcefile.read_yaml(path).data)
    assert not (path.parent / "__pycache__" / "map.yaml.cells.json").exists()
