"""What a PDF says of itself in its document information: title, author and subject."""

from __future__ import annotations

from typing import NamedTuple


class Metadata(NamedTuple):
    title: str
    author: str = ""
    subject: str = ""
