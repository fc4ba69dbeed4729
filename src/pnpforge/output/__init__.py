"""Writers: PDF (reportlab), SVG (svgwrite), PNG previews (pypdfium2)."""
