"""Reference CLI step: merge the reviewed text (Writer's clipboard copy, an ODF package) into
docs/retention-policy.odt and list the review comments in review/comments.csv."""

import csv
import re
import xml.etree.ElementTree as ET
import zipfile

NS = {
    "office": "urn:oasis:names:tc:opendocument:xmlns:office:1.0",
    "text": "urn:oasis:names:tc:opendocument:xmlns:text:1.0",
    "dc": "http://purl.org/dc/elements/1.1/",
    "meta": "urn:oasis:names:tc:opendocument:xmlns:meta:1.0",
    "loext": "urn:org:documentfoundation:names:experimental:office:xmlns:loext:1.0",
}
for prefix, uri in NS.items():
    ET.register_namespace(prefix, uri)
Q = lambda p, n: f"{{{NS[p]}}}{n}"  # noqa: E731
BLOCKS = (Q("text", "h"), Q("text", "p"))


def text_of(el):
    """The paragraph's text without its comments (office:annotation)."""
    out = [el.text or ""]
    for child in el:
        if child.tag == Q("office", "annotation"):
            pass
        elif child.tag == Q("text", "s"):
            out.append(" " * int(child.get(Q("text", "c"), "1")))
        else:
            out.append(text_of(child))
        out.append(child.tail or "")
    return "".join(out)


with zipfile.ZipFile("notes/reviewed.odt") as z:
    reviewed = ET.fromstring(z.read("content.xml"))
body = reviewed.find("office:body/office:text", NS)
paragraphs = [text_of(el) for el in body if el.tag in BLOCKS]
comments = []
for ann in body.iter(Q("office", "annotation")):
    date = ann.findtext("dc:date", "", NS)
    comments.append(
        {
            "author": ann.findtext("dc:creator", "", NS),
            "date": date[:16].replace("T", " "),
            "resolved": "yes" if ann.get(Q("loext", "resolved")) == "true" else "no",
            "comment": "".join("".join(p.itertext()) for p in ann.findall("text:p", NS)),
        }
    )
print(paragraphs, comments, sep="\n")

src = "docs/retention-policy.odt"
with zipfile.ZipFile(src) as z:
    parts = {i.filename: z.read(i) for i in z.infolist()}
content = ET.fromstring(parts["content.xml"])
mine = [el for el in content.find("office:body/office:text", NS) if el.tag in BLOCKS]
assert len(mine) == len(paragraphs), (len(mine), len(paragraphs))
for el, text in zip(mine, paragraphs, strict=True):
    for child in list(el):
        el.remove(child)
    el.text = text
parts["content.xml"] = ET.tostring(content, encoding="utf-8", xml_declaration=True)
meta = ET.fromstring(parts["meta.xml"])
ticket = next(m.group(0) for c in comments if (m := re.search(r"DPO-\d+", c["comment"])))
office_meta = meta.find("office:meta", NS)
prop = ET.SubElement(office_meta, Q("meta", "user-defined"), {Q("meta", "name"): "Ticket"})
prop.text = ticket
parts["meta.xml"] = ET.tostring(meta, encoding="utf-8", xml_declaration=True)
with zipfile.ZipFile(src, "w") as z:
    z.writestr(zipfile.ZipInfo("mimetype"), parts.pop("mimetype"))  # first, stored
    for name, data in parts.items():
        z.writestr(name, data, compress_type=zipfile.ZIP_DEFLATED)
with open("review/comments.csv", "w", encoding="utf-8", newline="") as f:
    w = csv.DictWriter(f, ["author", "date", "resolved", "comment"], lineterminator="\n")
    w.writeheader()
    w.writerows(comments)
