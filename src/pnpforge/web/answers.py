"""What a worker hands back to the server and how a problem is shown on the page: the `Answer` (status,
body, type, a file name for a download) and an input error's problems said in the page's language.

The routes, the pages and the sheet all need these; they sit below them so that none of those imports
another to reach them."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from pnpforge.errors import InputError, Problem
from pnpforge.web import text

FORM = "<form>"  # the file name the input layer's messages use for a form field that is not part of a file
NO_FILE = ("", FORM, "<command line>")  # a deal's fields are the page's form, not a command line


@dataclass(frozen=True)
class Answer:
    """What the server sends: an HTML page, or a file to download when `filename` is set; `location`
    makes it a redirect (303: the browser GETs that address, so a reload does not post again)."""

    body: str | bytes
    status: int = 200
    media: str = "text/html; charset=utf-8"
    filename: str = ""
    location: str = ""


def problems(error: InputError, lang: str = "en", game: str | None = None) -> list[dict[str, Any]]:
    """An input error's problems as the page lists them, each said in `lang` (in `game`'s words first,
    when the problems are about one game's file)."""
    return [located(p, lang, game=game) for p in error.problems]


def located(
    problem: Problem, lang: str, field: str | None = None, code: str = "", game: str | None = None
) -> dict[str, Any]:
    """One problem for the page: its message in `lang` (a `Phrase` of the input layer by its template,
    the CLI's English unchanged), and `where` (the message with its place)."""
    said = replace(problem, message=text.translator(game, lang)(problem.message))
    where = said.message if said.file in NO_FILE else str(said)  # a form field: no file to name
    return {"field": field, "code": code, "message": said.message, "where": where}


def said(message: str) -> list[dict[str, Any]]:
    """One message with no file or place: something the server says about the request itself."""
    return [{"field": None, "code": "", "message": message, "where": message}]
