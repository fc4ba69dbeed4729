"""The one place the page asks a game for its hooks (`pnpforge.contract`: dealer, set-up rules, scorer)."""

from __future__ import annotations

import re
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


def option_label(the_dealer: Dealer | None, key: str, tr: Callable[[str], str]) -> str:
    """What the page calls a deal option, said with `tr` (the game's words in the page's language): the
    dealer's label for it; a key it gives none is the game's word for the key, else the key made readable
    (`max_rounds` -> "Max rounds")."""
    label = the_dealer.labels.get(key) if the_dealer is not None else None
    if label:
        return tr(label)
    said = tr(key)
    if said != key:
        return said
    readable = re.sub(r"[_-]+", " ", key).strip()
    return readable[:1].upper() + readable[1:] if readable else key


def option_pickers(the_dealer: Dealer | None, tr: Callable[[str], str]) -> list[tuple[str, str, list[str]]]:
    """A dealer's options, each with its label said with `tr` and the values it may take (empty: free
    text)."""
    if the_dealer is None:
        return []
    choices = the_dealer.choices()
    return [
        (name, option_label(the_dealer, name, tr), list(choices.get(name, []))) for name in the_dealer.options
    ]


def setup_words(game: catalog.GameFolder, lang: str) -> Callable[[str], str]:
    """A set-up file's keys and word values in `lang`, in the game's words (its dealer's `terms`)."""
    found = contract.of(game)
    tr, the_dealer = found.translator(lang), dealer(game)
    return lambda word: tr(the_dealer.word(word) if the_dealer is not None else word)
