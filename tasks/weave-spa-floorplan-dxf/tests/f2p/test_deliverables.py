"""Deliverables of weave-spa-floorplan-dxf: out/rooms.csv, out/plan.dxf, out/report.json and
the overlay screenshot out/overlay.png (one test per clause)."""

from __future__ import annotations

import csv
import json
import math
import subprocess
import sys
from pathlib import Path

from realcli_testkit import read_png


WS = Path.cwd()
OUT = WS / "out"

SURVEY = {
    "LIVING": [(0, 0), (5845, 0), (5845, 3915), (4185, 3915), (4185, 5265), (0, 5265)],
    "KITCHEN": [(5845, 0), (10395, 0), (10395, 4641), (7362, 4641), (7362, 3915), (5845, 3915)],
    "HALL": [(4185, 3915), (7362, 3915), (7362, 5265), (5590, 5265), (5590, 8610), (4185, 8610)],
    "BED-1": [(0, 5265), (4185, 5265), (4185, 8610), (0, 8610)],
    "BATH": [(5590, 5265), (8115, 5265), (8115, 8610), (5590, 8610)],
    "BED-2": [(7362, 4641), (10395, 4641), (10395, 8610), (8115, 8610), (8115, 5265), (7362, 5265)],
    "ISLAND": [(6805, 1390), (9170, 1390), (9170, 2285), (6805, 2285)],
}
ROOMS = ["LIVING", "KITCHEN", "HALL", "BED-1", "BATH", "BED-2"]
AREA = {"LIVING": 28.53, "KITCHEN": 20.02, "HALL": 8.99, "BED-1": 14.00, "BATH": 8.45, "BED-2": 9.52}
PERIM = {"LIVING": 22.22, "KITCHEN": 18.38, "HALL": 15.74, "BED-1": 15.06, "BATH": 11.74, "BED-2": 14.00}
NET_AREA = 89.50
KITCHEN_CLEAR = 17.90
CLEARANCE_MM = 960


def _rows() -> list[dict[str, str]]:
    path = OUT / "rooms.csv"
    assert path.is_file(), "out/rooms.csv is missing"
    with path.open(newline="") as fh:
        return list(csv.DictReader(fh))


def _report() -> dict:
    path = OUT / "report.json"
    assert path.is_file(), "out/report.json is missing"
    return json.loads(path.read_text())


def test_rooms_csv_header():
    path = OUT / "rooms.csv"
    assert path.is_file(), "out/rooms.csv is missing"
    first = path.read_text().splitlines()[0].strip()
    assert first == "room,area_m2,perimeter_m"
    assert [r["room"] for r in _rows()] == ROOMS


def test_rooms_csv_areas():
    rows = {r["room"]: r for r in _rows()}
    for room in ROOMS:
        assert room in rows, f"no row for {room}"
        assert abs(float(rows[room]["area_m2"]) - AREA[room]) <= 0.011, room


def test_rooms_csv_perimeters():
    rows = {r["room"]: r for r in _rows()}
    for room in ROOMS:
        assert room in rows, f"no row for {room}"
        assert abs(float(rows[room]["perimeter_m"]) - PERIM[room]) <= 0.011, room


def test_dxf_passes_validator():
    assert (OUT / "plan.dxf").is_file(), "out/plan.dxf is missing"
    res = subprocess.run(
        [sys.executable, "tools/check_dxf.py", "out/plan.dxf"],
        capture_output=True, text=True, timeout=60, cwd=WS,
    )
    assert res.returncode == 0 and res.stdout.startswith("OK"), res.stdout + res.stderr


def _dxf_outlines(text: str) -> dict[str, list[tuple[float, float]]]:
    lines = text.splitlines()
    pairs = [(int(lines[i].strip()), lines[i + 1].strip()) for i in range(0, len(lines) - 1, 2)]
    out: dict[str, list[tuple[float, float]]] = {}
    cur = None
    in_entities = False
    for k, (code, value) in enumerate(pairs):
        if code == 2 and k and pairs[k - 1] == (0, "SECTION"):
            in_entities = value == "ENTITIES"
        if code == 0:
            if cur and cur["layer"]:
                out[cur["layer"]] = list(zip(cur["x"], cur["y"]))
            cur = {"layer": None, "x": [], "y": []} if in_entities and value == "LWPOLYLINE" else None
        elif cur is not None:
            if code == 8:
                cur["layer"] = value
            elif code == 10:
                cur["x"].append(float(value))
            elif code == 20:
                cur["y"].append(float(value))
    return out


def _same_ring(a, b, tol=1.0) -> bool:
    if len(a) != len(b):
        return False
    n = len(b)
    for ring in (a, a[::-1]):
        for s in range(n):
            if all(math.dist(ring[(s + i) % n], b[i]) <= tol for i in range(n)):
                return True
    return False


def test_dxf_geometry_matches_survey():
    path = OUT / "plan.dxf"
    assert path.is_file(), "out/plan.dxf is missing"
    got = _dxf_outlines(path.read_text())
    assert set(got) == set(SURVEY), sorted(got)
    for name, ref in SURVEY.items():
        assert _same_ring(got[name], ref), f"{name}: outline differs from the survey"


def test_report_areas():
    rep = _report()
    assert abs(float(rep["net_floor_area_m2"]) - NET_AREA) <= 0.011
    assert abs(float(rep["kitchen_clear_floor_m2"]) - KITCHEN_CLEAR) <= 0.011


def test_report_clearance():
    rep = _report()
    assert abs(float(rep["island_min_clearance_mm"]) - CLEARANCE_MM) <= 1.0
    assert rep["island_clearance_ok"] is False


# ---------------------------------------------------------------- PNG (stdlib only)
def _png_pixels(path: Path) -> tuple[int, int, list[tuple[int, int, int]]]:
    img = read_png(path)  # realcli's shared test helpers (docs/weave.md)
    return img.width, img.height, list(img.pixels())


def _hex(c: str) -> tuple[int, int, int]:
    return (int(c[1:3], 16), int(c[3:5], 16), int(c[5:7], 16))


def test_overlay_screenshot():
    path = OUT / "overlay.png"
    assert path.is_file(), "out/overlay.png is missing"
    width, height, pixels = _png_pixels(path)
    assert width >= 640 and height >= 480, (width, height)
    counts: dict[tuple[int, int, int], int] = {}
    for p in pixels:
        counts[p] = counts.get(p, 0) + 1
    ok_green = counts.get(_hex("#1b873f"), 0)
    bad_red = counts.get(_hex("#c62828"), 0)
    living = counts.get(_hex("#f3efe4"), 0)
    overlay = counts.get(_hex("#d400d4"), 0)
    assert living >= 20000, "the PlanView plan is not in the screenshot"
    assert overlay >= 500, "no DXF overlay drawn in the screenshot"
    assert ok_green >= 5000, "PlanView does not report OVERLAY OK in the screenshot"
    assert bad_red < 500, "PlanView reports an overlay mismatch in the screenshot"
