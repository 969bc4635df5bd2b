"""Expected values and helpers for the weave-des-gimp-banner-layers tests (hidden)."""

from __future__ import annotations

from pathlib import Path

WS = Path.cwd()
# bottom to top; badge offset and glow opacity are GIMP's unsaved values (saved: 362,94; 40)
STACK = [
    ("background", 0, 0, 100, True),
    ("glow", 140, 40, 55, True),
    ("old-price", 300, 30, 100, False),
    ("badge", 352, 84, 85, True),
    ("headline", 24, 18, 100, True),
]
BG = (40, 90, 70)
BADGE = (214, 82, 46)  # the badge at 85 % over the background, blended in linear light
GLOW = (193, 184, 101)  # the glow at 55 %
GLOW_SAVED = (169, 165, 94)  # the glow at the saved 40 %
WHITE = (255, 255, 255)


def near(got: tuple[int, int, int], want: tuple[int, int, int], tol: int = 2) -> bool:
    return all(abs(g - w) <= tol for g, w in zip(got, want, strict=True))
