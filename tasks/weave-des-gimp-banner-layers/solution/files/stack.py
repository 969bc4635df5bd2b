"""Reference CLI step: banner/layers.json from the Script-Fu console's answer (copied out of
GIMP): one ("name" (x y) opacity visible) per layer, top to bottom."""

import json
import pathlib
import re

text = pathlib.Path("notes/console.txt").read_text(encoding="utf-8")
answer = [line for line in text.splitlines() if line.startswith('(("')][-1]
found = re.findall(r'\("([^"]+)" \((-?\d+) (-?\d+)\) ([0-9.]+) ([01])\)', answer)
layers = [
    {"name": n, "x": int(x), "y": int(y), "opacity": round(float(o)), "visible": v == "1"}
    for n, x, y, o, v in reversed(found)  # GIMP lists top to bottom; layers.json bottom up
]
path = pathlib.Path("banner/layers.json")
spec = json.loads(path.read_text(encoding="utf-8"))
spec["layers"] = layers
path.write_text(json.dumps(spec, indent=1) + "\n", encoding="utf-8")
print(json.dumps(spec, indent=1))
