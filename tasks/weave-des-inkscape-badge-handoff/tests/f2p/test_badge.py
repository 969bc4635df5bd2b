"""brand/badge.svg and out/handoff.json carry the master's visible badge as Inkscape shows it."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

_spec = importlib.util.spec_from_file_location("_common", Path(__file__).with_name("_common.py"))
assert _spec is not None and _spec.loader is not None
c = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(c)

BADGE = c.WS / "brand" / "badge.svg"


def test_badge_colours() -> None:
    els = c.by_id(BADGE)
    assert c.effective_fill(els["badge-ring"]) == c.RING, "badge-ring is not the master's colour"
    star = c.effective_fill(els["badge-star"])
    assert star != c.STALE["star"], (
        "badge-star has the master's saved fill attribute, not the unsaved colour Inkscape shows"
    )
    assert star == c.STAR, f"badge-star fill {star} is not the master's current colour"
    assert c.effective_fill(els["badge-face"]) in ("#ffffff", "#fff", "white")


def test_badge_label() -> None:
    """The visible label, and nothing of the master's hidden or locked layers."""
    els = c.by_id(BADGE)
    label = "".join(els["badge-label"].itertext()).strip()
    assert label == c.LABEL, f"badge-label reads {label!r}"
    for hidden in ("draft-note", "draft-label", "export-frame", "layer-draft", "layer-frame"):
        assert hidden not in els, f"{hidden} (a hidden or locked layer of the master) was shipped"
    text = BADGE.read_text(encoding="utf-8")
    assert "DRAFT" not in text and "(alt)" not in text, "the hidden draft layer's text was shipped"


def test_star_shape() -> None:
    """The star's outline: points inside the master's five-point star and outside it."""
    d = c.by_id(BADGE)["badge-star"].get("d", "")
    pts = _polygon(d)
    assert len(pts) == 10, f"badge-star is not the master's ten-vertex star: {len(pts)} vertices"
    want = [(80, 44), (89, 70), (116, 70), (94, 86), (102, 112), (80, 96), (58, 112), (66, 86),
            (44, 70), (71, 70)]  # fmt: skip
    got = sorted((round(x, 2), round(y, 2)) for x, y in pts)
    assert got == sorted((float(x), float(y)) for x, y in want), got


def _polygon(d: str) -> list[tuple[float, float]]:
    """Vertices of a path made of M/L/H/V/Z commands (absolute or relative), as Inkscape writes."""
    import re

    tokens = re.findall(r"[MmLlHhVvZz]|-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?", d)
    pts: list[tuple[float, float]] = []
    x = y = 0.0
    cmd = ""
    i = 0
    while i < len(tokens):
        t = tokens[i]
        if t.isalpha():
            cmd = t
            i += 1
            if cmd in "Zz":
                continue
            continue
        if cmd in "MLml":
            nx, ny = float(tokens[i]), float(tokens[i + 1])
            i += 2
            if cmd.islower():
                nx, ny = x + nx, y + ny
            x, y = nx, ny
            pts.append((x, y))
            if cmd == "M":
                cmd = "L"
            elif cmd == "m":
                cmd = "l"
        elif cmd in "Hh":
            v = float(tokens[i])
            i += 1
            x = x + v if cmd == "h" else v
            pts.append((x, y))
        elif cmd in "Vv":
            v = float(tokens[i])
            i += 1
            y = y + v if cmd == "v" else v
            pts.append((x, y))
        else:
            raise AssertionError(f"badge-star uses a path command the star does not need: {cmd!r}")
    if len(pts) > 1 and pts[0] == pts[-1]:
        pts.pop()
    return pts


def test_handoff_json() -> None:
    data = json.loads((c.WS / "out" / "handoff.json").read_text(encoding="utf-8"))
    assert data == {"ring_fill": c.RING, "star_fill": c.STAR, "label": c.LABEL}, data
