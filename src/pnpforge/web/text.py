"""The page's own words, each an English message said through the catalogs (pnpforge/i18n.py).

The templates use short keys (`t.deal`); each key's value is an `N_` message, so `make catalogs`
finds it and every language's `.po` says it. A game's own texts (its rules, score rows, verdicts) are
said with the game's translator (`translator`), which knows the game's words before the engine's.

The language is the `lang` query or form field when it names a language with a catalog, else the first
such language the browser's Accept-Language names, else English (`pick`): a new `.po` is a new choice.
"""

from __future__ import annotations

from collections.abc import Callable

from pnpforge import contract, i18n
from pnpforge.i18n import N_
from pnpforge.phrase import Phrase

__all__ = ["WORDS", "languages", "pick", "said", "translator", "words"]

WORDS: dict[str, str] = {
    "games": N_("Games"),
    "players": N_("{span} players"),
    "setup": N_("Set-up"),
    "score": N_("Score"),
    "print": N_("Print"),
    "player_count": N_("Players"),
    "seed": N_("Seed (blank: random)"),
    "seed_field": N_("Seed"),  # the seed field named in a message about its value
    "option_hint": N_("blank: the game's default"),
    "option_default": N_("(the game's default)"),
    "seats_hint": N_("— at every seat: the game's default"),  # a picker per seat (Gods' gods), left at —
    "seat_number": N_("Seat {number}"),
    "deal": N_("Deal"),
    "dealt": N_("Dealt with seed"),
    "steps": N_("What goes where"),
    "check": N_("Check"),
    "setup_file": N_("Set-up file (paste, edit or upload)"),
    "upload": N_("or upload a file"),
    "download": N_("Download"),
    "legal": N_("Legal set-up"),
    "violations": N_("{count} rule violation(s)"),
    "warnings": N_("{count} warning(s)"),
    "not_marked": N_("not on the picture"),
    "player_number": N_("Player {number}"),
    "name": N_("Name"),
    "add_player": N_("+ Player"),
    "remove_player": N_("− Player"),
    "total": N_("Total"),
    "place": N_("Place"),
    "count": N_("Count"),
    "round": N_("Round"),
    "next_round": N_("Next round (carry totals)"),
    "share": N_("Share"),
    "score_file": N_("Score file (YAML)"),
    "table_png": N_("Table (PNG)"),
    "table_pdf": N_("Table (PDF)"),
    "load_score": N_("Continue from a score file"),
    "load": N_("Load"),
    "more": N_("More"),
    "fix": N_("Fix these first"),
    "component": N_("Component"),
    "pieces": N_("pieces"),
    "sheets": N_("sheets"),
    "paper": N_("Paper"),
    "language": N_("Language"),
    "duplex": N_("Double-sided"),
    "duplex_long": N_("flip on long edge"),
    "duplex_short": N_("flip on short edge"),
    "build": N_("Build PDF"),
    "build_wait": N_("Building… one build at a time per game"),
    "pages": N_("{count} pages"),
    "error": N_("Cannot use this input"),
    "back": N_("All games"),
    "no_js": N_("Totals update as you type."),
    "offline": N_("Offline: totals are not updating. Your numbers are kept; press Count when back online."),
    "whole_board": N_("Whole board"),
    "zoom_board": N_("Zoom in to read the labels"),
    "board": N_("Board (tap to zoom in or out)"),
    "fill_in": N_("Fill in the counts to see the totals."),
    "none": N_("none"),  # a dealt set-up's empty list, or a piece of no player, in the written steps
    "stopped": N_("This took longer than {seconds} s and was stopped. Try a smaller file."),
    "build_stopped": N_("the build took longer than {seconds} s and was stopped"),
    "busy": N_("The server is busy with your other large checks. Try again when they are done."),
    "cross_site": N_("Refused: this request came from another site's page, not from this page."),
    "server_stopping": N_("The server is stopping; this request was not finished. Start it again to go on."),
    "failed": N_("Something went wrong on the server; nothing was changed. Please try again."),
    "bad_choice": N_("{key} {value!r}: expected one of {allowed}"),
    "no_file": N_("no such file"),
    "not_found": N_("Not Found"),  # Starlette's words for an address the page does not have
    "not_allowed": N_("Method Not Allowed"),  # ... and for a GET where only a POST is answered
    "too_large": N_("request body larger than {size} kB (expected a set-up or score file)"),
    "body_late": N_("the request body did not arrive within {seconds} s"),
    "form_encoding": N_("cannot read the form: not UTF-8 text"),
    "tick": N_("tick “{label}”"),  # a sheet's box named where a rule says "give `final: true`"
    # a component's kind in the inventory, the paper sizes and the PDF languages, as the pickers show them
    "kind:board": N_("board"),
    "kind:card": N_("card"),
    "kind:die": N_("die"),
    "kind:sheet": N_("sheet"),
    "kind:tile": N_("tile"),
    "kind:token": N_("token"),
    "paper:a4": N_("a4"),
    "paper:letter": N_("letter"),
    "lang:en": N_("en"),  # the name of English in the PDF language picker
    "lang:ja": N_("ja"),  # the name of Japanese in the PDF language picker
    # a table: one sheet shared by every phone that opens its address (web/tables.py)
    "start_table": N_("Start a table (one sheet on every phone)"),
    "table": N_("Table {code}"),
    "table_hint": N_("Every phone that opens this address sees and edits the same sheet."),
    "save": N_("Save and count"),
    "undo": N_("Undo the last change"),
    "game_over": N_("Game over (record the play)"),
    "closed": N_("Game over: recorded as play {play}."),
    "closed_plain": N_("Game over: this table is closed."),
    "no_table": N_("no table {code}"),
    "table_closed": N_("this table is closed (game over): its sheet no longer changes"),
    "changed_elsewhere": N_("changed on another phone to {value}"),
    "replaced": N_("you replaced {value}, typed on another phone"),
    "plays": N_("Plays"),
    "plays_of": N_("Plays of {game}"),
    "no_plays": N_("No plays recorded yet."),
    "live": N_("Saved; other phones see changes within a second."),
    "faction": N_("Faction (e.g. the colour taken)"),
}


def languages() -> tuple[str, ...]:
    """The languages the page speaks: English and every compiled catalog."""
    return i18n.languages()


def words(lang: str) -> dict[str, str]:
    """The page's words in `lang`, by key (a template with `{placeholders}` is filled by `said`)."""
    say = i18n.translator(lang)
    return {key: say(message) for key, message in WORDS.items()}


def said(key: str, lang: str, /, **values: object) -> str:
    """One of the page's sentences in `lang`, its `{placeholders}` filled in (a value that is a Phrase
    is said in `lang` too)."""
    message = WORDS[key]
    return i18n.translator(lang)(Phrase(message, **values) if values else message)


def translator(game_id: str | None, lang: str) -> Callable[[str], str]:
    """A game's texts in `lang`: its own words first (its catalog domain, the names its data prints),
    then the engine's; the engine's alone for no game."""
    return contract.load(game_id).translator(lang) if game_id is not None else i18n.translator(lang)


def pick(asked: str | None, accept_language: str) -> str:
    """`asked` when it is a language the page has, else the browser's first such language, else English."""
    known = languages()
    if asked in known:
        return str(asked)
    for part in accept_language.split(","):
        code = part.split(";")[0].strip().lower()
        for candidate in (code, code[:2]):
            if candidate in known:
                return candidate
    return i18n.SOURCE
