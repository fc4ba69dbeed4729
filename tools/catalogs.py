"""pnpforge's message catalogs, kept with Babel: extract, update, compile, check, pseudo, union.

    python tools/catalogs.py update          # re-extract the ids from src/, merge into every locale/*.po
    python tools/catalogs.py compile [PO...]  # .po -> .mo beside it (make does this; so does a wheel build)
    python tools/catalogs.py check           # exit 1 while a .po misses, or has left-over, ids
    python tools/catalogs.py pseudo DIR      # DIR/xx.mo: every message wrapped «…» and accented
    python tools/catalogs.py union A.po B.po -o OUT.po   # a merge conflict in a .po: keep both sides

Message ids are the English texts marked with `N_(...)` in src/pnpforge (see pnpforge/i18n.py); those
under games/<id>/ get the game's id as context, and so do the texts of a bundled game's rules written as
data (its game.yaml's `scoring:` and `setup:` sections, docs/scoring.md and docs/setups.md). The .po
files are written sorted and without line numbers, so two branches adding messages touch different lines
and a moved message changes nothing.
Needs Babel (the `test` extra); pnpforge itself reads the compiled .mo with the standard library.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Iterable
from datetime import datetime
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "pnpforge"
LOCALE = PACKAGE / "locale"
KEYWORDS = {"N_": None}  # N_(text): the only marker; a message is always a literal where it is written
METHODS = [("**/.venv/**", "ignore"), ("**.py", "python")]
FIXED_DATE = datetime(2026, 1, 1)  # .po headers stay byte-stable between runs (no churn, no conflicts)
GAME_FILE = re.compile(r"games/(?P<game>[^/]+)/")
PSEUDO = "xx"
_ACCENTS = str.maketrans("aceinouyACEINOUY", "àçéîñöûýÀÇÉÎÑÖÛÝ")
_PLACEHOLDER = re.compile(r"(\{[^{}]*\})")


def extract() -> Catalog:
    """Every marked message in src/pnpforge, a game's with its id as context."""
    template = _catalog(None)
    for filename, lineno, message, _comments, _context in extract_from_dir(
        PACKAGE, METHODS, KEYWORDS, comment_tags=(), strip_comment_tags=True
    ):
        if not isinstance(message, str) or not message:
            continue
        game = GAME_FILE.match(filename.replace("\\", "/"))
        context = game["game"] if game else None
        flags = ("python-brace-format",) if _PLACEHOLDER.search(message) else ()
        template.add(message, locations=[(filename, lineno)], context=context, flags=flags)
    for game, filename, lineno, message in _data_texts():
        flags = ("python-brace-format",) if _PLACEHOLDER.search(message) else ()
        template.add(message, locations=[(filename, lineno)], context=game, flags=flags)
    return template


def _data_texts() -> Iterable[tuple[str, str, int, str]]:
    """(game id, file, line, English text) of every text a bundled game's rules as data say."""
    from pnpforge.components.gamerules import ScoringSection, scoring_texts
    from pnpforge.components.setuprules import SetupSection, setup_texts
    from pnpforge.sourcefile import read_yaml, validate

    for spec in sorted((PACKAGE / "games").glob("*/game.yaml")):
        source = read_yaml(spec)
        filename = spec.relative_to(PACKAGE).as_posix()
        for key, model, said in (
            ("scoring", ScoringSection, scoring_texts),
            ("setup", SetupSection, setup_texts),
        ):
            if isinstance(source.data, dict) and key in source.data:
                section: Any = validate(model, source, (key,))  # type: ignore[arg-type]
                line = source.where((key,))[0]
                for text, _ in said(section):
                    if text:
                        yield spec.parent.name, filename, line, text


HEADER = """\
# pnpforge's own words (the CLI, the table page, set-up pictures, sheets and the bundled games' rules).
# Ids are the English texts; {name} placeholders are filled in by pnpforge and must stay as they are.
# A new language: docs/translating.md."""


def _catalog(locale: str | None) -> Catalog:
    return Catalog(
        locale=locale,
        header_comment=HEADER,
        project="pnpforge",
        version="",
        msgid_bugs_address="",
        last_translator="pnpforge",
        language_team="pnpforge",
        creation_date=FIXED_DATE,
        revision_date=FIXED_DATE,
        fuzzy=False,
    )


def read(path: Path) -> Catalog:
    with path.open("rb") as file:
        return read_po(file)


def write(catalog: Catalog, path: Path) -> None:
    catalog.creation_date = catalog.revision_date = FIXED_DATE
    catalog.header_comment = HEADER
    catalog.project, catalog.version, catalog.msgid_bugs_address = "pnpforge", "", ""
    catalog.last_translator = catalog.language_team = "pnpforge"
    with path.open("wb") as file:
        write_po(file, catalog, width=100, no_location=True, sort_output=True, ignore_obsolete=True)


def sources(paths: Iterable[str] = ()) -> list[Path]:
    return [Path(p) for p in paths] or sorted(LOCALE.glob("*.po"))


def update() -> None:
    """Merge the extracted ids into every .po: new ids come untranslated (an edited sentence comes
    fuzzy, its old translation shown as a hint), ids no longer in the code leave."""
    template = extract()
    for path in sources():
        catalog = read(path)
        catalog.update(template, update_header_comment=False)
        write(catalog, path)
        print(f"{path.relative_to(ROOT)}: {_counts(catalog)}")


def compile_(paths: Iterable[str] = ()) -> None:
    for path in sources(paths):
        catalog = read(path)
        with path.with_suffix(".mo").open("wb") as file:
            write_mo(file, catalog, use_fuzzy=False)


def missing(catalog: Catalog, template: Catalog) -> tuple[list[str], list[str]]:
    """Ids the code says that `catalog` does not translate, and ids it holds that the code no longer says."""
    wanted = {(m.id, m.context) for m in template if m.id}
    have = {(m.id, m.context): m for m in catalog if m.id}
    untranslated = [_name(k) for k in sorted(wanted, key=str) if not _done(have.get(k))]
    left_over = [_name(k) for k in sorted(set(have) - wanted, key=str)]
    return untranslated, left_over


def _done(message: Message | None) -> bool:
    return message is not None and not message.fuzzy and bool(message.string)


def _name(key: tuple[object, str | None]) -> str:
    msgid, context = key
    return f"[{context}] {msgid!r}" if context else repr(msgid)


def _counts(catalog: Catalog) -> str:
    messages = [m for m in catalog if m.id]
    done = sum(_done(m) for m in messages)
    return f"{done} of {len(messages)} translated"


def check() -> int:
    template = extract()
    status = 0
    for path in sources():
        untranslated, left_over = missing(read(path), template)
        for name in untranslated:
            print(f"{path.name}: not translated: {name}")
        for name in left_over:
            print(f"{path.name}: no longer in the code: {name}")
        status |= bool(untranslated or left_over)
    return status


def pseudo_text(english: str) -> str:
    """«…»-wrapped, accented English, placeholders kept: what the `xx` pseudo-locale says."""
    if not re.search(r"[A-Za-z]", english):
        return english  # punctuation (a list's ", ") stays as it is
    parts = _PLACEHOLDER.split(english)
    return "«" + "".join(p if p.startswith("{") else p.translate(_ACCENTS) for p in parts) + "»"


def pseudo(folder: Path) -> Path:
    template = extract()
    catalog = _catalog(PSEUDO)
    for message in template:
        if message.id:
            catalog.add(message.id, pseudo_text(str(message.id)), context=message.context)
    folder.mkdir(parents=True, exist_ok=True)
    out = folder / f"{PSEUDO}.mo"
    with out.open("wb") as file:
        write_mo(file, catalog)
    return out


def union(first: Path, second: Path, out: Path) -> None:
    """Both sides of a conflicted .po: every translation either has (the first wins where both do)."""
    merged = read(second)
    for message in read(first):
        if message.id and _done(message):
            merged.delete(message.id, context=message.context)  # Babel would keep the second's text
            merged[message.id] = message
    write(merged, out)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("update")
    sub.add_parser("compile").add_argument("po", nargs="*")
    sub.add_parser("check")
    sub.add_parser("pseudo").add_argument("folder", type=Path)
    joined = sub.add_parser("union")
    joined.add_argument("first", type=Path)
    joined.add_argument("second", type=Path)
    joined.add_argument("-o", "--out", type=Path, required=True)
    args = parser.parse_args(argv)
    if args.command == "update":
        update()
    elif args.command == "compile":
        compile_(args.po)
    elif args.command == "check":
        return check()
    elif args.command == "pseudo":
        print(pseudo(args.folder))
    else:
        union(args.first, args.second, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
