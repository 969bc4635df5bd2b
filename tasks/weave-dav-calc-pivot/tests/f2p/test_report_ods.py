"""out/q3_report.ods: a real OpenDocument spreadsheet (read with zipfile + ElementTree)."""

import sys
import zipfile
import xml.etree.ElementTree as ET
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _truth import BELOW, ORDER, OUT, PCT, REVENUE, TARGET  # noqa: E402

T = "urn:oasis:names:tc:opendocument:xmlns:table:1.0"
O = "urn:oasis:names:tc:opendocument:xmlns:office:1.0"
S = "urn:oasis:names:tc:opendocument:xmlns:style:1.0"
FO = "urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0"
HIGHLIGHT = "#ff8080"


def _doc() -> tuple[zipfile.ZipFile, ET.Element]:
    path = OUT / "q3_report.ods"
    assert path.is_file(), "out/q3_report.ods is missing"
    assert zipfile.is_zipfile(path), "out/q3_report.ods is not a zip container (ODS)"
    z = zipfile.ZipFile(path)
    return z, ET.fromstring(z.read("content.xml"))


def _backgrounds(z: zipfile.ZipFile, content: ET.Element) -> dict[str, str]:
    roots = [content] + ([ET.fromstring(z.read("styles.xml"))] if "styles.xml" in z.namelist() else [])
    out = {}
    for root in roots:
        for st in root.iter(f"{{{S}}}style"):
            props = st.find(f"{{{S}}}table-cell-properties")
            if props is not None and props.get(f"{{{FO}}}background-color"):
                out[st.get(f"{{{S}}}name", "")] = props.get(f"{{{FO}}}background-color", "").lower()
    return out


def _rows(content: ET.Element) -> list[list[tuple[str | None, str | None, str | None]]]:
    sheets = [t for t in content.iter(f"{{{T}}}table") if t.get(f"{{{T}}}name") == "Attainment"]
    assert sheets, "no sheet named Attainment"
    rows = []
    for row in sheets[0].iter(f"{{{T}}}table-row"):
        cells = []
        for c in row.iter(f"{{{T}}}table-cell"):
            n = min(int(c.get(f"{{{T}}}number-columns-repeated", "1")), 8)
            text = "".join(c.itertext()) or None
            cells += [(c.get(f"{{{O}}}value") or text, c.get(f"{{{O}}}value-type"),
                       c.get(f"{{{T}}}style-name"))] * n  # fmt: skip
        if any(v is not None for v, _, _ in cells):
            rows.append(cells[:4])
    return rows


def test_ods_container() -> None:
    z, _ = _doc()
    names = z.namelist()
    assert names[0] == "mimetype", "the mimetype entry must come first (ODF packaging)"
    assert z.read("mimetype") == b"application/vnd.oasis.opendocument.spreadsheet"
    assert z.getinfo("mimetype").compress_type == zipfile.ZIP_STORED, "mimetype must be stored"
    assert "META-INF/manifest.xml" in names


def test_ods_values() -> None:
    _, content = _doc()
    rows = _rows(content)
    assert [v for v, _, _ in rows[0]] == ["region", "revenue", "target", "attainment_pct"]
    assert [r[0][0] for r in rows[1:]] == ORDER
    for r in rows[1:]:
        region = r[0][0]
        assert all(t == "float" for _, t, _ in r[1:]), f"{region}: numbers must be numeric cells"
        revenue, target, pct = (float(v or "nan") for v, _, _ in r[1:])
        assert abs(revenue - REVENUE[region]) <= 0.011 and target == TARGET[region], region
        assert abs(pct - PCT[region]) <= 0.051, region


def test_ods_highlight() -> None:
    z, content = _doc()
    colours = _backgrounds(z, content)
    for r in _rows(content)[1:]:
        shaded = [colours.get(st or "", "") == HIGHLIGHT for _, _, st in r]
        want = r[0][0] in BELOW
        assert shaded == [want] * 4, f"{r[0][0]}: background {HIGHLIGHT} on all four cells: {want}"
