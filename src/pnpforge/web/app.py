"""The Starlette application: the routes, and bad input shown as the CLI says it.

Every request body (a set-up file, a filled score sheet) is read as text and goes through the same
library calls as the CLI; an `InputError` becomes the CLI's `FILE:LINE:COL: message` lines on the page
with HTTP 400 (404 for an unknown game), never a traceback. No route reads or writes a file of the
machine except the app's own temporary build folder.
"""

from __future__ import annotations

import re
import secrets
import shutil
import tempfile
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from typing import Any, cast

from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from pnpforge import catalog, games
from pnpforge.components.template import localise
from pnpforge.errors import InputError
from pnpforge.games import Dealer
from pnpforge.web import board, builds, guards, sheet, text

HERE = Path(__file__).parent
FORM = "<form>"  # the file name messages use for a form field that is not part of a file


def _option_pickers(dealer: Dealer | None) -> list[tuple[str, list[str]]]:
    """A dealer's options with the values each may take (empty: free text)."""
    if dealer is None:
        return []
    choices = dealer.choices()
    return [(name, list(choices.get(name, []))) for name in dealer.options]


def _setup_words(dealer: Dealer | None) -> dict[str, str]:
    """A dealer's set-up words in Japanese (set-up keys and word values)."""
    return dict(dealer.words()) if dealer is not None else {}


def _dealer(game: catalog.GameFolder) -> Dealer | None:
    found = games.of(game)
    return found.dealer() if found.deal is not None else None


def _problems(error: InputError) -> list[dict[str, Any]]:
    return [{"field": None, "code": "", "message": p.message, "where": str(p)} for p in error.problems]


async def _form(request: Request) -> dict[str, str]:
    """The posted fields as text (an uploaded file read as UTF-8 text; a bad encoding is bad input)."""
    form = await request.form()
    out: dict[str, str] = {}
    for key, value in form.multi_items():
        if isinstance(value, str):
            out.setdefault(key, value)
            continue
        data = await value.read()
        if data:
            try:
                out[key] = data.decode("utf-8-sig")
            except UnicodeDecodeError:
                raise InputError.single(
                    value.filename or "upload", "cannot read file: not UTF-8 text"
                ) from None
    return out


def _game(game_id: str) -> catalog.GameFolder:
    return catalog.find_game(game_id)


def _int(form: dict[str, str], key: str, what: str, default: int | None = None) -> int | None:
    """A whole number from a form field, refused in the words the CLI uses for its option `--what`."""
    import click

    raw = form.get(key, "").strip()
    if not raw:
        return default
    try:
        # click's annotation says int-like; text is what it parses
        value = int(click.INT.convert(cast(Any, raw), None, None))
    except click.BadParameter as exc:
        raise InputError.single(FORM, f"Invalid value for '--{what}': {exc.message}") from None
    if abs(value) >= 10**12:  # far beyond any seed or count; keeps the work of a request small
        raise InputError.single(FORM, f"Invalid value for '--{what}': {raw!r} is too large")
    return value


def create_app(
    max_body: int = guards.MAX_BODY,
    build_seconds: float = builds.BUILD_SECONDS,
    build_root: Path | None = None,
) -> Starlette:
    """The table page as an ASGI app; `pnpforge serve` runs it with uvicorn."""
    env = Environment(
        loader=FileSystemLoader(HERE / "templates"), autoescape=select_autoescape(), trim_blocks=True
    )
    env.globals["localise"] = localise
    own_root = build_root is None
    if build_root is None:  # made on the first build, so a server that builds nothing leaves nothing
        build_root = Path(tempfile.gettempdir()) / f"pnpforge-serve-{secrets.token_hex(8)}"
    root = build_root
    jobs = builds.Builds(root, build_seconds)

    def lang_of(request: Request, form: dict[str, str] | None = None) -> str:
        asked = (form or {}).get("lang") or request.query_params.get("lang")
        return text.pick(asked, request.headers.get("accept-language", ""))

    def page(request: Request, name: str, status: int = 200, **context: Any) -> HTMLResponse:
        lang = context.pop("lang", None) or lang_of(request)
        html = env.get_template(name).render(
            lang=lang, t=text.words(lang), langs=text.LANGS, path=request.url.path, **context
        )
        return HTMLResponse(html, status)

    def game_context(game: catalog.GameFolder, lang: str) -> dict[str, Any]:
        info = catalog.game_info(game)
        low, high = catalog.players_range(game)
        dealer = _dealer(game)
        the_sheet = None
        if games.of(game).score is not None:
            the_sheet = sheet.sheet(game)
        tr = text.translator(the_sheet.ja if the_sheet else {}, lang)
        return {
            "game": game,
            "title": localise(info.get("title", game.id), lang),
            "low": low,
            "high": high,
            "options": _option_pickers(dealer),
            "tr": tr,  # the game's own words in the page's language (its `JA` table)
            "can_deal": dealer is not None,
            "can_check": games.of(game).setup is not None,
            "sheet": sheet.localised(the_sheet, lang) if the_sheet else None,
            "inventory": builds.inventory(game, lang),
        }

    def game_page(
        request: Request, game: catalog.GameFolder, lang: str, status: int = 200, **extra: Any
    ) -> HTMLResponse:
        context = game_context(game, lang)
        the_sheet = context["sheet"]
        if the_sheet is not None and "scored" not in extra:
            count = the_sheet.players[0]
            extra["count"] = count
            extra["values"] = {}
            extra["scored"] = sheet.score_form(the_sheet, {}, count, lang)
        if extra.get("checked") is not None:  # the set-up check's violations in the page's language
            extra["checked"] = board.said(extra["checked"], game.id, lang)
        return page(request, "game.html", status, lang=lang, **context, **extra)

    async def index(request: Request) -> Response:
        lang = lang_of(request)
        rows: list[dict[str, Any]] = []
        for game in catalog.games():
            info = catalog.game_info(game)
            rows.append({"id": game.id, "title": localise(info.get("title", game.id), lang)})
            rows[-1]["players"] = catalog.players_range(game)
        return page(request, "index.html", games=rows, lang=lang)

    async def game_view(request: Request) -> Response:
        game = _game(request.path_params["game"])
        return game_page(request, game, lang_of(request))

    def deal_from(game: catalog.GameFolder, form: dict[str, str], lang: str = "en") -> dict[str, Any]:
        low, _ = catalog.players_range(game)
        players = _int(form, "players", "players", low)
        seed = _int(form, "seed", "seed")
        if seed is None:
            seed = secrets.randbelow(10**9)  # a fresh seed, shown so the deal can be repeated
        dealer = _dealer(game)
        options = {
            key: form[f"opt:{key}"].strip()
            for key in (dealer.options if dealer is not None else ())
            if form.get(f"opt:{key}", "").strip()
        }
        file_text, data = board.deal(game.id, players or 0, seed, options)
        checked = board.check(file_text, game.id, lang=lang)
        return {
            "seed": seed,
            "players": players,
            "chosen": options,
            "checked": checked,
            "steps": board.steps(data, text.translator(_setup_words(dealer), lang), lang),
        }

    async def deal(request: Request) -> Response:
        game = _game(request.path_params["game"])
        form = await _form(request)
        lang = lang_of(request, form)
        try:
            dealt = deal_from(game, form, lang)
        except InputError as error:
            return game_page(request, game, lang, 400, setup_problems=_problems(error), anchor="setup")
        return game_page(request, game, lang, dealt=dealt, checked=dealt["checked"], anchor="setup")

    def check_from(game: catalog.GameFolder, form: dict[str, str], lang: str = "en") -> board.Checked:
        body = form.get("file") or form.get("setup", "")
        if not body.strip():
            raise InputError.single(board.SETUP_FILE, "empty set-up file (expected e.g. 'game: delphi')")
        return board.check(body, game.id, lang=lang)

    async def check(request: Request) -> Response:
        game = _game(request.path_params["game"])
        form = await _form(request)
        lang = lang_of(request, form)
        body = form.get("file") or form.get("setup", "")
        try:
            checked = check_from(game, form, lang)
        except InputError as error:
            return game_page(
                request, game, lang, 400, setup_problems=_problems(error), setup_text=body, anchor="setup"
            )
        return game_page(request, game, lang, checked=checked, anchor="setup")

    async def check_api(request: Request) -> Response:
        game = _game(request.path_params["game"])
        form = await _form(request)
        checked = check_from(game, form)
        report = checked.report.as_json()
        return JSONResponse({"ok": True, "report": report, "svg": checked.svg, "unmarked": checked.unmarked})

    def sheet_of(game: catalog.GameFolder) -> sheet.Sheet:
        return sheet.sheet(game)  # InputError (400) when the game has no score calculator

    def count_of(the_sheet: sheet.Sheet, form: dict[str, str]) -> int:
        low, high = the_sheet.players
        count = _int(form, "count", "count", low) or low
        action = form.get("action", "")
        if action == "add":
            count += 1
        elif action == "remove":
            count -= 1
        if not low <= count <= high:
            span = f"{low}" if low == high else f"{low}–{high}"
            raise InputError.single(FORM, f"{the_sheet.game.id} is played by {span} players, not {count}")
        return count

    async def score(request: Request) -> Response:
        game = _game(request.path_params["game"])
        the_sheet = sheet_of(game)
        form = await _form(request)
        lang = lang_of(request, form)
        if form.get("file"):  # a score file loaded back onto the sheet, read as `pnpforge score` reads it
            try:
                source = board.read_text(form["file"], sheet.SCORE_FILE)
                named = catalog.game_of(source, "score file")
                if named.id != game.id:
                    raise InputError(
                        [source.problem(("game",), f"this is a {named.id} score file, not {game.id}")]
                    )
            except InputError as error:
                count = the_sheet.players[0]
                scored = sheet.score_form(the_sheet, {}, count, lang)
                scored.problems[:0] = _problems(error)
                return game_page(
                    request, game, lang, 400, scored=scored, count=count, values={}, anchor="score"
                )
            loaded, _ = sheet.form_of(the_sheet, source.data)
            form = {**loaded, "lang": lang}
        try:
            count = count_of(the_sheet, form)
        except InputError as error:
            count = min(max(_int(form, "count", "count", 0) or 0, the_sheet.players[0]), the_sheet.players[1])
            scored = sheet.score_form(the_sheet, form, count, lang)
            scored.problems[:0] = _problems(error)
            return game_page(
                request, game, lang, 400, scored=scored, count=count, values=form, anchor="score"
            )
        if form.get("action") == "next":
            scored = sheet.score_form(the_sheet, form, count, lang)
            if scored.carry:  # the totals become the next round's starting values
                done = _int(form, "round", "round", 1) or 1
                form = {**form, **{k: str(v) for k, v in scored.carry.items()}, "round": str(done + 1)}
        scored = sheet.score_form(the_sheet, form, count, lang)
        status = 200 if scored.result is not None else 400
        return game_page(request, game, lang, status, scored=scored, count=count, values=form, anchor="score")

    async def score_api(request: Request) -> Response:
        game = _game(request.path_params["game"])
        the_sheet = sheet_of(game)
        form = await _form(request)
        lang = lang_of(request, form)
        scored = sheet.score_form(the_sheet, form, count_of(the_sheet, form), lang)
        html = env.get_template("result.html").render(scored=scored, t=text.words(lang), lang=lang)
        return JSONResponse({**scored.as_json(), "html": html}, 200 if scored.result is not None else 400)

    async def score_text_api(request: Request) -> Response:
        """A whole score file as the body (or its `file` field): `pnpforge score FILE --json` over HTTP."""
        if request.headers.get("content-type", "").startswith(("multipart/", "application/x-www-form")):
            form = await _form(request)
            body = form.get("file") or form.get("score", "")
        else:
            raw = await request.body()
            try:
                body = raw.decode("utf-8-sig")
            except UnicodeDecodeError:
                raise InputError.single(sheet.SCORE_FILE, "cannot read file: not UTF-8 text") from None
        data = sheet.score_text(body)
        return JSONResponse(data, 422 if data.get("valid") is False else 200)  # 422: the rules are broken

    async def score_file(request: Request) -> Response:
        game = _game(request.path_params["game"])
        the_sheet = sheet_of(game)
        form = await _form(request)
        scored = sheet.score_form(the_sheet, form, count_of(the_sheet, form), lang_of(request, form))
        kind = request.path_params["kind"]
        if kind not in ("yaml", "png", "pdf"):
            return JSONResponse({"ok": False, "problems": [{"message": "no such file"}]}, 404)
        if kind == "yaml":
            return _download(scored.yaml.encode("utf-8"), f"{game.id}-score.yaml", "application/yaml")
        if scored.result is None:
            return JSONResponse(scored.as_json(), 400)
        from pnpforge.web import share

        pdf = share.table_pdf(scored.result["shown_table"])  # the sheet in the page's language
        if kind == "pdf":
            return _download(pdf, f"{game.id}-score.pdf", "application/pdf")
        return _download(share.png_of(pdf), f"{game.id}-score.png", "image/png")

    async def setup_file(request: Request) -> Response:
        game = _game(request.path_params["game"])
        form = await _form(request)
        body = form.get("setup", "")
        board.check(body, game.id)  # only a file that reads as this game's set-up is handed back
        return _download(body.encode("utf-8"), f"{game.id}-setup.yaml", "application/yaml")

    async def build_view(request: Request) -> Response:
        game = _game(request.path_params["game"])
        form = await _form(request)
        lang = lang_of(request, form)
        choice = {}
        for field_name, key, allowed in (
            ("page", "page", builds.PAGES),
            ("pdf_lang", "lang", text.LANGS),
            ("duplex", "duplex", builds.DUPLEX),
        ):
            value = form.get(field_name, allowed[0]).strip().lower()
            if value not in allowed:
                error = InputError.single(FORM, f"--{key} {value!r}: expected one of {', '.join(allowed)}")
                return game_page(request, game, lang, 400, print_problems=_problems(error), anchor="print")
            choice[key] = value
        try:
            built = await builds.build(jobs, game, choice)
        except InputError as error:
            return game_page(request, game, lang, 400, print_problems=_problems(error), anchor="print")
        except TimeoutError:
            message = f"the build took longer than {jobs.seconds:g} s and was stopped"
            problems = [{"field": None, "code": "", "message": message, "where": message}]
            return game_page(request, game, lang, 503, print_problems=problems, anchor="print")
        return game_page(request, game, lang, built=built, build_choice=choice, anchor="print")

    async def built_file(request: Request) -> Response:
        game = _game(request.path_params["game"])
        key, name = request.path_params["key"], request.path_params["name"]
        if not re.fullmatch(r"[a-z0-9-]+", key) or not re.fullmatch(r"[a-z0-9-]+\.(pdf|png)", name):
            return JSONResponse({"ok": False, "problems": [{"message": "no such file"}]}, 404)
        path = jobs.folder(game.id, key) / name
        if not path.is_file():
            return JSONResponse({"ok": False, "problems": [{"message": "no such file"}]}, 404)
        return FileResponse(path)

    async def on_input_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, InputError)
        problems = _problems(exc)
        known = {g.id for g in catalog.games()}
        game = request.path_params.get("game")
        status = 404 if game is not None and game not in known else 400
        if request.url.path.startswith("/api/"):
            return JSONResponse({"ok": False, "problems": problems}, status)
        return page(request, "error.html", status, problems=problems)

    async def on_too_large(request: Request, exc: Exception) -> Response:
        return guards.too_large_response(max_body)

    routes = [
        Route("/", index),
        Route("/g/{game}", game_view),
        Route("/g/{game}/deal", deal, methods=["POST"]),
        Route("/g/{game}/check", check, methods=["POST"]),
        Route("/g/{game}/setup.yaml", setup_file, methods=["POST"]),
        Route("/g/{game}/score", score, methods=["POST"]),
        Route("/g/{game}/score.{kind:str}", score_file, methods=["POST"]),
        Route("/g/{game}/build", build_view, methods=["POST"]),
        Route("/g/{game}/build/{key}/{name}", built_file),
        Route("/api/g/{game}/check", check_api, methods=["POST"]),
        Route("/api/g/{game}/score", score_api, methods=["POST"]),
        Route("/api/score", score_text_api, methods=["POST"]),
        Mount("/static", StaticFiles(directory=HERE / "static"), name="static"),
    ]
    app = Starlette(
        routes=routes,
        exception_handlers={InputError: on_input_error, guards.BodyTooLarge: on_too_large},
        lifespan=_cleanup(root) if own_root else None,
    )
    app.add_middleware(guards.BodyLimit, limit=max_body)
    app.add_middleware(guards.SecurityHeaders)
    return app


def _cleanup(root: Path) -> Callable[[Starlette], AbstractAsyncContextManager[None]]:
    """Remove the app's own build folder when the server stops."""

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        try:
            yield
        finally:
            shutil.rmtree(root, ignore_errors=True)

    return lifespan


def _download(data: bytes, name: str, media: str) -> Response:
    return Response(data, media_type=media, headers={"content-disposition": f'attachment; filename="{name}"'})
