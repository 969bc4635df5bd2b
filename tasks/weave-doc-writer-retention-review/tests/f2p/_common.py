"""Expected values and helpers for the weave-doc-writer-retention-review tests (hidden)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path

WS = Path.cwd()
POLICY = WS / "docs" / "retention-policy.odt"
NS = {
    "office": "urn:oasis:names:tc:opendocument:xmlns:office:1.0",
    "text": "urn:oasis:names:tc:opendocument:xmlns:text:1.0",
    "style": "urn:oasis:names:tc:opendocument:xmlns:style:1.0",
    "dc": "http://purl.org/dc/elements/1.1/",
    "meta": "urn:oasis:names:tc:opendocument:xmlns:meta:1.0",
}
# Legal's three changes accepted, Marketing's two rejected.
FINAL = [
    ("Heading_20_1", "Customer data retention policy"),
    ("Policy_20_Body", "Support tickets are kept for 30 days after they are closed."),
    (
        "Policy_20_Body",
        "Account data is deleted on request, unless a legal hold or a court order applies.",
    ),
    ("Policy_20_Body", "Nightly backups are kept for 35 days. Backups are encrypted at rest."),
]
COMMENTS = [
    ["author", "date", "resolved", "comment"],
    ["Priya Raman (Legal)", "2026-11-20 09:15", "no", "Shortened per DPO-4471."],
    [
        "Priya Raman (Legal)",
        "2026-11-20 09:20",
        "yes",
        "Court orders count as a legal hold; agreed with the DPO.",
    ],
    [
        "Marco Bell (Marketing)",
        "2026-11-21 16:45",
        "no",
        'Sales asked for "unlimited", see the Q4 plan, p. 3',
    ],
]


def q(prefix: str, name: str) -> str:
    return f"{{{NS[prefix]}}}{name}"


def part(name: str) -> ET.Element:
    with zipfile.ZipFile(POLICY) as z:
        return ET.fromstring(z.read(name))


def blocks(content: ET.Element) -> list[ET.Element]:
    body = content.find("office:body/office:text", NS)
    assert body is not None, "content.xml has no office:body/office:text"
    return [el for el in body if el.tag in (q("text", "h"), q("text", "p"))]


def text_of(el: ET.Element) -> str:
    out = [el.text or ""]
    for child in el:
        if child.tag == q("text", "s"):
            out.append(" " * int(child.get(q("text", "c"), "1")))
        elif child.tag != q("office", "annotation"):
            out.append(text_of(child))
        out.append(child.tail or "")
    return "".join(out)
