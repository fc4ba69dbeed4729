"""The one place the page asks a game for its hooks (`pnpforge.contract`: dealer, set-up rules, scorer)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import NamedTuple

from pnpforge import catalog, contract
from pnpforge.contract import Dealer
from pnpforge.i18n import N_
from pnpforge.phrase import Phrase

# a typed option's values beside it (Gods' gods: 赤(red)、青(blue)…): each value's word, then the key typed
TYPED = N_("to type: {values}")
TYPED_WORD = N_("{word} ({value})")


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


def option_value(the_dealer: Dealer | None, key: str, value: str, tr: Callable[[str], str]) -> str:
    """What the page says for a value of a deal option, said with `tr`: the dealer's word for it (its
    `values`), else the game's word for the value ("true" -> "Yes (8 tasks)", "OldKingdom" -> "Old
    Kingdom", a Gods colour -> 赤 in Japanese). The form still sends the value itself."""
    word = the_dealer.values.get(key, {}).get(value) if the_dealer is not None else None
    return tr(word or value)


class Option(NamedTuple):
    """A deal option on the page's form: its key, its label, and its values with their words (a
    picker's, in order; for a typed option, the ones its dealer lists: `typed` says them). `seats`: a
    picker per seat (the dealer's `seats`), their values sent in seat order."""

    key: str
    label: str
    values: list[tuple[str, str]]
    picker: bool
    typed: str = ""
    seats: bool = False


def option_pickers(the_dealer: Dealer | None, tr: Callable[[str], str]) -> list[Option]:
    """A dealer's options, each with its label and its values' words said with `tr`: a picker when the
    dealer says what values it takes (`choices`), else typed, with the values its `values` lists; a
    picker per seat for one of its `seats`."""
    if the_dealer is None:
        return []
    choices = the_dealer.choices()
    options = []
    for key in the_dealer.options:
        picker = key in choices
        keys = list(choices[key]) if picker else list(the_dealer.values.get(key, {}))
        values = [(value, option_value(the_dealer, key, value, tr)) for value in keys]
        typed = "" if picker or not values else tr(Phrase(TYPED, values=[_typed(v, w) for v, w in values]))
        label = option_label(the_dealer, key, tr)
        options.append(Option(key, label, values, picker, typed, picker and key in the_dealer.seats))
    return options


def _typed(value: str, word: str) -> str:
    return value if word == value else Phrase(TYPED_WORD, word=word, value=value)  # plain: said as it is


def setup_words(game: catalog.GameFolder, lang: str) -> Callable[[str], str]:
    """A set-up file's keys and word values in `lang`, in the game's words (its dealer's `terms`)."""
    found = contract.of(game)
    tr, the_dealer = found.translator(lang), dealer(game)
    return lambda word: tr(the_dealer.word(word) if the_dealer is not None else word)
