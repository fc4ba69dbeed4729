""" "Did you mean ...?": the known names nearest to a name that is not one of them (difflib)."""

from __future__ import annotations

from collections.abc import Iterable

from pnpforge.i18n import N_
from pnpforge.phrase import Phrase


def nearest(name: str, known: Iterable[str], n: int = 3) -> list[str]:
    """Up to `n` known names close to `name` (case ignored), closest first."""
    import difflib  # only when a name is wrong: a run that reads well-formed files never loads it

    choices = {str(k).lower(): str(k) for k in known}
    found = difflib.get_close_matches(str(name).strip().lower(), list(choices), n=n, cutoff=0.6)
    return [choices[f] for f in found]


def did_you_mean(name: str, known: Iterable[str], n: int = 3) -> str:
    """'did you mean golden? ' (ready to put before "expected ..."), or '' when nothing is close."""
    near = nearest(name, known, n)
    return Phrase(N_("did you mean {names}? "), names=near) if near else ""
