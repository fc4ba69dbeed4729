"""A request's form read as text, and the form's whole numbers refused in the CLI's words."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, cast
from urllib.parse import parse_qsl

from starlette.datastructures import UploadFile
from starlette.requests import Request

from pnpforge import limits
from pnpforge.errors import InputError
from pnpforge.i18n import N_
from pnpforge.phrase import Phrase
from pnpforge.sourcefile import too_long_number
from pnpforge.web import text
from pnpforge.web.answers import FORM

__all__ = [
    "FORM",
    "INVALID",
    "NOT_INTEGER",
    "NOT_UTF8",
    "fields",
    "first",
    "joined",
    "lang_of",
    "read",
    "whole",
]

NOT_UTF8 = N_("cannot read file: not UTF-8 text")
INVALID = N_("Invalid value for '--{option}': {reason}")  # click's words for a bad option value
FIELD = N_("{field}: {reason}")  # a form field's bad value, said at the field's label as the page shows it
NOT_INTEGER = N_("'{value}' is not a valid integer.")


async def read(request: Request) -> dict[str, str]:
    """The posted fields as text (`fields`), the first of a repeated field."""
    pairs = await fields(request)
    if request.headers.get("content-type", "").startswith("application/x-www-form-urlencoded"):
        return dict(reversed(pairs))  # the first given wins, as it always has, in the order it always had
    return first(pairs)


async def fields(request: Request) -> list[tuple[str, str]]:
    """Every posted field as text, in order, a repeated one each time (an uploaded file read as UTF-8
    text; a bad encoding is bad input).

    A urlencoded body is decoded as UTF-8 whatever client sent it, %-escaped or raw (a browser escapes,
    a script may not); so is every multipart field. The whole body is read first, whatever its type or
    encoding, so a body over its limit is refused (413) here and never half-read by a later step."""
    raw = await request.body()
    if request.headers.get("content-type", "").startswith("application/x-www-form-urlencoded"):
        try:
            return parse_qsl(raw.decode("utf-8"), keep_blank_values=True, errors="strict")
        except UnicodeDecodeError:
            raise InputError.single(FORM, text.WORDS["form_encoding"]) from None
    form = await request.form()
    out: list[tuple[str, str]] = []
    for key, value in form.multi_items():
        if isinstance(value, str):
            out.append((key, value))
            continue
        assert isinstance(value, UploadFile)
        data = await value.read()
        if data:
            try:
                out.append((key, data.decode("utf-8-sig")))
            except UnicodeDecodeError:
                lang_of(request, first(out))  # the page's language field comes before its file
                raise InputError.single(value.filename or "upload", NOT_UTF8) from None
    return out


def first(pairs: Iterable[tuple[str, str]]) -> dict[str, str]:
    """Fields by name, the first of a repeated one."""
    out: dict[str, str] = {}
    for key, value in pairs:
        out.setdefault(key, value)
    return out


def joined(pairs: Iterable[tuple[str, str]], prefix: str) -> dict[str, str]:
    """The fields named `prefix…`, a repeated one's values joined with commas in order (a picker per
    seat, `opt:gods=red&opt:gods=blue`, reads as the command line's `red,blue`), each value stripped
    and blanks at the end dropped (seats no one sits at); a field left blank is left out."""
    found: dict[str, list[str]] = {}
    for key, value in pairs:
        if key.startswith(prefix):
            found.setdefault(key, []).append(value.strip())
    out = {}
    for key, values in found.items():
        while values and not values[-1]:
            values.pop()
        if values:
            out[key] = ",".join(values)
    return out


def lang_of(request: Request, form: dict[str, str] | None = None) -> str:
    """The page's language: the form's `lang`, else the query's, else the browser's (kept on the request,
    so an answer made after the form was read, e.g. "stopped", is in the same language)."""
    if form is None and hasattr(request.state, "lang"):
        return str(request.state.lang)
    asked = (form or {}).get("lang") or request.query_params.get("lang")
    request.state.lang = text.pick(asked, request.headers.get("accept-language", ""))
    return str(request.state.lang)


def whole(form: dict[str, str], key: str, what: str, default: int | None = None) -> int | None:
    """A whole number from a form field, refused at the field's label (`what`: a key of the page's
    words, e.g. "seed", "player_count"), in the words the CLI uses for the same number."""
    import click

    raw = form.get(key, "").strip()
    if not raw:
        return default
    label = Phrase.word(text.WORDS.get(what, what))
    if len(raw.lstrip("+-")) > limits.DIGITS:  # refused before Python converts it, as a file's number is
        raise InputError.single(FORM, Phrase(FIELD, field=label, reason=too_long_number()))
    try:
        return int(click.INT.convert(cast(Any, raw), None, None))  # click types its input loosely
    except click.BadParameter:  # said as click says it, in the catalog's words
        reason = Phrase(NOT_INTEGER, value=raw)
        raise InputError.single(FORM, Phrase(FIELD, field=label, reason=reason)) from None
