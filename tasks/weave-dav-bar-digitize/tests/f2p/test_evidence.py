"""evidence/overlay_worst.png: a real screenshot of the worst region's chart with the overlay
of the agent's measured values loaded (the dashboard draws them from out/measured.csv)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from truth import UNITS, WORST, region_of  # noqa: E402
from realcli_testkit import decode  # noqa: E402  (realcli's shared test helpers)

PNG = Path("evidence/overlay_worst.png")
BAR = (70, 130, 180)
AXIS = (34, 34, 34)
MAGENTA = (255, 0, 255)
PX_PER_UNIT = 0.75


def _image():
    assert PNG.is_file(), "evidence/overlay_worst.png is missing"
    w, h, rows = decode(str(PNG))
    assert (w, h) == (1024, 768), f"size {w}x{h}, want the full 1024x768 display"
    return rows


def _baseline(rows):
    counts = [sum(1 for p in row if p == AXIS) for row in rows]
    y = max(range(len(rows)), key=counts.__getitem__)
    assert counts[y] > 500, "no x axis found: not the dashboard chart"
    return y


def _bars(rows, base):
    row = rows[base - 1]
    runs, start = [], None
    for x, p in enumerate(row + [None]):
        if p == BAR and start is None:
            start = x
        elif p != BAR and start is not None:
            runs.append((start, x - 1))
            start = None
    return [r for r in runs if r[1] - r[0] > 20]


def test_shows_worst_region():
    rows = _image()
    base = _baseline(rows)
    stores = sorted(s for s in UNITS if region_of(s) == WORST)
    bars = _bars(rows, base)
    assert len(bars) == len(stores), f"{len(bars)} bars: not the {WORST} chart"
    for (x0, x1), s in zip(bars, stores):
        cx, top = (x0 + x1) // 2, base - 1
        while top > 0 and rows[top - 1][cx] in (BAR, MAGENTA):
            top -= 1
        expect = base - UNITS[s] * PX_PER_UNIT
        assert abs(top - expect) <= 4, f"bar {s}: top at {top}, expected {expect:.0f}"


def test_overlay_ticks_on_bars():
    rows = _image()
    base = _baseline(rows)
    stores = sorted(s for s in UNITS if region_of(s) == WORST)
    bars = _bars(rows, base)
    assert len(bars) == len(stores)
    for (x0, x1), s in zip(bars, stores):
        # the tick is wider than the bar: look just outside the bar's left edge
        x = x0 - 5
        ys = [y for y in range(base) if rows[y][x] == MAGENTA]
        assert ys, f"no overlay tick for {s}: load the overlay after writing out/measured.csv"
        mid = sum(ys) / len(ys)
        expect = base - UNITS[s] * PX_PER_UNIT
        assert abs(mid - expect) <= 3, f"tick for {s} at row {mid:.0f}, bar top at {expect:.0f}"
