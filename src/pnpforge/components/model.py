"""The spec model: what a game.yaml may say, as models checked by pydantic's validator (pnpforge.lightmodel:
written as pydantic models are, their core schema kept in the user's cache, so a build imports none of
pydantic's model machinery).

This is the contract between a game's data and the print engine. Any string field may hold
`{field}` placeholders filled from a data row (Squib's idea: one value, or one per row), so
values are checked here only when they hold no placeholder; the rest are checked per row.

No `from __future__ import annotations` here: each field's annotation would then be evaluated from its
text when the models are first walked (a `compile` per field, ~3 ms of every build's start); written as
objects, only a method returning its own class needs quotes.
"""

import re
from functools import lru_cache
from typing import Annotated, Any, ClassVar, Literal, overload

from reportlab.lib import colors as rl_colors

from pnpforge import limits
from pnpforge.i18n import N_
from pnpforge.lightmodel import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Discriminator,
    Key,
    PrivateAttr,
    Tag,
    field_validator,
    model_validator,
)
from pnpforge.phrase import Phrase, series
from pnpforge.saying import reason
from pnpforge.suggest import did_you_mean
from pnpforge.units import LengthRangeError, parse_length, parse_percent, parse_size

MAX_PIECES = (
    limits.PIECES_PER_COMPONENT
)  # per component; larger counts are refused before anything is laid out

Lang = Literal["en", "ja"]
LocalText = str | dict[Lang, str]
PLACEHOLDER = re.compile(r"\{[^\W\d]\w*\}|\{\{.*?\}\}|\\[{}]", re.DOTALL)  # filled per row
MAX_ROTATE = 3600.0  # degrees either way
MAX_LEADING = 10.0  # line spacing, in text sizes
MAX_DASH_MM = 1000.0
MAX_REPEAT = 1000  # copies of a `repeat` element
MAX_GRID = 60  # columns, and rows, of a `grid` element (as of a hexgrid)


def _in_range(value: str | float | int) -> str | float | int:
    """Every length of a spec is finite and within limits.LENGTH_MM (units.py checks it), wherever it is used.

    Unreadable text is left to the field's own check (or the drawing), which says what it expects.
    """
    if templated(value) or isinstance(value, bool):
        return value
    try:
        if isinstance(value, str) and value.strip().endswith("%"):
            parse_percent(value)
        else:
            parse_length(value)
    except LengthRangeError:
        raise
    except ValueError:
        pass
    return value


Length = Annotated[str | float | int, AfterValidator(_in_range)]

CARD_SIZES_MM: dict[str, tuple[float, float]] = {
    "poker": (63, 88),
    "bridge": (56, 87),
    "mini": (44, 63),
    "tarot": (70, 120),
    "square": (70, 70),
}
PAGE_SIZES_MM: dict[str, tuple[float, float]] = {
    "a4": (210, 297),
    "letter": (215.9, 279.4),
    "a3": (297, 420),
}


def templated(value: object) -> bool:
    return isinstance(value, str) and bool(PLACEHOLDER.search(value))


@overload
def check_length(value: Length, *, percent: bool = False, minimum: float | None = None) -> Length: ...
@overload
def check_length(value: None, *, percent: bool = False, minimum: float | None = None) -> None: ...
def check_length(
    value: Length | None, *, percent: bool = False, minimum: float | None = None
) -> Length | None:
    """Check a length unless it waits for a row's `{field}`; `minimum` (points) bounds it from below."""
    if value is None or templated(value):
        return value
    if percent and isinstance(value, str) and value.strip().endswith("%"):
        parse_percent(value)  # ValueError -> pydantic error
        return value
    points = parse_length(value)
    if minimum is not None and points < minimum:
        template = N_("{value} must be positive (expected e.g. 3mm)")
        if minimum <= 0:
            template = N_("{value} must be zero or more (expected e.g. 3mm)")
        raise ValueError(Phrase(template, value=repr(value)))
    return value


def check_fixed_length(value: Length) -> Length:
    """A length with no data row to fill it (page defaults): a `{field}` here can never be filled."""
    if templated(value):
        raise ValueError(
            Phrase(
                N_("{value}: a {{field}} needs a data row, and defaults have none (expected e.g. 3mm)"),
                value=repr(value),
            )
        )
    return check_length(value, minimum=0.0)


@lru_cache(maxsize=1)
def colour_names() -> tuple[str, ...]:
    """The colour names a spec may use (reportlab's, the CSS/SVG names)."""
    return tuple(
        n for n in dir(rl_colors) if n.islower() and isinstance(getattr(rl_colors, n), rl_colors.Color)
    )


def not_a_colour(value: str) -> Phrase:
    """The message for a value that is no colour, with the nearest names."""
    hint = did_you_mean(value, colour_names())
    return Phrase(
        N_("{value} is not a colour ({hint}expected a name like 'red', '#rgb', '#rrggbb' or 'none')"),
        value=repr(value),
        hint=hint,
    )


def check_colour(value: str | None) -> str | None:
    if value is None or templated(value) or value == "none":
        return value
    if re.fullmatch(r"#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})", value):
        return value
    if isinstance(getattr(rl_colors, value.lower(), None), rl_colors.Color):
        return value
    raise ValueError(not_a_colour(value))


class Strict(BaseModel):
    """Unknown keys are errors: a typo in a spec must not be silently ignored."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)


class Box(Strict):
    """Where an element sits on the piece: lengths or percentages of the trim box, origin top-left."""

    x: Length = 0
    y: Length = 0
    w: Length = "100%"
    h: Length = "100%"
    rotate: float = Key(0, ge=-MAX_ROTATE, le=MAX_ROTATE, description="Degrees, clockwise")
    when: str | None = Key(
        None,
        description="Draw only for rows this expression is true for, e.g. type == 'event' (a text holding "
        "{field}s: only when the filled text is not empty, 0 or false)",
    )
    style: str | list[str] | None = Key(
        None, description="Named style(s) from the top-level `styles:` whose keys this element takes"
    )

    @field_validator("x", "y", "w", "h")
    @classmethod
    def _lengths(cls, v: Length) -> Length:
        return check_length(v, percent=True)


class Paint(Box):
    fill: str | None = None
    stroke: str | None = None
    stroke_width: Length = "0.3mm"
    pattern: Literal["none", "stripes", "dots", "crosshatch", "waves"] | str = "none"
    pattern_colour: str | None = Key(None, description="Pattern ink; default a shade of the fill")

    @field_validator("fill", "stroke", "pattern_colour")
    @classmethod
    def _colours(cls, v: str | None) -> str | None:
        return check_colour(v)


class RectElement(Paint):
    type: Literal["rect"]
    radius: Length = 0


class CircleElement(Paint):
    """A circle (or ellipse) inscribed in its box."""

    type: Literal["circle"]


class HexElement(Paint):
    """A regular hexagon inscribed in its box."""

    type: Literal["hex"]
    orientation: Literal["pointy", "flat"] = "pointy"


class PolygonElement(Paint):
    """A polygon (or, with `closed: false`, a polyline); points are relative to the piece."""

    type: Literal["polygon"]
    points: list[tuple[Length, Length]]
    closed: bool = True


class LineElement(Paint):
    type: Literal["line"]
    points: list[tuple[Length, Length]] = Key(min_length=2)
    dash: list[Annotated[float, Key(ge=0, le=MAX_DASH_MM)]] | None = None


class TextElement(Box):
    type: Literal["text"]
    text: LocalText
    size: Length = "9pt"
    font: str = "sans"  # sans | serif | mono | sans-bold | serif-bold | a TTF path in the spec folder
    colour: str = "black"
    align: Literal["left", "center", "right"] = "center"
    valign: Literal["top", "middle", "bottom"] = "middle"
    fit: Literal["shrink", "wrap", "none"] = "shrink"
    leading: float = Key(1.2, gt=0, le=MAX_LEADING)
    min_size: Length | None = Key(
        None,
        description="The smallest size `fit: shrink` (or `wrap`, to keep a word whole) may use (default 6pt)",
    )

    @field_validator("colour")
    @classmethod
    def _colour(cls, v: str) -> str:
        check_colour(v)
        return v

    @field_validator("size", "min_size")
    @classmethod
    def _size(cls, v: Length | None) -> Length | None:
        return v if v is None else check_length(v)


class IconElement(Box):
    """A built-in vector icon (see `pnpforge icons`), fitted into its box."""

    type: Literal["icon"]
    name: str
    fill: str = "black"
    stroke: str | None = None

    @field_validator("fill", "stroke")
    @classmethod
    def _colours(cls, v: str | None) -> str | None:
        return check_colour(v)


class ImageElement(Box):
    """A PNG, JPEG or SVG file, relative to the spec folder, fitted into its box."""

    type: Literal["image"]
    src: str
    fit: Literal["contain", "cover", "stretch"] = "contain"


class CellSource(Strict):
    """Hex cells read from a YAML data file of the game (one source for printing and checking)."""

    data: str = Key(description="YAML file in the spec folder, e.g. tiles.yaml")
    list: str = Key(description="Dotted key of the list of items, e.g. 'tiles'")
    match: dict[str, str] = Key(default_factory=dict, description="Pick items with these fields")
    cells: str = Key("cells", description="Key of the cell list in the item; '' if items are cells")


class HexMapMark(Strict):
    """More cells of the hexmap's data file drawn on the same grid (e.g. the huts printed before play)."""

    list: str = Key(description="Dotted key of the list in the hexmap's data file, e.g. 'start_huts'")
    match: dict[str, str] = Key(default_factory=dict, description="Pick items with these fields")
    cells: str = Key("", description="Key of the cell list in each item; '' (default) if items are cells")
    icon: str | None = Key(None, description="Icon drawn in each marked cell (instead of the cell's own)")
    fill: str | None = Key(None, description="Fill of each marked cell (default: the cell's own)")
    colour: str | None = Key(None, description="Ink of the icon (default: black or white for contrast)")

    @field_validator("fill", "colour")
    @classmethod
    def _colours(cls, v: str | None) -> str | None:
        return check_colour(v)


class HexGridCell(Strict):
    at: tuple[int, int]
    fill: str | None = None
    icon: str | None = None
    text: LocalText | None = None


class HexGridElement(Paint):
    """A roll-and-write style grid of hexes (`cols` × `rows`, offset rows) fitted into its box."""

    type: Literal["hexgrid"]
    cols: int = Key(ge=1, le=60)
    rows: int = Key(ge=1, le=60)
    orientation: Literal["pointy", "flat"] = "pointy"
    cells: list[HexGridCell] = Key(default_factory=list)


class HexMapElement(Box):
    """Hex cells from a data file, drawn at `hex` size (flat-to-flat), coloured by their fields."""

    type: Literal["hexmap"]
    source: CellSource
    hex: Length = "20mm"
    fill_by: list[str] = Key(default_factory=lambda: ["colour", "terrain", "kind"])
    palette: dict[str, str] = Key(default_factory=dict)
    icons: dict[str, str] = Key(default_factory=dict, description="field value -> icon name")
    edges: str | None = Key(None, description="Key of a list of hex sides to draw heavy")
    stroke: str = "black"
    labels: bool = False
    edge_colour: str = Key("#1f5fbf", description="Colour of the heavy `edges` (e.g. a river)")
    edge_width: Length = "1.2mm"
    default_fill: str | None = Key(None, description="Fill of cells no palette entry names (default grey)")
    marks: list[HexMapMark] = Key(default_factory=list, description="More cell lists of the same file")
    icon_size: Length = Key("60%", description="Icon width: a length or a percentage of the hex")
    icon_colour: str | None = Key(None, description="Icon ink (default: black or white for contrast)")
    label_by: str | list[str] | None = Key(
        None, description="Per-cell label: a field name, a list (first field present) or a '{field}' text"
    )
    label_map: dict[str, LocalText] = Key(
        default_factory=dict, description="Label (or dot) value -> text shown, e.g. {red: R}"
    )
    label_at: Literal["bottom", "centre", "top"] = "bottom"
    label_size: Length = Key("16%", description="Label text size: a length or a percentage of the hex")
    label_colour: str | None = Key(None, description="Label ink (default: black or white for contrast)")
    dots_by: list[str] = Key(
        default_factory=list, description="List-valued fields drawn as small coloured dots, e.g. pedestals"
    )
    badges: dict[str, int] = Key(
        default_factory=dict, description="Numeric field -> smallest value shown as a number badge"
    )

    # filled from each cell's fields when drawing, never from the piece's data row
    cell_templated: ClassVar[frozenset[str]] = frozenset({"label_by"})

    @field_validator("stroke", "edge_colour", "default_fill", "icon_colour", "label_colour")
    @classmethod
    def _colours(cls, v: str | None) -> str | None:
        check_colour(v)
        return v

    @field_validator("icon_size", "label_size")
    @classmethod
    def _sizes(cls, v: Length) -> Length:
        return check_length(v, percent=True)


class GridElement(Paint):
    """`columns` × `rows` cells filling its box, each with a text from `texts` or `range` (a roll-and-write
    grid, a price chart): the cells' fill, pattern and stroke as a rect's, the texts as a text's."""

    type: Literal["grid"]
    columns: int = Key(ge=1, le=MAX_GRID)
    rows: int = Key(ge=1, le=MAX_GRID)
    texts: list[LocalText] = Key(
        default_factory=list, description="The cells' texts, row by row from the top left (fewer: blanks)"
    )
    range: tuple[int, int] | tuple[int, int, int] | None = Key(
        None, description="Numbers instead of texts: [first, last] or [first, last, step], e.g. [1, 36]"
    )
    size: Length = "9pt"
    font: str = "sans"
    colour: str = "black"

    @field_validator("colour")
    @classmethod
    def _ink(cls, v: str) -> str:
        check_colour(v)
        return v

    @field_validator("size")
    @classmethod
    def _size(cls, v: Length) -> Length:
        return check_length(v)

    @model_validator(mode="after")
    def _one_source(self) -> "GridElement":
        if self.texts and self.range is not None:
            raise ValueError(Phrase.word(N_("give a grid either `texts` or `range`, not both")))
        if self.range is not None and len(self.range) == 3 and self.range[2] == 0:
            raise ValueError(Phrase.word(N_("range: the step must not be 0 (expected e.g. [0, 50, 5])")))
        return self

    def cell_texts(self) -> list[LocalText]:
        """The cells' texts in order, row by row (the range's numbers as text)."""
        if self.range is None:
            return list(self.texts)
        first, last, *rest = self.range
        step = rest[0] if rest else (1 if last >= first else -1)
        return [str(n) for n in range(first, last + (1 if step > 0 else -1), step)]


DrawnKinds = (
    RectElement
    | CircleElement
    | HexElement
    | PolygonElement
    | LineElement
    | TextElement
    | IconElement
    | ImageElement
    | HexGridElement
    | HexMapElement
    | GridElement
)
Drawn = Annotated[DrawnKinds, Key(discriminator="type")]  # an element a `repeat` may hold: all but repeat


class RepeatElement(Box):
    """Its `elements` drawn `count` times: the box is the first copy's cell (the elements' lengths and
    percentages are of the cell), each next copy moved by `step`; `{index}` is the copy's number."""

    type: Literal["repeat"]
    count: int = Key(ge=1, le=MAX_REPEAT, description="How many copies, e.g. 51 for a score track 0-50")
    start: int = Key(0, ge=-1_000_000, le=1_000_000, description="The first copy's {index} (default 0)")
    step: tuple[Length, Length] | None = Key(
        None, description="Each copy moved this far [x, y] from the last (default: the cell's width, across)"
    )
    wrap: int | None = Key(None, ge=1, le=MAX_REPEAT, description="Copies per line; then a new line")
    line_step: tuple[Length, Length] | None = Key(
        None, description="Each new line moved this far [x, y] (default: the cell's height, down)"
    )
    elements: list[Drawn] = Key(min_length=1, description="The elements of one copy, as on a face")

    # filled per copy (with its {index}), never from the data row alone
    cell_templated: ClassVar[frozenset[str]] = frozenset({"elements"})
    cell_fields: ClassVar[frozenset[str]] = frozenset({"index"})

    @field_validator("step", "line_step")
    @classmethod
    def _steps(cls, v: tuple[Length, Length] | None) -> tuple[Length, Length] | None:
        return v if v is None else (check_length(v[0], percent=True), check_length(v[1], percent=True))

    @model_validator(mode="after")
    def _bounded(self) -> "RepeatElement":
        """The work is known before drawing: copies × what one copy draws (a grid's cells count each)."""
        each = sum(
            e.columns * e.rows
            if isinstance(e, GridElement)
            else e.cols * e.rows
            if isinstance(e, HexGridElement)
            else 1
            for e in self.elements
        )
        if self.count * each > limits.REPEATED:
            raise ValueError(
                Phrase(
                    N_(
                        "{count} copies of {each} shapes each is over {most} (expected fewer copies or cells)"
                    ),
                    count=self.count,
                    each=each,
                    most=limits.REPEATED,
                )
            )
        return self


Element = Annotated[DrawnKinds | RepeatElement, Key(discriminator="type")]


class Side(Strict):
    """One side of a piece: a background (filling the bleed too) and elements drawn in order."""

    background: str | None = "white"
    pattern: str = "none"
    elements: list[Element] = Key(default_factory=list)

    @field_validator("background")
    @classmethod
    def _bg(cls, v: str | None) -> str | None:
        return check_colour(v)


class RowSource(Strict):
    """Data rows read from a list of a YAML data file of the game (one source for printing and checking)."""

    data: str = Key(description="YAML file in the spec folder, e.g. areas.yaml")
    list: str = Key(description="Dotted key of the list of items, e.g. 'tiles'")
    match: dict[str, str] = Key(default_factory=dict, description="Keep items with these fields")


class Lookup(Strict):
    """Row fields whose values name a table entry: the entry's fields join the row as `<field>_<key>`."""

    fields: list[str] = Key(min_length=1, description="Field names; `*` matches any text, e.g. spaces_*")
    table: dict[str, dict[str, Any]] | None = Key(None, description="value -> fields, written here")
    data: str | None = Key(None, description="...or a YAML data file of the spec holding the table")
    map: str | None = Key(None, description="Dotted key of the table in `data`")

    @model_validator(mode="after")
    def _one_table(self) -> "Lookup":
        if (self.table is None) == (self.data is None):
            raise ValueError(
                Phrase.word(N_("give a lookup either a `table` or a `data` file with its `map`, not both"))
            )
        if self.data is not None and not self.map:
            raise ValueError(
                Phrase.word(N_("a lookup from a data file needs `map`, the dotted key of its table"))
            )
        return self


NO_SIDE: Literal["none"] = "none"  # the back_by value (or default) of rows that have no back
SideOrNone = Annotated[
    Annotated[Side, Tag("side")] | Annotated[Literal["none"], Tag("none")],
    Discriminator(lambda v: "none" if v == NO_SIDE else "side"),  # a bad side says only what is wrong in it
]


class SideBy(Strict):
    """A whole side picked per row by the value of one field (`face_by`, `back_by`)."""

    field: str = Key(description="The row field whose value picks the side, e.g. type")
    faces: dict[str, SideOrNone] = Key(
        min_length=1, description="Field value -> the side drawn for it (back_by: none for no back)"
    )
    default: Side | str | None = Key(
        None,
        description="The side for any other value: a side, or the name of one of `faces` (back_by: none)",
    )

    @model_validator(mode="after")
    def _default_named(self) -> "SideBy":
        if isinstance(self.default, str) and self.default not in self.faces and self.default != NO_SIDE:
            known = ", ".join(self.faces)
            raise ValueError(
                Phrase(
                    N_("default {value} is none of the faces (expected one of: {known})"),
                    value=repr(self.default),
                    known=known,
                )
            )
        if not any(isinstance(side, Side) for side in (*self.faces.values(), self.default)):
            raise ValueError(Phrase.word(N_("every value is none (expected at least one side drawn)")))
        return self

    def side_for(self, value: str | None) -> tuple[str | None, Side | Literal["none"] | None]:
        """(the `faces` key, the side) for a row's value; (None, default) for another value. The side is
        `none` where the value (or the default) says the row has none."""
        if value is not None and value in self.faces:
            return value, self.faces[value]
        if isinstance(self.default, str):
            return self.default, self.faces.get(self.default, NO_SIDE)
        return None, self.default

    @property
    def picks_none(self) -> bool:
        """Whether some value (or the default) gives a row no side."""
        return NO_SIDE in self.faces.values() or self.default == NO_SIDE

    @property
    def fallback(self) -> Side:
        """The side that stands for the component where no row is at hand (the default, else the first)."""
        _, side = self.side_for(None)
        if isinstance(side, Side):
            return side
        return next(side for side in self.faces.values() if isinstance(side, Side))


Kind = Literal["card", "tile", "token", "die", "board", "sheet"]
Shape = Literal["rect", "hex", "polyhex", "circle", "square"]
KIND_COLUMNS = ("kind", "type", "piece", "figure")  # row fields that group a component's parts unasked


class Group(Strict):
    """How the inventory splits a component into parts: the distinct values of one row field."""

    by: str = Key(description="The row field whose values name the parts, e.g. kind")
    titles: dict[str, LocalText] = Key(
        default_factory=dict, description="Part value -> its title; default the value itself"
    )


class Component(Strict):
    name: str = Key(pattern=r"^[a-z0-9][a-z0-9_-]*$")
    title: LocalText | None = None
    kind: Kind
    shape: Shape | None = Key(None, description="Default: card rect, tile hex, token circle")
    size: Length | None = Key(
        None,
        description="card: poker|bridge|mini|tarot|square|WxH; tile: flat-to-flat; "
        "token: diameter or side; die: face edge (d10: kite's long diagonal); board: WxH; "
        "sheet: WxH (default: the page inside its margins; turned to fit)",
    )
    orientation: Literal["pointy", "flat"] = "pointy"
    corner: Length = "3mm"
    cells: CellSource | None = Key(None, description="polyhex tiles: the tile's cells")
    faces: Literal[6, 10] = 6
    count: Annotated[int, Key(ge=1, le=MAX_PIECES)] | str = Key(
        1,
        description="Copies of each row; or an expression over the row's fields giving its copies, "
        "e.g. \"3 if rarity == 'common' else 1\" (0 leaves the row out)",
    )
    where: str | None = Key(None, description="Keep only the rows this expression is true for, e.g. cost > 2")
    rows: list[dict[str, Any]] | None = None
    csv: str | None = Key(None, description="A CSV file, or a spreadsheet (.xlsx, .ods), in the spec folder")
    sheet: str | None = Key(None, description="The spreadsheet's sheet to read (default: the first)")
    rows_from: RowSource | None = Key(None, description="Data rows from a list in a YAML data file")
    lookup: list[Lookup] = Key(default_factory=list, description="Fields added to rows from tables")
    key: str | list[str] | None = Key(
        None,
        description="The row field (or fields, together) naming each data row once; default `id` when the "
        "rows have one. A value repeated is an error at its second row",
    )
    group: str | Group | None = Key(
        None,
        description="Parts the inventory lists: a row field (or {by, titles}); default the first of "
        "kind, type, piece, figure the rows have",
    )
    face: Side = Key(default_factory=Side)
    back: Side | None = None
    face_by: SideBy | None = Key(
        None, description="A whole face per row: {field, faces: {VALUE: FACE}, default}"
    )
    back_by: SideBy | None = Key(None, description="A whole back per row, as face_by")
    layout: Literal["auto", "grid", "honeycomb", "spaced", "packed"] = "auto"
    gutter: Length | None = None
    overlap: Length = "10mm"
    new_sheet: bool = Key(
        False,
        description="Start on a fresh sheet instead of in the room left on the previous component's last "
        "sheet (cards, tiles and tokens share sheets by default)",
    )

    @field_validator("count", mode="before")
    @classmethod
    def _count(cls, v: Any) -> Any:
        """A whole number (one message, not one per member of the union), or an expression's text."""
        if isinstance(v, str) and not re.fullmatch(r"\s*[+-]?\d+\s*", v):
            return v
        if isinstance(v, float) and v.is_integer():
            v = int(v)
        if isinstance(v, bool) or not isinstance(v, int | str):
            raise ValueError(Phrase(N_("Input should be a valid integer (got {value})"), value=repr(v)))
        number = int(v)
        if number < 1:
            raise ValueError(Phrase(N_("Input should be greater than or equal to {least}"), least=1))
        if number > MAX_PIECES:
            raise ValueError(Phrase(N_("Input should be less than or equal to {most}"), most=MAX_PIECES))
        return number

    @property
    def copies(self) -> int:
        """The copies every row is repeated (a `count:` expression is folded into each row's own count)."""
        return self.count if isinstance(self.count, int) else 1

    @field_validator("overlap", "gutter")
    @classmethod
    def _fixed_spacing(cls, v: Length | None) -> Length | None:
        """Spacing between pieces or board parts: one length for the component, never a row's {field}."""
        if templated(v):
            raise ValueError(
                Phrase(
                    N_("{value}: spacing is one length for the whole component (expected e.g. 3mm)"),
                    value=repr(v),
                )
            )
        return check_length(v, minimum=0.0)

    _variant: str = PrivateAttr("")  # "face=event" for the copy drawn for rows whose face_by value is event
    _side_paths: dict[str, tuple[str | int, ...]] = PrivateAttr(default_factory=dict)  # where its sides are

    @property
    def reuse_name(self) -> str:
        """The name a shared side is drawn once under: each face_by/back_by variant has its own."""
        return f"{self.name}@{self._variant}" if self._variant else self.name

    def side_path(self, side: str) -> tuple[str | int, ...]:
        """Where the side drawn for this component is written under it in game.yaml."""
        return self._side_paths.get(side, (side,))

    @model_validator(mode="after")
    def _sides_by_row(self) -> "Component":
        for key, by in (("face", self.face_by), ("back", self.back_by)):
            if by is None:
                continue
            if key in self.model_fields_set:
                raise ValueError(Phrase(N_("give {key} or {key}_by, not both"), key=key))
            if key == "face" and by.picks_none:
                said = N_("face_by: every row has a face (expected a face for each value, not none)")
                raise ValueError(Phrase.word(said))
            setattr(self, key, by.fallback)  # what stands for the component where no row is at hand
        return self

    @model_validator(mode="after")
    def _shape_fits_kind(self) -> "Component":
        defaults = {"card": "rect", "tile": "hex", "token": "circle", "board": "rect"}
        if self.shape is None:
            self.shape = defaults.get(self.kind, "rect")  # type: ignore[assignment]
        given = [key for key in ("rows", "csv", "rows_from") if getattr(self, key) is not None]
        if len(given) > 1:
            raise ValueError(
                Phrase(
                    N_(
                        "give data rows one way: inline (rows), from a CSV file (csv) or from a YAML list "
                        "(rows_from), not {keys}"
                    ),
                    keys=series([Phrase.word(g) for g in given], N_("{text} and {more}")),
                )
            )
        if self.sheet is not None and not (self.csv or "").lower().endswith((".xlsx", ".ods")):
            raise ValueError(
                Phrase.word(N_("`sheet` names a sheet of a spreadsheet: give `csv` an .xlsx or .ods file"))
            )
        if (self.csv or "").lower().endswith((".xls", ".xlsm", ".xlsb", ".numbers")):
            raise ValueError(
                Phrase(
                    N_("{file}: save the spreadsheet as .xlsx or .ods (or export it as CSV UTF-8)"),
                    file=repr(self.csv),
                )
            )
        if self.kind != "sheet" and self.size is None:
            raise ValueError(Phrase(N_("a {kind} needs a size"), kind=self.kind))
        if self.shape == "polyhex" and self.cells is None:
            raise ValueError(Phrase.word(N_("a polyhex tile needs `cells` (where its hexes come from)")))
        if self.size is not None and not templated(self.size):
            if self.kind in ("card", "board", "sheet") and isinstance(self.size, str):
                if self.size not in CARD_SIZES_MM:
                    try:
                        parse_size(self.size)
                    except ValueError as exc:
                        raise ValueError(_size_or_name(reason(exc), self.size)) from None
            else:
                check_length(self.size, minimum=1e-6)
        return self


_OR_NAME = {  # a size's message, where a card size's name would also do
    N_("{value} is not a size (expected WxH, e.g. 63x88mm)"): N_(
        "{value} is not a size ({hint}expected a size name or WxH, e.g. 63x88mm)"
    ),
    N_("{value} is out of range (expected a length of at most {most} mm)"): N_(
        "{value} is out of range ({hint}expected a size name or a length of at most {most} mm)"
    ),
}


def _size_or_name(said: str, size: str) -> str:
    """`parse_size`'s complaint, with the card size names nearest to `size` and "a size name" expected too."""
    if isinstance(said, Phrase) and said.template in _OR_NAME:
        return Phrase(_OR_NAME[said.template], hint=did_you_mean(size, CARD_SIZES_MM), **said.values)
    return said


class GameInfo(Strict):
    id: str = Key(pattern=r"^[a-z0-9][a-z0-9-]*$")
    title: LocalText
    players: tuple[int, int] = (1, 99)
    designer: str | None = None
    version: str | None = None
    notes: LocalText | None = None


class Defaults(Strict):
    page: str = "a4"
    bleed: Length = "3mm"
    margin: Length = "5mm"
    duplex: Literal["long", "short", "fold", "none"] = "long"
    lang: Lang = "en"
    font: str | None = Key(None, description="A CJK TrueType font file, relative to the spec")

    @field_validator("page")
    @classmethod
    def _page(cls, v: str) -> str:
        if v.lower() not in PAGE_SIZES_MM:
            parse_size(v)
        return v

    @field_validator("bleed", "margin")
    @classmethod
    def _lengths(cls, v: Length) -> Length:
        return check_fixed_length(v)


class Spec(Strict):
    model_config = ConfigDict(extra="forbid", populate_by_name=True, allow_inf_nan=False)

    schema_: str | None = Key(None, alias="$schema")
    game: GameInfo
    defaults: Defaults = Key(default_factory=Defaults)
    styles: dict[Annotated[str, Key(pattern=r"^[A-Za-z0-9][A-Za-z0-9_-]*$")], dict[str, Any]] = Key(
        default_factory=dict,
        description="Named sets of element keys; an element's `style:` applies them, its own keys win; "
        "a style may `extends:` another",
    )
    icons: dict[Annotated[str, Key(pattern=r"^[a-z0-9][a-z0-9_-]*$")], str] = Key(
        default_factory=dict,
        description="The spec's own inline icons for rich text (`:name:`): name -> SVG or PNG file",
    )
    components: list[Component] = Key(min_length=1)
    # the rules sections are typed where they are used (score: gamerules, validate: setuprules), so a
    # build does not pay for their models; `pnpforge schema` shows their schemas here all the same
    scoring: dict[str, Any] | None = Key(None, description="The score sheet as data (docs/scoring.md)")
    setup: dict[str, Any] | None = Key(None, description="The set-up rules as data (docs/setups.md)")

    @model_validator(mode="after")
    def _unique_names(self) -> "Spec":
        names = [c.name for c in self.components]
        duplicates = sorted({n for n in names if names.count(n) > 1})
        if duplicates:
            raise ValueError(Phrase(N_("component names must be unique: {names} repeated"), names=duplicates))
        return self
