"""`--to tts`: Tabletop Simulator deck sheets and saved objects.

Cards: per component, sheets of up to 10 × 7 faces cut at their trim (the last slot of each sheet holds
the hidden card TTS shows for cards in another player's hand), each sheet within 4096 × 4096 px, one
back image (or back sheets when every card has its own back), and `<component>.json`, a saved object
holding the deck: DeckIDs, CustomDeck with FaceURL/BackURL (file names relative to the JSON, or the
hosted addresses under --base-url), NumWidth/NumHeight, a card per copy named from its row (its title
or name, else its id). Tiles and tokens: one image per row side and a bag of Custom_Tile objects (hex
tiles as hexagons, round pieces as circles, the rest as boxes), named as cards are. Dice are not exported.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

from pnpforge.build import RowPlace, back_of
from pnpforge.components.template import localise
from pnpforge.export import Prepared, check_pixels
from pnpforge.export.pages import Page, render
from pnpforge.export.raster import Shot, write_pngs
from pnpforge.export.sides import Row, has_back, rows, shared_back, title_of
from pnpforge.files import write_atomic
from pnpforge.generator.expand import ComponentPieces
from pnpforge.generator.keys import ID_FIELD, row_title
from pnpforge.generator.pieces import Piece
from pnpforge.i18n import N_
from pnpforge.layouts.faces.context import RenderContext
from pnpforge.layouts.faces.render import SideName, draw_side
from pnpforge.limits import pixels
from pnpforge.output.canvas import Canvas
from pnpforge.phrase import Phrase
from pnpforge.units import mm

MAX_SIDE = 4096  # px: TTS's largest sheet
MAX_COLS, MAX_ROWS = 10, 7
HIDDEN_GREY = (0.55, 0.55, 0.55)  # a card with no back: a plain grey back and hidden card
TILE_TYPES = {"hex": 1, "circle": 2}  # CustomTile.Type; everything else is 0, a box
SPACING = 4.0  # TTS units between the objects of one saved file
STANDARD_CARD = (mm(63.5), mm(88.9))  # taken as TTS's card at scale 1: a 2.5 × 3.5 in poker card


@dataclass
class Deck:
    component: str
    cols: int
    rows: int
    cell: tuple[int, int]  # px per card
    sheets: list[list[Row]]


def grid(cards: int) -> tuple[int, int]:
    """Columns and rows of a sheet: the fewest slots that hold every card plus the hidden one (squarest
    first), at most 10 × 7; TTS takes 2 × 2 at least."""
    slots = cards + 1
    if slots >= MAX_COLS * MAX_ROWS:
        return MAX_COLS, MAX_ROWS
    fits = [
        (c * r, abs(c - r), -c, c, r)
        for c in range(2, MAX_COLS + 1)
        for r in range(2, MAX_ROWS + 1)
        if c * r >= slots
    ]
    _, _, _, cols, rows_ = min(fits)
    return cols, rows_


def cell_size(piece: Piece, cols: int, rows_: int, dpi: int) -> tuple[int, int]:
    """A card's pixels on the sheet: at `dpi`, or smaller so the sheet stays within 4096 px."""
    scale = min(dpi / 72.0, MAX_SIDE / (cols * piece.width), MAX_SIDE / (rows_ * piece.height))
    return max(1, math.floor(piece.width * scale)), max(1, math.floor(piece.height * scale))


def _draw_at(
    canvas: Canvas, piece: Piece, side: SideName | None, ctx: RenderContext, x: float, y: float
) -> None:
    """One card side in its slot, cut at its trim; None: the plain grey card."""
    w, h = piece.width, piece.height
    canvas.save()
    canvas.translate(x, y)
    canvas.clip([(0, 0), (w, 0), (w, h), (0, h)])
    if side is None:
        canvas.polygon([(0, 0), (w, 0), (w, h), (0, h)], HIDDEN_GREY, None)
    else:
        ctx.fonts.context = RowPlace(piece)  # a character no font has is said at its row
        draw_side(canvas, piece, side, ctx)
    canvas.restore()


def _sheet_page(
    deck: Deck, sheet: list[Row], side: SideName, hidden: SideName | None, ctx: RenderContext
) -> Page:
    first = sheet[0].piece
    w, h = first.width, first.height

    def draw(canvas: Canvas) -> None:
        for slot, row in enumerate(sheet):
            piece = row.piece if side == "face" else back_of(row.piece)
            _draw_at(canvas, piece, side, ctx, (slot % deck.cols) * w, (slot // deck.cols) * h)
        last = deck.cols * deck.rows - 1
        _draw_at(canvas, back_of(first), hidden, ctx, (last % deck.cols) * w, (last // deck.cols) * h)

    return Page(deck.cols * w, deck.rows * h, 0.0, draw)


def _single_page(piece: Piece, side: SideName | None, ctx: RenderContext) -> Page:
    def draw(canvas: Canvas) -> None:
        _draw_at(canvas, piece, side, ctx, 0, 0)

    return Page(piece.width, piece.height, 0.0, draw)


def _url(path: Path, folder: Path, base_url: str | None) -> str:
    """An image's address in the JSON in `folder`: its path relative to the JSON (the folder can move),
    or with --base-url the hosted address, base + that path."""
    relative = Path(os.path.relpath(path, folder)).as_posix()
    if base_url is None:
        return relative
    return base_url.rstrip("/") + "/" + quote(relative)


def _guid(*parts: object) -> str:
    """A stable 6-hex GUID, as TTS writes them: same input, same file."""
    return hashlib.sha1("/".join(map(str, parts)).encode()).hexdigest()[:6]


def _transform(x: float, face_down: bool = False) -> dict[str, float]:
    return {
        "posX": x,
        "posY": 1.0,
        "posZ": 0.0,
        "rotX": 0.0,
        "rotY": 180.0,
        "rotZ": 180.0 if face_down else 0.0,
        "scaleX": 1.0,
        "scaleY": 1.0,
        "scaleZ": 1.0,
    }


def _object(name: str, nickname: str, guid: str, x: float, face_down: bool = False) -> dict[str, Any]:
    return {
        "GUID": guid,
        "Name": name,
        "Transform": _transform(x, face_down),
        "Nickname": nickname,
        "Description": "",
        "ColorDiffuse": {"r": 1.0, "g": 1.0, "b": 1.0},
        "Locked": False,
        "Grid": True,
        "Snap": True,
        "Autoraise": True,
        "Sticky": True,
        "Tooltip": True,
        "HideWhenFaceDown": face_down,
        "Hands": face_down,
    }


def _nickname(row: Row, lang: str) -> str:
    """What TTS shows over a card or token: its `title` or `name` field, else its `id` (so a designer finds
    token t07 by the name the spec gives it), else the component's title and the row's number."""
    ident = str(row.piece.row.get(ID_FIELD, "")).strip()
    return ident if ident and not row_title(row.piece, lang) else title_of(row, lang)


def _card_shape(obj: dict[str, Any], piece: Piece) -> None:
    """The card's size against TTS's card (a poker card at scale 1, 63.5 × 88.9 mm). A landscape card
    lies sideways: TTS turns its card a quarter, so X runs along the long side and Z along the short
    one, and each axis is scaled on its own so the card keeps its own proportions (scaling both by the
    long side stretched Quo Vadis' 95 × 65 mm race cards 4.4 % to TTS's 1.4 : 1)."""
    short, long_ = sorted((piece.width, piece.height))
    sideways = piece.width > piece.height
    obj["SidewaysCard"] = sideways
    across = long_ / STANDARD_CARD[1] if sideways else short / STANDARD_CARD[0]
    down = short / STANDARD_CARD[0] if sideways else long_ / STANDARD_CARD[1]
    obj["Transform"]["scaleX"] = round(across, 4)
    obj["Transform"]["scaleZ"] = round(down, 4)


def saved_file(name: str, objects: list[dict[str, Any]]) -> str:
    """A TTS saved-object file (Saves/Saved Objects): the objects, placed side by side."""
    data = {
        "SaveName": name,
        "GameMode": "",
        "Date": "",
        "Gravity": 0.5,
        "PlayArea": 0.5,
        "Table": "",
        "Sky": "",
        "Note": "",
        "Rules": "",
        "XmlUI": "",
        "LuaScript": "",
        "LuaScriptState": "",
        "ObjectStates": objects,
        "TabStates": {},
        "VersionNumber": "",
    }
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


class _Job:
    """Pages to draw, and the PNG each becomes; pages are collected over every component."""

    def __init__(self) -> None:
        self.pages: list[Page] = []
        self.shots: list[Shot] = []

    def add(self, page: Page, size: tuple[int, int], path: Path, dpi: int) -> Path:
        check_pixels(size[0], size[1], path.name, dpi)
        real_dpi = size[0] / page.width * 72.0  # a sheet may be drawn below --dpi to fit 4096 px
        self.shots.append(Shot(len(self.pages), size[0], size[1], path, real_dpi))
        self.pages.append(page)
        return path


def _deck(group: ComponentPieces, prepared: Prepared, job: _Job, out: Path, x: float) -> dict[str, Any]:
    component, ctx, dpi, lang = group.component, prepared.ctx, prepared.options.dpi, prepared.ctx.lang
    base = prepared.options.base_url
    found = rows(group)
    cols, rows_ = grid(len(found))
    per_sheet = cols * rows_ - 1
    deck = Deck(
        component.name,
        cols,
        rows_,
        cell_size(found[0].piece, cols, rows_, dpi),
        [found[k : k + per_sheet] for k in range(0, len(found), per_sheet)],
    )
    unique_back = has_back(component) and not shared_back(component)
    hidden: SideName | None = "back" if shared_back(component) else None
    sheet_px = (cols * deck.cell[0], rows_ * deck.cell[1])
    back_path = None
    if not unique_back:
        page = _single_page(back_of(found[0].piece), "back" if has_back(component) else None, ctx)
        back_path = job.add(page, deck.cell, out / f"{component.name}-back.png", dpi)
    custom: dict[str, dict[str, Any]] = {}
    cards: list[dict[str, Any]] = []
    for number, sheet in enumerate(deck.sheets, start=1):
        face = job.add(
            _sheet_page(deck, sheet, "face", hidden, ctx),
            sheet_px,
            out / f"{component.name}-sheet-{number}.png",
            dpi,
        )
        back = back_path
        if unique_back:
            back = job.add(
                _sheet_page(deck, sheet, "back", None, ctx),
                sheet_px,
                out / f"{component.name}-backs-{number}.png",
                dpi,
            )
        assert back is not None
        entry = {
            "FaceURL": _url(face, out, base),
            "BackURL": _url(back, out, base),
            "NumWidth": cols,
            "NumHeight": rows_,
            "BackIsHidden": True,
            "UniqueBack": unique_back,
            "Type": 0,
        }
        custom[str(number)] = entry
        for slot, row in enumerate(sheet):
            for copy in range(row.count):
                card = _object("Card", _nickname(row, lang), _guid(component.name, row.number, copy), x, True)
                card.update({"CardID": number * 100 + slot, "CustomDeck": {str(number): entry}})
                _card_shape(card, found[0].piece)
                cards.append(card)
    if len(cards) == 1:
        return cards[0]
    name = localise(component.title, lang) if component.title else component.name
    obj = _object("Deck", name, _guid(component.name, "deck"), x, True)
    obj.update(
        {"DeckIDs": [card["CardID"] for card in cards], "CustomDeck": custom, "ContainedObjects": cards}
    )
    _card_shape(obj, found[0].piece)
    return obj


def _tiles(group: ComponentPieces, prepared: Prepared, job: _Job, out: Path, x: float) -> dict[str, Any]:
    component, ctx, dpi, lang = group.component, prepared.ctx, prepared.options.dpi, prepared.ctx.lang
    tile_type = TILE_TYPES.get(component.shape or "", 0)
    base = prepared.options.base_url
    found = rows(group)
    digits = max(3, len(str(len(found))))
    shared = None
    if shared_back(component):
        page = _single_page(back_of(found[0].piece), "back", ctx)
        shared = job.add(page, _size(found[0].piece, dpi), out / f"{component.name}-back.png", dpi)
    tiles = []
    for row in found:
        stem = f"{component.name}-{row.number:0{digits}d}"
        size = _size(row.piece, dpi)
        front = job.add(_single_page(row.piece, "face", ctx), size, out / f"{stem}-front.png", dpi)
        back = shared or front
        if has_back(component) and shared is None:
            back = job.add(_single_page(back_of(row.piece), "back", ctx), size, out / f"{stem}-back.png", dpi)
        image = {
            "ImageURL": _url(front, out, base),
            "ImageSecondaryURL": _url(back, out, base),
            "ImageScalar": 1.0,
            "WidthScale": 0.0,
            "CustomTile": {"Type": tile_type, "Thickness": 0.1, "Stackable": True, "Stretch": True},
        }
        for copy in range(row.count):
            tile = _object("Custom_Tile", _nickname(row, lang), _guid(component.name, row.number, copy), x)
            tile["CustomImage"] = image
            tiles.append(tile)
    if len(tiles) == 1:
        return tiles[0]
    name = localise(component.title, lang) if component.title else component.name
    bag = _object("Bag", name, _guid(component.name, "bag"), x)
    bag["ContainedObjects"] = tiles
    return bag


def _size(piece: Piece, dpi: int) -> tuple[int, int]:
    """A tile's image at `dpi`, at most 4096 px on its long side."""
    scale = min(1.0, MAX_SIDE / max(pixels(piece.width, dpi), pixels(piece.height, dpi)))
    return pixels(piece.width, dpi * scale), pixels(piece.height, dpi * scale)


def export_tts(prepared: Prepared) -> list[Path]:
    out = prepared.out("tts")
    job = _Job()
    saved: list[tuple[Path, str]] = []
    for index, group in enumerate(g for g in prepared.groups if g.pieces):
        component = group.component
        if component.kind == "die":
            no_dice = N_("note: {component}: dice are not exported to Tabletop Simulator")
            prepared.notes.append(Phrase(no_dice, component=component.name))
            continue
        make = _deck if component.kind == "card" else _tiles
        obj = make(group, prepared, job, out, index * SPACING)
        saved.append((out / f"{component.name}.json", saved_file(component.name, [obj])))
    if job.pages:
        pdf = prepared.drawn(lambda: render(job.pages, prepared.title))
        write_pngs(pdf, job.shots, prepared.options.processes)
    for path, text in saved:
        write_atomic(path, text)
    return [shot.path for shot in job.shots] + [path for path, _ in saved]
