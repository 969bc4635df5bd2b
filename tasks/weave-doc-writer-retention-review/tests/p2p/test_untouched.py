"""What the merge keeps: the README and the document's own styles."""

from __future__ import annotations

import hashlib
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path

WS = Path.cwd()
STYLE = "{urn:oasis:names:tc:opendocument:xmlns:style:1.0}"


def test_readme_unchanged() -> None:
    digest = hashlib.sha256((WS / "README.md").read_bytes()).hexdigest()
    assert digest == README_SHA256


def test_policy_styles_kept() -> None:
    with zipfile.ZipFile(WS / "docs" / "retention-policy.odt") as z:
        styles = ET.fromstring(z.read("styles.xml"))
    names = {el.get(f"{STYLE}name") for el in styles.iter(f"{STYLE}style")}
    assert {"Policy_20_Body", "Heading_20_1"} <= names, names


README_SHA256 = "0f662ad53e0b71dd29a8b538cad2837dfcaf0dbbc487c34453f7abc1ea390414"
