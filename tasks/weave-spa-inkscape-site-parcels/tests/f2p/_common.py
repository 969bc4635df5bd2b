"""Expected values for the weave-spa-inkscape-site-parcels tests (hidden from the agent)."""

from __future__ import annotations

from pathlib import Path

WS = Path.cwd()
# Counterclockwise rings in metres (origin bottom-left, y up): the plan's outlines after the
# group's translate(20,10) (and parcel D's own translate(150,110)), at 1 px = 0.5 m.
# Parcel C is the surveyor's unsaved correction (the saved plan has its east side at 60 m).
RINGS = {
    "A": [(10.0, 105.0), (70.0, 105.0), (70.0, 145.0), (10.0, 145.0)],
    "B": [(75.0, 115.0), (140.0, 95.0), (140.0, 145.0), (75.0, 145.0)],
    "C": [(10.0, 45.0), (35.0, 45.0), (35.0, 75.0), (65.0, 75.0), (65.0, 100.0), (10.0, 100.0)],
    "D": [(85.0, 45.0), (135.0, 45.0), (135.0, 90.0), (85.0, 90.0)],
}
AREA = {"A": 2400.0, "B": 2600.0, "C": 2125.0, "D": 2250.0}
PERIMETER = {"A": 200.0, "B": 213.01, "C": 220.0, "D": 190.0}
FILLS = {"A": (0x8B, 0xC3, 0x4A), "B": (0x4F, 0xC3, 0xF7), "C": (0xFF, 0xB7, 0x4D),
         "D": (0xBA, 0x68, 0xC8)}  # fmt: skip
DEMOLISHED_FILL = (0x9E, 0x9E, 0x9E)


def canonical(ring: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """The ring rotated to start at its smallest vertex (orientation kept)."""
    pts = [(round(x, 2), round(y, 2)) for x, y in ring]
    k = pts.index(min(pts))
    return pts[k:] + pts[:k]
