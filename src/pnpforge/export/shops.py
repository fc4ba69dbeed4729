"""`--shop NAME`: the card sizes, bleed and resolution a print-on-demand shop publishes.

A card component whose trim is within `NEAR` of one of the shop's card products (either way round) is
drawn at that product's exact trim (63 × 88 mm becomes 63.5 × 88.9 mm for a 2.5 × 3.5 in poker card);
every piece gets the shop's bleed; cards without a back get a plain white back, since these shops print
a back on every card. What changed is said in a note, with the component's line in game.yaml.
The figures are the shops' own templates (docs/exports.md lists them with the pixel sizes to check).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from pnpforge.errors import InputError
from pnpforge.export import CLI, Prepared
from pnpforge.export.pdfx import X1A, X4
from pnpforge.generator.expand import ComponentPieces
from pnpforge.i18n import N_
from pnpforge.phrase import Phrase
from pnpforge.units import mm, to_mm

INCH = 72.0
NEAR = mm(2.5)  # a component this close to a product is meant to be it


@dataclass(frozen=True)
class Shop:
    name: str
    title: str
    bleed: float  # points, on every edge
    dpi: int
    products: dict[str, tuple[float, float]]  # card product -> trim (points, portrait)
    pdfx: str = X4  # the part of PDF/X the shop's files are written in


SHOPS = {
    "makeplayingcards": Shop(
        "makeplayingcards",
        "MakePlayingCards",
        0.12 * INCH,  # poker template 822 × 1122 px at 300 dpi: 750 × 1050 trim + 36 px a side
        300,
        {
            "poker": (2.5 * INCH, 3.5 * INCH),
            "bridge": (2.25 * INCH, 3.5 * INCH),
            "mini": (1.75 * INCH, 2.5 * INCH),
            "tarot": (2.75 * INCH, 4.75 * INCH),
        },
    ),
    "drivethrucards": Shop(
        "drivethrucards",
        "DriveThruCards",
        0.125 * INCH,  # poker: 2.75 × 3.75 in with bleed, 825 × 1125 px at 300 dpi
        300,
        {"poker": (2.5 * INCH, 3.5 * INCH), "tarot": (2.75 * INCH, 4.75 * INCH)},
        X1A,  # their file guidelines: every file PDF/X-1a:2003, CMYK only
    ),
    "thegamecrafter": Shop(
        "thegamecrafter",
        "The Game Crafter",
        0.125 * INCH,  # poker template 825 × 1125 px, mini 600 × 825 px, at 300 dpi
        300,
        {
            "poker": (2.5 * INCH, 3.5 * INCH),
            "bridge": (2.25 * INCH, 3.5 * INCH),
            "mini": (1.75 * INCH, 2.5 * INCH),
            "tarot": (2.75 * INCH, 4.75 * INCH),
            "square": (3.5 * INCH, 3.5 * INCH),
        },
    ),
}


def shop_named(name: str) -> Shop:
    shop = SHOPS.get(name.strip().lower())
    if shop is None:
        raise InputError.single(
            CLI,
            Phrase(
                N_("--shop {name}: unknown shop (expected one of {known})"),
                name=repr(name),
                known=list(SHOPS),
            ),
        )
    return shop


def standard_for(shop: str | None) -> str:
    """The part of PDF/X a print-shop file is written in: PDF/X-1a:2003 for the shops that ask for it."""
    found = SHOPS.get((shop or "").strip().lower())
    return found.pdfx if found is not None else X4


def product_for(width: float, height: float, shop: Shop) -> tuple[str, float, float] | None:
    """The shop's card product nearest this trim (kept in its orientation), if within NEAR."""
    best = None
    for product, (pw, ph) in shop.products.items():
        if width > height:
            pw, ph = ph, pw
        off = max(abs(pw - width), abs(ph - height))
        if off <= NEAR and (best is None or off < best[0]):
            best = (off, product, pw, ph)
    return None if best is None else best[1:]


def _mm(width: float, height: float) -> str:
    return f"{round(to_mm(width), 2):g} × {round(to_mm(height), 2):g} mm"


def apply_shop(prepared: Prepared, shop: Shop) -> None:
    """Resize the cards that match a product, set the shop's bleed; notes say what changed."""
    prepared.ctx.bleed = shop.bleed
    groups = []
    for group in prepared.groups:
        component = group.component
        first = group.pieces[0] if group.pieces else None
        if first is None:
            groups.append(group)
            continue
        where = _where(prepared, component.name)
        if component.kind != "card":  # tiles, tokens, boards: no card product; the shop's custom items
            prepared.notes.append(
                Phrase(
                    N_(
                        "{where}: note: {component} ({kind}, {size}) is none of {shop}'s card products: "
                        "exported at its own size with their bleed (order it as a custom item)"
                    ),
                    where=where,
                    component=component.name,
                    kind=component.kind,
                    size=_mm(first.width, first.height),
                    shop=shop.title,
                )
            )
            groups.append(group)
            continue
        found = product_for(first.width, first.height, shop)
        if found is None:
            prepared.notes.append(
                Phrase(
                    N_(
                        "{where}: note: {component} ({size}) matches no {shop} card product; "
                        "exported at its own "
                        "size with their bleed (ask for a custom size)"
                    ),
                    where=where,
                    component=component.name,
                    size=_mm(first.width, first.height),
                    shop=shop.title,
                )
            )
            groups.append(group)
            continue
        product, width, height = found
        if abs(width - first.width) > 1e-6 or abs(height - first.height) > 1e-6:
            prepared.notes.append(
                Phrase(
                    N_(
                        "{where}: note: {component} drawn at {shop}'s {product} size {size} (the "
                        "spec says {asked})"
                    ),
                    where=where,
                    component=component.name,
                    shop=shop.title,
                    product=product,
                    size=_mm(width, height),
                    asked=_mm(first.width, first.height),
                )
            )
        pieces = [dataclasses.replace(piece, width=width, height=height) for piece in group.pieces]
        groups.append(ComponentPieces(component, pieces))
    prepared.groups = groups


def _where(prepared: Prepared, name: str) -> str:
    """`game.yaml:LINE` of component `name` (its `size` when written)."""
    source = prepared.loaded.source
    raw = source.data.get("components") if isinstance(source.data, dict) else None
    for index, item in enumerate(raw if isinstance(raw, list) else []):
        if isinstance(item, dict) and item.get("name") == name:
            path = ("components", index, "size") if "size" in item else ("components", index)
            line, _ = source.where(path)
            return f"{source.file}:{line}"
    return f"{source.file}:1"
