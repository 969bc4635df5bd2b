"""out/gap.csv, out/gap.xlsx, out/summary.json: the forecast joined with the targets."""

import csv
import json
import sys
import zipfile
from pathlib import Path
from xml.etree import ElementTree as ET

sys.path.insert(0, str(Path(__file__).parent))
from _truth import SHORT, WORST, expected_rows

HEADER = ["region", "q4_forecast", "q4_target", "gap", "attainment_pct"]
NS = {"m": "http://schemas.openxmlformats.org/spreadsheetml/2006/main"}


def _csv() -> list[list[str]]:
    path = Path("out/gap.csv")
    assert path.is_file(), "out/gap.csv is missing"
    rows = list(csv.reader(path.read_text().splitlines()))
    assert rows and rows[0] == HEADER, f"the header is not {','.join(HEADER)}"
    return rows[1:]


def test_gap_csv() -> None:
    rows = _csv()
    want = expected_rows()
    assert [r[0] for r in rows] == [w[0] for w in want], "regions not sorted by gap ascending"
    for got, exp in zip(rows, want, strict=True):
        assert got[1:4] == exp[1:4], f"{exp[0]}: forecast/target/gap {got[1:4]}, want {exp[1:4]}"
        assert abs(float(got[4]) - float(exp[4])) <= 0.05, f"{exp[0]}: attainment {got[4]}"


def _xlsx_rows(path: Path) -> list[list[str]]:
    with zipfile.ZipFile(path) as z:
        names = z.namelist()
        assert "xl/workbook.xml" in names, "not an Excel workbook (no xl/workbook.xml)"
        shared = []
        if "xl/sharedStrings.xml" in names:
            root = ET.fromstring(z.read("xl/sharedStrings.xml"))
            shared = ["".join(t.text or "" for t in si.iter(f"{{{NS['m']}}}t")) for si in root]
        sheet = ET.fromstring(z.read("xl/worksheets/sheet1.xml"))
    rows = []
    for row in sheet.iter(f"{{{NS['m']}}}row"):
        cells = []
        for c in row.findall("m:c", NS):
            kind, v = c.get("t"), c.find("m:v", NS)
            if kind == "inlineStr":
                cells.append("".join(t.text or "" for t in c.iter(f"{{{NS['m']}}}t")).strip())
            elif kind == "s" and v is not None:
                cells.append(shared[int(v.text or 0)])
            else:
                cells.append((v.text or "").strip() if v is not None else "")
        rows.append(cells)
    return rows


def test_gap_xlsx() -> None:
    path = Path("out/gap.xlsx")
    assert path.is_file(), "out/gap.xlsx is missing"
    assert zipfile.is_zipfile(path), "out/gap.xlsx is not a zip package"
    rows = _xlsx_rows(path)
    assert rows and rows[0] == HEADER, "the workbook's first row is not the header"
    want = expected_rows()
    assert len(rows) - 1 == len(want), f"{len(rows) - 1} data rows, want {len(want)}"
    for got, exp in zip(rows[1:], want, strict=True):
        assert got[0] == exp[0], f"row order: {got[0]}, want {exp[0]}"
        assert [int(float(x)) for x in got[1:4]] == [int(x) for x in exp[1:4]], f"{exp[0]} values"
        assert abs(float(got[4]) - float(exp[4])) <= 0.05, f"{exp[0]}: attainment {got[4]}"


def test_summary() -> None:
    path = Path("out/summary.json")
    assert path.is_file(), "out/summary.json is missing"
    data = json.loads(path.read_text())
    assert data.get("short") == SHORT, f"short {data.get('short')!r}: not the regions below target"
    assert data.get("worst_region") == WORST, "worst_region is not the lowest attainment"
