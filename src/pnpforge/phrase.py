"""A sentence (or a word) that reads as its English text but can be said in another language.

Score sheets (pnpforge.scoring) and set-up checks (games/*/checks.py) build their messages as a
`Phrase`; the message catalogs say it in other words by its template (pnpforge.i18n.translator). Kept
apart from the scoring engine so a set-up check can use it without loading the score-file models.
"""

from __future__ import annotations

from typing import Any

from pnpforge.mark import N_

__all__ = ["SERIES", "series", "Phrase"]


def _english(value: Any) -> str:
    return ", ".join(_english(v) for v in value) if isinstance(value, list | tuple) else str(value)


class Phrase(str):
    """A sentence (or a word) built from a `template` and named `values`, which reads as its English text.

    Everywhere a string goes (JSON, `pnpforge score`, comparisons) it is that English text; the
    message catalogs say it in other words by its template, with the same values (pnpforge.i18n). A
    value is a name or number shown as it is, a `Phrase` said in the language too, or a list of those
    (joined with ", " in English).
    """

    template: str
    values: dict[str, Any]

    def __new__(cls, template: str, **values: Any) -> Phrase:
        said = super().__new__(cls, template.format(**{k: _english(v) for k, v in values.items()}))
        said.template = template
        said.values = values
        return said

    def __reduce__(self) -> tuple[Any, tuple[str, str, dict[str, Any]]]:
        # a copy (report JSON deep-copies its violations) keeps its text as it is, so a name with braces
        # in it, or a word looked up under another key, survives
        return _rebuilt, (str(self), self.template, self.values)

    @classmethod
    def word(cls, text: str, key: str | None = None) -> Phrase:
        """A fixed word or sentence with no values, taken as it is (braces in `text` stay as they are).

        `key` looks it up under another name, for a word that means something else elsewhere on the
        sheet ("towns" counted in a score file, not the towns bonus row)."""
        return _rebuilt(text, key or text, {})


SERIES = N_("{text}; {more}")  # items one after another


def series(items: list[Phrase], template: str = SERIES) -> Phrase:
    """Phrases one after another, "a; b; c" in English (or joined by another `template` with `{text}`
    and `{more}`, e.g. "{text} and {more}")."""
    said = items[0]
    for item in items[1:]:
        said = Phrase(template, text=said, more=item)
    return said


def _rebuilt(text: str, template: str, values: dict[str, Any]) -> Phrase:
    said = str.__new__(Phrase, text)
    said.template = template
    said.values = values
    return said
