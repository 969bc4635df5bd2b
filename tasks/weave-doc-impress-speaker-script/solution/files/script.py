"""Reference CLI step: the speaker script and deck.json from Impress's clipboard copy of all
slides (Slide Sorter, Select All, Copy): an ODF presentation package."""

import json
import pathlib
import xml.etree.ElementTree as ET
import zipfile

NS = {
    "office": "urn:oasis:names:tc:opendocument:xmlns:office:1.0",
    "style": "urn:oasis:names:tc:opendocument:xmlns:style:1.0",
    "text": "urn:oasis:names:tc:opendocument:xmlns:text:1.0",
    "draw": "urn:oasis:names:tc:opendocument:xmlns:drawing:1.0",
    "presentation": "urn:oasis:names:tc:opendocument:xmlns:presentation:1.0",
}
Q = lambda p, n: f"{{{NS[p]}}}{n}"  # noqa: E731

with zipfile.ZipFile("notes/deck.odp") as z:
    root = ET.fromstring(z.read("content.xml"))
hidden_styles = {
    s.get(Q("style", "name"))
    for s in root.iter(Q("style", "style"))
    for p in s.findall("style:drawing-page-properties", NS)
    if p.get(Q("presentation", "visibility")) == "hidden"
}


def paragraphs(frame):
    return ["".join(p.itertext()).strip() for p in frame.iter(Q("text", "p"))]


slides = []
for n, page in enumerate(root.iter(Q("draw", "page")), 1):
    frames = [f for f in page.findall("draw:frame", NS)]
    title = paragraphs(frames[0])[0] if frames else ""
    notes_frame = page.find("presentation:notes/draw:frame", NS)
    notes = [p for p in paragraphs(notes_frame) if p] if notes_frame is not None else []
    hidden = page.get(Q("draw", "style-name")) in hidden_styles
    slides.append({"n": n, "title": title, "hidden": hidden, "notes": "\n".join(notes)})
lines = ["# Q4 review: speaker script", ""]
shown = [s for s in slides if not s["hidden"]]
for k, s in enumerate(shown, 1):
    lines += [f"## {k}. {s['title']}", ""]
    for para in s["notes"].split("\n"):
        lines += [para, ""]
pathlib.Path("talk/script.md").write_text("\n".join(lines).rstrip("\n") + "\n", encoding="utf-8")
pathlib.Path("out").mkdir(exist_ok=True)
pathlib.Path("out/deck.json").write_text(
    json.dumps({"slides": slides}, indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
)
print(pathlib.Path("talk/script.md").read_text(encoding="utf-8"))
