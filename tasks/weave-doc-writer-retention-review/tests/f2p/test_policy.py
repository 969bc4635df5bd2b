"""docs/retention-policy.odt: the approved text merged in, a valid ODF package, the ticket."""

from __future__ import annotations

import importlib.util
import zipfile
from pathlib import Path

_spec = importlib.util.spec_from_file_location("_common", Path(__file__).with_name("_common.py"))
assert _spec is not None and _spec.loader is not None
c = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(c)

MIMETYPE = b"application/vnd.oasis.opendocument.text"


def test_approved_text() -> None:
    """Legal's changes accepted, Marketing's rejected; no change marks or comments left."""
    content = c.part("content.xml")
    got = [(el.get(c.q("text", "style-name")), c.text_of(el)) for el in c.blocks(content)]
    assert [t for _, t in got] == [t for _, t in c.FINAL], got
    assert [s for s, _ in got] == [s for s, _ in c.FINAL], f"paragraph styles changed: {got}"
    marks = [
        el.tag.split("}")[1]
        for el in content.iter()
        if el.tag
        in (
            c.q("text", "changed-region"),
            c.q("text", "change"),
            c.q("text", "change-start"),
            c.q("office", "annotation"),
        )
    ]
    assert not marks, f"review marks left in the approved document: {sorted(set(marks))}"


def test_package_and_properties() -> None:
    """A valid ODF text package (mimetype first, stored) whose properties name the ticket."""
    with zipfile.ZipFile(c.POLICY) as z:
        first = z.infolist()[0]
        assert first.filename == "mimetype", "mimetype is not the package's first entry"
        assert first.compress_type == zipfile.ZIP_STORED, "mimetype is compressed"
        assert z.read("mimetype") == MIMETYPE
        assert z.testzip() is None
        names = set(z.namelist())
    assert {"content.xml", "styles.xml", "meta.xml", "META-INF/manifest.xml"} <= names, names
    meta = c.part("meta.xml").find("office:meta", c.NS)
    assert meta is not None
    assert meta.findtext("dc:title", "", c.NS) == "Customer data retention policy"
    props = {
        el.get(c.q("meta", "name")): (el.text or "")
        for el in meta.findall("meta:user-defined", c.NS)
    }
    assert props.get("Owner") == "Data Protection Office", props
    assert props.get("Ticket") == "DPO-4471", f"no Ticket property with Legal's ticket: {props}"
