"""A problem said in the designer's language: the reason an exception carries, kept as its Phrase.

Messages are `Phrase`s (pnpforge.phrase) that travel inside exceptions (`ValueError`, a face's
`FaceError`, pydantic's wrapped validator errors) and are often quoted inside a larger message
("cards: {reason}"). `str(exc)` would flatten the Phrase to its English, so every place that quotes
an exception's reason asks `reason(exc)` instead; the terminal then says the whole in its language.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from pnpforge.i18n import N_
from pnpforge.phrase import Phrase

__all__ = ["plain", "pydantic_message", "reason", "unplain"]


def reason(exc: BaseException) -> str:
    """What `exc` says: its Phrase when it was raised with one (said in the language later), else its text."""
    said = getattr(exc, "said", None)  # an exception whose text is built when asked (MissingField)
    if not isinstance(said, Phrase):
        said = exc.args[0] if len(exc.args) == 1 else None
    return said if isinstance(said, Phrase) else str(exc)


# pydantic's own wording of the errors a spec meets, by error type, as our messages (its `ctx` fills them).
# A message is taken as ours only when it reads exactly as pydantic said it, so English never changes.
_PYDANTIC = {
    "int_parsing": N_("Input should be a valid integer, unable to parse string as an integer"),
    "int_type": N_("Input should be a valid integer"),
    "int_from_float": N_("Input should be a valid integer, got a number with a fractional part"),
    "float_type": N_("Input should be a valid number"),
    "float_parsing": N_("Input should be a valid number, unable to parse string as a number"),
    "finite_number": N_("Input should be a finite number"),
    "string_type": N_("Input should be a valid string"),
    "bool_type": N_("Input should be a valid boolean"),
    "bool_parsing": N_("Input should be a valid boolean, unable to interpret input"),
    "list_type": N_("Input should be a valid list"),
    "tuple_type": N_("Input should be a valid tuple"),
    "dict_type": N_("Input should be a valid dictionary"),
    "model_type": N_("Input should be a valid dictionary or instance of {class_name}"),
    "greater_than_equal": N_("Input should be greater than or equal to {ge}"),
    "greater_than": N_("Input should be greater than {gt}"),
    "less_than_equal": N_("Input should be less than or equal to {le}"),
    "less_than": N_("Input should be less than {lt}"),
    "string_pattern_mismatch": N_("String should match pattern '{pattern}'"),
    "string_too_short": N_("String should have at least {min_length} characters"),
    "too_short": N_(
        "{field_type} should have at least {min_length} item after validation, not {actual_length}"
    ),
    "too_long": N_(
        "{field_type} should have at most {max_length} items after validation, not {actual_length}"
    ),
    "literal_error": N_("Input should be {expected}"),
    "union_tag_invalid": N_(
        "Input tag '{tag}' found using {discriminator} does not match any of the expected tags: "
        "{expected_tags}"
    ),
}
_PLURAL = {  # pydantic's "item{expected_plural}"
    ("too_short", "s"): N_(
        "{field_type} should have at least {min_length} items after validation, not {actual_length}"
    ),
    ("too_long", ""): N_(
        "{field_type} should have at most {max_length} item after validation, not {actual_length}"
    ),
}
_OR = N_("{some} or {last}")  # pydantic's list of allowed words: 'a', 'b' or 'c'


def pydantic_message(error: Mapping[str, Any]) -> str:
    """The message of one pydantic error as ours: a validator's own Phrase, or pydantic's wording as a
    catalog message (pydantic's English where it is not one of those)."""
    message = str(error["msg"])
    ctx = dict(error.get("ctx") or {})
    cause = ctx.get("error")
    if isinstance(cause, BaseException) and message.startswith("Value error, "):
        said = reason(cause)
        return said if isinstance(said, Phrase) else message.removeprefix("Value error, ")
    kind = str(error["type"])
    template = _PLURAL.get((kind, str(ctx.get("expected_plural"))), _PYDANTIC.get(kind))
    if template is None:
        return message
    if kind == "literal_error":
        words = re.findall(r"'[^']*'", str(ctx.get("expected", "")))
        if len(words) > 1:
            ctx["expected"] = Phrase(_OR, some=words[:-1], last=words[-1])
    try:
        said = Phrase(template, **{k: v for k, v in ctx.items() if isinstance(v, str | int | float)})
    except (KeyError, IndexError, ValueError):
        return message
    return said if said == message else message


def plain(text: Any) -> Any:
    """`text` as plain data (str, numbers, lists, dicts) that marshal or JSON can keep: a Phrase becomes
    {"phrase": template, "text": its English, "values": ...}, so `unplain` gives it back to be said in
    any language (a kept build's warnings, compiled.py)."""
    if isinstance(text, Phrase):
        values = {key: plain(value) for key, value in text.values.items()}
        return {"phrase": text.template, "text": str(text), "values": values}
    if isinstance(text, list | tuple):
        return [plain(item) for item in text]
    if isinstance(text, dict):
        return {str(key): plain(value) for key, value in text.items()}
    if isinstance(text, str | int | float | bool) or text is None:
        return str(text) if isinstance(text, str) else text
    return str(text)


def unplain(data: Any) -> Any:
    """What `plain` kept, as it was: Phrases again (with the same English), texts and numbers as they are."""
    if isinstance(data, dict) and set(data) == {"phrase", "text", "values"}:
        values = {key: unplain(value) for key, value in data["values"].items()}
        said = Phrase(data["phrase"], **values) if values else None
        return said if said == data["text"] else Phrase.word(data["text"], data["phrase"])
    if isinstance(data, list):
        return [unplain(item) for item in data]
    if isinstance(data, dict):
        return {key: unplain(value) for key, value in data.items()}
    return data
