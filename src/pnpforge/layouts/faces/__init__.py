"""Drawing one side of one piece from its face template, on any Canvas (PDF or SVG).

The piece's trim top-left is (0, 0) at the current transform. The background fills the bleed
outline, then the elements are drawn in order, all clipped to that outline. Every `{field}` is
filled from the piece's data row first; `check_side` runs the same code on a canvas that draws
nothing, so anything that would fail while drawing is reported before a file is written.

The modules: `render` (the entry points: `draw_side`, `check_side`, `side_is_shared`, and the side's
loop over its elements), `draw` (one element: shown or not, its box, the sheet and bleed around it, its
rotation, the warning when it lies wholly outside the piece), `kind` (`ElementKind`: one class per
element kind holding its model, its drawing and whether it bleeds, found by `kind_of(element)`),
`context` (`RenderContext`, the element's `Box`), `templates` (`{field}` filling, checked and cached),
`values` (colours, lengths, `FaceError`), `patterns`, `images` (image files found, checked and
measured), `elements` (the kinds rect, circle, hex, polygon, line, text, icon, image and grid),
`repeat` (the repeat kind), `inline` (rich text), `bleed`, `hexmaps` (the hexgrid and hexmap kinds, on
the hex core of geometry/hexgrid.py) and `hexdata` (the data files hex maps read their cells from).
"""
