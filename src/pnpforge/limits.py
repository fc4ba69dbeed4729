"""Work bounds: how much work an input may ask for, checked before the work starts.

Each limit is far beyond what a real game needs and low enough that the work it bounds finishes in
seconds on a laptop. They live here, in one place, so docs/spec.md ("Work bounds") has one table to
mirror and a test can lower one (monkeypatch `pnpforge.limits.X`) to try the refusal with a small
input. Code reads them as `limits.X` at the time of the check, never as a copy taken at import.
"""

from __future__ import annotations

import warnings
from typing import IO

from pnpforge.errors import InputError, Problem
from pnpforge.i18n import N_
from pnpforge.phrase import Phrase

CLI = "<command line>"

PIECES_PER_COMPONENT = 20_000  # pieces one component may make (count × rows' counts)
PIECES_TOTAL = 50_000  # pieces of a whole spec, all components together
DRAWN_ELEMENTS = 40_000  # face elements drawn in one build (pieces × their faces' elements); Delphi: 3,302
PAGES = 2_000  # pages of one build (sheets × sides), worked out before any is drawn
ROWS = 20_000  # data rows of one CSV (or rows_from list) of a spec
CELL_COORD = 200  # axial [q, r] of a data file's cell, either way: far beyond any board
NESTED_PIECES = 1_000  # polyhex tiles of one spec: each is nested by shapely (~10 ms a tile)
POLYHEX_CELLS = 100  # hexes of one polyhex tile; board tiles have a handful
SETUP_LIST = 2_000  # entries of any one list of a set-up file (cells, tiles, pieces, sides)
REQUEST_WORK = 10_000  # entries a posted file may hold on the page (web/work.py estimate): ~2,000 tiles
# A set-up or score file's size, by kind: (bytes, YAML values: every scalar, list and mapping, and what
# aliases copy in), refused before the file is parsed into data. A dealt set-up is 1-4 kB and a few
# hundred values; an inline Ankh board of 2,000 cells with 2,000 caravans ~130 kB and ~30,000 values.
FILE_BOUNDS = {"setup": (512_000, 60_000), "score": (256_000, 20_000)}
VIOLATIONS = 100  # violations a report lists; the rest are counted, not listed
DECODED_PIXELS = 120_000_000  # a PNG written; a 388 × 446 mm board at 600 dpi: 96 Mpx
# an image read: a build holds it decoded, as RGB and compressed at once (~16 bytes a pixel at its peak),
# so this keeps a build under 500 MB; a 388 × 446 mm board's art at 300 dpi: 24.1 Mpx
IMAGE_PIXELS = 24_500_000
_PIL_GUARD = DECODED_PIXELS  # kept at the default: a test lowering DECODED_PIXELS leaves PIL's guard alone
IMAGE_MEMORY = 1_500_000_000  # bytes the export workers' images may hold together
BLEED_RATIO = 1.0  # bleed at most the piece's longer side: more is a typo for a smaller unit


def axial(value: object) -> tuple[int, int] | None:
    """`[q, r]` as two whole numbers within ±CELL_COORD, or None (a bool, float or text is not one)."""
    if not (isinstance(value, list | tuple) and len(value) == 2):
        return None
    q, r = value
    for v in (q, r):
        if not isinstance(v, int) or isinstance(v, bool) or abs(v) > CELL_COORD:
            return None
    return (int(q), int(r))


def pixels(points: float, dpi: float) -> int:
    """A length in points as whole pixels at `dpi` (rounded to nearest, at least 1)."""
    return max(1, round(points / 72.0 * dpi))


def pixels_problem(width: int, height: int, what: str, most: int | None = None) -> str | None:
    """Why `what` of width × height pixels is over the decoded-pixel budget (`most`, else
    DECODED_PIXELS), or None when it is not."""
    most = DECODED_PIXELS if most is None else most
    if width * height <= most:
        return None
    return (
        f"{what} is {width:,} × {height:,} px (expected at most {most:,} px decoded; "
        "see Work bounds in docs/spec.md)"
    )


def check_pixels(width: int, height: int, what: str, file: str = CLI) -> None:
    """Refuse, before rendering, a PNG over the decoded-pixel budget."""
    problem = pixels_problem(width, height, what)
    if problem:
        raise InputError.single(file, problem)


def image_size(image: str | IO[bytes], what: str) -> tuple[int, int]:
    """An image's pixel size read from its header alone; ValueError when it is over the images' budget
    (IMAGE_PIXELS: so it is never decoded) or not an image PIL can open."""
    from PIL import Image

    Image.MAX_IMAGE_PIXELS = _PIL_GUARD  # PIL's own guard for readers that open images themselves
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", Image.DecompressionBombWarning)  # said below, in our words
        try:
            with Image.open(image) as opened:
                width, height = opened.size
        except Image.DecompressionBombError:  # PIL's guard, at twice its limit, for a header it read
            raise ValueError(
                f"{what} has more than {2 * _PIL_GUARD:,} px (expected at most {IMAGE_PIXELS:,} px "
                "decoded; see Work bounds in docs/spec.md)"
            ) from None
    problem = pixels_problem(width, height, what, IMAGE_PIXELS)
    if problem:
        raise ValueError(problem)
    return width, height


def refuse(file: str, message: str, line: int = 0, col: int = 0) -> InputError:
    """An InputError for a bound, pointing at docs/spec.md's table."""
    said = Phrase(N_("{message}; see Work bounds in docs/spec.md"), message=message)
    return InputError([Problem(file, line, col, said)])
