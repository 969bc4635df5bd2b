"""Reference CLI step: parcels from Inkscape's clipboard copy (notes/plan.svg) to metres,
areas/perimeters (CSV) and RFC 7946 GeoJSON."""

import csv
import json
import math
import pathlib
import re
import xml.etree.ElementTree as ET

SVG = "{http://www.w3.org/2000/svg}"
INK = "{http://www.inkscape.org/namespaces/inkscape}"
PAGE_H, SCALE = 300.0, 0.5  # the 400x300 px page; the plan's note: 1 px = 0.5 m


def matrix(transform):
    """The affine (a, b, c, d, e, f) of an SVG transform list (translate/scale/matrix)."""
    m = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
    for name, args in re.findall(r"(\w+)\s*\(([^)]*)\)", transform or ""):
        v = [float(x) for x in re.split(r"[\s,]+", args.strip()) if x]
        if name == "translate":
            t = (1, 0, 0, 1, v[0], v[1] if len(v) > 1 else 0)
        elif name == "scale":
            t = (v[0], 0, 0, v[1] if len(v) > 1 else v[0], 0, 0)
        elif name == "matrix":
            t = tuple(v)
        else:
            raise SystemExit(f"transform {name} not handled")
        m = mul(m, t)
    return m


def mul(m, t):
    a, b, c, d, e, f = m
    a2, b2, c2, d2, e2, f2 = t
    return (a * a2 + c * b2, b * a2 + d * b2, a * c2 + c * d2, b * c2 + d * d2,
            a * e2 + c * f2 + e, b * e2 + d * f2 + f)  # fmt: skip


def points(d):
    """Vertices of an M/L/H/V/Z path (absolute or relative), as Inkscape writes them."""
    tokens = re.findall(r"[MmLlHhVvZz]|-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?", d)
    out, x, y, cmd, i = [], 0.0, 0.0, "", 0
    while i < len(tokens):
        if tokens[i].isalpha():
            cmd = tokens[i]
            i += 1
            continue
        if cmd in "MmLl":
            dx, dy = float(tokens[i]), float(tokens[i + 1])
            i += 2
            x, y = (x + dx, y + dy) if cmd.islower() else (dx, dy)
            cmd = {"M": "L", "m": "l"}.get(cmd, cmd)
        elif cmd in "Hh":
            x = x + float(tokens[i]) if cmd == "h" else float(tokens[i])
            i += 1
        elif cmd in "Vv":
            y = y + float(tokens[i]) if cmd == "v" else float(tokens[i])
            i += 1
        out.append((x, y))
    if out and out[0] == out[-1]:
        out.pop()
    return out


root = ET.parse("notes/plan.svg").getroot()
clip = root.find(f"{INK}clipboard")
parents = {child: parent for parent in root.iter() for child in parent}
parcels = {}
for el in root.iter(f"{SVG}path"):
    pid = el.get("id", "")
    if not pid.startswith("parcel-"):
        continue
    m, node = matrix(el.get("transform")), el
    while parents.get(node) is not None and parents[node] is not root:
        node = parents[node]
        if parents.get(node) is root and clip is not None:
            break  # the clipboard's wrapper group: it only moves the copy to the origin
        m = mul(matrix(node.get("transform")), m)
    a, b, c, d, e, f = m
    pts = [(a * x + c * y + e, b * x + d * y + f) for x, y in points(el.get("d"))]
    ring = [(round(x * SCALE, 4), round((PAGE_H - y) * SCALE, 4)) for x, y in pts]
    edges = list(zip(ring, ring[1:] + ring[:1], strict=True))
    signed = sum(x1 * y2 - x2 * y1 for (x1, y1), (x2, y2) in edges) / 2
    if signed < 0:
        ring.reverse()
    per = sum(math.dist(p, q) for p, q in zip(ring, ring[1:] + ring[:1], strict=True))
    parcels[pid.removeprefix("parcel-")] = (ring, abs(signed), per)
print({k: (round(v[1], 2), round(v[2], 2)) for k, v in sorted(parcels.items())})
out = pathlib.Path("out")
out.mkdir(exist_ok=True)
with open(out / "parcels.csv", "w", encoding="utf-8", newline="") as fh:
    w = csv.writer(fh, lineterminator="\n")
    w.writerow(["id", "area_m2", "perimeter_m"])
    for pid, (_, area, per) in sorted(parcels.items()):
        w.writerow([pid, f"{area:.2f}", f"{per:.2f}"])
features = [
    {
        "type": "Feature",
        "properties": {"id": pid},
        "geometry": {"type": "Polygon", "coordinates": [[list(p) for p in ring + ring[:1]]]},
    }
    for pid, (ring, _, _) in sorted(parcels.items())
]
doc = {"type": "FeatureCollection", "features": features}
(out / "parcels.geojson").write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
