"""Work bounds: how much work an input may ask for, checked before the work starts.

Each limit is far beyond what a real game needs and low enough that the work it bounds finishes in
seconds on a laptop. They live here, in one place, so docs/spec.md ("Work bounds") has one table to
mirror and a test can lower one (monkeypatch `pnpforge.limits.X`) to try the refusal with a small
input. Code reads them as `limits.X` at the time of the check, never as a copy taken at import; the
only exceptions are the ranges a schema is built with (a set-up file's coordinates, CELL_COORD; a game
rule's expression, EXPRESSION_CHARS), which the JSON Schema prints too.
"""

from __future__ import annotations

import math
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
# The input layer (sourcefile.py, parsecache.py): any YAML or text file a command reads
FILE_BYTES = 10 * 1024 * 1024  # a spec, set-up or score file is a few kB; 10 MB is generous
NESTING = 100  # nesting levels of lists and mappings, aliases included
ALIAS_VALUES = 100_000  # values all aliases of one file may copy in ("billion laughs" guard)
DIGITS = 18  # an integer literal longer than this is refused before Python converts it
FILE_NAME = 1024  # characters in a file name written in a spec
FOLDER_LISTED = 1_000  # a folder's entries looked through for a name written in another case
LENGTH_MM = 2000.0  # 2 m: any page, board, piece or offset; beyond it is a typo (units.py)
PERCENT = 1000.0  # a box may reach well outside its piece, but not endlessly
# .xlsx tables (components/spreadsheet.py)
XLSX_UNPACKED = 100 * 1024 * 1024  # bytes the zip may unpack to
XLSX_CELLS = 1_000_000  # rows × columns of the table read
# expressions of a spec (components/expressions.py)
EXPRESSION_TEXT = 10_000  # characters a `*` may build, or a value may hold
EXPRESSION_POWER = 1_000  # largest exponent of `**`
EXPRESSION_NUMBER = 10**18  # numbers beyond this are refused (as DIGITS digits are in a file)
EXPRESSION_CHARS = 2_000  # characters of one expression
EXPRESSION_NESTING = 32  # brackets inside brackets
REPEATED = 20_000  # cells and elements a `repeat` draws on one piece, all copies together
SVG_USES = 32  # <use> copies of an SVG picture; nested ones multiply, so a few dozen could be millions
REVISION_FILES = 5_000  # files in the spec's folder at a git revision (`diff`, `reprint --since`)
REVISION_BYTES = 200 * 1024 * 1024  # their total size
VIOLATIONS = 100  # violations a report lists; the rest are counted, not listed
# A PNG written is drawn and compressed in bands of rows (output/png.py), straight to its file: the
# bitmap held is a band's, whatever the page. This bounds the time a page takes (an image stretched over
# it is drawn again for each band); a build or export stays under 500 MB (bench_export.py measures it).
# A 388 × 446 mm board at 600 dpi: 96 Mpx.
DECODED_PIXELS = 120_000_000
# an image read: a build holds it decoded, as RGB and compressed, and the PDF holds it again (~27 bytes a
# pixel at its peak for incompressible art: 16 Mpx of noise builds in 427 MB, 17.5 Mpx exports in up to
# 496 MB), so this keeps a build or export with one such image under 500 MB; an A3 sheet's art at 285
# dpi: 15.7 Mpx; a 388 × 446 mm board's at 240 dpi: 15.4 Mpx
IMAGE_PIXELS = 16_000_000
# bytes the pictures of one build hold in its PDF, all different pictures together (a picture drawn
# again is embedded once), counted as each is embedded: they stay in memory until the PDF is written,
# copied a few times over when it is (2.7 to 4.7 bytes of memory a byte), and one picture is decoded on
# top. Measured (load 2-3): 16 Mpx images of noise as PNG (48 MB each): one builds in 438 MB, two in
# 485 MB, three in 532 MB; as JPEG (quality 95, 19 MB each): three in 359 MB, four in 488 MB, six in
# 605 MB; thirteen JPEGs of noise at quality 40 (72 MB) in 436 MB. A designer's deck (60 card arts of
# 0.8 Mpx, PNG or JPEG) holds a few MB.
IMAGE_BYTES = 72_000_000
# kept as it is at import: a test lowering DECODED_PIXELS leaves PIL's guard alone
_PIL_GUARD = DECODED_PIXELS
# bytes the export's rasterising workers may hold together (each its interpreter and pdfium, the PDF,
# the band it draws and an image the PDF decodes): with the main process, under 500 MB
IMAGE_MEMORY = 300_000_000
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


def largest_dpi(width: int, height: int, dpi: int, most: int) -> int:
    """The largest whole dpi at which what is `width` × `height` px at `dpi` stays within `most` px,
    each side's rounding allowed for (never more than `dpi`)."""
    fit = min(dpi, math.floor(dpi * math.sqrt(most / (width * height))))
    while fit > 1 and (width * fit // dpi + 2) * (height * fit // dpi + 2) > most:
        fit -= 1
    return max(fit, 1)


def pixels_problem(
    width: int, height: int, what: str, most: int | None = None, dpi: int | None = None
) -> Phrase | None:
    """Why `what` of width × height pixels is over the decoded-pixel budget (`most`, else
    DECODED_PIXELS), or None when it is not; with the `dpi` it was sized at, the largest that fits."""
    most = DECODED_PIXELS if most is None else most
    if width * height <= most:
        return None
    size = {"what": what, "width": f"{width:,}", "height": f"{height:,}", "most": f"{most:,}"}
    if dpi is None:
        return Phrase(OVER_PIXELS, **size)
    return Phrase(OVER_PIXELS_AT, **size, fit=largest_dpi(width, height, dpi, most))


OVER_PIXELS = N_(
    "{what} is {width} × {height} px (expected at most {most} px decoded; see Work bounds in docs/spec.md)"
)
OVER_PIXELS_AT = N_(
    "{what} is {width} × {height} px (expected at most {most} px decoded: --dpi {fit} or less; "
    "see Work bounds in docs/spec.md)"
)


def check_pixels(width: int, height: int, what: str, file: str = CLI, dpi: int | None = None) -> None:
    """Refuse, before rendering, a PNG over the decoded-pixel budget (with the `dpi` asked, the largest
    that fits is said)."""
    problem = pixels_problem(width, height, what, dpi=dpi)
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


OVER_IMAGE_BYTES = N_(
    "image {name} brings the pictures this build embeds to {total} bytes (expected at most {most} "
    "bytes in one PDF: fewer, smaller or JPEG pictures; see Work bounds in docs/spec.md)"
)


class OverImageBytes(ValueError):
    """A picture embedded takes the build's pictures past IMAGE_BYTES (raised with its Phrase)."""


def count_image_bytes(total: int, added: int, name: str) -> int:
    """The pictures' bytes of a build once a picture of `added` bytes is embedded: OverImageBytes when
    that is past IMAGE_BYTES (checked as each is embedded, before the PDF is written)."""
    total += added
    if total > IMAGE_BYTES:
        said = Phrase(OVER_IMAGE_BYTES, name=repr(name), total=f"{total:,}", most=f"{IMAGE_BYTES:,}")
        raise OverImageBytes(said)
    return total


def refuse(file: str, message: str, line: int = 0, col: int = 0) -> InputError:
    """An InputError for a bound, pointing at docs/spec.md's table."""
    said = Phrase(N_("{message}; see Work bounds in docs/spec.md"), message=message)
    return InputError([Problem(file, line, col, said)])
