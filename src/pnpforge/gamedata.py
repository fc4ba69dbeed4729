"""A game whose rules are data: the score and set-up hooks of a game.yaml's `scoring:` and `setup:` sections.

A game folder with no Python gets them from its game.yaml alone (`game(folder)`); a bundled game whose
score sheet or set-up rules moved to data builds its hooks here too (`scorer`, `setup_rules`), so both
reach the engines the same way (docs/scoring.md, docs/setups.md). The engines are scoring/datasheet.py
and validator/rulebook.py; this module only plugs them into the game contract.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pnpforge import catalog
from pnpforge.contract import BoardCounts, Dealer, Game, Scorer, SetupRules
from pnpforge.errors import InputError, Problem

if TYPE_CHECKING:
    from pnpforge.validator.rulebook import Rulebook

__all__ = [
    "data_dealer",
    "data_names",
    "data_rules",
    "data_scorer",
    "data_setup",
    "game",
    "has_rules",
    "rules_problems",
]


def _folder(game_id: str, folder: Path) -> catalog.GameFolder:
    return catalog.GameFolder(game_id, folder, bundled=False)


def has_rules(folder: Path) -> tuple[bool, bool]:
    """Whether the folder's game.yaml has a `scoring:` and a `setup:` section (a line that starts so)."""
    if not (folder / catalog.SPEC_NAME).is_file():
        return False, False
    found = _folder(folder.name, folder)
    return catalog.has_block(found, "scoring"), catalog.has_block(found, "setup")


def rules_problems(folder: Path) -> list[Problem]:
    """The problems of the folder's game.yaml `scoring:` and `setup:` sections, each located, read by the
    loaders `score` and `setup` use (datasheet.load, rulebook.load); [] when it has neither section (read
    but not parsed: a spec with no rules section pays nothing) or both are sound. `build` says them as
    warnings: the print is fine, the score sheet or set-up rules are not."""
    scores, sets_up = has_rules(folder)
    found: list[Problem] = []
    if scores:
        from pnpforge.scoring import datasheet

        try:
            datasheet.load(_folder(folder.name, folder))
        except InputError as error:
            found += error.problems
    if sets_up:
        from pnpforge.validator import rulebook

        try:
            rulebook.load(_folder(folder.name, folder))
        except InputError as error:
            found += error.problems
    return found


def data_scorer(
    game_id: str, folder: Path, board: BoardCounts | Callable[[], BoardCounts] | None = None
) -> Callable[[], Scorer[Any]]:
    """The `score` hook of a game whose score sheet is its game.yaml's `scoring:` section; `board`, the
    game's Python that counts some fields from a board state given instead (geometry), or a function
    making it when the sheet is first used (when its `fields` are typed by the game's module)."""

    def hook() -> Scorer[Any]:
        from pnpforge.scoring import datasheet  # a hook loads its engine when a command first needs it

        sheet = datasheet.load(_folder(game_id, folder))
        if sheet is None:
            raise InputError.single(
                str(folder / catalog.SPEC_NAME), "the game.yaml has no `scoring:` section"
            )
        if board is None:
            return Scorer(sheet.model, sheet.score, sheet.fields)
        counts = board if isinstance(board, BoardCounts) else board()
        return Scorer(sheet.model_with(counts), sheet.counting(counts), sheet.fields)

    return hook


def data_setup(game_id: str, folder: Path) -> Callable[[], SetupRules[Any]]:
    """The `setup` hook of a game whose set-up rules are its game.yaml's `setup:` section."""

    def hook() -> SetupRules[Any]:
        from pnpforge.validator import rulebook

        book = rulebook.load(_folder(game_id, folder))
        if book is None:
            raise InputError.single(str(folder / catalog.SPEC_NAME), "the game.yaml has no `setup:` section")
        return SetupRules(book.model, book.check, picture=book.picture)

    return hook


def data_rules(game_id: str, folder: Path) -> Rulebook:
    """The game.yaml's `setup:` rules, checked, for a game whose own code reads its set-up file or builds
    its board: it hands them a `SetupTable` (`judge(table, report)`), as Good Shepherds and Delphi do."""
    from pnpforge.validator import rulebook

    book = rulebook.load(_folder(game_id, folder))
    if book is None:
        raise InputError.single(str(folder / catalog.SPEC_NAME), "the game.yaml has no `setup:` section")
    return book


def data_dealer(game_id: str, folder: Path) -> Callable[[], Dealer]:
    """The `deal` hook of a data set-up: the printed starting pieces (`fixed` rules), nothing random."""

    def hook() -> Dealer:
        from pnpforge.validator import rulebook

        book = rulebook.load(_folder(game_id, folder))
        if book is None:
            raise InputError.single(str(folder / catalog.SPEC_NAME), "the game.yaml has no `setup:` section")
        return Dealer(book.deal)

    return hook


def data_names(
    game_id: str, folder: Path, own: Callable[[str], Mapping[str, str]] | None = None
) -> Callable[[str], Mapping[str, str]]:
    """The game's texts in a language: its sections' own (`{en: ..., ja: ...}`), then `own`'s."""

    def said(lang: str) -> Mapping[str, str]:
        from pnpforge.scoring import datasheet
        from pnpforge.validator import rulebook

        found = _folder(game_id, folder)
        words: dict[str, str] = dict(own(lang)) if own else {}
        try:
            sheet, book = datasheet.load(found), rulebook.load(found)
        except InputError:
            return words  # a broken section is reported where it is used, not while naming words
        if sheet is not None:
            words.update(datasheet.words(sheet.section, lang))
        if book is not None:
            words.update(rulebook.words(book.section, lang))
        return words

    return said


def game(game_id: str, folder: Path) -> Game:
    """A game folder with no Python: its hooks are the game.yaml's rules sections (none: print only)."""
    scores, sets_up = has_rules(folder)
    return Game(
        game_id,
        folder,
        setup=data_setup(game_id, folder) if sets_up else None,
        deal=data_dealer(game_id, folder) if sets_up else None,
        score=data_scorer(game_id, folder) if scores else None,
        names=data_names(game_id, folder) if scores or sets_up else None,
    )
