"""The d10 face: a kite (pentagonal trapezohedron), as ratios to its long diagonal (apex to foot).

Apex 36°, other corners 108°: the angles for which ten congruent kites close around two 5-fold poles.
"""

from __future__ import annotations

import math

_KITE_SPAN = math.cos(math.radians(18)) + math.sin(math.radians(18)) / math.tan(
    math.radians(54)
)  # per long edge
KITE_WIDTH = 2 * math.sin(math.radians(18)) / _KITE_SPAN  # short diagonal
KITE_SHOULDER = math.cos(math.radians(18)) / _KITE_SPAN  # apex to the short diagonal
