"""Imposition: where pieces go on pages, one module per way of laying them out.

Pure placement maths in points (y down); nothing is drawn here.

The modules: `placement` (the types every layout returns, fitting a piece to a page), `clipping`,
`grids` (rectangles in rows), `lattice` (hexes and circles), `nesting` (polyhex tiles), `boards`
(boards over pages, whole sheets), `dice` (cube and d10 nets), `sharing` (blocks sharing sheets), `backs`.

Cards and square pieces sit in a grid whose gutters are as wide as two bleeds when that still fits the
most pieces, and 0 (shared cut lines) otherwise: never a part of a bleed. Hexes sit in a honeycomb
(shared cut edges) or spaced by two bleeds; round tokens are hex-packed two bleeds apart; boards larger
than a page (or that fit it only without their whole bleed) are split over pages with overlap; die
faces are laid out as cube nets; polyhex tiles are nested, turned in 60° steps. Where neighbours'
bleeds would overlap, each placement gets a clip: its bleed outline cut at the bisectors with its
neighbours, so art never paints over a neighbour's trim.

Pieces per page are counted with trims a bleed inside the art area (`placement.trim_area`), so every
piece keeps its whole bleed on the page; a rectangular piece too large for that is printed in parts
as a board is (the build's choice), and a round or hex one is left out (the build refuses it).

Small pieces of several components share sheets (`share`): each component's block continues in the band
its predecessor left free at the bottom of its last sheet.
"""
