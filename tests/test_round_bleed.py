"""Round tokens and hexes keep their whole bleed toward their neighbours: on the home sheets of every
bundled game with round tokens or hex pieces, on A4 and Letter, the pixels all round each piece, out
to its full bleed, are that piece's own art, compared with the same side rendered alone on a page of
its own (an export page). Round tokens packed a bleed apart once kept only half of it: past the
midline lay the neighbour's bleed, in the neighbour's colour."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pypdfium2 as pdfium
import pytest
from click.testing import CliRunner
from conftest import MM, SpecMaker
from shapely.geometry import Point as ShapelyPoint
from shapely.geometry import Polygon

from pnpforge.build import BuildOptions, Plan, back_of, plan
from pnpforge.catalog import games
from pnpforge.cli import main
from pnpforge.components.load import load_target
from pnpforge.draw import write
from pnpforge.export.pages import margins, render, side_page
from pnpforge.export.sides import Side
from pnpforge.fonts import FontRegistry
from pnpforge.generator.pieces import Piece
from pnpforge.layouts.imposition.placement import Placement, to_page
from pnpforge.layouts.shapes import trim_outline

DPI = 300  # a pixel is 0.085 mm
SHARP = DPI / 72
OUT = (0.3, 0.55, 0.8, 1.0)  # where the bleed is read, as parts of the bleed past the cut line ...
EDGE = 0.25 * MM  # ... the last one this far inside the bleed's own edge (three pixels: its anti-aliasing)
STEPS = 64  # points round each ring
TOLERANCE = 48  # per channel, against the nearest of the pixels round the same spot alone
NEAR = 2  # pixels (0.17 mm) either way
ROUND = ("circle", "hex")


def _round_pieces(game: str) -> list[str]:
    loaded = load_target(game)
    return [c.name for c in loaded.spec.components if c.kind in ("token", "tile") and c.shape in ROUND]


GAMES = [game.id for game in games() if game.bundled and _round_pieces(game.id)]


def _image(document: pdfium.PdfDocument, index: int) -> np.ndarray:
    return np.asarray(document[index].render(scale=SHARP).to_pil().convert("RGB"), dtype=np.int16)


def _pixel(image: np.ndarray, x: float, y: float) -> np.ndarray:
    """The pixel at a page point (points)."""
    return image[int(y * SHARP), int(x * SHARP)]


def _near(image: np.ndarray, x: float, y: float) -> np.ndarray:
    """The pixels within NEAR of a page point: the same spot on another page may lie a pixel or two
    off (a pattern's tiles and an edge's anti-aliasing fall on the pixel grid differently)."""
    column, row = int(x * SHARP), int(y * SHARP)
    return image[max(0, row - NEAR) : row + NEAR + 1, max(0, column - NEAR) : column + NEAR + 1].reshape(
        -1, 3
    )


class Alone:
    """Each piece side drawn alone on its own export page, rendered once per distinct row and side."""

    def __init__(self, the_plan: Plan) -> None:
        self.plan = the_plan
        self.found: dict[tuple[str, str, str], tuple[np.ndarray, float, float]] = {}

    def __call__(self, piece: Piece, side: str) -> tuple[np.ndarray, float, float]:
        key = (piece.component.name, side, repr(sorted(piece.row.items())))
        if key not in self.found:
            drawn = back_of(piece) if side == "back" else piece
            one = Side(piece.component, 1, "front", 1, drawn, "back" if side == "back" else "face", 3)
            page = side_page(one, self.plan.ctx)
            left, top, _, _ = margins(drawn, self.plan.ctx.bleed)
            self.found[key] = (_image(pdfium.PdfDocument(render([page], "alone")), 0), left, top)
        return self.found[key]


def _trim(placement: Placement, piece: Piece) -> Polygon:
    """A piece's cut line on the page."""
    return Polygon(to_page(placement, trim_outline(piece), (piece.width, piece.height)))


def foreign_bleed(the_plan: Plan, document: pdfium.PdfDocument) -> tuple[list[str], int]:
    """Where the bleed round a round token or hex on a home sheet is not its own art; points read.

    In a honeycomb (hexes sharing their cut edges) the bleed past a shared edge, and past its line
    beyond the tips, is the neighbour's: points nearer a neighbour's cut line than their own are not
    read there. Anywhere else every point is read."""
    alone = Alone(the_plan)
    bleed = the_plan.frame.bleed
    problems: list[str] = []
    checked = 0
    for number, page in enumerate(the_plan.pages):
        if page.layout is None or page.kind != "pieces":
            continue
        blocks = [
            block
            for block in page.layout.blocks
            if any(page.pieces[p.index].component.shape in ROUND for p in block.placements)
        ]
        if not blocks:
            continue
        image = _image(document, number)
        for block in blocks:
            drawn = [
                back_of(page.pieces[p.index]) if page.side == "back" else page.pieces[p.index]
                for p in block.placements
            ]
            trims = [_trim(p, piece) for p, piece in zip(block.placements, drawn, strict=True)]
            for k, (placement, piece) in enumerate(zip(block.placements, drawn, strict=True)):
                if piece.component.shape not in ROUND:
                    continue
                own, left, top = alone(page.pieces[placement.index], page.side)
                trim = Polygon(trim_outline(piece))
                size = (piece.width, piece.height)
                for part in OUT:
                    out = min(part * bleed, bleed - EDGE)
                    ring = trim.buffer(out, join_style="mitre", mitre_limit=4.0).exterior
                    for step in range(STEPS):
                        spot = ring.interpolate(step / STEPS, normalized=True)
                        ((x, y),) = to_page(placement, [(spot.x, spot.y)], size)
                        if block.shared_edges:
                            at = ShapelyPoint(x, y)
                            mine = trims[k].exterior.distance(at)
                            if any(j != k and t.distance(at) < mine + 0.25 * MM for j, t in enumerate(trims)):
                                continue  # the neighbour's side of a shared cut line
                        checked += 1
                        home = _pixel(image, x, y)
                        if (
                            np.abs(_near(own, spot.x + left, spot.y + top) - home).max(axis=1).min()
                            > TOLERANCE
                        ):
                            problems.append(
                                f"p{number + 1} {page.side} {piece.component.name} at ({x / MM:.1f}, "
                                f"{y / MM:.1f}) mm, {out / MM:.2f} mm out: "
                                f"{tuple(int(c) for c in home)}, not its own art"
                            )
    return problems, checked


@pytest.mark.parametrize("page", ["a4", "letter"])
@pytest.mark.parametrize("game", GAMES)
def test_round_tokens_and_hexes_keep_their_own_art_out_to_their_whole_bleed(
    game: str, page: str, tmp_path: Path
) -> None:
    options = BuildOptions(out_dir=tmp_path, page=page)
    the_plan = plan(load_target(game), options)
    (pdf,) = write(the_plan, options)
    problems, checked = foreign_bleed(the_plan, pdfium.PdfDocument(pdf))
    assert checked > 2000
    assert not problems, (len(problems), problems[:8])


def test_every_bundled_game_with_round_pieces_is_read() -> None:
    """The games read above: all but The Good Shepherds (boards, cards and dice only)."""
    assert sorted(GAMES) == ["ankh", "delphi", "gods", "quo-vadis"]


TOKENS = """\
game: {id: rounds, title: Rounds}
defaults: {bleed: 3mm, duplex: none}
components:
  - {name: plain, kind: token, size: 20mm, count: 12, face: {background: "#c03030"}}
  - {name: narrow, kind: token, size: 20mm, count: 12, gutter: 1mm, new_sheet: true,
     face: {background: "#3030c0"}}
  - {name: hexes, kind: tile, size: 20mm, layout: spaced, gutter: 2mm, count: 12, new_sheet: true,
     face: {background: "#30a030"}}
  - {name: gridded, kind: token, size: 20mm, layout: grid, count: 12, new_sheet: true,
     face: {background: "#a0a030"}}
"""


def test_round_and_spaced_pieces_sit_two_bleeds_apart_whatever_the_gutter(make_spec: SpecMaker) -> None:
    """Round tokens by default or in a grid, and a `gutter:` narrower than two bleeds (round tokens,
    spaced hexes): the nearest two cut lines on a sheet are two bleeds apart, so neither bleed reaches
    the other."""
    the_plan = plan(load_target(make_spec(TOKENS)), BuildOptions(page="a4"), FontRegistry(search=False))
    nearest: dict[str, float] = {}
    for page in the_plan.pages:
        if page.layout is None:
            continue
        trims = [
            (page.pieces[p.index].component.name, _trim(p, page.pieces[p.index]))
            for p in page.layout.placements
        ]
        for k, (name, trim) in enumerate(trims):
            for other_name, other in trims[k + 1 :]:
                if other_name == name:
                    nearest[name] = min(nearest.get(name, math.inf), trim.distance(other))
    assert sorted(nearest) == ["gridded", "hexes", "narrow", "plain"]
    for name, gap in nearest.items():
        assert gap / MM == pytest.approx(6.0, abs=0.05), name


def test_a_round_token_that_fits_only_without_its_bleed_is_refused_at_its_size(
    make_spec: SpecMaker, tmp_path: Path
) -> None:
    """A 192 mm disc fits A4's 195 mm inside the marks, but not with two 3 mm bleeds: refused at its
    `size:`, naming the bleed and the pages it fits on with it (not A4 itself)."""
    folder = make_spec(
        "game: {id: disc, title: Disc}\ncomponents:\n  - {name: disc, kind: token, size: 192mm, count: 1}\n"
    )
    result = CliRunner().invoke(main, ["build", str(folder), "-o", str(tmp_path / "out"), "--page", "a4"])
    assert result.exit_code == 2
    assert "game.yaml:3:37: disc: a 192.0 × 192.0 mm token with its 3 mm bleed does not fit" in result.output
    assert "it fits on letter, a3 (try --page letter)" in result.output
    assert not (tmp_path / "out").exists() or not list((tmp_path / "out").iterdir())
