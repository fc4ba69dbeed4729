"""The one place the page asks a game for its hooks (`pnpforge.contract`: dealer, set-up rules, scorer)."""

from __future__ import annotations

from collections.abc import Callable

from pnpforge import catalog, contract
from pnpforge.contract import Dealer


def dealer(game: catalog.GameFolder) -> Dealer | None:
    """The game's set-up dealer, or None."""
    found = contract.of(game)
    return found.dealer() if found.deal is not None else None


def can_check(game: catalog.GameFolder) -> bool:
    return contract.of(game).setup is not None


def can_score(game: catalog.GameFolder) -> bool:
    return contract.of(game).score is not None


def option_names(the_dealer: Dealer | None) -> tuple[str, ...]:
    return the_dealer.options if the_dealer is not None else ()


def option_pickers(the_dealer: Dealer | None) -> list[tuple[str, list[str]]]:
    """A dealer's options with the values each may take (empty: free text)."""
    if the_dealer is None:
        return []
    choices = the_dealer.choices()
    return [(name, list(choices.get(name, []))) for name in the_dealer.options]


def setup_words(game: catalog.GameFolder, lang: str) -> Callable[[str], str]:
    """A set-up file's keys and word values in `lang`, in the game's words (its dealer's `terms`)."""
    found = contract.of(game)
    tr, the_dealer = found.translator(lang), dealer(game)
    return lambda word: tr(the_dealer.word(word) if the_dealer is not None else word)
