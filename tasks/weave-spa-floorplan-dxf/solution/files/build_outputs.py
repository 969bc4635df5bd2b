"""Build the Unit 4B deliverables from the vertex lists copied out of PlanView.

Reads work/<ELEMENT>.txt ("x,y x,y ..." in mm), writes out/rooms.csv, out/plan.dxf and
out/report.json.
"""

import csv
import json
import math
from pathlib import Path

ROOMS = ["LIVING", "KITCHEN", "HALL", "BED-1", "BATH", "BED-2"]
ELEMENTS = ROOMS + ["ISLAND"]
MIN_WALKWAY_MM = 1000


def load(name):
    text = Path("work", f"{name}.txt").read_text().strip()
    pts = [tuple(float(v) for v in tok.split(",")) for tok in text.split()]
    if len(pts) < 3:
        raise SystemExit(f"{name}: no vertices in work/{name}.txt")
    return pts


def signed_area(p):
    return sum(p[i - 1][0] * p[i][1] - p[i][0] * p[i - 1][1] for i in range(len(p))) / 2


def ccw(p):
    return p if signed_area(p) > 0 else p[::-1]


def perimeter(p):
    return sum(math.dist(p[i - 1], p[i]) for i in range(len(p)))


def seg_point(p, a, b):
    ax, ay = a
    bx, by = b
    dx, dy = bx - ax, by - ay
    t = 0.0 if dx == dy == 0 else max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy) / (dx * dx + dy * dy)))
    return math.dist(p, (ax + t * dx, ay + t * dy))


def seg_seg(a, b, c, d):
    # segments here never cross (island inside kitchen): min of endpoint-to-segment distances
    return min(seg_point(a, c, d), seg_point(b, c, d), seg_point(c, a, b), seg_point(d, a, b))


def ring_distance(p, q):
    return min(
        seg_seg(p[i - 1], p[i], q[j - 1], q[j]) for i in range(len(p)) for j in range(len(q))
    )


def fmt(v):
    return f"{v:.3f}".rstrip("0").rstrip(".")


def dxf(shapes):
    out = ["0", "SECTION", "2", "HEADER", "9", "$INSUNITS", "70", "4", "0", "ENDSEC"]
    out += ["0", "SECTION", "2", "ENTITIES"]
    for name, pts in shapes.items():
        out += ["0", "LWPOLYLINE", "8", name, "90", str(len(pts)), "70", "1"]
        for x, y in pts:
            out += ["10", fmt(x), "20", fmt(y)]
    out += ["0", "ENDSEC", "0", "EOF"]
    return "\n".join(out) + "\n"


def main():
    shapes = {name: ccw(load(name)) for name in ELEMENTS}
    Path("out").mkdir(exist_ok=True)
    areas = {}
    with open("out/rooms.csv", "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["room", "area_m2", "perimeter_m"])
        for name in ROOMS:
            areas[name] = signed_area(shapes[name]) / 1e6
            w.writerow([name, f"{areas[name]:.2f}", f"{perimeter(shapes[name]) / 1000:.2f}"])
    Path("out/plan.dxf").write_text(dxf(shapes))
    island = shapes["ISLAND"]
    clearance = ring_distance(island, shapes["KITCHEN"])
    report = {
        "net_floor_area_m2": round(sum(areas.values()), 2),
        "kitchen_clear_floor_m2": round(areas["KITCHEN"] - signed_area(island) / 1e6, 2),
        "island_min_clearance_mm": round(clearance),
        "island_clearance_ok": clearance >= MIN_WALKWAY_MM,
    }
    Path("out/report.json").write_text(json.dumps(report, indent=2) + "\n")
    print(Path("out/rooms.csv").read_text())
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
