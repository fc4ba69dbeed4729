"""Work bounds: how much work an input may ask for, checked before the work starts.

Each limit is far beyond what a real game needs and low enough that the work it bounds finishes in
seconds on a laptop. They live here, in one place, so docs/spec.md ("Work bounds") has one table to
mirror and a test can lower one (monkeypatch `pnpforge.limits.X`) to try the refusal with a small
input. Code reads them as `limits.X` at the time of the check, never as a copy taken at import.
"""

from __future__ import annotations

from pnpforge.errors import InputError, Problem

PIECES_PER_COMPONENT = 20_000  # pieces one component may make (count × rows' counts)
PIECES_TOTAL = 50_000  # pieces of a whole spec, all components together
PAGES = 2_000  # pages of one build (sheets × sides), worked out before any is drawn
ROWS = 20_000  # data rows of one CSV (or rows_from list) of a spec
CELL_COORD = 200  # axial [q, r] of a data file's cell, either way: far beyond any board
POLYHEX_CELLS = 100  # hexes of one polyhex tile; board tiles have a handful
SETUP_LIST = 2_000  # entries of any one list of a set-up file (cells, tiles, pieces, sides)
VIOLATIONS = 100  # violations a report lists; the rest are counted, not listed
DECODED_PIXELS = 64_000_000  # an image read (PNG/JPEG) or a PNG written, decoded: 64 Mpx (~256 MB RGBA)
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


def refuse(file: str, message: str, line: int = 0, col: int = 0) -> InputError:
    """An InputError for a bound, pointing at docs/spec.md's table."""
    return InputError([Problem(file, line, col, f"{message}; see Work bounds in docs/spec.md")])
