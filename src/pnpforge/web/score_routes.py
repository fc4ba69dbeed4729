"""Score routes: the sheet counted (page and live JSON), a score file loaded back onto the sheet,
the filled sheet shared as YAML, PNG or PDF, and a whole score file scored as `pnpforge score --json`."""

from __future__ import annotations

from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from pnpforge import catalog
from pnpforge.errors import InputError
from pnpforge.i18n import N_
from pnpforge.phrase import Phrase
from pnpforge.scoring.inputs import PLAYED_BY
from pnpforge.web import board, forms, pages, sheet, text
from pnpforge.web.serving import answer, posted_page, run

OTHER_GAME = N_("this is a {game} score file, not {expected}")

# -- work done in a worker ---------------------------------------------------------------------------


def count_of(the_sheet: sheet.Sheet, form: dict[str, str], lang: str = "en") -> int:
    low, high = the_sheet.players
    count = forms.whole(form, "count", "count", low) or low
    action = form.get("action", "")
    if action == "add":
        count += 1
    elif action == "remove":
        count -= 1
    if not low <= count <= high:
        span = f"{low}" if low == high else f"{low}–{high}"
        said = Phrase(PLAYED_BY, game=the_sheet.game.id, span=span, count=count)
        raise InputError.single(forms.FORM, said)
    return count


def settle(
    the_sheet: sheet.Sheet, form: dict[str, str], lang: str, before: list[dict[str, Any]]
) -> tuple[dict[str, str], int, list[dict[str, Any]]]:
    """A posted sheet after its button: the player count (+/− Player), the next round's carried totals
    (`next`), and the problems with the request itself (`before`, plus a count out of range)."""
    low, high = the_sheet.players
    try:
        count = count_of(the_sheet, form, lang)
    except InputError as error:
        before = [*before, *pages.problems(error, lang, the_sheet.game.id)]
        try:
            count = min(max(forms.whole(form, "count", "count", low) or low, low), high)
        except InputError:
            count = low
    if form.get("action") == "next" and not before:
        scored = sheet.score_form(the_sheet, form, count, lang)
        if scored.carry:  # the totals become the next round's starting values
            done = forms.whole(form, "round", "round", 1) or 1
            form = {**form, **{k: str(v) for k, v in scored.carry.items()}, "round": str(done + 1)}
    return form, count, before


def _sheet_page(
    game: catalog.GameFolder,
    the_sheet: sheet.Sheet,
    form: dict[str, str],
    lang: str,
    before: list[dict[str, Any]],
) -> pages.Answer:
    """The sheet with `form`'s values and `before` (problems with the request itself) above its own."""
    form, count, before = settle(the_sheet, form, lang, before)
    scored = sheet.score_form(the_sheet, form, count, lang)
    scored.problems[:0] = before
    status = 200 if scored.result is not None and not before else 400
    return pages.game_page(game, lang, status, scored=scored, count=count, values=form, anchor="score")


def load_file(the_sheet: sheet.Sheet, text: str, lang: str) -> tuple[dict[str, str], list[dict[str, Any]]]:
    """A score file loaded onto the sheet, read as `pnpforge score` reads it, and what the CLI would
    refuse in it (a fifth player, a number too large) in the CLI's words: the sheet's fields and the
    problems (a file that cannot be read gives an empty sheet and why)."""
    game = the_sheet.game
    try:
        source = board.read_text(text, sheet.SCORE_FILE)
        named = catalog.game_of(source, "score file")
        if named.id != game.id:
            wrong = Phrase(OTHER_GAME, game=named.id, expected=game.id)
            raise InputError([source.problem(("game",), wrong)])
    except InputError as error:
        return {"lang": lang}, pages.problems(error, lang, game.id)
    loaded, count = sheet.form_of(the_sheet, source.data)
    refused = sheet.refused(source, lang, game.id) or sheet.unequal(the_sheet, source, loaded, count, lang)
    return {**loaded, "lang": lang}, refused


def score_page(game_id: str, form: dict[str, str], lang: str) -> pages.Answer:
    game = catalog.find_game(game_id)
    the_sheet = sheet.sheet(game)  # InputError (400) when the game has no score calculator
    if not form.get("file"):
        return _sheet_page(game, the_sheet, form, lang, [])
    loaded, problems = load_file(the_sheet, form["file"], lang)
    return _sheet_page(game, the_sheet, loaded, lang, problems)


def score_json(game_id: str, form: dict[str, str], lang: str) -> tuple[dict[str, Any], int]:
    the_sheet = sheet.sheet(catalog.find_game(game_id))
    scored = sheet.score_form(the_sheet, form, count_of(the_sheet, form, lang), lang)
    html = pages.ENV.get_template("result.html").render(scored=scored, **pages.words_of(lang))
    return {**scored.as_json(), "html": html}, 200 if scored.result is not None else 400


def score_text_json(body: str) -> tuple[dict[str, Any], int]:
    data = sheet.score_text(body)
    return data, 422 if data.get("valid") is False else 200  # 422: the rules are broken


def share_file(game_id: str, kind: str, form: dict[str, str], lang: str) -> pages.Answer:
    """The filled sheet as a file; a sheet that does not count yet is shown again with what is wrong."""
    game = catalog.find_game(game_id)
    the_sheet = sheet.sheet(game)
    try:
        count = count_of(the_sheet, form, lang)
    except InputError:
        return _sheet_page(game, the_sheet, form, lang, [])
    scored = sheet.score_form(the_sheet, form, count, lang)
    if kind == "yaml" and scored.yaml:
        return pages.Answer(scored.yaml.encode("utf-8"), 200, "application/yaml", f"{game.id}-score.yaml")
    if scored.result is None:  # the page with what is wrong, never the JSON behind it
        return _sheet_page(game, the_sheet, form, lang, [])
    from pnpforge.web import share

    pdf = share.table_pdf(scored.result["shown_table"])  # the sheet in the page's language
    if kind == "pdf":
        return pages.Answer(pdf, 200, "application/pdf", f"{game.id}-score.pdf")
    return pages.Answer(share.png_of(pdf), 200, "image/png", f"{game.id}-score.png")


# -- routes ------------------------------------------------------------------------------------------


async def score(request: Request) -> Response:
    return await posted_page(request, score_page)


async def score_api(request: Request) -> Response:
    form = await forms.read(request)
    data, status = await run(
        request, score_json, request.path_params["game"], form, forms.lang_of(request, form)
    )
    return JSONResponse(data, status)


async def score_text_api(request: Request) -> Response:
    """A whole score file as the body (or its `file` field): `pnpforge score FILE --json` over HTTP."""
    if request.headers.get("content-type", "").startswith(("multipart/", "application/x-www-form")):
        form = await forms.read(request)
        body = form.get("file") or form.get("score", "")
    else:
        raw = await request.body()
        try:
            body = raw.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise InputError.single(sheet.SCORE_FILE, forms.NOT_UTF8) from None
    data, status = await run(request, score_text_json, body)
    return JSONResponse(data, status)


async def score_file(request: Request) -> Response:
    kind = request.path_params["kind"]
    if kind not in ("yaml", "png", "pdf"):
        raise HTTPException(404, text.said("no_file", forms.lang_of(request)))
    form = await forms.read(request)
    lang = forms.lang_of(request, form)
    return answer(await run(request, share_file, request.path_params["game"], kind, form, lang))


ROUTES = [
    Route("/g/{game}/score", score, methods=["POST"]),
    Route("/g/{game}/score.{kind:str}", score_file, methods=["POST"]),
    Route("/api/g/{game}/score", score_api, methods=["POST"]),
    Route("/api/score", score_text_api, methods=["POST"]),
]
