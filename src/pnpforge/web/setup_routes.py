"""Set-up routes: deal a set-up, check a pasted or uploaded one, hand a set-up file back.

Each route reads its form on the event loop and does the rest (YAML, the check, the board picture,
the page) in a worker (`work.Pool`) with a deadline.
"""

from __future__ import annotations

import re
import secrets
from typing import Any
from urllib.parse import urlencode

from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from pnpforge import catalog
from pnpforge.errors import InputError
from pnpforge.i18n import N_
from pnpforge.web import board, forms, hooks, pages, text, work
from pnpforge.web.serving import posted_page, run

EMPTY = N_("empty set-up file (expected e.g. 'game: delphi')")

# -- work done in a worker ---------------------------------------------------------------------------


def dealt(game: catalog.GameFolder, form: dict[str, str], lang: str) -> dict[str, Any]:
    low, _ = catalog.players_range(game)
    players = forms.whole(form, "players", "player_count", low)
    seed = forms.whole(form, "seed", "seed_field")
    if seed is None:
        seed = secrets.randbelow(10**9)  # a fresh seed, shown so the deal can be repeated
    dealer = hooks.dealer(game)
    options = {
        key: form[f"opt:{key}"].strip()
        for key in hooks.option_names(dealer)
        if form.get(f"opt:{key}", "").strip()
    }
    file_text, data = board.deal(game.id, players or 0, seed, options)
    checked = board.check(file_text, game.id, lang=lang, spots=True)  # the steps' cells found on the board
    return {
        "seed": seed,
        "players": players,
        "chosen": options,
        "checked": checked,
        "steps": board.steps(data, hooks.setup_words(game, lang), lang),
    }


# a flag, and an option's value written after it unquoted (`--option short=true`: a value it takes; a
# quoted one, `short='maybe'`, is what was typed and stays so)
_FLAG = re.compile(r"(?:'--|--)(option |)([A-Za-z][\w-]*)'?(?:=([\w-]+)\b(?!'))?")


def field_words(problems: list[dict[str, Any]], game: catalog.GameFolder, lang: str) -> list[dict[str, Any]]:
    """A deal's problems with each command-line flag said as the page's field: `--option gods=…` as
    the option's label (the dealer's `labels`) and a value it takes as the form says it (`short=true`:
    «Short game»=«Yes (8 tasks)»), `--seed` and `--players` as their labels; an option's key written
    bare (`drop remove= or …`) is said as its label too."""
    tr, the_dealer = text.translator(game.id, lang), hooks.dealer(game)
    labels = {"seed": text.said("seed_field", lang), "players": text.said("player_count", lang)}
    keys = hooks.option_names(the_dealer)

    def option(name: str) -> str:
        return f"«{hooks.option_label(the_dealer, name, tr)}»"

    def value(name: str, given: str) -> str:
        word = hooks.option_value(the_dealer, name, given, tr)
        return f"«{word}»" if word != given else given

    def field(match: re.Match[str]) -> str:
        flag, name, given = match.groups()
        said = option(name) if flag else f"«{labels.get(name, name)}»"
        return said if given is None else f"{said}={value(name, given) if flag else given}"

    # `remove=` alone, as a word of the sentence (not inside a quoted value the user typed)
    bare = re.compile(rf"(?<![\w«'-])({'|'.join(map(re.escape, keys))})(?==(?:\s|$))") if keys else None

    def said(message: str) -> str:
        message = _FLAG.sub(field, message)
        return bare.sub(lambda m: option(m.group(1)), message) if bare else message

    return [{**p, "message": said(p["message"]), "where": said(p["where"])} for p in problems]


def deal_page(game_id: str, form: dict[str, str], lang: str) -> pages.Answer:
    game = catalog.find_game(game_id)
    try:
        deal = dealt(game, form, lang)
    except InputError as error:
        problems = field_words(pages.problems(error, lang, game.id), game, lang)
        return pages.game_page(game, lang, 400, setup_problems=problems, deal_values=form, anchor="setup")
    state = {"players": str(deal["players"]), "seed": str(deal["seed"])}
    state.update({f"opt:{k}": v for k, v in deal["chosen"].items()})
    return pages.game_page(
        game, lang, query=urlencode(state), dealt=deal, checked=deal["checked"], anchor="setup"
    )


def game_view(game_id: str, lang: str, query: dict[str, str], dealt: bool = False) -> pages.Answer:
    """GET /g/GAME: the page, or with `players` and `seed` in the query the deal they name; `dealt`: the
    address a deal leads to (/g/GAME/setup?…), a link that can be shared and reloaded without dealing
    again, said as a deal even for a game that cannot deal."""
    game = catalog.find_game(game_id)
    if dealt or ("seed" in query and hooks.dealer(game) is not None):
        return deal_page(game_id, query, lang)
    return pages.game_page(game, lang)


def _checked(game: catalog.GameFolder, body: str, lang: str = "en") -> board.Checked:
    if not body.strip():
        raise InputError.single(board.SETUP_FILE, EMPTY)
    return board.check(body, game.id, lang=lang)


def check_page(game_id: str, body: str, lang: str) -> pages.Answer:
    game = catalog.find_game(game_id)
    try:
        checked = _checked(game, body, lang)
    except InputError as error:
        problems = pages.problems(error, lang, game.id)
        return pages.game_page(game, lang, 400, setup_problems=problems, setup_text=body, anchor="setup")
    return pages.game_page(game, lang, checked=checked, anchor="setup")


def check_json(game_id: str, body: str) -> dict[str, Any]:
    checked = _checked(catalog.find_game(game_id), body)
    report = checked.report.as_json()
    legend = [{"text": key.text, "swatch": key.swatch} for key in checked.legend]
    return {
        **{"ok": True, "report": report, "svg": checked.svg, "unmarked": checked.unmarked},
        **{"title": checked.title, "legend": legend},
    }


def setup_download(game_id: str, body: str, lang: str) -> pages.Answer:
    """The set-up text back as a file, only when it reads as this game's set-up; else the page says why."""
    game = catalog.find_game(game_id)
    try:
        _checked(game, body)
    except InputError as error:
        problems = pages.problems(error, lang, game.id)
        return pages.game_page(game, lang, 400, setup_problems=problems, setup_text=body, anchor="setup")
    return pages.Answer(body.encode("utf-8"), 200, "application/yaml", f"{game.id}-setup.yaml")


# -- routes ------------------------------------------------------------------------------------------


def _body(form: dict[str, str]) -> str:
    return form.get("file") or form.get("setup", "")


async def deal(request: Request) -> Response:
    """A deal answers with its address (303 to /g/GAME/setup?players=…&seed=…): the page there can be
    shared, and a reload shows the same deal instead of posting again. A blank seed is drawn here.
    A picker per seat sends its option once per seat: the address has them joined (`opt:gods=red,blue`),
    as the command line takes them."""
    pairs = await forms.fields(request)
    form = forms.first(pairs)
    lang = forms.lang_of(request, form)
    state = {"players": form.get("players", "").strip(), "seed": form.get("seed", "").strip()}
    if not state["seed"]:
        state["seed"] = str(secrets.randbelow(10**9))  # a fresh seed, shown so the deal can be repeated
    state.update(forms.joined(pairs, "opt:"))
    state["lang"] = lang
    address = f"/g/{request.path_params['game']}/setup?{urlencode(state)}#setup"
    return RedirectResponse(address, 303)


async def check(request: Request) -> Response:
    return await posted_page(request, check_page, _body, work.FILE_WORK)


async def check_api(request: Request) -> Response:
    form = await forms.read(request)
    body = _body(form)
    cost = work.estimate(body, work.FILE_WORK)
    return JSONResponse(await run(request, check_json, request.path_params["game"], body, cost=cost))


async def setup_file(request: Request) -> Response:
    return await posted_page(request, setup_download, lambda form: form.get("setup", ""), work.FILE_WORK)


ROUTES = [
    Route("/g/{game}/deal", deal, methods=["POST"]),
    Route("/g/{game}/check", check, methods=["POST"]),
    Route("/g/{game}/setup.yaml", setup_file, methods=["POST"]),
    Route("/api/g/{game}/check", check_api, methods=["POST"]),
]
