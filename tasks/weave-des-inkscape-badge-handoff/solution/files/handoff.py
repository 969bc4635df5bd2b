"""Reference CLI step: the master's visible badge (copied from Inkscape) into brand/badge.svg."""

import json
import pathlib
import re
import xml.etree.ElementTree as ET

SVG = "http://www.w3.org/2000/svg"
ET.register_namespace("", SVG)


def fill(el):
    m = re.search(r"(?:^|;)\s*fill\s*:\s*([^;]+)", el.get("style", ""))
    return (m.group(1) if m else el.get("fill")).strip().lower()


copy = ET.parse("notes/visible.svg").getroot()
src = {el.get("id"): el for el in copy.iter() if el.get("id")}
tree = ET.parse("brand/badge.svg")
dst = {el.get("id"): el for el in tree.getroot().iter() if el.get("id")}
for key in ("badge-ring", "badge-face", "badge-star", "badge-label"):
    dst[key].set("fill", fill(src[key]))
    dst[key].attrib.pop("style", None)
dst["badge-star"].set("d", src["badge-star"].get("d"))
dst["badge-label"].text = "".join(src["badge-label"].itertext()).strip()
tree.write("brand/badge.svg", encoding="utf-8", xml_declaration=True)
out = pathlib.Path("out")
out.mkdir(exist_ok=True)
handoff = {
    "ring_fill": fill(src["badge-ring"]),
    "star_fill": fill(src["badge-star"]),
    "label": dst["badge-label"].text,
}
(out / "handoff.json").write_text(json.dumps(handoff, indent=1) + "\n", encoding="utf-8")
print(json.dumps(handoff))
